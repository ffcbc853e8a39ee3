/* model_int.h - internal header of the model module:
 *
 *   model.c        builders, data types and their names (pc_model_new, pc_model_add_*, ...)
 *   expr.c         expressions: builders, evaluation, parsing and printing, equality
 *   json_names.c   how the model JSON spells the model's enums (shared by writer and reader)
 *   json_write.c   the model as JSON (pc_model_to_json), and the format's description
 *   json_read.c    the model JSON read back (pc_model_from_json), through poolcheck/json.h
 *   json_equal.c   structural equality of two models (pc_model_equal)
 *   copy.c         deep copies into another model (pc_model_copy, pc_model_copier)
 *   fields_check.c the field table lists every member (compile-time), in order (unit test)
 *   fields.def     the field table the JSON, equality and copy code is generated from
 */
#ifndef POOLCHECK_MODEL_INT_H
#define POOLCHECK_MODEL_INT_H

#include <stdarg.h>

#include "poolcheck/model.h"
#include "support/support.h"

/* ---- model.c ---- */
/* Arrays in the model grow by doubling inside the arena; capacity is implied by the count
 * (a power of two at least 8), so the structs stay plain.  Whatever makes an array of a model
 * (the reader, the copier) allocates this capacity, so that the builders can keep adding. */
size_t pc_model_cap_for(size_t count);
#define PC_MODEL_GROW(m, arr, count)                                                             \
    do {                                                                                         \
        size_t _n = (size_t)(count);                                                             \
        if (_n == 0 || (_n >= 8 && (_n & (_n - 1)) == 0))                                        \
            (arr) = pc_arena_grow((m)->arena, (arr), _n, pc_model_cap_for(_n + 1), sizeof(*(arr))); \
    } while (0)

/* ---- fields.def generators ---- */
/* PC_MF_CALL(F, member, key, PC_MF_ARGS args): F(member, key, the row's kind arguments...) */
#define PC_MF_ARGS(...) __VA_ARGS__
#define PC_MF_CALL(f, ...) f(__VA_ARGS__)

/* ---- fields_check.c ---- */
/* The rows of fields.def, for the tests: up to cap into out; returns how many there are. */
typedef struct pc_model_field {
    const char *strct;   /* "tensor" (PC_MODEL_STRUCT's name) */
    const char *member;  /* "shape" */
    const char *key;     /* its JSON key; NULL when it has none (DERIVED) */
    size_t offset;       /* offsetof(struct, member) */
    size_t struct_size;
} pc_model_field;
size_t pc_model_fields(pc_model_field *out, size_t cap);

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
const char *pc_mjson_dtype_name(int t);
const char *pc_mjson_tensor_kind_name(int k);
const char *pc_mjson_access_kind_name(int k);
const char *pc_mjson_unit_name(int u);
const char *pc_mjson_optsite_kind_name(int k);
const char *pc_mjson_operand_role_name(int r);
/* Both NULL, or equal strings. */
bool pc_mjson_same_str(const char *a, const char *b);
/* "PATH: message" (malloc'd), how the reader and the comparison say what is wrong at a JSON path
 * of the model ("kernels[0].tensors[2].kind"); `top` stands for the empty path. */
char *pc_mjson_vat_path(const pc_sb *path, const char *top, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

#endif
