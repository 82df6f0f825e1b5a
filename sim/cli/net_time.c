/*
 * net_time.c - `mgsim net --config` (net_time.h): load the config, the
 * rules and the given schedules, time the network (and, batched, the same
 * network at batch 1 for the comparison), write the report atomically.
 */
#include "sim/cli/net_time.h"
#include "sim/cli/cli.h"
#include "sim/cli/sweep_opts.h"
#include "sim/config/find.h"
#include "sim/nettune/nettune.h"
#include "sim/nettune/nt_fuse.h"
#include "sim/search/sweep.h"
#include "traces/gen/gen.h"
#include "base/afile.h"
#include "base/csv.h"
#include "base/jsonout.h"
#include "base/strsim.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The default rule set: rules/romou.json beside the configs (find.h's
 * search path).  Writes its path into out; 0, or -1 when none is found. */
static int default_rules(char *out, size_t len)
{
    char dir[4096];
    struct stat st;
    for (size_t i = 0; mg_config_dir(i, dir, sizeof dir); i++) {
        const char *sub[] = {"rules", "configs/rules"};
        for (int j = 0; j < 2; j++) {
            snprintf(out, len, "%s/%s/romou.json", dir, sub[j]);
            if (!stat(out, &st) && S_ISREG(st.st_mode)) return 0;
        }
    }
    return -1;
}

/* Every name of --only (comma-separated) a layer of n.  0, or -1 with an
 * error naming the first that is not (and the nearest layer). */
static int check_only(const mg_net *n, const char *only, mg_diag *d)
{
    if (!only) return 0;
    const char **names = calloc((size_t)n->nlayers + 1, sizeof *names);
    if (!names) {
        mg_diag_error(d, "out of memory");
        return -1;
    }
    for (int i = 0; i < n->nlayers; i++) names[i] = n->layers[i].name;
    int rc = 0;
    for (const char *p = only; p && !rc;) {
        const char *e = strchr(p, ',');
        char name[MG_NET_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(e ? e - p : (long)strlen(p)), p);
        int found = 0;
        for (int i = 0; i < n->nlayers && !found; i++) found = !strcmp(names[i], name);
        mg_hint h;
        if (!found) {
            mg_diag_error(d, "net: --only: %s has no layer '%s'%s", n->file, name,
                          mg_hint_near(&h, name, names, (size_t)n->nlayers, "'"));
            rc = -1;
        }
        p = e ? e + 1 : NULL;
    }
    free(names);
    return rc;
}

/* What a run needs loaded. */
typedef struct loaded {
    mg_device   dev;
    mg_rules    rules;
    int         has_rules, has_dev;
    mg_nt_given given;
    mg_nt_given stacked;          /* --batch N with --layers-only: given, N images */
    char        rules_path[4200];
} loaded;

static int load_inputs(const mg_net *n, const mg_net_time_args *a, loaded *in, mg_diag *d)
{
    if (mg_device_load(a->cfg, 0, &in->dev, d)) return -1;
    in->has_dev = 1;
    if (!a->no_rules && !a->given) {
        if (a->rules) snprintf(in->rules_path, sizeof in->rules_path, "%s", a->rules);
        else if (default_rules(in->rules_path, sizeof in->rules_path)) {
            mg_diag_error(d, "net: no default rule set (rules/romou.json) on the config "
                          "search path: give --rules FILE or --no-rules");
            return -1;
        }
        if (mg_rules_load(in->rules_path, &in->rules, d)) return -1;
        in->has_rules = 1;
    }
    if (a->given && mg_nt_given_load(a->given, n, &in->given, d)) return -1;
    if (a->given && a->batch > 1 && mg_nt_given_stack(&in->given, a->batch, &in->stacked, d))
        return -1;
    return check_only(n, a->only, d);
}

static void free_inputs(loaded *in)
{
    mg_nt_given_free(&in->given);
    mg_nt_given_free(&in->stacked);
}

/* The flag Ctrl-C sets (sweep_opts.h), as a sweep of the shared options
 * gets it. */
