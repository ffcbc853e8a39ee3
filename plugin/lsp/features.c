/*
 * features.c - pc_file_result -> LSP JSON: published diagnostics, quickfix code actions, hovers.
 *
 * Nothing is computed here that the library has not already decided: diagnostics, notes and fixes
 * come from the driver's sink, hover facts from pc_result (tensors, roots, DeviceTasks).  This file
 * only moves them into LSP's shapes and converts byte columns to the negotiated encoding, using
 * the text of whichever file a location points into (usually the document itself, sometimes a
 * config file).
 */
#define _XOPEN_SOURCE 700   /* realpath */
#include "lsp.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- locations in any file ------------------------------------------------------------------- */

/* Line tables of the files locations point into, read at most once per call. */
typedef struct conv_file {
    const char *file;        /* as the location spells it */
    char *text;              /* read from disk; NULL for the document or an unreadable file */
    pc_lsp_lines lines;
    bool have_lines;
    bool is_doc;
} conv_file;

typedef struct conv {
    const pc_lsp_view *v;
    char *doc_real;          /* realpath of the document, to recognise other spellings of it */
    PC_VEC(conv_file) files;
} conv;

static void conv_init(conv *c, const pc_lsp_view *v)
{
    memset(c, 0, sizeof *c);
    c->v = v;
    char *rp = realpath(v->path, NULL);
    if (rp) {
        c->doc_real = pc_mem_strdup(rp);
        free(rp);
    }
}

static void conv_free(conv *c)
{
    for (size_t i = 0; i < c->files.count; i++) {
        if (c->files.items[i].text) {
            pc_lsp_lines_free(&c->files.items[i].lines);
            pc_mem_free(c->files.items[i].text);
        }
    }
    PC_VEC_FREE(c->files);
    pc_mem_free(c->doc_real);
}

static bool is_doc_file(const conv *c, const char *file)
{
    if (!file)
        return false;
    if (strcmp(file, c->v->path) == 0)
        return true;
    if (!c->doc_real)
        return false;
    char *rp = realpath(file, NULL);
    bool same = rp && strcmp(rp, c->doc_real) == 0;
    free(rp);
    return same;
}

static conv_file *conv_lookup(conv *c, const char *file)
{
    for (size_t i = 0; i < c->files.count; i++)
        if (strcmp(c->files.items[i].file, file) == 0)
            return &c->files.items[i];
    conv_file f;
    memset(&f, 0, sizeof f);
    f.file = file;
    f.is_doc = is_doc_file(c, file);
    if (!f.is_doc) {
        size_t len = 0;
        char *err = NULL;
        f.text = pc_read_file(file, &len, &err);
        pc_mem_free(err);
        if (f.text) {
            pc_lsp_lines_init(&f.lines, f.text, len);
            f.have_lines = true;
        }
    }
    PC_VEC_PUSH(c->files, f);
    return &c->files.items[c->files.count - 1];
}

/* A pc_loc position (1-based line, 1-based byte column) in `file` -> LSP position. */
static pc_lsp_pos conv_pos(conv *c, const char *file, uint32_t line, uint32_t col)
{
    conv_file *f = conv_lookup(c, file);
    if (f->is_doc)
        return pc_lsp_to_lsp(c->v->lines, line, col, c->v->enc);
    if (f->have_lines)
        return pc_lsp_to_lsp(&f->lines, line, col, c->v->enc);
    /* A file we cannot read: byte columns are the best we have. */
    pc_lsp_pos p = {line ? line - 1 : 0, col ? col - 1 : 0};
    return p;
}

static cJSON *pos_json(pc_lsp_pos p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", p.line);
    cJSON_AddNumberToObject(o, "character", p.character);
    return o;
}

typedef struct lsp_range { pc_lsp_pos start, end; } lsp_range;

/* The LSP range of a location; an unknown end is the start (an empty range). */
static lsp_range conv_range(conv *c, const pc_loc *l)
{
    lsp_range r;
    r.start = conv_pos(c, l->file, l->line, l->col);
    r.end = l->end_line ? conv_pos(c, l->file, l->end_line, l->end_col) : r.start;
    if (r.end.line < r.start.line || (r.end.line == r.start.line && r.end.character < r.start.character))
        r.end = r.start;
    return r;
}

