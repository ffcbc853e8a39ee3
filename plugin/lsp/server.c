/*
 * server.c - poolcheck-lsp's core: JSON-RPC dispatch, the LSP lifecycle, open documents,
 * settings, and the debounce that analyses only the latest version of a document once edits pause.
 *
 * Single-threaded: the main loop asks the transport for input with a timeout equal to the time
 * left until the next analysis is due (poll() on stdin in the binary), so rapid edits coalesce
 * without threads.  Requests that need an up-to-date analysis (hover, code actions, inlay hints,
 * code lenses, commands) analyse a pending document at once before answering.
 *
 * An analysis does not hold the loop up: the walk polls the cancel callback,
 * which reads what the client sent meanwhile without waiting (the transport's read with timeout
 * 0) and stops the analysis when that input makes it stale or must be answered now -- an edit or
 * close of a document, `shutdown`, `exit`, or the client hanging up.  The input is kept and
 * served as soon as the analysis has returned, and the document stays due for analysis.  The walk
 * also has a time budget (--max-walk-seconds), so not even a silent client waits for ever.
 *
 * Everything the server knows lives in its pc_lsp_server: there is no global mutable state, and
 * one pc_frontend serves every document (it keeps the C++ translation units for fast reparses).
 */
#define _POSIX_C_SOURCE 200809L
#include "lsp.h"
#include "poolcheck/json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h> /* strncasecmp */

/* ---- state ----------------------------------------------------------------------------------- */

typedef enum server_state {
    STATE_UNINITIALIZED,     /* before `initialize` */
    STATE_RUNNING,
    STATE_SHUTDOWN           /* after `shutdown`: only `exit` is served */
} server_state;

struct pc_lsp_doc {
    char *uri;
    char *path;              /* the file the URI names (what diagnostics are located in) */
    pc_lang lang;
    char *text;              /* the editor's current buffer */
    size_t len;
    int64_t version;
    bool pending;            /* text changed since the last analysis */
    int64_t due_ms;          /* when the pending analysis runs */
    /* The last analysis, of exactly `atext` (the buffer at `aversion`). */
    pc_file_result *result;
    char *atext;
    size_t alen;
    int64_t aversion;
    pc_lsp_lines alines;
    pc_arena *oarena;        /* the options `result` was analysed with (its provenance) */
};

/* Settings from initializationOptions and workspace/didChangeConfiguration:
 * {"set": ["KEY=VALUE"...], "bind": ["NAME=VALUE"...] or {"NAME": VALUE}, "configFile": path,
 *  "checks": globs, "warningsAsErrors": globs}, optionally wrapped in {"poolcheck": {...}}. */
typedef struct settings {
    pc_arena *arena;         /* option values, binding names */
    PC_VEC(pc_option) ext;   /* the config file's options, then the `set` ones (later wins) */
    PC_VEC(pc_binding) binds;
    char *config_file;
    pc_config_file *file;    /* the loaded config file (owns its options' strings) */
    char *checks;
    char *werror;
} settings;

struct pc_lsp_server {
    pc_lsp_transport tr;
    pc_lsp_server_opts opts;
    char *docs_base;
    pc_lsp_reader reader;
    pc_frontend *fe;
    server_state state;
    bool stop;               /* `exit` received, or the client is gone */
    int exit_code;
    pc_lsp_encoding enc;
    char *root;              /* workspace root (relative configFile paths start there) */
    PC_VEC(pc_lsp_doc *) docs;
    settings cfg;
    pc_config_cache *configs; /* .poolcheck.json files (and the configs they name), loaded once */
    char nul_stand_in;       /* this message's U+0000 escapes were parsed as this byte (0: none) */
    const pc_json *msg_json; /* the message being handled in the one reader's tree (numbers as
                                written, for the settings' bindings), else NULL */
    /* input read by the cancel callback during an analysis, fed to the reader after it (the reader
     * must not move while a message it handed out is being handled) */
    pc_sb early;
    long early_end;          /* the read during an analysis ended (EOF / error code), else 0 */
    bool cancel;             /* the running analysis was cancelled */
    bool parse_stopped;      /* the running C++ parse was cancelled for shutdown/exit/EOF */
    bool parses_abandoned;   /* a parse went past its bounds and runs on in its thread */
    int64_t last_poll_ms;
    bool client_apply_edit;  /* the client handles workspace/applyEdit (capabilities.workspace.applyEdit) */
    int64_t last_request_id; /* ids of the requests this server sends: 1, 2, ... */
    int64_t apply_edit_id;   /* the last workspace/applyEdit sent (0: none), to report a refusal */
};

/* ---- output ---------------------------------------------------------------------------------- */

/* Every outgoing message starts here, so "jsonrpc" comes first when someone reads the log. */
static cJSON *new_message(void)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "jsonrpc", "2.0");
    return m;
}

static void send_json(pc_lsp_server *s, cJSON *msg)
{
    char *body = cJSON_PrintUnformatted(msg);
    cJSON_Delete(msg);
    if (!body) {
        fputs("poolcheck-lsp: cannot serialise a message (out of memory)\n", stderr);
        return;
    }
    if (!pc_lsp_write_body(&s->tr, body, strlen(body))) {
        /* The client closed our stdout: nobody is listening, so stop serving. */
        fputs("poolcheck-lsp: cannot write to the client; stopping\n", stderr);
        s->stop = true;
    }
    cJSON_free(body);
}

static void send_result(pc_lsp_server *s, const cJSON *id, cJSON *result)
{
    cJSON *m = new_message();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
    cJSON_AddItemToObject(m, "result", result ? result : cJSON_CreateNull());
    send_json(s, m);
}

