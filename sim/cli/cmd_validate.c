/*
 * cmd_validate.c - `mgsim validate`: simulate every kernel of a timings
 * document (`mgprobe time`) on a device config and score the predictions
 * against the measurements (sim/analysis/validate.h): per kernel, per
 * search-space group and overall; text, JSON and a log-log scatter.
 */
#include "sim/analysis/validate.h"
#include "sim/cli/cli.h"
#include "sim/config/device.h"
#include "sim/model/model.h"
#include "sim/plot/plot.h"
#include "traces/gen/gen.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/csv.h"
#include "base/opts.h"
#include "sim/analytic/analytic.h"
#include "base/strsim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void validate_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim validate --config CFG --timings T.json [--json] [-o FILE]\n"
            "                      [--json-file FILE] [--plot OUT.png|OUT.svg]\n"
            "                      [--plot-residuals OUT.png|OUT.svg] [-j N]\n"
            "                      [--regs estimate|compiler] [--sample off|auto|N]\n"
            "                      [--compare OTHER.json [--compare-file FILE]] [--csv FILE]\n"
            "                      [--max-work N] [--predictor sim|analytic] [--by KNOB] [-q]\n"
            "\n"
            "Regenerates every kernel timed ok in T.json (written by `mgprobe time`;\n"
            "the schedule words are in it) and simulates it on CFG, then reports per\n"
            "kernel the measured median and the prediction, and per search-space group\n"
            "(the operator and its shape) and overall: MAPE, aggregate error (sum\n"
            "predicted / sum measured - 1), Pearson r (of times and of log times),\n"
            "Spearman rho, Kendall tau-b, the measurement's own tau (even vs odd\n"
            "repetitions: the ceiling), top-1 regret (measured time of the model's pick\n"
            "/ measured best - 1) and top-5 recall.  Measurements faster than the\n"
            "model's roofline bound are flagged; kernels not timed ok are listed with\n"
            "their reason.  The generator's register estimate is compared with the\n"
            "compiler's count where the timings have it (NVIDIA: -cl-nv-verbose).\n"
            "Where it misses: per group the worst-predicted kernels against the best,\n"
            "by what binds them in the simulation (stall shares, roofline level,\n"
            "occupancy, registers), and the residuals grouped by each knob's value.\n"
            "\n"
            "  --json            the report as JSON (schema mgsim-validate/1)\n"
            "  -o FILE           write the report to FILE (atomically), not stdout\n"
            "  --json-file FILE  also write the JSON report to FILE\n"
            "  --plot OUT        a log-log scatter, predicted vs measured, with y = x\n"
            "                    (gnuplot; the same as `mgsim plot validate` on the JSON)\n"
            "  --plot-residuals OUT  predicted / measured per kernel by each knob's value\n"
            "                    (the same as `mgsim plot validate-residuals` on the JSON)\n"
            "  -j N              simulate N kernels at once (threads; same output)\n"
            "  --regs compiler   simulate with the compiler's register count where the\n"
            "                    timings have one (default: the generator's estimate)\n"
            "  --predictor analytic  score the analytical model (mgsim run --predictor\n"
            "                    analytic) instead of the simulation (default sim)\n"
            "  --sample MODE     off (default: every work group, exact), auto, or N waves\n"
            "  --max-work N      a kernel of more than about N warp instructions is\n"
            "                    listed as failed with its estimate, not simulated\n"
            "                    (default 1e9, as `mgsim run`; 0: no limit)\n"
            "  --compare OTHER   side by side with OTHER, the JSON report of another\n"
            "                    config on the same timings: per group both configs'\n"
            "                    tau, regret and MAPE, the difference and the better one\n"
            "  --compare-file F  also write that comparison alone (text) to F\n"
            "  --csv FILE        also write one row per kernel as CSV to FILE: the\n"
            "                    schedule's knobs as columns, then measured_ns,\n"
            "                    predicted_ns, error (predicted / measured - 1), ...\n"
            "  --by KNOB         also break the kernels down by KNOB's value (storage,\n"
            "                    tile, wg, vec, ..., occupancy) across groups, with the\n"
            "                    correlation of achieved GFLOPS (flops / time) besides\n"
            "                    that of times: for suites of one kernel per layer\n"
            "  -q, --quiet       no progress line (it is drawn only on a terminal)\n"
            "\n"
            "One output at most may be - (stdout; an image there: PNG, not on a\n"
            "terminal).  The report goes to stdout unless -o is given or another\n"
            "output is - (e.g. --csv - prints the CSV alone).\n"
            "\n"
            "Exit status: 0, or 2 for bad input (unreadable files, a wrong schema,\n"
            "schedule words the generator rejects).\n"
            "\n"
            "Example:\n"
            "  mgsim validate --config configs/devices/nvidia-h100.json \\\n"
            "      --timings configs/measured/h100/timings.json -j 2 --plot validate.png\n");
}

