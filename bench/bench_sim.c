/*
 * bench_sim.c - full-simulation speed: warp instructions and lane accesses
 * replayed per second, and peak memory, for one schedule on one config.
 * Prints; asserts nothing.
 *
 *   bench_sim [--csv FILE --commit C --machine M] CONFIG OP key=value ...
 *
 * Measures, single-threaded (so the rates are per core):
 *   generation alone   every work group generated in record form (what the
 *                      simulator's source does), nothing simulated;
 *   in memory          mg_sim_run() on the generator's source, the best of
 *                      RUNS runs (the figure `make bench` reports);
 *   simulation alone   in memory minus generation alone;
 *   from a file        the trace written to a temporary file, then replayed
 *                      with `mgsim run --trace`'s reader (decoding and
 *                      checking every record), the best of RUNS runs.
 * Every run must give the same statistics; the line "identical" says so.
 * With --csv, one row per run is appended to FILE (a header first when the
 * file is new or empty): the date, commit and machine given, then the
 * figures, numbers in fixed formats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "base/afile.h"

#define RUNS 3

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_maxrss / 1024.0;
}

/* The figures of one bench run. */
typedef struct figures {
    char   sched[1024], device[64], date[32];
    const char *config, *commit, *machine;
    uint64_t warp_instrs, lane_accesses;
    double cycles;
    double t_gen, t_mem, t_file;       /* seconds; t_file < 0: not measured */
    double peak_mem;                   /* MiB, after the in-memory runs */
    int    identical;
} figures;

static double rate(double n, double t) { return t > 0 ? n / t / 1e6 : 0; }

/* Generate every work group of g in record form; returns the seconds. */
static double time_gen(const mg_gen *g)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    uint64_t n = mg_gen_num_wgs(g);
    double t0 = now();
    for (uint64_t i = 0; i < n; i++) {
        wg.want_recs = 1;
        mg_gen_trace_wg(g, i, &wg);
    }
    double t = now() - t0;
    mg_trace_wg_free(&wg);
    return t;
}

/* Replay the trace written to a temporary file, the best of RUNS runs
 * (opening the file included); returns the seconds, or a negative value
 * when the file cannot be written or read (message in d). */
static double time_file(const mg_device *dev, const mg_gen *g, const mg_sim_stats *ref,
                        int *identical, mg_diag *d)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/bench_sim.%ld.mgt", dir && *dir ? dir : "/tmp", (long)getpid());
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    if (mg_trace_write_all(path, &src, d)) return -1;
    double best = -1;
    for (int run = 0; run < RUNS; run++) {
        double t0 = now(), t = -1;
        mg_trace_reader *rd = mg_trace_reader_open(path, d);
        if (rd) {
            mg_trace_source fsrc = mg_trace_reader_source(rd);
            mg_sim_opts o = {.quiet = 1};
            mg_sim_stats st;
            if (mg_sim_run(dev, &fsrc, &o, &st, d) == 0) {
                t = now() - t0;
                if (memcmp(&st, ref, sizeof st)) *identical = 0;
            }
            mg_trace_reader_close(rd);
        }
        if (t < 0) {
            best = -1;
            break;
        }
        if (best < 0 || t < best) best = t;
    }
    remove(path);
    return best;
}

static void print_figures(const figures *f)
{
    double wi = (double)f->warp_instrs, la = (double)f->lane_accesses;
    double t_sim = f->t_mem - f->t_gen;
    printf("sim %s on %s\n", f->sched, f->device);
    printf("  %llu warp instructions, %llu lane accesses, %.0f simulated cycles\n",
           (unsigned long long)f->warp_instrs, (unsigned long long)f->lane_accesses, f->cycles);
    printf("  full simulation, trace generated in memory (best of %d): %.3f s, "
           "%.2f M warp instructions/s, %.1f M lane accesses/s\n", RUNS, f->t_mem,
           rate(wi, f->t_mem), rate(la, f->t_mem));
    printf("  of which generation (records in memory): %.3f s; simulation alone: "
           "%.2f M warp instructions/s, %.1f M lane accesses/s\n", f->t_gen, rate(wi, t_sim),
           rate(la, t_sim));
    if (f->t_file >= 0)
        printf("  full simulation from a trace file (decoded and checked, best of %d): %.3f s, "
               "%.2f M warp instructions/s (%.2fx the in-memory time)\n", RUNS, f->t_file,
               rate(wi, f->t_file), f->t_mem > 0 ? f->t_file / f->t_mem : 0);
    printf("  peak memory %.1f MiB; every run identical: %s\n", f->peak_mem,
           f->identical ? "yes" : "NO");
}

/* Append f as a CSV row to path (header first when the file is new or
 * empty), through a temporary file renamed into place.  Returns 0, -1. */
