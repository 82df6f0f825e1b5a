/*
 * cmd_prune.c - `mgsim prune`: apply hardware pruning rules (rule.h) to
 * every member of a search space on a device config, from static features
 * only, and optionally check the decisions against a recorded golden.
 */
#include "sim/cli/cli.h"
#include "sim/config/device.h"
#include "traces/gen/gen.h"
#include "sim/search/rule.h"
#include "sim/search/rule_golden.h"
#include "sim/search/space.h"
#include "sim/search/sweep.h"
#include "base/afile.h"
#include "base/jsonfile.h"
#include "base/jsonout.h"
#include "base/opts.h"
#include "base/term.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void prune_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim prune --config CFG --space SPACE --rules RULES [--json]\n"
            "                   [--summary] [-o FILE] [--golden G.json [--update-golden]\n"
            "                   [--results R.jsonl]] [-q]\n"
            "\n"
            "Plans every member of SPACE (static features, no simulation) and applies\n"
            "the enabled RULES with CFG's figures: each candidate is kept or pruned\n"
            "with the rules that fired, then a summary (size, kept, reduction, per-rule\n"
            "counts).  --summary prints the summary only; -o writes the report to FILE\n"
            "atomically; --json prints it as JSON; -q (--quiet) draws no progress\n"
            "line (it is drawn only on a terminal).\n"
            "\n"
            "--golden G.json       compare every decision with G (recorded by\n"
            "                      --update-golden): exit 1 with a diff when any\n"
            "                      candidate flips kept<->pruned or its fired rules\n"
            "                      change, or when G's recorded best is pruned\n"
            "--update-golden       record the decisions in G (atomically)\n"
            "--results R.jsonl     with --update-golden: also record the best kernel of\n"
            "                      the sweep results R (`mgsim sweep -o R`, the fastest\n"
            "                      simulated candidate of this space), so a later check\n"
            "                      fails when a rule change prunes it\n"
            "\n"
            "Rules: configs/rules/ (romou.json: romou Table 1); spaces: configs/spaces/;\n"
            "schemas in configs/README.md.\n");
}

typedef struct pctx {
    const mg_device *dev;
    const mg_rules *rules;
    FILE *out;                 /* text lines, or NULL */
    cJSON *arr;                /* JSON candidates, or NULL */
    mg_decisions *rec;         /* decisions, or NULL */
    uint64_t kept, fired[MG_RULE_COUNT], only[MG_RULE_COUNT];
    mg_diag *d;
    int failed;
    int progress;              /* draw the count on stderr */
    uint64_t seen;             /* candidates planned so far */
    double t0, last;           /* start, last drawn (seconds) */
} pctx;

/* Seconds on a monotonic clock. */
static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The progress line, at most every 0.25 s (final: now, then erased). */
static void prune_progress(pctx *x, int final)
{
    double t = now_s();
    if (!final && t - x->last < 0.25) return;
    x->last = t;
    double el = t - x->t0;
    fprintf(stderr, "\rprune: %" PRIu64 " candidates planned, %" PRIu64 " kept  %.1f "
            "candidates/s\033[K", x->seen, x->kept, el > 0 ? (double)x->seen / el : 0.0);
    if (final) fputs("\r\033[K", stderr);
    fflush(stderr);
}

static int prune_one(void *p, const mg_space_cand *c)
{
    pctx *x = p;
    mg_gen g;
    if (mg_gen_plan(&g, &c->s, x->d)) { x->failed = 1; return 1; }
    unsigned m = mg_rules_eval(x->rules, x->dev, &c->s, &g.k);
    x->kept += m == 0;
    x->seen++;
    if (x->progress) prune_progress(x, 0);
    for (int i = 0; i < MG_RULE_COUNT; i++)
        if (m & (1u << i)) {
            x->fired[i]++;
            if (m == (1u << i)) x->only[i]++;
        }
    if (!x->out && !x->arr && !x->rec) return 0;
    char sched[1024], rules[128];
    mg_schedule_format(&c->s, sched, sizeof sched);
    mg_rules_mask_str(m, rules, sizeof rules);
    if (x->out) {
        if (m) fprintf(x->out, "pruned %s  [%s]\n", sched, rules);
        else fprintf(x->out, "kept   %s\n", sched);
    }
    if (x->arr) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", (double)c->index);
        cJSON_AddStringToObject(o, "schedule", sched);
        cJSON_AddBoolToObject(o, "kept", m == 0);
        cJSON *a = cJSON_AddArrayToObject(o, "fired");
        for (int i = 0; i < MG_RULE_COUNT; i++)
            if (m & (1u << i)) cJSON_AddItemToArray(a, cJSON_CreateString(mg_rule_names[i]));
        cJSON_AddItemToArray(x->arr, o);
    }
    if (x->rec && mg_decisions_add(x->rec, sched, m)) { x->failed = 1; return 1; }
    return 0;
}

