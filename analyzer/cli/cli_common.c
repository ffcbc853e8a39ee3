/* cli_common.c - options shared by `check`, `logs --kernel` and `plan`, and the per-file
 * analysis they all run. */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include "poolcheck/json.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char pc_cli_common_help[] =
    "Analysis options:\n"
    "  --bind NAME=VALUE         bind a symbol: a parameter dim (x.shape[0]=1000) or a named constant\n"
    "  --shapes FILE             JSON list of binding objects; the prediction is the element-wise maximum\n"
    "  --set KEY=VALUE           set a runtime option (last word; repeatable), e.g.\n"
    "                            --set stitch_function_num_per_pool=64,1,1\n"
    "  --config FILE             tile_fwk_config.json whose \"runtime\" section applies\n"
    "  --config-file FILE        the project file to use instead of the nearest .poolcheck.json\n"
    "  --no-config-lookup        do not look for .poolcheck.json\n"
    "  --inner-policy=boundary|all  which intermediates count as root_inner (default boundary)\n"
    "  --assemble-headroom N     slots added to a needed assemble pool when suggesting (default 1)\n"
    "  --max-walk-seconds S      stop walking a kernel's instances after S seconds; the depths are\n"
    "                            then bounds (PC012). Default 60, 0 = no limit\n"
    "  --max-parse-seconds S     give up parsing a C++ file after S seconds, or once poolcheck holds\n"
    "                            3/4 of the memory (at most 8 GB): exit 2. Default 300, 0 = no limit\n"
    "  --checks=GLOBS            checks to run, by id or name; '-' negates (e.g. 'PC*,-PC009')\n"
    "  --warnings-as-errors=GLOBS  promote matching warnings to errors\n"
    "  --lang=cpp|python         force the language (default: from the extension)\n"
    "Python options:\n"
    "  --python-path DIR         also look for imported project modules in DIR (repeatable)\n"
    "C++ options:\n"
    "  -p DIR                    directory holding compile_commands.json (real headers)\n"
    "  --extra-arg=ARG           append a compiler argument (repeatable)\n"
    "  --extra-arg-before=ARG    prepend a compiler argument (repeatable)\n"
    "  --show-parse-errors       show clang's own errors (hidden in stub-header mode)\n"
    "  --no-cache                parse the stub header's text; do not load or write its precompiled\n"
    "                            form (cache: $POOLCHECK_CACHE_DIR, else ~/.cache/poolcheck)\n"
    "  -- ARGS...                a compiler command line for the files\n";

void pc_cli_error(const char *fmt, ...)
{
    /* the message quotes what the user typed (a kernel name, a path, an option value): an ESC in
     * it would reach the terminal, so control characters are shown escaped */
    va_list ap;
    va_start(ap, fmt);
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *text = n >= 0 ? pc_mem_alloc((size_t)n + 1) : NULL;
    if (text)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    char *shown = text ? pc_visible(text) : NULL;
    fprintf(stderr, "poolcheck: error: %s\n", shown ? shown : text ? text : fmt);
    pc_mem_free(shown);
    pc_mem_free(text);
}

const char *const pc_cli_emit_config_choices[] = {"json", "python", "cpp", NULL};
const char *const pc_cli_text_json_choices[] = {"text", "json", NULL};

int pc_cli_choice(const char *option, const char *value, const char *const choices[])
{
    for (int i = 0; choices[i]; i++)
        if (strcmp(value, choices[i]) == 0)
            return i;
    pc_sb list = {0};
    for (int i = 0; choices[i]; i++)
        pc_sb_printf(&list, "%s%s", i ? ", " : "", choices[i]);
    pc_cli_error("unknown %s '%s' (%s)", option, value, list.data ? list.data : "");
    pc_sb_free(&list);
    return -1;
}

/* The long options a help text names: every `--name` in it, where it starts a word.  The help is
 * the list of what a command takes, so a suggestion cannot offer an option the command lacks, and
 * a new option is offered as soon as its help line is written. */
typedef PC_VEC(char *) name_vec;

static void help_options(const char *help, name_vec *out)
{
    for (const char *p = help; p && (p = strstr(p, "--")) != NULL;) {
        bool word_start = p == help || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '(' || p[-1] == '[' ||
                          p[-1] == '|' || p[-1] == '\'';
        const char *q = p + 2;
        while ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-')
            q++;
        if (word_start && q - p > 3) /* "--" alone is the compiler-arguments separator */
            PC_VEC_PUSH(*out, pc_mem_strndup(p + 2, (size_t)(q - p - 2)));
        p = q;
    }
}

