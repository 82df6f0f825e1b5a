/*
 * cmd_whatif.c - `mgsim whatif`: sweep a search space on the base device
 * config and on every variant of the cartesian product of --vary KEY=...
 * (config/variant.h), with the pruning rules re-evaluated on each, and
 * report per variant the best kernel, its time, whether the choice changed
 * from the base config, and the pruning reduction.
 */
#include "sim/cli/cli.h"
#include "sim/cli/sweep_opts.h"
#include "sim/config/schema.h"
#include "sim/config/variant.h"
#include "base/afile.h"
#include "base/csv.h"
#include "base/jsonout.h"
#include "base/opts.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_VARY     8
#define MAX_VARIANTS 1024

static void whatif_usage(FILE *f)
{
    fprintf(f,
            "Usage: mgsim whatif --config CFG --space SPACE [--rules RULES] --vary KEY=v1,v2,...\n"
            "                    [--vary ...] [--pruned-only | --cutoff F] [-j N]\n"
            "                    [--sample auto|off|N] [--max-work N] [--json] [-o FILE]\n"
            "                    [--results DIR] [--csv FILE] [-q]\n"
            "\n"
            "Sweeps SPACE on CFG and on each variant of CFG (the cartesian product of\n"
            "the --vary lists; at most %d keys and %d variants), re-evaluating the\n"
            "RULES on each, and reports per variant: the best kernel and its time,\n"
            "whether the best changed from CFG's, the best kept kernel, the regret and\n"
            "the pruning reduction.  KEY is a config key (`mgsim config keys`); a value\n"
            "is written as in a config file (35136, 512B, 2KiB, 700MHz, lru) or as a\n"
            "multiplier of CFG's value (x0.5, x2).  A fully associative cache stays\n"
            "fully associative when only its size varies.  --pruned-only simulates only\n"
            "the kept candidates of each variant (the best is then the best kept);\n"
            "--cutoff F simulates them first and stops each pruned one once it is F x\n"
            "slower than the variant's best kept (`mgsim sweep --help`).\n"
            "--max-work N rejects candidates of more than about N warp instructions\n"
            "(default 1e9; 0: no limit).\n"
            "-o writes the report to FILE atomically; --json prints it as JSON; -q\n"
            "(--quiet) draws no progress line (it is drawn only on a terminal).\n"
            "--results DIR keeps each sweep's results file in DIR (created if missing;\n"
            "DIR/HASH.jsonl, HASH the variant's config hash, `mgsim sweep -o`): an\n"
            "interrupted whatif rerun with the same command resumes every sweep, and\n"
            "the report is the uninterrupted one.\n"
            "--csv FILE also writes one row for CFG (variant \"base\") and one per\n"
            "variant: the varied keys' values, then the counts, regret and the best\n"
            "and best kept kernels with their schedule's knobs as columns (best.tile,\n"
            "best_kept.seconds, ...); --csv - prints it alone on stdout.\n"
            "\n"
            "Example:\n"
            "  mgsim whatif --config configs/devices/adreno640.json \\\n"
            "      --space configs/spaces/conv1x1-14x14x128x128.json \\\n"
            "      --rules configs/rules/romou.json --pruned-only \\\n"
            "      --vary registers.pool_regs_per_sp=x0.5,x1,x2 \\\n"
            "      --vary tex_l1.size=512B,1KiB,2KiB,4KiB\n", MAX_VARY, MAX_VARIANTS);
}

typedef struct variant {
    int  choice[MAX_VARY];
    char resolved[MAX_VARY][48];
    int  same_as;                 /* -1: simulated; -2: the base; else an earlier variant */
    char hash[24];
    mg_sweep_sum *sum;            /* owned unless shared (same_as != -1) */
} variant;

typedef struct report {
    const mg_sweep_inputs *in;
    const mg_sweep_args *a;
    const char *results;          /* --results DIR, or NULL */
    int nvary;
    mg_vary vary[MAX_VARY];
    mg_sweep_sum *base;
    int n;
    variant *v;
} report;

static const mg_sweep_best *choice_of(const mg_sweep_sum *s) { return &s->best; }

static int changed(const mg_sweep_best *a, const mg_sweep_best *b)
{
    return a->valid != b->valid || (a->valid && a->index != b->index);
}