static void send_error(pc_lsp_server *s, const cJSON *id, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void send_error(pc_lsp_server *s, const cJSON *id, int code, const char *fmt, ...)
{
    pc_sb b = {0};
    va_list ap;
    va_start(ap, fmt);
    pc_sb_vprintf(&b, fmt, ap);
    va_end(ap);
    cJSON *m = new_message();
    cJSON_AddItemToObject(m, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
    cJSON *e = cJSON_AddObjectToObject(m, "error");
    cJSON_AddNumberToObject(e, "code", code);
    cJSON_AddStringToObject(e, "message", b.data ? b.data : "");
    pc_sb_free(&b);
    send_json(s, m);
}

static void send_notification(pc_lsp_server *s, const char *method, cJSON *params)
{
    cJSON *m = new_message();
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    send_json(s, m);
}

/* A server -> client request; returns its id (the client's response comes back as a message
 * with that id and no method: handle_response). */
static int64_t send_request(pc_lsp_server *s, const char *method, cJSON *params)
{
    int64_t id = ++s->last_request_id;
    cJSON *m = new_message();
    cJSON_AddNumberToObject(m, "id", (double)id);
    cJSON_AddStringToObject(m, "method", method);
    cJSON_AddItemToObject(m, "params", params);
    send_json(s, m);
    return id;
}

/* MessageType: 1 Error, 2 Warning, 3 Info, 4 Log. */
enum { MSG_ERROR = 1, MSG_WARNING = 2, MSG_INFO = 3, MSG_LOG = 4 };

/* A window/showMessage or window/logMessage notification of the formatted text, also on stderr
 * for the server log. */
static void notify_text(pc_lsp_server *s, const char *method, int type, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
static void notify_text(pc_lsp_server *s, const char *method, int type, const char *fmt, va_list ap)
{
    pc_sb b = {0};
    pc_sb_vprintf(&b, fmt, ap);
    fprintf(stderr, "poolcheck-lsp: %s\n", b.data);
    cJSON *p = cJSON_CreateObject();
    cJSON_AddNumberToObject(p, "type", type);
    cJSON_AddStringToObject(p, "message", b.data);
    send_notification(s, method, p);
    pc_sb_free(&b);
}

/* A message for the user: window/showMessage, and stderr for the server log. */
static void tell_user(pc_lsp_server *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void tell_user(pc_lsp_server *s, int type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    notify_text(s, "window/showMessage", type, fmt, ap);
    va_end(ap);
}

/* A line for the client's log (window/logMessage) and stderr: protocol problems the user did
 * not cause directly, e.g. a notification with bad params. */
static void log_client(pc_lsp_server *s, int type, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void log_client(pc_lsp_server *s, int type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    notify_text(s, "window/logMessage", type, fmt, ap);
    va_end(ap);
}

/* ---- settings -------------------------------------------------------------------------------- */

static void settings_free(settings *c)
{
    PC_VEC_FREE(c->ext);
    PC_VEC_FREE(c->binds);
    pc_mem_free(c->config_file);
    if (c->file)
        pc_cfg_config_file_free(c->file);
    pc_mem_free(c->checks);
    pc_mem_free(c->werror);
    if (c->arena)
        pc_arena_free(c->arena);
    memset(c, 0, sizeof *c);
}

/* Strings in a settings entry may be one string or a list of strings. */
static bool each_string(const cJSON *v, const char *what, pc_sb *problems,
                        bool (*fn)(settings *, const char *, pc_sb *), settings *c)
{
    if (!v || cJSON_IsNull(v))
        return true;
    if (cJSON_IsString(v))
        return fn(c, v->valuestring, problems);
    if (!cJSON_IsArray(v)) {
        pc_sb_printf(problems, "%s%s must be a list of strings", problems->len ? "; " : "", what);
        return false;
    }
    bool ok = true;
    const cJSON *it;
    cJSON_ArrayForEach(it, v)
    {
        if (!cJSON_IsString(it)) {
            pc_sb_printf(problems, "%s%s must be a list of strings", problems->len ? "; " : "",
                         what);
            ok = false;
        } else if (!fn(c, it->valuestring, problems)) {
            ok = false;
        }
    }
    return ok;
}

static bool add_set(settings *c, const char *arg, pc_sb *problems)
{
    pc_option opt;
    memset(&opt, 0, sizeof opt);
    char *err = NULL;
    if (!pc_cfg_parse_set(c->arena, arg, &opt, &err)) {
        pc_sb_printf(problems, "%sset '%s': %s", problems->len ? "; " : "", arg, err);
        pc_mem_free(err);
        return false;
    }
    opt.site = PC_SITE_COMMAND_LINE;   /* the editor's `set` is the command line's --set */
    opt.kernel = -1;
    PC_VEC_PUSH(c->ext, opt);
    return true;
}

/* A JSON number that is an integer in [lo, hi].  A double outside int64_t's range (1e300) must
 * not reach a cast: converting it is undefined behaviour (C11 6.3.1.4). */
static bool json_integer(const cJSON *v, double lo, double hi, int64_t *out)
{
    if (!cJSON_IsNumber(v))
        return false;
    double d = v->valuedouble;
    if (!(d >= lo && d <= hi) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
        return false;
    int64_t i = (int64_t)d;
    if ((double)i != d)
        return false;
    *out = i;
    return true;
}

/* A document's text as the client sent it: cJSON's strings end at their first NUL, so the
 * message was parsed with its U+0000 escapes standing in as s->nul_stand_in (handle_message);
 * here they become NULs again and the length is the whole text's.  Caller frees. */
static char *doc_text(const pc_lsp_server *s, const char *text, size_t *len)
{
    *len = strlen(text);
    char *t = pc_mem_strndup(text, *len);
    if (s->nul_stand_in)
        for (size_t i = 0; i < *len; i++)
            if (t[i] == s->nul_stand_in)
                t[i] = 0;
    return t;
}

static bool add_binding(settings *c, const char *name, size_t name_len, const char *value,
                        pc_sb *problems)
{
    char *err = NULL;
    pc_binding b;
    if (!pc_cfg_bind_parse_pair(c->arena, name, name_len, value, &b, &err)) {
        pc_sb_printf(problems, "%s%s", problems->len ? "; " : "", err);
        pc_mem_free(err);
        return false;
    }
    PC_VEC_PUSH(c->binds, b);
    return true;
}

static bool add_bind_text(settings *c, const char *arg, pc_sb *problems)
{
    const char *eq = strchr(arg, '=');
    if (!eq)
        return add_binding(c, arg, strlen(arg), NULL, problems);
    return add_binding(c, arg, (size_t)(eq - arg), eq + 1, problems);
}

static char *resolve_path(const pc_lsp_server *s, const char *p)
{
    pc_sb b = {0};
    if (p[0] != '/' && s->root)
        pc_sb_printf(&b, "%s/", s->root);
    pc_sb_append(&b, p);
    return pc_sb_take(&b);
}

static char *optional_string(const cJSON *o, const char *key, const char *what, pc_sb *problems)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || cJSON_IsNull(v))
        return NULL;
    if (!cJSON_IsString(v)) {
        pc_sb_printf(problems, "%s%s must be a string", problems->len ? "; " : "", what);
        return NULL;
    }
    return pc_mem_strdup(v->valuestring);
}

/* Replace the settings with those in `obj` (NULL or null: defaults).  Entries that are wrong are
 * left out and named in the message shown to the user; the rest apply. */
static void apply_settings(pc_lsp_server *s, const cJSON *obj, const pc_json *jobj)
{
    /* jobj: the same object in the one reader's tree (NULL when there is none) */
    const cJSON *wrapped = cJSON_GetObjectItemCaseSensitive(obj, "poolcheck");
    if (cJSON_IsObject(wrapped)) {
        obj = wrapped;
        jobj = pc_json_get(jobj, "poolcheck");
    }
    settings c;
    memset(&c, 0, sizeof c);
    c.arena = pc_arena_new();
    pc_sb problems = {0};
    if (obj && !cJSON_IsNull(obj) && !cJSON_IsObject(obj)) {
        pc_sb_append(&problems, "settings must be an object");
        obj = NULL;
    }
    if (obj) {
        char *cfg = optional_string(obj, "configFile", "configFile", &problems);
        if (cfg && *cfg) {
            c.config_file = resolve_path(s, cfg);
            char *err = NULL;
            c.file = pc_cfg_load_config_file(c.config_file, &err);
            if (!c.file)
                pc_sb_printf(&problems, "%sconfigFile: %s", problems.len ? "; " : "",
                             err ? err : "cannot be read");
            pc_mem_free(err);
            for (size_t i = 0; c.file && i < c.file->noptions; i++)
                PC_VEC_PUSH(c.ext, c.file->options[i]);
        }
        pc_mem_free(cfg);
        /* --set comes after the config file: later wins (docs/model.md 8). */
        each_string(cJSON_GetObjectItemCaseSensitive(obj, "set"), "set", &problems, add_set, &c);
        const cJSON *bind = cJSON_GetObjectItemCaseSensitive(obj, "bind");
        if (cJSON_IsObject(bind)) {
            /* {"NAME": integer}: the one JSON -> bindings conversion, exact int64 from the number
             * as written (the cJSON tree holds doubles); the valid entries apply */
            pc_bindings set = {0};
            pc_loc at;
            char *why = NULL;
            if (!pc_cfg_bindings_from_json(c.arena, pc_json_get(jobj, "bind"), "bind", true, &set, &at, &why))
                pc_sb_printf(&problems, "%s%s", problems.len ? "; " : "", why);
            pc_mem_free(why);
            for (size_t i = 0; i < set.count; i++)
                PC_VEC_PUSH(c.binds, set.items[i]);
        } else {
            each_string(bind, "bind", &problems, add_bind_text, &c);
        }
        c.checks = optional_string(obj, "checks", "checks", &problems);
        c.werror = optional_string(obj, "warningsAsErrors", "warningsAsErrors", &problems);
    }
    settings_free(&s->cfg);
    s->cfg = c;
    if (problems.len)
        tell_user(s, MSG_ERROR, "poolcheck settings: %s", problems.data);
    pc_sb_free(&problems);
}

/* ---- documents and analysis ------------------------------------------------------------------ */

static pc_lsp_doc *find_doc(pc_lsp_server *s, const char *uri)
{
    for (size_t i = 0; i < s->docs.count; i++)
        if (strcmp(s->docs.items[i]->uri, uri) == 0)
            return s->docs.items[i];
    return NULL;
}

static void doc_drop_result(pc_lsp_doc *d)
{
    if (d->result)
        pc_file_result_free(d->result);
    d->result = NULL;
    pc_mem_free(d->atext);
    d->atext = NULL;
    pc_lsp_lines_free(&d->alines);
    pc_arena_free(d->oarena);
    d->oarena = NULL;
}

static void doc_free(pc_lsp_doc *d)
{
    doc_drop_result(d);
    pc_mem_free(d->uri);
    pc_mem_free(d->path);
    pc_mem_free(d->text);
    pc_mem_free(d);
}

static void publish(pc_lsp_server *s, const pc_lsp_doc *d)
{
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "uri", d->uri);
    if (d->result) {
        cJSON_AddNumberToObject(p, "version", (double)d->aversion);
        pc_lsp_view v = {d->uri, d->path, d->result, &d->alines, s->enc, s->docs_base};
        cJSON_AddItemToObject(p, "diagnostics", pc_lsp_diagnostics_json(&v));
    } else {
        cJSON_AddItemToObject(p, "diagnostics", cJSON_CreateArray());
    }
    send_notification(s, "textDocument/publishDiagnostics", p);
}

/* Whether bytes the client sent hold a message that makes an analysis stale or that must be
 * answered at once.  A document text naming these methods cancels too, which only costs a rerun. */
static bool urgent_input(const char *data, size_t len)
{
    static const char *const methods[] = {"\"shutdown\"", "\"exit\"", "\"textDocument/didChange\"",
                                          "\"textDocument/didClose\"", "\"textDocument/didOpen\""};
    for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
        size_t n = strlen(methods[m]);
        for (size_t i = 0; i + n <= len; i++)
            if (data[i] == '"' && memcmp(data + i, methods[m], n) == 0)
                return true;
    }
    return false;
}

/* Read what the client sent meanwhile (every 5 ms at most) into s->early without waiting; false
 * when it is too soon to look again. */
static bool poll_client(pc_lsp_server *s)
{
    int64_t now = s->tr.now_ms(s->tr.ctx);
    if (now - s->last_poll_ms < 5)
        return false;
    s->last_poll_ms = now;
    char buf[65536];
    while (!s->early_end) {
        long n = s->tr.read(s->tr.ctx, buf, sizeof buf, 0);
        if (n == PC_LSP_READ_TIMEOUT)
            break;
        if (n <= 0) {
            s->early_end = n == 0 ? -3 : n; /* -3: EOF (0 would mean none) */
            break;
        }
        pc_sb_appendn(&s->early, buf, (size_t)n);
    }
    return true;
}

/* Whether the complete messages in s->early include a `shutdown` request or an `exit`
 * notification (framed and parsed: a document that merely mentions them does not count). */
static bool stop_requested(const pc_lsp_server *s)
{
    if (!s->early.len)
        return false;
    pc_lsp_reader r;
    pc_lsp_reader_init(&r);
    pc_lsp_reader_feed(&r, s->early.data, s->early.len);
    bool stop = false;
    for (;;) {
        const char *body;
        size_t len;
        char *err = NULL; /* a bad header: the server answers it once the parse is over */
        pc_lsp_frame f = pc_lsp_reader_next(&r, &body, &len, &err);
        pc_mem_free(err);
        if (f == PC_LSP_FRAME_NEED_MORE || stop)
            break;
        if (f != PC_LSP_FRAME_MESSAGE)
            continue;
        cJSON *msg = cJSON_ParseWithLength(body, len);
        const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
        stop = cJSON_IsString(method) &&
               (strcmp(method->valuestring, "shutdown") == 0 || strcmp(method->valuestring, "exit") == 0);
        cJSON_Delete(msg);
    }
    pc_lsp_reader_free(&r);
    return stop;
}

/* pc_parse_opts.cancelled, polled while libclang parses: an abandoned parse costs the session (its
 * translation units go with it), so only a client that is leaving stops one; an edit waits. */
static bool parse_cancelled(void *user)
{
    pc_lsp_server *s = user;
    if (!s->parse_stopped && poll_client(s))
        s->parse_stopped = s->early_end != 0 || stop_requested(s);
    return s->parse_stopped;
}

/* pc_analysis_opts.cancelled: the walk calls this every few thousand steps; true once what
 * arrived is urgent (urgent_input) or the client hung up. */
static bool analysis_cancelled(void *user)
{
    pc_lsp_server *s = user;
    if (s->cancel)
        return true;
    if (!poll_client(s))
        return false;
    s->cancel = s->early_end != 0 || urgent_input(s->early.data, s->early.len);
    return s->cancel;
}

/* After a parse went past its bounds, its thread still runs in the session's libclang state: the
 * server goes on in a new session (the old one is never freed: pc_frontend_free leaves it to that
 * thread), and the process ends with _exit (pc_lsp_server_parses_abandoned). */
static void retire_session_if_abandoned(pc_lsp_server *s)
{
    if (!pc_frontend_abandoned(s->fe))
        return;
    pc_frontend_free(s->fe);
    s->fe = pc_frontend_new();
    s->parses_abandoned = true;
}

bool pc_lsp_server_parses_abandoned(const pc_lsp_server *s) { return s->parses_abandoned; }

static void analyse(pc_lsp_server *s, pc_lsp_doc *d)
{
    d->pending = false;
    if (d->lang == PC_LANG_UNKNOWN)
        return;   /* not a language poolcheck reads: nothing to say */
    pc_check_opts o;
    pc_check_opts_init(&o);
    o.parse.lang = d->lang;
    o.parse.keep_tu = d->lang == PC_LANG_CPP;   /* reuse the TU and its preamble on reparse */
    pc_bindings set = {s->cfg.binds.items, s->cfg.binds.count};
    if (set.count) {
        o.analysis.binding_sets = &set;
        o.analysis.nbinding_sets = 1;
    }
    o.ext_opts = s->cfg.ext.items;
    o.next_opts = s->cfg.ext.count;
    o.checks = s->cfg.checks;
    o.werror = s->cfg.werror;
    /* The .poolcheck.json governing the file fills what the editor's settings leave open, the
     * same layering as the command line (pc_check_opts_layer). */
    pc_arena *oarena = NULL;
    const pc_project_config *proj = NULL;
    char *perr = NULL;
    if (!pc_config_cache_project(s->configs, d->path, NULL, true, &proj, &perr)) {
        tell_user(s, MSG_ERROR, "poolcheck: %s", perr ? perr : "cannot read the project file");
        pc_mem_free(perr);
        perr = NULL;
    }
    if (proj) {
        pc_opts_layers l = {0};
        l.project = proj;
        l.config = s->cfg.file;
        if (!l.config && proj->config_path &&
            !(l.config = pc_config_cache_config_file(s->configs, proj->config_path, &perr))) {
            tell_user(s, MSG_ERROR, "poolcheck: %s", perr ? perr : proj->config_path);
            pc_mem_free(perr);
        }
        size_t first_set = 0;
        while (first_set < s->cfg.ext.count && s->cfg.ext.items[first_set].site != PC_SITE_COMMAND_LINE)
            first_set++;
        l.set_opts = s->cfg.ext.items + first_set;
        l.nset_opts = s->cfg.ext.count - first_set;
        l.binds = s->cfg.binds.items;
        l.nbinds = s->cfg.binds.count;
        l.binds_source = "the editor's `bind` setting";
        l.checks_given = s->cfg.checks != NULL;
        l.werror_given = s->cfg.werror != NULL;
        oarena = pc_arena_new();
        pc_check_opts_layer(&o, &l, oarena);
    }
    char *err = NULL;
    int64_t t0 = s->tr.now_ms(s->tr.ctx);
    o.analysis.max_walk_seconds = s->opts.max_walk_seconds;
    o.analysis.cancelled = analysis_cancelled;
    o.analysis.cancel_user = s;
    o.parse.max_parse_seconds = s->opts.max_parse_seconds;
    o.parse.cancelled = parse_cancelled;
    o.parse.cancel_user = s;
    s->cancel = false;
    s->parse_stopped = false;
    s->last_poll_ms = t0;
    pc_file_result *fr = pc_check_file(s->fe, d->path, d->text, d->len, &o, &err);
    retire_session_if_abandoned(s);
    if (s->parse_stopped) {
        s->parse_stopped = false;
        s->cancel = true; /* as a cancelled walk: the client is leaving, nothing to publish */
    }
    if (s->cancel) {
        /* stale or interrupted: nothing is published; the document is analysed again once the
         * input that cancelled it has been served (an edit reschedules it itself) */
        if (fr)
            pc_file_result_free(fr);
        pc_mem_free(err);
        pc_arena_free(oarena);
        s->cancel = false;
        d->pending = true;
        d->due_ms = s->tr.now_ms(s->tr.ctx);
        if (s->opts.verbose)
            fprintf(stderr, "poolcheck-lsp: analysis of %s (version %lld) cancelled after %lld ms\n", d->path,
                    (long long)d->version, (long long)(s->tr.now_ms(s->tr.ctx) - t0));
        return;
    }
    if (!fr) {
        tell_user(s, MSG_ERROR, "poolcheck: %s", err);
        pc_mem_free(err);
        pc_arena_free(oarena);
        return;
    }
    doc_drop_result(d);
    d->oarena = oarena;
    d->result = fr;
    d->atext = pc_mem_strndup(d->text, d->len);
    d->alen = d->len;
    d->aversion = d->version;
    pc_lsp_lines_init(&d->alines, d->atext, d->alen);
    if (s->opts.verbose) {
        size_t n = 0;
        pc_diag_items(fr->sink, &n);
        fprintf(stderr, "poolcheck-lsp: analysed %s (version %lld) in %lld ms: %zu diagnostics\n",
                d->path, (long long)d->version, (long long)(s->tr.now_ms(s->tr.ctx) - t0), n);
    }
    publish(s, d);
}

static void schedule(pc_lsp_server *s, pc_lsp_doc *d, int delay_ms)
{
    d->pending = true;
    d->due_ms = s->tr.now_ms(s->tr.ctx) + delay_ms;
}

/* Bring a document's analysis up to date before answering a request about it. */
static void flush(pc_lsp_server *s, pc_lsp_doc *d)
{
    if (d->pending)
        analyse(s, d);
}

static void run_due(pc_lsp_server *s)
{
    int64_t now = s->tr.now_ms(s->tr.ctx);
    for (size_t i = 0; i < s->docs.count && !s->stop; i++)
        if (s->docs.items[i]->pending && s->docs.items[i]->due_ms <= now)
            analyse(s, s->docs.items[i]);
}

/* Milliseconds until the next pending analysis, or -1 when none is pending. */
static int next_timeout(pc_lsp_server *s)
{
    int64_t best = -1, now = s->tr.now_ms(s->tr.ctx);
    for (size_t i = 0; i < s->docs.count; i++) {
        const pc_lsp_doc *d = s->docs.items[i];
        if (!d->pending)
            continue;
        int64_t left = d->due_ms > now ? d->due_ms - now : 0;
        if (best < 0 || left < best)
            best = left;
    }
    return best > INT32_MAX ? INT32_MAX : (int)best;
}

/* ---- params helpers -------------------------------------------------------------------------- */

static const char *get_string(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool get_uint(const cJSON *o, const char *key, uint32_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0 ||
        v->valuedouble != (double)(uint32_t)v->valuedouble)
        return false;
    *out = (uint32_t)v->valuedouble;
    return true;
}

static bool get_pos(const cJSON *o, pc_lsp_pos *p)
{
    return cJSON_IsObject(o) && get_uint(o, "line", &p->line) &&
           get_uint(o, "character", &p->character);
}

/* params.textDocument.uri */
static const char *doc_uri(const cJSON *params)
{
    return get_string(cJSON_GetObjectItemCaseSensitive(params, "textDocument"), "uri");
}

static pc_lang lang_of(const char *language_id, const char *path)
{
    static const char *const cpp_ids[] = {"cpp", "c", "cuda-cpp", "objective-cpp"};
    if (language_id && strcmp(language_id, "python") == 0)
        return PC_LANG_PYTHON;
    for (size_t i = 0; language_id && i < sizeof cpp_ids / sizeof *cpp_ids; i++)
        if (strcmp(language_id, cpp_ids[i]) == 0)
            return PC_LANG_CPP;
    return pc_frontend_lang_of(path);
}

/* ---- requests -------------------------------------------------------------------------------- */

typedef struct rpc_error { int code; char message[256]; } rpc_error;

static cJSON *fail(rpc_error *e, int code, const char *msg)
{
    e->code = code;
    snprintf(e->message, sizeof e->message, "%s", msg);
    return NULL;
}

static bool offers_utf8(const cJSON *params)
{
    const cJSON *caps = cJSON_GetObjectItemCaseSensitive(params, "capabilities");
    const cJSON *general = cJSON_GetObjectItemCaseSensitive(caps, "general");
    const cJSON *encs = cJSON_GetObjectItemCaseSensitive(general, "positionEncodings");
    if (!cJSON_IsArray(encs))
        return false;
    const cJSON *it;
    cJSON_ArrayForEach(it, encs)
    {
        if (cJSON_IsString(it) && strcmp(it->valuestring, "utf-8") == 0)
            return true;
    }
    return false;
}

static cJSON *req_initialize(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    if (s->state != STATE_UNINITIALIZED)
        return fail(e, PC_LSP_INVALID_REQUEST, "initialize may be sent only once");
    if (!cJSON_IsObject(params))
        return fail(e, PC_LSP_INVALID_PARAMS, "initialize: params must be an InitializeParams object");
    s->enc = offers_utf8(params) ? PC_LSP_UTF8 : PC_LSP_UTF16;
    const cJSON *wcaps = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "capabilities"),
                                                          "workspace");
    s->client_apply_edit = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(wcaps, "applyEdit"));
    const char *root_uri = get_string(params, "rootUri");
    const char *root_path = get_string(params, "rootPath");
    pc_mem_free(s->root);
    s->root = root_uri ? pc_lsp_uri_to_path(root_uri) : root_path ? pc_mem_strdup(root_path) : NULL;
    s->state = STATE_RUNNING;
    apply_settings(s, cJSON_GetObjectItemCaseSensitive(params, "initializationOptions"),
                   pc_json_get(pc_json_get(s->msg_json, "params"), "initializationOptions"));

    cJSON *r = cJSON_CreateObject();
    cJSON *caps = cJSON_AddObjectToObject(r, "capabilities");
    cJSON_AddStringToObject(caps, "positionEncoding", pc_lsp_encoding_name(s->enc));
    cJSON *sync = cJSON_AddObjectToObject(caps, "textDocumentSync");
    cJSON_AddBoolToObject(sync, "openClose", 1);
    cJSON_AddNumberToObject(sync, "change", 1);   /* TextDocumentSyncKind.Full */
    cJSON *save = cJSON_AddObjectToObject(sync, "save");
    cJSON_AddBoolToObject(save, "includeText", 0);
    cJSON *ca = cJSON_AddObjectToObject(caps, "codeActionProvider");
    cJSON *kinds = cJSON_AddArrayToObject(ca, "codeActionKinds");
    cJSON_AddItemToArray(kinds, cJSON_CreateString("quickfix"));
    cJSON_AddBoolToObject(caps, "hoverProvider", 1);
    cJSON_AddBoolToObject(caps, "inlayHintProvider", 1);
    cJSON_AddBoolToObject(cJSON_AddObjectToObject(caps, "codeLensProvider"), "resolveProvider", 0);
    cJSON *cmds = cJSON_AddArrayToObject(cJSON_AddObjectToObject(caps, "executeCommandProvider"), "commands");
    cJSON_AddItemToArray(cmds, cJSON_CreateString(PC_LSP_CMD_APPLY_CONFIG));
    cJSON *info = cJSON_AddObjectToObject(r, "serverInfo");
    cJSON_AddStringToObject(info, "name", "poolcheck-lsp");
    cJSON_AddStringToObject(info, "version", pc_version());
    return r;
}

