/*
 * poolcheck/json.h - the one JSON reader: strict RFC 8259, every value and key located.
 *
 * Every JSON input of poolcheck goes through pc_json_parse: tile_fwk_config.json files,
 * .poolcheck.json, --shapes, the model JSON (pc_model_from_json) and the LSP's messages.  It
 * rejects what RFC 8259 rejects, and says where and what:
 *   - anything but whitespace after the value ("unexpected text after the JSON value");
 *   - invalid UTF-8 (overlong forms, surrogates, past U+10FFFF), raw control characters in
 *     strings, invalid escapes, a lone or unpaired UTF-16 surrogate escape;
 *   - `01`, `1.`, `+1`, `.5`, comments, trailing commas, single quotes, NaN/Infinity;
 *   - a number beyond a double's range (1e400: "number out of range") or longer than 63
 *     characters ("number too long");
 *   - nesting deeper than PC_JSON_MAX_DEPTH levels;
 *   - a NUL byte anywhere (a file's text), and \u0000 unless PC_JSON_ALLOW_NUL;
 *   - with PC_JSON_UNIQUE_KEYS, an object naming a key twice ("duplicate key \"n\"", at the
 *     second one).  Without it duplicates are kept in order; pc_json_get finds the first.
 * A leading UTF-8 byte order mark is skipped with PC_JSON_BOM (files: editors write one) and an
 * error otherwise (RFC 8259 8.1: none in networked JSON).
 *
 * Positions are 1-based lines and byte columns, lines ended by LF, CRLF or a lone CR (the
 * project's one line rule, poolcheck/support.h); a byte order mark is not counted in the first
 * line's columns.  Every value has its start and end (one past its last byte), every object
 * member the position of its key's opening quote.
 *
 * The tree lives in one arena: pc_json_free releases it all.  Strings are decoded (escapes
 * resolved), NUL-terminated, and their length is in `len` (with PC_JSON_ALLOW_NUL a string may
 * hold NUL bytes; `len` counts them).
 */
#ifndef POOLCHECK_JSON_H
#define POOLCHECK_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PC_JSON_MAX_DEPTH 1000

typedef enum pc_json_type {
    PC_JSON_NULL,
    PC_JSON_BOOL,
    PC_JSON_NUMBER,
    PC_JSON_STRING,
    PC_JSON_ARRAY,
    PC_JSON_OBJECT
} pc_json_type;

typedef struct pc_json_pos {
    uint32_t line, col;      /* 1-based; col in bytes */
    size_t off;              /* byte offset in the text */
} pc_json_pos;

typedef struct pc_json pc_json;
struct pc_json {
    pc_json_type type;
    bool b;                  /* BOOL */
    double num;              /* NUMBER: its value (always finite) */
    const char *str;         /* STRING: the decoded text; NUMBER: its spelling as written */
    size_t len;              /* bytes of str */
    const char *key;         /* a member of an object: its decoded key; otherwise NULL */
    size_t key_len;
    pc_json_pos key_pos;     /* a member: its key's opening quote */
    pc_json_pos pos, end;    /* the value's first byte, and one past its last */
    pc_json *child;          /* ARRAY / OBJECT: the first item, in document order */
    pc_json *next;           /* the next item of the same container */
    int count;               /* ARRAY / OBJECT: the number of items */
};

enum {
    PC_JSON_BOM = 1,         /* skip a leading UTF-8 byte order mark */
    PC_JSON_UNIQUE_KEYS = 2, /* an object naming a key twice is an error */
    PC_JSON_ALLOW_NUL = 4    /* \u0000 in strings is allowed (the string's len says where it ends) */
};

typedef struct pc_json_doc pc_json_doc;

/* Parse text[0..len).  NULL when it is not one strict JSON text, with where the problem is in
 * *at and what it is in *err (pc_mem_free it): "expected ',' or '}', found '\"'".  at and err
 * may be NULL; on success neither is touched.  Out of memory ends the run as every pc_mem_*
 * allocation does. */
pc_json_doc *pc_json_parse(const char *text, size_t len, unsigned flags, pc_json_pos *at, char **err);
const pc_json *pc_json_root(const pc_json_doc *doc);
void pc_json_free(pc_json_doc *doc); /* NULL is fine */

/* The first member of obj named key (NULL when obj is not an object or has none). */
const pc_json *pc_json_get(const pc_json *obj, const char *key);
/* The first member of an object (in document order) whose key an earlier member has, or NULL;
 * sorted, not compared pairwise, so a million keys cost n log n (what PC_JSON_UNIQUE_KEYS
 * refuses, for a reader that reports it in words of its own). */
const pc_json *pc_json_repeated_key(const pc_json *obj);
/* "null", "a boolean", "a number", "a string", "an array", "an object"; "nothing" for NULL. */
const char *pc_json_kind(const pc_json *j);
static inline bool pc_json_is(const pc_json *j, pc_json_type t) { return j && j->type == t; }

/* Line and column of byte offset off in text, by the rule above (flags: PC_JSON_BOM as given to
 * pc_json_parse, so that the byte order mark is not counted). */
pc_json_pos pc_json_pos_of(const char *text, size_t len, size_t off, unsigned flags);

/* For code that walks a cJSON tree (the LSP server's handlers): the same tree as cJSON nodes
 * (cJSON_Delete it).  Strings end at their first NUL, as cJSON's do.  cJSON's allocations go
 * through pc_mem_* (pc_json_use_pc_mem). */
struct cJSON;
struct cJSON *pc_json_to_cjson(const pc_json *j);

/* Route cJSON's allocations (the report writers build their output with it) through pc_mem_*,
 * so that fault injection reaches them.  Idempotent, thread-safe; called by pc_json_parse,
 * pc_json_to_cjson and pc_mem_init_from_env. */
void pc_json_use_pc_mem(void);

#ifdef __cplusplus
}
#endif

#endif
