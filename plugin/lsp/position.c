/*
 * position.c - from poolcheck's 1-based byte columns to LSP positions and back, and file URIs.
 *
 * LSP 3.17 counts `character` in UTF-16 code units unless the server picked another encoding
 * from the client's general.positionEncodings; poolcheck (like clang) counts bytes.  Converting
 * needs the text of the line, so every conversion goes through a line table of the analysed text.
 * Invalid UTF-8 counts one unit per byte (what an editor shows as U+FFFD).
 */
#define _POSIX_C_SOURCE 200809L
#include "lsp.h"

#include <string.h>
#include <unistd.h>

const char *pc_lsp_encoding_name(pc_lsp_encoding e) { return e == PC_LSP_UTF8 ? "utf-8" : "utf-16"; }

void pc_lsp_lines_init(pc_lsp_lines *l, const char *text, size_t len)
{
    /* LF, CRLF and a lone CR each end a line: support.h's one rule, which is LSP's too and the
     * frontends' (CPython, libclang) */
    PC_VEC(size_t) starts = {0};
    PC_VEC_PUSH(starts, (size_t)0);
    for (size_t i = pc_line_end(text, len, 0); i < len; i = pc_line_end(text, len, i)) {
        i += pc_eol_len(text, len, i);
        PC_VEC_PUSH(starts, i);
    }
    l->text = text;
    l->len = len;
    l->starts = starts.items;
    l->nlines = starts.count;
}

void pc_lsp_lines_free(pc_lsp_lines *l)
{
    pc_mem_free(l->starts);
    memset(l, 0, sizeof *l);
}

size_t pc_lsp_line_len(const pc_lsp_lines *l, size_t i)
{
    if (i >= l->nlines)
        return 0;
    size_t s = l->starts[i];
    return pc_line_end(l->text, l->len, s) - s;
}

/* Length in bytes of the UTF-8 sequence at s (at most n bytes), and its UTF-16 length in *units.
 * An invalid or truncated sequence is one byte, one unit. */
static size_t utf8_step(const unsigned char *s, size_t n, unsigned *units)
{
    unsigned c = s[0];
    size_t len;
    uint32_t cp;
    if (c < 0x80) {
        *units = 1;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07;
    } else {
        *units = 1;
        return 1;
    }
    if (len > n)
        goto invalid;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            goto invalid;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are not characters. */
    if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
        (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
        goto invalid;
    *units = len == 4 ? 2 : 1;
    return len;
invalid:
    *units = 1;
    return 1;
}

pc_lsp_pos pc_lsp_to_lsp(const pc_lsp_lines *l, uint32_t line, uint32_t col, pc_lsp_encoding e)
{
    pc_lsp_pos p = {0, 0};
    if (line == 0 || l->nlines == 0)
        return p;
    size_t li = line - 1;
    size_t byte = col > 0 ? col - 1 : 0;
    if (li >= l->nlines) {
        li = l->nlines - 1;
        byte = SIZE_MAX;
    }
    size_t n = pc_lsp_line_len(l, li);
    if (byte > n)
        byte = n;
    p.line = (uint32_t)li;
    if (e == PC_LSP_UTF8) {
        p.character = (uint32_t)byte;
        return p;
    }
    const unsigned char *s = (const unsigned char *)l->text + l->starts[li];
    uint32_t units = 0;
    for (size_t i = 0; i < byte;) {
        unsigned u;
        i += utf8_step(s + i, n - i, &u);
        units += u;
    }
    p.character = units;
    return p;
}

void pc_lsp_from_lsp(const pc_lsp_lines *l, pc_lsp_pos p, pc_lsp_encoding e, uint32_t *line,
                     uint32_t *col)
{
    if (l->nlines == 0) {
        *line = 1;
        *col = 1;
        return;
    }
    size_t li = p.line;
    uint32_t ch = p.character;
    if (li >= l->nlines) {
        li = l->nlines - 1;
        ch = UINT32_MAX;
    }
    size_t n = pc_lsp_line_len(l, li);
    size_t byte;
    if (e == PC_LSP_UTF8) {
        byte = ch < n ? ch : n;
    } else {
        const unsigned char *s = (const unsigned char *)l->text + l->starts[li];
        uint32_t units = 0;
        byte = 0;
        while (byte < n && units < ch) {
            unsigned u;
            byte += utf8_step(s + byte, n - byte, &u);
            units += u;   /* a position inside a surrogate pair lands after the character */
        }
    }
    *line = (uint32_t)li + 1;
    *col = (uint32_t)byte + 1;
}

/* ---- URIs ------------------------------------------------------------------------------------ */

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *pc_lsp_uri_to_path(const char *uri)
{
    static const char scheme[] = "file://";
    if (strncmp(uri, scheme, sizeof scheme - 1) != 0)
        return pc_mem_strdup(uri);
    const char *p = uri + sizeof scheme - 1;
    /* file://localhost/x and file:///x name the same file; another authority is a UNC host,
     * kept as //host/x. */
    if (strncmp(p, "localhost/", 10) == 0)
        p += 9;
    pc_sb b = {0};
    if (*p != '/')
        pc_sb_append(&b, "//");
    for (; *p && *p != '?' && *p != '#'; p++) {
        int hi, lo;
        if (*p == '%' && (hi = hex_value(p[1])) >= 0 && (lo = hex_value(p[2])) >= 0) {
            pc_sb_putc(&b, (char)(hi << 4 | lo));
            p += 2;
        } else {
            pc_sb_putc(&b, *p);
        }
    }
    return pc_sb_take(&b);
}

char *pc_lsp_path_to_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    pc_sb abs = {0};
    if (path[0] != '/') {
        /* A relative path (a config file named in the settings) is relative to the server's
         * working directory, which editors set to the workspace root. */
        char cwd[4096];
        if (getcwd(cwd, sizeof cwd))
            pc_sb_printf(&abs, "%s/", cwd);
    }
    pc_sb_append(&abs, path);
    pc_sb b = {0};
    pc_sb_append(&b, "file://");
    for (const unsigned char *p = (const unsigned char *)abs.data; *p; p++) {
        unsigned c = *p;
        bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                     c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
        if (plain) {
            pc_sb_putc(&b, (char)c);
        } else {
            char esc[3] = {'%', hex[c >> 4], hex[c & 15]};
            pc_sb_appendn(&b, esc, 3);
        }
    }
    pc_sb_free(&abs);
    return pc_sb_take(&b);
}
