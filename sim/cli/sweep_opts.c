/* sweep_opts.c - see sweep_opts.h. */
#include "sim/cli/sweep_opts.h"
#include "base/term.h"
#include "sim/cli/cli.h"
#include "base/afile.h"
#include "base/jsonfile.h"
#include "traces/gen/gen.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The one piece of global state: written by the signal handler only. */
static volatile sig_atomic_t stop_flag;
static struct timespec stop_at;

/* The first signal asks for a clean stop; another one a second or more
 * later kills at once, removing the temporaries of base/afile (one sent
 * twice at the same moment, as `timeout` does to a process and its group,
 * counts once). */
static void on_stop(int sig)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (!stop_flag) {
        stop_at = t;
        stop_flag = 1;
    } else if (t.tv_sec - stop_at.tv_sec >= 2) {
        mg_afile_remove_tracked();
        signal(sig, SIG_DFL);
        raise(sig);
    }
}

void mg_cli_catch_stop(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    stop_flag = 0;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void mg_cli_release_stop(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
}

int mg_sweep_under_mpi(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"};
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return atoi(v);
    }
    return 0;
}

void mg_sweep_args_init(mg_sweep_args *a)
{
    memset(a, 0, sizeof *a);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    a->threads = n < 1 ? 1 : n > 256 ? 256 : (int)n;
    a->sample = MG_SAMPLE_AUTO;
    a->progress = mg_term_progress();
    a->max_work = MG_GEN_MAX_WORK_DEFAULT;
}

int mg_sweep_args_opt(mg_sweep_args *a, const char *cmd, int c, const char *arg)
{
    char *end;
    long n;
    switch (c) {
    case 'c': a->cfg = arg; return 0;
    case 's': a->space = arg; return 0;
    case 'r': a->rules = arg; return 0;
    case 'P': a->pruned_only = 1; return 0;
    case 'q':
    case 'N': a->progress = 0; return 0;
    case 'j':
        errno = 0;
        n = strtol(arg, &end, 10);
        if (errno || end == arg || *end || n < 1 || n > 256)
            return mg_cli_usage_error(cmd, "-j: expected a thread count in [1, 256], got '%s'",
                                      arg);
        a->threads = (int)n;
        return 0;
    case 'X':
        errno = 0;
        a->cutoff = strtod(arg, &end);
        if (errno || end == arg || *end || !(a->cutoff >= 1.0 && a->cutoff <= 1000.0))
            return mg_cli_usage_error(cmd, "--cutoff: expected a factor in [1, 1000] (e.g. "
                                      "1.5), got '%s'", arg);
        return 0;
    case 'W':
        if (mg_gen_max_work_parse(arg, &a->max_work))
            return mg_cli_usage_error(cmd, "--max-work: expected a whole number >= 0 (0: no "
                                      "limit), got '%s'", arg);
        return 0;
    case 'S':
        if (mg_sample_parse(arg, &a->sample))
            return mg_cli_usage_error(cmd, "--sample: expected auto, off or a number of waves "
                                      "in [1, 1000], got '%s'", arg);
        return 0;
    default:                       /* '?': base/opts.h printed why */
        return MG_EXIT_BAD;
    }
}

int mg_sweep_args_check(const mg_sweep_args *a, const char *cmd)
{
    if (a->pruned_only && !a->rules) return mg_cli_usage_error(cmd, "--pruned-only needs --rules");
    if (a->cutoff > 0 && !a->rules)
        return mg_cli_usage_error(cmd, "--cutoff needs --rules (its bar is the best kept "
                                  "candidate)");
    if (a->cutoff > 0 && a->pruned_only)
        return mg_cli_usage_error(cmd, "--cutoff applies to pruned candidates; --pruned-only "
                                  "simulates none");
    return 0;
}

int mg_sweep_inputs_load(mg_sweep_inputs *in, const mg_sweep_args *a, mg_diag *d)
{
    memset(in, 0, sizeof *in);
    in->dev = calloc(1, sizeof *in->dev);
    in->sp = calloc(1, sizeof *in->sp);
    if (a->rules) in->rules = calloc(1, sizeof *in->rules);
    if (!in->dev || !in->sp || (a->rules && !in->rules)) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    char cpath[4096];  /* a config name (adreno640) resolves through the search path */
    in->doc = mg_device_json_load(a->cfg, cpath, sizeof cpath, d);
    int bad = !in->doc || mg_device_from_json(in->doc, a->cfg, 0, in->dev, d);
    bad |= mg_space_load(a->space, in->sp, d) != 0;
    if (a->rules) bad |= mg_rules_load(a->rules, in->rules, d) != 0;
    if (bad) return -1;
    return mg_sweep_ident_fill(&in->id, in->dev, a->space, in->sp, a->rules, in->rules, d);
}

void mg_sweep_inputs_free(mg_sweep_inputs *in)
{
    cJSON_Delete(in->doc);
    if (in->sp) mg_space_free(in->sp);
    free(in->dev);
    free(in->sp);
    free(in->rules);
    memset(in, 0, sizeof *in);
}

void mg_sweep_cfg_init(mg_sweep_cfg *cfg, const mg_sweep_inputs *in, const mg_sweep_args *a)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->dev = in->dev;
    cfg->space = in->sp;
    cfg->rules = in->rules;
    cfg->id = in->id;
    cfg->pruned_only = a->pruned_only;
    cfg->cutoff = a->cutoff;
    cfg->threads = a->threads;
    cfg->sample = a->sample;
    cfg->max_work = a->max_work;
    cfg->progress = a->progress;
    cfg->stop = &stop_flag;
}