/* Whether plot kind `kind` can be drawn: gnuplot on PATH and its script
 * found (into *gnuplot and *scripts, to free, when not NULL).  0, or -1
 * with the reason in d (opt: the option, for messages). */
static int plot_ready(const char *kind, const char *opt, char **gnuplot, char **scripts,
                      mg_diag *d)
{
    const mg_plot_kind *pk = mg_plot_kind_find(kind);
    char *g = mg_plot_find_gnuplot(), *s = mg_plot_find_scripts(pk->script);
    int rc = 0;
    if (!g) {
        mg_diag_error(d, "%s: gnuplot not found on PATH (Debian: apt-get install "
                      "gnuplot-nox); the JSON report has the data", opt);
        rc = -1;
    } else if (!s) {
        mg_diag_error(d, "%s: cannot find the gnuplot script %s (looked in $MGSIM_PLOTS, "
                      "BINDIR/../share/mgsim/plots and BINDIR/../plots)", opt, pk->script);
        rc = -1;
    }
    if (rc || !gnuplot) free(g);
    else *gnuplot = g;
    if (rc || !scripts) free(s);
    else *scripts = s;
    return rc;
}

/* Render the plot kind `kind` (validate, validate-residuals) of the JSON
 * report j into out (opt: the option, for messages). */
static int plot(const cJSON *j, const char *kind, const char *opt, const char *out, mg_diag *d)
{
    const mg_plot_kind *pk = mg_plot_kind_find(kind);
    char *gnuplot = NULL, *scripts = NULL;
    mg_plot_job job;
    int rc = -1;
    char path[4200] = "";
    memset(&job, 0, sizeof job);
    if (plot_ready(kind, opt, &gnuplot, &scripts, d)) goto done;
    if (mg_plot_job_init(&job, NULL, d)) goto done;
    snprintf(path, sizeof path, "%s/validate.json", job.dir);
    char *in[1] = {path};
    if (mg_json_save(path, j, d) || pk->prepare(&job, 1, in, d) ||
        mg_plot_job_finish(&job, d) || mg_plot_render(&job, gnuplot, scripts, pk->script, out, d))
        goto done;
    rc = 0;
done:
    if (path[0]) remove(path);
    if (job.dir[0]) mg_plot_job_free(&job);
    free(gnuplot);
    free(scripts);
    return rc;
}

static int parse_sample(const char *s, int *out)
{
    if (!strcmp(s, "off")) *out = MG_SAMPLE_OFF;
    else if (!strcmp(s, "auto")) *out = MG_SAMPLE_AUTO;
    else {
        char *e;
        long v = strtol(s, &e, 10);
        if (*e || v < 1 || v > 1000000) return -1;
        *out = (int)v;
    }
    return 0;
}

/* The command line of validate. */
typedef struct validate_args {
    const char *cfg, *timings, *out, *jfile, *png;   /* out "-": stdout */
    const char *rpng, *other, *cfile;                /* --plot-residuals, --compare(-file) */
    const char *csv;                                 /* --csv FILE */
    int json;
    mg_validate_opts vo;
} validate_args;

/* Is path "-" (stdout)? */
static int is_stdout(const char *path)
{
    return path && !strcmp(path, "-");
}

/* Before any simulation: the plots asked for can be drawn (nothing is
 * written when they cannot).  0, or -1 with the reason on stderr. */
static int plots_ready(const validate_args *a)
{
    mg_diag d;
    mg_diag_init(&d);
    if (a->png) plot_ready("validate", "--plot", NULL, NULL, &d);
    if (a->rpng) plot_ready("validate-residuals", "--plot-residuals", NULL, NULL, &d);
    int rc = mg_diag_failed(&d) ? -1 : 0;
    mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc;
}

/* At most one output on stdout: with none named -o, the report gives way
 * to another output that is - (a->out NULL: not written); an image there
 * must not go to a terminal.  Returns -1 to go on, or 2 after a usage
 * error. */
