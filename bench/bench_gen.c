/*
 * bench_gen.c - kernel generation speed and trace size.
 *
 * Generates the trace of one schedule into memory (the stream the simulator
 * consumes), then decodes it, and reports work groups/s, warp records/s,
 * lane accesses/s and encoded bytes per lane access.  Prints; asserts
 * nothing.  Usage: bench_gen OP key=value ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "traces/gen/gen.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_gen OP key=value ...\n");
        return 2;
    }
    mg_diag d;
    mg_diag_init(&d);
    mg_schedule s;
    mg_gen *g = calloc(1, sizeof *g);
    if (!g || mg_schedule_parse(argv[1], argc - 2, argv + 2, &s, &d) ||
        mg_gen_prepare(g, &s, &d)) {
        mg_diag_print(&d, stderr, "bench_gen");
        return 2;
    }
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    uint64_t nwg = mg_gen_num_wgs(g), recs = 0, mem_recs = 0, lanes = 0, bytes = 0;
    double flops = 0;
    double t0 = now();
    for (uint64_t i = 0; i < nwg; i++) {
        mg_gen_trace_wg(g, i, &wg);
        bytes += wg.len;
    }
    double tgen = now() - t0;
    static mg_rec r;
    t0 = now();
    for (uint64_t i = 0; i < nwg; i++) {
        mg_gen_trace_wg(g, i, &wg);
        for (uint32_t w = 0; w < wg.n_warps; w++) {
            mg_trace_cursor c;
            mg_trace_cursor_init(&c, &wg, w);
            while (mg_trace_cursor_next(&c, &r, NULL) == 1) {
                recs++;
                unsigned n = mg_rec_popcount(&r);
                if (r.type == MG_REC_ALU) {
                    flops += (double)n * r.n * r.vec * r.flops;
                } else if (r.type != MG_REC_BARRIER) {
                    mem_recs++;
                    lanes += n;
                }
            }
        }
    }
    double tboth = now() - t0;
    char sched[1024];
    printf("gen %s\n", mg_schedule_format(&g->s, sched, sizeof sched));
    printf("  %llu work groups, %llu warp records (%llu memory), %llu lane accesses, "
           "%.0f flops\n", (unsigned long long)nwg, (unsigned long long)recs,
           (unsigned long long)mem_recs, (unsigned long long)lanes, flops);
    printf("  generation: %.3f s, %.2f M warp records/s, %.1f M lane accesses/s\n", tgen,
           recs / tgen / 1e6, lanes / tgen / 1e6);
    printf("  generation + decode: %.3f s, %.2f M warp records/s\n", tboth, recs / tboth / 1e6);
    printf("  encoded trace: %llu bytes, %.3f bytes per lane access, %.1f bytes per record\n",
           (unsigned long long)bytes, (double)bytes / (double)lanes, (double)bytes / (double)recs);
    mg_trace_wg_free(&wg);
    mg_gen_free(g);
    free(g);
    mg_diag_free(&d);
    return 0;
}
