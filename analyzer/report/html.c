/* html.c - the HTML report (`--report=FILE.html`): one self-contained page with inline SVG and
 * CSS only (no script, no font, nothing fetched) that draws what the analysis computed for every
 * kernel: the instances in program order and their DeviceTasks (docs/model.md 3, 5), the depth each
 * DeviceTask needs per pool against the configured and predicted depths (6), the tensors and their
 * pools (4) and the workspace bytes (7); with a run's logs, what it observed (11).
 *
 * It also reproduces its inputs, so that a saved report says how to get the same answer again: an
 * "Inputs" section after the summary with the command line, the files with their project and
 * config file, every binding with its source and the runtime options from outside the source (the
 * facts `check --show-settings` prints, handed in as pc_rep_html_inputs), and "Configuration to
 * paste": pc_rep_emit_config's JSON / Python / C++ text, each in a block one click selects (CSS
 * user-select; there is no script for a copy button).
 * Each kernel's section lists the runtime options in force with where each was set (the
 * pc_runtime_config's src_* options: default, a file, --set, or the source's own call).
 *
 * Nothing here computes a depth: every number comes from pc_result.  The one price computed is
 * the workspace bytes of depths the caller brings (observed, planned), and that goes through
 * pc_workspace_bytes, the analysis' own formula.
 *
 * The page is XHTML syntax (every element closed, attributes quoted, only the five XML entities
 * and numeric references), so an XML parser reads it as well as a browser.  Strings from the
 * source (names, paths, messages) are escaped, and bytes that are not well-formed UTF-8 or not
 * XML characters become U+FFFD.  Coordinates are printed by hand, not with %f, which follows
 * LC_NUMERIC: a decimal comma would break every SVG attribute. */
#define _POSIX_C_SOURCE 200809L
#include "report_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- geometry (px in the SVG user space; the SVGs scale down with the window) ---------------- */

#define SVG_W 1100.0          /* width of every picture */
#define PLOT_L 112.0          /* left margin: row labels, y axes */
#define STRIP_R 20.0          /* strip right margin */
#define CHART_R 200.0         /* chart right margin: labels of the depth lines */
#define STRIP_MIN_CELL 2.0    /* narrowest instance cell before instances are binned */
#define STRIP_MIN_BAND 4.0    /* narrowest DeviceTask band before tasks are grouped */
#define STRIP_FULL_BOUNDARIES 60 /* up to this many task groups, boundaries cross the strip */
#define CHART_MAX_BARS 100    /* bars per panel before DeviceTasks are grouped */
#define CHART_LABEL_BARS 40   /* panels with at most this many bars label every bar */
#define PANEL_H 120.0         /* height of one chart panel's plot area */
#define LEGEND_ROOTS 30       /* roots named in the strip's legend (all are in the table) */
#define OFFSCALE_FACTOR 4     /* a configured depth this many times the rest is drawn off scale */
#define NPALETTE 10           /* root colours (they repeat after 10 roots) */

/* ---- numbers ----------------------------------------------------------------------------------- */

typedef struct num_s { char s[64]; } num_s;

/* One decimal, dropped when it is 0. */
static num_s N(double v)
{
    num_s o;
    if (!isfinite(v))
        v = 0;
    long long t = llround(v * 10.0);
    bool neg = t < 0;
    if (neg)
        t = -t;
    if (t % 10 == 0)
        snprintf(o.s, sizeof o.s, "%s%lld", neg ? "-" : "", t / 10);
    else
        snprintf(o.s, sizeof o.s, "%s%lld.%lld", neg ? "-" : "", t / 10, t % 10);
    return o;
}

static num_s I(int64_t v)
{
    num_s o;
    snprintf(o.s, sizeof o.s, "%lld", (long long)v);
    return o;
}

/* "512 B", "64 KiB", "1.1 MiB" */
static num_s human_bytes(double v)
{
    num_s o;
    static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (u < 4 && fabs(v) >= 1024.0) {
        v /= 1024.0;
        u++;
    }
    snprintf(o.s, sizeof o.s, "%.24s %s", N(v).s, unit[u]);
    return o;
}

/* "65536 B (64 KiB)", "unknown" */
static num_s bytes_text(int64_t v)
{
    num_s o;
    if (v < 0)
        snprintf(o.s, sizeof o.s, "unknown");
    else if (v < 1024)
        snprintf(o.s, sizeof o.s, "%lld B", (long long)v);
    else
        snprintf(o.s, sizeof o.s, "%lld B (%.30s)", (long long)v, human_bytes((double)v).s);
    return o;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t ceil_div64(int64_t a, int64_t b) { return b > 0 ? (a + b - 1) / b : 0; }
static const char *plural(int64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

/* A "nice" tick step (1, 2 or 5 times a power of ten) giving about `target` ticks over range. */
static double nice_step(double range, int target)
{
    if (!(range > 0))
        return 1;
    double raw = range / target;
    double mag = pow(10.0, floor(log10(raw)));
    double f = raw / mag;
    double nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
    return nf * mag;
}

/* ---- text -------------------------------------------------------------------------------------- */

#define REPLACEMENT "\xEF\xBF\xBD" /* U+FFFD */

/* Append s[0..n) as text or attribute content: markup characters as entities; bytes that are not
 * well-formed UTF-8, C0/C1 controls (but tab and newline) and U+FFFE/U+FFFF as U+FFFD. */
static void esc_n(pc_sb *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    while (p < end) {
        unsigned c = *p;
        if (c < 0x80) {
            switch (c) {
            case '&': pc_sb_append(b, "&amp;"); break;
            case '<': pc_sb_append(b, "&lt;"); break;
            case '>': pc_sb_append(b, "&gt;"); break;
            case '"': pc_sb_append(b, "&quot;"); break;
            case '\'': pc_sb_append(b, "&#39;"); break;
            default:
                if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
                    pc_sb_append(b, REPLACEMENT);
                else
                    pc_sb_putc(b, (char)c);
            }
            p++;
            continue;
        }
        size_t len;
        uint32_t cp, least;
        if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, least = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, least = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, least = 0x10000;
        } else {
            pc_sb_append(b, REPLACEMENT);
            p++;
            continue;
        }
        bool ok = (size_t)(end - p) >= len;
        for (size_t i = 1; ok && i < len; i++) {
            ok = (p[i] & 0xC0) == 0x80;
            cp = cp << 6 | (p[i] & 0x3F);
        }
        if (!ok || cp < least || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE ||
            cp == 0xFFFF || (cp >= 0x80 && cp <= 0x9F)) {
            pc_sb_append(b, REPLACEMENT);
            p++;
            continue;
        }
        pc_sb_appendn(b, (const char *)p, len);
        p += len;
    }
}

static void esc(pc_sb *b, const char *s)
{
    if (s)
        esc_n(b, s, strlen(s));
}

/* Width of a label in px: code points times an average sans-serif advance (0.6 em, generous). */
static double text_w(const char *s, double size)
{
    size_t cps = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        cps += (*p & 0xC0) != 0x80;
    return (double)cps * size * 0.6;
}

/* ---- SVG primitives ---------------------------------------------------------------------------- */

static void svg_text(pc_sb *b, double x, double y, const char *cls, const char *anchor, const char *s)
{
    pc_sb_printf(b, "<text x=\"%s\" y=\"%s\"", N(x).s, N(y).s);
    if (cls && *cls)
        pc_sb_printf(b, " class=\"%s\"", cls);
    if (anchor && strcmp(anchor, "start") != 0)
        pc_sb_printf(b, " text-anchor=\"%s\"", anchor);
    pc_sb_append(b, ">");
    esc(b, s);
    pc_sb_append(b, "</text>");
}

static void svg_textf(pc_sb *b, double x, double y, const char *cls, const char *anchor,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void svg_textf(pc_sb *b, double x, double y, const char *cls, const char *anchor,
                      const char *fmt, ...)
{
    pc_sb t = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&t, fmt, ap);
    va_end(ap);
    svg_text(b, x, y, cls, anchor, t.data ? t.data : "");
    pc_sb_free(&t);
}

/* The end of an SVG element: title (may be NULL) becomes its tooltip, <title> inside <tag>. */
static void svg_end(pc_sb *b, const char *tag, const char *title)
{
    if (title) {
        pc_sb_append(b, "><title>");
        esc(b, title);
        pc_sb_printf(b, "</title></%s>", tag);
    } else {
        pc_sb_append(b, "/>");
    }
}

/* A rectangle; title (may be NULL) becomes its tooltip. */
static void svg_rect(pc_sb *b, double x, double y, double w, double h, const char *cls, const char *title)
{
    if (w < 0)
        w = 0;
    if (h < 0)
        h = 0;
    pc_sb_printf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"", N(x).s, N(y).s, N(w).s, N(h).s);
    if (cls && *cls)
        pc_sb_printf(b, " class=\"%s\"", cls);
    svg_end(b, "rect", title);
}

static void svg_line(pc_sb *b, double x1, double y1, double x2, double y2, const char *cls)
{
    pc_sb_printf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" class=\"%s\"/>", N(x1).s, N(y1).s,
                 N(x2).s, N(y2).s, cls);
}

/* A diamond marker centred on (x, y). */
static void svg_diamond(pc_sb *b, double x, double y, double r, const char *cls, const char *title)
{
    pc_sb_printf(b, "<path d=\"M%s %sL%s %sL%s %sL%s %sZ\" class=\"%s\"", N(x).s, N(y - r).s, N(x + r).s,
                 N(y).s, N(x).s, N(y + r).s, N(x - r).s, N(y).s, cls);
    svg_end(b, "path", title);
}

/* Wrap a picture body: the height is known only once it is drawn. */
static void svg_emit(pc_sb *out, pc_sb *body, double height, const char *label)
{
    pc_sb_printf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"%s\" height=\"%s\" "
                      "viewBox=\"0 0 %s %s\" role=\"img\" aria-label=\"",
                 N(SVG_W).s, N(height).s, N(SVG_W).s, N(height).s);
    esc(out, label);
    pc_sb_append(out, "\">");
    pc_sb_appendn(out, body->data ? body->data : "", body->len);
    pc_sb_append(out, "</svg>\n");
}

/* ---- the style sheet --------------------------------------------------------------------------- */

/* Light and dark schemes by prefers-color-scheme; every colour is a variable so the SVG and the
 * HTML share them.  Root colours: Tableau 10 (colour-blind-aware), lightened for the dark scheme,
 * with its red last but one: red means "configured" and "needs more than configured" here. */