static cJSON *req_shutdown(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    (void)params;
    (void)e;
    s->state = STATE_SHUTDOWN;
    return NULL;   /* result: null */
}

/* The latest analysis of the open document uri, pending edits analysed first: true with *v,
 * false when the document is not open or could not be analysed. */
static bool analysed_view(pc_lsp_server *s, const char *uri, pc_lsp_view *v)
{
    pc_lsp_doc *d = find_doc(s, uri);
    if (!d)
        return false;
    flush(s, d);
    if (!d->result)
        return false;
    *v = (pc_lsp_view){d->uri, d->path, d->result, &d->alines, s->enc, s->docs_base};
    return true;
}

/* CodeActionContext.only: does it admit "quickfix"?  A kind admits its sub-kinds. */
static bool only_admits_quickfix(const cJSON *context)
{
    const cJSON *only = cJSON_GetObjectItemCaseSensitive(context, "only");
    if (!cJSON_IsArray(only))
        return true;
    const cJSON *it;
    cJSON_ArrayForEach(it, only)
    {
        if (!cJSON_IsString(it))
            continue;
        const char *k = it->valuestring;
        if (strcmp(k, "quickfix") == 0 || k[0] == 0)
            return true;
    }
    return false;
}

static cJSON *req_code_action(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    const char *uri = doc_uri(params);
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(params, "range");
    pc_lsp_pos start, end;
    if (!uri || !get_pos(cJSON_GetObjectItemCaseSensitive(range, "start"), &start) ||
        !get_pos(cJSON_GetObjectItemCaseSensitive(range, "end"), &end))
        return fail(e, PC_LSP_INVALID_PARAMS,
                    "textDocument/codeAction: expected textDocument.uri and range");
    const cJSON *context = cJSON_GetObjectItemCaseSensitive(params, "context");
    pc_lsp_view v;
    if (!only_admits_quickfix(context) || !analysed_view(s, uri, &v))
        return cJSON_CreateArray();
    const cJSON *named = cJSON_GetObjectItemCaseSensitive(context, "diagnostics");
    return pc_lsp_code_actions_json(&v, start, end, cJSON_IsArray(named) ? named : NULL);
}