void pc_cli_unknown_option(const char *command, const char *arg, const char *help, const char *more_help)
{
    /* compare names without their dashes and value: -checks=X and --chekcs=X both mean --checks */
    const char *name = arg;
    while (*name == '-')
        name++;
    const char *eq = strchr(name, '=');
    char *typed = pc_mem_strndup(name, eq ? (size_t)(eq - name) : strlen(name));
    name_vec known = {0};
    help_options(help, &known);
    help_options(more_help, &known);
    const char *near = pc_cfg_nearest(typed, (const char *const *)known.items, known.count, -1);
    if (near && strcmp(near, typed) == 0 && !eq && name - arg == 2)
        /* the option itself, as the last word or without the '=' it needs */
        pc_cli_error("option '%s' needs a value (%s=VALUE; see 'poolcheck %s --help')", arg, arg, command);
    else if (near)
        pc_cli_error("unknown option '%s'; did you mean '--%s%s'?", arg, near, eq ? eq : "");
    else
        pc_cli_error("unknown option '%s' (see 'poolcheck %s --help')", arg, command);
    for (size_t i = 0; i < known.count; i++)
        pc_mem_free(known.items[i]);
    PC_VEC_FREE(known);
    pc_mem_free(typed);
}

static bool same_file_as(const struct stat *o, const char *path)
{
    struct stat st;
    return path && *path && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == o->st_dev &&
           st.st_ino == o->st_ino;
}

bool pc_cli_output_is_input(const char *option, const char *out, int argc, char **argv, char *const *paths, size_t n)
{
    struct stat o;
    if (!out || stat(out, &o) != 0 || !S_ISREG(o.st_mode))
        return false; /* nothing there yet, or not a file a source could be */
    const char *hit = NULL;
    for (int j = 1; j < argc && !hit; j++) {
        const char *w = argv[j];
        size_t len = strlen(w);
        if (out >= w && out <= w + len)
            continue; /* the output's own word */
        const char *eq = w[0] == '-' && w[1] == '-' ? strchr(w, '=') : NULL;
        if (same_file_as(&o, eq ? eq + 1 : w))
            hit = w;
    }
    for (size_t k = 0; k < n && !hit; k++)
        if (same_file_as(&o, paths[k]))
            hit = paths[k];
    if (!hit)
        return false;
    pc_cli_error("refusing to write %s '%s': it is the file '%s' this command reads", option, out, hit);
    return true;
}

void pc_cli_no_such_kernel(const pc_model *m, const char *name, const char *file)
{
    if (!m->nkernels) {
        pc_cli_error("no kernel named '%s' in '%s' (it has no kernel)", name, file);
        return;
    }
    const char **names = pc_mem_calloc((size_t)m->nkernels + 1, sizeof *names);
    pc_sb list = {0};
    for (int k = 0; k < m->nkernels; k++) {
        names[k] = m->kernels[k].name;
        pc_sb_printf(&list, "%s'%s'", k ? ", " : "", m->kernels[k].name);
    }
    const char *near = pc_cfg_nearest(name, names, (size_t)m->nkernels, -1);
    if (near) /* the other kernels after the question, as `rule` puts its pointer */
        pc_cli_error("no kernel named '%s' in '%s'; did you mean '%s'?%s%s%s", name, file, near,
                     m->nkernels > 1 ? " (it has " : "", m->nkernels > 1 ? list.data : "", m->nkernels > 1 ? ")" : "");
    else
        pc_cli_error("no kernel named '%s' in '%s'; it has %s", name, file, list.data);
    pc_sb_free(&list);
    pc_mem_free(names);
}

bool pc_cli_close_output(FILE *f, const char *name)
{
    errno = 0;
    bool bad = ferror(f) != 0;    /* an earlier write failed, maybe in a flush of a full buffer */
    bad |= (f == stdout ? fflush(f) : fclose(f)) != 0;
    if (bad)
        pc_cli_error("cannot write '%s': %s", name, errno ? strerror(errno) : "write error");
    return !bad;
}

