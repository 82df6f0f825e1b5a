/*
 * cmd_net.c - `mgsim net NETWORK`: load and check a network description
 * (configs/networks/, sim/net/net.h) and print its layers, shapes and
 * costs against the published figures, as text or JSON; with --config,
 * time it on a device (net_time.h: every layer's best kernel).
 */
#include "sim/cli/cli.h"
#include "sim/cli/net_time.h"
#include "sim/net/net.h"
#include "sim/nettune/nt_fuse.h"
#include "sim/model/model.h"
#include "sim/search/screen.h"
#include "base/afile.h"
#include "base/csv.h"
#include "base/jsonout.h"
#include "base/opts.h"
#include "base/term.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void net_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim net NETWORK [--json] [-o FILE] [--csv FILE]\n"
            "       mgsim net --config CFG NETWORK [--rules FILE | --no-rules] [--tune]\n"
            "                 [--screen analytic:K] [-j N] [--sample auto|off|N]\n"
            "                 [--batch N] [--layers-only SCHEDULES.json] [--only L1,L2]\n"
            "                 [--fuse sequential|parallel|both] [--concurrent K]\n"
            "                 [--cache DIR | --no-cache] [-v] [-q] [--json] [-o FILE]\n"
            "                 [--csv FILE]\n"
            "\n"
            "Load and check a network description (configs/networks/*.json, format in\n"
            "configs/networks/README.md): every layer's operator, keys, inputs and\n"
            "shape; the graph acyclic.  Prints the totals (MACs, params, FLOPs)\n"
            "against the published figures the file cites, and one row per layer in\n"
            "execution order.\n"
            "\n"
            "With --config, times the network on CFG: each layer's search space is\n"
            "derived from its shape (the knob families of configs/spaces/), pruned by\n"
            "the rules (default: rules/romou.json on the config search path), swept,\n"
            "and its best kernel simulated; identical layers are searched once and\n"
            "results are cached on disk by content.  Latency = the sum over layers of\n"
            "launches x (kernel + the config's core.dispatch_gap).  A layer the\n"
            "generator cannot run is listed as not simulated, with the reason.\n"
            "\n"
            "  --json              the report as JSON (mgsim-network-info/1, or with\n"
            "                      --config mgsim-net-time/1: `mgsim plot net` reads it)\n"
            "  -o FILE             write the report to FILE (all or nothing; - is stdout)\n"
            "  --csv FILE          also write one row per layer as CSV to FILE (the JSON\n"
            "                      report's layers; with --config each kernel's\n"
            "                      schedule knobs as columns); --csv - prints it alone\n"
            "  --rules FILE        the rule set that prunes each layer's space\n"
            "  --no-rules          simulate every candidate\n"
            "  --tune              screen analytically (analytic:%d) on all CPUs\n"
            "  --screen analytic:K simulate only the K analytically fastest kept candidates\n"
            "  -j N                threads (default: the online CPUs)\n"
            "  --sample auto|off|N sampled simulation (default auto)\n"
            "  --batch N           N images per launch (1-64), stacked as an outer\n"
            "                      dimension; the report compares per-image throughput\n"
            "                      with batch 1\n"
            "  --layers-only FILE  no search: the schedules FILE gives per layer\n"
            "                      ({\"schema\": \"mgsim-net-schedules/1\", \"layers\":\n"
            "                      {\"NAME\": \"op key=value ...\"}}); with --batch N,\n"
            "                      each schedule's H (or M) times N, not re-tuned\n"
            "  --concurrent K      K instances of the network at once (one model on K\n"
            "                      inputs): each layer's K instances in one launch, as\n"
            "                      --batch K stacks them; compared with K runs in sequence\n"
            "  --only L1,L2,...    time only these layers (the others: not asked for)\n"
            "  --fuse KIND         try fusions and report the gain per fused group:\n"
            "                      sequential (a conv2d and the pooling after it as one\n"
            "                      convpool kernel), parallel (2-3 independent layers of\n"
            "                      one graph level as one fuse launch) or both; a group\n"
            "                      is adopted where it beats its layers' time\n"
            "  --cache DIR         the cache folder (default $MGSIM_CACHE, else\n"
            "                      $XDG_CACHE_HOME/mgsim, else ~/.cache/mgsim)\n"
            "  --no-cache          neither read nor write the cache\n"
            "  -v, --verbose       say on stderr how many kernels were searched and how\n"
            "                      many came from the cache\n"
            "  -q, --quiet         no progress lines (a line per layer searched, drawn\n"
            "                      only when stderr is a terminal and TERM is not dumb)\n"
            "\n"
            "A bad network, config, rule set, schedules file or option is one line\n"
            "naming the file and the problem (exit 2); nothing is written then.\n",
            MG_NET_TUNE_K);
}

