/* model_int.h - internal header of the model module (builders, expressions, JSON). */
#ifndef POOLCHECK_MODEL_INT_H
#define POOLCHECK_MODEL_INT_H

#include "poolcheck/model.h"
#include "support/support.h"

/* ---- expr.c ---- */
/* Structural equality of two expressions. */
bool pc_expr_equal(const pc_expr *a, const pc_expr *b);

#endif
