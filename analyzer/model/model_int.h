/* model_int.h - internal header of the model module:
 *
 *   model.c        builders, data types and their names (pc_model_new, pc_model_add_*, ...)
 *   expr.c         expressions: builders, evaluation, parsing and printing, equality
 *   json_names.c   how the model JSON spells the model's enums (shared by writer and reader)
 *   json_write.c   the model as JSON (pc_model_to_json), and the format's description
 *   json_read.c    the model JSON read back (pc_model_from_json), through poolcheck/json.h
 *   json_equal.c   structural equality of two models (pc_model_equal)
 */
#ifndef POOLCHECK_MODEL_INT_H
#define POOLCHECK_MODEL_INT_H

#include <stdarg.h>

#include "poolcheck/model.h"
#include "support/support.h"

/* ---- json_names.c ---- */
#define MODEL_JSON_VERSION 1
#define JSON_SAFE_INT 9007199254740992LL /* 2^53: integers beyond it are written as strings */
/* The spelling of each enum value in the model JSON ("?" out of range); int so that the reader
 * can search them by value. */
const char *pc_mjson_lang_name(int l);
const char *pc_mjson_stmt_kind_name(int k);
const char *pc_mjson_optval_kind_name(int k);
const char *pc_mjson_msg_kind_name(int k);
const char *pc_mjson_expr_op_name(int k);
const char *pc_mjson_unroll_rule_name(int r);
/* Both NULL, or equal strings. */
bool pc_mjson_same_str(const char *a, const char *b);
/* "PATH: message" (malloc'd), how the reader and the comparison say what is wrong at a JSON path
 * of the model ("kernels[0].tensors[2].kind"); `top` stands for the empty path. */
char *pc_mjson_vat_path(const pc_sb *path, const char *top, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