static int check_stdout(validate_args *a, int out_given)
{
    static const char *const names[] = {"-o", "--json-file", "--plot", "--plot-residuals",
                                        "--compare-file", "--csv"};
    const char *vals[] = {out_given ? a->out : NULL, a->jfile, a->png, a->rpng, a->cfile, a->csv};
    int first = -1;
    for (int i = 0; i < 6; i++) {
        if (!vals[i] || strcmp(vals[i], "-")) continue;
        if (first >= 0)
            return mg_cli_usage_error("validate", "%s - and %s -: only one output can go to "
                                      "stdout", names[first], names[i]);
        first = i;
    }
    if ((is_stdout(a->png) || is_stdout(a->rpng)) && isatty(STDOUT_FILENO))
        return mg_cli_usage_error("validate", "an image on stdout (-): stdout is a terminal; "
                                  "redirect it to a file or a pipe");
    if (first > 0 && !out_given) a->out = NULL;
    return -1;
}

/* Parse -j N (1..256) into *jobs.  0, or the usage error's exit status. */
static int parse_jobs(const char *s, int *jobs)
{
    char *e;
    long v = strtol(s, &e, 10);
    if (*e || v < 1 || v > 256)
        return mg_cli_usage_error("validate", "-j: expected 1..256, got '%s'", s);
    *jobs = (int)v;
    return 0;
}

/* Parse --by KNOB (one of mg_vknob_names) into *by (1 + its index).  0, or the usage
 * error's exit status. */
static int parse_by(const char *s, int *by)
{
    for (int j = 0; j < MG_VKNOB_COUNT; j++)
        if (!strcmp(s, mg_vknob_names[j])) {
            *by = j + 1;
            return 0;
        }
    mg_hint h;
    char known[256];
    return mg_cli_usage_error("validate", "--by: unknown knob '%s'%s (known: %s)", s,
                              mg_hint_near(&h, s, mg_vknob_names, MG_VKNOB_COUNT, "'"),
                              mg_join_names(known, sizeof known, mg_vknob_names,
                                            MG_VKNOB_COUNT, ", "));
}

/* Parse validate's options into a.  Returns -1 when the command should go
 * on, else its exit status (--help: 0; a usage error, printed: 2). */
static int validate_parse(int argc, char **argv, validate_args *a)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},    {"timings", required_argument, NULL, 't'},
        {"json", no_argument, NULL, 'J'},            {"output", required_argument, NULL, 'o'},
        {"json-file", required_argument, NULL, 'F'}, {"plot", required_argument, NULL, 'p'},
        {"jobs", required_argument, NULL, 'j'},      {"regs", required_argument, NULL, 'r'},
        {"sample", required_argument, NULL, 's'},    {"help", no_argument, NULL, 'h'},
        {"plot-residuals", required_argument, NULL, 'R'},
        {"compare", required_argument, NULL, 'C'},   {"compare-file", required_argument, NULL, 'G'},
        {"max-work", required_argument, NULL, 'W'},
        {"quiet", no_argument, NULL, 'q'},          {"csv", required_argument, NULL, 'V'},
        {"predictor", required_argument, NULL, 'P'},
        {"by", required_argument, NULL, 'B'},
        {NULL, 0, NULL, 0},
    };
    *a = (validate_args){.out = "-",
                         .vo = {.regs = MG_VREGS_ESTIMATE, .sample = MG_SAMPLE_OFF, .jobs = 1,
                                .max_work = MG_GEN_MAX_WORK_DEFAULT}};
    int c, out_given = 0;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "validate", "c:t:o:j:qh", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'c': a->cfg = optarg; break;
        case 't': a->timings = optarg; break;
        case 'J': a->json = 1; break;
        case 'o': a->out = optarg, out_given = 1; break;
        case 'F': a->jfile = optarg; break;
        case 'p': a->png = optarg; break;
        case 'R': a->rpng = optarg; break;
        case 'C': a->other = optarg; break;
        case 'G': a->cfile = optarg; break;
        case 'q': a->vo.quiet = 1; break;
        case 'V': a->csv = optarg; break;
        case 'B':
            if (parse_by(optarg, &a->vo.by)) return MG_EXIT_BAD;
            break;
        case 'j':
            if (parse_jobs(optarg, &a->vo.jobs)) return MG_EXIT_BAD;
            break;
        case 'r':
            if (!strcmp(optarg, "estimate")) a->vo.regs = MG_VREGS_ESTIMATE;
            else if (!strcmp(optarg, "compiler")) a->vo.regs = MG_VREGS_COMPILER;
            else return mg_cli_usage_error("validate", "--regs: expected estimate or "
                                           "compiler, got '%s'", optarg);
            break;
        case 's':
            if (parse_sample(optarg, &a->vo.sample))
                return mg_cli_usage_error("validate", "--sample: expected off, auto or a "
                                          "number of waves, got '%s'", optarg);
            break;
        case 'W':
            if (mg_gen_max_work_parse(optarg, &a->vo.max_work))
                return mg_cli_usage_error("validate", "--max-work: expected a whole number "
                                          ">= 0 (0: no limit), got '%s'", optarg);
            break;
        case 'P':
            if (mg_am_predictor_parse(optarg, &a->vo.predictor))
                return mg_cli_usage_error("validate", "--predictor: expected sim or analytic, "
                                          "got '%s'", optarg);
            break;
        case 'h': validate_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (!a->cfg) return mg_cli_usage_error("validate", "--config CFG is required");
    if (!a->timings) return mg_cli_usage_error("validate", "--timings T.json is required");
    if (optind < argc)
        return mg_cli_usage_error("validate", "unexpected argument '%s'", argv[optind]);
    if (a->png && !mg_plot_term(a->png))
        return mg_cli_usage_error("validate", "--plot %s: unknown image type (use .png or "
                                  ".svg)", a->png);
    if (a->rpng && !mg_plot_term(a->rpng))
        return mg_cli_usage_error("validate", "--plot-residuals %s: unknown image type (use "
                                  ".png or .svg)", a->rpng);
    if (a->cfile && !a->other)
        return mg_cli_usage_error("validate", "--compare-file needs --compare OTHER.json");
    if (plots_ready(a)) return MG_EXIT_BAD;
    return check_stdout(a, out_given);
}

