/*
 * output.c - the text format.
 *
 * Text is clang's diagnostic format: `file:line:col: severity: message [PC001]`, the source line,
 * a caret line (`^~~~` under the range) and a fix-it line when the fix replaces text on that line;
 * notes as `file:line:col: note: message`.  Every primary line stands alone, since the gcc problem
 * matchers of VS Code and GitHub read only those.  Promoted warnings carry clang-tidy's
 * `[PC006,-warnings-as-errors]` tag.  A file's part (pc_rep_text_file) is written by the stream
 * (stream.c), which also writes the closing counts.
 */
#include "report/report_int.h"

#include <string.h>

/* clang's colours: bold location and message, red errors, magenta warnings, grey notes, green
 * carets and fix-its. */
typedef struct palette { const char *bold, *reset, *error, *warning, *note, *caret; } palette;

static palette colours(bool on)
{
    if (!on)
        return (palette){"", "", "", "", "", ""};
    return (palette){"\033[1m", "\033[0m", "\033[1;31m", "\033[1;35m", "\033[1;30m", "\033[1;32m"};
}

static const char *sev_colour(const palette *p, pc_severity s)
{
    return s == PC_SEV_ERROR ? p->error : s == PC_SEV_WARNING ? p->warning : p->note;
}

/* Text from a file name, a message or a source line, with its control characters shown as clang
 * shows them ("<U+001B>", support.h): an option value or a file name must not drive the terminal. */
static void put_visible(FILE *out, const char *s, size_t n)
{
    pc_sb b = {0};
    pc_sb_append_visible(&b, s, n);
    if (b.len)
        fwrite(b.data, 1, b.len, out);
    pc_sb_free(&b);
}

static void put_str(FILE *out, const char *s) { put_visible(out, s, strlen(s)); }

static void print_location(FILE *out, const palette *p, pc_loc l)
{
    if (!l.file || !*l.file)
        return;
    fputs(p->bold, out);
    put_str(out, l.file);
    if (l.line == 0)
        fprintf(out, ":%s ", p->reset);
    else
        fprintf(out, ":%u:%u:%s ", l.line, l.col ? l.col : 1, p->reset);
}

/* How many columns line[i..] takes on screen and how many bytes that is: a tab, a control
 * character shown escaped (its escape's width), another character (one). */
static size_t unit_at(const char *line, size_t n, size_t i, size_t *width)
{
    if (i >= n) { /* past the end of the line (a range ending after it): bytes count as one */
        *width = 1;
        return 1;
    }
    char esc[16];
    size_t k = pc_ctrl_escape(line + i, n - i, esc);
    *width = esc[0] ? strlen(esc) : 1;
    return k;
}

/* The indentation that puts a mark under byte column `col` of line: tabs stay tabs, each other
 * character (not byte) is one space, an escaped control character the width of its escape. */
static void pad_to(FILE *out, const char *line, size_t n, uint32_t col)
{
    for (size_t i = 0; i + 1 < col;) {
        size_t w;
        size_t k = unit_at(line, n, i, &w);
        if (i < n && line[i] == '\t')
            fputc('\t', out);
        else
            for (size_t j = 0; j < w; j++)
                fputc(' ', out);
        i += k;
    }
}

/* Columns line[from..to) takes on screen. */
static size_t chars(const char *line, size_t n, size_t from, size_t to)
{
    size_t c = 0;
    for (size_t i = from; i < to;) {
        size_t w;
        i += unit_at(line, n, i, &w);
        c += w;
    }
    return c;
}

/* A source line longer than this is shown as a window of it around the caret, with "..." where
 * it was cut (as clang trims long lines): a minified or generated 10 MB line must not be echoed
 * under every diagnostic on it. */
#define SNIPPET_MAX 240

