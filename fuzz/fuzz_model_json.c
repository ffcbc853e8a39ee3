/*
 * fuzz_model_json.c - the model JSON reader (pc_model_from_json) and the promises around it:
 *  - a rejected document comes back as NULL with a message, never a crash;
 *  - an accepted model writes back (pc_model_to_json) to text that reads into an equal model
 *    (model.h: "the text pc_model_to_json writes reads back into an equal model");
 *  - an accepted model is safe to analyse (json.c: "a corrupt model file can never make the
 *    analysis index out of range or recurse forever").  The instance walk is capped low so a
 *    legitimately huge launch is a bound, not a fuzzer timeout.
 */
#include "fuzz_common.h"

#include <stdio.h>
#include <stdlib.h>

#include "poolcheck/analysis.h"
#include "poolcheck/config.h"

int FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    char *err = NULL;
    pc_model *m = pc_model_from_json((const char *)data, size, &err);
    if (!m) {
        free(err);
        return 0;
    }
    char *text = pc_model_to_json(m);
    char *err2 = NULL;
    pc_model *back = pc_model_from_json(text, strlen(text), &err2);
    if (!back) {
        fprintf(stderr, "model JSON written by pc_model_to_json does not read back: %s\n%s\n", err2, text);
        abort();
    }
    char where[256];
    if (!pc_model_equal(m, back, where, sizeof where)) {
        fprintf(stderr, "model JSON round trip differs at %s\n%s\n", where, text);
        abort();
    }
    pc_model_free(back);
    free(text);

    pc_analysis_opts ao;
    pc_an_default_opts(&ao);
    ao.max_instances = 20000;
    for (int k = 0; k < m->nkernels && k < 4; k++) {
        pc_runtime_config cfg;
        pc_cfg_resolve(&cfg, m, k, NULL, 0, NULL, 0);
        pc_result *r = pc_analyze(m, k, &cfg, &ao);
        pc_plan plan;
        pc_an_plan(r, 64 * 1024, NULL, &plan);
        pc_result_free(r);
    }
    pc_model_free(m);
    return 0;
}
