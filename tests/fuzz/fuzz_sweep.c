/*
 * fuzz_sweep.c - libFuzzer target: sweep results files as a resumed sweep
 * reads them (mg_sweep_file_open, sim/search/sweep_file.c) and each record
 * line (mg_sweep_result_parse).  The input's records follow the header of
 * a fixed sweep (adreno640 over tests/golden/data/space-sweep-tiny.json),
 * so the resume path is reached; an input's own header line, if it starts
 * with one, is dropped.
 */
#include "tests/fuzz/harness.h"

#include "sim/search/space.h"
#include "sim/search/sweep.h"
#include "base/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char space_path[] = "tests/golden/data/space-sweep-tiny.json";
static mg_space space;
static mg_sweep_ident ident;
static char *header;

/* The fixed sweep's identity and header line, once. */
static void setup(void)
{
    if (header) return;
    mg_diag d;
    mg_diag_init(&d);
    const mg_device *dev = mg_fuzz_device(NULL);
    mg_fuzz_assert(mg_space_load(space_path, &space, &d) == 0 &&
                   mg_sweep_ident_fill(&ident, dev, space_path, &space, NULL, NULL, &d) == 0,
                   "cannot load the sweep's space (run from the repository root)");
    mg_space_stats st;
    mg_space_enumerate(&space, NULL, NULL, &st);
    ident.size = st.size;
    header = mg_sweep_header_line(&ident);
    mg_diag_free(&d);
}

/* Parse each line of text as a result record. */
static void records(char *text)
{
    for (char *line = text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        mg_sweep_result r;
        char err[512];
        if (mg_sweep_result_parse(line, &r, err, sizeof err) == 0) mg_sweep_result_free(&r);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size >= 10 && !memcmp(data, "{\"schema\"", 9)) {
        const uint8_t *nl = memchr(data, '\n', size);
        size_t skip = nl ? (size_t)(nl - data) + 1 : size;
        data += skip;
        size -= skip;
    }
    const char *path = mg_fuzz_file("results.jsonl", header, data, size);
    /* 160 KB: static, because a fresh calloc per input goes through
     * ASan's mmap path and its page faults (1.45x slower). */
    static mg_sweep_sum sum_buf;
    mg_sweep_sum *sum = &sum_buf;
    memset(sum, 0, sizeof *sum);
    sum->id = ident;
    mg_sweep_sum_shapes(sum, &space);
    mg_sweep_done done;
    memset(&done, 0, sizeof done);
    mg_diag d;
    mg_diag_init(&d);
    FILE *f = mg_sweep_file_open(path, &ident, 0, sum, &done, &d);
    if (f) fclose(f);
    mg_sweep_done_free(&done);
    mg_diag_free(&d);
    char *text = mg_fuzz_text(data, size);
    records(text);
    free(text);
    return 0;
}
