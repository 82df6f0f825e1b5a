/* fuzz_suite.c - libFuzzer target: kernel suites (sim/analysis/suite.c). */
#include "tests/fuzz/harness.h"

#include "sim/analysis/suite.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    mg_suite su;
    mg_diag d;
    mg_diag_init(&d);
    if (mg_suite_parse(j, "fuzz.json", &su, &d) == 0) mg_suite_free(&su);
    mg_diag_free(&d);
    cJSON_Delete(j);
    return 0;
}