static const char css[] =
    ":root{color-scheme:light dark;--bg:#ffffff;--fg:#1d2330;--muted:#5d6678;--grid:#e3e6ec;"
    "--axis:#8a93a3;--card:#f5f6f9;--border:#d6dae2;--link:#1a5fd0;--band0:#e9edf4;--band1:#d3dae7;"
    "--bnd:#1d2330;--cfg:#cf2e3d;--pred:#1d2330;--sugg:#7b52c7;--obs:#e07000;--plan:#0f8b8d;"
    "--cut:#e0404e;--unk:#c3c8d1;"
    "--p0:#5b8fc9;--p1:#4fa36b;--p2:#d0a33a;--pn:#a0a7b4;"
    "--c0:#8795ab;--c1:#5d6d85;--c2:#9b6fc2;--c3:#3aa3a0;--c4:#b9c0cc;"
    "--r0:#4e79a7;--r1:#f28e2b;--r2:#76b7b2;--r3:#59a14f;--r4:#edc948;--r5:#b07aa1;--r6:#ff9da7;"
    "--r7:#9c755f;--r8:#e15759;--r9:#bab0ac}\n"
    "@media (prefers-color-scheme: dark){:root{--bg:#14171c;--fg:#e4e7ee;--muted:#a0a9b8;"
    "--grid:#2c323c;--axis:#6d7686;--card:#1c2028;--border:#343b47;--link:#7fb0ff;--band0:#252b35;"
    "--band1:#343c4a;--bnd:#f2f4f8;--cfg:#ff5c6a;--pred:#e4e7ee;--sugg:#b394f0;--obs:#ffa238;"
    "--plan:#3cc7c9;--cut:#ff5c6a;--unk:#4a515e;"
    "--p0:#74a8e3;--p1:#6cc487;--p2:#e8bd55;--pn:#7c8594;"
    "--c0:#7d8ba2;--c1:#a2b0c6;--c2:#b58fe0;--c3:#4fc4c0;--c4:#5c6575;"
    "--r0:#6b9bd1;--r1:#f5a04a;--r2:#8fd0ca;--r3:#7cc36f;--r4:#f2d66b;--r5:#c99bc0;--r6:#ffb3bb;"
    "--r7:#b89179;--r8:#ef7b7c;--r9:#cfc6c2}}\n"
    "body{background:var(--bg);color:var(--fg);margin:0;padding:20px 28px 40px;"
    "font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',sans-serif}\n"
    "main{max-width:1240px}\n"
    "h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 6px;padding-top:10px;"
    "border-top:2px solid var(--border)}h3{font-size:17px;margin:18px 0 4px}"
    "h4{font-size:14px;margin:18px 0 6px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}\n"
    "a{color:var(--link)}code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:13px}\n"
    ".muted{color:var(--muted)}.bad{color:var(--cfg);font-weight:600}.good{color:var(--p1);font-weight:600}\n"
    ".facts{display:flex;flex-wrap:wrap;gap:6px 18px;margin:6px 0 10px;padding:8px 12px;"
    "background:var(--card);border:1px solid var(--border);border-radius:6px}\n"
    "table{border-collapse:collapse;margin:4px 0 8px;font-size:13px}"
    "th,td{text-align:left;padding:3px 10px 3px 0;border-bottom:1px solid var(--grid);vertical-align:top}"
    "th{color:var(--muted);font-weight:600}td.n,th.n{text-align:right;padding-right:14px}td.nw{white-space:nowrap}\n"
    ".chip{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;"
    "vertical-align:baseline}\n"
    ".chip.p0{background:var(--p0)}.chip.p1{background:var(--p1)}.chip.p2{background:var(--p2)}"
    ".chip.p3{background:var(--pn)}\n"
    ".chip.r0{background:var(--r0)}.chip.r1{background:var(--r1)}.chip.r2{background:var(--r2)}"
    ".chip.r3{background:var(--r3)}.chip.r4{background:var(--r4)}.chip.r5{background:var(--r5)}"
    ".chip.r6{background:var(--r6)}.chip.r7{background:var(--r7)}.chip.r8{background:var(--r8)}"
    ".chip.r9{background:var(--r9)}.chip.unk{background:var(--unk)}\n"
    "ul.diags{padding-left:18px}ul.diags li{margin:2px 0}.sev-error{color:var(--cfg);font-weight:600}"
    ".sev-warning{color:var(--obs);font-weight:600}.sev-note{color:var(--muted);font-weight:600}\n"
    "nav ul{margin:4px 0;padding-left:18px}\n"
    ".summary{margin:10px 0 4px;padding:10px 14px;background:var(--card);border:1px solid var(--border);"
    "border-radius:6px}.summary h2{border:0;margin:0 0 4px;padding:0}.summary ul{margin:4px 0}\n"
    /* Long names (tensors, roots, paths) may break anywhere, so no table is wider than the page;
     * numbers never break, and the "why" texts keep room to be read. */
    "td{overflow-wrap:anywhere}td.n,td.nw{overflow-wrap:normal}td.why{min-width:22em}td.uses{min-width:12em}"
    "table.tensors,table.depths{width:100%}\n"
    "svg.chart{display:block;max-width:100%;height:auto;margin:4px 0 6px;"
    "font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',sans-serif}\n"
    "svg text{fill:var(--fg);font-size:12px}svg text.sm{font-size:11px}svg text.mut{fill:var(--muted)}"
    "svg text.b{font-weight:600}svg text.ttl{font-size:13px;font-weight:600}"
    "svg text.cuttxt{fill:var(--cfg);font-weight:600}svg text.cfgtxt{fill:var(--cfg)}"
    "svg text.predtxt{fill:var(--pred);font-weight:600}svg text.suggtxt{fill:var(--sugg)}"
    "svg text.obstxt{fill:var(--obs);font-weight:600}svg text.plantxt{fill:var(--plan)}\n"
    ".r0{fill:var(--r0)}.r1{fill:var(--r1)}.r2{fill:var(--r2)}.r3{fill:var(--r3)}.r4{fill:var(--r4)}"
    ".r5{fill:var(--r5)}.r6{fill:var(--r6)}.r7{fill:var(--r7)}.r8{fill:var(--r8)}.r9{fill:var(--r9)}"
    ".unk{fill:var(--unk)}\n"
    ".p0{fill:var(--p0)}.p1{fill:var(--p1)}.p2{fill:var(--p2)}.p3{fill:var(--pn)}"
    ".c0{fill:var(--c0)}.c1{fill:var(--c1)}.c2{fill:var(--c2)}.c3{fill:var(--c3)}.c4{fill:var(--c4)}\n"
    ".band0{fill:var(--band0)}.band1{fill:var(--band1)}.frame{fill:none;stroke:var(--axis);stroke-width:1}"
    ".par{fill:none;stroke:var(--c3);stroke-width:2;stroke-dasharray:4 3}\n"
    ".bnd{stroke:var(--bnd);stroke-width:2}.bnd.thin{stroke-width:1}.lead{stroke:var(--axis);stroke-width:1}"
    ".grid{stroke:var(--grid);stroke-width:1}.axis{stroke:var(--axis);stroke-width:1}\n"
    ".cut{fill:var(--cut);stroke:var(--cfg);stroke-width:1.5}"
    ".cfg{stroke:var(--cfg);stroke-width:2.5}.cfg.off{stroke-dasharray:10 4}"
    ".pred{stroke:var(--pred);stroke-width:2;stroke-dasharray:7 4}"
    ".sugg{stroke:var(--sugg);stroke-width:2;stroke-dasharray:2 3}"
    ".obs{stroke:var(--obs);stroke-width:2;stroke-dasharray:9 3 2 3}"
    ".plan{stroke:var(--plan);stroke-width:2;stroke-dasharray:12 4}"
    ".kline{stroke:var(--axis);stroke-width:1.5;stroke-dasharray:5 3}\n"
    ".obsmark{fill:var(--obs);stroke:var(--bg);stroke-width:1}"
    ".budget{stroke:var(--cfg);stroke-width:2;stroke-dasharray:3 3}\n"
    /* the inputs: what a reader copies keeps its line breaks and wraps inside the page */
    "pre.cmd,pre.paste,pre.caveats{margin:4px 0 10px;padding:8px 12px;background:var(--card);"
    "border:1px solid var(--border);border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}"
    "pre.paste{user-select:all;-webkit-user-select:all;cursor:text}"
    ".pastehead{font-weight:600;font-size:13px;margin-top:10px}.inputgroup{margin:6px 0 14px}\n";

/* ---- per kernel -------------------------------------------------------------------------------- */

typedef struct kctx {
    pc_sb *b;
    const pc_file_result *fr;
    const pc_result *r;
    const pc_runtime_config *cfg;   /* may be NULL */
    const pc_rep_html_extra *ex;    /* logs / plan of this kernel, or NULL */
    int64_t observed[3];            /* element-wise maximum over the runs (docs/model.md 11); -1 none */
    bool have_observed;
    int64_t plan_bytes;             /* -1 unknown */
    int uid;                        /* unique per kernel in the page, for element ids */
    int *colour;                    /* per root: palette index (rank among the roots that run), -1 */
    pc_arena *arena;                /* option values' text, for this page */
} kctx;

/* The class that colours root `root`: consecutive running roots get consecutive colours. */
static void root_cls(const kctx *c, int root, char out[8])
{
    int i = root >= 0 && root < c->r->nroots ? c->colour[root] : -1;
    if (i < 0)
        snprintf(out, 8, "unk");
    else
        snprintf(out, 8, "r%d", i % NPALETTE);
}

static const char *const pool_short[3] = {"root_inner", "assemble_outcast", "exclusive_outcast"};

static const char *root_name(const pc_result *r, int root)
{
    return root >= 0 && root < r->nroots && r->roots[root].name ? r->roots[root].name : "?";
}

static const char *kernel_file(const pc_result *r)
{
    if (r->kernel->loc.file)
        return r->kernel->loc.file;
    return r->model && r->model->file ? r->model->file : "";
}

/* "<code>a</code>, <code>b</code>, ..." (escaped) */
static void code_list(pc_sb *b, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        pc_sb_append(b, i ? ", <code>" : "<code>");
        esc(b, names[i]);
        pc_sb_append(b, "</code>");
    }
}

/* <table class="cls"><thead><tr>, the head's <th> cells, </tr></thead><tbody> */
static void table_begin(pc_sb *b, const char *cls, const char *head_cells)
{
    pc_sb_printf(b, "<table class=\"%s\"><thead><tr>%s</tr></thead><tbody>\n", cls, head_cells);
}

static void table_end(pc_sb *b) { pc_sb_append(b, "</tbody></table>\n"); }

/* `file:line` as a link to the local file (file:///abs/path#L<line>), plain text when the file is
 * not on this machine; line 0: the file alone. */
static void file_link(pc_sb *b, const char *file, uint32_t line)
{
    struct stat st;
    bool local = file && *file && stat(file, &st) == 0 && S_ISREG(st.st_mode);
    if (local) {
        char *abs = pc_rep_absolute_path(file);
        pc_sb uri = {0};
        pc_sb_append(&uri, "file://");
        pc_rep_uri_escape(&uri, abs);
        if (line)
            pc_sb_printf(&uri, "#L%u", line);
        pc_sb_append(b, "<a class=\"mono\" href=\"");
        esc_n(b, uri.data, uri.len);
        pc_sb_append(b, "\">");
        pc_sb_free(&uri);
        pc_mem_free(abs);
    } else {
        pc_sb_append(b, "<span class=\"mono\">");
    }
    esc(b, file ? file : "?");
    if (line)
        pc_sb_printf(b, ":%u", line);
    pc_sb_append(b, local ? "</a>" : "</span>");
}

/* A table row's last cell, where the row's item is defined (in the kernel's file when the location
 * names none), and the row's end. */
static void source_cell_end_row(pc_sb *b, const pc_result *r, pc_loc at)
{
    file_link(b, at.file ? at.file : kernel_file(r), at.line);
    pc_sb_append(b, "</td></tr>\n");
}

/* The task groups a picture draws: per consecutive DeviceTasks each (the last may hold fewer). */
typedef struct tgroup {
    int64_t t0, t1;          /* tasks, inclusive */
    int64_t first, last;     /* instances, inclusive */
    int64_t size_max;        /* most instances in one task of the group */
    bool parallel;
} tgroup;

static tgroup task_group(const pc_result *r, int64_t g, int64_t per)
{
    tgroup o;
    o.t0 = g * per;
    o.t1 = min64(r->ntasks, o.t0 + per) - 1;
    o.first = r->tasks[o.t0].first;
    o.last = r->tasks[o.t1].last;
    o.size_max = 0;
    o.parallel = false;
    for (int64_t t = o.t0; t <= o.t1; t++) {
        o.size_max = max64(o.size_max, r->tasks[t].last - r->tasks[t].first + 1);
        o.parallel |= r->tasks[t].parallel;
    }
    return o;
}

/* The largest value c's runs logged for the DeviceTasks of G: their stitchCount (pool < 0) or
 * their recommended depth of `pool`; -1 when none logged one. */
static int64_t logged_max(const kctx *c, tgroup G, int pool)
{
    int64_t most = -1;
    for (size_t ri = 0; c->ex && ri < c->ex->nruns; ri++) {
        const pc_rep_html_run *run = &c->ex->runs[ri];
        for (int64_t t = G.t0; t <= G.t1 && run->tasks && (size_t)t < run->ntasks; t++)
            most = max64(most, pool < 0 ? run->tasks[t].stitch_count : run->tasks[t].depths[pool]);
    }
    return most;
}

/* Legend layout: items flow left to right and wrap. */
typedef struct flow { double x, y, x0, xmax, row_h; } flow;

static void flow_item(flow *f, pc_sb *b, const char *swatch_kind, const char *cls, const char *label)
{
    double w = 18 + text_w(label, 12) + 16;
    if (f->x + w > f->xmax && f->x > f->x0) {
        f->x = f->x0;
        f->y += f->row_h;
    }
    double cy = f->y - 4;
    if (strcmp(swatch_kind, "rect") == 0)
        svg_rect(b, f->x, cy - 6, 12, 12, cls, NULL);
    else if (strcmp(swatch_kind, "diamond") == 0)
        svg_diamond(b, f->x + 6, cy, 5.5, cls, NULL);
    else
        svg_line(b, f->x - 2, cy, f->x + 14, cy, cls);
    svg_text(b, f->x + 18, f->y, "sm", NULL, label);
    f->x += w;
}

/* ---- picture 1: instances in program order, DeviceTasks ------------------------------------------ */

/* What the parts of the strip picture share: its kernel, the instances (binned `per` to a cell
 * when there are more than cells fit) and the plot width, and the picture's text. */
typedef struct strip {
    kctx *c;
    pc_sb *s;
    int64_t n;               /* instances */
    double pw;               /* width of the plot */
    int64_t per, ncells;     /* instances per cell; cells */
    bool have_roots;         /* the root of every instance was recorded */
} strip;

/* x of instance i (of n, over the plot width pw) */
#define XI(i) (PLOT_L + pw * (double)(i) / (double)(n > 0 ? n : 1))

/* The legend: one swatch per root function that runs, in root order, and the marks. */
static void strip_legend(const strip *st, flow *f)
{
    kctx *c = st->c;
    const pc_result *r = c->r;
    const int64_t n = st->n;
    pc_sb *s = st->s;
    svg_text(s, PLOT_L - 10, 16, "sm mut", "end", "root:");
    if (st->have_roots) {
        int shown = 0, hidden = 0;
        for (int i = 0; i < r->nroots; i++) {
            if (r->roots[i].instances == 0)
                continue;
            if (shown == LEGEND_ROOTS) {
                hidden++;
                continue;
            }
            char cls[8];
            root_cls(c, i, cls);
            pc_sb l = {0};
            pc_sb_printf(&l, "%s (%lld %s)", root_name(r, i), (long long)r->roots[i].instances,
                         plural(r->roots[i].instances, "instance", "instances"));
            flow_item(f, s, "rect", cls, l.data);
            pc_sb_free(&l);
            shown++;
        }
        if (hidden) {
            pc_sb l = {0};
            pc_sb_printf(&l, "+%d more roots (see the table; colours repeat after %d)", hidden, NPALETTE);
            flow_item(f, s, "text", "axis", l.data);
            pc_sb_free(&l);
        }
    } else {
        flow_item(f, s, "rect", "unk", n > 0 ? "root of each instance not recorded (more than 1000000 instances)"
                                             : "no instance");
    }
    flow_item(f, s, "line", "bnd", "DeviceTask boundary");
    if (r->parallelism > 1 || (r->tasks && r->ntasks && r->tasks[0].parallel))
        flow_item(f, s, "rect", "par", "inside a parallel loop");
}

