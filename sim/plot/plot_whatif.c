/*
 * plot_whatif.c - `mgsim plot whatif` (plots/whatif.gp): what-if curves
 * from an `mgsim whatif --json` report (schema mgsim-whatif/1).
 *
 * One panel per varied key (at most WI_KEYS): x is that key's values in
 * the order given, y the best predicted time of the variant.  A panel has
 * one line per combination of the other keys' values (at most WI_LINES;
 * more are folded into one line, the best over them), so a cartesian
 * --vary shows every variant exactly once per panel.  The best kept time
 * (with rules, when not --pruned-only) is a second, dashed line.  A mark
 * is filled where the best kernel differs from the base config's.
 *
 * Data written (times in microseconds):
 *   wK.dat   panel K: block per line: "pos best_us changed kept_us"
 *            (NaN where a variant has no best)
 *   meta.gp  config, space, rules, pruned_only, nkeys, key_K, nvals_K,
 *            val_K_I (the values as written), nlines_K, line_K_J (the
 *            other keys' values of the line), base (the base config's
 *            best time, -1 when none), haskept, ymin/ymax (every time
 *            drawn, +-10%)
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WI_KEYS  4
#define WI_VALS  64
#define WI_LINES 8

typedef struct wi_var {
    int    pos[WI_KEYS];         /* value index per key */
    double best, kept;           /* us, NAN when none */
    int    changed;
} wi_var;

/* best.seconds (or kept) of a variant object, in us; NAN when null. */
static int best_us(const cJSON *o, const char *key, const char *file, const char *path,
                   double *us, mg_diag *d)
{
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, key);
    *us = NAN;
    if (!b || cJSON_IsNull(b)) return 0;
    char p[128];
    snprintf(p, sizeof p, "%s.%s", path, key);
    double s;
    if (mg_plot_get_pos(b, "seconds", file, p, &s, d)) return -1;
    *us = s * 1e6;
    return 0;
}

/* The variant's value index of every key. */
static int var_pos(const cJSON *v, const char *file, const char *path, int nkeys,
                   char keys[][128], char vals[][WI_VALS][64], const int *nvals, wi_var *w,
                   mg_diag *d)
{
    const cJSON *arr = mg_plot_get_arr(v, "values", file, path, d);
    if (!arr) return -1;
    if (cJSON_GetArraySize(arr) != nkeys) {
        mg_diag_error(d, "%s: %s.values: expected %d entries (one per --vary key), got %d",
                      file, path, nkeys, cJSON_GetArraySize(arr));
        return -1;
    }
    int k = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr) {
        char p[160];
        snprintf(p, sizeof p, "%s.values[%d]", path, k);
        const char *key, *val;
        if (mg_plot_get_str(e, "key", file, p, &key, d) ||
            mg_plot_get_str(e, "value", file, p, &val, d))
            return -1;
        if (strcmp(key, keys[k])) {
            mg_diag_error(d, "%s: %s.key: \"%s\", expected \"%s\" ($.vary[%d])", file, p, key,
                          keys[k], k);
            return -1;
        }
        w->pos[k] = -1;
        for (int i = 0; i < nvals[k]; i++)
            if (!strcmp(vals[k][i], val)) w->pos[k] = i;
        if (w->pos[k] < 0) {
            mg_diag_error(d, "%s: %s.value: \"%s\" is not among $.vary[%d].values", file, p,
                          val, k);
            return -1;
        }
        k++;
    }
    return 0;
}

/* The number of the line of variant w in panel k (the other keys' value
 * indexes as a mixed-radix number). */
static int line_of(const wi_var *w, int k, int nkeys, const int *nvals)
{
    int l = 0;
    for (int o = 0; o < nkeys; o++)
        if (o != k) l = l * nvals[o] + w->pos[o];
    return l;
}

/* Panel k: wK.dat and its variables in meta.gp, a line per combination of
 * the other keys' values (folded into one past WI_LINES); `only` labels
 * the single line when one key varies ("best kernel", or "best kept
 * kernel" after --pruned-only).  0, or -1 with a message in d. */
