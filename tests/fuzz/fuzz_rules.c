/* fuzz_rules.c - libFuzzer target: pruning rules (sim/search/rule_load.c). */
#include "tests/fuzz/harness.h"

#include "sim/search/rule.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    mg_rules r;
    mg_diag d;
    mg_diag_init(&d);
    (void)mg_rules_from_json(j, "fuzz.json", &r, &d);
    mg_diag_free(&d);
    cJSON_Delete(j);
    return 0;
}