static cJSON *req_hover(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    const char *uri = doc_uri(params);
    pc_lsp_pos pos;
    if (!uri || !get_pos(cJSON_GetObjectItemCaseSensitive(params, "position"), &pos))
        return fail(e, PC_LSP_INVALID_PARAMS, "textDocument/hover: expected textDocument.uri and position");
    pc_lsp_view v;
    if (!analysed_view(s, uri, &v))
        return NULL;
    return pc_lsp_hover_json(&v, pos);
}

static bool get_range(const cJSON *range, pc_lsp_pos *start, pc_lsp_pos *end)
{
    return get_pos(cJSON_GetObjectItemCaseSensitive(range, "start"), start) &&
           get_pos(cJSON_GetObjectItemCaseSensitive(range, "end"), end);
}

static cJSON *req_inlay_hint(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    const char *uri = doc_uri(params);
    pc_lsp_pos start, end;
    if (!uri || !get_range(cJSON_GetObjectItemCaseSensitive(params, "range"), &start, &end))
        return fail(e, PC_LSP_INVALID_PARAMS, "textDocument/inlayHint: expected textDocument.uri and range");
    pc_lsp_view v;
    if (!analysed_view(s, uri, &v))
        return cJSON_CreateArray();
    return pc_lsp_inlay_hints_json(&v, start, end);
}

