/*
 * sink.c - the one diagnostics sink every check reports through (sparse's habit): selection
 * (--checks), promotion (--warnings-as-errors), suppression read from the source text
 * (clang-tidy's NOLINT family, ruff's noqa) and the per-file cap all happen here.
 *
 * Everything a diagnostic points to lives in the sink's arena; the diagnostics themselves are
 * one growable array, so a pc_diag pointer stays valid until the next report.
 */
#include "checks/checks_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <string.h>

/* One suppression: lines first..last (inclusive) of a file; names = the text between the
 * parentheses (or after `noqa:`), NULL for a bare form that suppresses every check.  line:col is
 * the comment; used, the checks it suppressed a finding of (PC020 reports the names that
 * suppressed nothing). */
typedef struct supp {
    uint32_t first, last;
    const char *names;
    uint32_t line, col, names_col; /* names_col: the column of names' first byte */
    uint64_t used;
} supp;
_Static_assert(PC_CHK_COUNT <= 64, "supp.used holds one bit per check");

typedef struct src_file {
    const char *file;
    const char *text;
    size_t len;
    pc_lang lang;
    PC_VEC(supp) supps;
} src_file;

/* A kernel's share of the diagnostics: at most PC_DIAG_PER_KERNEL are kept; the rest are counted
 * in one summary note ("... and 2,000 more"), written where the first one left out would be. */
enum { PC_DIAG_PER_KERNEL = 100, FOLDED_NOTES = 3 };
typedef struct kernel_share {
    const char *kernel;       /* arena copy */
    size_t kept, left_out;
    size_t summary;           /* index of the summary note in diags, when left_out > 0 */
    char *summary_text;       /* its message (rewritten as the count grows) */
} kernel_share;

/* (check, file, line, col) -> index of the diagnostic kept there: one per check and location. */
typedef struct loc_slot { uint64_t hash; size_t index; bool used; } loc_slot;

struct pc_diag_sink {
    pc_arena *arena;
    PC_VEC(pc_diag) diags;
    PC_VEC(src_file) sources;
    bool selected[PC_CHK_COUNT];
    bool werror[PC_CHK_COUNT];
    int max;                  /* cap on check diagnostics, 0 = none */
    size_t nchecked;          /* check diagnostics kept */
    size_t suppressed, capped;
    loc_slot *slots;          /* open addressing, a power of two */
    size_t nslots, nused;
    PC_VEC(kernel_share) kernels;
};

pc_diag_sink *pc_diag_sink_new(void)
{
    pc_diag_sink *s = pc_mem_calloc(1, sizeof *s);
    s->arena = pc_arena_new();
    for (int i = 0; i < PC_CHK_COUNT; i++)
        s->selected[i] = true;
    return s;
}

void pc_diag_sink_free(pc_diag_sink *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->sources.count; i++)
        PC_VEC_FREE(s->sources.items[i].supps);
    PC_VEC_FREE(s->sources);
    pc_mem_free(s->slots);
    PC_VEC_FREE(s->kernels);
    PC_VEC_FREE(s->diags);
    pc_arena_free(s->arena);
    pc_mem_free(s);
}

/* ---- selection and promotion ------------------------------------------------------------------ */

/* Apply comma-separated globs to flags[]; `start_all_if_negated`: the starting set is every check
 * when the first glob is a negation (--checks), else none. */
