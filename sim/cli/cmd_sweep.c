/*
 * cmd_sweep.c - `mgsim sweep`: simulate the members of a search space on a
 * device config (all, or the ones the pruning rules keep) on N threads,
 * into a resumable results file, and print the summary (search/sweep.h).
 */
#include "sim/cli/cli.h"
#include "sim/cli/sweep_opts.h"
#include "sim/search/shard.h"
#include "sim/search/sweep.h"
#include "sim/search/screen.h"
#include "base/afile.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void sweep_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim sweep --config CFG --space SPACE [--rules RULES] [--pruned-only]\n"
            "                   [-j N] [--sample auto|off|N] [-o RESULTS.jsonl [--restart]]\n"
            "                   [--cutoff F | --limit N] [--max-work N] [--json] [-q]\n"
            "                   [--time] [--csv FILE] [--screen analytic:K[+kept]]\n"
            "                   [--shard I/N]\n"
            "       mgsim sweep --csv FILE RESULTS.jsonl\n"
            "       mgsim sweep --config CFG --space SPACE [...] --merge -o RESULTS SHARD...\n"
            "\n"
            "Simulates every member of SPACE on CFG (with --pruned-only, only those the\n"
            "RULES keep; with RULES every record says kept or pruned and which rules\n"
            "fired) on N threads (default: the online CPUs), then prints a summary:\n"
            "space size, simulated, kept, reduction, best overall, best kept, regret\n"
            "(best kept / best overall - 1), how many of the 10 fastest are kept, the\n"
            "roofline bound of the best kernels and the %% of it they reach.\n"
            "\n"
            "-o RESULTS.jsonl      write one record per candidate (JSON Lines, in\n"
            "                      candidate order for any N; configs/README.md, \"Sweep\n"
            "                      results\"); an interrupted sweep (Ctrl-C, kill, crash)\n"
            "                      rerun with the same command resumes from the file:\n"
            "                      complete records are kept, a torn last line is cut,\n"
            "                      only the missing candidates are simulated.  A file\n"
            "                      from another sweep is refused (exit 2) unless --restart.\n"
            "                      -o - writes the records to stdout (nothing resumed)\n"
            "                      and the summary to stderr\n"
            "--sample auto|off|N   sampled simulation (default auto; off: every work group)\n"
            "-j N                  threads; the output does not depend on N\n"
            "--cutoff F            (with --rules) simulate the kept candidates first,\n"
            "                      then stop each pruned one as soon as it passes F x\n"
            "                      the best kept time (of its shape): its record says\n"
            "                      \"cut\" and the time it is slower than.  Best, regret\n"
            "                      and the top 10 stay exact; F >= 1, e.g. 1.5\n"
            "--max-work N          reject (not simulate) a candidate of more than about\n"
            "                      N warp instructions, saying so in its record\n"
            "                      (default 1e9, as `mgsim run`; 0: no limit)\n"
            "--limit N             simulate at most N more candidates, then stop (the\n"
            "                      summary covers those; rerun to go on)\n"
            "--screen analytic:K   two stages: rank every candidate to simulate with the\n"
            "                      analytical model (`mgsim run --predictor analytic`)\n"
            "                      and simulate only the K fastest of each shape;\n"
            "                      analytic:K+kept also every candidate the rules keep\n"
            "--csv FILE            also write the records as CSV to FILE (- : stdout,\n"
            "                      the summary then goes to stderr): one row per\n"
            "                      candidate, one column per schedule knob, then the\n"
            "                      record's fields (seconds, gflops, kept, fired, ...)\n"
            "--csv FILE RESULTS    only convert the results file RESULTS to CSV\n"
            "--shard I/N           simulate only shard I (0 .. N-1) of N: every\n"
            "                      candidate whose number / 16 is I modulo N; -o gets\n"
            "                      that shard's records (it resumes as any results file)\n"
            "--merge SHARD...      put the N shard files of a sweep (run with the same\n"
            "                      options and --shard 0/N .. N-1/N) together into -o\n"
            "                      RESULTS: exactly the file one process writes, and its\n"
            "                      summary; a missing, incomplete or foreign shard: exit\n"
            "                      2, nothing written.  Under mpirun, mgsim-mpi (make\n"
            "                      MPI=1) splits a sweep over the ranks by itself\n"
            "--json                the summary as JSON\n"
            "-q, --quiet           no progress line (it is drawn only on a terminal)\n"
            "--time                print the elapsed time and candidates/s on stderr\n"
            "\n"
            "Example:\n"
            "  mgsim sweep --config configs/devices/adreno640.json \\\n"
            "      --space configs/spaces/conv1x1-14x14x128x128.json \\\n"
            "      --rules configs/rules/romou.json --pruned-only -j 2 -o conv1x1-14.jsonl\n");
}