/* Write print(v) to path ("-": stdout) atomically.  0, or -1 with a
 * message in d. */
static int write_text(const char *path, const mg_validation *v,
                      void (*print)(FILE *, const mg_validation *), mg_diag *d)
{
    mg_afile af;
    FILE *f = mg_afile_open(&af, path);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    print(f, v);
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* Write the report j (of v) to --json-file, the plots, --compare-file and
 * -o (text or JSON, atomically).  0, or -1 with messages in d. */
static int validate_write(const validate_args *a, const cJSON *j, const mg_validation *v,
                          mg_diag *d)
{
    if (a->jfile && mg_json_save(a->jfile, j, d)) return -1;
    if (a->png && plot(j, "validate", "--plot", a->png, d)) return -1;
    if (a->rpng && plot(j, "validate-residuals", "--plot-residuals", a->rpng, d)) return -1;
    if (a->cfile && write_text(a->cfile, v, mg_validate_print_compare, d)) return -1;
    if (a->csv && mg_csv_save_rows(cJSON_GetObjectItemCaseSensitive(j, "kernels"), a->csv, d))
        return -1;
    if (!a->out) return 0;                  /* another output has stdout */
    if (a->json) return mg_json_save(a->out, j, d);
    return write_text(a->out, v, mg_validate_print_text, d);
}

int mg_cmd_validate(int argc, char **argv)
{
    validate_args a;
    int rc = validate_parse(argc, argv, &a);
    if (rc >= 0) return rc;
    mg_diag d;
    mg_diag_init(&d);
    rc = MG_EXIT_BAD;
    mg_validation v;
    memset(&v, 0, sizeof v);
    cJSON *j = NULL, *other = NULL;
    mg_device *dev = malloc(sizeof *dev);
    if (!dev || mg_device_load(a.cfg, 0, dev, &d)) goto done;
    if (a.other && !(other = mg_validate_compare_load(a.other, &d))) goto done;
    if (mg_validate_run(dev, a.cfg, a.timings, &a.vo, &v, &d)) goto done;
    if (other && mg_validate_compare(&v, other, a.other, &d)) goto done;
    j = mg_validate_to_json(&v);
    if (!j) {
        mg_diag_error(&d, "out of memory");
        goto done;
    }
    if (!validate_write(&a, j, &v, &d)) rc = MG_EXIT_OK;
done:
    if (mg_diag_failed(&d)) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    cJSON_Delete(j);
    cJSON_Delete(other);
    mg_validate_free(&v);
    free(dev);
    return rc;
}
