/* PLACEHOLDER (owner: logs/plan) - replaced by the real budget planner. */
#include "poolcheck/analysis.h"
#include <string.h>
void pc_an_plan(const pc_result *r, int64_t budget, const int64_t *start, pc_plan *out) { (void)r; (void)start; memset(out, 0, sizeof *out); out->budget_bytes = budget; }
