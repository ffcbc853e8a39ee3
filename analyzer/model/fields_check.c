/* fields_check.c - the field table (fields.def) against the structs of poolcheck/model.h.
 *
 * At compile time: one initializer per struct lists, in table order, one value of each member a
 * row covers (a row with a count covers the count member too).  An initializer with fewer values
 * than the struct has members is an error here (-Wmissing-field-initializers, made an error for
 * this file whatever the build's flags), so a member added to model.h without its row breaks the
 * build instead of missing from the JSON, the comparison and the copy.  Each value has its
 * member's type, so a row out of the struct's order mostly fails to compile too; the unit test
 * checks the order exactly (pc_model_fields, offsets increasing within each struct). */
#include "model_int.h"

#include <stddef.h>

#define P_(m) (__typeof__(((T_ *)0)->m)){0}
#define P_SELF_ID(m, ...) P_(m),
#define P_INT(m, ...) P_(m),
#define P_INT64(m, ...) P_(m),
#define P_BOOL(m, ...) P_(m),
#define P_STR(m, ...) P_(m),
#define P_ENUM(m, ...) P_(m),
#define P_INDEX(m, ...) P_(m),
#define P_LOC(m, ...) P_(m),
#define P_EXPR(m, ...) P_(m),
#define P_BLOCK(m, ...) P_(m),
#define P_LIST(m, item, count) P_(m), P_(count),
#define P_INT64S(m, count) P_(m), P_(count),
#define P_INT64S_UPTO(m, count, max, lo) P_(count), {0},
#define P_INT64_ARRAY(m, ...) {0},
#define P_EXPRS(m, count, nullable) P_(m), P_(count),
#define P_SHARED(m, ...) P_(m),
#define P_OPTVAL(m, ...) P_(m),
#define P_CONSTANTS(m, count) P_(m), P_(count),
#define P_DERIVED(m, ...) P_(m),
#define P_CUSTOM(m, ...) P_(m),
#define P_WITH(m, ...) P_(m),

#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wmissing-field-initializers"
#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    __attribute__((unused)) static void probe_##name(void)                                       \
    {                                                                                            \
        typedef type T_;                                                                         \
        T_ all = {
#define PC_MODEL_FIELD(m, key, kind, args) PC_MF_CALL(P_##kind, m, PC_MF_ARGS args)
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt) PC_MF_CALL(P_##kind, m, PC_MF_ARGS args)
#define PC_MODEL_END(name)                                                                       \
        };                                                                                       \
        (void)all;                                                                               \
    }
#include "fields.def"
#pragma GCC diagnostic pop

/* Every row of the table: its struct, member, JSON key (NULL: none) and offset. */
#define PC_MODEL_STRUCT(name, type, layout, pre, post)                                           \
    {                                                                                            \
        typedef type T_;                                                                         \
        const char *struct_ = #name;
#define PC_MODEL_FIELD(m, key, kind, args)                                                       \
        if (n < cap)                                                                             \
            out[n] = (pc_model_field){struct_, #m, key, offsetof(T_, m), sizeof(T_)};            \
        n++;
#define PC_MODEL_FIELD_OPT(m, key, kind, args, written, required, dflt) PC_MODEL_FIELD(m, key, kind, args)
#define PC_MODEL_END(name) }

size_t pc_model_fields(pc_model_field *out, size_t cap)
{
    size_t n = 0;
#include "fields.def"
    return n;
}