static bool apply_globs(pc_diag_sink *s, bool *flags, const char *globs, bool start_all_if_negated,
                        const char *option, char **err)
{
    bool next[PC_CHK_COUNT];
    bool first = true;
    const char *p = globs ? globs : "";
    while (*p) {
        while (*p == ',' || isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && *p != ',')
            p++;
        const char *end = p;
        while (end > start && isspace((unsigned char)end[-1]))
            end--;
        if (end == start)
            continue;
        bool negate = *start == '-';
        if (negate)
            start++;
        char *glob = pc_arena_strndup(s->arena, start, (size_t)(end - start));
        if (first) {
            for (int i = 0; i < PC_CHK_COUNT; i++)
                next[i] = start_all_if_negated && negate;
            first = false;
        }
        bool any = false;
        for (int i = 0; i < PC_CHK_COUNT; i++)
            if (pc_chk_glob_matches(glob, i)) {
                next[i] = !negate;
                any = true;
            }
        if (!any)
            return pc_err_set(err, "%s: '%s' matches no check (see --list-checks)", option, glob);
    }
    if (first) /* nothing but separators: the starting set */
        for (int i = 0; i < PC_CHK_COUNT; i++)
            next[i] = false;
    memcpy(flags, next, sizeof next);
    return true;
}

bool pc_diag_set_checks(pc_diag_sink *s, const char *globs, char **err)
{
    if (!globs)
        return true;
    return apply_globs(s, s->selected, globs, true, "--checks", err);
}

bool pc_diag_set_werror(pc_diag_sink *s, const char *globs, char **err)
{
    if (!globs)
        return true;
    return apply_globs(s, s->werror, globs, false, "--warnings-as-errors", err);
}

void pc_diag_set_max(pc_diag_sink *s, int max_per_file) { s->max = max_per_file > 0 ? max_per_file : 0; }

bool pc_diag_selected(const pc_diag_sink *s, int check)
{
    return check >= 0 && check < PC_CHK_COUNT && s->selected[check];
}

/* ---- suppression comments --------------------------------------------------------------------- */

static bool is_ident(char ch) { return isalnum((unsigned char)ch) || ch == '_'; }

/* Does p start with the lower-case word w, ignoring case? */
static bool prefix_ci(const char *p, const char *w)
{
    for (; *w; p++, w++)
        if (tolower((unsigned char)*p) != *w)
            return false;
    return true;
}

/* Does the list (commas and/or blanks between entries) name check `check`?  Entries may be
 * globs; names of other tools' checks simply do not match. */
/* The next entry of a suppression list (commas and/or blanks between entries) into entry
 * (truncated to its size), *at where it starts; false at the end. */
static bool next_entry(const char **p, char entry[128], const char **at)
{
    while (**p == ',' || isspace((unsigned char)**p))
        (*p)++;
    const char *start = *p;
    while (**p && **p != ',' && !isspace((unsigned char)**p))
        (*p)++;
    if (*p == start)
        return false;
    size_t n = (size_t)(*p - start) < 127 ? (size_t)(*p - start) : 127;
    memcpy(entry, start, n);
    entry[n] = 0;
    *at = start;
    return true;
}

static bool names_match(const char *names, int check)
{
    const char *p = names, *at;
    char entry[128];
    while (next_entry(&p, entry, &at))
        if (pc_chk_glob_matches(entry, check))
            return true;
    return false;
}

typedef struct nolint_begin { uint32_t line, col, names_col; const char *names; } nolint_begin;

/* The list after `noqa:` as ruff reads it: codes separated by commas or blanks, ending at the
 * first word that is neither a code (letters then digits) nor one of our names.  Returns its
 * length (0 = bare noqa). */
static size_t noqa_list_len(const char *p, const char *eol)
{
    const char *q = p, *last_end = p;
    while (q < eol) {
        while (q < eol && (*q == ',' || *q == ' ' || *q == '\t'))
            q++;
        const char *w = q;
        while (q < eol && (is_ident(*q) || *q == '-' || *q == '*' || *q == '?'))
            q++;
        if (q == w)
            break;
        char word[128];
        size_t n = (size_t)(q - w) < sizeof word - 1 ? (size_t)(q - w) : sizeof word - 1;
        memcpy(word, w, n);
        word[n] = 0;
        size_t i = 0;
        while (isalpha((unsigned char)word[i]))
            i++;
        bool code = i > 0 && word[i] && isdigit((unsigned char)word[i]);
        while (code && word[i])
            code = isdigit((unsigned char)word[i++]) != 0;
        bool ours = false;
        for (int c = 0; c < PC_CHK_COUNT && !ours; c++)
            ours = pc_chk_glob_matches(word, c);
        if (!code && !ours)
            break;
        last_end = q;
    }
    return (size_t)(last_end - p);
}