void pc_cli_common_init(pc_cli_common *c)
{
    memset(c, 0, sizeof *c);
    c->arena = pc_arena_new();
    c->configs = pc_config_cache_new();
    c->inner_policy = PC_INNER_BOUNDARY;
    c->max_walk_seconds = PC_DEFAULT_MAX_WALK_SECONDS;
    c->max_parse_seconds = PC_DEFAULT_MAX_PARSE_SECONDS;
    c->assemble_headroom = 1;
}

void pc_cli_common_free(pc_cli_common *c)
{
    pc_config_cache_free(c->configs);
    PC_VEC_FREE(c->binds);
    PC_VEC_FREE(c->binding_sets);
    PC_VEC_FREE(c->binding_set_sources);
    PC_VEC_FREE(c->set_opts);
    PC_VEC_FREE(c->extra_args);
    PC_VEC_FREE(c->extra_args_before);
    PC_VEC_FREE(c->python_path);
    PC_VEC_FREE(c->kernel_names);
    PC_VEC_FREE(c->compiler_args);
    pc_arena_free(c->arena);
}

/* `--opt=value` or `--opt value`.  Returns the value or NULL when argv[*i] is not this option. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != 0)
        return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return NULL;
    }
    return argv[++*i];
}

const char *pc_cli_opt_value(int argc, char **argv, int *i, const char *name, bool *missing)
{
    return opt_value(argc, argv, i, name, missing);
}

static bool parse_int(const char *s, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 0);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

static bool parse_binding(pc_cli_common *c, const char *arg, pc_binding *b)
{
    char *err = NULL;
    if (!pc_cfg_bind_parse(c->arena, arg, b, &err)) {
        pc_cli_error("--%s", err);
        pc_mem_free(err);
        return false;
    }
    return true;
}

static bool load_shapes(pc_cli_common *c, const char *path)
{
    char *err = NULL;
    size_t len;
    char *text = pc_read_file(path, &len, &err);
    if (!text) {
        pc_cli_error("--shapes: %s", err);
        pc_mem_free(err);
        return false;
    }
    /* the one strict reader (poolcheck/json.h); a name given twice in one set is an error, as
     * `bind` in .poolcheck.json says "duplicate binding" */
    pc_json_pos bad_at;
    char *bad_json = NULL;
    pc_json_doc *doc = pc_json_parse(text, len, PC_JSON_UNIQUE_KEYS, &bad_at, &bad_json);
    const pc_json *root = pc_json_root(doc);
    bool ok = true;
    if (!doc) {
        pc_cli_error("%s:%u:%u: invalid JSON in shapes file: %s", path, bad_at.line, bad_at.col, bad_json);
        pc_mem_free(bad_json);
        ok = false;
    } else if (!pc_json_is(root, PC_JSON_ARRAY)) {
        pc_cli_error("%s:%u:%u: a shapes file is a JSON list of objects, e.g. [{\"x.shape[0]\": 1000}]", path,
                     root->pos.line, root->pos.col);
        ok = false;
    } else {
        int idx = 0;
        for (const pc_json *set = root->child; set && ok; set = set->next, idx++) {
            if (!pc_json_is(set, PC_JSON_OBJECT)) {
                pc_cli_error("%s:%u:%u: entry %d is not an object", path, set->pos.line, set->pos.col, idx);
                ok = false;
                break;
            }
            /* the one JSON -> bindings conversion (exact int64), located in this file */
            pc_bindings bs;
            pc_loc at;
            char *why = NULL;
            if (!pc_cfg_bindings_from_json(c->arena, set, NULL, false, &bs, &at, &why)) {
                pc_cli_error("%s:%u:%u: entry %d: %s", path, at.line, at.col, idx, why);
                pc_mem_free(why);
                ok = false;
                break;
            }
            PC_VEC_PUSH(c->binding_sets, bs);
            PC_VEC_PUSH(c->binding_set_sources, pc_arena_printf(c->arena, "%s (--shapes)", path));
        }
    }
    pc_json_free(doc);
    pc_mem_free(text);
    return ok;
}

