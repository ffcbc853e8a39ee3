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

/* Room for any message of the functions below (the text is cut to fit). */
#define PC_BIND_MSG_MAX 512

/* Parse "NAME=VALUE" into *out (the name copied into a).  On failure returns false and writes
 * the one wording to msg: "bind expects NAME=VALUE, got 'TEXT'" (no '=', nothing before or after
 * it) or "bind 'NAME=VALUE': 'VALUE' is not an integer (decimal digits, within int64)".  Callers
 * prefix it with their spelling of the option ("--" on a command line). */
bool pc_cfg_bind_parse(pc_arena *a, const char *text, pc_binding *out, char msg[PC_BIND_MSG_MAX]);

/* The same for a name and a value given apart (the LSP's {"NAME": VALUE} form); value NULL is
 * a missing value. */
bool pc_cfg_bind_parse2(pc_arena *a, const char *name, size_t name_len, const char *value,
                        pc_binding *out, char msg[PC_BIND_MSG_MAX]);

/* VALUE alone: true with *v when text is a decimal integer within int64. */
bool pc_cfg_bind_value(const char *text, int64_t *v);

#ifdef __cplusplus
}
#endif

#endif