static cJSON *req_code_lens(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    const char *uri = doc_uri(params);
    if (!uri)
        return fail(e, PC_LSP_INVALID_PARAMS, "textDocument/codeLens: expected textDocument.uri");
    pc_lsp_view v;
    if (!analysed_view(s, uri, &v))
        return cJSON_CreateArray();
    return pc_lsp_code_lenses_json(&v);
}

/* workspace/executeCommand of a code lens: PC_LSP_CMD_APPLY_CONFIG [uri, kernel(, scope)] sends
 * workspace/applyEdit with the kernel's suggested configuration and answers null.  The command ""
 * (the lens of a kernel with nothing to apply) does nothing. */
static cJSON *req_execute_command(pc_lsp_server *s, const cJSON *params, rpc_error *e)
{
    const char *cmd = get_string(params, "command");
    if (!cmd)
        return fail(e, PC_LSP_INVALID_PARAMS, "workspace/executeCommand: expected command");
    if (!*cmd)
        return NULL;
    if (strcmp(cmd, PC_LSP_CMD_APPLY_CONFIG) != 0) {
        e->code = PC_LSP_INVALID_PARAMS;
        snprintf(e->message, sizeof e->message, "workspace/executeCommand: unknown command '%.100s' (known: %s)", cmd,
                 PC_LSP_CMD_APPLY_CONFIG);
        return NULL;
    }
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    int nargs = cJSON_IsArray(args) ? cJSON_GetArraySize(args) : 0;
    const cJSON *a0 = cJSON_GetArrayItem(args, 0), *a1 = cJSON_GetArrayItem(args, 1), *a2 = cJSON_GetArrayItem(args, 2);
    if ((nargs != 2 && nargs != 3) || !cJSON_IsString(a0) || !cJSON_IsString(a1) || (a2 && !cJSON_IsString(a2)))
        return fail(e, PC_LSP_INVALID_PARAMS,
                    "workspace/executeCommand " PC_LSP_CMD_APPLY_CONFIG ": expected arguments [uri, kernel name] "
                    "(and the kernel's scope)");
    if (!s->client_apply_edit)
        return fail(e, PC_LSP_REQUEST_FAILED,
                    PC_LSP_CMD_APPLY_CONFIG ": the client does not accept workspace/applyEdit "
                    "(capabilities.workspace.applyEdit); use the PC009 quickfix instead");
    pc_lsp_doc *d = find_doc(s, a0->valuestring);
    if (!d) {
        e->code = PC_LSP_INVALID_PARAMS;
        snprintf(e->message, sizeof e->message, PC_LSP_CMD_APPLY_CONFIG ": %.150s is not open", a0->valuestring);
        return NULL;
    }
    flush(s, d);
    if (!d->result)
        return fail(e, PC_LSP_REQUEST_FAILED, PC_LSP_CMD_APPLY_CONFIG ": the document has not been analysed");
    pc_lsp_view v = {d->uri, d->path, d->result, &d->alines, s->enc, s->docs_base};
    char *label = NULL, *why = NULL;
    cJSON *edit = pc_lsp_suggested_edit_json(&v, a1->valuestring, a2 ? a2->valuestring : NULL, &label, &why);
    if (!edit) {
        e->code = PC_LSP_REQUEST_FAILED;
        snprintf(e->message, sizeof e->message, PC_LSP_CMD_APPLY_CONFIG ": %s", why ? why : "nothing to apply");
        pc_mem_free(why);
        return NULL;
    }
    cJSON *p = cJSON_CreateObject();
    cJSON_AddStringToObject(p, "label", label);
    cJSON_AddItemToObject(p, "edit", edit);
    pc_mem_free(label);
    s->apply_edit_id = send_request(s, "workspace/applyEdit", p);
    return NULL;   /* result: null */
}

