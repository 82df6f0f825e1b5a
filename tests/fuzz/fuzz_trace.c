/*
 * fuzz_trace.c - libFuzzer target for the trace reader and decoder
 * (`make fuzz`).  Each input is used twice:
 *   1. as a whole trace file, read from memory with every work group
 *      checked, then every record decoded again and counted by the stats
 *      code, as `mgsim trace stats` does;
 *   2. as the raw records of one warp (lane count from the first byte),
 *      decoded with a cursor, to reach the record decoder with no valid
 *      header in front.
 * Any crash, sanitizer report, leak or hang is a bug.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "traces/trace_internal.h"
#include "traces/trace_stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read data as a trace file and count every record. */
static void fuzz_file(const uint8_t *data, size_t size)
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
    fuzz_file(data, size);
    fuzz_warp(data, size);
    return 0;
}