static cJSON *range_json(lsp_range r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "start", pos_json(r.start));
    cJSON_AddItemToObject(o, "end", pos_json(r.end));
    return o;
}

static char *uri_of(conv *c, const char *file)
{
    return is_doc_file(c, file) ? pc_mem_strdup(c->v->uri) : pc_lsp_path_to_uri(file);
}

static cJSON *location_json(conv *c, const pc_loc *l)
{
    cJSON *o = cJSON_CreateObject();
    char *uri = uri_of(c, l->file);
    cJSON_AddStringToObject(o, "uri", uri);
    pc_mem_free(uri);
    cJSON_AddItemToObject(o, "range", range_json(conv_range(c, l)));
    return o;
}

/* ---- diagnostics ----------------------------------------------------------------------------- */

static int lsp_severity(pc_severity s)
{
    switch (s) {
    case PC_SEV_ERROR: return 1;
    case PC_SEV_WARNING: return 2;
    default: return 3;   /* Information: a note is advice, not a problem */
    }
}

/* The range a diagnostic is shown at in the document.  One located elsewhere (an option in a
 * config file) or nowhere (a --set value) is shown at the top of the document, so it is not
 * lost; its real place is in the message and relatedInformation. */
static lsp_range diag_range(conv *c, const pc_diag *d, bool *elsewhere)
{
    *elsewhere = !d->loc.file || !is_doc_file(c, d->loc.file);
    if (*elsewhere) {
        lsp_range r = {{0, 0}, {0, 0}};
        return r;
    }
    return conv_range(c, &d->loc);
}

static cJSON *diag_json(conv *c, const pc_diag *d)
{
    bool elsewhere;
    lsp_range r = diag_range(c, d, &elsewhere);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "range", range_json(r));
    cJSON_AddNumberToObject(o, "severity", lsp_severity(d->severity));
    if (d->id) {
        cJSON_AddStringToObject(o, "code", d->id);
        if (c->v->docs_base) {
            pc_sb href = {0};
            pc_sb_printf(&href, "%s/%s.md", c->v->docs_base, d->id);
            cJSON *cd = cJSON_AddObjectToObject(o, "codeDescription");
            cJSON_AddStringToObject(cd, "href", href.data);
            pc_sb_free(&href);
        }
    }
    cJSON_AddStringToObject(o, "source", "poolcheck");
    pc_sb msg = {0};
    if (elsewhere && d->loc.file)
        pc_sb_printf(&msg, "%s:%u:%u: ", d->loc.file, d->loc.line, d->loc.col);
    else if (elsewhere)
        pc_sb_append(&msg, "(settings) ");
    pc_sb_append(&msg, d->message ? d->message : "");
    if (d->promoted)
        pc_sb_append(&msg, " [-warnings-as-errors]");
    cJSON_AddStringToObject(o, "message", msg.data);
    pc_sb_free(&msg);

    cJSON *rel = cJSON_CreateArray();
    if (elsewhere && d->loc.file) {
        cJSON *ri = cJSON_CreateObject();
        cJSON_AddItemToObject(ri, "location", location_json(c, &d->loc));
        cJSON_AddStringToObject(ri, "message", "reported here");
        cJSON_AddItemToArray(rel, ri);
    }
    for (int i = 0; i < d->nnotes; i++) {
        const pc_note *n = &d->notes[i];
        cJSON *ri = cJSON_CreateObject();
        if (n->loc.file && n->loc.line) {
            cJSON_AddItemToObject(ri, "location", location_json(c, &n->loc));
        } else {
            /* A note with no place of its own (a --set value) belongs to its diagnostic. */
            cJSON *l = cJSON_CreateObject();
            cJSON_AddStringToObject(l, "uri", c->v->uri);
            cJSON_AddItemToObject(l, "range", range_json(r));
            cJSON_AddItemToObject(ri, "location", l);
        }
        cJSON_AddStringToObject(ri, "message", n->message ? n->message : "");
        cJSON_AddItemToArray(rel, ri);
    }
    if (cJSON_GetArraySize(rel) > 0)
        cJSON_AddItemToObject(o, "relatedInformation", rel);
    else
        cJSON_Delete(rel);
    return o;
}

