/* json_names.c - how the model JSON spells the model's enums: one table for the writer
 * (json_write.c) and the reader (json_read.c), so that what one writes the other reads. */
#include "model_int.h"

#include <string.h>

const char *pc_mjson_lang_name(int l)
{
    return l == PC_LANG_CPP ? "cpp" : l == PC_LANG_PYTHON ? "python" : l == PC_LANG_UNKNOWN ? "unknown" : "?";
}

const char *pc_mjson_stmt_kind_name(int k)
{
    static const char *n[] = {"op", "loop", "if", "unroll", "unanalysed"};
    return k >= 0 && k <= PC_STMT_UNANALYSED ? n[k] : "?";
}

const char *pc_mjson_optval_kind_name(int k)
{
    static const char *n[] = {"int", "float", "bool", "string", "list", "tuple", "none", "unknown"};
    return k >= 0 && k <= PC_OPT_UNKNOWN ? n[k] : "?";
}

const char *pc_mjson_msg_kind_name(int k)
{
    static const char *n[] = {"fatal", "parse_noise", "warning", "note", "error"};
    return k >= 0 && k <= PC_MSG_ERROR ? n[k] : "?";
}

const char *pc_mjson_expr_op_name(int k)
{
    static const char *n[] = {"int", "sym", "add", "sub", "mul", "div", "floordiv", "mod",
                              "min", "max", "ceildiv", "neg", "lt", "le", "gt", "ge", "eq", "ne",
                              "and", "or", "not", "is_loop_begin", "is_loop_end"};
    return k >= 0 && k <= PC_EXPR_IS_LOOP_END ? n[k] : "?";
}

const char *pc_mjson_unroll_rule_name(int r)
{
    static const char *n[] = {"default", "per_factor", "greedy"};
    return r >= 0 && r <= PC_UNROLL_RULE_GREEDY ? n[r] : "?";
}

const char *pc_mjson_dtype_name(int t) { return pc_dtype_name((pc_dtype)t); }
const char *pc_mjson_tensor_kind_name(int k) { return pc_tensor_kind_name((pc_tensor_kind)k); }
const char *pc_mjson_access_kind_name(int k) { return pc_access_kind_name((pc_access_kind)k); }
const char *pc_mjson_unit_name(int u) { return pc_unit_name((pc_unit)u); }
const char *pc_mjson_optsite_kind_name(int k) { return pc_optsite_kind_name((pc_optsite_kind)k); }
const char *pc_mjson_operand_role_name(int r) { return pc_operand_role_name((pc_operand_role)r); }

const char *pc_operand_role_name(pc_operand_role r)
{
    switch (r) {
    case PC_OPERAND_ANY: return "any";
    case PC_OPERAND_LEFT: return "left";
    case PC_OPERAND_RIGHT: return "right";
    case PC_OPERAND_OTHER: return "other";
    }
    return "?";
}

bool pc_mjson_same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

char *pc_mjson_vat_path(const pc_sb *path, const char *top, const char *fmt, va_list ap)
{
    pc_sb b = {0};
    pc_sb_append(&b, path->len ? path->data : top);
    pc_sb_append(&b, ": ");
    pc_sb_vprintf(&b, fmt, ap);
    return pc_sb_take(&b);
}