/* ---- text ----------------------------------------------------------------- */

static void cell_best(char *buf, size_t len, const mg_sweep_best *b)
{
    if (b->valid) snprintf(buf, len, "#%" PRIu64, b->index);
    else snprintf(buf, len, "none");
}

/* "x0.5 (35136)", or "2KiB" when the value is written as the config holds it. */
static void cell_value(char *buf, size_t len, const report *r, int i, int k)
{
    const char *val = r->vary[k].val[r->v[i].choice[k]], *res = r->v[i].resolved[k];
    if (!strcmp(val, res)) snprintf(buf, len, "%s", val);
    else snprintf(buf, len, "%s (%s)", val, res);
}

/* When any sweep rejected candidates (the generator, the model, or
 * --max-work): how many, the base's and each variant's in order. */
static void print_rejected(const report *r, FILE *f)
{
    uint64_t any = r->base->failed;
    for (int i = 0; i < r->n; i++) any |= r->v[i].sum->failed;
    if (!any) return;
    fprintf(f, "rejected    %" PRIu64 " candidates of the base", r->base->failed);
    for (int i = 0; i < r->n; i++) fprintf(f, ", %" PRIu64, r->v[i].sum->failed);
    fprintf(f, " of the variants (by the generator, the model or --max-work)\n");
}

static void print_text(const report *r, FILE *f)
{
    const mg_sweep_sum *b = r->base;
    int kept_cols = b->has_rules && !b->id.pruned_only;
    char smp[32], cell[64], how[64];
    if (b->id.cutoff > 0)
        snprintf(how, sizeof how, "pruned candidates cut at %g x the best kept", b->id.cutoff);
    else
        snprintf(how, sizeof how, "%s", b->id.pruned_only ? "kept candidates simulated"
                                                          : "every candidate simulated");
    fprintf(f, "whatif      %s on %s (variants of it), rules %s, sampling %s, %s\n", b->id.space,
            b->id.config, b->has_rules ? b->id.rules : "none",
            mg_sweep_sample_str(b->id.sample, smp, sizeof smp), how);
    print_rejected(r, f);
    int w[MAX_VARY];
    for (int k = 0; k < r->nvary; k++) {
        w[k] = (int)strlen(r->vary[k].key);
        for (int i = 0; i < r->n; i++) {
            cell_value(cell, sizeof cell, r, i, k);
            int l = (int)strlen(cell);
            if (l > w[k]) w[k] = l;
        }
    }
    fputc('\n', f);
    for (int k = 0; k < r->nvary; k++) fprintf(f, "%-*s  ", w[k], r->vary[k].key);
    fprintf(f, "%-8s %10s %9s  %-7s", b->id.pruned_only ? "best(k)" : "best", "time_us",
            "GFLOPS", "changed");
    if (kept_cols) fprintf(f, "  %-9s %10s %8s", "best_kept", "kept_us", "regret%");
    if (b->has_rules) fprintf(f, " %13s %10s", "kept", "reduction%");
    fputc('\n', f);
    for (int i = -1; i < r->n; i++) {
        const mg_sweep_sum *s = i < 0 ? b : r->v[i].sum;
        for (int k = 0; k < r->nvary; k++) {
            if (i < 0) snprintf(cell, sizeof cell, "base");
            else cell_value(cell, sizeof cell, r, i, k);
            fprintf(f, "%-*s  ", w[k], i < 0 && k ? "" : cell);
        }
        const mg_sweep_best *c = choice_of(s);
        cell_best(cell, sizeof cell, c);
        fprintf(f, "%-8s %10.3f %9.2f  %-7s", cell, c->valid ? c->seconds * 1e6 : NAN,
                c->valid ? c->gflops : NAN,
                i < 0 ? "-" : changed(c, choice_of(b)) ? "yes" : "no");
        if (kept_cols) {
            cell_best(cell, sizeof cell, &s->best_kept);
            double rg = mg_sweep_regret(s);
            fprintf(f, "  %-9s %10.3f %8.2f", cell,
                    s->best_kept.valid ? s->best_kept.seconds * 1e6 : NAN, 100.0 * rg);
        }
        if (b->has_rules) {
            snprintf(cell, sizeof cell, "%" PRIu64 "/%" PRIu64, s->kept, s->id.size);
            fprintf(f, " %13s %10.2f", cell,
                    s->id.size ? 100.0 * (double)(s->id.size - s->kept) / (double)s->id.size : 0);
        }
        fputc('\n', f);
    }
    /* the schedules of every best named above, once each, by index */
    fprintf(f, "\nschedules\n");
    uint64_t seen[2 * MAX_VARIANTS + 2];
    int nseen = 0;
    for (int i = -1; i < r->n; i++) {
        const mg_sweep_sum *s = i < 0 ? b : r->v[i].sum;
        const mg_sweep_best *bb[2] = {choice_of(s), kept_cols ? &s->best_kept : NULL};
        for (int q = 0; q < 2; q++) {
            if (!bb[q] || !bb[q]->valid) continue;
            int dup = 0;
            for (int z = 0; z < nseen && !dup; z++) dup = seen[z] == bb[q]->index;
            if (dup) continue;
            seen[nseen++] = bb[q]->index;
            fprintf(f, "#%-8" PRIu64 " %s\n", bb[q]->index, bb[q]->schedule);
        }
    }
}

