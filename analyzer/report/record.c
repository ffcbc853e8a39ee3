/*
 * record.c - pc_rep_file: one file's results as the output formats print them (report_int.h).
 */
#include "report/report_int.h"

#include <string.h>

static const char *dup(pc_arena *a, const char *s) { return s ? pc_arena_strdup(a, s) : NULL; }

static pc_loc copy_loc(pc_arena *a, pc_loc l)
{
    l.file = dup(a, l.file);
    return l;
}

typedef PC_VEC(pc_rep_srcline) line_vec;

/* Record line `line` of `file` (and, when end_line differs, that line too) once. */
static void want_line(line_vec *v, pc_rep_sources *srcs, const pc_file_result *fr, pc_arena *a, const char *file,
                      uint32_t line)
{
    if (!file || !*file || line == 0)
        return;
    for (size_t i = 0; i < v->count; i++)
        if (v->items[i].line == line && strcmp(v->items[i].file, file) == 0)
            return;
    size_t len = 0;
    const char *text = pc_rep_source(srcs, fr, file, &len);
    const char *start;
    size_t n;
    if (!text || !pc_rep_line(text, len, line, &start, &n))
        return; /* not recorded: pc_rep_file_line says false, as pc_rep_line would */
    char *copy = pc_arena_alloc(a, n + 1); /* a line may hold NUL bytes */
    memcpy(copy, start, n);
    pc_rep_srcline l = {pc_arena_strdup(a, file), line, copy, n};
    PC_VEC_PUSH(*v, l);
}

static void want_loc(line_vec *v, pc_rep_sources *srcs, const pc_file_result *fr, pc_arena *a, pc_loc l)
{
    want_line(v, srcs, fr, a, l.file, l.line);
    if (l.end_line && l.end_line != l.line)
        want_line(v, srcs, fr, a, l.file, l.end_line);
}

pc_rep_file *pc_rep_file_new(const pc_file_result *fr)
{
    pc_arena *a = pc_arena_new();
    pc_rep_file *f = pc_arena_alloc(a, sizeof *f);
    f->arena = a;
    const pc_model *m = fr->model;
    f->file = m ? dup(a, m->file) : NULL;
    f->fatal = m && m->fatal;
    f->no_kernel = m && !m->fatal && m->nkernels == 0;
    f->errors = fr->sink ? pc_diag_count(fr->sink, PC_SEV_ERROR) : 0;
    f->capped = fr->sink ? pc_diag_capped(fr->sink) : 0;
    f->suppressed = fr->sink ? pc_diag_suppressed(fr->sink) : 0;

    size_t n = 0;
    const pc_diag *items = fr->sink ? pc_diag_items(fr->sink, &n) : NULL;
    size_t *order = fr->sink ? pc_rep_order(fr, &n) : NULL;
    f->ndiags = n;
    f->diags = pc_arena_alloc(a, (n ? n : 1) * sizeof *f->diags);
    line_vec lines = {0};
    pc_rep_sources srcs = {0};
    for (size_t k = 0; k < n; k++) {
        const pc_diag *d = &items[order[k]];
        pc_diag *c = &f->diags[k];
        *c = *d;
        c->id = dup(a, d->id);
        c->name = dup(a, d->name);
        c->loc = copy_loc(a, d->loc);
        c->kernel = dup(a, d->kernel);
        c->message = dup(a, d->message ? d->message : "");
        c->nnotes = d->nnotes > 0 ? d->nnotes : 0;
        c->notes = pc_arena_alloc(a, (size_t)(c->nnotes ? c->nnotes : 1) * sizeof *c->notes);
        for (int i = 0; i < c->nnotes; i++) {
            c->notes[i].loc = copy_loc(a, d->notes[i].loc);
            c->notes[i].message = dup(a, d->notes[i].message ? d->notes[i].message : "");
            want_loc(&lines, &srcs, fr, a, d->notes[i].loc);
        }
        c->nfixes = d->nfixes > 0 ? d->nfixes : 0;
        c->fixes = pc_arena_alloc(a, (size_t)(c->nfixes ? c->nfixes : 1) * sizeof *c->fixes);
        for (int i = 0; i < c->nfixes; i++) {
            c->fixes[i].range = copy_loc(a, d->fixes[i].range);
            c->fixes[i].replacement = dup(a, d->fixes[i].replacement ? d->fixes[i].replacement : "");
            want_loc(&lines, &srcs, fr, a, d->fixes[i].range);
        }
        want_loc(&lines, &srcs, fr, a, d->loc);
    }
    pc_mem_free(order);
    pc_rep_sources_free(&srcs);
    f->nlines = lines.count;
    f->lines = pc_arena_alloc(a, (lines.count ? lines.count : 1) * sizeof *f->lines);
    if (lines.count)
        memcpy(f->lines, lines.items, lines.count * sizeof *f->lines);
    PC_VEC_FREE(lines);

    size_t nk = 0;
    if (fr->results && fr->cfgs && m)
        for (int k = 0; k < m->nkernels; k++)
            nk += fr->results[k] != NULL;
    f->kernels = pc_arena_alloc(a, (nk ? nk : 1) * sizeof *f->kernels);
    if (nk)
        for (int k = 0; k < m->nkernels; k++)
            if (fr->results[k])
                pc_rep_kernel_from_result(&f->kernels[f->nkernels++], fr->results[k], a);
    return f;
}

void pc_rep_file_free(pc_rep_file *f)
{
    if (f)
        pc_arena_free(f->arena);
}

int pc_rep_file_status(const pc_rep_file *f)
{
    return f->fatal ? 2 : f->errors > 0 ? 1 : 0;
}

bool pc_rep_file_line(const pc_rep_file *f, const char *file, uint32_t line, const char **start, size_t *n)
{
    if (!f || !file || line == 0)
        return false;
    for (size_t i = 0; i < f->nlines; i++)
        if (f->lines[i].line == line && strcmp(f->lines[i].file, file) == 0) {
            *start = f->lines[i].text;
            *n = f->lines[i].len;
            return true;
        }
    return false;
}
