/*
 * serialize.c - a pc_rep_file as bytes and back (what a `check -j N` worker sends the parent).
 *
 * Layout (little-endian as the host writes it: both ends are the same program on one machine):
 *   "PCRF" u32 version, u8 flags (1 fatal, 2 no kernel), str file, u64 errors, capped, suppressed,
 *   u64 n, n diagnostics: i32 check, str id, str name, u8 severity, u8 promoted, loc, str kernel,
 *        str message, u32 n notes (loc, str message), u32 n fixes (loc range, str replacement),
 *   u64 n, n source lines: str file, u32 line, u64 length + bytes,
 *   u64 n, n kernels (report_int.h's pc_rep_kernel, field by field), then "END!".
 * str = u32 length (0xFFFFFFFF = NULL) + bytes (no NUL inside); loc = str file, u32 line, col,
 * end_line, end_col.
 *
 * The reader checks every length against what is left, every count against the bytes its items
 * need at least, every enum value, the strings a format dereferences (a check's id and name,
 * messages, kernel and tensor names) and that columns lie on (or near) their recorded lines: a
 * short, long or corrupt stream is an error, never a crash, a huge allocation or a huge output.
 */
#include "report/report_int.h"

#include <string.h>

#define MAGIC "PCRF"
#define TRAILER "END!"
enum { VERSION = 1, NULL_STR = 0xFFFFFFFFu };

/* ---- writer --------------------------------------------------------------------------------- */

static void w_raw(pc_sb *b, const void *p, size_t n) { pc_sb_appendn(b, p, n); }
static void w_u8(pc_sb *b, uint8_t v) { w_raw(b, &v, 1); }
static void w_u32(pc_sb *b, uint32_t v) { w_raw(b, &v, sizeof v); }
static void w_i32(pc_sb *b, int32_t v) { w_raw(b, &v, sizeof v); }
static void w_u64(pc_sb *b, uint64_t v) { w_raw(b, &v, sizeof v); }
static void w_i64(pc_sb *b, int64_t v) { w_raw(b, &v, sizeof v); }

static void w_str(pc_sb *b, const char *s)
{
    if (!s) {
        w_u32(b, NULL_STR);
        return;
    }
    size_t n = strlen(s);
    w_u32(b, (uint32_t)n);
    w_raw(b, s, n);
}

static void w_loc(pc_sb *b, pc_loc l)
{
    w_str(b, l.file);
    w_u32(b, l.line);
    w_u32(b, l.col);
    w_u32(b, l.end_line);
    w_u32(b, l.end_col);
}

static void w_i64s(pc_sb *b, const int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        w_i64(b, v[i]);
}

static void w_kernel(pc_sb *b, const pc_rep_kernel *k)
{
    w_str(b, k->name);
    w_str(b, k->scope);
    w_str(b, k->title);
    w_str(b, k->file);
    w_str(b, k->model_file);
    w_u32(b, k->line);
    w_i64s(b, k->predicted, 3);
    w_i64s(b, k->required, 3);
    w_i64s(b, k->suggested, 3);
    w_i64s(b, k->configured, 3);
    w_i64s(b, k->bounds, 3);
    for (int i = 0; i < 3; i++)
        w_str(b, k->formulas[i]);
    w_u8(b, (uint8_t)(k->precise | k->truncated << 1));
    int64_t nums[] = {k->k, k->parallelism, k->instances, k->device_tasks, k->instance_limit,
                      k->unit_inner, k->unit_excl, k->slot_size, k->n_assemble, k->n_exclusive,
                      k->ws_predicted, k->ws_suggested, k->ws_required, k->ws_default, k->ws_configured};
    w_i64s(b, nums, (int)(sizeof nums / sizeof *nums));
    w_u64(b, k->ntensors);
    for (size_t t = 0; t < k->ntensors; t++) {
        const pc_rep_tensor *x = &k->tensors[t];
        w_str(b, x->label);
        w_str(b, x->variable);
        w_str(b, x->kind);
        w_str(b, x->pool);
        w_str(b, x->file);
        w_u32(b, x->line);
        w_u32(b, x->col);
        w_i64(b, x->bytes);
        w_i64(b, x->aligned_bytes);
        w_i64(b, x->pieces);
        w_str(b, x->pieces_text);
        w_str(b, x->reason);
    }
    w_u64(b, k->nroots);
    for (size_t i = 0; i < k->nroots; i++) {
        const pc_rep_root *r = &k->roots[i];
        w_str(b, r->name);
        w_str(b, r->loop);
        w_i64(b, r->unroll_factor);
        w_i64(b, r->instances);
        w_i64(b, r->inner_bytes);
        w_i64(b, r->excl_bytes);
        w_i64(b, r->lowered_bytes);
        w_str(b, r->lowered_what);
        w_u32(b, r->line);
    }
    for (int p = 0; p < 3; p++) {
        const pc_rep_why *w = &k->why[p];
        w_i64(b, w->task);
        if (w->task < 0)
            continue;
        w_i64(b, w->first_instance);
        w_i64(b, w->last_instance);
        w_u64(b, w->nroots);
        for (size_t i = 0; i < w->nroots; i++) {
            w_str(b, w->roots[i].name);
            w_str(b, w->roots[i].loop);
            w_i64(b, w->roots[i].instances);
        }
        w_u64(b, w->ntensors);
        for (size_t i = 0; i < w->ntensors; i++)
            w_str(b, w->tensors[i]);
    }
    w_u64(b, k->nunknowns);
    for (size_t i = 0; i < k->nunknowns; i++)
        w_str(b, k->unknowns[i]);
}