static void add_supp(pc_diag_sink *s, src_file *f, uint32_t first, uint32_t last, const char *names,
                     uint32_t line, uint32_t col, uint32_t names_col)
{
    (void)s;
    supp x = {first, last, names, line, col, names_col, 0};
    PC_VEC_PUSH(f->supps, x);
}

static void report_unmatched(pc_diag_sink *s, const char *file, uint32_t line, uint32_t col,
                             const char *text)
{
    pc_loc l = {file, line, col, line, col + 11};
    pc_diag_report(s, PC_CHK_UNUSED_SUPPRESSION, l, NULL, "%s", text);
}

/* Read the suppression comments of one file (one pass over its lines). */
static void scan_suppressions(pc_diag_sink *s, src_file *f)
{
    PC_VEC(nolint_begin) open = {0};
    const char *text = f->text, *end = f->text + f->len;
    uint32_t line = 1;
    for (const char *bol = text; bol < end; line++) {
        /* LF, CRLF and a lone CR end a line, as the frontends count lines (support.h) */
        const char *eol = text + pc_line_end(text, f->len, (size_t)(bol - text));
        for (const char *p = bol; p < eol; p++) {
            /* clang-tidy: NOLINT, NOLINTNEXTLINE, NOLINTBEGIN, NOLINTEND (case-sensitive). */
            if (eol - p >= 6 && memcmp(p, "NOLINT", 6) == 0 && (p == bol || !is_ident(p[-1]))) {
                const char *q = p + 6;
                int form = 0; /* 0 NOLINT, 1 NEXTLINE, 2 BEGIN, 3 END */
                if (eol - q >= 8 && memcmp(q, "NEXTLINE", 8) == 0)
                    form = 1, q += 8;
                else if (eol - q >= 5 && memcmp(q, "BEGIN", 5) == 0)
                    form = 2, q += 5;
                else if (eol - q >= 3 && memcmp(q, "END", 3) == 0)
                    form = 3, q += 3;
                if (q < eol && is_ident(*q))
                    continue; /* NOLINTFOO: not ours */
                const char *names = NULL;
                uint32_t names_col = 0;
                if (q < eol && *q == '(') {
                    const char *close = memchr(q, ')', (size_t)(eol - q));
                    names_col = (uint32_t)(q + 1 - bol) + 1;
                    if (close) {
                        names = pc_arena_strndup(s->arena, q + 1, (size_t)(close - q - 1));
                        q = close + 1;
                    }
                }
                uint32_t col = (uint32_t)(p - bol) + 1;
                if (form == 0)
                    add_supp(s, f, line, line, names, line, col, names_col);
                else if (form == 1)
                    add_supp(s, f, line + 1, line + 1, names, line, col, names_col);
                else if (form == 2) {
                    nolint_begin b = {line, col, names_col, names ? names : ""};
                    PC_VEC_PUSH(open, b);
                } else {
                    /* NOLINTEND closes the latest NOLINTBEGIN with the same list. */
                    const char *want = names ? names : "";
                    size_t i = open.count;
                    while (i > 0 && strcmp(open.items[i - 1].names, want) != 0)
                        i--;
                    if (i == 0) {
                        report_unmatched(s, f->file, line, col,
                                         "unmatched 'NOLINTEND' comment without a previous "
                                         "'NOLINTBEGIN' comment");
                    } else {
                        nolint_begin b = open.items[i - 1];
                        add_supp(s, f, b.line, line, *b.names ? b.names : NULL, b.line, b.col, b.names_col);
                        memmove(&open.items[i - 1], &open.items[i],
                                (open.count - i) * sizeof *open.items);
                        open.count--;
                    }
                }
                p = q - 1;
                continue;
            }
            /* ruff: `# noqa` / `# noqa: PC001, PC002` (case-insensitive). */
            if (*p == '#') {
                const char *q = p + 1;
                while (q < eol && (*q == ' ' || *q == '\t'))
                    q++;
                if (eol - q >= 4 && prefix_ci(q, "noqa") && (q + 4 == eol || !is_ident(q[4]))) {
                    q += 4;
                    const char *names = NULL;
                    if (q < eol && *q == ':') {
                        q++;
                        while (q < eol && (*q == ' ' || *q == '\t'))
                            q++;
                        size_t n = noqa_list_len(q, eol);
                        if (n)
                            names = pc_arena_strndup(s->arena, q, n);
                    }
                    add_supp(s, f, line, line, names, line, (uint32_t)(p - bol) + 1, (uint32_t)(q - bol) + 1);
                }
            }
        }
        bol = eol + pc_eol_len(text, f->len, (size_t)(eol - text));
        if (eol == end)
            break;
    }
    for (size_t i = 0; i < open.count; i++)
        report_unmatched(s, f->file, open.items[i].line, open.items[i].col,
                         "unmatched 'NOLINTBEGIN' comment without a subsequent 'NOLINTEND' comment");
    PC_VEC_FREE(open);
}

