/*
 * sarif.c - `check --format=sarif`: one SARIF 2.1.0 log (OASIS standard) with one run.
 *
 * - tool.driver.rules are generated from the check table (id, name, short and full description,
 *   help text and markdown, helpUri to docs/checks/PCnnn.md, defaultConfiguration.level);
 * - results: ruleId, ruleIndex, level (after --warnings-as-errors), message, one physical location
 *   (URI relative to SRCROOT = base_dir or the working directory, else an absolute file: URI),
 *   a region with start and end, partialFingerprints.primaryLocationLineHash (a hash of the check,
 *   the path and the trimmed line text, then ":<occurrence>", so it survives edits elsewhere in
 *   the file), relatedLocations for notes, fixes;
 * - run.columnKind is "unicodeCodePoints": poolcheck's byte columns are converted with the line
 *   text (a line that cannot be read is taken as ASCII);
 * - frontend messages (syntax errors, unreadable files) are toolExecutionNotifications of the
 *   run's one invocation, which is executionSuccessful unless a file could not be analysed.
 * The log is written one file at a time (stream.c): the document around the results and the
 * notifications is pc_rep_sarif_skeleton's, each result and notification is made alone from the
 * file's record, whose recorded source lines give the columns and fingerprints.
 */
#include "report/report_int.h"

#include <cjson/cJSON.h>
#include <string.h>

static const char *level(pc_severity s)
{
    return s == PC_SEV_ERROR ? "error" : s == PC_SEV_WARNING ? "warning" : "note";
}

/* file:///.../docs/checks/ of the source tree this file was compiled from (CMake passes absolute
 * source paths, so __FILE__ is .../analyzer/report/sarif.c). */
static char *default_docs_url(void)
{
    const char *self = __FILE__;
    pc_sb b = {0};
    const char *end = self + strlen(self);
    for (int up = 0; up < 3 && end > self; up++) {
        end--;
        while (end > self && *end != '/')
            end--;
    }
    char *root = pc_mem_strndup(self, (size_t)(end - self));
    char *abs = pc_rep_absolute_path(*root ? root : ".");
    pc_sb_append(&b, "file://");
    pc_rep_uri_escape(&b, abs);
    pc_sb_append(&b, strcmp(abs, "/") == 0 ? "docs/checks/" : "/docs/checks/");
    pc_mem_free(root);
    pc_mem_free(abs);
    return pc_sb_take(&b);
}

static cJSON *text_obj(const char *text)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "text", text);
    return o;
}

static cJSON *rules_json(const char *docs)
{
    size_t n;
    const pc_check_info *t = pc_chk_table(&n);
    cJSON *rules = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        pc_sb url = {0}, help = {0}, md = {0};
        pc_sb_printf(&url, "%s%s.md", docs, t[i].id);
        pc_sb_printf(&help, "%s %s See %s", t[i].description, t[i].remedy, url.data);
        pc_sb_printf(&md, "**%s** (`%s`): %s\n\n%s\n\n%s\n\nSee [%s](%s).", t[i].id, t[i].name,
                     t[i].summary, t[i].description, t[i].remedy, t[i].id, url.data);
        cJSON_AddStringToObject(r, "id", t[i].id);
        cJSON_AddStringToObject(r, "name", t[i].name);
        cJSON_AddItemToObject(r, "shortDescription", text_obj(t[i].summary));
        cJSON_AddItemToObject(r, "fullDescription", text_obj(t[i].description));
        cJSON *h = text_obj(help.data);
        cJSON_AddStringToObject(h, "markdown", md.data);
        cJSON_AddItemToObject(r, "help", h);
        cJSON_AddStringToObject(r, "helpUri", url.data);
        cJSON *dc = cJSON_AddObjectToObject(r, "defaultConfiguration");
        cJSON_AddStringToObject(dc, "level", level(t[i].severity));
        cJSON_AddItemToArray(rules, r);
        pc_sb_free(&url);
        pc_sb_free(&help);
        pc_sb_free(&md);
    }
    return rules;
}

/* What one result is made with. */
typedef struct sarif_ctx {
    const pc_report_opts *o;
    const pc_rep_file *f;      /* the file's record: its source lines */
    pc_rep_counts *occ;        /* fingerprints seen in the run, for occurrence numbers */
} sarif_ctx;

static cJSON *artifact_location(const char *file, const char *base)
{
    cJSON *a = cJSON_CreateObject();
    bool inside;
    char *rel = pc_rep_relative_path(file, base, &inside);
    pc_sb uri = {0};
    if (inside) {
        pc_rep_uri_escape(&uri, rel);
        cJSON_AddStringToObject(a, "uri", uri.data ? uri.data : "");
        cJSON_AddStringToObject(a, "uriBaseId", "SRCROOT");
    } else {
        pc_sb_append(&uri, "file://");
        pc_rep_uri_escape(&uri, rel);
        cJSON_AddStringToObject(a, "uri", uri.data);
    }
    pc_sb_free(&uri);
    pc_mem_free(rel);
    return a;
}