void *pc_lsp_diagnostics_json(const pc_lsp_view *v)
{
    conv c;
    conv_init(&c, v);
    cJSON *arr = cJSON_CreateArray();
    size_t n = 0;
    const pc_diag *items = pc_diag_items(v->result->sink, &n);
    for (size_t i = 0; i < n; i++)
        cJSON_AddItemToArray(arr, diag_json(&c, &items[i]));
    conv_free(&c);
    return arr;
}

/* ---- code actions ---------------------------------------------------------------------------- */

static int pos_cmp(pc_lsp_pos a, pc_lsp_pos b)
{
    if (a.line != b.line)
        return a.line < b.line ? -1 : 1;
    if (a.character != b.character)
        return a.character < b.character ? -1 : 1;
    return 0;
}

static bool json_pos_equals(const cJSON *o, pc_lsp_pos p)
{
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(o, "line");
    const cJSON *ch = cJSON_GetObjectItemCaseSensitive(o, "character");
    return cJSON_IsNumber(l) && cJSON_IsNumber(ch) && l->valuedouble == p.line &&
           ch->valuedouble == p.character;
}

/* Did the client name this diagnostic in context.diagnostics (same code, same range)? */
static bool named_by_client(const cJSON *named, const pc_diag *d, lsp_range r)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, named)
    {
        const cJSON *code = cJSON_GetObjectItemCaseSensitive(it, "code");
        const cJSON *range = cJSON_GetObjectItemCaseSensitive(it, "range");
        if (!cJSON_IsString(code) || !d->id || strcmp(code->valuestring, d->id) != 0)
            continue;
        if (json_pos_equals(cJSON_GetObjectItemCaseSensitive(range, "start"), r.start) &&
            json_pos_equals(cJSON_GetObjectItemCaseSensitive(range, "end"), r.end))
            return true;
    }
    return false;
}

/* "PC001: replace with `[64, 2, 1]`": what the edit does, in a line. */
static char *action_title(const pc_diag *d)
{
    pc_sb t = {0};
    pc_sb_printf(&t, "%s: ", d->id ? d->id : "poolcheck");
    if (d->nfixes != 1) {
        pc_sb_printf(&t, "apply the suggested fix (%d edits)", d->nfixes);
        return pc_sb_take(&t);
    }
    const pc_fix *f = &d->fixes[0];
    const char *rep = f->replacement ? f->replacement : "";
    bool empty_range = f->range.end_line == f->range.line && f->range.end_col == f->range.col;
    size_t n = strcspn(rep, "\r\n");
    while (n > 0 && isspace((unsigned char)rep[0])) {
        rep++;
        n--;
    }
    const char *what = !*rep ? "delete the flagged text" : empty_range ? "insert" : "replace with";
    pc_sb_append(&t, what);
    if (*rep) {
        bool cut = n > 60 || rep[n] != 0;
        pc_sb_printf(&t, " `%.*s%s`", (int)(n > 60 ? 60 : n), rep, cut ? "…" : "");
    }
    return pc_sb_take(&t);
}

static cJSON *action_json(conv *c, const pc_diag *d)
{
    cJSON *a = cJSON_CreateObject();
    char *title = action_title(d);
    cJSON_AddStringToObject(a, "title", title);
    pc_mem_free(title);
    cJSON_AddStringToObject(a, "kind", "quickfix");
    cJSON *diags = cJSON_AddArrayToObject(a, "diagnostics");
    cJSON_AddItemToArray(diags, diag_json(c, d));
    cJSON_AddBoolToObject(a, "isPreferred", 1);
    cJSON *changes = cJSON_AddObjectToObject(cJSON_AddObjectToObject(a, "edit"), "changes");
    for (int i = 0; i < d->nfixes; i++) {
        const pc_fix *f = &d->fixes[i];
        const char *file = f->range.file ? f->range.file : c->v->path;
        char *uri = uri_of(c, file);
        cJSON *edits = cJSON_GetObjectItemCaseSensitive(changes, uri);
        if (!edits)
            edits = cJSON_AddArrayToObject(changes, uri);
        pc_mem_free(uri);
        pc_loc at = f->range;
        at.file = file;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddItemToObject(e, "range", range_json(conv_range(c, &at)));
        cJSON_AddStringToObject(e, "newText", f->replacement ? f->replacement : "");
        cJSON_AddItemToArray(edits, e);
    }
    return a;
}

