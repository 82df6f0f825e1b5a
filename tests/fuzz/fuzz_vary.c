/*
 * fuzz_vary.c - libFuzzer target: `mgsim whatif --vary KEY=v1,v2,...`
 * (sim/config/variant.c): the option is parsed, then each value is applied
 * to configs/devices/adreno640.json as whatif does.
 */
#include "tests/fuzz/harness.h"

#include "sim/config/variant.h"
#include "base/diag.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const cJSON *doc;
    const mg_device *base = mg_fuzz_device(&doc);
    char *arg = mg_fuzz_text(data, size);
    mg_vary v;
    mg_diag d;
    mg_diag_init(&d);
    if (mg_vary_parse(arg, &v, &d) == 0) {
        for (int q = 0; q < v.nvals; q++) {
            mg_device out;
            char resolved[1][48];
            mg_diag e;
            mg_diag_init(&e);
            (void)mg_device_variant(doc, "adreno640.json", base, 1, &v, &q, &out, resolved,
                                    &e);
            mg_diag_free(&e);
        }
    }
    mg_diag_free(&d);
    free(arg);
    return 0;
}
