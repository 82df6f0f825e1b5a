/* fuzz_space.c - libFuzzer target: search spaces (sim/search/space_load.c). */
#include "tests/fuzz/harness.h"

#include "sim/search/space.h"
#include "base/diag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    mg_space sp;
    mg_diag d;
    mg_diag_init(&d);
    if (mg_space_from_json(j, "fuzz.json", &sp, &d) == 0) mg_space_free(&sp);
    mg_diag_free(&d);
    cJSON_Delete(j);
    return 0;
}
