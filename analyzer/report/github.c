/*
 * github.c - `check --format=github`: GitHub Actions workflow commands, one per diagnostic,
 *   ::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=PC001 zero-depth-pool::message
 * (`::warning`, `::notice` for notes).  Notes follow the message on their own lines.  Escaping is
 * GitHub's (actions/toolkit command.ts): in the message `%`, CR and LF become %25, %0D, %0A; in
 * property values `:` and `,` also become %3A and %2C.  Paths are relative to base_dir (or the
 * working directory), as annotations name files relative to the repository root.
 */
#include "report/report_int.h"

#include <string.h>

static void escape(pc_sb *b, const char *text, bool property)
{
    /* Control characters other than the line breaks GitHub encodes are shown as clang shows them
     * ("<U+001B>", support.h): the Actions log viewer renders ANSI escape sequences. */
    pc_sb shown = {0};
    for (size_t i = 0, n = strlen(text); i < n;) {
        char esc[16];
        size_t k = pc_ctrl_escape(text + i, n - i, esc);
        if (esc[0] && text[i] != '\n' && text[i] != '\r')
            pc_sb_append(&shown, esc);
        else
            pc_sb_appendn(&shown, text + i, k);
        i += k;
    }
    for (const char *s = shown.data ? shown.data : ""; *s; s++) {
        switch (*s) {
        case '%': pc_sb_append(b, "%25"); break;
        case '\r': pc_sb_append(b, "%0D"); break;
        case '\n': pc_sb_append(b, "%0A"); break;
        case ':': pc_sb_append(b, property ? "%3A" : ":"); break;
        case ',': pc_sb_append(b, property ? "%2C" : ","); break;
        default: pc_sb_putc(b, *s);
        }
    }
    pc_sb_free(&shown);
}

static const char *command(pc_severity s)
{
    return s == PC_SEV_ERROR ? "error" : s == PC_SEV_WARNING ? "warning" : "notice";
}

static void property(pc_sb *b, bool *first, const char *key, const char *value)
{
    pc_sb_append(b, *first ? " " : ",");
    *first = false;
    pc_sb_append(b, key);
    pc_sb_putc(b, '=');
    escape(b, value, true);
}

static void number(pc_sb *b, bool *first, const char *key, uint32_t v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%u", v);
    property(b, first, key, buf);
}

static char *display_path(const char *file, const char *base)
{
    bool inside;
    return pc_rep_relative_path(file, base, &inside);
}

static void write_one(FILE *out, const pc_diag *d, const pc_report_opts *o)
{
    pc_sb b = {0};
    pc_sb_printf(&b, "::%s", command(d->severity));
    bool first = true;
    if (d->loc.file && *d->loc.file) {
        char *path = display_path(d->loc.file, o->base_dir);
        property(&b, &first, "file", path);
        pc_mem_free(path);
        if (d->loc.line) {
            number(&b, &first, "line", d->loc.line);
            if (d->loc.col)
                number(&b, &first, "col", d->loc.col);
            if (d->loc.end_line) {
                number(&b, &first, "endLine", d->loc.end_line);
                if (d->loc.end_col)
                    number(&b, &first, "endColumn", d->loc.end_col);
            }
        }
    }
    pc_sb title = {0};
    if (d->id)
        pc_sb_printf(&title, "%s %s%s", d->id, d->name, d->promoted ? " (warnings-as-errors)" : "");
    else
        pc_sb_append(&title, "poolcheck");
    property(&b, &first, "title", title.data);
    pc_sb_free(&title);

    /* The message, then the notes as clang-style lines. */
    pc_sb msg = {0};
    pc_sb_append(&msg, d->message);
    for (int i = 0; i < d->nnotes; i++) {
        const pc_note *n = &d->notes[i];
        pc_sb_putc(&msg, '\n');
        if (n->loc.file && *n->loc.file) {
            char *path = display_path(n->loc.file, o->base_dir);
            if (n->loc.line)
                pc_sb_printf(&msg, "%s:%u:%u: ", path, n->loc.line, n->loc.col ? n->loc.col : 1);
            else
                pc_sb_printf(&msg, "%s: ", path);
            pc_mem_free(path);
        }
        pc_sb_printf(&msg, "note: %s", n->message);
    }
    pc_sb_append(&b, "::");
    escape(&b, msg.data, false);
    pc_sb_free(&msg);
    fprintf(out, "%s\n", b.data);
    pc_sb_free(&b);
}

void pc_rep_github_file(FILE *out, const pc_report_opts *o, const pc_rep_file *f, const bool *skip)
{
    for (size_t i = 0; i < f->ndiags; i++)
        if (!skip[i])
            write_one(out, &f->diags[i], o);
}