void *pc_lsp_code_actions_json(const pc_lsp_view *v, pc_lsp_pos start, pc_lsp_pos end,
                               const void *context_diags)
{
    conv c;
    conv_init(&c, v);
    cJSON *arr = cJSON_CreateArray();
    size_t n = 0;
    const pc_diag *items = pc_diag_items(v->result->sink, &n);
    if (pos_cmp(end, start) < 0) {
        pc_lsp_pos t = start;
        start = end;
        end = t;
    }
    for (size_t i = 0; i < n; i++) {
        const pc_diag *d = &items[i];
        if (d->nfixes == 0)
            continue;
        bool elsewhere;
        lsp_range r = diag_range(&c, d, &elsewhere);
        bool meets = pos_cmp(r.start, end) <= 0 && pos_cmp(start, r.end) <= 0;
        if (meets || (context_diags && named_by_client(context_diags, d, r)))
            cJSON_AddItemToArray(arr, action_json(&c, d));
    }
    conv_free(&c);
    return arr;
}

/* ---- hover ----------------------------------------------------------------------------------- */

/* Is (line, col) inside loc, end inclusive (the cursor just after a name still names it)?  An
 * unknown end covers the identifier that starts at loc. *span is the range's size, to prefer the
 * innermost of nested candidates. */
static bool loc_contains(const pc_lsp_view *v, conv *c, const pc_loc *l, uint32_t line,
                         uint32_t col, uint64_t *span)
{
    if (!l->file || !l->line || !is_doc_file(c, l->file))
        return false;
    uint32_t el = l->end_line, ec = l->end_col;
    if (!el) {
        const pc_lsp_lines *ls = v->lines;
        el = l->line;
        ec = l->col;
        if (l->line <= ls->nlines) {
            size_t s = ls->starts[l->line - 1], n = pc_lsp_line_len(ls, l->line - 1);
            while (ec >= 1 && ec - 1 < n && (isalnum((unsigned char)ls->text[s + ec - 1]) ||
                                  ls->text[s + ec - 1] == '_'))
                ec++;
        }
    }
    uint64_t a = (uint64_t)l->line << 32 | l->col, b = (uint64_t)el << 32 | ec;
    uint64_t p = (uint64_t)line << 32 | col;
    if (p < a || p > b)
        return false;
    *span = b - a;
    return true;
}

static void append_triple(pc_sb *b, const int64_t t[3])
{
    pc_sb_putc(b, '[');
    for (int i = 0; i < 3; i++) {
        if (t[i] < 0)
            pc_sb_printf(b, "%s?", i ? ", " : "");
        else
            pc_sb_printf(b, "%s%lld", i ? ", " : "", (long long)t[i]);
    }
    pc_sb_putc(b, ']');
}

static void append_expr(pc_sb *b, const pc_expr *e)
{
    if (!e) {
        pc_sb_append(b, "?");
        return;
    }
    char *s = pc_expr_to_string(e);
    pc_sb_append(b, s ? s : "?");
    pc_mem_free(s);
}

static void append_unknowns(pc_sb *b, const pc_result *r)
{
    for (int i = 0; i < r->nunknowns; i++)
        pc_sb_printf(b, "%s`%s`", i ? ", " : "", r->unknowns[i]);
}

static void append_kernel_line(pc_sb *b, const pc_result *r)
{
    pc_sb_printf(b, "\n\nkernel `%s`: predicted ", r->kernel->name);
    append_triple(b, r->predicted);
    pc_sb_append(b, ", configured ");
    append_triple(b, r->configured);
    if (r->instances >= 0 && r->device_tasks >= 0)
        pc_sb_printf(b, "; %lld instance%s in %lld DeviceTask%s (k = %lld)", (long long)r->instances,
                     r->instances == 1 ? "" : "s", (long long)r->device_tasks, r->device_tasks == 1 ? "" : "s",
                     (long long)r->k);
    if (r->nunknowns) {
        pc_sb_append(b, "; depends on ");
        append_unknowns(b, r);
    }
}

