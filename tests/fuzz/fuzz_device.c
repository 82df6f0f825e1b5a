/*
 * fuzz_device.c - libFuzzer target: device configs (sim/config: the
 * schema table, units, cross-field rules), strict and not.  An accepted
 * config's resolved form (`config show --json`) must load again, and its
 * text form must print.
 */
#include "tests/fuzz/harness.h"

#include "sim/config/print.h"
#include "base/diag.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *j = mg_fuzz_json(data, size);
    if (!j) return 0;
    for (int strict = 0; strict < 2; strict++) {
        mg_device dev, again;
        mg_diag d;
        mg_diag_init(&d);
        if (mg_device_from_json(j, "fuzz.json", strict, &dev, &d) == 0) {
            cJSON *out = mg_device_to_json(&dev);
            mg_diag e;
            mg_diag_init(&e);
            mg_fuzz_assert(mg_device_from_json(out, "resolved", 0, &again, &e) == 0,
                           "a resolved config does not load again");
            mg_diag_free(&e);
            cJSON_Delete(out);
            static FILE *null;                  /* opened once, kept */
            if (!null) null = fopen("/dev/null", "w");
            mg_fuzz_assert(null != NULL, "cannot open /dev/null");
            mg_device_print_text(&dev, null);
        }
        mg_diag_free(&d);
    }
    cJSON_Delete(j);
    return 0;
}