char *pc_rep_file_encode(const pc_rep_file *f, size_t *len)
{
    pc_sb b = {0};
    w_raw(&b, MAGIC, 4);
    w_u32(&b, VERSION);
    w_u8(&b, (uint8_t)(f->fatal | f->no_kernel << 1));
    w_str(&b, f->file);
    w_u64(&b, f->errors);
    w_u64(&b, f->capped);
    w_u64(&b, f->suppressed);
    w_u64(&b, f->ndiags);
    for (size_t i = 0; i < f->ndiags; i++) {
        const pc_diag *d = &f->diags[i];
        w_i32(&b, d->check);
        w_str(&b, d->id);
        w_str(&b, d->name);
        w_u8(&b, (uint8_t)d->severity);
        w_u8(&b, d->promoted);
        w_loc(&b, d->loc);
        w_str(&b, d->kernel);
        w_str(&b, d->message);
        w_u32(&b, (uint32_t)d->nnotes);
        for (int k = 0; k < d->nnotes; k++) {
            w_loc(&b, d->notes[k].loc);
            w_str(&b, d->notes[k].message);
        }
        w_u32(&b, (uint32_t)d->nfixes);
        for (int k = 0; k < d->nfixes; k++) {
            w_loc(&b, d->fixes[k].range);
            w_str(&b, d->fixes[k].replacement);
        }
    }
    w_u64(&b, f->nlines);
    for (size_t i = 0; i < f->nlines; i++) {
        w_str(&b, f->lines[i].file);
        w_u32(&b, f->lines[i].line);
        w_u64(&b, f->lines[i].len);
        w_raw(&b, f->lines[i].text, f->lines[i].len);
    }
    w_u64(&b, f->nkernels);
    for (size_t k = 0; k < f->nkernels; k++)
        w_kernel(&b, &f->kernels[k]);
    w_raw(&b, TRAILER, 4);
    *len = b.len;
    return pc_sb_take(&b);
}

/* ---- reader --------------------------------------------------------------------------------- */

typedef struct rd {
    const unsigned char *p;
    size_t n, at;
    pc_arena *a;
    const char *bad;     /* what was wrong, first problem only */
    size_t bad_at;
} rd;

static bool fail(rd *r, const char *why)
{
    if (!r->bad) {
        r->bad = why;
        r->bad_at = r->at;
    }
    return false;
}

static bool r_raw(rd *r, void *out, size_t n)
{
    if (r->bad)
        return false;
    if (n > r->n - r->at)
        return fail(r, "truncated");
    memcpy(out, r->p + r->at, n);
    r->at += n;
    return true;
}

