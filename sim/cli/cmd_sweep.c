/*
 * cmd_sweep.c - `mgsim sweep`: simulate the members of a search space on a
 * device config (all, or the ones the pruning rules keep) on N threads,
 * into a resumable results file, and print the summary (search/sweep.h).
 */
#include "sim/cli/cli.h"
#include "sim/cli/sweep_opts.h"
#include "sim/search/sweep.h"
#include "base/jsonout.h"

#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void sweep_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim sweep --config CFG --space SPACE [--rules RULES] [--pruned-only]\n"
            "                   [-j N] [--sample auto|off|N] [-o RESULTS.jsonl [--restart]]\n"
            "                   [--cutoff F | --limit N] [--max-work N] [--json]\n"
            "                   [--no-progress] [--time]\n"
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
            "                      from another sweep is refused (exit 2) unless --restart\n"
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
            "--json                the summary as JSON\n"
            "--no-progress         no progress line (it is drawn only on a terminal)\n"
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
    int json, restart, timing;
    unsigned long long limit;     /* --limit, 0: none */
} sweep_cli;

/* Parse sweep's options into w.  Returns -1 when the command should go
 * on, else its exit status (--help: 0; a usage error, printed: 2). */
static int sweep_parse(int argc, char **argv, sweep_cli *w)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},   {"space", required_argument, NULL, 's'},
        {"rules", required_argument, NULL, 'r'},    {"pruned-only", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'j'},     {"sample", required_argument, NULL, 'S'},
        {"output", required_argument, NULL, 'o'},   {"restart", no_argument, NULL, 'R'},
        {"json", no_argument, NULL, 'J'},           {"no-progress", no_argument, NULL, 'N'},
        {"time", no_argument, NULL, 'T'},           {"help", no_argument, NULL, 'h'},
        {"limit", required_argument, NULL, 'L'},    {"cutoff", required_argument, NULL, 'X'},
        {"max-work", required_argument, NULL, 'W'},
        {NULL, 0, NULL, 0},
    };
    mg_sweep_args *a = &w->a;
    mg_sweep_args_init(a);
    w->outp = NULL;
    w->json = w->restart = w->timing = 0;
    w->limit = 0;
    char *end;
    opterr = 0;
    optind = 0;
    int c;
    while ((c = getopt_long(argc, argv, "j:o:h", opts, NULL)) != -1) {
        if (c == 'o') w->outp = optarg;
        else if (c == 'R') w->restart = 1;
        else if (c == 'J') w->json = 1;
        else if (c == 'T') w->timing = 1;
        else if (c == 'L') {
            w->limit = strtoull(optarg, &end, 10);
            if (end == optarg || *end || !w->limit || optarg[0] == '-')
                return mg_cli_usage_error("sweep", "--limit: expected a count >= 1, got '%s'",
                                          optarg);
        }
        else if (c == 'h') { sweep_usage(stdout); return MG_EXIT_OK; }
        else if (mg_sweep_args_opt(a, "sweep", c, optarg, argv[optind - 1]))
            return MG_EXIT_BAD;
    }
    if (optind < argc) return mg_cli_usage_error("sweep", "unexpected operand '%s'", argv[optind]);
    if (!a->cfg || !a->space)
        return mg_cli_usage_error("sweep", "--config and --space are required");
    if (mg_sweep_args_check(a, "sweep")) return MG_EXIT_BAD;
    if (a->cutoff > 0 && w->limit)
        return mg_cli_usage_error("sweep", "--cutoff and --limit do not combine (the bar needs "
                                  "every kept candidate first)");
    if (w->restart && !w->outp)
        return mg_cli_usage_error("sweep", "--restart needs -o RESULTS");
    return -1;
}

/* The lines on stderr after a run: records resumed, the speed (--time or
 * progress shown) and, when interrupted, what was kept. */
static void sweep_notes(const sweep_cli *w, const mg_sweep_cfg *cfg, const mg_sweep_sum *sum)
{
    if (sum->resumed)
        fprintf(stderr, "mgsim: sweep: resumed %" PRIu64 " records from %s\n", sum->resumed,
                w->outp);
    if (w->timing || cfg->progress)
        fprintf(stderr, "mgsim: sweep: simulated %" PRIu64 " candidates in %.2f s "
                "(%.2f candidates/s, -j %d; %" PRIu64 " copied from an identical simulation)\n",
                sum->ran, sum->wall_s, sum->wall_s > 0 ? (double)sum->ran / sum->wall_s : 0.0,
                cfg->threads, sum->copied);
    if (!sum->interrupted) return;
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

/* Print the summary (text or JSON) on stdout.  The exit status. */
static int sweep_report(const sweep_cli *w, const mg_sweep_sum *sum)
{
    if (w->json) {
        cJSON *j = mg_sweep_sum_json(sum);
        mg_json_write(stdout, j);
        cJSON_Delete(j);
    } else {
        mg_sweep_sum_print(sum, stdout);
    }
    return fflush(stdout) ? MG_EXIT_BAD : MG_EXIT_OK;
}

int mg_cmd_sweep(int argc, char **argv)
{
    sweep_cli w;
    int rc = sweep_parse(argc, argv, &w);
    if (rc >= 0) return rc;
    mg_diag d;
    mg_diag_init(&d);
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
        mg_cli_catch_stop();
        int run = mg_sweep_run(&cfg, sum, &d);
        mg_cli_release_stop();
        if (!run) {
            sweep_notes(&w, &cfg, sum);
            rc = sum->interrupted ? MG_EXIT_INTERRUPTED : sweep_report(&w, sum);
        }
    }
    if (rc == MG_EXIT_BAD) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    mg_sweep_inputs_free(&in);
    free(sum);
    return rc;
}