static volatile sig_atomic_t *stop_flag(void)
{
    mg_sweep_inputs none;
    mg_sweep_args args;
    mg_sweep_cfg c;
    memset(&none, 0, sizeof none);
    mg_sweep_args_init(&args);
    mg_sweep_cfg_init(&c, &none, &args);
    return c.stop;
}

/* The run configuration from a and the loaded inputs. */
static int make_cfg(const mg_net_time_args *a, loaded *in, mg_nt_cfg *cfg, char *cache,
                    size_t clen, mg_diag *d)
{
    memset(cfg, 0, sizeof *cfg);
    mg_nt_search *s = &cfg->search;
    s->dev = &in->dev;
    mg_sweep_hash_device(&in->dev, s->dev_hash);
    if (in->has_rules) {
        s->rules = &in->rules;
        if (mg_sweep_hash_file(in->rules_path, s->rules_hash, d)) return -1;
    }
    s->threads = a->threads;
    s->sample = a->sample;
    s->screen_k = a->given ? 0 : a->screen_k;
    s->max_work = MG_GEN_MAX_WORK_DEFAULT;
    s->stop = stop_flag();
    mg_nt_cache_dir(a->cache, cache, clen);
    if (a->no_cache) *cache = 0;
    cfg->cache = cache;
    cfg->batch = a->batch;
    cfg->given = !a->given ? NULL : a->batch > 1 ? &in->stacked : &in->given;
    cfg->progress = a->progress;
    cfg->only = a->only;
    return 0;
}

/* --concurrent K: the K instances at once (r, run at batch K) against K
 * runs of one (base, batch 1) in sequence. */
static void concurrent_print(const mg_nt_result *r, const mg_nt_result *base, FILE *f)
{
    double seq = (double)r->batch * base->total_s;
    fprintf(f, "\nconcurrent %lld instances of %s, each layer's instances in one launch: "
            "%.3f ms; in sequence %lld x %.3f = %.3f ms; x%.3f\n", (long long)r->batch,
            r->net->name, r->total_s * 1e3, (long long)r->batch, base->total_s * 1e3,
            seq * 1e3, r->total_s > 0 ? seq / r->total_s : 0);
}

static cJSON *concurrent_json(const mg_nt_result *r, const mg_nt_result *base)
{
    cJSON *o = cJSON_CreateObject();
    double seq = (double)r->batch * base->total_s;
    cJSON_AddNumberToObject(o, "instances", (double)r->batch);
    cJSON_AddNumberToObject(o, "concurrent_s", r->total_s);
    cJSON_AddNumberToObject(o, "sequence_s", seq);
    cJSON_AddNumberToObject(o, "speedup", r->total_s > 0 ? seq / r->total_s : 0);
    return o;
}

/* --csv: one row per layer of the JSON report j, its members as columns
 * and the kernel's schedule also one column per knob, the kernel's
 * operator as kernel_op (op stays the layer's: gpool runs as pool, fc as
 * matmul).  0, or -1 with the problem in d. */
static int layers_csv(const cJSON *j, const char *path, mg_diag *d)
{
    mg_csv *t = mg_csv_new();
    int bad = !t;
    const cJSON *ls = cJSON_GetObjectItemCaseSensitive(j, "layers");
    for (const cJSON *o = ls ? ls->child : NULL; o && !bad; o = o->next) {
        const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
        const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "schedule");
        bad = mg_csv_row(t) || mg_csv_set_json(t, "", o);
        if (!bad && cJSON_IsString(s) && cJSON_IsString(op)) {
            char kop[64];
            snprintf(kop, sizeof kop, "%.*s", (int)strcspn(s->valuestring, " "), s->valuestring);
            bad = mg_csv_set(t, "", "kernel_op", kop) || mg_csv_set(t, "", "op", op->valuestring);
        }
    }
    if (bad) mg_diag_error(d, "out of memory");
    else bad = mg_csv_save(t, path, d) != 0;
    mg_csv_free(t);
    return bad ? -1 : 0;
}