static void hover_tensor(pc_sb *b, const pc_result *r, int t)
{
    const pc_kernel *k = r->kernel;
    const pc_tensor *tn = &k->tensors[t];
    const pc_tensor_result *tr = &r->tensors[t];
    pc_sb_printf(b, "**%s**", tn->name && *tn->name ? tn->name : tn->variable);
    if (tn->variable && *tn->variable && tn->name && strcmp(tn->name, tn->variable) != 0)
        pc_sb_printf(b, " (variable `%s`)", tn->variable);
    pc_sb_printf(b, ": pool **%s**", pc_pool_name(tr->pool));
    pc_sb_printf(b, "\n\n%s ", tn->dtype != PC_DT_UNKNOWN ? pc_dtype_name(tn->dtype) : "dtype ?");
    if (tn->ndims < 0) {
        pc_sb_append(b, "shape ?");
    } else {
        pc_sb_putc(b, '[');
        for (int i = 0; i < tn->ndims; i++) {
            if (i)
                pc_sb_append(b, ", ");
            append_expr(b, tn->shape[i]);
        }
        pc_sb_putc(b, ']');
    }
    if (tr->bytes >= 0)
        pc_sb_printf(b, ": %lld bytes, %lld after 512-byte alignment", (long long)tr->bytes,
                     (long long)tr->aligned_bytes);
    else
        pc_sb_append(b, ": bytes unknown");
    if (tn->kind == PC_TENSOR_VIEW && tn->base >= 0 && tn->base < k->ntensors)
        pc_sb_printf(b, "\n\nview of `%s`: allocates nothing of its own", k->tensors[tn->base].variable);
    if (tr->reason && *tr->reason)
        pc_sb_printf(b, "\n\nwhy: %s", tr->reason);
    /* The root that writes it, when it runs: a tensor declared in the kernel body belongs to
     * the body's root, which may do no work of its own (0 instances) and is no help here. */
    if (tr->root >= 0 && tr->root < r->nroots && r->roots[tr->root].instances != 0) {
        const pc_root_result *rr = &r->roots[tr->root];
        pc_sb_printf(b, "\n\nwritten by root function `%s`", rr->name);
        if (rr->instances > 0)
            pc_sb_printf(b, " (%lld instance%s)", (long long)rr->instances, rr->instances == 1 ? "" : "s");
    }
    append_kernel_line(b, r);
}

/* DeviceTasks that hold instances of root `root`: first, last (0-based) and how many. */
static int64_t root_tasks(const pc_result *r, int root, int64_t *first, int64_t *last)
{
    int64_t count = 0;
    *first = *last = -1;
    for (int64_t t = 0; t < r->ntasks; t++) {
        const pc_task *task = &r->tasks[t];
        for (int64_t i = task->first; i <= task->last && i < r->ninstances; i++) {
            if (i >= 0 && r->instance_roots[i] == root) {
                if (*first < 0)
                    *first = t;
                *last = t;
                count++;
                break;
            }
        }
    }
    return count;
}