void pc_diag_set_source(pc_diag_sink *s, const char *file, const char *text, size_t len, pc_lang lang)
{
    if (!file || !text)
        return;
    src_file f = {0};
    f.file = pc_arena_strdup(s->arena, file);
    f.text = pc_arena_strndup(s->arena, text, len);
    f.len = len;
    f.lang = lang;
    /* A second call for the same file replaces the first. */
    for (size_t i = 0; i < s->sources.count; i++)
        if (strcmp(s->sources.items[i].file, file) == 0) {
            PC_VEC_FREE(s->sources.items[i].supps);
            s->sources.items[i] = f;
            scan_suppressions(s, &s->sources.items[i]);
            return;
        }
    PC_VEC_PUSH(s->sources, f);
    scan_suppressions(s, &s->sources.items[s->sources.count - 1]);
}

const char *pc_diag_source(const pc_diag_sink *s, const char *file, size_t *len, pc_lang *lang)
{
    if (!file)
        return NULL;
    for (size_t i = 0; i < s->sources.count; i++)
        if (strcmp(s->sources.items[i].file, file) == 0) {
            if (len)
                *len = s->sources.items[i].len;
            if (lang)
                *lang = s->sources.items[i].lang;
            return s->sources.items[i].text;
        }
    return NULL;
}

/* The suppression comment that covers (check, loc), or NULL. */
static supp *covering(const pc_diag_sink *s, int check, pc_loc loc)
{
    if (!loc.file || loc.line == 0)
        return NULL;
    for (size_t i = 0; i < s->sources.count; i++) {
        const src_file *f = &s->sources.items[i];
        if (strcmp(f->file, loc.file) != 0)
            continue;
        for (size_t j = 0; j < f->supps.count; j++) {
            supp *x = &f->supps.items[j];
            if (loc.line >= x->first && loc.line <= x->last &&
                (!x->names || names_match(x->names, check)))
                return x;
        }
    }
    return NULL;
}

bool pc_diag_is_suppressed(const pc_diag_sink *s, int check, pc_loc loc) { return covering(s, check, loc) != NULL; }

/* Does a suppression entry look like one of poolcheck's own (an id "PC" + digits, or
 * "poolcheck-..."), so that naming no check is a misspelling rather than another tool's name? */
static bool looks_ours(const char *entry)
{
    if ((entry[0] == 'P' || entry[0] == 'p') && (entry[1] == 'C' || entry[1] == 'c') &&
        isdigit((unsigned char)entry[2]))
        return true;
    return prefix_ci(entry, "poolcheck-");
}

