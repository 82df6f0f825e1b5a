/*
 * bench_sim.c - full-simulation speed: warp instructions and lane accesses
 * replayed per second, and peak memory, for one schedule on one config.
 * Prints; asserts nothing.  Usage: bench_sim CONFIG OP key=value ...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "config/device.h"
#include "gen/gen.h"
#include "model/model.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench_sim CONFIG OP key=value ...\n");
        return 2;
    }
    mg_diag d;
    mg_diag_init(&d);
    mg_device *dev = malloc(sizeof *dev);
    mg_gen *g = calloc(1, sizeof *g);
    mg_schedule s;
    char **w = calloc((size_t)argc + 1, sizeof *w);
    int n = 0;
    for (int i = 3; i < argc; i++) w[n++] = argv[i];
    char warp[32];
    if (!dev || !g || !w || mg_device_load(argv[1], 0, dev, &d)) goto fail;
    snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
    w[n++] = warp;
    if (mg_schedule_parse(argv[2], n, w, &s, &d) || mg_gen_prepare(g, &s, &d)) goto fail;
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_sim_stats st, st2;
    mg_sim_opts o = {1};
    double t0 = now();
    if (mg_sim_run(dev, &src, &o, &st, &d)) goto fail;
    double t = now() - t0;
    src = mg_gen_source(&gs, g);
    if (mg_sim_run(dev, &src, &o, &st2, &d)) goto fail;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    char sched[1024];
    printf("sim %s on %s\n", mg_schedule_format(&g->s, sched, sizeof sched), dev->name);
    printf("  %llu warp instructions, %llu lane accesses, %.0f simulated cycles\n",
           (unsigned long long)st.warp_instrs, (unsigned long long)st.lane_accesses, st.cycles);
    printf("  full simulation (trace generated in memory): %.3f s, %.2f M warp instructions/s, "
           "%.1f M lane accesses/s\n", t, st.warp_instrs / t / 1e6, st.lane_accesses / t / 1e6);
    printf("  peak memory %.1f MiB; second run identical: %s\n", ru.ru_maxrss / 1024.0,
           memcmp(&st, &st2, sizeof st) ? "NO" : "yes");
    free(w);
    mg_gen_free(g);
    free(g);
    free(dev);
    mg_diag_free(&d);
    return 0;
fail:
    mg_diag_print(&d, stderr, "bench_sim");
    return 2;
}
