/*
 * cmd_run.c - `mgsim run`: replay a trace (a file, or a schedule generated
 * in memory) on a device config and report time, occupancy, per-level
 * traffic, stalls and the roofline.
 */
#include "sim/cli/cli.h"
#include "sim/cli/prog_source.h"
#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "sim/analytic/analytic.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static void run_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim run --config CFG OP [key=value ...] [--sample MODE] [--max-work N]\n"
            "                 [--predictor sim|analytic] [--json] [-o FILE] [-q]\n"
            "       mgsim run --config CFG --trace FILE [--json] [-o FILE]\n"
            "\n"
            "Replays a kernel's access trace on the device config CFG: the trace of\n"
            "a schedule generated in memory (no file; warp= defaults to the device's\n"
            "warp width), or a trace file from `mgsim gen -o`.  Reports cycles, time,\n"
            "GFLOPS, occupancy, per-level accesses/hits/misses/bytes, ALU utilization,\n"
            "stalls and the roofline; --json for tools.  See sim/MODEL.md.\n"
            "\n"
            "--sample off|auto|N   sampled simulation (default off): replay a warm-up\n"
            "    and measured waves of work-group dispatch (auto: as many as the\n"
            "    estimated error needs; N: N waves), skip the middle of the launch,\n"
            "    replay its end, and extrapolate; the report gives the work groups\n"
            "    simulated and the estimated error.  A --trace file cannot skip:\n"
            "    every work group is replayed.\n"
            "--predictor analytic   TMModel's analytical estimate instead of the\n"
            "    simulation: thread, warp and work-group levels from one work group's\n"
            "    trace (sim/MODEL.md, \"The analytical model\"); default sim.\n"
            "--max-work N   refuse at once a schedule of more than about N warp\n"
            "    instructions (estimated from its plan, as `mgsim gen` prints it;\n"
            "    default 1e9, a few minutes; 0: no limit).  With --sample the whole\n"
            "    launch is counted.  Runs of 10^6 or more show a progress line on a\n"
            "    terminal (stderr, TERM not dumb).\n"
            "-q, --quiet   no progress line.\n"
            "\n"
            "Example:\n"
            "  mgsim run --config configs/devices/adreno640.json conv2d H=56 W=56 \\\n"
            "      Cin=128 Cout=128 K=1 tile=4x4 wg=16,4 layout=image storage=fp16\n"
            "  mgsim run --config configs/devices/adreno640.json --sample auto conv2d \\\n"
            "      H=112 W=112 Cin=64 Cout=64 K=3 pad=1 tile=2x4 wg=8,8\n");
}

/* Run the schedule words through the generator with warp= defaulted. */
static int run_schedule(const mg_device *dev, int n, char **words, mg_gen *g, mg_diag *d)
{
    char **w = calloc((size_t)n + 2, sizeof *w);
    if (!w) return -1;
    int has_warp = 0;
    for (int i = 1; i < n; i++) {
        w[i - 1] = words[i];
        has_warp |= !strncmp(words[i], "warp=", 5);
    }
    char warp[32];
    int m = n - 1;
    if (!has_warp) {
        snprintf(warp, sizeof warp, "warp=%lld", (long long)dev->warp_width);
        w[m++] = warp;
    }
    mg_schedule s;
    int rc = mg_schedule_parse(words[0], m, w, &s, d);
    free(w);
    if (rc) return -1;
    return mg_gen_prepare(g, &s, d);
}

/* Print, now (before the report), the warning that the trace's warps are
 * not the device's.  Its own collector, so the config loader's warnings,
 * which `run` does not show, stay unprinted. */
static void warn_warp_width(const mg_device *dev, const mg_trace_header *hdr, const char *what)
{
    mg_diag w;
    mg_diag_init(&w);
    mg_diag_warn(&w, "%s: the trace groups lanes in warps of %u, %s's warp is %lld: the "
                 "trace's warps are replayed as they are (regenerate with warp=%lld to match)",
                 what, hdr->warp_width, dev->name, (long long)dev->warp_width,
                 (long long)dev->warp_width);
    mg_diag_print(&w, stderr, "mgsim");
    mg_diag_free(&w);
}

/* The command line of run. */
typedef struct run_args {
    const char *cfg, *trace, *out;    /* out "-": stdout */
    int json, sample, predictor, quiet;
    double max_work;                  /* --max-work (0: no limit) */
    int nwords;                       /* the schedule (OP key=value ...), when no --trace */
    char **words;
} run_args;

/* Parse run's options into a.  Returns -1 when the command should go on,
 * else its exit status (--help: 0; a usage error, printed: 2). */