/* The instance axis at y, on top of the strip. */
static void strip_axis(const strip *st, double y, double strip_top)
{
    const int64_t n = st->n;
    const double pw = st->pw;
    pc_sb *s = st->s;
    svg_text(s, PLOT_L - 10, y, "sm mut", "end", "instance");
    if (n > 0) {
        double step = fmax(1.0, round(nice_step((double)n, 8)));
        for (double v = 0; v <= (double)n; v += step) {
            double x = XI(v);
            svg_line(s, x, strip_top - 5, x, strip_top, "axis");
            if (x + text_w(I((int64_t)v).s, 11) / 2 < SVG_W - STRIP_R - 30 || v == 0)
                svg_text(s, x, y, "sm mut", "middle", I((int64_t)v).s);
        }
        svg_text(s, SVG_W - STRIP_R, y, "sm mut", "end", I(n).s);
    }
}

/* The strip: one cell per instance, or per `per` instances coloured by the commonest root. */
static void strip_cells(const strip *st, double strip_top, double strip_h)
{
    kctx *c = st->c;
    const pc_result *r = c->r;
    const int64_t n = st->n, per = st->per, ncells = st->ncells;
    const double pw = st->pw;
    pc_sb *s = st->s;
    svg_text(s, PLOT_L - 10, strip_top + strip_h / 2 + 4, "b", "end", "instances");
    if (n > 0 && st->have_roots) {
        int64_t *cnt = pc_mem_calloc((size_t)r->nroots + 1, sizeof *cnt);
        pc_sb tip = {0};
        for (int64_t cell = 0; cell < ncells; cell++) {
            int64_t i0 = cell * per, i1 = min64(n, i0 + per);
            int best = -1;
            for (int64_t i = i0; i < i1; i++) {
                int rt = r->instance_roots[i];
                if (rt < 0 || rt >= r->nroots)
                    continue;
                if (++cnt[rt] > (best < 0 ? 0 : cnt[best]))
                    best = rt;
            }
            tip.len = 0;
            if (per == 1)
                pc_sb_printf(&tip, "instance %lld: %s", (long long)i0, root_name(r, best));
            else
                pc_sb_printf(&tip, "instances %lld\xE2\x80\x93%lld:", (long long)i0, (long long)(i1 - 1));
            int listed = 0;
            for (int64_t i = i0; i < i1 && per > 1; i++) {
                int rt = r->instance_roots[i];
                if (rt < 0 || rt >= r->nroots || cnt[rt] == 0)
                    continue;
                if (listed < 4)
                    pc_sb_printf(&tip, "%s %s x%lld", listed ? "," : "", root_name(r, rt), (long long)cnt[rt]);
                else if (listed == 4)
                    pc_sb_append(&tip, ", ...");
                listed++;
                cnt[rt] = 0;
            }
            if (best >= 0)
                cnt[best] = 0;
            double x0 = XI(i0), x1 = XI(i1), w = x1 - x0;
            if (w >= 4)
                w -= 0.6;
            char cls[8];
            root_cls(c, best, cls);
            svg_rect(s, x0, strip_top, w, strip_h, cls, tip.data);
        }
        pc_sb_free(&tip);
        pc_mem_free(cnt);
    } else if (n > 0) {
        svg_rect(s, PLOT_L, strip_top, pw, strip_h, "unk", "roots of the instances not recorded");
    }
    svg_rect(s, PLOT_L, strip_top, pw, strip_h, "frame", NULL);
}

/* What the DeviceTask row came to: tasks per band, labels that did not fit, label rows used. */
typedef struct strip_bands_drawn {
    int64_t tper, unlabelled;
    double rows_used;
} strip_bands_drawn;

/* DeviceTask bands, boundaries and labels, under the strip. */
static strip_bands_drawn strip_bands(const strip *st, double strip_top, double band_top, double band_h,
                                     double label_top)
{
    const pc_result *r = st->c->r;
    const int64_t n = st->n;
    const double pw = st->pw;
    pc_sb *s = st->s;
    svg_text(s, PLOT_L - 10, band_top + 14, "b", "end", "DeviceTasks");
    int64_t ngroups = 0, tper = 1, unlabelled = 0;
    double rows_used = 0;
    if (r->tasks && r->ntasks > 0 && n > 0) {
        const int64_t max_bands = (int64_t)(pw / STRIP_MIN_BAND);
        tper = r->ntasks <= max_bands ? 1 : ceil_div64(r->ntasks, max_bands);
        ngroups = ceil_div64(r->ntasks, tper);
        double row_end[2] = {-1e9, -1e9};
        pc_sb tip = {0}, l1 = {0}, l2 = {0};
        for (int64_t g = 0; g < ngroups; g++) {
            tgroup G = task_group(r, g, tper);
            double x0 = XI(G.first), x1 = XI(G.last + 1);
            tip.len = l1.len = l2.len = 0;
            int64_t count = G.last - G.first + 1;
            if (tper == 1) {
                const pc_task *t = &r->tasks[G.t0];
                pc_sb_printf(&tip, "DeviceTask T%lld: instances %lld\xE2\x80\x93%lld (%lld), closed by: %s%s; needs "
                             "root_inner %lld, assemble_outcast %lld, exclusive_outcast %lld",
                             (long long)G.t0, (long long)G.first, (long long)G.last, (long long)count,
                             pc_task_close_name(t->close), t->parallel ? " (parallel loop, per copy)" : "",
                             (long long)t->need[0], (long long)t->need[1], (long long)t->need[2]);
                pc_sb_printf(&l1, "T%lld: %lld %s", (long long)G.t0, (long long)count,
                             plural(count, "instance", "instances"));
                pc_sb_printf(&l2, "closed: %s%s", pc_task_close_name(t->close), t->parallel ? ", parallel" : "");
            } else {
                pc_sb_printf(&tip, "DeviceTasks T%lld\xE2\x80\x93T%lld: instances %lld\xE2\x80\x93%lld (%lld)", (long long)G.t0,
                             (long long)G.t1, (long long)G.first, (long long)G.last, (long long)count);
                pc_sb_printf(&l1, "T%lld\xE2\x80\x93T%lld: %lld instances", (long long)G.t0, (long long)G.t1,
                             (long long)count);
                pc_sb_printf(&l2, "%lld DeviceTasks", (long long)(G.t1 - G.t0 + 1));
            }
            svg_rect(s, x0, band_top, x1 - x0, band_h, g % 2 ? "band1" : "band0", tip.data);
            if (G.parallel)
                svg_rect(s, x0 + 1, band_top + 1, x1 - x0 - 2, band_h - 2, "par", NULL);
            /* boundaries cross the strip while they stay apart; a dense run of them would hide
             * the roots, so then they only mark the band row */
            if (g > 0)
                svg_line(s, x0, ngroups <= STRIP_FULL_BOUNDARIES ? strip_top - 6 : band_top, x0,
                         band_top + band_h, ngroups <= STRIP_FULL_BOUNDARIES ? "bnd" : "bnd thin");
            /* the label: centred under its task, else pushed right of the previous label (with a
             * leader line), on the first of two rows where it fits */
            double w = fmax(text_w(l1.data, 12), text_w(l2.data, 11));
            double cx = (x0 + x1) / 2;
            double lmin = PLOT_L, lmax = SVG_W - STRIP_R - w;
            double lx = fmin(fmax(cx - w / 2, lmin), lmax);
            int row = -1;
            for (int k = 0; k < (tper == 1 ? 2 : 1) && row < 0; k++) {
                double at = fmax(lx, row_end[k] + 12);
                if (at <= lmax && at - x1 < 60) {
                    lx = at;
                    row = k;
                }
            }
            if (row < 0) {
                unlabelled++;
                continue;
            }
            row_end[row] = lx + w;
            double ly = label_top + 12 + row * 34;
            if (row + 1 > rows_used)
                rows_used = row + 1;
            svg_line(s, cx, band_top + band_h, fmin(fmax(cx, lx + 2), lx + w - 2), ly - 11, "lead");
            svg_text(s, lx, ly, "b", NULL, l1.data);
            svg_text(s, lx, ly + 14, "sm mut", NULL, l2.data);
        }
        pc_sb_free(&tip);
        pc_sb_free(&l1);
        pc_sb_free(&l2);
    } else {
        svg_rect(s, PLOT_L, band_top, pw, band_h, "band0", NULL);
    }
    svg_rect(s, PLOT_L, band_top, pw, band_h, "frame", NULL);
    return (strip_bands_drawn){tper, unlabelled, rows_used};
}
#undef XI

/* What the picture shows, in words, at ny. */
static void strip_note(const strip *st, double ny, const strip_bands_drawn *bands)
{
    const pc_result *r = st->c->r;
    const int64_t n = st->n, per = st->per, tper = bands->tper, unlabelled = bands->unlabelled;
    pc_sb note = {0};
    if (n > 0)
        pc_sb_printf(&note, "each cell = %lld %s", (long long)per, plural(per, "instance", "instances"));
    else
        pc_sb_append(&note, "no instance");
    if (tper > 1)
        pc_sb_printf(&note, " \xC2\xB7 each band = %lld DeviceTasks", (long long)tper);
    pc_sb_printf(&note, " \xC2\xB7 %lld %s in %lld %s (k = %lld)", (long long)n, plural(n, "instance", "instances"),
                 (long long)(r->ntasks ? r->ntasks : r->device_tasks),
                 plural(r->ntasks ? r->ntasks : r->device_tasks, "DeviceTask", "DeviceTasks"), (long long)r->k);
    if (unlabelled)
        pc_sb_printf(&note, " \xC2\xB7 %lld %s too narrow to label (hover for details)", (long long)unlabelled,
                     plural(unlabelled, "task", "tasks"));
    svg_text(st->s, PLOT_L, ny, "sm mut", NULL, note.data);
    pc_sb_free(&note);
}

static void draw_strip(kctx *c)
{
    const pc_result *r = c->r;
    const int64_t n = r->instances;
    const double pw = SVG_W - PLOT_L - STRIP_R;
    const int64_t max_cells = (int64_t)(pw / STRIP_MIN_CELL);
    const int64_t per = n <= max_cells ? 1 : ceil_div64(n, max_cells);
    const int64_t ncells = ceil_div64(n, per);
    const bool have_roots = r->instance_roots && r->ninstances == n;
    pc_sb s = {0};
    const strip st = {c, &s, n, pw, per, ncells, have_roots};

    flow f = {PLOT_L, 16, PLOT_L, SVG_W - STRIP_R, 20};
    strip_legend(&st, &f);

    double y = f.y + 26;
    double strip_top = y + 8, strip_h = 34;
    strip_axis(&st, y, strip_top);
    strip_cells(&st, strip_top, strip_h);

    double band_top = strip_top + strip_h + 3, band_h = 20;
    double label_top = band_top + band_h + 6;
    strip_bands_drawn bands = strip_bands(&st, strip_top, band_top, band_h, label_top);

    double ny = label_top + bands.rows_used * 34 + 18;
    strip_note(&st, ny, &bands);

    svg_emit(c->b, &s, ny + 10, "instances in program order, coloured by root function, with DeviceTask boundaries");
    pc_sb_free(&s);
}

/* ---- picture 2: per DeviceTask, instances and the depth each pool needs --------------------- */

typedef struct hline {
    double v;
    const char *cls, *txtcls;
    char label[96];
    bool offscale;
    double ly;               /* label position after collision handling */
} hline;

static void add_hline(hline *h, int *nh, double v, const char *cls, const char *txtcls, const char *label)
{
    hline *x = &h[(*nh)++];
    x->v = v;
    x->cls = cls;
    x->txtcls = txtcls;
    snprintf(x->label, sizeof x->label, "%s", label);
    x->offscale = false;
}

static int cmp_hline_y(const void *a, const void *b)
{
    double ya = ((const hline *)a)->ly, yb = ((const hline *)b)->ly;
    return ya < yb ? -1 : ya > yb;
}

typedef struct panel_in {
    const char *title;
    const char *ylabel;
    const int64_t *bar;          /* per group: bar value (-1 unknown) */
    const char *const *bar_cls;  /* per group */
    const int64_t *marker;       /* per group: observed marker, -1 = none; NULL = no markers */
    const char *marker_what;
    const char *const *bar_tip;  /* per group tooltips */
    hline *lines; int nlines;
    const char *alert;           /* right-aligned warning in the title row, or NULL */
    int64_t ngroups, per;
    const pc_result *r;
} panel_in;

/* One panel of bars over the DeviceTasks (grouped `per` to a bar) with horizontal lines. Returns
 * the y below it. */