static int write_panel(mg_plot_job *job, int k, int nkeys, char keys[][128],
                       char vals[][WI_VALS][64], const int *nvals, const wi_var *w, int nw,
                       const char *only, mg_diag *d)
{
    int nlines = 1;
    for (int o = 0; o < nkeys; o++)
        if (o != k) nlines *= nvals[o];
    int fold = nlines > WI_LINES;
    char name[32], v[48];
    snprintf(name, sizeof name, "w%d.dat", k + 1);
    FILE *f = mg_plot_data_open(job, name, d);
    if (!f) return -1;
    int drawn = fold ? 1 : nlines;
    for (int l = 0; l < drawn; l++) {
        fprintf(f, "%s", l ? "\n\n" : "");
        for (int x = 0; x < nvals[k]; x++) {
            double row[4] = {x + 1, NAN, 0, NAN};
            for (int i = 0; i < nw; i++) {
                if (w[i].pos[k] != x || (!fold && line_of(&w[i], k, nkeys, nvals) != l))
                    continue;
                if (isnan(row[1]) || w[i].best < row[1]) {
                    row[1] = w[i].best;
                    row[2] = w[i].changed;
                }
                if (isnan(row[3]) || w[i].kept < row[3]) row[3] = w[i].kept;
            }
            mg_plot_row(f, 4, row);
        }
        /* the line's label: the other keys' values */
        char lab[512] = "";
        if (fold) snprintf(lab, sizeof lab, "best over the other keys");
        for (int o = 0, rest = l; !fold && o < nkeys; o++) {
            if (o == k) continue;
            int div = 1;
            for (int q = o + 1; q < nkeys; q++)
                if (q != k) div *= nvals[q];
            size_t len = strlen(lab);
            snprintf(lab + len, sizeof lab - len, "%s%s=%s", len ? ", " : "", keys[o],
                     vals[o][rest / div]);
            rest %= div;
        }
        if (!lab[0]) snprintf(lab, sizeof lab, "%s", only);   /* one key varied */
        snprintf(v, sizeof v, "line_%d_%d", k + 1, l + 1);
        mg_plot_var_str(job, v, lab);
    }
    snprintf(v, sizeof v, "nlines_%d", k + 1);
    mg_plot_var_num(job, v, drawn);
    snprintf(v, sizeof v, "key_%d", k + 1);
    mg_plot_var_str(job, v, keys[k]);
    snprintf(v, sizeof v, "nvals_%d", k + 1);
    mg_plot_var_num(job, v, nvals[k]);
    for (int x = 0; x < nvals[k]; x++) {
        snprintf(v, sizeof v, "val_%d_%d", k + 1, x + 1);
        mg_plot_var_str(job, v, vals[k][x]);
    }
    return mg_plot_data_close(job, f, name, d);
}

/* Strings of the report's head, "" when absent or null. */
static const char *str_or_empty(const cJSON *o, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(s) ? s->valuestring : "";
}

/* What the report gives the plot. */
typedef struct wi_data {
    const char *file;
    int nkeys, nvals[WI_KEYS];
    char (*keys)[128];            /* the varied keys */
    char (*vals)[WI_VALS][64];    /* each key's values, as written */
    wi_var *w;                    /* the variants */
    int nw;
    int haskept;                  /* some variant has a best kept time */
} wi_data;

/* Check $.schema.  0, or -1 with a message in d. */
static int check_schema(const cJSON *j, const char *file, mg_diag *d)
{
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "schema");
    if (cJSON_IsString(sc) && !strcmp(sc->valuestring, "mgsim-whatif/1")) return 0;
    mg_diag_error(d, "%s: $.schema: expected \"mgsim-whatif/1\" (mgsim whatif --json), "
                  "got %s", file, cJSON_IsString(sc) ? sc->valuestring
                                                     : (sc ? mg_json_type_name(sc) : "nothing"));
    return -1;
}

/* $.vary: the keys and their values (at most WI_KEYS keys of WI_VALS
 * values, none empty).  0, or -1 with a message in d. */
static int read_vary(const cJSON *j, wi_data *v, mg_diag *d)
{
    const char *file = v->file;
    const cJSON *vary = mg_plot_get_arr(j, "vary", file, "$", d), *e;
    if (!vary) return -1;
    cJSON_ArrayForEach(e, vary) {
        char p[64];
        snprintf(p, sizeof p, "$.vary[%d]", v->nkeys);
        const char *key;
        const cJSON *va;
        if (v->nkeys == WI_KEYS) {
            mg_diag_error(d, "%s: $.vary: more than %d keys: plot at most %d", file, WI_KEYS,
                          WI_KEYS);
            return -1;
        }
        if (mg_plot_get_str(e, "key", file, p, &key, d) ||
            !(va = mg_plot_get_arr(e, "values", file, p, d)))
            return -1;
        int k = v->nkeys;
        snprintf(v->keys[k], sizeof v->keys[0], "%s", key);
        const cJSON *x;
        cJSON_ArrayForEach(x, va) {
            if (!cJSON_IsString(x) || v->nvals[k] == WI_VALS) {
                mg_diag_error(d, "%s: %s.values: expected at most %d strings", file, p, WI_VALS);
                return -1;
            }
            snprintf(v->vals[k][v->nvals[k]++], sizeof v->vals[0][0], "%s", x->valuestring);
        }
        if (!v->nvals[k]) {
            mg_diag_error(d, "%s: %s.values: empty", file, p);
            return -1;
        }
        v->nkeys++;
    }
    if (!v->nkeys) {
        mg_diag_error(d, "%s: $.vary: empty: nothing was varied", file);
        return -1;
    }
    return 0;
}

