/*
 * fuzz_units.c - libFuzzer target: quantities with units (base/units:
 * sizes, frequencies, bandwidths, times).  A value parsed must format
 * canonically, and the canonical text must parse back to the same value
 * within the relative 1e-15 that mg_unit_format promises.
 */
#include "tests/fuzz/harness.h"

#include "base/units.h"

#include <math.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = mg_fuzz_text(data, size);
    for (int k = MG_UNIT_SIZE; k <= MG_UNIT_TIME; k++) {
        double v, back;
        char err[256], buf[64];
        if (mg_unit_parse((mg_unit_kind)k, s, &v, err, sizeof err)) continue;
        if (!isfinite(v)) continue;
        mg_unit_format((mg_unit_kind)k, v, buf, sizeof buf);
        mg_fuzz_assert(mg_unit_parse((mg_unit_kind)k, buf, &back, err, sizeof err) == 0,
                       "a formatted quantity does not parse back");
        mg_fuzz_assert(back == v || fabs(back - v) <= fabs(v) * 1e-15,
                       "a formatted quantity parses back to another value");
    }
    free(s);
    return 0;
}