static void judge_entry(pc_diag_sink *s, const src_file *f, const supp *x, const char *entry, uint32_t col)
{
    uint64_t matches = 0, selected = 0;
    for (int c = 0; c < PC_CHK_COUNT; c++)
        if (pc_chk_glob_matches(entry, c)) {
            matches |= (uint64_t)1 << c;
            if (s->selected[c])
                selected |= (uint64_t)1 << c;
        }
    /* at the name itself, so two names of one comment are two findings */
    pc_loc l = {f->file, x->line, col, x->line, col + (uint32_t)strlen(entry)};
    if (!matches) {
        if (looks_ours(entry))
            pc_diag_report(s, PC_CHK_UNUSED_SUPPRESSION, l, NULL,
                           "'%s' in this suppression comment names no check of poolcheck's (--list-checks "
                           "lists them): it suppresses nothing",
                           entry);
        return;
    }
    /* a check not selected reports nothing to suppress: the comment may be for another run */
    if (!selected || (matches & x->used))
        return;
    if (x->first == x->last)
        pc_diag_report(s, PC_CHK_UNUSED_SUPPRESSION, l, NULL,
                       "unused suppression of '%s': no such finding on line %u", entry, x->first);
    else
        pc_diag_report(s, PC_CHK_UNUSED_SUPPRESSION, l, NULL,
                       "unused suppression of '%s': no such finding on lines %u-%u", entry, x->first,
                       x->last);
}

void pc_diag_report_unused_suppressions(pc_diag_sink *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->sources.count; i++) {
        const src_file *f = &s->sources.items[i];
        /* judge_entry reports into s->diags, never into sources: f and its supps stay put */
        for (size_t j = 0; j < f->supps.count; j++) {
            const supp *x = &f->supps.items[j];
            if (!x->names) /* bare NOLINT / noqa: every tool's, not ours to judge */
                continue;
            const char *p = x->names, *at;
            char entry[128];
            while (next_entry(&p, entry, &at))
                judge_entry(s, f, x, entry, x->names_col ? x->names_col + (uint32_t)(at - x->names) : x->col);
        }
    }
}

/* ---- reporting -------------------------------------------------------------------------------- */

/* An arena copy of text on one line: the gcc-style matchers of editors and CI read only the first
 * line of a diagnostic, so CR/LF (and tabs) become blanks. */
static const char *one_line(pc_diag_sink *s, const char *text, size_t n)
{
    char *p = pc_arena_strndup(s->arena, text ? text : "", text ? n : 0);
    for (char *q = p; *q; q++)
        if (*q == '\n' || *q == '\r' || *q == '\t')
            *q = ' ';
    return p;
}

static pc_loc copy_loc(pc_diag_sink *s, pc_loc l)
{
    if (l.file)
        l.file = pc_arena_strdup(s->arena, l.file);
    return l;
}

static pc_diag *push_diag(pc_diag_sink *s, const pc_diag *d)
{
    PC_VEC_PUSH(s->diags, *d);
    return &s->diags.items[s->diags.count - 1];
}

/* ---- floods: one diagnostic per check and location, a cap per kernel -------------------------- */

static uint64_t loc_hash(int check, pc_loc l)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (const char *p = l.file ? l.file : ""; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    uint64_t parts[3] = {(uint64_t)(unsigned)check, l.line, l.col};
    for (int i = 0; i < 3; i++)
        h = (h ^ parts[i]) * 1099511628211ull;
    return h;
}

static bool same_place(const pc_diag *d, int check, pc_loc l)
{
    return d->check == check && d->loc.line == l.line && d->loc.col == l.col &&
           strcmp(d->loc.file ? d->loc.file : "", l.file ? l.file : "") == 0;
}

/* The index of the diagnostic of `check` already kept at `l`, or (size_t)-1. */
static size_t kept_at(const pc_diag_sink *s, int check, pc_loc l, uint64_t h)
{
    if (!s->nslots)
        return (size_t)-1;
    for (size_t i = h & (s->nslots - 1);; i = (i + 1) & (s->nslots - 1)) {
        const loc_slot *sl = &s->slots[i];
        if (!sl->used)
            return (size_t)-1;
        if (sl->hash == h && same_place(&s->diags.items[sl->index], check, l))
            return sl->index;
    }
}

