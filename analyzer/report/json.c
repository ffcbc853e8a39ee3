/*
 * json.c - `check --format=json` (docs/model.md section 12): one document,
 *   {"version": 1, "kernels": [<pc_rep_kernel_json>...], "diagnostics": [...]}
 * each diagnostic {file, line, column, end_line, end_column, severity, check, name, message,
 * kernel, notes: [{file, line, column, message}], fixes: [{file, start: {line, column},
 * end: {line, column}, replacement}]}.  Positions are 1-based, columns count bytes; a frontend
 * message has check and name null; an unknown position is 0 and an unknown file null.
 * The document is written one file at a time (stream.c): its kernels as they come, its
 * diagnostics after them.
 */
#include "report/report_int.h"

#include <cjson/cJSON.h>

static cJSON *str_or_null(const char *s) { return s ? cJSON_CreateString(s) : cJSON_CreateNull(); }

static cJSON *position(uint32_t line, uint32_t col)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "line", line);
    cJSON_AddNumberToObject(p, "column", col);
    return p;
}

void *pc_rep_json_diag(const pc_diag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "file", str_or_null(d->loc.file));
    cJSON_AddNumberToObject(o, "line", d->loc.line);
    cJSON_AddNumberToObject(o, "column", d->loc.col);
    cJSON_AddNumberToObject(o, "end_line", d->loc.end_line ? d->loc.end_line : d->loc.line);
    cJSON_AddNumberToObject(o, "end_column", d->loc.end_line ? d->loc.end_col : d->loc.col);
    cJSON_AddStringToObject(o, "severity", pc_severity_name(d->severity));
    cJSON_AddItemToObject(o, "check", str_or_null(d->id));
    cJSON_AddItemToObject(o, "name", str_or_null(d->name));
    cJSON_AddStringToObject(o, "message", d->message);
    cJSON_AddItemToObject(o, "kernel", str_or_null(d->kernel));
    if (d->promoted)
        cJSON_AddBoolToObject(o, "warnings_as_errors", true);
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (int i = 0; i < d->nnotes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddItemToObject(n, "file", str_or_null(d->notes[i].loc.file));
        cJSON_AddNumberToObject(n, "line", d->notes[i].loc.line);
        cJSON_AddNumberToObject(n, "column", d->notes[i].loc.col);
        cJSON_AddStringToObject(n, "message", d->notes[i].message);
        cJSON_AddItemToArray(notes, n);
    }
    cJSON *fixes = cJSON_AddArrayToObject(o, "fixes");
    for (int i = 0; i < d->nfixes; i++) {
        const pc_fix *f = &d->fixes[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddItemToObject(x, "file", str_or_null(f->range.file));
        cJSON_AddItemToObject(x, "start", position(f->range.line, f->range.col));
        cJSON_AddItemToObject(x, "end", position(f->range.end_line, f->range.end_col));
        cJSON_AddStringToObject(x, "replacement", f->replacement);
        cJSON_AddItemToArray(fixes, x);
    }
    return o;
}

/* The document around its two arrays (stream.c writes them one file at a time). */
char *pc_rep_json_skeleton(const pc_report_opts *o)
{
    (void)o;
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "version", 1);
    cJSON_AddItemToObject(doc, "kernels", cJSON_CreateRaw("\x01K"));
    cJSON_AddItemToObject(doc, "diagnostics", cJSON_CreateRaw("\x01D"));
    char *s = cJSON_Print(doc);
    char *copy = pc_mem_strdup(s ? s : "{}");
    cJSON_free(s);
    cJSON_Delete(doc);
    return copy;
}
