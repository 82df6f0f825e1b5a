/* fuzz_timings.c - libFuzzer target: measured timings documents
 * (mg_timings_validate, sim/analysis/suite.c). */
#include "tests/fuzz/harness.h"

#include "sim/analysis/suite.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    mg_diag d;
    mg_diag_init(&d);
    (void)mg_timings_validate(j, "fuzz.json", &d);
    mg_diag_free(&d);
    cJSON_Delete(j);
    return 0;
}
