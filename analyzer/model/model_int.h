/* model_int.h - internal header of the model module (builders, expressions, JSON). */
#ifndef POOLCHECK_MODEL_INT_H
#define POOLCHECK_MODEL_INT_H

#include "poolcheck/model.h"
#include "support/support.h"

/* ---- expr.c ---- */
/* Structural equality of two expressions. */
bool pc_expr_equal(const pc_expr *a, const pc_expr *b);

/* ---- json.c ---- */
/* Strict JSON shared by every reader of JSON input (the model, tile_fwk_config.json,
 * .poolcheck.json): RFC 8259 grammar and UTF-8, nothing but whitespace after the value, a
 * leading UTF-8 byte order mark skipped, nesting up to cJSON's limit.  Returns the cJSON tree
 * (cJSON_Delete it), or NULL with the byte offset of the problem in *err_off and a description
 * ("expected ',' or '}', found '\"'") in err. */
struct cJSON;
struct cJSON *pc_model_json_parse(const char *text, size_t len, size_t *err_off, char *err, size_t errsize);
/* 1-based line and byte column of byte offset off in text (a leading byte order mark not counted). */
void pc_model_json_line_col(const char *text, size_t len, size_t off, uint32_t *line, uint32_t *col);

#endif