int pc_cli_common_option(pc_cli_common *c, int argc, char **argv, int *i)
{
    bool missing = false;
    const char *v;
    const char *a = argv[*i];
#define MISSING(name)                                                                            \
    do {                                                                                         \
        if (missing) {                                                                           \
            pc_cli_error("option '%s' needs a value", name);                                     \
            return -1;                                                                           \
        }                                                                                        \
    } while (0)
    if ((v = opt_value(argc, argv, i, "--bind", &missing))) {
        pc_binding b;
        if (!parse_binding(c, v, &b))
            return -1;
        PC_VEC_PUSH(c->binds, b);
        return 1;
    }
    MISSING("--bind");
    if ((v = opt_value(argc, argv, i, "--set", &missing))) {
        pc_option o;
        char *err = NULL;
        if (!pc_cfg_parse_set(c->arena, v, &o, &err)) {
            pc_cli_error("--set %s: %s", v, err);
            pc_mem_free(err);
            return -1;
        }
        o.site = PC_SITE_COMMAND_LINE;
        o.kernel = -1;
        PC_VEC_PUSH(c->set_opts, o);
        return 1;
    }
    MISSING("--set");
    if ((v = opt_value(argc, argv, i, "--shapes", &missing)))
        return load_shapes(c, v) ? 1 : -1;
    MISSING("--shapes");
    if ((v = opt_value(argc, argv, i, "--config-file", &missing))) {
        c->project_file = v;
        return 1;
    }
    MISSING("--config-file");
    if ((v = opt_value(argc, argv, i, "--config", &missing))) {
        c->config_path = v;
        return 1;
    }
    MISSING("--config");
    if (strcmp(a, "--no-config-lookup") == 0) {
        c->no_config_lookup = true;
        return 1;
    }
    if (strcmp(a, "--no-cache") == 0) {
        c->no_cache = true;
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--inner-policy", &missing))) {
        if (strcmp(v, "boundary") == 0)
            c->inner_policy = PC_INNER_BOUNDARY;
        else if (strcmp(v, "all") == 0)
            c->inner_policy = PC_INNER_ALL;
        else {
            pc_cli_error("--inner-policy must be 'boundary' or 'all', got '%s'", v);
            return -1;
        }
        c->inner_policy_set = true;
        return 1;
    }
    MISSING("--inner-policy");
    if ((v = opt_value(argc, argv, i, "--assemble-headroom", &missing))) {
        if (!parse_int(v, &c->assemble_headroom) || c->assemble_headroom < 0 || c->assemble_headroom > 1024) {
            pc_cli_error("--assemble-headroom must be an integer in [0, 1024], got '%s'", v);
            return -1;
        }
        c->assemble_headroom_set = true;
        return 1;
    }
    MISSING("--assemble-headroom");
    if ((v = opt_value(argc, argv, i, "--max-walk-seconds", &missing))) {
        char *end;
        double s = strtod(v, &end);
        if (end == v || *end || !(s >= 0 && s <= 86400)) {
            pc_cli_error("--max-walk-seconds must be a number of seconds in [0, 86400], got '%s'", v);
            return -1;
        }
        c->max_walk_seconds = s;
        return 1;
    }
    MISSING("--max-walk-seconds");
    if ((v = opt_value(argc, argv, i, "--max-parse-seconds", &missing))) {
        char *end;
        double s = strtod(v, &end);
        if (end == v || *end || !(s >= 0 && s <= 86400)) {
            pc_cli_error("--max-parse-seconds must be a number of seconds in [0, 86400], got '%s'", v);
            return -1;
        }
        c->max_parse_seconds = s;
        return 1;
    }
    MISSING("--max-parse-seconds");
    if ((v = opt_value(argc, argv, i, "--checks", &missing))) {
        c->checks = v;
        return 1;
    }
    MISSING("--checks");
    if ((v = opt_value(argc, argv, i, "--warnings-as-errors", &missing))) {
        c->werror = v;
        return 1;
    }
    MISSING("--warnings-as-errors");
    if ((v = opt_value(argc, argv, i, "--lang", &missing))) {
        if (strcmp(v, "cpp") == 0 || strcmp(v, "c++") == 0)
            c->lang = PC_LANG_CPP;
        else if (strcmp(v, "python") == 0 || strcmp(v, "py") == 0)
            c->lang = PC_LANG_PYTHON;
        else {
            pc_cli_error("--lang must be 'cpp' or 'python', got '%s'", v);
            return -1;
        }
        return 1;
    }
    MISSING("--lang");
    if (strcmp(a, "-p") == 0 || strncmp(a, "-p=", 3) == 0) {
        if (a[2] == '=')
            c->compile_db_dir = a + 3;
        else if (*i + 1 < argc)
            c->compile_db_dir = argv[++*i];
        else {
            pc_cli_error("option '-p' needs a directory");
            return -1;
        }
        return 1;
    }
    if ((v = opt_value(argc, argv, i, "--python-path", &missing))) {
        PC_VEC_PUSH(c->python_path, v);
        return 1;
    }
    MISSING("--python-path");
    if ((v = opt_value(argc, argv, i, "--extra-arg-before", &missing))) {
        PC_VEC_PUSH(c->extra_args_before, v);
        return 1;
    }
    MISSING("--extra-arg-before");
    if ((v = opt_value(argc, argv, i, "--extra-arg", &missing))) {
        PC_VEC_PUSH(c->extra_args, v);
        return 1;
    }
    MISSING("--extra-arg");
    if (strcmp(a, "--show-parse-errors") == 0) {
        c->show_parse_errors = true;
        return 1;
    }
#undef MISSING
    return 0;
}