/* The fastest simulated candidate of the sweep results at path (schema
 * mgsim-sweep/1, configs/README.md): its member index and time, and the
 * space size its header names (*size).  The file must be a sweep of the
 * space named sp.  Returns 0, or -1 with an error naming the file (and
 * line) in d. */
static int results_best(const char *path, const mg_space *sp, uint64_t *size, uint64_t *index,
                        double *seconds, mg_diag *d)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        mg_diag_error(d, "%s: cannot read: %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    int rc = -1, found = 0;
    while (getline(&line, &cap, f) > 0) {
        no++;
        if (no == 1) {
            mg_diag e;
            mg_diag_init(&e);
            cJSON *h = mg_json_parse(path, line, strlen(line), &e);
            mg_diag_free(&e);
            const cJSON *sc = cJSON_GetObjectItemCaseSensitive(h, "schema");
            const cJSON *nm = cJSON_GetObjectItemCaseSensitive(h, "space");
            const cJSON *sz = cJSON_GetObjectItemCaseSensitive(h, "size");
            int good = cJSON_IsString(sc) && !strcmp(sc->valuestring, MG_SWEEP_SCHEMA);
            if (!good)
                mg_diag_error(d, "%s:1: not sweep results (expected a header with schema \"%s\")",
                              path, MG_SWEEP_SCHEMA);
            else if (!cJSON_IsString(nm) || strcmp(nm->valuestring, sp->name)) {
                mg_diag_error(d, "%s:1: a sweep of space %s, not of %s", path,
                              cJSON_IsString(nm) ? nm->valuestring : "?", sp->name);
                good = 0;
            } else if (!cJSON_IsNumber(sz) || !(sz->valuedouble >= 0 && sz->valuedouble < 0x1p63)) {
                mg_diag_error(d, "%s:1: $.size: expected the space's size, 0 to 2^63", path);
                good = 0;
            } else {
                *size = (uint64_t)sz->valuedouble;
            }
            cJSON_Delete(h);
            if (!good) goto done;
            continue;
        }
        mg_sweep_result r;
        char err[256];
        if (mg_sweep_result_parse(line, &r, err, sizeof err)) {
            mg_diag_error(d, "%s:%ld: %s", path, no, err);
            goto done;
        }
        if (r.index >= *size) {
            mg_diag_error(d, "%s:%ld: index %" PRIu64 " past the space's %" PRIu64 " members",
                          path, no, r.index, *size);
            mg_sweep_result_free(&r);
            goto done;
        }
        if (r.ok && (!found || r.seconds < *seconds)) {   /* ties: the lower index */
            *index = r.index;
            *seconds = r.seconds;
            found = 1;
        }
        mg_sweep_result_free(&r);
    }
    if (no == 0) mg_diag_error(d, "%s: empty (expected sweep results)", path);
    else if (!found) mg_diag_error(d, "%s: no simulated candidate to take the best from", path);
    else rc = 0;
done:
    free(line);
    fclose(f);
    return rc;
}

static double reduction(uint64_t size, uint64_t kept)
{
    return size ? 100.0 * (double)(size - kept) / (double)size : 0.0;
}

static void summary_text(FILE *f, const mg_space *sp, const mg_space_stats *st,
                         const mg_device *dev, const mg_rules *r, const pctx *x)
{
    fprintf(f, "space      %s (%s): %" PRIu64 " candidates (%" PRIu64 " raw, %" PRIu64
            " excluded, %" PRIu64 " invalid)\n", sp->name, sp->op, st->size, st->raw,
            st->excluded, st->invalid);
    fprintf(f, "config     %s\n", dev->name);
    fprintf(f, "rules      %s\n", r->name);
    fprintf(f, "kept       %" PRIu64 " of %" PRIu64 " (reduction %.2f%%)\n", x->kept, st->size,
            reduction(st->size, x->kept));
    fprintf(f, "rule           enabled  fired     only\n");
    for (int i = 0; i < MG_RULE_COUNT; i++)
        fprintf(f, "%-14s %-8s %-9" PRIu64 " %" PRIu64 "\n", mg_rule_names[i],
                r->enabled[i] ? "yes" : "no", x->fired[i], x->only[i]);
}