static double draw_panel(pc_sb *s, double y, const panel_in *p)
{
    const double pw = SVG_W - PLOT_L - CHART_R;
    svg_text(s, PLOT_L, y + 14, "ttl", NULL, p->title);
    if (p->alert) {
        svg_text(s, PLOT_L, y + 31, "cuttxt", NULL, p->alert);
        y += 17;
    }
    double top = y + 26, bottom = top + PANEL_H;

    /* scale: everything but an outlying configured depth */
    int64_t base = 1;
    for (int64_t g = 0; g < p->ngroups; g++) {
        base = max64(base, p->bar[g]);
        if (p->marker)
            base = max64(base, p->marker[g]);
    }
    for (int i = 0; i < p->nlines; i++)
        if (strcmp(p->lines[i].cls, "cfg") != 0)
            base = max64(base, (int64_t)p->lines[i].v);
    double ymax = (double)base;
    for (int i = 0; i < p->nlines; i++)
        if (strcmp(p->lines[i].cls, "cfg") == 0) {
            if (p->lines[i].v > (double)base * OFFSCALE_FACTOR && p->lines[i].v > 8)
                p->lines[i].offscale = true;
            else
                ymax = fmax(ymax, p->lines[i].v);
        }
    double step = fmax(1.0, round(nice_step(ymax, 4)));
    double top_v = ceil(ymax * 1.08 / step) * step;
    if (top_v < ymax)
        top_v = ymax;
#define YV(v) (bottom - (bottom - top) * (double)(v) / top_v)

    /* grid and y axis */
    for (double v = 0; v <= top_v + 1e-9; v += step) {
        svg_line(s, PLOT_L, YV(v), PLOT_L + pw, YV(v), "grid");
        svg_text(s, PLOT_L - 6, YV(v) + 4, "sm mut", "end", I((int64_t)v).s);
    }
    pc_sb_printf(s, "<text x=\"0\" y=\"0\" class=\"sm mut\" text-anchor=\"middle\" transform=\"translate(%s %s) rotate(-90)\">",
                 N(PLOT_L - 44).s, N((top + bottom) / 2).s);
    esc(s, p->ylabel);
    pc_sb_append(s, "</text>");
    svg_line(s, PLOT_L, top, PLOT_L, bottom, "axis");
    svg_line(s, PLOT_L, bottom, PLOT_L + pw, bottom, "axis");

    /* bars */
    double slot = pw / (double)(p->ngroups > 0 ? p->ngroups : 1);
    double bw = fmin(48.0, fmax(1.0, slot * 0.7));
    bool label_all = p->ngroups <= CHART_LABEL_BARS;
    for (int64_t g = 0; g < p->ngroups; g++) {
        double cx = PLOT_L + slot * ((double)g + 0.5);
        int64_t v = p->bar[g];
        if (v > 0)
            svg_rect(s, cx - bw / 2, YV(v), bw, YV(0) - YV(v), p->bar_cls[g], p->bar_tip[g]);
        else
            svg_rect(s, cx - bw / 2, bottom - 1, bw, 1, p->bar_cls[g], p->bar_tip[g]);
        if (label_all)
            svg_text(s, cx, YV(v > 0 ? v : 0) - 4,
                     strstr(p->bar_cls[g], "cut") ? "sm cuttxt" : "sm b", "middle", v >= 0 ? I(v).s : "?");
        /* x labels: every bar when there is room, else about one per 60 px */
        int64_t every = label_all ? 1 : (int64_t)ceil(60.0 / slot);
        if (g % every == 0) {
            char lab[48];
            if (p->per == 1)
                snprintf(lab, sizeof lab, "T%lld", (long long)g);
            else
                snprintf(lab, sizeof lab, "T%lld", (long long)(g * p->per));
            svg_text(s, cx, bottom + 14, "sm mut", "middle", lab);
        }
    }
    svg_text(s, PLOT_L + pw, bottom + 28, "sm mut", "end",
             p->per == 1 ? "DeviceTask" : "DeviceTask (first of each group)");

    /* observed markers, per task */
    if (p->marker)
        for (int64_t g = 0; g < p->ngroups; g++)
            if (p->marker[g] >= 0) {
                double cx = PLOT_L + slot * ((double)g + 0.5);
                char tip[96];
                snprintf(tip, sizeof tip, "%.60s: %lld", p->marker_what, (long long)p->marker[g]);
                svg_diamond(s, cx, YV(fmin((double)p->marker[g], top_v)), 6, "obsmark", tip);
            }

    /* lines, and their labels in the right margin (pushed apart when they would overlap) */
    for (int i = 0; i < p->nlines; i++) {
        hline *h = &p->lines[i];
        double ly = h->offscale ? top : YV(h->v);
        svg_line(s, PLOT_L, ly, PLOT_L + pw, ly, h->offscale ? "cfg off" : h->cls);
        h->ly = ly;
    }
    hline sorted[8];
    int ns = p->nlines < 8 ? p->nlines : 8;
    memcpy(sorted, p->lines, (size_t)ns * sizeof *sorted);
    qsort(sorted, (size_t)ns, sizeof *sorted, cmp_hline_y);
    double prev = -1e9;
    for (int i = 0; i < ns; i++) {
        double want = sorted[i].ly + 4;
        double at = fmax(want, prev + 14);
        prev = at;
        svg_line(s, PLOT_L + pw, sorted[i].ly, PLOT_L + pw + 8, at - 4, "lead");
        char lab[128];
        snprintf(lab, sizeof lab, "%.96s%s", sorted[i].label, sorted[i].offscale ? " (off scale \xE2\x86\x91)" : "");
        svg_text(s, PLOT_L + pw + 11, at, sorted[i].txtcls, NULL, lab);
    }
#undef YV
    double below = fmax(bottom + 34, prev + 8);
    return below;
}

/* What the panels of the DeviceTask charts share: the kernel, the bars (a bar per `per`
 * consecutive DeviceTasks, ng of them) and, per bar, the arrays each panel fills again: its value,
 * class, tooltip and the logs' marker. */
typedef struct charts {
    kctx *c;
    pc_sb *s;
    int64_t per, ng;
    int64_t *bar, *marker;
    const char **cls;
    char **tips;
    char (*clsbuf)[24];
} charts;

/* The legend of the line styles; returns the y below it. */
static double charts_legend(const charts *ch)
{
    const kctx *c = ch->c;
    const pc_result *r = c->r;
    pc_sb *s = ch->s;
    flow f = {PLOT_L, 16, PLOT_L, SVG_W - 20, 20};
    flow_item(&f, s, "line", "cfg", "configured depth");
    flow_item(&f, s, "line", "pred", "predicted depth");
    flow_item(&f, s, "line", "sugg", "suggested (+ headroom)");
    if (c->have_observed) {
        flow_item(&f, s, "line", "obs", "observed (logs)");
        flow_item(&f, s, "diamond", "obsmark", "observed per DeviceTask");
    }
    if (c->ex && c->ex->plan_depths)
        flow_item(&f, s, "line", "plan", "plan");
    if (r->precise)
        flow_item(&f, s, "rect", "cut", "needs more than configured");
    return f.y + 10;
}

/* Panel 1 at y: instances per DeviceTask, coloured by what closed it.  Returns the y below it. */
static double instances_panel(const charts *ch, double y)
{
    const kctx *c = ch->c;
    const pc_result *r = c->r;
    pc_sb *s = ch->s;
    const int64_t per = ch->per, ng = ch->ng;
    int64_t *bar = ch->bar, *marker = ch->marker;
    const char **cls = ch->cls;
    char **tips = ch->tips;
    char(*clsbuf)[24] = ch->clsbuf;
    bool have_marks = false;
    bool seen_close[5] = {0};
    for (int64_t g = 0; g < ng; g++) {
        tgroup G = task_group(r, g, per);
        bar[g] = G.size_max;
        int close = (int)r->tasks[G.t1].close;
        if (close < 0 || close > 4)
            close = 0;
        seen_close[close] = true;
        snprintf(clsbuf[g], sizeof clsbuf[g], "c%d", close);
        cls[g] = clsbuf[g];
        pc_sb t = {0};
        if (per == 1)
            pc_sb_printf(&t, "T%lld: %lld %s, closed by: %s", (long long)g, (long long)G.size_max,
                         plural(G.size_max, "instance", "instances"), pc_task_close_name(r->tasks[G.t0].close));
        else
            pc_sb_printf(&t, "T%lld\xE2\x80\x93T%lld: at most %lld instances per task", (long long)G.t0, (long long)G.t1,
                         (long long)G.size_max);
        tips[g] = pc_sb_take(&t);
        marker[g] = logged_max(c, G, -1);
        have_marks |= marker[g] >= 0;
    }
    {
        flow cf = {PLOT_L, y + 8, PLOT_L, SVG_W - 20, 20};
        svg_text(s, PLOT_L - 10, y + 8, "sm mut", "end", "closed by:");
        static const pc_task_close order[5] = {PC_CLOSE_LIMIT, PC_CLOSE_HARD_LIMIT, PC_CLOSE_BARRIER,
                                               PC_CLOSE_PARALLEL, PC_CLOSE_END};
        for (int i = 0; i < 5; i++)
            if (seen_close[order[i]]) {
                char cc[8];
                snprintf(cc, sizeof cc, "c%d", (int)order[i]);
                flow_item(&cf, s, "rect", cc, pc_task_close_name(order[i]));
            }
        if (have_marks)
            flow_item(&cf, s, "diamond", "obsmark", "stitchCount (logs)");
        y = cf.y + 8;
    }
    hline lines[8];
    int nl = 0;
    char lab[96];
    snprintf(lab, sizeof lab, "k = %lld", (long long)r->k);
    add_hline(lines, &nl, (double)r->k, "kline", "sm mut", lab);
    bool any_parallel = false;
    for (int64_t t = 0; t < r->ntasks; t++)
        any_parallel |= r->tasks[t].parallel;
    char hard[48];
    snprintf(hard, sizeof hard, "hard limit %d", PC_MAX_DEPTH);
    if (any_parallel)
        add_hline(lines, &nl, PC_MAX_DEPTH, "kline", "sm mut", hard);
    char title[160];
    snprintf(title, sizeof title, "Instances per DeviceTask%s", per > 1 ? " (largest task of each bar)" : "");
    panel_in p = {title, "instances", bar, (const char *const *)cls, have_marks ? marker : NULL,
                  "stitchCount (logs)", (const char *const *)tips, lines, nl, NULL, ng, per, r};
    y = draw_panel(s, y, &p);
    for (int64_t g = 0; g < ng; g++)
        pc_mem_free(tips[g]);
    return y;
}

/* The bars of pool's panel: per bar the most depth one of its DeviceTasks needs, cut (precise
 * mode) when that is more than configured.  *ncut counts the DeviceTasks cut; returns whether any
 * bar has a logged marker. */
static bool pool_bars(const charts *ch, int pool, int64_t *ncut)
{
    const kctx *c = ch->c;
    const pc_result *r = c->r;
    const int64_t per = ch->per, ng = ch->ng;
    int64_t *bar = ch->bar, *marker = ch->marker;
    const char **cls = ch->cls;
    char **tips = ch->tips;
    char(*clsbuf)[24] = ch->clsbuf;
    int64_t cfgd = r->configured[pool];
    bool have_marks = false;
    for (int64_t g = 0; g < ng; g++) {
        tgroup G = task_group(r, g, per);
        int64_t v = -1;
        bool cut = false;
        for (int64_t t = G.t0; t <= G.t1; t++) {
            int64_t need = r->tasks[t].need[pool];
            v = max64(v, need);
            /* precise mode: the runtime uses the configured depth as given (docs/model.md 1, 6) */
            if (r->precise && need > cfgd) {
                cut = true;
                (*ncut)++;
            }
        }
        bar[g] = v;
        snprintf(clsbuf[g], sizeof clsbuf[g], cut ? "cut" : "p%d", pool);
        cls[g] = clsbuf[g];
        pc_sb t = {0};
        if (per == 1)
            pc_sb_printf(&t, "T%lld (%lld %s): needs %s depth %lld; configured %lld", (long long)g,
                         (long long)G.size_max, plural(G.size_max, "instance", "instances"),
                         pool_short[pool], (long long)v, (long long)cfgd);
        else
            pc_sb_printf(&t, "T%lld\xE2\x80\x93T%lld: need %s depth up to %lld; configured %lld", (long long)G.t0,
                         (long long)G.t1, pool_short[pool], (long long)v, (long long)cfgd);
        if (cut)
            pc_sb_append(&t, pool == 0 ? " (instances serialised)" : " (DeviceTask cut early)");
        tips[g] = pc_sb_take(&t);
        marker[g] = logged_max(c, G, pool);
        have_marks |= marker[g] >= 0;
    }
    return have_marks;
}

/* The depth lines of pool's panel (configured, predicted or its bound, suggested, observed,
 * planned) into lines; returns how many. */
static int pool_lines(const kctx *c, int pool, hline lines[8])
{
    const pc_result *r = c->r;
    int64_t cfgd = r->configured[pool];
    int nl = 0;
    char lab[96];
    snprintf(lab, sizeof lab, "configured %lld", (long long)cfgd);
    add_hline(lines, &nl, (double)cfgd, "cfg", "cfgtxt", lab);
    if (r->predicted[pool] >= 0) {
        snprintf(lab, sizeof lab, "predicted %lld", (long long)r->predicted[pool]);
        add_hline(lines, &nl, (double)r->predicted[pool], "pred", "predtxt", lab);
    } else if (r->bounds[pool] >= 0) {
        snprintf(lab, sizeof lab, "predicted \xE2\x89\xA4 %lld (bound)", (long long)r->bounds[pool]);
        add_hline(lines, &nl, (double)r->bounds[pool], "pred", "predtxt", lab);
    }
    if (r->suggested[pool] >= 0 && r->suggested[pool] != r->predicted[pool]) {
        snprintf(lab, sizeof lab, "suggested %lld", (long long)r->suggested[pool]);
        add_hline(lines, &nl, (double)r->suggested[pool], "sugg", "suggtxt", lab);
    }
    if (c->have_observed && c->observed[pool] >= 0) {
        snprintf(lab, sizeof lab, "observed %lld", (long long)c->observed[pool]);
        add_hline(lines, &nl, (double)c->observed[pool], "obs", "obstxt", lab);
    }
    if (c->ex && c->ex->plan_depths) {
        snprintf(lab, sizeof lab, "plan %lld", (long long)c->ex->plan_depths[pool]);
        add_hline(lines, &nl, (double)c->ex->plan_depths[pool], "plan", "plantxt", lab);
    }
    return nl;
}

