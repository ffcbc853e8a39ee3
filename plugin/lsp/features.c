/*
 * features.c - pc_file_result -> LSP JSON: published diagnostics, quickfix code actions, hovers,
 * inlay hints, code lenses and the edit of a kernel's suggested configuration.
 *
 * Nothing is computed here that the library has not already decided: diagnostics, notes and fixes
 * come from the driver's sink, hover and inlay hint facts from pc_result (tensors, roots,
 * DeviceTasks), a code lens's depths from pc_result and its command's edit from PC009's fix.  This file
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

/* The WorkspaceEdit of a diagnostic's fixes: {"changes": {uri: [TextEdit...]}}, edits grouped by
 * the file each fix is in.  The quickfix and the code lens command apply the same one. */
static cJSON *fix_edit_json(conv *c, const pc_diag *d)
{
    cJSON *edit = cJSON_CreateObject();
    cJSON *changes = cJSON_AddObjectToObject(edit, "changes");
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
    return edit;
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
    cJSON_AddItemToObject(a, "edit", fix_edit_json(c, d));
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

/* The (exclusive, 1-based byte) column where the identifier at line:col of the document ends;
 * col itself when no identifier starts there. */
static uint32_t ident_end(const pc_lsp_lines *ls, uint32_t line, uint32_t col)
{
    uint32_t ec = col;
    if (line >= 1 && line <= ls->nlines) {
        size_t s = ls->starts[line - 1], n = pc_lsp_line_len(ls, line - 1);
        while (ec >= 1 && ec - 1 < n && (isalnum((unsigned char)ls->text[s + ec - 1]) || ls->text[s + ec - 1] == '_'))
            ec++;
    }
    return ec;
}

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
        el = l->line;
        ec = ident_end(v->lines, l->line, l->col);
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

/* The unbound symbols, `quoted` in Markdown (hovers) or bare (inlay hints, code lenses). */
static void append_unknowns(pc_sb *b, const pc_result *r, bool markdown)
{
    const char *q = markdown ? "`" : "";
    for (int i = 0; i < r->nunknowns; i++)
        pc_sb_printf(b, "%s%s%s%s", i ? ", " : "", q, r->unknowns[i], q);
}

/* "4 instances", "1 instance", or "instances unknown (bind n)": a root's or a loop's instances, as
 * the hover and the inlay hint say them. */
static void append_instances(pc_sb *b, const pc_result *r, int64_t n, bool markdown)
{
    if (n >= 0) {
        pc_sb_printf(b, "%lld instance%s", (long long)n, n == 1 ? "" : "s");
        return;
    }
    pc_sb_append(b, "instances unknown");
    if (r->nunknowns) {
        pc_sb_append(b, " (bind ");
        append_unknowns(b, r, markdown);
        pc_sb_putc(b, ')');
    }
}

/* DeviceTasks that hold instances of a root: how many, the first and the last (0-based). */
typedef struct task_span { int64_t count, first, last; } task_span;

/* The task spans of every root (by_loop false: r->nroots entries) or of every loop, counting the
 * instances of all the loop's roots (by_loop: r->kernel->nloops entries), in one pass over the
 * instances.  NULL when the result does not keep its DeviceTasks (more than it lists). */
static task_span *task_spans(const pc_result *r, bool by_loop)
{
    int n = by_loop ? r->kernel->nloops : r->nroots;
    if (!r->tasks || n <= 0)
        return NULL;
    task_span *sp = pc_mem_calloc((size_t)n, sizeof *sp);
    for (int i = 0; i < n; i++)
        sp[i].first = sp[i].last = -1;
    for (int64_t t = 0; t < r->ntasks; t++) {
        const pc_task *task = &r->tasks[t];
        for (int64_t i = task->first < 0 ? 0 : task->first; i <= task->last && i < r->ninstances; i++) {
            int root = r->instance_roots[i];
            if (root < 0 || root >= r->nroots)
                continue;
            int at = by_loop ? r->roots[root].loop : root;
            if (at < 0 || at >= n || sp[at].last == t)
                continue;
            if (sp[at].first < 0)
                sp[at].first = t;
            sp[at].last = t;
            sp[at].count++;
        }
    }
    return sp;
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
        append_unknowns(b, r, true);
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
    task_span *spans = task_spans(r, false);
    for (int i = 0; i < r->nroots; i++) {
        const pc_root_result *rr = &r->roots[i];
        if (rr->loop != loop)
            continue;
        shown++;
        pc_sb_printf(b, "\n\n- root function `%s`: ", rr->name);
        append_instances(b, r, rr->instances, true);
        if (rr->instances < 0 || !spans)
            continue;
        int64_t first = spans[i].first, last = spans[i].last, n = spans[i].count;
        /* DeviceTasks numbered from 0, as in the CLI, JSON and HTML (docs/model.md section 5) */
        if (n == 1)
            pc_sb_printf(b, ", in DeviceTask %lld (of %lld, numbered from 0)", (long long)first,
                         (long long)r->ntasks);
        else if (n > 1)
            pc_sb_printf(b, ", across %lld DeviceTasks (%lld to %lld of %lld, numbered from 0)", (long long)n,
                         (long long)first, (long long)last, (long long)r->ntasks);
    }
    pc_mem_free(spans);
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

/* ---- inlay hints ----------------------------------------------------------------------------- */

/* InlayHintKind (LSP 3.17): 1 Type, 2 Parameter.  A loop's hint is neither, so it has no kind. */
enum { HINT_NO_KIND = 0, HINT_TYPE = 1 };

typedef struct hint {
    pc_lsp_pos pos;
    char *label;
    char *tooltip;           /* NULL: none */
    int kind;
    size_t order;            /* ties keep the order they were made in */
} hint;

static int hint_cmp(const void *a, const void *b)
{
    const hint *x = a, *y = b;
    int c = pos_cmp(x->pos, y->pos);
    return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* Where a loop's hint goes: the end of its header (or, without a header, of the line of its
 * keyword), after the block's `:` when one follows (Python) so the hint does not split `):`. */
static bool loop_hint_at(const pc_lsp_view *v, conv *c, const pc_loop *lp, pc_lsp_pos *out)
{
    const pc_loc *h = lp->header.line ? &lp->header : &lp->loc;
    if (!h->file || !h->line || !is_doc_file(c, h->file) || h->line > v->lines->nlines)
        return false;
    uint32_t line = h->end_line ? h->end_line : h->line;
    uint32_t col;
    if (line > v->lines->nlines)
        return false;
    size_t s = v->lines->starts[line - 1], n = pc_lsp_line_len(v->lines, line - 1);
    col = h->end_line ? h->end_col : (uint32_t)n + 1;
    size_t i = col >= 1 ? col - 1 : 0;
    while (i < n && (v->lines->text[s + i] == ' ' || v->lines->text[s + i] == '\t'))
        i++;
    if (i < n && v->lines->text[s + i] == ':')
        col = (uint32_t)i + 2;
    *out = conv_pos(c, h->file, line, col);
    return true;
}

/* "64 instances, 1 DeviceTask": the instances of the loop's root functions and how many
 * DeviceTasks hold them; NULL when the loop has no root function of its own. */
static char *loop_hint_label(const pc_result *r, int loop, const task_span *spans)
{
    int nroots = 0;
    int64_t instances = 0;
    for (int i = 0; i < r->nroots; i++) {
        if (r->roots[i].loop != loop)
            continue;
        nroots++;
        if (r->roots[i].instances < 0 || instances < 0)
            instances = -1;
        else
            instances += r->roots[i].instances;
    }
    if (!nroots)
        return NULL;
    pc_sb b = {0};
    append_instances(&b, r, instances, false);
    if (instances >= 0 && spans)
        pc_sb_printf(&b, ", %lld DeviceTask%s", (long long)spans[loop].count, spans[loop].count == 1 ? "" : "s");
    return pc_sb_take(&b);
}

static bool pos_in(pc_lsp_pos p, pc_lsp_pos start, pc_lsp_pos end)
{
    return pos_cmp(start, p) <= 0 && pos_cmp(p, end) <= 0;
}

void *pc_lsp_inlay_hints_json(const pc_lsp_view *v, pc_lsp_pos start, pc_lsp_pos end)
{
    const pc_file_result *fr = v->result;
    cJSON *arr = cJSON_CreateArray();
    if (!fr->model || fr->model->fatal || !fr->results)
        return arr;
    if (pos_cmp(end, start) < 0) {
        pc_lsp_pos t = start;
        start = end;
        end = t;
    }
    conv c;
    conv_init(&c, v);
    PC_VEC(hint) hints = {0};
    for (int k = 0; k < fr->model->nkernels; k++) {
        const pc_kernel *kn = &fr->model->kernels[k];
        const pc_result *r = fr->results[k];
        if (!r)
            continue;
        /* each intermediate tensor, after its name where it is created: its pool and bytes */
        for (int t = 0; t < kn->ntensors && t < r->ntensors; t++) {
            const pc_tensor *tn = &kn->tensors[t];
            const pc_tensor_result *tr = &r->tensors[t];
            if (tr->pool == PC_POOL_NONE || !tn->loc.file || !tn->loc.line || !is_doc_file(&c, tn->loc.file))
                continue;
            uint32_t line = tn->loc.end_line ? tn->loc.end_line : tn->loc.line;
            uint32_t col = tn->loc.end_line ? tn->loc.end_col : ident_end(v->lines, tn->loc.line, tn->loc.col);
            hint h = {conv_pos(&c, tn->loc.file, line, col), NULL, NULL, HINT_TYPE, hints.count};
            if (!pos_in(h.pos, start, end))
                continue;
            pc_sb b = {0};
            pc_sb_printf(&b, "%s, ", pc_pool_name(tr->pool));
            if (tr->aligned_bytes >= 0)
                pc_sb_printf(&b, "%lld B", (long long)tr->aligned_bytes);
            else
                pc_sb_append(&b, "? B");
            h.label = pc_sb_take(&b);
            /* the bytes as the hover gives them, and why this pool */
            if (tr->bytes >= 0)
                pc_sb_printf(&b, "%lld bytes, %lld after 512-byte alignment", (long long)tr->bytes,
                             (long long)tr->aligned_bytes);
            else
                pc_sb_append(&b, "bytes unknown");
            if (tr->reason && *tr->reason)
                pc_sb_printf(&b, "; %s: %s", pc_pool_name(tr->pool), tr->reason);
            h.tooltip = pc_sb_take(&b);
            PC_VEC_PUSH(hints, h);
        }
        /* each loop, at the end of its header: its root functions' instances and DeviceTasks */
        task_span *spans = task_spans(r, true);
        for (int l = 0; l < kn->nloops; l++) {
            hint h = {{0, 0}, NULL, NULL, HINT_NO_KIND, hints.count};
            if (!loop_hint_at(v, &c, &kn->loops[l], &h.pos) || !pos_in(h.pos, start, end))
                continue;
            h.label = loop_hint_label(r, l, spans);
            if (h.label)
                PC_VEC_PUSH(hints, h);
        }
        pc_mem_free(spans);
    }
    if (hints.count)
        qsort(hints.items, hints.count, sizeof *hints.items, hint_cmp);
    for (size_t i = 0; i < hints.count; i++) {
        hint *h = &hints.items[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "position", pos_json(h->pos));
        cJSON_AddStringToObject(o, "label", h->label);
        if (h->kind != HINT_NO_KIND)
            cJSON_AddNumberToObject(o, "kind", h->kind);
        if (h->tooltip)
            cJSON_AddStringToObject(o, "tooltip", h->tooltip);
        cJSON_AddBoolToObject(o, "paddingLeft", 1);
        cJSON_AddItemToArray(arr, o);
        pc_mem_free(h->label);
        pc_mem_free(h->tooltip);
    }
    PC_VEC_FREE(hints);
    conv_free(&c);
    return arr;
}

/* ---- code lenses and the suggested configuration -------------------------------------------- */

/* Does another kernel of the model have kernel k's name? */
static bool name_shared(const pc_model *m, int k)
{
    for (int i = 0; i < m->nkernels; i++)
        if (i != k && strcmp(m->kernels[i].name, m->kernels[k].name) == 0)
            return true;
    return false;
}

/* PC009's diagnostic for kernel k when it carries a fix (the suggested configuration), else NULL.
 * Diagnostics name their kernel by name; when kernels share a name, PC009's message names it the
 * way every output does ("kernel 'main' in Suite.Case runs with ...", pc_kernel.ref). */
static const pc_diag *kernel_suggestion(const pc_file_result *fr, int k)
{
    const pc_kernel *kn = &fr->model->kernels[k];
    bool shared = name_shared(fr->model, k);
    size_t n = 0;
    const pc_diag *items = pc_diag_items(fr->sink, &n);
    for (size_t i = 0; i < n; i++) {
        const pc_diag *d = &items[i];
        if (!d->id || strcmp(d->id, "PC009") != 0 || d->nfixes == 0 || !d->kernel || strcmp(d->kernel, kn->name) != 0)
            continue;
        if (shared) {
            size_t rl = strlen(kn->ref);
            if (!d->message || strncmp(d->message, "kernel ", 7) != 0 || strncmp(d->message + 7, kn->ref, rl) != 0 ||
                d->message[7 + rl] != ' ')
                continue;
        }
        return d;
    }
    return NULL;
}

/* The triple a fix writes: the first three integers separated by commas in its replacement
 * (`[64, 2, 1]`, `{64, 2, 1}`, `(64, 2, 1)`; `int64_t`'s digits are part of a name). */
static bool fix_triple(const pc_diag *d, int64_t t[3])
{
    for (int f = 0; f < d->nfixes; f++) {
        const char *s = d->fixes[f].replacement;
        for (size_t i = 0; s && s[i]; i++) {
            if (!isdigit((unsigned char)s[i]) || (i > 0 && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_')))
                continue;
            const char *p = s + i;
            int got = 0;
            while (got < 3) {
                char *e;
                long long x = strtoll(p, &e, 10);
                if (e == p || x < 0)
                    break;
                t[got++] = x;
                p = e;
                while (*p == ' ')
                    p++;
                if (got < 3) {
                    if (*p != ',')
                        break;
                    p++;
                    while (*p == ' ')
                        p++;
                    if (!isdigit((unsigned char)*p))
                        break;
                }
            }
            if (got == 3)
                return true;
            while (isdigit((unsigned char)s[i + 1]))
                i++;
        }
    }
    return false;
}

/* "apply stitch_function_num_per_pool=[64, 2, 1]": what the fix of d does, in words. */
static void append_apply(pc_sb *b, const pc_diag *d)
{
    int64_t t[3];
    if (fix_triple(d, t)) {
        pc_sb_printf(b, "apply %s=", PC_KEY_POOL);
        append_triple(b, t);
    } else {
        pc_sb_append(b, "apply the suggested configuration");
    }
}

void *pc_lsp_code_lenses_json(const pc_lsp_view *v)
{
    const pc_file_result *fr = v->result;
    cJSON *arr = cJSON_CreateArray();
    if (!fr->model || fr->model->fatal || !fr->results)
        return arr;
    conv c;
    conv_init(&c, v);
    for (int k = 0; k < fr->model->nkernels; k++) {
        const pc_kernel *kn = &fr->model->kernels[k];
        const pc_result *r = fr->results[k];
        if (!r || !kn->loc.file || !kn->loc.line || !is_doc_file(&c, kn->loc.file))
            continue;
        lsp_range range = conv_range(&c, &kn->loc);
        if (range.end.line != range.start.line)   /* a lens spans one line */
            range.end = range.start;
        const pc_diag *d = kernel_suggestion(fr, k);
        pc_sb title = {0};
        pc_sb_append(&title, "poolcheck: predicted ");
        append_triple(&title, r->predicted);
        if (r->nunknowns) {
            pc_sb_append(&title, " (bind ");
            append_unknowns(&title, r, false);
            pc_sb_putc(&title, ')');
        }
        if (d) {
            pc_sb_append(&title, " \xC2\xB7 ");   /* U+00B7 MIDDLE DOT */
            append_apply(&title, d);
        }
        cJSON *lens = cJSON_CreateObject();
        cJSON_AddItemToObject(lens, "range", range_json(range));
        cJSON *cmd = cJSON_AddObjectToObject(lens, "command");
        cJSON_AddStringToObject(cmd, "title", title.data);
        pc_sb_free(&title);
        /* A resolved lens has a Command; with nothing to run its identifier is empty, which
         * editors show as a label that does nothing when clicked. */
        cJSON_AddStringToObject(cmd, "command", d ? PC_LSP_CMD_APPLY_CONFIG : "");
        if (d) {
            cJSON *args = cJSON_AddArrayToObject(cmd, "arguments");
            cJSON_AddItemToArray(args, cJSON_CreateString(v->uri));
            cJSON_AddItemToArray(args, cJSON_CreateString(kn->name));
            if (kn->scope && name_shared(fr->model, k))
                cJSON_AddItemToArray(args, cJSON_CreateString(kn->scope));
        }
        cJSON_AddItemToArray(arr, lens);
    }
    conv_free(&c);
    return arr;
}

void *pc_lsp_suggested_edit_json(const pc_lsp_view *v, const char *name, const char *scope, char **label,
                                 char **why)
{
    const pc_file_result *fr = v->result;
    *label = *why = NULL;
    bool found = false;
    for (int k = 0; fr->model && !fr->model->fatal && k < fr->model->nkernels; k++) {
        const pc_kernel *kn = &fr->model->kernels[k];
        if (strcmp(kn->name, name) != 0 || (scope && (!kn->scope || strcmp(kn->scope, scope) != 0)))
            continue;
        found = true;
        const pc_diag *d = kernel_suggestion(fr, k);
        if (!d)
            continue;
        pc_sb b = {0};
        pc_sb_printf(&b, "poolcheck: kernel %s: ", kn->ref);
        append_apply(&b, d);
        *label = pc_sb_take(&b);
        conv c;
        conv_init(&c, v);
        cJSON *edit = fix_edit_json(&c, d);
        conv_free(&c);
        return edit;
    }
    pc_sb b = {0};
    if (found)
        pc_sb_printf(&b, "kernel '%s' has no suggested configuration in the latest analysis (no PC009 fix)", name);
    else
        pc_sb_printf(&b, "no kernel '%s'%s%s in %s", name, scope ? " in " : "", scope ? scope : "", v->uri);
    *why = pc_sb_take(&b);
    return NULL;
}