/* A response of the client to a request of ours.  Only workspace/applyEdit's says anything: an
 * edit the editor refused is told to the user; everything else is ignored. */
static void handle_response(pc_lsp_server *s, const cJSON *id, const cJSON *msg)
{
    if (!s->apply_edit_id || !cJSON_IsNumber(id) || id->valuedouble != (double)s->apply_edit_id)
        return;
    s->apply_edit_id = 0;
    const cJSON *result = cJSON_GetObjectItemCaseSensitive(msg, "result");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(msg, "error");
    const cJSON *applied = cJSON_GetObjectItemCaseSensitive(result, "applied");
    if (err) {
        const char *m = get_string(err, "message");
        log_client(s, MSG_WARNING, "workspace/applyEdit failed: %s", m ? m : "(no message)");
    } else if (cJSON_IsFalse(applied)) {
        const char *why = get_string(result, "failureReason");
        tell_user(s, MSG_WARNING, "poolcheck: the editor did not apply the suggested configuration%s%s",
                  why ? ": " : "", why ? why : "");
    }
}

/* ---- notifications --------------------------------------------------------------------------- */

static void note_exit(pc_lsp_server *s, const cJSON *params)
{
    (void)params;
    s->exit_code = s->state == STATE_SHUTDOWN ? 0 : 1;
    s->stop = true;
}

static void note_did_open(pc_lsp_server *s, const cJSON *params)
{
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(params, "textDocument");
    const char *uri = get_string(td, "uri"), *text = get_string(td, "text");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(td, "version");
    if (!uri || !text) {
        log_client(s, MSG_ERROR, "textDocument/didOpen: expected textDocument.uri and .text");
        return;
    }
    pc_lsp_doc *d = find_doc(s, uri);
    if (!d) {
        d = pc_mem_calloc(1, sizeof *d);
        d->uri = pc_mem_strdup(uri);
        d->path = pc_lsp_uri_to_path(uri);
        PC_VEC_PUSH(s->docs, d);
    }
    d->lang = lang_of(get_string(td, "languageId"), d->path);
    pc_mem_free(d->text);
    d->text = doc_text(s, text, &d->len);
    /* LSP's `integer` is 32-bit; anything else is reported, not cast */
    int64_t v = 0;
    if (version && !json_integer(version, -2147483648.0, 2147483647.0, &v))
        log_client(s, MSG_ERROR, "textDocument/didOpen: textDocument.version must be an integer in [-2^31, 2^31)");
    d->version = v;
    schedule(s, d, s->opts.debounce_ms);
}

/* Apply one TextDocumentContentChangeEvent.  With Full sync it is the whole text; a ranged
 * change (a client that syncs incrementally anyway) is spliced in. */
static bool apply_change(pc_lsp_server *s, pc_lsp_doc *d, const cJSON *change)
{
    const char *text = get_string(change, "text");
    if (!text)
        return false;
    const cJSON *range = cJSON_GetObjectItemCaseSensitive(change, "range");
    size_t tlen;
    char *whole = doc_text(s, text, &tlen);
    if (!range) {
        pc_mem_free(d->text);
        d->text = whole;
        d->len = tlen;
        return true;
    }
    text = whole;
    pc_lsp_pos a, b;
    if (!get_pos(cJSON_GetObjectItemCaseSensitive(range, "start"), &a) ||
        !get_pos(cJSON_GetObjectItemCaseSensitive(range, "end"), &b))
    {
        pc_mem_free(whole);
        return false;
    }
    pc_lsp_lines l;
    pc_lsp_lines_init(&l, d->text, d->len);
    uint32_t la, ca, lb, cb;
    pc_lsp_from_lsp(&l, a, s->enc, &la, &ca);
    pc_lsp_from_lsp(&l, b, s->enc, &lb, &cb);
    size_t from = l.starts[la - 1] + ca - 1, to = l.starts[lb - 1] + cb - 1;
    pc_lsp_lines_free(&l);
    if (to < from) {
        pc_mem_free(whole);
        return false;
    }
    pc_sb nb = {0};
    pc_sb_appendn(&nb, d->text, from);
    pc_sb_appendn(&nb, text, tlen);
    pc_sb_appendn(&nb, d->text + to, d->len - to);
    pc_mem_free(whole);
    pc_mem_free(d->text);
    d->len = nb.len;
    d->text = pc_sb_take(&nb);
    return true;
}