static cJSON *summary_json(const mg_space *sp, const mg_space_stats *st, const mg_device *dev,
                           const mg_rules *r, const pctx *x)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "space", sp->name);
    cJSON_AddStringToObject(j, "op", sp->op);
    cJSON_AddStringToObject(j, "config", dev->name);
    cJSON_AddStringToObject(j, "rules", r->name);
    cJSON_AddNumberToObject(j, "raw", (double)st->raw);
    cJSON_AddNumberToObject(j, "excluded", (double)st->excluded);
    cJSON_AddNumberToObject(j, "invalid", (double)st->invalid);
    cJSON_AddNumberToObject(j, "size", (double)st->size);
    cJSON_AddNumberToObject(j, "kept", (double)x->kept);
    cJSON_AddNumberToObject(j, "reduction_pct", reduction(st->size, x->kept));
    cJSON *pr = cJSON_AddObjectToObject(j, "per_rule");
    for (int i = 0; i < MG_RULE_COUNT; i++) {
        cJSON *o = cJSON_AddObjectToObject(pr, mg_rule_names[i]);
        cJSON_AddBoolToObject(o, "enabled", r->enabled[i]);
        cJSON_AddNumberToObject(o, "fired", (double)x->fired[i]);
        cJSON_AddNumberToObject(o, "only", (double)x->only[i]);
    }
    return j;
}

typedef struct prune_args {
    const char *cfg, *space, *rules, *outp, *golden, *results;
    int json, summary, update, quiet;
} prune_args;

/* Parse prune's options into a.  Returns -1 when the command should go
 * on, else its exit status (--help: 0; a usage error, printed: 2). */
static int prune_parse(int argc, char **argv, prune_args *a)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'}, {"space", required_argument, NULL, 's'},
        {"rules", required_argument, NULL, 'r'},  {"json", no_argument, NULL, 'j'},
        {"summary", no_argument, NULL, 'S'},      {"output", required_argument, NULL, 'o'},
        {"golden", required_argument, NULL, 'g'}, {"update-golden", no_argument, NULL, 'u'},
        {"results", required_argument, NULL, 'R'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0},
    };
    memset(a, 0, sizeof *a);
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "prune", "o:qh", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        switch (c) {
        case 'c': a->cfg = optarg; break;
        case 's': a->space = optarg; break;
        case 'r': a->rules = optarg; break;
        case 'j': a->json = 1; break;
        case 'S': a->summary = 1; break;
        case 'o': a->outp = optarg; break;
        case 'g': a->golden = optarg; break;
        case 'u': a->update = 1; break;
        case 'R': a->results = optarg; break;
        case 'q': a->quiet = 1; break;
        case 'h': prune_usage(stdout); return MG_EXIT_OK;
        default:
            return MG_EXIT_BAD;
        }
    }
    if (optind < argc) return mg_cli_usage_error("prune", "unexpected operand '%s'", argv[optind]);
    if (!a->cfg || !a->space || !a->rules)
        return mg_cli_usage_error("prune", "--config, --space and --rules are required");
    if (a->update && !a->golden)
        return mg_cli_usage_error("prune", "--update-golden needs --golden");
    if (a->results && !a->update)
        return mg_cli_usage_error("prune", "--results records a best: it needs --update-golden");
    return -1;
}

/* What prune reads and what it decides. */
typedef struct prune_state {
    mg_device *dev;
    mg_space *sp;
    mg_space_stats *st;
    mg_rules r;
    mg_decisions cur, gold;      /* this run's decisions; the golden's (checking) */
    uint64_t best, rsize;        /* --results: the best's index, the sweep's space size */
    double best_s;               /* --results: the best's time */
} prune_state;

/* Load the config, space and rules, the golden when checking it, and the
 * best of --results.  0, or -1 with messages in d. */
static int prune_load(const prune_args *a, prune_state *ps, mg_diag *d)
{
    if (!ps->dev || !ps->sp || !ps->st) return -1;
    if (mg_device_load(a->cfg, 0, ps->dev, d) | mg_space_load(a->space, ps->sp, d) |
        mg_rules_load(a->rules, &ps->r, d))
        return -1;
    if (a->golden && !a->update && mg_golden_read(a->golden, &ps->gold, d)) return -1;
    if (a->results && results_best(a->results, ps->sp, &ps->rsize, &ps->best, &ps->best_s, d))
        return -1;
    return 0;
}

/* Decide every member of the space and write the report (the candidate
 * lines or array, then the summary) to -o or stdout; the decisions go to
 * ps->cur when there is a golden.  0, or -1 with messages in d. */
