/*
 * fuzz_trace.c - libFuzzer target for the trace reader and decoder
 * (`make fuzz`).  Each input is used twice:
 *   1. as a whole trace file, read from memory with every work group
 *      checked, then every record decoded again and counted by the stats
 *      code, as `mgsim trace stats` does;
 *   2. as the raw records of one warp (lane count from the first byte),
 *      decoded with a cursor, to reach the record decoder with no valid
 *      header in front;
 *   3. as a whole trace file again, each work group wanted in record form
 *      (as the simulator reads it, every record walked with a
 *      distinct_only cursor): the verdict and the first message must be
 *      those of 1.
 * Any crash, sanitizer report, leak or hang, or a verdict or message
 * that differs between 1 and 3, is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/harness.h"
#include "traces/trace_internal.h"
#include "traces/trace_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read data as a trace file and count every record; the first message
 * (or "") into msg. */
static void fuzz_file(const uint8_t *data, size_t size, char *msg, size_t n)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *r = mg_trace_reader_open_mem(data, size, "fuzz", &d);
    if (r) {
        mg_trace_stats *s = malloc(sizeof *s);
        mg_trace_source src = mg_trace_reader_source(r);
        if (s) {
            mg_trace_stats_run(s, &src, 32, 4, 2, &d);
            mg_trace_stats_free(s);
            free(s);
        }
        mg_trace_reader_close(r);
    }
    snprintf(msg, n, "%s", mg_diag_first(&d));
    mg_diag_free(&d);
}

/* Read data as a trace file in record form, walking every record as the
 * simulator does; the first message (or "") into msg. */
static void fuzz_recs(const uint8_t *data, size_t size, char *msg, size_t n)
{
    mg_diag d;
    mg_diag_init(&d);
    mg_trace_reader *r = mg_trace_reader_open_mem(data, size, "fuzz", &d);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    wg.want_recs = 1;
    mg_rec *rec = malloc(sizeof *rec);
    while (r && rec && mg_trace_reader_next_wg(r, &wg, &d) == 1)
        for (uint32_t k = 0; k < wg.n_warps; k++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, k);
            c.distinct_only = 1;
            while (mg_trace_cursor_next(&c, rec, &d) == 1) {}
        }
    free(rec);
    mg_trace_wg_free(&wg);
    mg_trace_reader_close(r);
    snprintf(msg, n, "%s", mg_diag_first(&d));
    mg_diag_free(&d);
}

/* Decode data[1..] as the records of one warp. */
static void fuzz_warp(const uint8_t *data, size_t size)
{
    if (size < 1) return;
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    mg_trace_warp w = {0, size - 1, (uint32_t)(data[0] % MG_TRACE_MAX_LANES) + 1, UINT32_MAX};
    wg.n_warps = 1;
    wg.warps = &w;
    wg.bytes = (uint8_t *)(uintptr_t)(data + 1);
    wg.len = size - 1;
    mg_trace_cursor c;
    mg_trace_cursor_init(&c, &wg, 0);
    mg_rec *rec = malloc(sizeof *rec);
    mg_diag d;
    mg_diag_init(&d);
    while (rec && mg_trace_cursor_next(&c, rec, &d) == 1) {}
    mg_diag_free(&d);
    free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char m1[1024], m3[1024];
    fuzz_file(data, size, m1, sizeof m1);
    fuzz_warp(data, size);
    fuzz_recs(data, size, m3, sizeof m3);
    mg_fuzz_assert(strcmp(m1, m3) == 0,
                   "the record form's verdict or message differs from the bytes form's");
    return 0;
}