/* The report: --csv (the JSON report's layers, one row each) and -o (text
 * or JSON; NULL: not written), each atomically.  0, or -1 with the problem
 * in d. */
static int write_report(const mg_nt_result *r, const mg_nt_result *base,
                        const mg_nt_fusion *fu, const mg_net_time_args *a, mg_diag *d)
{
    if (a->csv) {
        cJSON *j = mg_nt_json(r, base);
        int bad = layers_csv(j, a->csv, d);
        cJSON_Delete(j);
        if (bad) return -1;
    }
    if (!a->out) return 0;
    mg_afile af;
    FILE *f = mg_afile_open(&af, a->out);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", a->out, strerror(errno));
        return -1;
    }
    if (a->json) {
        cJSON *j = mg_nt_json(r, base);
        if (fu) cJSON_AddItemToObject(j, "fusion", mg_nt_fusion_json(fu, r));
        if (a->concurrent && base) cJSON_AddItemToObject(j, "concurrent", concurrent_json(r, base));
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        mg_nt_print(r, base, f);
        if (a->concurrent && base) concurrent_print(r, base, f);
        if (fu) mg_nt_fusion_print(fu, r, f);
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed: %s", a->out, strerror(errno));
        return -1;
    }
    return 0;
}

/* -v: what this run searched and what came from the cache, on stderr. */
static void note(const mg_nt_result *r, const char *cache)
{
    int hits = 0;
    for (int i = 0; i < r->nkernels; i++) hits += r->cached[i];
    fprintf(stderr, "mgsim: net: batch %lld: %d distinct kernels, %d from the cache, %d "
            "searched (%llu candidates simulated); cache %s\n", (long long)r->batch,
            r->nkernels, hits, r->nkernels - hits, (unsigned long long)r->simulated,
            *cache ? "on" : "off");
}

/* Time n (and, batched, at batch 1 into base), try the fusions --fuse
 * asks for, and report. */
static int time_and_report(const mg_net *n, const mg_net_time_args *a, mg_nt_cfg *cfg,
                           const mg_nt_given *given1, mg_diag *d)
{
    mg_nt_result r, base;
    mg_nt_fusion fu;
    memset(&base, 0, sizeof base);
    memset(&fu, 0, sizeof fu);
    int rc = -1, has_base = cfg->batch > 1;
    mg_cli_catch_stop();
    if (!mg_nt_run(cfg, n, &r, d)) {
        if (a->verbose) note(&r, cfg->cache);
        mg_nt_cfg one = *cfg;
        one.batch = 1;
        one.given = given1;
        if ((!has_base || !mg_nt_run(&one, n, &base, d)) &&
            (!a->fuse || !mg_nt_fuse(cfg, &r, a->fuse, &fu, d))) {
            if (has_base && a->verbose) note(&base, cfg->cache);
            if (a->fuse && a->verbose)
                fprintf(stderr, "mgsim: net: fusion: %d groups tried, %llu fused kernels "
                        "simulated\n", fu.ngroups, (unsigned long long)fu.simulated);
            rc = write_report(&r, has_base ? &base : NULL, a->fuse ? &fu : NULL, a, d);
        }
    }
    mg_cli_release_stop();
    mg_nt_result_free(&r);
    mg_nt_result_free(&base);
    mg_nt_fusion_free(&fu);
    return rc;
}

int mg_net_time(const mg_net *n, const mg_net_time_args *a)
{
    mg_diag d;
    mg_diag_init(&d);
    loaded *in = calloc(1, sizeof *in);
    char cache[4200];
    mg_nt_cfg cfg;
    int rc = MG_EXIT_BAD;
    if (!in) mg_diag_error(&d, "out of memory");
    else if (!load_inputs(n, a, in, &d) && !make_cfg(a, in, &cfg, cache, sizeof cache, &d) &&
             !time_and_report(n, a, &cfg, a->given ? &in->given : NULL, &d))
        rc = MG_EXIT_OK;
    if (in) free_inputs(in);
    free(in);
    if (rc) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    return rc;
}