/* r_u8, r_u32, ...: one fixed-size value as w_u8, w_u32, ... wrote it (0 once the stream is bad) */
#define FIXED_READER(name, type)                                                                   \
    static type name(rd *r)                                                                        \
    {                                                                                              \
        type v = 0;                                                                                \
        r_raw(r, &v, sizeof v);                                                                    \
        return v;                                                                                  \
    }
FIXED_READER(r_u8, uint8_t)
FIXED_READER(r_u32, uint32_t)
FIXED_READER(r_i32, int32_t)
FIXED_READER(r_u64, uint64_t)
FIXED_READER(r_i64, int64_t)
#undef FIXED_READER

static const char *r_str(rd *r)
{
    uint32_t n = r_u32(r);
    if (r->bad || n == NULL_STR)
        return NULL;
    if (n > r->n - r->at) {
        fail(r, "string longer than the stream");
        return NULL;
    }
    const char *s = (const char *)r->p + r->at;
    if (memchr(s, 0, n)) {
        fail(r, "NUL byte inside a string");
        return NULL;
    }
    r->at += n;
    return pc_arena_strndup(r->a, s, n);
}

static const char *r_str_req(rd *r, const char *what)
{
    const char *s = r_str(r);
    if (!s && !r->bad)
        fail(r, what);
    return s;
}

/* A count n just read, of items needing at least `min` bytes each: at most `most`, and no more
 * items than the bytes left can hold. */
static size_t r_fitting_count(rd *r, uint64_t n, size_t min, uint64_t most)
{
    if (r->bad)
        return 0;
    if (n > (r->n - r->at) / min || n > most) {
        fail(r, "count larger than the stream");
        return 0;
    }
    return (size_t)n;
}

/* A u64 count (of a file's diagnostics, lines, kernels, ...) and a u32 one (of a diagnostic's
 * notes and fixes, which pc_diag counts in an int). */
static size_t r_count(rd *r, size_t min) { return r_fitting_count(r, r_u64(r), min, UINT64_MAX); }
static size_t r_count32(rd *r, size_t min) { return r_fitting_count(r, r_u32(r), min, INT32_MAX); }

static void *r_array(rd *r, size_t n, size_t elem) { return pc_arena_alloc(r->a, (n ? n : 1) * elem); }

static pc_loc r_loc(rd *r)
{
    pc_loc l = {0};
    l.file = r_str(r);
    l.line = r_u32(r);
    l.col = r_u32(r);
    l.end_line = r_u32(r);
    l.end_col = r_u32(r);
    return l;
}

static void r_i64s(rd *r, int64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        v[i] = r_i64(r);
}

enum { MIN_STR = 4, MIN_LOC = 4 + 16 };