/* ---- JSON ----------------------------------------------------------------- */

static cJSON *sum_json(const mg_sweep_sum *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "size", (double)s->id.size);
    cJSON_AddNumberToObject(o, "simulated", (double)mg_sweep_simulated(s));
    cJSON_AddNumberToObject(o, "rejected", (double)s->failed);
    if (s->id.cutoff > 0) cJSON_AddNumberToObject(o, "cut", (double)s->cut);
    if (s->has_rules) {
        cJSON_AddNumberToObject(o, "kept", (double)s->kept);
        cJSON_AddNumberToObject(o, "reduction_pct", s->id.size ? 100.0 * (double)(s->id.size -
                                s->kept) / (double)s->id.size : 0);
    }
    cJSON_AddItemToObject(o, "best", mg_sweep_best_json(&s->best));
    if (s->has_rules) cJSON_AddItemToObject(o, "best_kept", mg_sweep_best_json(&s->best_kept));
    double rg = mg_sweep_regret(s);
    if (isnan(rg)) cJSON_AddNullToObject(o, "regret");
    else cJSON_AddNumberToObject(o, "regret", rg);
    return o;
}

static cJSON *report_json(const report *r)
{
    const mg_sweep_sum *b = r->base;
    char smp[32];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "schema", "mgsim-whatif/1");
    cJSON_AddStringToObject(j, "config", b->id.config);
    cJSON_AddStringToObject(j, "space", b->id.space);
    if (b->has_rules) cJSON_AddStringToObject(j, "rules", b->id.rules);
    else cJSON_AddNullToObject(j, "rules");
    cJSON_AddStringToObject(j, "sample", mg_sweep_sample_str(b->id.sample, smp, sizeof smp));
    cJSON_AddBoolToObject(j, "pruned_only", b->id.pruned_only);
    if (b->id.cutoff > 0) cJSON_AddNumberToObject(j, "cutoff", b->id.cutoff);
    cJSON *va = cJSON_AddArrayToObject(j, "vary");
    for (int k = 0; k < r->nvary; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "key", r->vary[k].key);
        cJSON *vals = cJSON_AddArrayToObject(o, "values");
        for (int q = 0; q < r->vary[k].nvals; q++)
            cJSON_AddItemToArray(vals, cJSON_CreateString(r->vary[k].val[q]));
        cJSON_AddItemToArray(va, o);
    }
    cJSON_AddItemToObject(j, "base", sum_json(b));
    cJSON *arr = cJSON_AddArrayToObject(j, "variants");
    for (int i = 0; i < r->n; i++) {
        const variant *v = &r->v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON *vals = cJSON_AddArrayToObject(o, "values");
        for (int k = 0; k < r->nvary; k++) {
            cJSON *e = cJSON_CreateObject();
            cJSON_AddStringToObject(e, "key", r->vary[k].key);
            cJSON_AddStringToObject(e, "value", r->vary[k].val[v->choice[k]]);
            cJSON_AddStringToObject(e, "resolved", v->resolved[k]);
            cJSON_AddItemToArray(vals, e);
        }
        cJSON_AddBoolToObject(o, "same_as_base", v->same_as == -2);
        cJSON_AddBoolToObject(o, "changed", changed(choice_of(v->sum), choice_of(b)));
        if (b->has_rules && !b->id.pruned_only)
            cJSON_AddBoolToObject(o, "kept_changed", changed(&v->sum->best_kept, &b->best_kept));
        cJSON *s = sum_json(v->sum);
        for (cJSON *c = s->child; c;) {
            cJSON *next = c->next;
            cJSON_AddItemToObject(o, c->string, cJSON_DetachItemViaPointer(s, c));
            c = next;
        }
        cJSON_Delete(s);
        cJSON_AddItemToArray(arr, o);
    }
    return j;
}