const pc_project_config *pc_cli_project_for(pc_cli_common *c, const char *path, bool *failed)
{
    const pc_project_config *p = NULL;
    char *err = NULL;
    if (!pc_config_cache_project(c->configs, path, c->project_file, !c->no_config_lookup, &p, &err)) {
        pc_cli_error("%s", err ? err : path);
        pc_mem_free(err);
        *failed = true;
        return NULL;
    }
    return p;
}

bool pc_cli_project_excludes(pc_cli_common *c, const char *path)
{
    bool failed = false;
    const pc_project_config *p = pc_cli_project_for(c, path, &failed);
    if (!p || !p->nexclude)
        return false;
    /* globs match the path relative to the project directory, or the base name */
    char *abs = realpath(path, NULL);
    const char *rel = abs ? abs : path;
    size_t n = strlen(p->dir);
    if (abs && strncmp(abs, p->dir, n) == 0 && abs[n] == '/')
        rel = abs + n + 1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    bool hit = false;
    for (size_t i = 0; i < p->nexclude && !hit; i++)
        hit = pc_glob_match(p->exclude[i], rel) || pc_glob_match(p->exclude[i], base);
    free(abs);
    return hit;
}

/* A walk of instances with no repeating structure cannot be added in closed form and may take
 * long on a large kernel, so it reports its progress on a terminal (pc_analysis_opts.progress),
 * about once a second after the first: a silent wait looks like a hang. */
static void cli_walk_progress(void *user, const char *kernel, int64_t instances, double seconds)
{
    (void)user;
    fprintf(stderr, "poolcheck: kernel '%s': %lld instances walked in %.0f s (no repeating structure to add in closed form)\n",
            kernel ? kernel : "?", (long long)instances, seconds);
}

/* Everything one file's analysis runs with: the user's options, layered with the governing project
 * file and the config file (pc_check_opts_layer).  False after printing an error (a broken project
 * or config file).  Arrays live in c->arena. */
static bool file_opts(pc_cli_common *c, const char *path, pc_check_opts *o, const pc_project_config **project,
                      const pc_config_file **config)
{
    bool failed = false;
    const pc_project_config *proj = pc_cli_project_for(c, path, &failed);
    if (failed)
        return false;

    pc_check_opts_init(o);
    o->parse.lang = c->lang;
    o->parse.compile_db_dir = c->compile_db_dir;
    o->parse.extra_args = c->extra_args.items;
    o->parse.nextra_args = c->extra_args.count;
    o->parse.no_cache = c->no_cache;
    o->parse.extra_args_before = c->extra_args_before.items;
    o->parse.nextra_args_before = c->extra_args_before.count;
    o->parse.python_path = c->python_path.items;
    o->parse.npython_path = c->python_path.count;
    o->parse.compiler_args = c->compiler_args.items;
    o->parse.ncompiler_args = c->compiler_args.count;
    o->parse.kernel_names = c->kernel_names.items;
    o->parse.nkernel_names = c->kernel_names.count;
    o->analysis.inner_policy = c->inner_policy;
    o->analysis.assemble_headroom = c->assemble_headroom;
    o->parse.max_parse_seconds = c->max_parse_seconds;
    o->analysis.max_walk_seconds = c->max_walk_seconds;
    if (isatty(2))
        o->analysis.progress = cli_walk_progress;
    o->checks = c->checks;
    o->werror = c->werror;
    o->show_parse_errors = c->show_parse_errors;

    pc_opts_layers l = {0};
    l.project = proj;
    const char *cfg_path = c->config_path ? c->config_path : proj ? proj->config_path : NULL;
    if (cfg_path) {
        char *err = NULL;
        if (!(l.config = pc_config_cache_config_file(c->configs, cfg_path, &err))) {
            pc_cli_error("%s", err ? err : cfg_path);
            pc_mem_free(err);
            return false;
        }
    }
    l.set_opts = c->set_opts.items;
    l.nset_opts = c->set_opts.count;
    l.binding_sets = c->binding_sets.items;
    l.nbinding_sets = c->binding_sets.count;
    l.binding_set_sources = c->binding_set_sources.items;
    l.binds = c->binds.items;
    l.nbinds = c->binds.count;
    l.checks_given = c->checks != NULL;
    l.werror_given = c->werror != NULL;
    l.inner_policy_given = c->inner_policy_set;
    l.headroom_given = c->assemble_headroom_set;
    /* in the command's arena: the results' configurations point at these options (provenance) */
    pc_check_opts_layer(o, &l, c->arena);
    if (project)
        *project = proj;
    if (config)
        *config = l.config;
    return true;
}