static void r_kernel(rd *r, pc_rep_kernel *k)
{
    k->name = r_str_req(r, "kernel without a name");
    k->scope = r_str(r);
    k->title = r_str(r);
    k->file = r_str(r);
    k->model_file = r_str_req(r, "kernel without its file");
    k->line = r_u32(r);
    r_i64s(r, k->predicted, 3);
    r_i64s(r, k->required, 3);
    r_i64s(r, k->suggested, 3);
    r_i64s(r, k->configured, 3);
    r_i64s(r, k->bounds, 3);
    for (int i = 0; i < 3; i++)
        k->formulas[i] = r_str(r);
    uint8_t flags = r_u8(r);
    if (flags & ~3u)
        fail(r, "bad kernel flags");
    k->precise = flags & 1;
    k->truncated = (flags & 2) != 0;
    int64_t nums[15];
    r_i64s(r, nums, 15);
    k->k = nums[0], k->parallelism = nums[1], k->instances = nums[2], k->device_tasks = nums[3];
    k->instance_limit = nums[4], k->unit_inner = nums[5], k->unit_excl = nums[6], k->slot_size = nums[7];
    k->n_assemble = nums[8], k->n_exclusive = nums[9], k->ws_predicted = nums[10];
    k->ws_suggested = nums[11], k->ws_required = nums[12], k->ws_default = nums[13], k->ws_configured = nums[14];
    k->ntensors = r_count(r, 7 * MIN_STR + 8 + 24);
    k->tensors = r_array(r, k->ntensors, sizeof *k->tensors);
    for (size_t t = 0; t < k->ntensors && !r->bad; t++) {
        pc_rep_tensor *x = &k->tensors[t];
        x->label = r_str_req(r, "tensor without a name");
        x->variable = r_str_req(r, "tensor without a variable");
        x->kind = r_str_req(r, "tensor without a kind");
        x->pool = r_str_req(r, "tensor without a pool");
        x->file = r_str(r);
        x->line = r_u32(r);
        x->col = r_u32(r);
        x->bytes = r_i64(r);
        x->aligned_bytes = r_i64(r);
        x->pieces = r_i64(r);
        x->pieces_text = r_str(r);
        x->reason = r_str(r);
    }
    k->nroots = r_count(r, 3 * MIN_STR + 40 + 4);
    k->roots = r_array(r, k->nroots, sizeof *k->roots);
    for (size_t i = 0; i < k->nroots && !r->bad; i++) {
        pc_rep_root *x = &k->roots[i];
        x->name = r_str_req(r, "root without a name");
        x->loop = r_str(r);
        x->unroll_factor = r_i64(r);
        x->instances = r_i64(r);
        x->inner_bytes = r_i64(r);
        x->excl_bytes = r_i64(r);
        x->lowered_bytes = r_i64(r);
        x->lowered_what = r_str(r);
        x->line = r_u32(r);
    }
    for (int p = 0; p < 3 && !r->bad; p++) {
        pc_rep_why *w = &k->why[p];
        w->task = r_i64(r);
        if (w->task < 0) {
            w->task = -1;
            continue;
        }
        w->first_instance = r_i64(r);
        w->last_instance = r_i64(r);
        w->nroots = r_count(r, 2 * MIN_STR + 8);
        w->roots = r_array(r, w->nroots, sizeof *w->roots);
        for (size_t i = 0; i < w->nroots && !r->bad; i++) {
            w->roots[i].name = r_str_req(r, "root without a name");
            w->roots[i].loop = r_str(r);
            w->roots[i].instances = r_i64(r);
        }
        w->ntensors = r_count(r, MIN_STR);
        w->tensors = r_array(r, w->ntensors, sizeof *w->tensors);
        for (size_t i = 0; i < w->ntensors && !r->bad; i++)
            w->tensors[i] = r_str_req(r, "tensor without a name");
    }
    k->nunknowns = r_count(r, MIN_STR);
    k->unknowns = r_array(r, k->nunknowns, sizeof *k->unknowns);
    for (size_t i = 0; i < k->nunknowns && !r->bad; i++)
        k->unknowns[i] = r_str_req(r, "empty symbol");
}

static void r_diag(rd *r, pc_diag *d, size_t nchecks)
{
    d->check = r_i32(r);
    if (d->check < -1 || (d->check >= 0 && (size_t)d->check >= nchecks))
        fail(r, "check index out of range");
    d->id = r_str(r);
    d->name = r_str(r);
    if ((d->check >= 0 && !d->id) || !d->id != !d->name)
        fail(r, "a check's diagnostic without its id and name");
    uint8_t sev = r_u8(r);
    if (sev > PC_SEV_ERROR)
        fail(r, "bad severity");
    d->severity = (pc_severity)sev;
    uint8_t promoted = r_u8(r);
    if (promoted > 1)
        fail(r, "bad flag");
    d->promoted = promoted;
    d->loc = r_loc(r);
    d->kernel = r_str(r);
    d->message = r_str_req(r, "diagnostic without a message");
    size_t nn = r_count32(r, MIN_LOC + MIN_STR);
    d->nnotes = (int)nn;
    d->notes = r_array(r, nn, sizeof *d->notes);
    for (size_t k = 0; k < nn && !r->bad; k++) {
        d->notes[k].loc = r_loc(r);
        d->notes[k].message = r_str_req(r, "note without a message");
    }
    size_t nf = r_count32(r, MIN_LOC + MIN_STR);
    d->nfixes = (int)nf;
    d->fixes = r_array(r, nf, sizeof *d->fixes);
    for (size_t k = 0; k < nf && !r->bad; k++) {
        d->fixes[k].range = r_loc(r);
        d->fixes[k].replacement = r_str_req(r, "fix without its text");
    }
}

enum { COLUMN_SLACK = 4096 }; /* how far past its line's end a column may point */