/* ---- running ---------------------------------------------------------------- */

/* Sweep one device; label for the progress line.  Returns 0, 1 when
 * stopped, -1 on error. */
static int sweep_dev(const report *r, const mg_device *dev, const char *hash, const char *label,
                     mg_sweep_sum *sum, mg_diag *d)
{
    mg_sweep_cfg cfg;
    mg_sweep_cfg_init(&cfg, r->in, r->a);
    cfg.dev = dev;
    snprintf(cfg.id.config_hash, sizeof cfg.id.config_hash, "%s", hash);
    cfg.label = label;
    char path[4096];
    if (r->results) {
        snprintf(path, sizeof path, "%s/%s.jsonl", r->results, hash);
        cfg.results = path;
    }
    if (mg_sweep_run(&cfg, sum, d)) return -1;
    return sum->interrupted ? 1 : 0;
}

/* Make every variant (checking them all before anything runs), then sweep
 * the base and each variant unlike the base and the ones before it. */
static int run_all(report *r, mg_diag *d)
{
    const mg_sweep_inputs *in = r->in;
    mg_device *dev = malloc(sizeof *dev);
    if (!dev) return -1;
    int rc = 0;
    for (int i = 0; i < r->n && !rc; i++) {
        variant *v = &r->v[i];
        if (mg_device_variant(in->doc, r->a->cfg, in->dev, r->nvary, r->vary, v->choice, dev,
                              v->resolved, d)) {
            rc = -1;
            break;
        }
        mg_sweep_hash_device(dev, v->hash);
        v->same_as = -1;
        if (!strcmp(v->hash, in->id.config_hash)) v->same_as = -2;
        for (int q = 0; q < i && v->same_as == -1; q++)
            if (!strcmp(r->v[q].hash, v->hash)) v->same_as = q;
    }
    if (!rc) rc = sweep_dev(r, in->dev, in->id.config_hash, "base", r->base, d);
    for (int i = 0; i < r->n && !rc; i++) {
        variant *v = &r->v[i];
        if (v->same_as != -1) {
            v->sum = v->same_as == -2 ? r->base : r->v[v->same_as].sum;
            continue;
        }
        char res[MAX_VARY][48];
        if (mg_device_variant(in->doc, r->a->cfg, in->dev, r->nvary, r->vary, v->choice, dev,
                              res, d)) {
            rc = -1;
            break;
        }
        v->sum = calloc(1, sizeof *v->sum);
        char label[64];
        snprintf(label, sizeof label, "variant %d/%d", i + 1, r->n);
        rc = v->sum ? sweep_dev(r, dev, v->hash, label, v->sum, d) : -1;
    }
    free(dev);
    return rc;
}

/* The command line of whatif. */
typedef struct whatif_args {
    mg_sweep_args a;              /* the options it shares with sweep */
    const char *outp;             /* -o, "-": stdout; NULL: not written (--csv -) */
    const char *results;          /* --results DIR, or NULL */
    const char *csv;              /* --csv FILE, or NULL */
    int json;
    const char *vary[MAX_VARY];   /* the --vary options */
    int nvary;
} whatif_args;

/* Parse whatif's options into w.  Returns -1 when the command should go
 * on, else its exit status (--help: 0; a usage error, printed: 2). */
