/* fuzz_golden.c - libFuzzer target: prune goldens (mg_golden_read,
 * sim/search/rule_golden.c), which reads only from a path. */
#include "tests/fuzz/harness.h"

#include "sim/search/rule_golden.h"
#include "base/diag.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = mg_fuzz_file("golden.json", NULL, data, size);
    mg_decisions ds;
    memset(&ds, 0, sizeof ds);
    mg_diag d;
    mg_diag_init(&d);
    (void)mg_golden_read(path, &ds, &d);
    mg_decisions_free(&ds);
    mg_diag_free(&d);
    return 0;
}