static void note_did_change(pc_lsp_server *s, const cJSON *params)
{
    const char *uri = doc_uri(params);
    const cJSON *changes = cJSON_GetObjectItemCaseSensitive(params, "contentChanges");
    pc_lsp_doc *d = uri ? find_doc(s, uri) : NULL;
    if (!d || !cJSON_IsArray(changes)) {
        log_client(s, MSG_ERROR, "textDocument/didChange: %s",
                   !uri ? "expected textDocument.uri"
                   : !d ? "document is not open"
                        : "expected contentChanges");
        return;
    }
    const cJSON *ch;
    cJSON_ArrayForEach(ch, changes)
    {
        if (!apply_change(s, d, ch)) {
            log_client(s, MSG_ERROR, "textDocument/didChange: a content change is malformed");
            return;
        }
    }
    const cJSON *version =
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(params, "textDocument"),
                                         "version");
    int64_t v;
    if (json_integer(version, -2147483648.0, 2147483647.0, &v))
        d->version = v;
    else if (version)
        log_client(s, MSG_ERROR, "textDocument/didChange: textDocument.version must be an integer in [-2^31, 2^31)");
    schedule(s, d, s->opts.debounce_ms);
}

static void note_did_save(pc_lsp_server *s, const cJSON *params)
{
    const char *uri = doc_uri(params);
    pc_lsp_doc *d = uri ? find_doc(s, uri) : NULL;
    /* The buffer is what we analyse, and saving does not change it; but a saved file is the
     * moment users expect a fresh look (a config file beside it may have changed), so analyse
     * now rather than after the debounce. */
    if (d)
        schedule(s, d, 0);
}

static void note_did_close(pc_lsp_server *s, const cJSON *params)
{
    const char *uri = doc_uri(params);
    for (size_t i = 0; uri && i < s->docs.count; i++) {
        pc_lsp_doc *d = s->docs.items[i];
        if (strcmp(d->uri, uri) != 0)
            continue;
        s->docs.items[i] = s->docs.items[--s->docs.count];
        doc_drop_result(d);
        publish(s, d);   /* no result: an empty list clears the editor's markers */
        pc_frontend_release(s->fe, d->path);   /* a long session must not keep every closed TU */
        doc_free(d);
        return;
    }
}

static void note_did_change_configuration(pc_lsp_server *s, const cJSON *params)
{
    apply_settings(s, cJSON_GetObjectItemCaseSensitive(params, "settings"),
                   pc_json_get(pc_json_get(s->msg_json, "params"), "settings"));
    for (size_t i = 0; i < s->docs.count; i++)
        schedule(s, s->docs.items[i], 0);
}

static void note_initialized(pc_lsp_server *s, const cJSON *params)
{
    (void)s;
    (void)params;
}

/* ---- dispatch -------------------------------------------------------------------------------- */

static const struct {
    const char *method;
    cJSON *(*fn)(pc_lsp_server *, const cJSON *, rpc_error *);
} requests[] = {
    {"initialize", req_initialize},
    {"shutdown", req_shutdown},
    {"textDocument/codeAction", req_code_action},
    {"textDocument/hover", req_hover},
    {"textDocument/inlayHint", req_inlay_hint},
    {"textDocument/codeLens", req_code_lens},
    {"workspace/executeCommand", req_execute_command},
};

static const struct {
    const char *method;
    void (*fn)(pc_lsp_server *, const cJSON *);
} notifications[] = {
    {"initialized", note_initialized},
    {"exit", note_exit},
    {"textDocument/didOpen", note_did_open},
    {"textDocument/didChange", note_did_change},
    {"textDocument/didSave", note_did_save},
    {"textDocument/didClose", note_did_close},
    {"workspace/didChangeConfiguration", note_did_change_configuration},
};

static void handle_request(pc_lsp_server *s, const cJSON *id, const char *method,
                           const cJSON *params)
{
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++) {
        if (strcmp(method, requests[i].method) != 0)
            continue;
        if (s->state == STATE_UNINITIALIZED && requests[i].fn != req_initialize) {
            send_error(s, id, PC_LSP_SERVER_NOT_INITIALIZED,
                       "%s: the server is not initialized (send initialize first)", method);
            return;
        }
        if (s->state == STATE_SHUTDOWN) {
            send_error(s, id, PC_LSP_INVALID_REQUEST, "%s: the server is shut down", method);
            return;
        }
        rpc_error e = {0, ""};
        cJSON *r = requests[i].fn(s, params, &e);
        if (e.code)
            send_error(s, id, e.code, "%s", e.message);
        else
            send_result(s, id, r);
        return;
    }
    if (s->state == STATE_UNINITIALIZED)
        send_error(s, id, PC_LSP_SERVER_NOT_INITIALIZED,
                   "%s: the server is not initialized (send initialize first)", method);
    else
        send_error(s, id, PC_LSP_METHOD_NOT_FOUND, "unknown method '%s'", method);
}

static void handle_notification(pc_lsp_server *s, const char *method, const cJSON *params)
{
    for (size_t i = 0; i < sizeof notifications / sizeof *notifications; i++) {
        if (strcmp(method, notifications[i].method) != 0)
            continue;
        /* Before initialize every notification except exit is dropped; after shutdown too. */
        if (s->state != STATE_RUNNING && notifications[i].fn != note_exit)
            return;
        notifications[i].fn(s, params);
        return;
    }
    /* Unknown notifications ($/cancelRequest, $/setTrace, ...) are ignored, as LSP asks. */
}

/* Does the body hold a JSON escape \u0000?  In valid JSON a backslash only occurs in a string,
 * where backslashes pair up: one starts an escape when an even number of backslashes precede it. */
static bool escaped_nul_at(const char *body, size_t len, size_t i)
{
    if (body[i] != '\\' || len - i < 6 || body[i + 1] != 'u' || memcmp(body + i + 2, "0000", 4) != 0)
        return false;
    size_t k = i;
    while (k > 0 && body[k - 1] == '\\')
        k--;
    return (i - k) % 2 == 0;
}

/* cJSON's strings end at their first NUL, so a document text holding U+0000 would be analysed
 * only up to it.  The body is parsed with each \u0000 escape as \u00XX for a control character
 * XX that appears nowhere in the message (not as a byte, not escaped), and doc_text turns it back
 * into NUL: the text is then analysed whole, as the CLI reads a file (Python refuses it with
 * "the file contains a NUL byte", clang reads past it).  NULL when nothing needs replacing. */
static char *stand_in_nuls(pc_lsp_server *s, const char *body, size_t len)
{
    s->nul_stand_in = 0;
    bool any = false;
    for (size_t i = 0; i < len && !any; i++)
        any = escaped_nul_at(body, len, i);
    if (!any)
        return NULL;
    for (int c = 1; c < 0x20 && !s->nul_stand_in; c++) {
        char esc[7];
        snprintf(esc, sizeof esc, "\\u%04x", c);
        bool used = memchr(body, c, len) != NULL;
        for (size_t i = 0; i + 6 <= len && !used; i++)
            used = body[i] == '\\' && strncasecmp(body + i, esc, 6) == 0;
        if (!used)
            s->nul_stand_in = (char)c;
    }
    if (!s->nul_stand_in)
        return NULL; /* every control character is in use: the text stays cut at its NUL */
    char *copy = pc_mem_strndup(body, len);
    for (size_t i = 0; i + 6 <= len; i++)
        if (escaped_nul_at(body, len, i))
        {
            static const char hex[] = "0123456789abcdef";
            copy[i + 4] = hex[(unsigned char)s->nul_stand_in >> 4];
            copy[i + 5] = hex[(unsigned char)s->nul_stand_in & 15];
        }
    return copy;
}