/* Source line, caret line, and the fix-it line when a fix rewrites part of this line. */
static void print_snippet(FILE *out, const palette *p, const pc_rep_file *rec, pc_loc l, const pc_fix *fixes,
                          int nfixes)
{
    const char *line;
    size_t n;
    if (l.line == 0 || !pc_rep_file_line(rec, l.file, l.line, &line, &n))
        return;
    uint32_t col = l.col ? l.col : 1;
    size_t from = 0, to = n; /* the bytes shown, on character boundaries */
    if (n > SNIPPET_MAX) {
        size_t at = col - 1 < n ? col - 1 : n;
        from = at > SNIPPET_MAX / 2 ? at - SNIPPET_MAX / 2 : 0;
        while (from > 0 && ((unsigned char)line[from] & 0xC0) == 0x80)
            from--;
        to = from + SNIPPET_MAX < n ? from + SNIPPET_MAX : n;
        while (to < n && ((unsigned char)line[to] & 0xC0) == 0x80)
            to++;
    }
    const char *lead = from ? "..." : "";
    fputs(lead, out);
    put_visible(out, line + from, to - from);
    fprintf(out, "%s\n", to < n ? "..." : "");
    fprintf(out, "%*s", (int)strlen(lead), "");
    pad_to(out, line + from, to - from, (uint32_t)(col - from));
    fprintf(out, "%s^", p->caret);
    if (l.end_line == l.line && l.end_col > col + 1) {
        size_t tildes = chars(line, n, col, l.end_col - 1 < to ? l.end_col - 1 : to);
        for (size_t i = 0; i < tildes; i++)
            fputc('~', out);
    }
    fprintf(out, "%s\n", p->reset);
    for (int i = 0; i < nfixes; i++) {
        const pc_fix *f = &fixes[i];
        if (f->range.line != l.line || f->range.end_line != l.line || strchr(f->replacement, '\n') ||
            !f->range.file || !l.file || strcmp(f->range.file, l.file) != 0 || f->range.col < from + 1 ||
            f->range.col > to + 1)
            continue;
        fprintf(out, "%*s", (int)strlen(lead), "");
        pad_to(out, line + from, to - from, (uint32_t)(f->range.col - from));
        fputs(p->caret, out);
        put_str(out, f->replacement);
        fprintf(out, "%s\n", p->reset);
        break;
    }
}

static void write_diag(FILE *out, const palette *p, const pc_rep_file *f, const pc_diag *d)
{
    print_location(out, p, d->loc);
    fprintf(out, "%s%s:%s %s", sev_colour(p, d->severity), pc_severity_name(d->severity), p->reset, p->bold);
    put_str(out, d->message);
    if (d->id)
        fprintf(out, " [%s%s]", d->id, d->promoted ? ",-warnings-as-errors" : "");
    fprintf(out, "%s\n", p->reset);
    print_snippet(out, p, f, d->loc, d->fixes, d->nfixes);
    for (int i = 0; i < d->nnotes; i++) {
        const pc_note *nt = &d->notes[i];
        print_location(out, p, nt->loc);
        fprintf(out, "%snote:%s ", p->note, p->reset);
        put_str(out, nt->message);
        fputc('\n', out);
        print_snippet(out, p, f, nt->loc, NULL, 0);
    }
}

void pc_rep_text_file(FILE *out, const pc_report_opts *o, const pc_rep_file *f, const bool *skip, size_t counts[3])
{
    palette p = colours(o->color);
    for (size_t i = 0; i < f->ndiags; i++) {
        if (skip[i])
            continue;
        write_diag(out, &p, f, &f->diags[i]);
        counts[f->diags[i].severity]++;
    }
    if (f->capped) {
        fputs(p.bold, out);
        put_str(out, f->file ? f->file : "");
        fprintf(out, ":%s %snote:%s %llu more diagnostic%s not shown (limit reached)\n", p.reset, p.note,
                p.reset, (unsigned long long)f->capped, f->capped == 1 ? "" : "s");
    }
    if (o->verbose && f->no_kernel) {
        fputs("no kernel in ", out);
        put_str(out, f->file ? f->file : "");
        fputc('\n', out);
    }
    if (o->summary)
        for (size_t k = 0; k < f->nkernels; k++)
            pc_rep_kernel_summary_text(out, &f->kernels[k], o->color);
}

void pc_rep_write_counts(FILE *stats, size_t errors, size_t warnings, size_t suppressed)
{
    if (errors || warnings)
        fprintf(stats, "%zu error%s, %zu warning%s generated.\n", errors, errors == 1 ? "" : "s", warnings,
                warnings == 1 ? "" : "s");
    if (suppressed)
        fprintf(stats, "Suppressed %zu diagnostic%s (NOLINT/noqa).\n", suppressed, suppressed == 1 ? "" : "s");
}
