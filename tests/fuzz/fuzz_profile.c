/* fuzz_profile.c - libFuzzer target: probe profiles and their curves
 * documents (sim/analysis/profile.c). */
#include "tests/fuzz/harness.h"

#include "sim/analysis/profile.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    mg_diag d;
    mg_diag_init(&d);
    (void)mg_profile_validate(j, "fuzz.json", &d);
    mg_diag_free(&d);
    mg_diag_init(&d);
    (void)mg_curve_validate(j, "fuzz.json", &d);
    mg_diag_free(&d);
    cJSON_Delete(j);
    return 0;
}