/* $.variants: each one's position on every key and its best times.  0, or
 * -1 (with a message in d, except when out of memory). */
static int read_variants(const cJSON *vs, wi_data *v, mg_diag *d)
{
    const char *file = v->file;
    v->w = calloc((size_t)cJSON_GetArraySize(vs) + 1, sizeof *v->w);
    if (!v->w) return -1;
    const cJSON *e;
    cJSON_ArrayForEach(e, vs) {
        char p[64];
        snprintf(p, sizeof p, "$.variants[%d]", v->nw);
        wi_var *x = &v->w[v->nw];
        if (var_pos(e, file, p, v->nkeys, v->keys, v->vals, v->nvals, x, d) ||
            best_us(e, "best", file, p, &x->best, d) ||
            best_us(e, "best_kept", file, p, &x->kept, d))
            return -1;
        x->changed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "changed"));
        v->haskept |= !isnan(x->kept);
        v->nw++;
    }
    if (!v->nw) {
        mg_diag_error(d, "%s: $.variants: empty", file);
        return -1;
    }
    return 0;
}

/* meta.gp's variables (b, bk: the base config's best and best kept times)
 * and the job's summary line. */
static void write_meta(mg_plot_job *job, const cJSON *j, const wi_data *v, int pruned_only,
                       double b, double bk)
{
    mg_plot_var_str(job, "config", str_or_empty(j, "config"));
    mg_plot_var_str(job, "space", str_or_empty(j, "space"));
    mg_plot_var_str(job, "rules", str_or_empty(j, "rules"));
    mg_plot_var_num(job, "pruned_only", pruned_only);
    mg_plot_var_num(job, "nkeys", v->nkeys);
    mg_plot_var_num(job, "base", isnan(b) ? -1 : b);
    mg_plot_var_num(job, "basekept", isnan(bk) || !v->haskept ? -1 : bk);
    mg_plot_var_num(job, "haskept", v->haskept);
    /* y: every time drawn, +-10%: small changes show, without exaggeration */
    double lo = isnan(b) ? INFINITY : b, hi = isnan(b) ? 0 : b;
    for (int i = 0; i < v->nw; i++) {
        const wi_var *x = &v->w[i];
        if (!isnan(x->best)) lo = fmin(lo, x->best), hi = fmax(hi, x->best);
        if (v->haskept && !isnan(x->kept)) lo = fmin(lo, x->kept), hi = fmax(hi, x->kept);
    }
    if (!(hi > 0)) lo = hi = 1;
    mg_plot_var_num(job, "ymin", lo * 0.9);
    mg_plot_var_num(job, "ymax", hi * 1.1);
    snprintf(job->summary, sizeof job->summary, "what-if of %d variant%s over %d key%s", v->nw,
             v->nw == 1 ? "" : "s", v->nkeys, v->nkeys == 1 ? "" : "s");
}

/* Read the report j and write the panels and meta.gp.  0, or -1 with
 * messages in d. */
static int whatif_plot(mg_plot_job *job, const cJSON *j, wi_data *v, mg_diag *d)
{
    const char *file = v->file;
    if (check_schema(j, file, d) || read_vary(j, v, d)) return -1;
    const cJSON *vs = mg_plot_get_arr(j, "variants", file, "$", d);
    const cJSON *base = mg_plot_get_obj(j, "base", file, "$", d);
    if (!vs || !base || read_variants(vs, v, d)) return -1;
    double b, bk;
    if (best_us(base, "best", file, "$.base", &b, d) ||
        best_us(base, "best_kept", file, "$.base", &bk, d))
        return -1;
    int pruned_only = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "pruned_only"));
    /* with --pruned-only the best is the best kept: one line is enough */
    v->haskept &= !pruned_only;
    for (int k = 0; k < v->nkeys; k++)
        if (write_panel(job, k, v->nkeys, v->keys, v->vals, v->nvals, v->w, v->nw,
                        pruned_only ? "best kept kernel" : "best kernel", d))
            return -1;
    write_meta(job, j, v, pruned_only, b, bk);
    return 0;
}

int mg_plot_prepare_whatif(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    cJSON *j = mg_plot_load(job, inputs[0], d);
    if (!j) return -1;
    int rc = -1;
    wi_data v = {.file = inputs[0],
                 .keys = calloc(WI_KEYS, sizeof *v.keys),
                 .vals = calloc(WI_KEYS, sizeof *v.vals)};
    if (!v.keys || !v.vals) mg_diag_error(d, "out of memory");
    else rc = whatif_plot(job, j, &v, d);
    free(v.keys);
    free(v.vals);
    free(v.w);
    mg_plot_unload(job, j);
    return rc;
}