static int prune_report(const prune_args *a, prune_state *ps, mg_diag *d)
{
    mg_afile af;
    FILE *f = stdout;
    if (a->outp && !(f = mg_afile_open(&af, a->outp))) {
        mg_diag_error(d, "%s: cannot write: %s", a->outp, strerror(errno));
        return -1;
    }
    pctx x = {.dev = ps->dev,
              .rules = &ps->r,
              .out = (!a->json && !a->summary) ? f : NULL,
              .arr = (a->json && !a->summary) ? cJSON_CreateArray() : NULL,
              .rec = a->golden ? &ps->cur : NULL,
              .d = d,
              .progress = !a->quiet && mg_term_progress()};
    x.t0 = x.last = now_s();
    mg_space_enumerate(ps->sp, prune_one, &x, ps->st);
    if (x.progress) prune_progress(&x, 1);
    if (x.failed || (a->results && ps->rsize != ps->st->size)) {
        if (a->results && ps->rsize != ps->st->size)
            mg_diag_error(d, "%s: a sweep of %" PRIu64 " members, the space has %" PRIu64
                          " now (regenerate the results)", a->results, ps->rsize, ps->st->size);
        if (a->outp) mg_afile_abort(&af);
        cJSON_Delete(x.arr);
        return -1;
    }
    if (a->json) {
        cJSON *j = summary_json(ps->sp, ps->st, ps->dev, &ps->r, &x);
        if (x.arr) cJSON_AddItemToObject(j, "candidates", x.arr);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        summary_text(f, ps->sp, ps->st, ps->dev, &ps->r, &x);
    }
    if (a->outp && mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed", a->outp);
        return -1;
    }
    return 0;
}

/* --update-golden: record this run's decisions (and the --results best)
 * in the golden, and say so on stderr.  The exit status. */
static int prune_record(const prune_args *a, prune_state *ps, mg_diag *d)
{
    mg_decisions *cur = &ps->cur;
    snprintf(cur->config, sizeof cur->config, "%s", ps->dev->name);
    snprintf(cur->space, sizeof cur->space, "%s", ps->sp->name);
    snprintf(cur->rules, sizeof cur->rules, "%s", ps->r.name);
    uint64_t bi = ps->best;
    if (a->results && bi >= cur->n) {
        mg_diag_error(d, "%s: best #%" PRIu64 " is not a member of the space", a->results, bi);
        return MG_EXIT_BAD;
    }
    if (a->results && !(cur->best = strdup(cur->v[bi].sched))) return MG_EXIT_BAD;
    if (mg_golden_write(a->golden, cur, d)) return MG_EXIT_BAD;
    if (a->results)
        fprintf(stderr, "mgsim: prune: recorded %zu decisions and the best (#%" PRIu64
                ", %.6g s, %s now) in %s\n", cur->n, bi, ps->best_s,
                cur->v[bi].mask ? "pruned" : "kept", a->golden);
    else fprintf(stderr, "mgsim: prune: recorded %zu decisions in %s\n", cur->n, a->golden);
    return MG_EXIT_OK;
}

/* --golden without --update-golden: compare this run's decisions with the
 * golden's, the differences on stderr.  The exit status (1: they differ). */
static int prune_check(const prune_args *a, const prune_state *ps)
{
    size_t n = mg_golden_diff(&ps->gold, &ps->cur, stderr, 20);
    if (n) {
        fprintf(stderr, "mgsim: prune: %s: decisions differ from the golden\n", a->golden);
        return MG_EXIT_NO;
    }
    fprintf(stderr, "mgsim: prune: %s: all %zu decisions match\n", a->golden, ps->cur.n);
    return MG_EXIT_OK;
}

int mg_cmd_prune(int argc, char **argv)
{
    prune_args a;
    int rc = prune_parse(argc, argv, &a);
    if (rc >= 0) return rc;
    mg_diag d;
    mg_diag_init(&d);
    prune_state ps = {.dev = calloc(1, sizeof *ps.dev),
                      .sp = calloc(1, sizeof *ps.sp),
                      .st = calloc(1, sizeof *ps.st)};
    rc = MG_EXIT_BAD;
    if (!prune_load(&a, &ps, &d) && !prune_report(&a, &ps, &d)) {
        if (a.golden && a.update) rc = prune_record(&a, &ps, &d);
        else if (a.golden) rc = prune_check(&a, &ps);
        else rc = MG_EXIT_OK;
    }
    if (rc == MG_EXIT_BAD) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    mg_decisions_free(&ps.cur);
    mg_decisions_free(&ps.gold);
    if (ps.sp) mg_space_free(ps.sp);
    free(ps.dev);
    free(ps.sp);
    free(ps.st);
    return rc;
}
