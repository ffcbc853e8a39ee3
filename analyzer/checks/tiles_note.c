/*
 * The tile-pieces note (docs/model.md section 7, "Tile pieces of root_inner tensors"): a
 * root_inner tensor whose tile split cannot be worked out (no tile setter before its producer or a
 * consumer, a tile that is not a constant, dynamic dims, a matmul reading it as its right operand or
 * transposed) is counted as one piece, so the kernel's root_inner bytes (U0, the workspace) may be
 * low.  One note per kernel, at the first such tensor, naming every one (pc_result.tiles_unverified);
 * check PC015 (tile-split-unknown), so --checks and NOLINT/noqa can silence it.  The same check
 * says when a buffer upstream's lowering adds (docs/model.md section 4: an FP16 op's FP32 copies,
 * a reduction's halves) cannot be sized (pc_result.lowering_unknown_why).
 */
#include "checks/checks_int.h"

#include <string.h>

static bool same_place(pc_loc a, pc_loc b)
{
    return a.line == b.line && a.col == b.col && (a.file == b.file || (a.file && b.file && !strcmp(a.file, b.file)));
}

void pc_chk_tiles_note(pc_chk_ctx *c)
{
    for (int k = 0; k < pc_chk_nkernels(c); k++) {
        const pc_result *r = pc_chk_result(c, k);
        if (r && r->lowering_unknown_why) {
            const pc_kernel *kern = &c->model->kernels[k];
            pc_diag_report(c->sink, PC_CHK_TILE_SPLIT_UNKNOWN,
                           pc_chk_loc_known(r->lowering_unknown_loc) ? r->lowering_unknown_loc : kern->loc,
                           kern->name,
                           "kernel %s: the root_inner bytes may be low: %s, so the buffers upstream's lowering "
                           "adds there (docs/model.md section 4) are not counted",
                           kern->ref, r->lowering_unknown_why);
        }
        if (!r || r->ntiles_unverified == 0)
            continue;
        const pc_kernel *kern = &c->model->kernels[k];
        /* each name once (a name defined afresh in several places is several tensors) */
        const char **seen = pc_mem_calloc((size_t)r->ntiles_unverified, sizeof *seen);
        int nseen = 0;
        char label[64];
        for (int i = 0; i < r->ntiles_unverified; i++) {
            int t = r->tiles_unverified[i];
            if (t < 0 || t >= kern->ntensors)
                continue;
            const char *nm = pc_arena_strdup(c->arena, pc_tensor_label(&kern->tensors[t], label, sizeof label));
            bool dup = false;
            for (int j = 0; j < nseen && !dup; j++)
                dup = strcmp(seen[j], nm) == 0;
            if (!dup)
                seen[nseen++] = nm;
        }
        pc_sb names = {0};
        for (int i = 0; i < nseen; i++)
            pc_sb_printf(&names, "%s'%s'", i == 0 ? "" : i + 1 == nseen ? " and " : ", ", seen[i]);
        pc_mem_free(seen);
        bool one = nseen <= 1, same_why = true;
        for (int i = 1; i < r->ntiles_unverified; i++)
            same_why = same_why && strcmp(r->tiles_unverified_why[i], r->tiles_unverified_why[0]) == 0;
        int t0 = r->tiles_unverified[0];
        pc_sb msg = {0};
        pc_sb_printf(&msg,
                     "kernel %s: the root_inner bytes may be low: %s %s counted as one piece, because %s; "
                     "upstream may store %s as several tile pieces, each rounded up to 512 bytes",
                     kern->ref, names.data ? names.data : "?", one ? "is" : "are",
                     same_why ? r->tiles_unverified_why[0] : "the tile split's inputs are unknown",
                     one ? "it" : "them");
        pc_loc at = pc_chk_loc_known(r->tiles_unverified_loc[0]) ? r->tiles_unverified_loc[0]
                    : t0 >= 0 && t0 < kern->ntensors ? kern->tensors[t0].loc
                                                     : kern->loc;
        pc_diag *d = pc_diag_report(c->sink, PC_CHK_TILE_SPLIT_UNKNOWN, at, kern->name, "%s", msg.data);
        for (int i = 0; d && !same_why && i < r->ntiles_unverified; i++) {
            int t = r->tiles_unverified[i];
            if (t < 0 || t >= kern->ntensors)
                continue;
            /* a tensor traced once per unroll factor is one place and one reason: said once */
            char mine[64];
            pc_tensor_label(&kern->tensors[t], mine, sizeof mine);
            bool said = false;
            for (int j = 0; j < i && !said; j++) {
                int u = r->tiles_unverified[j];
                said = u >= 0 && u < kern->ntensors && same_place(r->tiles_unverified_loc[j], r->tiles_unverified_loc[i]) &&
                       strcmp(r->tiles_unverified_why[j], r->tiles_unverified_why[i]) == 0 &&
                       strcmp(pc_tensor_label(&kern->tensors[u], label, sizeof label), mine) == 0;
            }
            if (!said)
                pc_diag_note(c->sink, d, r->tiles_unverified_loc[i], "'%s': %s",
                             pc_tensor_label(&kern->tensors[t], label, sizeof label), r->tiles_unverified_why[i]);
        }
        pc_sb_free(&msg);
        pc_sb_free(&names);
    }
}