static void remember_place(pc_diag_sink *s, uint64_t h, size_t index)
{
    if ((s->nused + 1) * 2 > s->nslots) {
        size_t n = s->nslots ? s->nslots * 2 : 64;
        loc_slot *t = pc_mem_calloc(n, sizeof *t);
        for (size_t i = 0; i < s->nslots; i++)
            if (s->slots[i].used) {
                size_t j = s->slots[i].hash & (n - 1);
                while (t[j].used)
                    j = (j + 1) & (n - 1);
                t[j] = s->slots[i];
            }
        pc_mem_free(s->slots);
        s->slots = t;
        s->nslots = n;
    }
    size_t i = h & (s->nslots - 1);
    while (s->slots[i].used)
        i = (i + 1) & (s->nslots - 1);
    s->slots[i] = (loc_slot){h, index, true};
    s->nused++;
}

static kernel_share *share_of(pc_diag_sink *s, const char *kernel)
{
    for (size_t i = 0; i < s->kernels.count; i++)
        if (strcmp(s->kernels.items[i].kernel, kernel) == 0)
            return &s->kernels.items[i];
    kernel_share k = {pc_arena_strdup(s->arena, kernel), 0, 0, 0, NULL};
    PC_VEC_PUSH(s->kernels, k);
    return &s->kernels.items[s->kernels.count - 1];
}

/* 2000 -> "2,000" */
static void with_commas(char *out, size_t n, size_t v)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%zu", v);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = 0;
}

static void leave_out(pc_diag_sink *s, kernel_share *k, pc_loc loc)
{
    enum { SUMMARY_MAX = 512 };
    if (k->left_out++ == 0) {
        k->summary_text = pc_arena_alloc(s->arena, SUMMARY_MAX);
        pc_diag d = {0};
        d.check = -1;
        d.severity = PC_SEV_NOTE;
        d.loc = copy_loc(s, loc);
        d.kernel = k->kernel;
        d.message = k->summary_text;
        push_diag(s, &d);
        k->summary = s->diags.count - 1;
    }
    char count[32];
    with_commas(count, sizeof count, k->left_out);
    snprintf(k->summary_text, SUMMARY_MAX,
             "kernel '%.300s': ... and %s more diagnostic%s not shown (at most %d per kernel)", k->kernel, count,
             k->left_out == 1 ? "" : "s", PC_DIAG_PER_KERNEL);
}

pc_diag *pc_diag_report(pc_diag_sink *s, int check, pc_loc loc, const char *kernel, const char *fmt, ...)
{
    if (!s || check < 0 || check >= PC_CHK_COUNT || !s->selected[check])
        return NULL;
    supp *by = covering(s, check, loc);
    if (by) {
        by->used |= (uint64_t)1 << check;
        s->suppressed++;
        return NULL;
    }
    if (s->max && s->nchecked >= (size_t)s->max) {
        s->capped++;
        return NULL;
    }
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    /* One diagnostic per check and location: a statement reached along 129 paths is one finding.
     * A different message there becomes a note of the first (a few, then they are counted). */
    uint64_t h = loc_hash(check, loc);
    size_t at = kept_at(s, check, loc, h);
    if (at != (size_t)-1) {
        pc_diag *first = &s->diags.items[at];
        bool same = strcmp(first->message, one_line(s, b.data, b.len)) == 0;
        for (int i = 0; i < first->nnotes && !same; i++)
            same = strstr(first->notes[i].message, b.data) != NULL;
        if (!same) {
            if (first->nnotes < FOLDED_NOTES)
                pc_diag_note(s, first, loc, "also here: %s", b.data);
        }
        pc_sb_free(&b);
        return NULL;
    }
    kernel_share *share = kernel ? share_of(s, kernel) : NULL;
    if (share && share->kept >= PC_DIAG_PER_KERNEL) {
        leave_out(s, share, loc);
        pc_sb_free(&b);
        return NULL;
    }
    const pc_check_info *info = &pc_chk_table(NULL)[check];
    pc_diag d = {0};
    d.check = check;
    d.id = info->id;
    d.name = info->name;
    d.severity = info->severity;
    if (d.severity == PC_SEV_WARNING && s->werror[check]) {
        d.severity = PC_SEV_ERROR;
        d.promoted = true;
    }
    d.loc = copy_loc(s, loc);
    d.kernel = share ? share->kernel : NULL;
    d.message = one_line(s, b.data, b.len);
    pc_sb_free(&b);
    s->nchecked++;
    if (share)
        share->kept++;
    pc_diag *kept = push_diag(s, &d);
    remember_place(s, h, s->diags.count - 1);
    return kept;
}