static int whatif_parse(int argc, char **argv, whatif_args *w)
{
    static const struct option opts[] = {
        {"config", required_argument, NULL, 'c'},   {"space", required_argument, NULL, 's'},
        {"rules", required_argument, NULL, 'r'},    {"pruned-only", no_argument, NULL, 'P'},
        {"jobs", required_argument, NULL, 'j'},     {"sample", required_argument, NULL, 'S'},
        {"vary", required_argument, NULL, 'V'},     {"output", required_argument, NULL, 'o'},
        {"json", no_argument, NULL, 'J'},           {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},           {"cutoff", required_argument, NULL, 'X'},
        {"max-work", required_argument, NULL, 'W'}, {"results", required_argument, NULL, 'D'},
        {"csv", required_argument, NULL, 'C'},
        {"no-progress", no_argument, NULL, 'N'},   /* hidden: the old spelling of -q */
        {NULL, 0, NULL, 0},
    };
    mg_sweep_args *a = &w->a;
    mg_sweep_args_init(a);
    w->outp = "-";
    w->results = NULL;
    w->csv = NULL;
    w->json = 0;
    int out_given = 0;
    w->nvary = 0;
    int c;
    mg_opts po;
    mg_opts_start(&po, "mgsim", "whatif", "j:o:qh", opts);
    while ((c = mg_opts_next(&po, argc, argv)) != -1) {
        if (c == 'o') w->outp = optarg, out_given = 1;
        else if (c == 'D') w->results = optarg;
        else if (c == 'C') w->csv = optarg;
        else if (c == 'J') w->json = 1;
        else if (c == 'h') { whatif_usage(stdout); return MG_EXIT_OK; }
        else if (c == 'V') {
            if (w->nvary == MAX_VARY)
                return mg_cli_usage_error("whatif", "at most %d --vary options", MAX_VARY);
            w->vary[w->nvary++] = optarg;
        } else if (mg_sweep_args_opt(a, "whatif", c, optarg)) {
            return MG_EXIT_BAD;
        }
    }
    if (optind < argc)
        return mg_cli_usage_error("whatif", "unexpected operand '%s'", argv[optind]);
    if (!a->cfg || !a->space || !w->nvary)
        return mg_cli_usage_error("whatif", "--config, --space and --vary are required");
    if (mg_sweep_args_check(a, "whatif")) return MG_EXIT_BAD;
    if (w->results && !strcmp(w->results, "-"))
        return mg_cli_usage_error("whatif", "--results -: a folder of results files cannot go "
                                  "to stdout");
    if (w->csv && !strcmp(w->csv, "-")) {
        if (out_given && !strcmp(w->outp, "-"))
            return mg_cli_usage_error("whatif", "-o - and --csv -: only one output can go to "
                                      "stdout");
        if (!out_given) w->outp = NULL;
    }
    return -1;
}

/* Parse the --vary options into r, load the sweep's inputs into in (r's
 * inputs) and lay out the variants (an odometer: the last --vary turns
 * fastest).  0, or -1 with messages in d. */
static int whatif_plan(const whatif_args *w, mg_sweep_inputs *in, report *r, mg_diag *d)
{
    r->nvary = w->nvary;
    r->n = 1;
    for (int k = 0; k < w->nvary; k++) {
        if (mg_vary_parse(w->vary[k], &r->vary[k], d)) return -1;
        for (int q = 0; q < k; q++)
            if (mg_schema_find(r->vary[q].key, NULL) == mg_schema_find(r->vary[k].key, NULL)) {
                mg_diag_error(d, "--vary %s: key '%s' is already varied by --vary %s (one "
                              "--vary per key, with every value: KEY=v1,v2,...)", w->vary[k],
                              r->vary[k].key, w->vary[q]);
                return -1;
            }
        r->n *= r->vary[k].nvals;
        if (r->n > MAX_VARIANTS) {
            mg_diag_error(d, "--vary: more than %d variants", MAX_VARIANTS);
            return -1;
        }
    }
    r->base = calloc(1, sizeof *r->base);
    r->v = calloc((size_t)r->n, sizeof *r->v);
    if (!r->base || !r->v || mg_sweep_inputs_load(in, &w->a, d)) return -1;
    for (int i = 0; i < r->n; i++)
        for (int k = w->nvary - 1, q = i; k >= 0; k--) {
            r->v[i].choice[k] = q % r->vary[k].nvals;
            q /= r->vary[k].nvals;
        }
    return 0;
}