/* The title of pool's panel, with what one depth of the pool is (the caller frees it). */
static char *pool_title(const pc_result *r, int pool, int64_t per)
{
    pc_sb tb = {0};
    pc_sb_printf(&tb, "%s: depth needed per DeviceTask", pool_short[pool]);
    if (pool == 0 && r->unit_inner > 0)
        pc_sb_printf(&tb, " (1 depth = %s)", human_bytes((double)r->unit_inner).s);
    else if (pool == 1 && r->n_assemble > 0 && r->slot_size > 0)
        pc_sb_printf(&tb, " (1 depth = %d %s of %s)", r->n_assemble, plural(r->n_assemble, "slot", "slots"),
                     human_bytes((double)r->slot_size).s);
    else if (pool == 2 && r->unit_excl > 0)
        pc_sb_printf(&tb, " (1 depth = %s)", human_bytes((double)r->unit_excl).s);
    if (!r->required[pool])
        pc_sb_append(&tb, " \xE2\x80\x94 no tensor needs this pool");
    if (per > 1)
        pc_sb_append(&tb, " (largest of each bar)");
    return pc_sb_take(&tb);
}

/* Panels 2-4 at y, one per pool: the depth each DeviceTask needs; a pool no tensor uses gets one
 * line.  Returns the y below it. */
static double pool_panel(const charts *ch, int pool, double y)
{
    const kctx *c = ch->c;
    const pc_result *r = c->r;
    pc_sb *s = ch->s;
    const int64_t per = ch->per, ng = ch->ng;
    int64_t cfgd = r->configured[pool];
    int64_t most = 0;
    for (int64_t t = 0; t < r->ntasks; t++)
        most = max64(most, r->tasks[t].need[pool]);
    if (r->required[pool] == 0 && most == 0 && r->predicted[pool] <= 0) {
        char head[96];
        snprintf(head, sizeof head, "%s: not needed (no tensor uses this pool)", pool_short[pool]);
        svg_text(s, PLOT_L, y + 14, "ttl", NULL, head);
        svg_textf(s, PLOT_L + text_w(head, 13) + 12, y + 14, "sm mut", NULL,
                  "every DeviceTask needs 0; configured %lld%s", (long long)cfgd,
                  r->precise && cfgd > 0 ? " reserves memory nothing uses" : "");
        return y + 28;
    }
    int64_t ncut = 0;
    bool have_marks = pool_bars(ch, pool, &ncut);
    hline lines[8];
    int nl = pool_lines(c, pool, lines);
    char alert[160] = "";
    if (r->precise && cfgd == 0 && r->required[pool] > 0)
        snprintf(alert, sizeof alert, "configured 0 for a needed pool: compilation fails (PC001)");
    else if (ncut)
        snprintf(alert, sizeof alert, "%lld %s %s more than the configured %lld: %s", (long long)ncut,
                 plural(ncut, "DeviceTask", "DeviceTasks"), plural(ncut, "needs", "need"), (long long)cfgd,
                 pool == 0 ? "instances serialised" : "DeviceTasks cut early");
    char *ptitle = pool_title(r, pool, per);
    panel_in pp = {ptitle, "depth (per workspace copy)", ch->bar, (const char *const *)ch->cls,
                   have_marks ? ch->marker : NULL, "observed depth (logs)", (const char *const *)ch->tips,
                   lines, nl, alert[0] ? alert : NULL, ng, per, r};
    y = draw_panel(s, y, &pp);
    pc_mem_free(ptitle);
    for (int64_t g = 0; g < ng; g++)
        pc_mem_free(ch->tips[g]);
    return y;
}

static void draw_task_charts(kctx *c)
{
    const pc_result *r = c->r;
    if (!r->tasks || r->ntasks <= 0)
        return;
    const int64_t per = r->ntasks <= CHART_MAX_BARS ? 1 : ceil_div64(r->ntasks, CHART_MAX_BARS);
    const int64_t ng = ceil_div64(r->ntasks, per);
    pc_sb s = {0};
    int64_t *bar = pc_mem_calloc((size_t)ng, sizeof *bar);
    int64_t *marker = pc_mem_calloc((size_t)ng, sizeof *marker);
    const char **cls = pc_mem_calloc((size_t)ng, sizeof *cls);
    char **tips = pc_mem_calloc((size_t)ng, sizeof *tips);
    char(*clsbuf)[24] = pc_mem_calloc((size_t)ng, sizeof *clsbuf);
    const charts ch = {c, &s, per, ng, bar, marker, cls, tips, clsbuf};

    double y = charts_legend(&ch);
    y = instances_panel(&ch, y);
    for (int pool = 0; pool < 3; pool++)
        y = pool_panel(&ch, pool, y);
    if (per > 1)
        svg_textf(&s, PLOT_L, y + 4, "sm mut", NULL, "each bar = %lld DeviceTasks (the largest value of the group)",
                  (long long)per);
    else
        svg_textf(&s, PLOT_L, y + 4, "sm mut", NULL, "each bar = 1 DeviceTask");
    svg_emit(c->b, &s, y + 14, "per DeviceTask: instances, and the depth each pool needs");
    pc_sb_free(&s);
    pc_mem_free(bar);
    pc_mem_free(marker);
    pc_mem_free(cls);
    pc_mem_free(tips);
    pc_mem_free(clsbuf);
}

/* ---- picture 3: workspace bytes ---------------------------------------------------------------- */

static void depths_text(char *out, size_t cap, const int64_t d[3])
{
    snprintf(out, cap, "[%.24s, %.24s, %.24s]", d[0] >= 0 ? I(d[0]).s : "?", d[1] >= 0 ? I(d[1]).s : "?",
             d[2] >= 0 ? I(d[2]).s : "?");
}

static void draw_workspace(kctx *c)
{
    const pc_result *r = c->r;
    typedef struct row { char label[128]; int64_t bytes; const char *cls; } row;
    row rows[8];
    int nr = 0;
    int64_t kkk[3] = {r->k, r->k, r->k};
    char d[96];
#define ROW(lbl_, depths_, bytes_, cls_)                                                         \
    do {                                                                                         \
        depths_text(d, sizeof d, depths_);                                                       \
        snprintf(rows[nr].label, sizeof rows[nr].label, "%.20s %.96s", lbl_, d);                       \
        rows[nr].bytes = bytes_;                                                                 \
        rows[nr].cls = cls_;                                                                     \
        nr++;                                                                                    \
    } while (0)
    ROW("default", kkk, r->ws_default, "c4");
    ROW("configured", r->configured, r->ws_configured, r->precise ? "p0" : "c4");
    ROW("suggested", r->suggested, r->ws_suggested, "p1");
    ROW("predicted", r->predicted, r->ws_predicted, "p1");
    ROW("required", r->required, r->ws_required, "p2");
    if (c->have_observed) {
        bool all = c->observed[0] >= 0 && c->observed[1] >= 0 && c->observed[2] >= 0;
        ROW("observed (logs)", c->observed, all ? pc_workspace_bytes(r, c->observed, r->parallelism) : -1, "obsmark");
    }
    if (c->ex && c->ex->plan_depths)
        ROW("plan", c->ex->plan_depths, c->plan_bytes, "p3");
#undef ROW

    const double lw = 250, rw = 170, pw = SVG_W - lw - rw, row_h = 24;
    int64_t budget = 0;
    const char *budget_what = NULL;
    if (c->ex && c->ex->plan_depths && c->ex->budget_bytes > 0) {
        budget = c->ex->budget_bytes;
        budget_what = "budget";
    } else if (c->cfg && c->cfg->workspace_kb > 0) {
        budget = c->cfg->workspace_kb * 1024;
        budget_what = r->precise ? "max_workspace_kb (no effect in precise mode)" : "max_workspace_kb";
    }
    double vmax = (double)budget;
    bool any_known = false;
    for (int i = 0; i < nr; i++) {
        vmax = fmax(vmax, (double)rows[i].bytes);
        any_known |= rows[i].bytes >= 0;
    }
    if (!(vmax > 0))
        vmax = 1;
    /* ticks in a binary unit that suits the range */
    double unit = vmax >= 1024.0 * 1024 * 2 ? 1024.0 * 1024 : vmax >= 2048 ? 1024 : 1;
    const char *uname = unit > 1024 ? "MiB" : unit > 1 ? "KiB" : "B";
    double step = fmax(1.0, nice_step(vmax / unit, 6) * unit);
    double top_v = ceil(vmax / step) * step;
#define XB(v) (lw + pw * (double)(v) / top_v)

    pc_sb s = {0};
    double top = 24;
    for (double v = 0; any_known && v <= top_v + 1e-6; v += step) {
        svg_line(&s, XB(v), top, XB(v), top + row_h * nr, "grid");
        char t[48];
        snprintf(t, sizeof t, "%.24s%s%s", N(v / unit).s, v > 0 ? " " : "", v > 0 ? uname : "");
        svg_text(&s, XB(v), top + row_h * nr + 14, "sm mut", "middle", t);
    }
    for (int i = 0; i < nr; i++) {
        double ry = top + row_h * i;
        svg_text(&s, lw - 10, ry + 16, "b", "end", rows[i].label);
        if (rows[i].bytes < 0) {
            svg_text(&s, lw + 4, ry + 16, "sm mut", NULL,
                     r->nunknowns ? "unknown: the bytes depend on unbound symbols" : "unknown");
            continue;
        }
        char tip[192];
        snprintf(tip, sizeof tip, "%.100s: %.64s", rows[i].label, bytes_text(rows[i].bytes).s);
        svg_rect(&s, lw, ry + 4, fmax(1.5, XB(rows[i].bytes) - lw), row_h - 8, rows[i].cls, tip);
        char t[128];
        if (i > 0 && r->ws_default > 0)
            snprintf(t, sizeof t, "%.64s \xC2\xB7 %.24s%% of default", bytes_text(rows[i].bytes).s,
                     N(100.0 * (double)rows[i].bytes / (double)r->ws_default).s);
        else
            snprintf(t, sizeof t, "%.64s", bytes_text(rows[i].bytes).s);
        svg_text(&s, XB(rows[i].bytes) + 6, ry + 16, "sm", NULL, t);
    }
    svg_line(&s, lw, top, lw, top + row_h * nr, "axis");
    double bottom = top + row_h * nr + 20;
    if (budget > 0) {
        svg_line(&s, XB(budget), top - 4, XB(budget), top + row_h * nr, "budget");
        svg_textf(&s, XB(budget), top - 6, "sm cfgtxt", "middle", "%s = %s", budget_what,
                  human_bytes((double)budget).s);
    }
    svg_textf(&s, lw, bottom + 12, "sm mut", NULL, "tensor workspace per launch, bytes%s",
              r->parallelism > 1 ? " (all parallel copies)" : "");
    bottom += 16;
    svg_textf(&s, lw, bottom + 12, "sm mut", NULL,
              "AlignUp(U0\xC2\xB7" "d0 + U2\xC2\xB7" "d2 + (2E + 2A + A\xC2\xB7" "d1)\xC2\xB7S, 32768) \xC3\x97 P, "
              "P = device_sched_parallelism = %lld (poolcheck's docs/model.md section 7)", (long long)r->parallelism);
#undef XB
    svg_emit(c->b, &s, bottom + 22, "workspace bytes for the default, configured, suggested, predicted and required depths");
    pc_sb_free(&s);
}

/* ---- HTML parts --------------------------------------------------------------------------------- */

static void cell_depth(pc_sb *b, int64_t v, const char *cls)
{
    pc_sb_printf(b, "<td class=\"n%s%s\">%s</td>", cls ? " " : "", cls ? cls : "", v >= 0 ? I(v).s : "?");
}

static const char *verdict(int64_t predicted, int64_t observed)
{
    if (predicted < 0 || observed < 0)
        return "unknown";
    return predicted == observed ? "match" : predicted < observed ? "under-predicted" : "over-predicted";
}