/* Is d one of this sink's diagnostics (notes and fixes are attached only to those)? */
static bool owns(const pc_diag_sink *s, const pc_diag *d)
{
    return d && s->diags.count && d >= s->diags.items && d < s->diags.items + s->diags.count;
}

void pc_diag_note(pc_diag_sink *s, pc_diag *d, pc_loc loc, const char *fmt, ...)
{
    if (!s || !owns(s, d))
        return;
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    pc_note n = {copy_loc(s, loc), one_line(s, b.data, b.len)};
    pc_sb_free(&b);
    d->notes = pc_arena_grow(s->arena, d->notes, (size_t)d->nnotes, (size_t)d->nnotes + 1, sizeof n);
    d->notes[d->nnotes++] = n;
}

void pc_diag_fix(pc_diag_sink *s, pc_diag *d, pc_loc range, const char *replacement)
{
    if (!s || !owns(s, d) || !range.file || range.line == 0)
        return;
    pc_fix f = {copy_loc(s, range), pc_arena_strdup(s->arena, replacement ? replacement : "")};
    d->fixes = pc_arena_grow(s->arena, d->fixes, (size_t)d->nfixes, (size_t)d->nfixes + 1, sizeof f);
    d->fixes[d->nfixes++] = f;
}

pc_diag *pc_diag_message(pc_diag_sink *s, pc_severity sev, pc_loc loc, const char *text)
{
    /* Frontend messages are never selected away, suppressed or capped: a file that cannot be
     * read must say so. */
    if (!s)
        return NULL;
    /* ... but the same message at the same place is said once: two kernels that inline one
     * helper reach its statements twice, and their notes there read alike. */
    const char *line = one_line(s, text, text ? strlen(text) : 0);
    uint64_t h = loc_hash(-1, loc);
    for (const char *p = line; p && *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ull;
    h = (h ^ (uint64_t)sev) * 1099511628211ull;
    for (size_t i = s->nslots ? h & (s->nslots - 1) : 0; s->nslots && s->slots[i].used; i = (i + 1) & (s->nslots - 1)) {
        const pc_diag *seen = &s->diags.items[s->slots[i].index];
        if (s->slots[i].hash == h && same_place(seen, -1, loc) && seen->severity == sev &&
            strcmp(seen->message, line) == 0)
            return NULL;
    }
    pc_diag d = {0};
    d.check = -1;
    d.severity = sev;
    d.loc = copy_loc(s, loc);
    d.message = line;
    pc_diag *kept = push_diag(s, &d);
    if (kept)
        remember_place(s, h, s->diags.count - 1);
    return kept;
}

const pc_diag *pc_diag_items(const pc_diag_sink *s, size_t *count)
{
    if (count)
        *count = s ? s->diags.count : 0;
    return s ? s->diags.items : NULL;
}

size_t pc_diag_count(const pc_diag_sink *s, pc_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; s && i < s->diags.count; i++)
        n += s->diags.items[i].severity == sev;
    return n;
}

size_t pc_diag_suppressed(const pc_diag_sink *s) { return s ? s->suppressed : 0; }

size_t pc_diag_capped(const pc_diag_sink *s) { return s ? s->capped : 0; }