pc_file_result *pc_cli_analyze(pc_cli_common *c, pc_frontend *fe, const char *path)
{
    return pc_cli_analyze_inputs(c, fe, path, NULL);
}

pc_file_result *pc_cli_analyze_inputs(pc_cli_common *c, pc_frontend *fe, const char *path, pc_rep_html_file_inputs *in)
{
    pc_check_opts o;
    const pc_project_config *proj = NULL;
    const pc_config_file *cfg = NULL;
    if (!file_opts(c, path, &o, &proj, &cfg))
        return NULL;
    if (in) {
        /* the facts --show-settings prints, for the HTML report's Inputs section */
        *in = (pc_rep_html_file_inputs){
            .file = path,
            .project_file = proj ? proj->path : NULL,
            .project_how = !proj ? NULL : c->project_file ? "--config-file" : "the nearest .poolcheck.json",
            .config_file = cfg ? cfg->path : NULL,
            .config_how = !cfg ? NULL : c->config_path ? "--config" : proj ? proj->path : NULL,
            .sets = o.analysis.binding_sets,
            .nsets = o.analysis.nbinding_sets,
            .binding_sources = o.parse.binding_sources,
            .ext_opts = o.ext_opts,
            .next_opts = o.next_opts,
        };
    }
    char *err = NULL;
    pc_file_result *fr = pc_check_file(fe, path, NULL, 0, &o, &err);
    if (!fr) {
        pc_cli_error("%s", err);
        pc_mem_free(err);
    } else
        c->kernels_analysed += (size_t)fr->model->nkernels;
    return fr;
}

/* ---- --show-settings ------------------------------------------------------------------------------ */

/* Where a runtime option was set, as a user finds it: "--set", "FILE:LINE:COL". */
static void option_source(pc_sb *b, const pc_option *o)
{
    if (o->site == PC_SITE_COMMAND_LINE)
        pc_sb_append(b, "--set");
    else if (o->loc.file)
        pc_sb_printf(b, "%s:%u:%u", o->loc.file, o->loc.line, o->loc.col);
    else
        pc_sb_append(b, "?");
}

static void setting(pc_sb *b, const char *name, const char *value, const char *source)
{
    pc_sb_printf(b, "  %-22s %s", name, value);
    if (source)
        pc_sb_printf(b, "  (%s)", source);
    pc_sb_putc(b, '\n');
}

/* A string option: from the command line, the project file, or not set. */
static const char *source_of(const char *value, const char *cli, const char *cli_name, const pc_project_config *proj,
                             const char *proj_value)
{
    if (!value)
        return "default";
    if (value == cli)
        return cli_name;
    if (proj && value == proj_value)
        return proj->path;
    return "?";
}

/* Bindings of one set, sorted by name and then place: a name's later bindings are never read (the
 * first one wins, pc_expr_eval). */
typedef struct named_at {
    const char *name;
    size_t at;
} named_at;