static void depth_table(kctx *c)
{
    const pc_result *r = c->r;
    pc_sb *b = c->b;
    bool plan = c->ex && c->ex->plan_depths;
    pc_sb_append(b, "<table class=\"depths\"><thead><tr><th>pool</th><th>used by</th><th class=\"n\">required</th>"
                    "<th class=\"n\">predicted</th><th class=\"n\">suggested</th><th class=\"n\">configured</th>");
    if (c->have_observed)
        pc_sb_append(b, "<th class=\"n\">observed</th><th>verdict</th>");
    if (plan)
        pc_sb_append(b, "<th class=\"n\">plan</th>");
    pc_sb_append(b, "<th>the DeviceTask that sets it</th></tr></thead><tbody>\n");
    for (int p = 0; p < 3; p++) {
        pc_sb_printf(b, "<tr><td class=\"nw\"><span class=\"chip p%d\"></span>%s</td><td class=\"uses\">", p, pool_short[p]);
        int listed = 0;
        for (int t = 0; t < r->ntensors; t++)
            if ((int)r->tensors[t].pool == p) {
                if (listed < 5) {
                    pc_sb_append(b, listed ? ", " : "");
                    pc_sb_append(b, "<code>");
                    char label[32];
                    esc(b, pc_tensor_label(&r->kernel->tensors[t], label, sizeof label));
                    pc_sb_append(b, "</code>");
                } else if (listed == 5) {
                    pc_sb_append(b, ", ...");
                }
                listed++;
            }
        if (!listed)
            pc_sb_append(b, "<span class=\"muted\">none</span>");
        pc_sb_append(b, "</td>");
        cell_depth(b, r->required[p], NULL);
        if (r->predicted[p] >= 0) {
            cell_depth(b, r->predicted[p], "b");
        } else {
            pc_sb_printf(b, "<td class=\"n\">&#8804; %s", r->bounds[p] >= 0 ? I(r->bounds[p]).s : "?");
            if (r->formulas[p]) {
                pc_sb_append(b, "<br/><code>");
                esc(b, r->formulas[p]);
                pc_sb_append(b, "</code>");
            }
            pc_sb_append(b, "</td>");
        }
        cell_depth(b, r->suggested[p], NULL);
        bool short_ = r->precise && ((r->configured[p] == 0 && r->required[p] > 0) ||
                                     (r->predicted[p] >= 0 && r->configured[p] < r->predicted[p]));
        cell_depth(b, r->configured[p], short_ ? "bad" : NULL);
        if (c->have_observed) {
            cell_depth(b, c->observed[p], NULL);
            const char *v = verdict(r->predicted[p], c->observed[p]);
            pc_sb_printf(b, "<td class=\"%s\">%s</td>",
                         strcmp(v, "under-predicted") == 0 ? "bad" : strcmp(v, "match") == 0 ? "good" : "muted", v);
        }
        if (plan)
            cell_depth(b, c->ex->plan_depths[p], NULL);
        const pc_why *w = &r->why[p];
        pc_sb_append(b, "<td class=\"why\">");
        if (w->task >= 0) {
            pc_sb_printf(b, "T%lld, instances %lld&#8211;%lld: ", (long long)w->task, (long long)w->first_instance,
                         (long long)w->last_instance);
            for (int i = 0; i < w->nroots; i++) {
                pc_sb_append(b, i ? ", " : "");
                esc(b, w->roots[i].name);
                pc_sb_printf(b, " &#215;%lld", (long long)w->roots[i].instances);
            }
            if (w->ntensors) {
                pc_sb_append(b, "; tensors ");
                code_list(b, w->tensors, w->ntensors);
            }
        } else if (r->required[p] > 0) {
            pc_sb_append(b, "<span class=\"muted\">unknown until the symbols are bound</span>");
        } else {
            pc_sb_append(b, "<span class=\"muted\">not needed</span>");
        }
        pc_sb_append(b, "</td></tr>\n");
    }
    table_end(b);
}

static void tensor_table(pc_sb *b, const pc_result *r)
{
    table_begin(b, "tensors", "<th>tensor</th><th>kind</th><th>pool</th><th class=\"n\">bytes</th>"
                              "<th class=\"n\">aligned</th><th>defined in</th><th>why this pool</th><th>source</th>");
    for (int t = 0; t < r->ntensors; t++) {
        const pc_tensor *T = &r->kernel->tensors[t];
        const pc_tensor_result *tr = &r->tensors[t];
        int pool = tr->pool >= PC_POOL_ROOT_INNER && tr->pool <= PC_POOL_NONE ? (int)tr->pool : 3;
        pc_sb_append(b, "<tr><td><code>");
        char label[32];
        esc(b, pc_tensor_label(T, label, sizeof label));
        pc_sb_append(b, "</code>");
        if (T->variable && *T->variable && T->name && strcmp(T->variable, T->name) != 0) {
            pc_sb_append(b, " <span class=\"muted\">(<code>");
            esc(b, T->variable);
            pc_sb_append(b, "</code>)</span>");
        }
        pc_sb_printf(b, "</td><td>%s</td><td class=\"nw\"><span class=\"chip p%d\"></span>%s</td>", pc_tensor_kind_name(T->kind),
                     pool, pc_pool_name(tr->pool));
        pc_sb_printf(b, "<td class=\"n\">%s</td><td class=\"n\">%s", tr->bytes >= 0 ? I(tr->bytes).s : "?",
                     tr->aligned_bytes >= 0 ? I(tr->aligned_bytes).s : "?");
        if (tr->pieces_text) { /* tile pieces, each rounded up to 512 */
            pc_sb_append(b, "<br><span class=\"muted\">");
            esc(b, tr->pieces_text);
            pc_sb_append(b, "</span>");
        }
        pc_sb_append(b, "</td><td>");
        if (tr->root >= 0)
            esc(b, root_name(r, tr->root));
        else
            pc_sb_append(b, "<span class=\"muted\">&#8212;</span>");
        pc_sb_append(b, "</td><td class=\"why\">");
        esc(b, tr->reason);
        pc_sb_append(b, "</td><td>");
        source_cell_end_row(b, r, T->loc);
    }
    table_end(b);
}

static void root_table(kctx *c)
{
    const pc_result *r = c->r;
    pc_sb *b = c->b;
    table_begin(b, "roots", "<th>root function</th><th class=\"n\">instances</th><th class=\"n\">unroll</th>"
                            "<th class=\"n\">root_inner bytes</th><th class=\"n\">exclusive bytes</th><th>source</th>");
    for (int i = 0; i < r->nroots; i++) {
        const pc_root_result *rr = &r->roots[i];
        char cls[8];
        root_cls(c, i, cls);
        pc_sb_printf(b, "<tr><td class=\"nw\"><span class=\"chip %s\"></span>", cls);
        esc(b, rr->name);
        pc_sb_printf(b, "</td><td class=\"n\">%s</td><td class=\"n\">%lld</td><td class=\"n\">%s</td>"
                        "<td class=\"n\">%s</td><td>",
                     rr->instances >= 0 ? I(rr->instances).s : "?", (long long)rr->unroll_factor,
                     rr->inner_bytes >= 0 ? I(rr->inner_bytes).s : "?", rr->excl_bytes >= 0 ? I(rr->excl_bytes).s : "?");
        source_cell_end_row(b, r, rr->loc);
    }
    table_end(b);
}

static void runs_table(kctx *c)
{
    pc_sb *b = c->b;
    table_begin(b, "runs", "<th>run</th><th class=\"n\">observed</th><th class=\"n\">DeviceTasks</th>"
                           "<th class=\"n\">largest stitchCount</th><th></th>");
    for (size_t i = 0; i < c->ex->nruns; i++) {
        const pc_rep_html_run *run = &c->ex->runs[i];
        char d[96];
        depths_text(d, sizeof d, run->observed);
        int64_t most = -1;
        for (size_t t = 0; run->tasks && t < run->ntasks; t++)
            most = max64(most, run->tasks[t].stitch_count);
        pc_sb_append(b, "<tr><td>");
        if (run->label)
            esc(b, run->label);
        else
            pc_sb_printf(b, "run %zu", i + 1);
        pc_sb_printf(b, "</td><td class=\"n\">%s</td><td class=\"n\">%zu</td><td class=\"n\">%s</td><td>%s</td></tr>\n", d,
                     run->ntasks, most >= 0 ? I(most).s : "?",
                     run->cut_short ? "<span class=\"bad\">Alloc Failure: the observation was cut short</span>" : "");
    }
    if (c->ex->nruns > 0 && c->ex->runs[0].ntasks && (int64_t)c->ex->runs[0].ntasks != c->r->ntasks)
        pc_sb_printf(b, "<tr><td colspan=\"5\" class=\"muted\">the first run logged %zu DeviceTasks, the analysis "
                        "predicts %lld per launch: per-task markers are drawn by position</td></tr>\n",
                     c->ex->runs[0].ntasks, (long long)c->r->ntasks);
    table_end(b);
}

static void facts(kctx *c)
{
    const pc_result *r = c->r;
    pc_sb *b = c->b;
    pc_sb_append(b, "<div class=\"facts\">");
    if (r->instances >= 0)
        pc_sb_printf(b, "<span><b>%lld</b> %s in <b>%lld</b> %s</span>", (long long)r->instances,
                     plural(r->instances, "instance", "instances"), (long long)r->device_tasks,
                     plural(r->device_tasks, "DeviceTask", "DeviceTasks"));
    else
        pc_sb_append(b, "<span class=\"bad\">instances depend on unbound symbols</span>");
    pc_sb_printf(b, "<span>k = <b>%lld</b> (stitch_function_max_num)</span>", (long long)r->k);
    if (r->precise)
        pc_sb_append(b, "<span>precise mode: the configured triple is used as given</span>");
    else
        pc_sb_append(b, "<span>default mode: every pool is k deep</span>");
    pc_sb_printf(b, "<span>device_sched_parallelism = %lld</span>", (long long)r->parallelism);
    if (r->nunknowns) {
        pc_sb_append(b, "<span class=\"bad\">bind: ");
        code_list(b, r->unknowns, r->nunknowns);
        pc_sb_append(b, " (--bind NAME=VALUE)</span>");
    }
    pc_sb_append(b, "</div>\n");
}

/* ---- the inputs: runtime options, bindings, the command line, the configuration to paste ------ */

/* Where option o was set, as a user finds it: "--set", "tile_fwk_config.json FILE:LINE", the
 * source's own call at FILE:LINE (o NULL: "default"). */
static void option_source(pc_sb *b, const pc_option *o)
{
    if (!o) {
        pc_sb_append(b, "<span class=\"muted\">default</span>");
        return;
    }
    const char *what = "?";
    switch (o->site) {
    case PC_SITE_COMMAND_LINE: pc_sb_append(b, "<code>--set</code>"); return;
    case PC_SITE_CONFIG_FILE: what = "tile_fwk_config.json"; break;
    case PC_SITE_PROJECT_FILE: what = ".poolcheck.json"; break;
    case PC_SITE_SET_RUNTIME_OPTIONS: what = "set_runtime_options"; break;
    case PC_SITE_SET_OPTIONS: what = "set_options(runtime_options=...)"; break;
    case PC_SITE_OPTIONS_SCOPE: what = "options(runtime_options=...)"; break;
    case PC_SITE_JIT: what = "jit(runtime_options=...)"; break;
    case PC_SITE_CPP_SET_RUNTIME_OPTION: what = "SetRuntimeOption"; break;
    }
    pc_sb_printf(b, "<code>%s</code>", what);
    if (o->loc.file) {
        pc_sb_append(b, " at ");
        file_link(b, o->loc.file, o->loc.line);
    }
}

/* The four runtime options the analysis reads, as in force for this kernel, with their sources. */
static void runtime_table(kctx *c)
{
    const pc_runtime_config *cfg = c->cfg;
    if (!cfg)
        return;
    pc_sb *b = c->b;
    struct { const char *key; char *value; const pc_option *src; } rows[] = {
        {PC_KEY_POOL, pc_arena_printf(c->arena, "[%lld, %lld, %lld]", (long long)cfg->pool[0], (long long)cfg->pool[1],
                                      (long long)cfg->pool[2]), cfg->src_pool},
        {PC_KEY_MAX_NUM, pc_arena_printf(c->arena, "%lld", (long long)cfg->max_num), cfg->src_max_num},
        {PC_KEY_WORKSPACE_KB, pc_arena_printf(c->arena, "%lld", (long long)cfg->workspace_kb), cfg->src_workspace_kb},
        {PC_KEY_PARALLELISM, pc_arena_printf(c->arena, "%lld", (long long)cfg->parallelism), cfg->src_parallelism},
    };
    pc_sb_append(b, "<h4>Runtime options in force</h4>\n");
    table_begin(b, "options", "<th>runtime option</th><th class=\"n\">value</th><th>set by</th>");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        pc_sb_printf(b, "<tr><td><code>%s</code></td><td class=\"n nw\">%s</td><td>", rows[i].key, rows[i].value);
        option_source(b, rows[i].src);
        pc_sb_append(b, "</td></tr>\n");
    }
    table_end(b);
}

/* An argument as a POSIX shell reads it back: bare when it holds only safe characters, else in
 * single quotes (a quote inside as '\''). */
static void shell_word(pc_sb *b, const char *a)
{
    bool bare = *a != 0;
    for (const char *p = a; *p && bare; p++)
        bare = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
               strchr("_-./=:,+@%", *p) != NULL;
    if (bare) {
        pc_sb_append(b, a);
        return;
    }
    pc_sb_putc(b, '\'');
    for (const char *p = a; *p; p++)
        if (*p == '\'')
            pc_sb_append(b, "'\\''");
        else
            pc_sb_putc(b, *p);
    pc_sb_putc(b, '\'');
}

static bool same_str(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }

static const char *binding_source(const pc_rep_html_file_inputs *in, size_t set, size_t i)
{
    const char *src = in->binding_sources && in->binding_sources[set] ? in->binding_sources[set][i] : NULL;
    return src ? src : "--bind";
}