/* The report of the network alone: --csv (its layers) and -o (text or
 * JSON; out NULL: another output has stdout), each atomically.  0, or -1
 * with the problem in d. */
static int write_report(const mg_net *n, int json, const char *out, const char *csv, mg_diag *d)
{
    if (csv) {
        cJSON *j = mg_net_json(n);
        int bad = mg_csv_save_rows(cJSON_GetObjectItemCaseSensitive(j, "layers"), csv, d);
        cJSON_Delete(j);
        if (bad) return -1;
    }
    if (!out) return 0;
    mg_afile af;
    FILE *f = mg_afile_open(&af, out);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", out, strerror(errno));
        return -1;
    }
    if (json) {
        cJSON *j = mg_net_json(n);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        mg_net_print(n, f);
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", out, strerror(errno));
        return -1;
    }
    return 0;
}

/* The options of --config into a; 'c' .. 'v'.  0, or 2 after a usage error. */
static int time_opt(mg_net_time_args *a, int c, const char *arg)
{
    char *end;
    long long v;
    switch (c) {
    case 'c': a->cfg = arg; return 0;
    case 'r': a->rules = arg; return 0;
    case 'R': a->no_rules = 1; return 0;
    case 'C': a->cache = arg; return 0;
    case 'N': a->no_cache = 1; return 0;
    case 'L': a->given = arg; return 0;
    case 'O': a->only = arg; return 0;
    case 'v': a->verbose = 1; return 0;
    case 'F':
        for (int m = 1; mg_nt_fuse_names[m]; m++)
            if (!strcmp(arg, mg_nt_fuse_names[m])) {
                a->fuse = m;
                return 0;
            }
        return mg_cli_usage_error("net", "--fuse: expected sequential, parallel or both, not "
                                  "'%s'", arg);
    case 'T': if (!a->screen_k) a->screen_k = MG_NET_TUNE_K; return 0;
    case 'Z': {
        int kept;
        if (mg_screen_parse(arg, &a->screen_k, &kept) || kept)
            return mg_cli_usage_error("net", "--screen: expected analytic:K (K >= 1), not '%s'",
                                      arg);
        return 0;
    }
    case 'S':
        if (mg_sample_parse(arg, &a->sample))
            return mg_cli_usage_error("net", "--sample: expected auto, off or N >= 1, not '%s'",
                                      arg);
        return 0;
    case 'j':
    case 'B':
    case 'K':
        v = strtoll(arg, &end, 10);
        if (end == arg || *end || v < 1 || v > (c == 'j' ? 1024 : 64))
            return mg_cli_usage_error("net", "%s: expected a whole number from 1 to %d, got "
                                      "'%s'", c == 'j' ? "-j" : c == 'B' ? "--batch" :
                                      "--concurrent", c == 'j' ? 1024 : 64, arg);
        if (c == 'j') a->threads = (int)v;
        else if (c == 'B') a->batch = v;
        else a->concurrent = (int)v;
        return 0;
    }
    return MG_EXIT_BAD;
}