/* One CSV row per base and variant of the JSON report j (see --help). */
static int csv_rows(mg_csv *t, const cJSON *j, const report *r)
{
    int bad = mg_csv_row(t) || mg_csv_set(t, "", "variant", "base");
    for (int k = 0; !bad && k < r->nvary; k++) bad = mg_csv_set(t, "", r->vary[k].key, "");
    if (!bad) bad = mg_csv_set_json(t, "", cJSON_GetObjectItemCaseSensitive(j, "base"));
    const cJSON *vs = cJSON_GetObjectItemCaseSensitive(j, "variants");
    int i = 0;
    for (const cJSON *o = vs ? vs->child : NULL; o && !bad; o = o->next, i++) {
        char num[16];
        snprintf(num, sizeof num, "%d", i);
        bad = mg_csv_row(t) || mg_csv_set(t, "", "variant", num);
        const cJSON *vals = cJSON_GetObjectItemCaseSensitive(o, "values");
        for (const cJSON *e = vals ? vals->child : NULL; e && !bad; e = e->next)
            bad = mg_csv_set(t, "", cJSON_GetObjectItemCaseSensitive(e, "key")->valuestring,
                             cJSON_GetObjectItemCaseSensitive(e, "resolved")->valuestring);
        if (!bad) bad = mg_csv_set_json(t, "", o);
    }
    return bad ? -1 : 0;
}

/* --csv: the report as CSV at w->csv.  0, or -1 with a message in d. */
static int whatif_csv(const whatif_args *w, const report *r, mg_diag *d)
{
    cJSON *j = report_json(r);
    mg_csv *t = mg_csv_new();
    int rc = -1;
    if (!j || !t || csv_rows(t, j, r)) mg_diag_error(d, "%s: out of memory", w->csv);
    else rc = mg_csv_save(t, w->csv, d);
    mg_csv_free(t);
    cJSON_Delete(j);
    return rc;
}

/* Write the report (text or JSON) to -o atomically.  0, or -1 with a
 * message in d. */
static int whatif_write(const whatif_args *w, const report *r, mg_diag *d)
{
    if (w->csv && whatif_csv(w, r, d)) return -1;
    if (!w->outp) return 0;                 /* --csv - has stdout */
    mg_afile af;
    FILE *f = mg_afile_open(&af, w->outp);
    if (!f) {
        mg_diag_error(d, "%s: cannot write: %s", w->outp, strerror(errno));
        return -1;
    }
    if (w->json) {
        cJSON *j = report_json(r);
        mg_json_write(f, j);
        cJSON_Delete(j);
    } else {
        print_text(r, f);
    }
    if (mg_afile_commit(&af)) {
        mg_diag_error(d, "%s: write failed", w->outp);
        return -1;
    }
    return 0;
}

int mg_cmd_whatif(int argc, char **argv)
{
    whatif_args w;
    int rc = whatif_parse(argc, argv, &w);
    if (rc >= 0) return rc;
    mg_diag d;
    mg_diag_init(&d);
    mg_sweep_inputs in;
    memset(&in, 0, sizeof in);
    report r;
    memset(&r, 0, sizeof r);
    r.in = &in;
    r.a = &w.a;
    r.results = w.results;
    rc = MG_EXIT_BAD;
    if (w.results && mkdir(w.results, 0777) && errno != EEXIST) {
        mg_diag_error(&d, "%s: cannot create: %s", w.results, strerror(errno));
    } else if (!whatif_plan(&w, &in, &r, &d)) {
        mg_cli_catch_stop();
        int run = run_all(&r, &d);
        mg_cli_release_stop();
        if (run > 0) {
            if (w.results)
                fprintf(stderr, "mgsim: whatif: interrupted (no report written; the results so "
                        "far are in %s: rerun the same command to resume)\n", w.results);
            else
                fprintf(stderr, "mgsim: whatif: interrupted (nothing written)\n");
            rc = MG_EXIT_INTERRUPTED;
        } else if (run == 0 && !whatif_write(&w, &r, &d)) {
            rc = MG_EXIT_OK;
        }
    }
    if (rc == MG_EXIT_BAD) mg_diag_print(&d, stderr, "mgsim");
    mg_diag_free(&d);
    for (int i = 0; r.v && i < r.n; i++)
        if (r.v[i].same_as == -1) free(r.v[i].sum);
    free(r.v);
    free(r.base);
    mg_sweep_inputs_free(&in);
    return rc;
}