/* Two files were given the same bindings, options, project and config file: they share a row. */
static bool same_inputs(pc_arena *a, const pc_rep_html_file_inputs *x, const pc_rep_html_file_inputs *y)
{
    if (!same_str(x->project_file, y->project_file) || !same_str(x->config_file, y->config_file) ||
        x->nsets != y->nsets || x->next_opts != y->next_opts)
        return false;
    for (size_t s = 0; s < x->nsets; s++) {
        if (x->sets[s].count != y->sets[s].count)
            return false;
        for (size_t i = 0; i < x->sets[s].count; i++)
            if (!same_str(x->sets[s].items[i].name, y->sets[s].items[i].name) ||
                x->sets[s].items[i].value != y->sets[s].items[i].value ||
                !same_str(binding_source(x, s, i), binding_source(y, s, i)))
                return false;
    }
    for (size_t i = 0; i < x->next_opts; i++) {
        const pc_option *p = &x->ext_opts[i], *q = &y->ext_opts[i];
        if (!same_str(p->key, q->key) || p->site != q->site || !same_str(p->loc.file, q->loc.file) ||
            p->loc.line != q->loc.line || !same_str(pc_cfg_value_text(a, &p->value), pc_cfg_value_text(a, &q->value)))
            return false;
    }
    return true;
}

/* The inputs recorded for files[f], named `file` (the entry of the same index, else the first of
 * that name), or NULL. */
static const pc_rep_html_file_inputs *inputs_of(const pc_rep_html_inputs *in, size_t f, const char *file)
{
    if (in && f < in->nfiles && same_str(in->files[f].file, file))
        return &in->files[f];
    for (size_t i = 0; in && file && i < in->nfiles; i++)
        if (same_str(in->files[i].file, file))
            return &in->files[i];
    return NULL;
}

/* Every binding of every set, with its source; a binding an earlier one of its name shadows is
 * marked (the first one wins: pc_expr_eval). */
static void bindings_table(pc_sb *b, const pc_rep_html_file_inputs *in)
{
    size_t nbound = 0;
    for (size_t s = 0; s < in->nsets; s++)
        nbound += in->sets[s].count;
    if (!nbound) {
        pc_sb_append(b, "<p>Bindings: none.</p>\n");
        return;
    }
    if (in->nsets > 1)
        pc_sb_printf(b, "<p>Bindings: %zu sets; the depths are the element-wise maximum over the sets.</p>\n", in->nsets);
    table_begin(b, "bindings", in->nsets > 1 ? "<th class=\"n\">set</th><th>symbol</th><th class=\"n\">value</th><th>given by</th><th></th>"
                                             : "<th>symbol</th><th class=\"n\">value</th><th>given by</th><th></th>");
    for (size_t s = 0; s < in->nsets; s++)
        for (size_t i = 0; i < in->sets[s].count; i++) {
            const pc_binding *bd = &in->sets[s].items[i];
            bool shadowed = false;
            for (size_t j = 0; j < i && !shadowed; j++)
                shadowed = same_str(in->sets[s].items[j].name, bd->name);
            pc_sb_append(b, "<tr>");
            if (in->nsets > 1)
                pc_sb_printf(b, "<td class=\"n\">%zu</td>", s);
            pc_sb_append(b, "<td><code>");
            esc(b, bd->name);
            pc_sb_printf(b, "</code></td><td class=\"n\">%lld</td><td>", (long long)bd->value);
            const char *src = binding_source(in, s, i);
            bool flag = src[0] == '-' && src[1] == '-' && !strchr(src, ' ');
            pc_sb_append(b, flag ? "<code>" : "<span class=\"mono\">");
            esc(b, src);
            pc_sb_append(b, flag ? "</code>" : "</span>");
            pc_sb_printf(b, "</td><td>%s</td></tr>\n",
                         shadowed ? "<span class=\"muted\">not used: an earlier binding of this name wins</span>" : "");
        }
    table_end(b);
}

/* The runtime options from outside the source, in the order they apply (later wins). */
static void ext_options_table(pc_sb *b, pc_arena *a, const pc_rep_html_file_inputs *in)
{
    if (!in->next_opts) {
        pc_sb_append(b, "<p>Runtime options from outside the source: none.</p>\n");
        return;
    }
    pc_sb_append(b, "<p>Runtime options from outside the source, in the order they apply (a later one wins; the "
                    "source's own calls come after the files and before <code>--set</code>):</p>\n");
    table_begin(b, "extopts", "<th>runtime option</th><th>value</th><th>set by</th><th></th>");
    for (size_t i = 0; i < in->next_opts; i++) {
        const pc_option *o = &in->ext_opts[i];
        pc_sb_append(b, "<tr><td><code>");
        esc(b, o->key);
        pc_sb_append(b, "</code></td><td><code>");
        esc(b, pc_cfg_value_text(a, &o->value));
        pc_sb_append(b, "</code></td><td>");
        option_source(b, o);
        pc_sb_append(b, "</td><td>");
        const char *why = o->key ? pc_cfg_validate(a, o->key, &o->value) : NULL;
        if (!o->key || !pc_cfg_runtime_key_known(o->key)) {
            pc_sb_append(b, "<span class=\"bad\">not a runtime option: never applied</span>");
        } else if (why) {
            pc_sb_append(b, "<span class=\"bad\">");
            esc(b, why);
            pc_sb_append(b, " Never applied.</span>");
        }
        pc_sb_append(b, "</td></tr>\n");
    }
    table_end(b);
}

static const char *lang_name(pc_lang l) { return l == PC_LANG_CPP ? "C++" : l == PC_LANG_PYTHON ? "Python" : "?"; }

/* The files analysed, grouped by equal inputs; per group its project and config file, bindings and
 * runtime options from outside the source. */
static void input_files(pc_sb *b, pc_arena *a, pc_file_result *const *files, size_t nfiles, const pc_rep_html_inputs *in)
{
    bool *done = pc_mem_calloc(nfiles ? nfiles : 1, sizeof *done);
    for (size_t f = 0; f < nfiles; f++) {
        if (done[f] || !files[f] || !files[f]->model)
            continue;
        const pc_rep_html_file_inputs *fi = inputs_of(in, f, files[f]->model->file);
        pc_sb_append(b, "<div class=\"inputgroup\">\n<table class=\"inputfiles\"><thead><tr><th>file</th>"
                        "<th>language</th><th class=\"n\">kernels</th></tr></thead><tbody>\n");
        for (size_t g = f; g < nfiles; g++) {
            if (done[g] || !files[g] || !files[g]->model)
                continue;
            const pc_rep_html_file_inputs *gi = inputs_of(in, g, files[g]->model->file);
            if (g != f && !(fi && gi && same_inputs(a, fi, gi)) && !(!fi && !gi))
                continue;
            done[g] = true;
            const pc_model *m = files[g]->model;
            pc_sb_append(b, "<tr><td>");
            file_link(b, m->file, 0);
            pc_sb_printf(b, "</td><td>%s</td><td class=\"n\">%d</td></tr>\n", lang_name(m->lang), m->nkernels);
        }
        table_end(b);
        if (!fi) {
            pc_sb_append(b, "<p class=\"muted\">The bindings and the runtime options from outside the source were not "
                            "given to this report; each kernel's section lists the runtime options in force.</p>\n");
        } else {
            pc_sb_append(b, "<p>Project file: ");
            if (fi->project_file) {
                file_link(b, fi->project_file, 0);
                if (fi->project_how) {
                    pc_sb_append(b, " (");
                    esc(b, fi->project_how);
                    pc_sb_append(b, ")");
                }
            } else {
                pc_sb_append(b, "none");
            }
            pc_sb_append(b, ". Runtime config file: ");
            if (fi->config_file) {
                file_link(b, fi->config_file, 0);
                if (fi->config_how) {
                    pc_sb_append(b, " (");
                    esc(b, fi->config_how);
                    pc_sb_append(b, ")");
                }
            } else {
                pc_sb_append(b, "none");
            }
            pc_sb_append(b, ".</p>\n");
            bindings_table(b, fi);
            ext_options_table(b, a, fi);
        }
        pc_sb_append(b, "</div>\n");
    }
    pc_mem_free(done);
}

/* The JSON, Python and C++ text of check --emit-config for these files, each in a block that one
 * click selects (the page has no script, so no copy button), and what it cannot promise. */
static void paste_blocks(pc_sb *b, pc_file_result *const *files, size_t nfiles, int64_t headroom)
{
    pc_sb_append(b, "<h3 id=\"paste\">Configuration to paste</h3>\n");
    size_t analysed = 0;
    for (size_t f = 0; f < nfiles; f++)
        for (int k = 0; files[f] && files[f]->model && files[f]->results && k < files[f]->model->nkernels; k++)
            analysed += files[f]->results[k] != NULL;
    if (!analysed) {
        pc_sb_append(b, "<p class=\"muted\">No kernel was analysed: there is nothing to paste.</p>\n");
        return;
    }
    pc_sb_printf(b, "<p>The suggested <code>%s</code> of %s (the element-wise maximum over the kernels, assemble "
                    "headroom %lld), as <code>poolcheck check --emit-config=json|python|cpp</code> writes it. "
                    "A click on a block selects all of it.</p>\n",
                 PC_KEY_POOL, analysed == 1 ? "the kernel" : "every kernel", (long long)headroom);
    static const struct { const char *kind, *title; } kinds[] = {
        {"json", "tile_fwk_config.json (its \"runtime\" section)"},
        {"python", "Python, before the kernel runs"},
        {"cpp", "C++, before the kernel runs"},
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char *text = pc_rep_emit_config(files, nfiles, kinds[i].kind, headroom);
        pc_sb_printf(b, "<div class=\"paste\"><div class=\"pastehead\">%s</div><pre class=\"paste\" id=\"paste-%s\"><code>",
                     kinds[i].title, kinds[i].kind);
        esc(b, text);
        pc_sb_append(b, "</code></pre></div>\n");
        pc_mem_free(text);
    }
    char *caveats = pc_rep_emit_caveats(files, nfiles);
    if (caveats && *caveats) {
        pc_sb_append(b, "<p class=\"bad\">Part of the code was not modelled: these depths are a floor.</p>\n<pre class=\"caveats\"><code>");
        esc(b, caveats);
        pc_sb_append(b, "</code></pre>\n");
    }
    pc_mem_free(caveats);
}

/* What the report was computed from: the command line, the files with their settings, every
 * binding and runtime option from outside the source with its source, and the configuration to
 * paste. */
static void inputs_section(pc_sb *b, pc_arena *a, pc_file_result *const *files, size_t nfiles, const pc_rep_html_inputs *in)
{
    pc_sb_append(b, "<section class=\"inputs\" id=\"inputs\">\n<h2>Inputs</h2>\n");
    if (in && in->argc && in->argv) {
        pc_sb cmd = {0};
        pc_sb_append(&cmd, "poolcheck");
        for (size_t i = 0; i < in->argc; i++) {
            pc_sb_putc(&cmd, ' ');
            shell_word(&cmd, in->argv[i] ? in->argv[i] : "");
        }
        pc_sb_append(b, "<h3>Command line</h3>\n<pre class=\"cmd\"><code>");
        esc_n(b, cmd.data, cmd.len);
        pc_sb_append(b, "</code></pre>\n");
        pc_sb_free(&cmd);
        if (in->cwd) {
            pc_sb_append(b, "<p class=\"muted\">run in <span class=\"mono\">");
            esc(b, in->cwd);
            pc_sb_append(b, "</span></p>\n");
        }
    }
    pc_sb_printf(b, "<h3>%s analysed</h3>\n", nfiles == 1 ? "File" : "Files");
    if (!nfiles)
        pc_sb_append(b, "<p class=\"muted\">none</p>\n");
    input_files(b, a, files, nfiles, in);
    paste_blocks(b, files, nfiles, in ? in->assemble_headroom : 1);
    pc_sb_append(b, "</section>\n");
}

/* The extra data that belongs to kernel `name` (the first match in the list). */
static const pc_rep_html_extra *extra_for(const pc_rep_html_extra *ex, const char *name)
{
    for (; ex; ex = ex->next)
        if (!ex->kernel || (name && strcmp(ex->kernel, name) == 0))
            return ex;
    return NULL;
}

static void kernel_section(kctx *c)
{
    const pc_result *r = c->r;
    pc_sb *b = c->b;
    pc_sb_printf(b, "<section class=\"kernel\" id=\"k%d\">\n<h3>kernel <code>", c->uid);
    esc(b, r->kernel->name);
    pc_sb_append(b, "</code>");
    if (pc_kernel_scope_shown(r->kernel)) { /* upstream's tests call most kernels "main" */
        pc_sb_append(b, " in <code>");
        esc(b, r->kernel->scope);
        pc_sb_append(b, "</code>");
    }
    pc_sb_append(b, "</h3>\n<p class=\"muted\">defined at ");
    file_link(b, kernel_file(r), r->kernel->loc.line);
    pc_sb_append(b, "</p>\n");
    facts(c);
    depth_table(c);
    runtime_table(c);

    pc_sb_append(b, "<h4>Instances in program order and their DeviceTasks</h4>\n");
    if (r->instances >= 0)
        draw_strip(c);
    else
        pc_sb_append(b, "<p class=\"muted\">The instance walk needs the unbound symbols above: bind them to see "
                        "the DeviceTasks.  The depths are shown as upper bounds.</p>\n");

    if (r->tasks && r->ntasks > 0) {
        pc_sb_append(b, "<h4>Per DeviceTask: instances, and the depth each pool needs</h4>\n");
        draw_task_charts(c);
    }
    pc_sb_append(b, "<h4>Workspace bytes</h4>\n");
    draw_workspace(c);
    if (c->have_observed || (c->ex && c->ex->nruns)) {
        pc_sb_append(b, "<h4>Runs (logs)</h4>\n");
        runs_table(c);
    }
    pc_sb_append(b, "<h4>Tensors</h4>\n");
    tensor_table(c->b, c->r);
    pc_sb_append(b, "<h4>Root functions</h4>\n");
    root_table(c);
    pc_sb_append(b, "</section>\n");
}