static int by_name_then_place(const void *x, const void *y)
{
    const named_at *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* shadowed[i]: an earlier binding of set has the same name (sorted, not compared pairwise). */
static bool *shadowed_bindings(const pc_bindings *set)
{
    size_t n = set->count;
    bool *shadowed = pc_mem_calloc(n ? n : 1, sizeof *shadowed);
    named_at *idx = pc_mem_alloc((n ? n : 1) * sizeof *idx);
    for (size_t i = 0; i < n; i++) {
        idx[i].name = set->items[i].name;
        idx[i].at = i;
    }
    if (n > 1)
        qsort(idx, n, sizeof *idx, by_name_then_place);
    for (size_t i = 1; i < n; i++)
        shadowed[idx[i].at] = strcmp(idx[i].name, idx[i - 1].name) == 0;
    pc_mem_free(idx);
    return shadowed;
}

static void print_settings(pc_cli_common *c, const char *path, const pc_check_opts *o, const pc_project_config *proj,
                           const pc_config_file *cfg, pc_sb *b)
{
    pc_arena *a = c->arena;
    pc_sb_printf(b, "settings for %s\n", path);
    setting(b, "project file", proj ? proj->path : "none",
            c->project_file ? "--config-file" : proj ? "the nearest .poolcheck.json" : c->no_config_lookup ? "--no-config-lookup" : NULL);
    setting(b, "config file", cfg ? cfg->path : "none", cfg ? (c->config_path ? "--config" : proj->path) : NULL);
    setting(b, "checks", o->checks ? o->checks : "all", source_of(o->checks, c->checks, "--checks", proj, proj ? proj->checks : NULL));
    setting(b, "warnings as errors", o->werror ? o->werror : "none",
            source_of(o->werror, c->werror, "--warnings-as-errors", proj, proj ? proj->warnings_as_errors : NULL));
    bool policy_proj = !c->inner_policy_set && proj && proj->inner_policy;
    setting(b, "inner policy", o->analysis.inner_policy == PC_INNER_ALL ? "all" : "boundary",
            c->inner_policy_set ? "--inner-policy" : policy_proj ? proj->path : "default");
    bool headroom_proj = !c->assemble_headroom_set && proj && proj->has_assemble_headroom;
    setting(b, "assemble headroom", pc_arena_printf(a, "%lld", (long long)o->analysis.assemble_headroom),
            c->assemble_headroom_set ? "--assemble-headroom" : headroom_proj ? proj->path : "default");
    setting(b, "max walk seconds", pc_arena_printf(a, "%g", o->analysis.max_walk_seconds),
            o->analysis.max_walk_seconds == PC_DEFAULT_MAX_WALK_SECONDS ? "default" : "--max-walk-seconds");
    setting(b, "max parse seconds", pc_arena_printf(a, "%g", o->parse.max_parse_seconds),
            o->parse.max_parse_seconds == PC_DEFAULT_MAX_PARSE_SECONDS ? "default" : "--max-parse-seconds");
    const char *lang = o->parse.lang == PC_LANG_CPP ? "cpp" : o->parse.lang == PC_LANG_PYTHON ? "python" : NULL;
    pc_lang by_ext = pc_frontend_lang_of(path);
    if (lang || by_ext != PC_LANG_UNKNOWN)
        setting(b, "language", lang ? lang : by_ext == PC_LANG_CPP ? "cpp" : "python", lang ? "--lang" : "the file name's extension");
    else
        setting(b, "language", "each file's, from its extension", NULL);
    for (size_t i = 0; i < o->parse.npython_path; i++)
        setting(b, "python path", o->parse.python_path[i], i < c->python_path.count ? "--python-path" : proj->path);
    if (o->parse.compile_db_dir)
        setting(b, "compile database", o->parse.compile_db_dir, "-p");
    for (size_t i = 0; i < o->parse.nextra_args_before; i++)
        setting(b, "extra arg before", o->parse.extra_args_before[i], "--extra-arg-before");
    for (size_t i = 0; i < o->parse.nextra_args; i++)
        setting(b, "extra arg", o->parse.extra_args[i], "--extra-arg");
    for (size_t i = 0; i < o->parse.ncompiler_args; i++)
        setting(b, "compiler arg", o->parse.compiler_args[i], "--");
    for (size_t i = 0; i < o->parse.nkernel_names; i++)
        setting(b, "kernel name", o->parse.kernel_names[i], "--kernel-name");

    /* bindings, set by set, each with where it was given */
    size_t nsets = o->analysis.nbinding_sets, nbound = 0;
    for (size_t si = 0; si < nsets; si++)
        nbound += o->analysis.binding_sets[si].count;
    if (!nbound) {
        pc_sb_append(b, "bindings: none\n");
    } else {
        pc_sb_printf(b, "bindings: %zu set%s (the depths are the element-wise maximum over the sets)\n", nsets,
                     nsets == 1 ? "" : "s");
        for (size_t si = 0; si < nsets; si++) {
            if (nsets > 1)
                pc_sb_printf(b, "  set %zu\n", si);
            bool *shadowed = shadowed_bindings(&o->analysis.binding_sets[si]);
            for (size_t bi = 0; bi < o->analysis.binding_sets[si].count; bi++) {
                const pc_binding *bd = &o->analysis.binding_sets[si].items[bi];
                const char *src = o->parse.binding_sources && o->parse.binding_sources[si] ? o->parse.binding_sources[si][bi]
                                                                                             : NULL;
                pc_sb_printf(b, "  %s%s = %lld  (%s)%s\n", nsets > 1 ? "  " : "", bd->name, (long long)bd->value,
                             src ? src : "--bind", shadowed[bi] ? ": not used, the binding above wins" : "");
            }
            pc_mem_free(shadowed);
        }
    }

    /* runtime options from outside the source, in the order they apply (later wins) */
    size_t n = o->next_opts;
    pc_sb_printf(b, "runtime options from outside the source: %s\n", n ? "(in the order they apply; later wins)" : "none");
    for (size_t i = 0; i < n; i++) {
        const pc_option *op = &o->ext_opts[i];
        pc_sb_printf(b, "  %s = %s  (", op->key, pc_cfg_value_text(a, &op->value));
        option_source(b, op);
        pc_sb_putc(b, ')');
        const char *why = pc_cfg_validate(a, op->key, &op->value);
        if (!pc_cfg_runtime_key_known(op->key))
            pc_sb_append(b, ": not a runtime option, never applied");
        else if (why)
            pc_sb_printf(b, ": %s Never applied.", why);
        pc_sb_putc(b, '\n');
    }
    /* what they give before the source has its say (its own options come after the project file's
     * and before --set: docs/model.md 8) */
    size_t nfile = 0;
    while (nfile < n && o->ext_opts[nfile].site != PC_SITE_COMMAND_LINE)
        nfile++;
    pc_runtime_config rc;
    pc_cfg_resolve(&rc, NULL, 0, o->ext_opts, nfile, o->ext_opts ? o->ext_opts + nfile : NULL, n - nfile);
    pc_sb_append(b, "runtime configuration, before the options in the source:\n");
    struct { const char *key; char *value; const pc_option *src; } rows[] = {
        {PC_KEY_POOL, pc_arena_printf(a, "[%lld, %lld, %lld]", (long long)rc.pool[0], (long long)rc.pool[1], (long long)rc.pool[2]),
         rc.src_pool},
        {PC_KEY_MAX_NUM, pc_arena_printf(a, "%lld", (long long)rc.max_num), rc.src_max_num},
        {PC_KEY_WORKSPACE_KB, pc_arena_printf(a, "%lld", (long long)rc.workspace_kb), rc.src_workspace_kb},
        {PC_KEY_PARALLELISM, pc_arena_printf(a, "%lld", (long long)rc.parallelism), rc.src_parallelism},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        pc_sb src = {0};
        if (rows[i].src)
            option_source(&src, rows[i].src);
        else
            pc_sb_append(&src, "default");
        pc_sb_printf(b, "  %-30s %s  (%s)\n", rows[i].key, rows[i].value, src.data);
        pc_sb_free(&src);
    }
}

bool pc_cli_show_settings(pc_cli_common *c, const char *path, FILE *out)
{
    pc_check_opts o;
    const pc_project_config *proj = NULL;
    const pc_config_file *cfg = NULL;
    if (!file_opts(c, path, &o, &proj, &cfg))
        return false;
    pc_sb b = {0};
    print_settings(c, path, &o, proj, cfg, &b);
    char *text = pc_sb_take(&b);
    /* paths and names are the user's: control characters shown escaped, as in messages, line by line */
    for (char *line = text, *nl; *line; line = nl + 1) {
        nl = strchr(line, '\n');
        *nl = 0;
        char *shown = pc_visible(line);
        fprintf(out, "%s\n", shown ? shown : line);
        pc_mem_free(shown);
    }
    pc_mem_free(text);
    return true;
}