/* A region in code point columns; NULL when the location has no line. */
static cJSON *region(sarif_ctx *c, pc_loc l, bool allow_empty)
{
    if (l.line == 0)
        return NULL;
    const char *line = NULL;
    size_t n = 0;
    uint32_t col = l.col ? l.col : 1;
    uint32_t end_line = l.end_line ? l.end_line : l.line;
    uint32_t end_col = l.end_line ? l.end_col : 0;
    if (pc_rep_file_line(c->f, l.file, l.line, &line, &n))
        col = pc_rep_cp_column(line, n, col);
    if (end_col) {
        if (pc_rep_file_line(c->f, l.file, end_line, &line, &n))
            end_col = pc_rep_cp_column(line, n, end_col);
        if (end_line == l.line && end_col < col + (allow_empty ? 0 : 1))
            end_col = allow_empty ? col : col + 1;
    }
    cJSON *r = cJSON_CreateObject();
    cJSON_AddNumberToObject(r, "startLine", l.line);
    cJSON_AddNumberToObject(r, "startColumn", col);
    if (end_col) {
        cJSON_AddNumberToObject(r, "endLine", end_line);
        cJSON_AddNumberToObject(r, "endColumn", end_col);
    }
    return r;
}

static cJSON *location(sarif_ctx *c, pc_loc l, const char *message)
{
    cJSON *loc = cJSON_CreateObject();
    if (l.file && *l.file) {
        cJSON *pl = cJSON_AddObjectToObject(loc, "physicalLocation");
        cJSON_AddItemToObject(pl, "artifactLocation", artifact_location(l.file, c->o->base_dir));
        cJSON *r = region(c, l, false);
        if (r)
            cJSON_AddItemToObject(pl, "region", r);
    }
    if (message)
        cJSON_AddItemToObject(loc, "message", text_obj(message));
    return loc;
}

static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* Stable across unrelated edits: the check, the repository-relative path and the line's text
 * without surrounding blanks; the occurrence number tells identical lines apart. */
static char *fingerprint(sarif_ctx *c, const pc_diag *d)
{
    uint64_t h = 14695981039346656037ull;
    h = fnv1a(h, d->id, strlen(d->id));
    h = fnv1a(h, "\0", 1);
    if (d->loc.file) {
        bool inside;
        char *rel = pc_rep_relative_path(d->loc.file, c->o->base_dir, &inside);
        h = fnv1a(h, rel, strlen(rel));
        pc_mem_free(rel);
    }
    h = fnv1a(h, "\0", 1);
    const char *line;
    size_t n;
    if (pc_rep_file_line(c->f, d->loc.file, d->loc.line, &line, &n)) {
        while (n && (*line == ' ' || *line == '\t')) {
            line++;
            n--;
        }
        while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            n--;
        h = fnv1a(h, line, n);
    }
    size_t occurrence = pc_rep_counts_bump(c->occ, h);
    pc_sb b = {0};
    pc_sb_printf(&b, "%016llx:%zu", (unsigned long long)h, occurrence);
    return pc_sb_take(&b);
}

static cJSON *fixes_json(sarif_ctx *c, const pc_diag *d)
{
    cJSON *fixes = cJSON_CreateArray();
    for (int i = 0; i < d->nfixes; i++) {
        const pc_fix *f = &d->fixes[i];
        if (!f->range.file || f->range.line == 0)
            continue;
        cJSON *fix = cJSON_CreateObject();
        pc_sb desc = {0};
        bool insertion = !f->range.end_line ||
                         (f->range.end_line == f->range.line && f->range.end_col == f->range.col);
        pc_sb_printf(&desc, "%s: %s '%s'", d->id, insertion ? "insert" : "replace with", f->replacement);
        cJSON_AddItemToObject(fix, "description", text_obj(desc.data));
        pc_sb_free(&desc);
        cJSON *changes = cJSON_AddArrayToObject(fix, "artifactChanges");
        cJSON *ch = cJSON_CreateObject();
        cJSON_AddItemToObject(ch, "artifactLocation", artifact_location(f->range.file, c->o->base_dir));
        cJSON *reps = cJSON_AddArrayToObject(ch, "replacements");
        cJSON *rep = cJSON_CreateObject();
        pc_loc del = f->range;
        if (!del.end_line) {
            del.end_line = del.line;
            del.end_col = del.col;
        }
        cJSON_AddItemToObject(rep, "deletedRegion", region(c, del, true));
        cJSON_AddItemToObject(rep, "insertedContent", text_obj(f->replacement));
        cJSON_AddItemToArray(reps, rep);
        cJSON_AddItemToArray(changes, ch);
        cJSON_AddItemToArray(fixes, fix);
    }
    return fixes;
}

