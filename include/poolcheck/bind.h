/*
 * poolcheck/bind.h - the one parser of a symbol binding NAME=VALUE: the CLI's --bind,
 * the launcher's --bind= and the LSP's "bind" setting all read bindings through it, so they split,
 * bound and word errors alike.
 *
 * NAME is everything before the first '=' (a name never holds one: `x.shape[0]`, `n`); VALUE is a
 * decimal integer: an optional '-' and digits only (no blanks, no '+', no 0x, and `064` is 64, not
 * octal), within int64.
 */
#ifndef POOLCHECK_BIND_H
#define POOLCHECK_BIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "poolcheck/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Parse "NAME=VALUE" into *out (the name copied into a).  On failure returns false with the
 * one wording in *err (pc_mem_free it): "bind expects NAME=VALUE, got 'TEXT'" (no '=', nothing
 * before or after it) or "bind 'NAME=VALUE': 'VALUE' is not an integer (decimal digits, within int64)".  Callers
 * prefix it with their spelling of the option ("--" on a command line). */
bool pc_cfg_bind_parse(pc_arena *a, const char *text, pc_binding *out, char **err);

/* The same for a name and a value given apart (the LSP's {"NAME": VALUE} form); value NULL is
 * a missing value. */
bool pc_cfg_bind_parse_pair(pc_arena *a, const char *name, size_t name_len, const char *value,
                            pc_binding *out, char **err);

/* VALUE alone: true with *v when text is a decimal integer within int64. */
bool pc_cfg_bind_value(const char *text, int64_t *v);

/* ---- bindings from JSON ----------------------------------------------------------------------
 * The one conversion of a JSON object {NAME: integer, ...} (poolcheck/json.h's tree) into a binding
 * set: `bind` of .poolcheck.json (each set of it), each set of a --shapes file and the LSP's
 * {"bind": {...}} setting all read their bindings through it, so they take the same values and
 * word the same errors.
 *
 * Values are exact int64 read from the number as written (never through a double, so
 * 9007199254740993 stays 9007199254740993): an integer spelling, or one with a fraction or an
 * exponent whose value is integral (64.0, 1e3); a fraction (1.5, 1e-3), a number beyond int64
 * (9223372036854775808), a string, a boolean, null or a container is an error, as are an empty
 * name and a name given twice.
 *
 * On success fills *out (items and names in arena a) and returns true.  On failure returns false
 * with *err, e.g. "`bind.n` must be an integer, found 1.5" (what names the object: "bind",
 * "bind[1]"; NULL for none: "\"n\" must be ..."; pc_mem_free it) and *at the place in the JSON text
 * (line and column of the member's key or value; file NULL), for the caller to prefix.  It stops at
 * the first bad member unless all_errors is set: then *out holds every valid member and *err names
 * each bad one, joined by "; " (*at: the first's place), for a reader that applies what is valid
 * and shows the rest (the LSP's settings). */
struct pc_json;
bool pc_cfg_bindings_from_json(pc_arena *a, const struct pc_json *obj, const char *what, bool all_errors,
                               pc_bindings *out, pc_loc *at, char **err);
/* The exact int64 value of a JSON number's spelling: 0 with *v, 1 when it is not integral (1.5),
 * 2 when it is integral but beyond int64. */
int pc_cfg_json_int64(const char *spelling, size_t len, int64_t *v);

#ifdef __cplusplus
}
#endif

#endif