static int run_parse(int argc, char **argv, run_args *a)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'}, {"trace", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'j'},         {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {"sample", required_argument, NULL, 's'},
        {"max-work", required_argument, NULL, 'W'}, {"predictor", required_argument, NULL, 'p'},
        {"quiet", no_argument, NULL, 'q'},        {NULL, 0, NULL, 0},
    };
    *a = (run_args){.out = "-", .sample = MG_SAMPLE_OFF, .max_work = MG_GEN_MAX_WORK_DEFAULT};
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "run", "c:t:o:hq", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'c': a->cfg = optarg; break;
        case 't': a->trace = optarg; break;
        case 'j': a->json = 1; break;
        case 'o': a->out = optarg; break;
        case 'q': a->quiet = 1; break;
        case 'h': run_usage(stdout); return MG_EXIT_OK;
        case 's':
            if (mg_sample_parse(optarg, &a->sample))
                return mg_cli_usage_error("run", "--sample: expected off, auto or a number of "
                                          "waves 1..1000, not '%s'", optarg);
            break;
        case 'W':
            if (mg_gen_max_work_parse(optarg, &a->max_work))
                return mg_cli_usage_error("run", "--max-work: expected a whole number >= 0 "
                                          "(0: no limit), not '%s'", optarg);
            break;
        case 'p':
            if (mg_am_predictor_parse(optarg, &a->predictor))
                return mg_cli_usage_error("run", "--predictor: expected sim or analytic, not "
                                          "'%s'", optarg);
            break;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (!a->cfg) return mg_cli_usage_error("run", "--config CFG is required");
    if (!a->trace && optind >= argc)
        return mg_cli_usage_error("run", "expected --trace FILE or a schedule (OP key=value ...)");
    if (a->trace && optind < argc)
        return mg_cli_usage_error("run", "give --trace FILE or a schedule, not both");
    a->nwords = argc - optind;
    a->words = argv + optind;
    return -1;
}

/* Simulate src on dev and write the report (text or JSON) to -o
 * atomically.  0, or -1 with messages in d. */
static int run_report(const run_args *a, const mg_device *dev, mg_trace_source *src, mg_diag *d)
{
    mg_sim_stats st;
    mg_sim_opts so = {0};
    mg_am_est am;
    mg_roofline rf;
    so.sample = a->sample;
    if (a->predictor == MG_PRED_ANALYTIC) {
        if (mg_am_estimate(dev, src, &am, d)) return -1;
    } else {
        if (mg_sim_run(dev, src, &so, &st, d)) return -1;
        mg_roofline_compute(dev, &st, &rf);
    }
    mg_afile af;
    FILE *f = mg_afile_open(&af, a->out);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", a->out, strerror(errno));
        return -1;
    }
    if (a->json) {
        cJSON *j = a->predictor == MG_PRED_ANALYTIC ? mg_am_to_json(dev, src->hdr, &am)
                                                    : mg_sim_to_json(dev, src->hdr, &st, &rf);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else if (a->predictor == MG_PRED_ANALYTIC) {
        mg_am_print_text(f, dev, src->hdr, &am);
    } else {
        mg_sim_print_text(f, dev, src->hdr, &st, &rf);
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", a->out, strerror(errno));
        return -1;
    }
    return 0;
}

int mg_cmd_run(int argc, char **argv)
{
    run_args a;
    int rc = run_parse(argc, argv, &a);
    if (rc >= 0) return rc;
    mg_diag d;
    mg_diag_init(&d);
    rc = MG_EXIT_BAD;
    mg_device *dev = malloc(sizeof *dev);
    mg_gen *g = calloc(1, sizeof *g);
    mg_trace_reader *rd = NULL;
    mg_trace_source src;
    mg_gen_stream gs;
    mg_prog_source ps;
    memset(&ps, 0, sizeof ps);
    if (!dev || !g || mg_device_load(a.cfg, 0, dev, &d)) goto done;
    if (a.trace) {
        rd = mg_trace_reader_open(a.trace, &d);
        if (!rd) goto done;
        src = mg_trace_reader_source(rd);
        struct stat st;
        if (!a.quiet && !stat(a.trace, &st))
            mg_prog_source_wrap_file(&ps, &src, (uint64_t)st.st_size, "mgsim: run");
    } else {
        if (run_schedule(dev, a.nwords, a.words, g, &d) || mg_gen_check_work(g, a.max_work, &d))
            goto done;
        src = mg_gen_source(&gs, g);
        if (!a.quiet) mg_prog_source_wrap(&ps, &src, g, "mgsim: run");
    }
    if (src.hdr->warp_width != (uint32_t)dev->warp_width)
        warn_warp_width(dev, src.hdr, a.trace ? a.trace : src.hdr->kernel);
    if (!run_report(&a, dev, &src, &d)) rc = MG_EXIT_OK;
    mg_prog_source_end(&ps);
done:
    /* warnings (unsourced config values) are not interesting here */
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    if (rd) mg_trace_reader_close(rd);
    if (g) mg_gen_free(g);
    free(g);
    free(dev);
    return rc;
}