static cJSON *result_json(sarif_ctx *c, const pc_diag *d)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "ruleId", d->id);
    cJSON_AddNumberToObject(r, "ruleIndex", d->check);
    cJSON_AddStringToObject(r, "level", level(d->severity));
    cJSON_AddItemToObject(r, "message", text_obj(d->message));
    if (d->loc.file && *d->loc.file) {
        cJSON *locs = cJSON_AddArrayToObject(r, "locations");
        cJSON_AddItemToArray(locs, location(c, d->loc, NULL));
        char *fp = fingerprint(c, d);
        cJSON *pf = cJSON_AddObjectToObject(r, "partialFingerprints");
        cJSON_AddStringToObject(pf, "primaryLocationLineHash", fp);
        pc_mem_free(fp);
    }
    if (d->nnotes) {
        cJSON *rel = cJSON_AddArrayToObject(r, "relatedLocations");
        for (int i = 0; i < d->nnotes; i++) {
            cJSON *l = location(c, d->notes[i].loc, d->notes[i].message);
            cJSON_AddNumberToObject(l, "id", i + 1);
            cJSON_AddItemToArray(rel, l);
        }
    }
    if (d->nfixes)
        cJSON_AddItemToObject(r, "fixes", fixes_json(c, d));
    cJSON *props = NULL;
    if (d->kernel) {
        props = cJSON_AddObjectToObject(r, "properties");
        cJSON_AddStringToObject(props, "kernel", d->kernel);
    }
    if (d->promoted) {
        if (!props)
            props = cJSON_AddObjectToObject(r, "properties");
        cJSON_AddBoolToObject(props, "warningsAsErrors", true);
    }
    return r;
}

static cJSON *notification_json(sarif_ctx *c, const pc_diag *d)
{
    cJSON *n = cJSON_CreateObject();
    cJSON_AddStringToObject(n, "level", level(d->severity));
    cJSON_AddItemToObject(n, "message", text_obj(d->message));
    if (d->loc.file && *d->loc.file) {
        cJSON *locs = cJSON_AddArrayToObject(n, "locations");
        cJSON_AddItemToArray(locs, location(c, d->loc, NULL));
    }
    return n;
}

void *pc_rep_sarif_result(const pc_report_opts *o, const pc_rep_file *f, const pc_diag *d, pc_rep_counts *occ)
{
    sarif_ctx c = {o, f, occ};
    return result_json(&c, d);
}

void *pc_rep_sarif_notification(const pc_report_opts *o, const pc_rep_file *f, const pc_diag *d)
{
    sarif_ctx c = {o, f, NULL};
    return notification_json(&c, d);
}

/* The log around its results ("\x01R"), the invocation's executionSuccessful ("\x01S") and its
 * toolExecutionNotifications ("\x01N"). */
char *pc_rep_sarif_skeleton(const pc_report_opts *o)
{
    char *docs = o->docs_url ? pc_mem_strdup(o->docs_url) : default_docs_url();

    cJSON *doc = cJSON_CreateObject();
    cJSON_AddStringToObject(doc, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
    cJSON_AddStringToObject(doc, "version", "2.1.0");
    cJSON *runs = cJSON_AddArrayToObject(doc, "runs");
    cJSON *run = cJSON_CreateObject();
    cJSON_AddItemToArray(runs, run);

    cJSON *driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
    cJSON_AddStringToObject(driver, "name", "poolcheck");
    cJSON_AddStringToObject(driver, "version", pc_version());
    cJSON_AddStringToObject(driver, "semanticVersion", pc_version());
    pc_sb info = {0};
    pc_sb_printf(&info, "%sindex.md", docs);
    cJSON_AddStringToObject(driver, "informationUri", info.data);
    pc_sb_free(&info);
    cJSON_AddItemToObject(driver, "rules", rules_json(docs));

    /* SRCROOT: the directory URIs are relative to (with the trailing slash SARIF requires). */
    char *base = pc_rep_absolute_path(o->base_dir && *o->base_dir ? o->base_dir : ".");
    pc_sb base_uri = {0};
    pc_sb_append(&base_uri, "file://");
    pc_rep_uri_escape(&base_uri, base);
    if (base_uri.data[base_uri.len - 1] != '/')
        pc_sb_putc(&base_uri, '/');
    cJSON *roots = cJSON_AddObjectToObject(run, "originalUriBaseIds");
    cJSON *srcroot = cJSON_AddObjectToObject(roots, "SRCROOT");
    cJSON_AddStringToObject(srcroot, "uri", base_uri.data);
    pc_sb_free(&base_uri);
    pc_mem_free(base);

    cJSON_AddItemToObject(run, "results", cJSON_CreateRaw("\x01R"));
    cJSON *invocations = cJSON_AddArrayToObject(run, "invocations");
    cJSON *inv = cJSON_CreateObject();
    cJSON_AddItemToArray(invocations, inv);
    cJSON_AddItemToObject(inv, "executionSuccessful", cJSON_CreateRaw("\x01S"));
    cJSON_AddItemToObject(inv, "toolExecutionNotifications", cJSON_CreateRaw("\x01N"));
    cJSON_AddStringToObject(run, "columnKind", "unicodeCodePoints");

    pc_json_repair_utf8(doc); /* a path need not be UTF-8; JSON text must be */
    char *s = cJSON_Print(doc);
    char *copy = pc_mem_strdup(s ? s : "{}");
    cJSON_free(s);
    cJSON_Delete(doc);
    pc_mem_free(docs);
    return copy;
}
