/*
 * fuzz_vmatrix.c - libFuzzer target: `mgprobe verify --matrix FILE`'s
 * matrix parser (probe/vmatrix.c, free of OpenCL), which reads only from a
 * path and prints its errors (silenced here).
 */
#include "tests/fuzz/harness.h"

#include "probe/vmatrix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = mg_fuzz_file("matrix.txt", NULL, data, size);
    mgp_vmatrix m = {NULL, 0, 0};
    mg_fuzz_quiet(1);
    (void)mgp_vmatrix_load(&m, path);
    mg_fuzz_quiet(0);
    mgp_vmatrix_free(&m);
    return 0;
}