/* One finding of fr as a list item: severity, check id, the kernel (kernel_anchor >= 0: a link to
 * its section, #k<anchor>), message and where. */
static void finding_item(pc_sb *b, const pc_file_result *fr, const pc_diag *d, int kernel_anchor)
{
    const char *sev = pc_severity_name(d->severity);
    pc_sb_printf(b, "<li><span class=\"sev-%s\">%s</span> ", sev, sev);
    if (d->id) {
        pc_sb_append(b, "<code>");
        esc(b, d->id);
        pc_sb_append(b, "</code> ");
    }
    if (kernel_anchor >= 0) {
        pc_sb_printf(b, "<a href=\"#k%d\">kernel <code>", kernel_anchor);
        esc(b, d->kernel);
        pc_sb_append(b, "</code></a>: ");
    }
    esc(b, d->message);
    pc_sb_append(b, " <span class=\"muted\">(");
    file_link(b, d->loc.file ? d->loc.file : fr->model->file, d->loc.line);
    pc_sb_append(b, ")</span></li>\n");
}

static void findings(pc_sb *b, const pc_file_result *fr)
{
    size_t n = 0;
    const pc_diag *d = fr->sink ? pc_diag_items(fr->sink, &n) : NULL;
    if (!n)
        return;
    pc_sb_printf(b, "<h4>Findings (%zu)</h4>\n<ul class=\"diags\">\n", n);
    for (size_t i = 0; i < n; i++)
        finding_item(b, fr, &d[i], -1);
    pc_sb_append(b, "</ul>\n");
}

/* Rank of a finding in the summary: errors, then PC012 (a part of the kernel was not analysed, so
 * every number may be low), then other warnings, then notes. */
static int finding_rank(const pc_diag *d)
{
    if (d->severity == PC_SEV_ERROR)
        return 0;
    if (d->id && strcmp(d->id, "PC012") == 0)
        return 1;
    return d->severity == PC_SEV_WARNING ? 2 : 3;
}

/* The section id of kernel `name` of file f (kernel sections are numbered across the files in
 * order, k0, k1, ...), or -1 when it has no section. */
static int kernel_uid(pc_file_result *const *files, size_t f, const char *name)
{
    int base = 0;
    for (size_t i = 0; i < f; i++)
        base += files[i] && files[i]->model ? files[i]->model->nkernels : 0;
    const pc_file_result *fr = files[f];
    for (int k = 0; name && k < fr->model->nkernels; k++)
        if (fr->model->kernels[k].name && strcmp(fr->model->kernels[k].name, name) == 0)
            return fr->results && fr->results[k] ? base + k : -1;
    return -1;
}

/* What the reader needs first: how many findings of each severity, the errors and PC012 warnings
 * at the top with links to their kernels, then the other findings, and every kernel's depths. */
static void summary(pc_sb *b, pc_file_result *const *files, size_t nfiles, int nkernels)
{
    size_t count[3] = {0, 0, 0}, total = 0;
    for (size_t f = 0; f < nfiles; f++) {
        size_t n = 0;
        const pc_diag *d = files[f] && files[f]->sink ? pc_diag_items(files[f]->sink, &n) : NULL;
        for (size_t i = 0; i < n; i++)
            count[d[i].severity]++;
        total += n;
    }
    pc_sb_append(b, "<section class=\"summary\" id=\"summary\">\n<h2>Summary</h2>\n<p>");
    if (!total)
        pc_sb_append(b, "No findings.");
    else
        pc_sb_printf(b, "<span class=\"%s\">%zu %s</span>, %zu %s, %zu %s.", count[PC_SEV_ERROR] ? "bad" : "good",
                     count[PC_SEV_ERROR], plural((int64_t)count[PC_SEV_ERROR], "error", "errors"),
                     count[PC_SEV_WARNING], plural((int64_t)count[PC_SEV_WARNING], "warning", "warnings"),
                     count[PC_SEV_NOTE], plural((int64_t)count[PC_SEV_NOTE], "note", "notes"));
    pc_sb_append(b, " <a href=\"#inputs\">Inputs</a> (bindings, runtime options and their sources) \xC2\xB7 "
                    "<a href=\"#paste\">Configuration to paste</a></p>\n");
    if (total) {
        pc_sb_append(b, "<ul class=\"diags\">\n");
        for (int rank = 0; rank < 4; rank++)
            for (size_t f = 0; f < nfiles; f++) {
                const pc_file_result *fr = files[f];
                size_t n = 0;
                const pc_diag *d = fr && fr->sink ? pc_diag_items(fr->sink, &n) : NULL;
                for (size_t i = 0; i < n; i++) {
                    if (finding_rank(&d[i]) != rank)
                        continue;
                    finding_item(b, fr, &d[i], kernel_uid(files, f, d[i].kernel));
                }
            }
        pc_sb_append(b, "</ul>\n");
    }
    if (nkernels > 0) {
        table_begin(b, "kernels", "<th>kernel</th><th>file</th><th class=\"n\">predicted</th>"
                                  "<th class=\"n\">suggested</th><th class=\"n\">configured</th><th class=\"n\">findings</th>");
        int uid = 0;
        for (size_t f = 0; f < nfiles; f++)
            for (int k = 0; files[f] && files[f]->model && k < files[f]->model->nkernels; k++, uid++) {
                const pc_file_result *fr = files[f];
                const pc_result *r = fr->results ? fr->results[k] : NULL;
                const char *name = fr->model->kernels[k].name;
                pc_sb_append(b, "<tr><td>");
                if (r)
                    pc_sb_printf(b, "<a href=\"#k%d\">", uid);
                pc_sb_append(b, "<code>");
                esc(b, name);
                pc_sb_append(b, r ? "</code></a>" : "</code>");
                pc_sb_append(b, "</td><td>");
                file_link(b, fr->model->kernels[k].loc.file ? fr->model->kernels[k].loc.file : fr->model->file,
                          fr->model->kernels[k].loc.line);
                pc_sb_append(b, "</td>");
                if (r) {
                    char d1[96], d2[96], d3[96];
                    depths_text(d1, sizeof d1, r->predicted);
                    depths_text(d2, sizeof d2, r->suggested);
                    depths_text(d3, sizeof d3, r->configured);
                    pc_sb_printf(b, "<td class=\"n nw\">%s</td><td class=\"n nw\">%s</td><td class=\"n nw\">%s</td>", d1,
                                 d2, d3);
                } else {
                    pc_sb_append(b, "<td class=\"n\">?</td><td class=\"n\">?</td><td class=\"n\">?</td>");
                }
                size_t n = 0, mine = 0;
                const pc_diag *d = fr->sink ? pc_diag_items(fr->sink, &n) : NULL;
                for (size_t i = 0; i < n; i++)
                    mine += d[i].kernel && name && strcmp(d[i].kernel, name) == 0;
                pc_sb_printf(b, "<td class=\"n\">%zu</td></tr>\n", mine);
            }
        table_end(b);
    }
    pc_sb_append(b, "</section>\n");
}

char *pc_rep_html_render_inputs(pc_file_result *const *files, size_t nfiles, const pc_rep_html_extra *extra,
                                const pc_rep_html_inputs *inputs)
{
    pc_sb b = {0};
    pc_arena *arena = pc_arena_new();
    int nkernels = 0;
    const char *first = NULL;
    for (size_t f = 0; f < nfiles; f++)
        if (files[f] && files[f]->model) {
            nkernels += files[f]->model->nkernels;
            if (!first && files[f]->model->nkernels)
                first = files[f]->model->kernels[0].name;
        }

    pc_sb_append(&b, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
                     "<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
                     "<meta name=\"color-scheme\" content=\"light dark\"/>\n"
                     "<meta name=\"generator\" content=\"poolcheck ");
    esc(&b, pc_version());
    pc_sb_append(&b, "\"/>\n<title>poolcheck report");
    if (first) {
        pc_sb_append(&b, ": ");
        esc(&b, first);
        if (nkernels > 1)
            pc_sb_printf(&b, " and %d more", nkernels - 1);
    }
    pc_sb_append(&b, "</title>\n<style>\n");
    pc_sb_append(&b, css);
    pc_sb_append(&b, "</style>\n</head>\n<body>\n<main>\n<h1>poolcheck report</h1>\n<p class=\"muted\">");
    pc_sb_printf(&b, "%d %s in %zu %s \xC2\xB7 poolcheck ", nkernels, plural(nkernels, "kernel", "kernels"), nfiles,
                 plural((int64_t)nfiles, "file", "files"));
    esc(&b, pc_version());
    pc_sb_append(&b, " \xC2\xB7 depths count instances' worth of memory per pool "
                     "(stitch_function_num_per_pool = [root_inner, assemble_outcast, exclusive_outcast])</p>\n");

    summary(&b, files, nfiles, nkernels);
    if (nkernels == 0)
        pc_sb_append(&b, "<p>No kernel found.</p>\n");
    inputs_section(&b, arena, files, nfiles, inputs);

    int uid = 0;
    for (size_t f = 0; f < nfiles; f++) {
        const pc_file_result *fr = files[f];
        if (!fr || !fr->model)
            continue;
        const pc_model *m = fr->model;
        pc_sb_append(&b, "<section class=\"file\">\n<h2>");
        esc(&b, m->file);
        pc_sb_append(&b, "</h2>\n");
        if (m->fatal) {
            for (int i = 0; i < m->nmessages; i++)
                if (m->messages[i].kind == PC_MSG_FATAL) {
                    pc_sb_append(&b, "<p class=\"bad\">could not be analysed: ");
                    esc(&b, m->messages[i].text);
                    pc_sb_append(&b, " (");
                    file_link(&b, m->messages[i].loc.file ? m->messages[i].loc.file : m->file, m->messages[i].loc.line);
                    pc_sb_append(&b, ")</p>\n");
                }
        } else if (m->nkernels == 0) {
            pc_sb_append(&b, "<p class=\"muted\">no kernel in this file</p>\n");
        }
        for (int k = 0; k < m->nkernels; k++) {
            const pc_result *r = fr->results ? fr->results[k] : NULL;
            if (!r) {
                uid++;
                continue;
            }
            kctx c;
            memset(&c, 0, sizeof c);
            c.b = &b;
            c.fr = fr;
            c.r = r;
            c.cfg = fr->cfgs ? &fr->cfgs[k] : NULL;
            c.uid = uid++;
            c.arena = arena;
            c.ex = extra_for(extra, m->kernels[k].name);
            for (int p = 0; p < 3; p++)
                c.observed[p] = -1;
            c.plan_bytes = -1;
            if (c.ex) {
                for (size_t i = 0; i < c.ex->nruns; i++)
                    for (int p = 0; p < 3; p++)
                        if (c.ex->runs[i].observed[p] >= 0) {
                            c.observed[p] = max64(c.observed[p], c.ex->runs[i].observed[p]);
                            c.have_observed = true;
                        }
                if (c.ex->plan_depths)
                    c.plan_bytes = c.ex->plan_bytes >= 0 ? c.ex->plan_bytes
                                                         : pc_workspace_bytes(r, c.ex->plan_depths, r->parallelism);
            }
            c.colour = pc_mem_calloc((size_t)r->nroots + 1, sizeof *c.colour);
            for (int i = 0, rank = 0; i < r->nroots; i++)
                c.colour[i] = r->roots[i].instances != 0 ? rank++ : -1;
            kernel_section(&c);
            pc_mem_free(c.colour);
        }
        findings(&b, fr);
        pc_sb_append(&b, "</section>\n");
    }
    pc_sb_append(&b, "</main>\n</body>\n</html>\n");
    pc_arena_free(arena);
    return pc_sb_take(&b);
}

char *pc_rep_html_render(pc_file_result *const *files, size_t nfiles, const pc_rep_html_extra *extra)
{
    return pc_rep_html_render_inputs(files, nfiles, extra, NULL);
}

int pc_rep_html_write(const char *path, pc_file_result *const *files, size_t nfiles, const pc_rep_html_extra *extra)
{
    return pc_rep_html_write_inputs(path, files, nfiles, extra, NULL);
}

int pc_rep_html_write_inputs(const char *path, pc_file_result *const *files, size_t nfiles,
                             const pc_rep_html_extra *extra, const pc_rep_html_inputs *inputs)
{
    if (!path || !*path) {
        errno = EINVAL;
        return -1;
    }
    char *doc = pc_rep_html_render_inputs(files, nfiles, extra, inputs);
    size_t len = strlen(doc);
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *out = to_stdout ? stdout : fopen(path, "w");
    if (!out) {
        int e = errno;
        pc_mem_free(doc);
        errno = e;
        return -1;
    }
    int rc = 0, e = 0;
    if (fwrite(doc, 1, len, out) != len) {
        rc = -1;
        e = errno ? errno : EIO;
    }
    if (to_stdout) {
        if (fflush(out) != 0 && rc == 0) {
            rc = -1;
            e = errno;
        }
    } else if (fclose(out) != 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    pc_mem_free(doc);
    errno = e;
    return rc;
}