/* The command line of sweep. */
typedef struct sweep_cli {
    mg_sweep_args a;              /* the options it shares with whatif */
    const char *outp;             /* -o RESULTS, or NULL */
    const char *csv;              /* --csv FILE, or NULL */
    const char *convert;          /* the RESULTS operand of --csv FILE RESULTS */
    int temp;                     /* outp is a temporary for --csv (no -o) */
    int json, restart, timing;
    unsigned long long limit;     /* --limit, 0: none */
    uint64_t screen_k;            /* --screen analytic:K (0: none) */
    int screen_kept;
    uint32_t shard_i, shard_n;    /* --shard I/N (shard_n 0: none) */
    int merge;                    /* --merge: the operands are shard files */
    char *const *files;
    int nfiles;
} sweep_cli;

/* The combinations --shard and --merge cannot take.  Returns 0, or 2
 * after printing a usage error. */
static int sweep_check_dist(const sweep_cli *w)
{
    if ((w->shard_n || w->merge) && w->a.cutoff > 0)
        return mg_cli_usage_error("sweep", "--cutoff does not shard (its bar is the best kept "
                                  "candidate of the whole space)");
    if (!w->merge) return 0;
    if (w->shard_n) return mg_cli_usage_error("sweep", "--merge and --shard do not combine");
    if (!w->nfiles) return mg_cli_usage_error("sweep", "--merge: no shard files given");
    if (!w->outp || !strcmp(w->outp, "-"))
        return mg_cli_usage_error("sweep", "--merge needs -o RESULTS (a file)");
    if (w->limit || w->restart || w->csv)
        return mg_cli_usage_error("sweep", "--merge takes none of --limit, --restart, --csv");
    return 0;
}

/* Parse sweep's options into w.  Returns -1 when the command should go
 * on, else its exit status (--help: 0; a usage error, printed: 2). */
static int sweep_parse(int argc, char **argv, sweep_cli *w)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},   {"space", required_argument, NULL, 's'},
        {"rules", required_argument, NULL, 'r'},    {"pruned-only", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'j'},     {"sample", required_argument, NULL, 'S'},
        {"output", required_argument, NULL, 'o'},   {"restart", no_argument, NULL, 'R'},
        {"json", no_argument, NULL, 'J'},           {"quiet", no_argument, NULL, 'q'},
        {"time", no_argument, NULL, 'T'},           {"help", no_argument, NULL, 'h'},
        {"limit", required_argument, NULL, 'L'},    {"cutoff", required_argument, NULL, 'X'},
        {"max-work", required_argument, NULL, 'W'},
        {"csv", required_argument, NULL, 'C'},     {"shard", required_argument, NULL, 'H'},
        {"merge", no_argument, NULL, 'G'},
        {"no-progress", no_argument, NULL, 'N'},   /* hidden: the old spelling of -q */
        {"screen", required_argument, NULL, 'Z'},
        {NULL, 0, NULL, 0},
    };
    mg_sweep_args *a = &w->a;
    mg_sweep_args_init(a);
    w->outp = w->csv = w->convert = NULL;
    w->json = w->restart = w->timing = w->temp = 0;
    w->limit = 0;
    w->screen_k = 0;
    w->screen_kept = 0;
    w->shard_i = w->shard_n = 0;
    w->merge = w->nfiles = 0;
    w->files = NULL;
    char *end;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "sweep", "j:o:qh", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        if (c == 'o') w->outp = optarg;
        else if (c == 'R') w->restart = 1;
        else if (c == 'C') w->csv = optarg;
        else if (c == 'J') w->json = 1;
        else if (c == 'T') w->timing = 1;
        else if (c == 'G') w->merge = 1;
        else if (c == 'H') {
            if (mg_shard_parse(optarg, &w->shard_i, &w->shard_n))
                return mg_cli_usage_error("sweep", "--shard: expected I/N with 0 <= I < N, "
                                          "2 <= N <= %u (e.g. 0/4), got '%s'", MG_SHARD_MAX,
                                          optarg);
        }
        else if (c == 'L') {
            w->limit = strtoull(optarg, &end, 10);
            if (end == optarg || *end || !w->limit || optarg[0] == '-')
                return mg_cli_usage_error("sweep", "--limit: expected a count >= 1, got '%s'",
                                          optarg);
        }
        else if (c == 'h') { sweep_usage(stdout); return MG_EXIT_OK; }
        else if (c == 'Z') {
            if (mg_screen_parse(optarg, &w->screen_k, &w->screen_kept))
                return mg_cli_usage_error("sweep", "--screen: expected analytic:K or "
                                          "analytic:K+kept (K >= 1), not '%s'", optarg);
        }
        else if (mg_sweep_args_opt(a, "sweep", c, optarg))
            return MG_EXIT_BAD;
    }
    if (w->csv && optind == argc - 1 && !a->cfg && !a->space && !w->outp) {
        w->convert = argv[optind];
        return -1;
    }
    if (w->merge) {
        w->files = argv + optind;
        w->nfiles = argc - optind;
        optind = argc;
    }
    if (optind < argc)
        return mg_cli_usage_error("sweep", "unexpected operand '%s'%s", argv[optind],
                                  w->csv ? " (--csv FILE RESULTS converts RESULTS alone: no "
                                  "--config, --space or -o)" : "");
    if (!a->cfg || !a->space)
        return mg_cli_usage_error("sweep", "--config and --space are required");
    if (mg_sweep_args_check(a, "sweep")) return MG_EXIT_BAD;
    if (sweep_check_dist(w)) return MG_EXIT_BAD;
    if (a->cutoff > 0 && w->limit)
        return mg_cli_usage_error("sweep", "--cutoff and --limit do not combine (the bar needs "
                                  "every kept candidate first)");
    if (w->csv && w->outp && !strcmp(w->outp, "-"))
        return mg_cli_usage_error("sweep", "--csv: the records went to stdout (-o -); give "
                                  "-o a file");
    if (w->restart && (!w->outp || !strcmp(w->outp, "-")))
        return mg_cli_usage_error("sweep", "--restart needs -o RESULTS (a file)");
    return -1;
}