static void hover_loop(pc_sb *b, const pc_result *r, int loop)
{
    const pc_loop *lp = &r->kernel->loops[loop];
    pc_sb_printf(b, "**%s**: loop over `%s` from ", lp->name ? lp->name : "loop",
                 lp->index_var ? lp->index_var : "?");
    append_expr(b, lp->begin);
    pc_sb_append(b, " to ");
    append_expr(b, lp->end);
    pc_sb_append(b, " step ");
    append_expr(b, lp->step);
    if (lp->nunroll > 0) {
        pc_sb_append(b, ", unroll [");
        for (int i = 0; i < lp->nunroll; i++)
            pc_sb_printf(b, "%s%lld", i ? ", " : "", (long long)lp->unroll[i]);
        pc_sb_putc(b, ']');
    }
    if (lp->submit_before_loop)
        pc_sb_append(b, ", submit_before_loop (a DeviceTask boundary)");
    if (lp->parallel)
        pc_sb_append(b, ", parallel");
    int shown = 0;
    for (int i = 0; i < r->nroots; i++) {
        const pc_root_result *rr = &r->roots[i];
        if (rr->loop != loop)
            continue;
        shown++;
        pc_sb_printf(b, "\n\n- root function `%s`: ", rr->name);
        if (rr->instances < 0) {
            pc_sb_append(b, "instances unknown");
            if (r->nunknowns) {
                pc_sb_append(b, " (bind ");
                append_unknowns(b, r);
                pc_sb_putc(b, ')');
            }
            continue;
        }
        pc_sb_printf(b, "%lld instance%s", (long long)rr->instances, rr->instances == 1 ? "" : "s");
        int64_t first, last, n = r->tasks ? root_tasks(r, i, &first, &last) : 0;
        /* DeviceTasks numbered from 0, as in the CLI, JSON and HTML (docs/model.md section 5) */
        if (n == 1)
            pc_sb_printf(b, ", in DeviceTask %lld (of %lld, numbered from 0)", (long long)first,
                         (long long)r->ntasks);
        else if (n > 1)
            pc_sb_printf(b, ", across %lld DeviceTasks (%lld to %lld of %lld, numbered from 0)", (long long)n,
                         (long long)first, (long long)last, (long long)r->ntasks);
    }
    if (!shown)
        pc_sb_append(b, "\n\nno root function of its own (its body only holds loops, or does no tensor work)");
    append_kernel_line(b, r);
}

void *pc_lsp_hover_json(const pc_lsp_view *v, pc_lsp_pos pos)
{
    const pc_file_result *fr = v->result;
    if (!fr->model || fr->model->fatal || !fr->results)
        return NULL;
    uint32_t line, col;
    pc_lsp_from_lsp(v->lines, pos, v->enc, &line, &col);
    conv c;
    conv_init(&c, v);
    /* The innermost thing under the cursor: a tensor's definition or any access to it, else
     * the innermost loop whose header holds the cursor. */
    int best_k = -1, best_t = -1, best_loop = -1;
    uint64_t best = UINT64_MAX, span;
    pc_loc best_loc = {0};
    for (int k = 0; k < fr->model->nkernels; k++) {
        const pc_kernel *kn = &fr->model->kernels[k];
        for (int t = 0; t < kn->ntensors; t++) {
            if (loc_contains(v, &c, &kn->tensors[t].loc, line, col, &span) && span < best) {
                best = span;
                best_k = k;
                best_t = t;
                best_loc = kn->tensors[t].loc;
            }
        }
        for (int s = 0; s < kn->nstmts; s++) {
            const pc_stmt *st = &kn->stmts[s];
            for (int a = 0; a < st->naccesses; a++) {
                const pc_access *ac = &st->accesses[a];
                if (ac->tensor >= 0 && ac->tensor < kn->ntensors &&
                    loc_contains(v, &c, &ac->loc, line, col, &span) && span < best) {
                    best = span;
                    best_k = k;
                    best_t = ac->tensor;
                    best_loc = ac->loc;
                }
            }
        }
    }
    if (best_t < 0) {
        for (int k = 0; k < fr->model->nkernels; k++) {
            const pc_kernel *kn = &fr->model->kernels[k];
            for (int l = 0; l < kn->nloops; l++) {
                const pc_loop *lp = &kn->loops[l];
                const pc_loc *h = lp->header.line ? &lp->header : &lp->loc;
                if (loc_contains(v, &c, h, line, col, &span) && span < best) {
                    best = span;
                    best_k = k;
                    best_loop = l;
                    best_loc = *h;
                }
            }
        }
    }
    const pc_result *r = best_k >= 0 ? fr->results[best_k] : NULL;
    if (!r || (best_t < 0 && best_loop < 0)) {
        conv_free(&c);
        return NULL;
    }
    pc_sb b = {0};
    if (best_t >= 0)
        hover_tensor(&b, r, best_t);
    else
        hover_loop(&b, r, best_loop);
    cJSON *h = cJSON_CreateObject();
    cJSON *contents = cJSON_AddObjectToObject(h, "contents");
    cJSON_AddStringToObject(contents, "kind", "markdown");
    cJSON_AddStringToObject(contents, "value", b.data);
    pc_sb_free(&b);
    cJSON_AddItemToObject(h, "range", range_json(conv_range(&c, &best_loc)));
    conv_free(&c);
    return h;
}
