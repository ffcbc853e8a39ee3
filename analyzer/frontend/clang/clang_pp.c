/*
 * clang_pp.c - what the preprocessor decided, read back from libclang: the ranges of the main
 * file it skipped (an `#if 0` block, the other side of an `#ifdef`), so that the readers of code
 * clang dropped (clang_recover.c) never take a LOOP there for one clang lost.
 *
 * Macro values need no reading of their own: the cursors a kernel's values come from are the
 * expanded code (`LoopRange(0, TRIPS, 1)` under `#define TRIPS 64` is a literal 64 there).
 */
#include "clang_int.h"

void pc_clang_skipped_ranges(pc_cx *cx)
{
    cx->skipped.count = 0;
    if (!cx->main_file)
        return;
    CXSourceRangeList *l = clang_getSkippedRanges(cx->tu, cx->main_file);
    if (!l)
        return;
    for (unsigned i = 0; i < l->count; i++) {
        unsigned b = 0, e = 0;
        clang_getFileLocation(clang_getRangeStart(l->ranges[i]), NULL, NULL, NULL, &b);
        clang_getFileLocation(clang_getRangeEnd(l->ranges[i]), NULL, NULL, NULL, &e);
        if (e > b)
            PC_VEC_PUSH(cx->skipped, ((pc_cspan){-1, -1, b, e}));
    }
    clang_disposeSourceRangeList(l);
}

bool pc_clang_is_skipped(const pc_cx *cx, uint32_t off)
{
    for (size_t i = 0; i < cx->skipped.count; i++)
        if (off >= cx->skipped.items[i].begin && off < cx->skipped.items[i].end)
            return true;
    return false;
}