/* The lines on stderr after a run: records resumed, the speed (--time or
 * progress shown) and, when interrupted, what was kept. */
static void sweep_notes(const sweep_cli *w, const mg_sweep_cfg *cfg, const mg_sweep_sum *sum)
{
    if (w->merge && !sum->interrupted)
        fprintf(stderr, "mgsim: sweep: merged %d shard files into %s (%" PRIu64 " records)\n",
                w->nfiles, w->outp, sum->written);
    if (w->merge) return;
    if (sum->resumed)
        fprintf(stderr, "mgsim: sweep: resumed %" PRIu64 " records from %s\n", sum->resumed,
                w->outp);
    if (w->timing || cfg->progress)
        fprintf(stderr, "mgsim: sweep: simulated %" PRIu64 " candidates in %.2f s "
                "(%.2f candidates/s, -j %d; %" PRIu64 " copied from an identical simulation)\n",
                sum->ran, sum->wall_s, sum->wall_s > 0 ? (double)sum->ran / sum->wall_s : 0.0,
                cfg->threads, sum->copied);
    if (!sum->interrupted) return;
    if (w->temp) {
        fprintf(stderr, "mgsim: sweep: interrupted (no -o: nothing kept, no CSV)\n");
        return;
    }
    if (w->outp && !strcmp(w->outp, "-")) {
        fprintf(stderr, "mgsim: sweep: interrupted; stdout got %" PRIu64 " records\n",
                sum->written);
        return;
    }
    uint64_t held = sum->ran - sum->written;   /* --cutoff's first phase: not on file */
    if (w->outp && held)
        fprintf(stderr, "mgsim: sweep: interrupted; %s holds %" PRIu64 " records (the %"
                PRIu64 " kept candidates simulated first were not written yet: --cutoff "
                "writes in candidate order); rerun the same command to resume\n", w->outp,
                sum->resumed + sum->written, held);
    else if (w->outp)
        fprintf(stderr, "mgsim: sweep: interrupted; %s holds %" PRIu64 " records; rerun "
                "the same command to resume\n", w->outp, sum->resumed + sum->written);
    else
        fprintf(stderr, "mgsim: sweep: interrupted (no -o: nothing kept)\n");
}

/* Print the summary (text or JSON) on stdout, or on stderr when the
 * records went to stdout (-o - or --csv -).  The exit status. */