static int append_csv(const char *path, const figures *f)
{
    static const char header[] =
        "date,commit,machine,config,device,schedule,warp_instrs,lane_accesses,cycles,"
        "gen_s,full_s,full_Mwarp_instr_per_s,full_Mlane_access_per_s,sim_only_Mwarp_instr_per_s,"
        "file_s,file_Mwarp_instr_per_s,peak_MiB,identical\n";
    FILE *in = fopen(path, "rb");
    mg_afile af;
    FILE *out = mg_afile_open(&af, path);
    if (!out) {
        if (in) fclose(in);
        return -1;
    }
    long old = 0;
    if (in) {
        char buf[65536];
        size_t k;
        while ((k = fread(buf, 1, sizeof buf, in)) > 0) {
            fwrite(buf, 1, k, out);
            old += (long)k;
        }
        fclose(in);
    }
    if (old == 0) fputs(header, out);
    double wi = (double)f->warp_instrs;
    fprintf(out, "%s,%s,\"%s\",%s,%s,\"%s\",%llu,%llu,%.0f,%.4f,%.4f,%.3f,%.2f,%.3f,", f->date,
            f->commit, f->machine, f->config, f->device, f->sched,
            (unsigned long long)f->warp_instrs, (unsigned long long)f->lane_accesses, f->cycles,
            f->t_gen, f->t_mem, rate(wi, f->t_mem), rate((double)f->lane_accesses, f->t_mem),
            rate(wi, f->t_mem - f->t_gen));
    if (f->t_file >= 0) fprintf(out, "%.4f,%.3f,", f->t_file, rate(wi, f->t_file));
    else fputs(",,", out);
    fprintf(out, "%.1f,%s\n", f->peak_mem, f->identical ? "yes" : "no");
    return mg_afile_commit(&af);
}

int main(int argc, char **argv)
{
    const char *csv = NULL, *commit = "unknown", *machine = "unknown";
    int a = 1;
    for (; a + 1 < argc && !strncmp(argv[a], "--", 2); a += 2) {
        if (!strcmp(argv[a], "--csv")) csv = argv[a + 1];
        else if (!strcmp(argv[a], "--commit")) commit = argv[a + 1];
        else if (!strcmp(argv[a], "--machine")) machine = argv[a + 1];
        else break;
    }
    if (argc - a < 2 || !strncmp(argv[a], "--", 2)) {
        fprintf(stderr, "usage: bench_sim [--csv FILE --commit C --machine M] CONFIG OP "
                        "key=value ...\n");
        return 2;
    }
    mg_diag d;
    mg_diag_init(&d);
    mg_device *dev = malloc(sizeof *dev);
    mg_gen *g = calloc(1, sizeof *g);
    figures *f = calloc(1, sizeof *f);
    mg_schedule s;
    char **w = calloc((size_t)argc + 1, sizeof *w);
    int n = 0;
    for (int i = a + 2; i < argc; i++) w[n++] = argv[i];
    char warp[32];
    if (!dev || !g || !f || !w || mg_device_load(argv[a], 0, dev, &d)) goto fail;
    snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
    w[n++] = warp;
    if (mg_schedule_parse(argv[a + 1], n, w, &s, &d) || mg_gen_prepare(g, &s, &d)) goto fail;
    mg_sim_stats st, st2;
    mg_sim_opts o = {.quiet = 1};
    f->identical = 1;
    f->t_mem = -1;
    for (int run = 0; run < RUNS; run++) {
        mg_gen_stream gs;
        mg_trace_source src = mg_gen_source(&gs, g);
        double t0 = now();
        if (mg_sim_run(dev, &src, &o, run ? &st2 : &st, &d)) goto fail;
        double t = now() - t0;
        if (f->t_mem < 0 || t < f->t_mem) f->t_mem = t;
        if (run && memcmp(&st, &st2, sizeof st)) f->identical = 0;
    }
    f->peak_mem = peak_mib();
    f->t_gen = time_gen(g);
    for (int run = 1; run < RUNS; run++) {
        double t = time_gen(g);
        if (t < f->t_gen) f->t_gen = t;
    }
    f->t_file = time_file(dev, g, &st, &f->identical, &d);
    if (f->t_file < 0 && mg_diag_failed(&d)) goto fail;
    mg_schedule_format(&g->s, f->sched, sizeof f->sched);
    snprintf(f->device, sizeof f->device, "%s", dev->name);
    time_t tt = time(NULL);
    strftime(f->date, sizeof f->date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&tt));
    f->config = argv[a];
    f->commit = commit;
    f->machine = machine;
    f->warp_instrs = st.warp_instrs;
    f->lane_accesses = st.lane_accesses;
    f->cycles = st.cycles;
    print_figures(f);
    if (csv) {
        if (append_csv(csv, f)) {
            perror(csv);
            goto fail;
        }
        printf("  appended to %s\n", csv);
    }
    free(w);
    mg_gen_free(g);
    free(g);
    free(f);
    free(dev);
    mg_diag_free(&d);
    return 0;
fail:
    mg_diag_print(&d, stderr, "bench_sim");
    return 2;
}