static void check_columns(rd *r, const pc_rep_file *f, pc_loc l)
{
    const char *text;
    size_t n;
    if (pc_rep_file_line(f, l.file, l.line, &text, &n) && l.col > n + COLUMN_SLACK)
        fail(r, "column far past the end of its line");
    uint32_t el = l.end_line ? l.end_line : l.line;
    if (pc_rep_file_line(f, l.file, el, &text, &n) && l.end_col > n + COLUMN_SLACK)
        fail(r, "column far past the end of its line");
}

pc_rep_file *pc_rep_file_decode(const void *data, size_t len, char **err)
{
    pc_arena *a = pc_arena_new();
    rd r = {data, data ? len : 0, 0, a, NULL, 0};
    pc_rep_file *f = pc_arena_alloc(a, sizeof *f);
    f->arena = a;
    char magic[4] = {0};
    if (!r_raw(&r, magic, 4) || memcmp(magic, MAGIC, 4) != 0)
        fail(&r, "not a poolcheck result");
    else if (r_u32(&r) != VERSION)
        fail(&r, "unknown version");
    uint8_t flags = r_u8(&r);
    if (flags & ~3u)
        fail(&r, "bad file flags");
    f->fatal = flags & 1;
    f->no_kernel = (flags & 2) != 0;
    f->file = r_str(&r);
    f->errors = r_u64(&r);
    f->capped = r_u64(&r);
    f->suppressed = r_u64(&r);
    size_t nchecks = 0;
    pc_chk_table(&nchecks);
    f->ndiags = r_count(&r, 4 + 2 * MIN_STR + 2 + MIN_LOC + 2 * MIN_STR + 8);
    f->diags = r_array(&r, f->ndiags, sizeof *f->diags);
    for (size_t i = 0; i < f->ndiags && !r.bad; i++)
        r_diag(&r, &f->diags[i], nchecks);
    f->nlines = r_count(&r, MIN_STR + 4 + 8);
    f->lines = r_array(&r, f->nlines, sizeof *f->lines);
    for (size_t i = 0; i < f->nlines && !r.bad; i++) {
        pc_rep_srcline *l = &f->lines[i];
        l->file = r_str_req(&r, "source line without its file");
        l->line = r_u32(&r);
        uint64_t n = r_u64(&r);
        if (r.bad)
            break;
        if (n > r.n - r.at) {
            fail(&r, "source line longer than the stream");
            break;
        }
        char *text = pc_arena_alloc(a, (size_t)n + 1); /* a line may hold NUL bytes */
        memcpy(text, r.p + r.at, (size_t)n);
        l->text = text;
        l->len = (size_t)n;
        r.at += (size_t)n;
    }
    f->nkernels = r_count(&r, 3 * MIN_STR + 4 + 15 * 8 + 3 * MIN_STR + 1 + 15 * 8 + 8 + 8 + 24 + 8);
    f->kernels = r_array(&r, f->nkernels, sizeof *f->kernels);
    for (size_t k = 0; k < f->nkernels && !r.bad; k++)
        r_kernel(&r, &f->kernels[k]);
    /* A column the formats walk to (text carets, SARIF code point columns) lies on its line, or
     * just past its end: a corrupt one must not make them pad or count for billions of bytes. */
    for (size_t i = 0; i < f->ndiags && !r.bad; i++) {
        const pc_diag *d = &f->diags[i];
        check_columns(&r, f, d->loc);
        for (int k = 0; k < d->nnotes; k++)
            check_columns(&r, f, d->notes[k].loc);
        for (int k = 0; k < d->nfixes; k++)
            check_columns(&r, f, d->fixes[k].range);
    }
    char trailer[4] = {0};
    if (!r.bad && (!r_raw(&r, trailer, 4) || memcmp(trailer, TRAILER, 4) != 0))
        fail(&r, "no end mark");
    if (!r.bad && r.at != r.n)
        fail(&r, "bytes after the end mark");
    if (r.bad) {
        pc_err_set(err, "corrupt result stream at byte %zu of %zu: %s", r.bad_at, r.n, r.bad);
        pc_arena_free(a);
        return NULL;
    }
    return f;
}