static int sweep_report(const sweep_cli *w, const mg_sweep_sum *sum)
{
    int taken = (w->outp && !strcmp(w->outp, "-")) || (w->csv && !strcmp(w->csv, "-"));
    FILE *f = taken ? stderr : stdout;
    if (w->json) {
        cJSON *j = mg_sweep_sum_json(sum);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        mg_sweep_sum_print(sum, f);
    }
    return fflush(f) ? MG_EXIT_BAD : MG_EXIT_OK;
}

/* --csv without -o: the records go to a temporary results file (its name
 * into buf), removed after the conversion.  0, or -1 with the problem in d. */
static int csv_temp(char *buf, size_t len, mg_diag *d)
{
    const char *dir = getenv("TMPDIR");
    snprintf(buf, len, "%s/mgsim-sweep-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(buf);
    if (fd < 0) {
        mg_diag_error(d, "%s: cannot create: %s", buf, strerror(errno));
        return -1;
    }
    close(fd);
    return 0;
}

/* --csv FILE RESULTS: convert only.  The exit status. */
static int sweep_convert(const sweep_cli *w)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_sweep_csv(w->convert, w->csv, &d) ? MG_EXIT_BAD : MG_EXIT_OK;
    mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc;
}

/* Run the sweep cfg as w asks: merge shard files, on the runner, or here.
 * Returns as mg_sweep_run; *mute set where another process reports. */
static int sweep_exec(const sweep_cli *w, mg_sweep_cfg *cfg, const mg_sweep_runner *runner,
                      mg_sweep_sum *sum, int *mute, mg_diag *d)
{
    *mute = 0;
    if (w->merge) return mg_sweep_merge(cfg, w->files, w->nfiles, sum, d);
    if (runner) return runner->run(cfg, sum, mute, d);
    return mg_sweep_run(cfg, sum, d);
}

int mg_cmd_sweep(int argc, char **argv)
{
    return mg_sweep_command(argc, argv, NULL);
}

int mg_sweep_command(int argc, char **argv, const mg_sweep_runner *runner)
{
    sweep_cli w;
    int rc = sweep_parse(argc, argv, &w);
    if (rc >= 0) return rc;
    if (!runner && mg_sweep_under_mpi() > 1 && !w.shard_n && !w.merge && !w.convert)
        return mg_cli_usage_error("sweep", "started by mpirun with %d processes, but this "
                                  "mgsim has no MPI: run mgsim-mpi (make MPI=1), or give "
                                  "each process --shard I/N", mg_sweep_under_mpi());
    if (w.convert) return sweep_convert(&w);
    mg_diag d;
    mg_diag_init(&d);
    char tmp[4200] = "";
    int slot = -1;                        /* the temporary, removed on a signal too */
    if (w.csv && !w.outp) {
        if (csv_temp(tmp, sizeof tmp, &d)) {
            mg_diag_print(&d, stderr, "mgsim");
            mg_diag_free(&d);
            return MG_EXIT_BAD;
        }
        slot = mg_afile_track(tmp, 0);
        w.outp = tmp;
        w.temp = 1;
    }
    mg_sweep_inputs in;
    memset(&in, 0, sizeof in);
    mg_sweep_sum *sum = calloc(1, sizeof *sum);
    rc = MG_EXIT_BAD;
    if (sum && !mg_sweep_inputs_load(&in, &w.a, &d)) {
        mg_sweep_cfg cfg;
        mg_sweep_cfg_init(&cfg, &in, &w.a);
        cfg.results = w.outp;
        cfg.restart = w.restart;
        cfg.limit = w.limit;
        cfg.screen_k = w.screen_k;
        cfg.screen_kept = w.screen_kept;
        cfg.id.shard_i = w.shard_i;
        cfg.id.shard_n = w.shard_n;
        mg_cli_catch_stop();
        int mute, run = sweep_exec(&w, &cfg, runner, sum, &mute, &d);
        mg_cli_release_stop();
        if (mute) {
            rc = run ? MG_EXIT_BAD : sum->interrupted ? MG_EXIT_INTERRUPTED : MG_EXIT_OK;
        } else if (!run) {
            sweep_notes(&w, &cfg, sum);
            rc = sum->interrupted ? MG_EXIT_INTERRUPTED : MG_EXIT_OK;
            if (rc == MG_EXIT_OK && w.csv && mg_sweep_csv(w.outp, w.csv, &d)) rc = MG_EXIT_BAD;
            if (rc == MG_EXIT_OK) rc = sweep_report(&w, sum);
        }
    }
    if (*tmp) unlink(tmp);
    mg_afile_untrack(slot);
    if (rc == MG_EXIT_BAD) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    mg_sweep_inputs_free(&in);
    free(sum);
    return rc;
}