/* One message body: parse, validate the JSON-RPC envelope, dispatch. */
static void handle_message(pc_lsp_server *s, const char *body, size_t len)
{
    char *patched = stand_in_nuls(s, body, len);
    if (patched)
        body = patched;
    /* the one strict reader (poolcheck/json.h), then the cJSON tree the handlers walk */
    pc_json_pos at = {0};
    char *why = NULL;
    pc_json_doc *doc = pc_json_parse(body, len, PC_JSON_ALLOW_NUL, &at, &why);
    cJSON *msg = doc ? pc_json_to_cjson(pc_json_root(doc)) : NULL;
    s->msg_json = msg ? pc_json_root(doc) : NULL;
    if (!msg) {
        pc_json_free(doc);
        send_error(s, NULL, PC_LSP_PARSE_ERROR, "Parse error: invalid JSON at byte %zu of %zu (line %u, column %u: %s)",
                   at.off, len, at.line, at.col, why ? why : "not representable");
        pc_mem_free(why);
        pc_mem_free(patched);
        return;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
    if (!cJSON_IsObject(msg)) {
        send_error(s, NULL, PC_LSP_INVALID_REQUEST, "Invalid Request: %s",
                   cJSON_IsArray(msg) ? "batches are not part of LSP" : "not a JSON object");
    } else if (id && !cJSON_IsNumber(id) && !cJSON_IsString(id) && !cJSON_IsNull(id)) {
        send_error(s, NULL, PC_LSP_INVALID_REQUEST, "Invalid Request: id must be a number or a string");
    } else if (!cJSON_IsString(ver) || strcmp(ver->valuestring, "2.0") != 0) {
        send_error(s, id, PC_LSP_INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
    } else if (!method) {
        /* A response to a request of ours (workspace/applyEdit), else a message with no method. */
        if (!id || (!cJSON_GetObjectItemCaseSensitive(msg, "result") &&
                    !cJSON_GetObjectItemCaseSensitive(msg, "error")))
            send_error(s, id, PC_LSP_INVALID_REQUEST, "Invalid Request: no \"method\"");
        else
            handle_response(s, id, msg);
    } else if (!cJSON_IsString(method)) {
        send_error(s, id, PC_LSP_INVALID_REQUEST, "Invalid Request: \"method\" must be a string");
    } else {
        const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
        if (cJSON_IsNull(params))
            params = NULL; /* "params": null, as clients send with shutdown and exit: no params */
        if (params && !cJSON_IsObject(params) && !cJSON_IsArray(params)) {
            if (id)
                send_error(s, id, PC_LSP_INVALID_REQUEST,
                           "Invalid Request: \"params\" must be an object or an array");
        } else if (id) {
            handle_request(s, id, method->valuestring, params);
        } else {
            handle_notification(s, method->valuestring, params);
        }
    }
    cJSON_Delete(msg);
    s->msg_json = NULL;
    pc_json_free(doc);
    pc_mem_free(patched);
    s->nul_stand_in = 0;
}

/* ---- lifecycle ------------------------------------------------------------------------------- */

void pc_lsp_server_opts_init(pc_lsp_server_opts *o)
{
    memset(o, 0, sizeof *o);
    o->debounce_ms = 150;
    o->max_walk_seconds = PC_LSP_DEFAULT_MAX_WALK_SECONDS;
    o->max_parse_seconds = PC_LSP_DEFAULT_MAX_PARSE_SECONDS;
}

pc_lsp_server *pc_lsp_server_new(const pc_lsp_transport *t, const pc_lsp_server_opts *o)
{
    pc_lsp_server *s = pc_mem_calloc(1, sizeof *s);
    s->tr = *t;
    if (o)
        s->opts = *o;
    else
        pc_lsp_server_opts_init(&s->opts);
    if (s->opts.debounce_ms < 0)
        s->opts.debounce_ms = 0;
    s->docs_base = s->opts.docs_base ? pc_mem_strdup(s->opts.docs_base) : NULL;
    s->opts.docs_base = NULL;
    pc_lsp_reader_init(&s->reader);
    s->fe = pc_frontend_new();
    s->exit_code = 1;
    s->cfg.arena = pc_arena_new();
    s->configs = pc_config_cache_new();
    return s;
}

void pc_lsp_server_free(pc_lsp_server *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->docs.count; i++)
        doc_free(s->docs.items[i]);
    PC_VEC_FREE(s->docs);
    settings_free(&s->cfg);
    pc_config_cache_free(s->configs);
    pc_frontend_free(s->fe);
    pc_lsp_reader_free(&s->reader);
    pc_mem_free(s->root);
    pc_mem_free(s->docs_base);
    pc_sb_free(&s->early);
    pc_mem_free(s);
}

/* Serve every complete message the reader holds. */
static void drain(pc_lsp_server *s)
{
    for (;;) {
        const char *body;
        size_t len;
        char *err = NULL;
        pc_lsp_frame f = pc_lsp_reader_next(&s->reader, &body, &len, &err);
        if (f == PC_LSP_FRAME_NEED_MORE || s->stop) {
            pc_mem_free(err);
            break;
        }
        if (f == PC_LSP_FRAME_BAD)
            send_error(s, NULL, PC_LSP_PARSE_ERROR, "Parse error: bad message header: %s", err);
        else
            handle_message(s, body, len);
        pc_mem_free(err);
    }
}

/* Serve the messages, then the analyses due, as long as analyses leave input read meanwhile. */
static void serve(pc_lsp_server *s)
{
    for (;;) {
        if (s->early.len) {
            pc_lsp_reader_feed(&s->reader, s->early.data, s->early.len);
            s->early.len = 0;
        }
        drain(s);
        if (s->stop)
            break;
        if (s->early.len)
            continue;
        run_due(s);
        if (s->stop || !s->early.len)
            break;
    }
}

int pc_lsp_server_run(pc_lsp_server *s)
{
    char buf[65536];
    while (!s->stop) {
        long n = s->early_end ? (s->early_end == -3 ? PC_LSP_READ_EOF : s->early_end)
                              : s->tr.read(s->tr.ctx, buf, sizeof buf, next_timeout(s));
        if (n == PC_LSP_READ_TIMEOUT) {
            serve(s);
            continue;
        }
        if (n <= 0) {
            /* The client went away without `exit`: the same status `exit` would give. */
            if (n == PC_LSP_READ_ERROR)
                fprintf(stderr, "poolcheck-lsp: cannot read from the client: %s\n", strerror(errno));
            s->exit_code = s->state == STATE_SHUTDOWN ? 0 : 1;
            break;
        }
        pc_lsp_reader_feed(&s->reader, buf, (size_t)n);
        serve(s);
    }
    return s->exit_code;
}
