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

static int write_panel(mg_plot_job *job, int k, int nkeys, char keys[][128],
                       char vals[][WI_VALS][64], const int *nvals, const wi_var *w, int nw,
                       mg_diag *d)
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
        if (!lab[0]) snprintf(lab, sizeof lab, "best kernel");   /* one key varied */
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

int mg_plot_prepare_whatif(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    cJSON *j = mg_json_load(file, d);
    if (!j) return -1;
    int rc = -1, nkeys = 0, nvals[WI_KEYS] = {0}, nw = 0;
    char (*keys)[128] = calloc(WI_KEYS, sizeof *keys);
    char (*vals)[WI_VALS][64] = calloc(WI_KEYS, sizeof *vals);
    wi_var *w = NULL;
    if (!keys || !vals) {
        mg_diag_error(d, "out of memory");
        goto done;
    }
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(j, "schema");
    if (!cJSON_IsString(sc) || strcmp(sc->valuestring, "mgsim-whatif/1")) {
        mg_diag_error(d, "%s: $.schema: expected \"mgsim-whatif/1\" (mgsim whatif --json), "
                      "got %s", file, cJSON_IsString(sc) ? sc->valuestring
                                                         : (sc ? mg_json_type_name(sc) : "nothing"));
        goto done;
    }
    const cJSON *vary = mg_plot_get_arr(j, "vary", file, "$", d), *e;
    if (!vary) goto done;
    cJSON_ArrayForEach(e, vary) {
        char p[64];
        snprintf(p, sizeof p, "$.vary[%d]", nkeys);
        const char *key;
        const cJSON *va;
        if (nkeys == WI_KEYS) {
            mg_diag_error(d, "%s: $.vary: more than %d keys: plot at most %d", file, WI_KEYS,
                          WI_KEYS);
            goto done;
        }
        if (mg_plot_get_str(e, "key", file, p, &key, d) ||
            !(va = mg_plot_get_arr(e, "values", file, p, d)))
            goto done;
        snprintf(keys[nkeys], sizeof keys[0], "%s", key);
        const cJSON *x;
        cJSON_ArrayForEach(x, va) {
            if (!cJSON_IsString(x) || nvals[nkeys] == WI_VALS) {
                mg_diag_error(d, "%s: %s.values: expected at most %d strings", file, p, WI_VALS);
                goto done;
            }
            snprintf(vals[nkeys][nvals[nkeys]++], sizeof vals[0][0], "%s", x->valuestring);
        }
        if (!nvals[nkeys]) {
            mg_diag_error(d, "%s: %s.values: empty", file, p);
            goto done;
        }
        nkeys++;
    }
    if (!nkeys) {
        mg_diag_error(d, "%s: $.vary: empty: nothing was varied", file);
        goto done;
    }
    const cJSON *vs = mg_plot_get_arr(j, "variants", file, "$", d);
    const cJSON *base = mg_plot_get_obj(j, "base", file, "$", d);
    if (!vs || !base) goto done;
    w = calloc((size_t)cJSON_GetArraySize(vs) + 1, sizeof *w);
    if (!w) goto done;
    int haskept = 0;
    cJSON_ArrayForEach(e, vs) {
        char p[64];
        snprintf(p, sizeof p, "$.variants[%d]", nw);
        wi_var *x = &w[nw];
        if (var_pos(e, file, p, nkeys, keys, vals, nvals, x, d) ||
            best_us(e, "best", file, p, &x->best, d) ||
            best_us(e, "best_kept", file, p, &x->kept, d))
            goto done;
        x->changed = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "changed"));
        haskept |= !isnan(x->kept);
        nw++;
    }
    if (!nw) {
        mg_diag_error(d, "%s: $.variants: empty", file);
        goto done;
    }
    double b, bk;
    if (best_us(base, "best", file, "$.base", &b, d) ||
        best_us(base, "best_kept", file, "$.base", &bk, d))
        goto done;
    int pruned_only = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "pruned_only"));
    /* with --pruned-only the best is the best kept: one line is enough */
    haskept &= !pruned_only;
    for (int k = 0; k < nkeys; k++)
        if (write_panel(job, k, nkeys, keys, vals, nvals, w, nw, d)) goto done;
    mg_plot_var_str(job, "config", str_or_empty(j, "config"));
    mg_plot_var_str(job, "space", str_or_empty(j, "space"));
    mg_plot_var_str(job, "rules", str_or_empty(j, "rules"));
    mg_plot_var_num(job, "pruned_only", pruned_only);
    mg_plot_var_num(job, "nkeys", nkeys);
    mg_plot_var_num(job, "base", isnan(b) ? -1 : b);
    mg_plot_var_num(job, "basekept", isnan(bk) || !haskept ? -1 : bk);
    mg_plot_var_num(job, "haskept", haskept);
    /* y: every time drawn, +-10%: small changes show, without exaggeration */
    double lo = isnan(b) ? INFINITY : b, hi = isnan(b) ? 0 : b;
    for (int i = 0; i < nw; i++) {
        if (!isnan(w[i].best)) lo = fmin(lo, w[i].best), hi = fmax(hi, w[i].best);
        if (haskept && !isnan(w[i].kept)) lo = fmin(lo, w[i].kept), hi = fmax(hi, w[i].kept);
    }
    if (!(hi > 0)) lo = hi = 1;
    mg_plot_var_num(job, "ymin", lo * 0.9);
    mg_plot_var_num(job, "ymax", hi * 1.1);
    snprintf(job->summary, sizeof job->summary, "what-if of %d variant%s over %d key%s", nw,
             nw == 1 ? "" : "s", nkeys, nkeys == 1 ? "" : "s");
    rc = 0;
done:
    free(keys);
    free(vals);
    free(w);
    cJSON_Delete(j);
    return rc;
}