/* The combinations the options cannot take.  0, or 2 after a usage error. */
static int time_check(const mg_net_time_args *a, int timed)
{
    if (!a->cfg && timed)
        return mg_cli_usage_error("net", "--rules, --tune, --screen, --batch, --concurrent, "
                                  "--layers-only, --only, --fuse, --cache and -j need --config "
                                  "CFG");
    if (a->rules && a->no_rules) return mg_cli_usage_error("net", "--rules or --no-rules, not both");
    if (a->cache && a->no_cache) return mg_cli_usage_error("net", "--cache or --no-cache, not both");
    if (a->cache && !strcmp(a->cache, "-"))
        return mg_cli_usage_error("net", "--cache -: the cache is a folder, which cannot be "
                                  "stdout");
    if (a->concurrent && a->batch > 1)
        return mg_cli_usage_error("net", "--concurrent K runs K instances as one batch of K: "
                                  "not with --batch");
    if (a->given && (a->screen_k || a->rules))
        return mg_cli_usage_error("net", "--layers-only searches nothing: no --tune, --screen "
                                  "or --rules");
    return 0;
}

int mg_cmd_net(int argc, char **argv)
{
    static const struct option opts[] = {
        {"json", no_argument, NULL, 'x'},          {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},          {"config", required_argument, NULL, 'c'},
        {"rules", required_argument, NULL, 'r'},   {"no-rules", no_argument, NULL, 'R'},
        {"cache", required_argument, NULL, 'C'},   {"no-cache", no_argument, NULL, 'N'},
        {"layers-only", required_argument, NULL, 'L'}, {"verbose", no_argument, NULL, 'v'},
        {"tune", no_argument, NULL, 'T'},          {"screen", required_argument, NULL, 'Z'},
        {"sample", required_argument, NULL, 'S'},  {"jobs", required_argument, NULL, 'j'},
        {"batch", required_argument, NULL, 'B'},   {"only", required_argument, NULL, 'O'},
        {"csv", required_argument, NULL, 'V'},     {"quiet", no_argument, NULL, 'q'},
        {"fuse", required_argument, NULL, 'F'},    {"concurrent", required_argument, NULL, 'K'},
        {NULL, 0, NULL, 0},
    };
    int json = 0, c, timed = 0, out_given = 0;
    const char *out = "-", *csv = NULL;
    mg_net_time_args a;
    memset(&a, 0, sizeof a);
    a.batch = 1;
    a.sample = MG_SAMPLE_AUTO;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    a.threads = cpus > 0 ? (int)cpus : 1;
    a.progress = mg_term_progress();
    mg_opts po;
    mg_opts_start(&po, "mgsim", "net", "o:hvqj:", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        if (c == 'x') json = 1;
        else if (c == 'o') out = optarg, out_given = 1;
        else if (c == 'V') csv = optarg;
        else if (c == 'q') a.progress = 0;
        else if (c == 'h') { net_usage(stdout); return MG_EXIT_OK; }
        else if (c == '?' || c == ':') return MG_EXIT_BAD;
        else if (time_opt(&a, c, optarg)) return MG_EXIT_BAD;
        else timed |= c != 'c' && c != 'v';
    }
    if (argc - optind != 1) return mg_cli_usage_error("net", "expected one network file");
    if (csv && !strcmp(csv, "-")) {
        if (out_given && !strcmp(out, "-"))
            return mg_cli_usage_error("net", "-o - and --csv -: only one output can go to stdout");
        if (!out_given) out = NULL;
    }
    if (time_check(&a, timed)) return MG_EXIT_BAD;
    if (a.concurrent) a.batch = a.concurrent;
    mg_diag d;
    mg_diag_init(&d);
    mg_net n;
    int rc = MG_EXIT_OK;
    if (mg_net_load(argv[optind], &n, &d)) {
        rc = MG_EXIT_BAD;
    } else {
        a.json = json;
        a.out = out;
        a.csv = csv;
        if (a.cfg) rc = mg_net_time(&n, &a);
        else if (write_report(&n, json, out, csv, &d)) rc = MG_EXIT_BAD;
        mg_net_free(&n);
    }
    if (rc && d.n) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc;
}
