/*
 * plot_sweep.c - `mgsim plot sweep` (plots/sweep.gp) and the reader of
 * sweep results files that `mgsim plot roofline` shares.
 *
 * Input: a results file of `mgsim sweep -o` (JSON Lines, schema
 * mgsim-sweep/1, configs/README.md): a header line, then one record per
 * simulated candidate.  Records not "ok" (rejected by the generator or the
 * model, or "cut" by --cutoff) are counted, not drawn.  A torn last line (an interrupted sweep
 * that was not resumed) is skipped with a warning.
 *
 * Data written (times in microseconds):
 *   s.dat     block 0: pruned candidates, block 1: kept ones (every
 *             candidate when the sweep had no rules): "index time rank"
 *             (rank 1 = fastest of all simulated)
 *   best.dat  block 0: the best overall, block 1: the best kept (either may
 *             be "NaN NaN NaN" when there is none): "index time rank"
 *   meta.gp   space, config, rules ('' when none), pruned_only, n, npruned,
 *             nkept, nfailed, ncut, cutoff (0: none), size, logy, bestidx/besttime,
 *             keptidx/kepttime (-1 when none), regret (-1 when undefined)
 */
#include "sim/plot/plot.h"
#include "base/jsonfile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Read one line (without its newline) into *buf.  Returns its length, or
 * -1 at the end; *torn = 1 when the last line has no newline. */
static long read_line(FILE *f, char **buf, size_t *cap, int *torn)
{
    ssize_t n = getline(buf, cap, f);
    if (n < 0) return -1;
    *torn = n == 0 || (*buf)[n - 1] != '\n';
    if (!*torn) (*buf)[--n] = 0;
    return (long)n;
}

int mg_plot_is_sweep(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) return 0;
    char head[512];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    char *nl = strchr(head, '\n');
    if (nl) *nl = 0;
    return strstr(head, "\"schema\"") && strstr(head, "\"mgsim-sweep/1\"");
}

int mg_plot_sweep_read(const char *file, mg_plot_sweep_fn fn, void *ctx, cJSON **header,
                       mg_diag *d)
{
    if (header) *header = NULL;
    FILE *f = fopen(file, "r");
    if (f && !mg_plot_is_sweep(file)) {
        fclose(f);
        mg_diag_error(d, "%s: not a results file of `mgsim sweep -o`: its first line must be "
                      "the header {\"schema\": \"mgsim-sweep/1\", ...}", file);
        return -1;
    }
    if (!f) {
        /* mg_read_file words the error as every loader does */
        size_t len;
        free(mg_read_file(file, MG_JSON_MAX_BYTES, &len, d));
        if (!mg_diag_failed(d)) mg_diag_error(d, "%s: cannot open", file);
        return -1;
    }
    char *line = NULL, name[4200];
    size_t cap = 0;
    long n, lineno = 0;
    int torn = 0, rc = 0;
    cJSON *hdr = NULL;
    while (!rc && (n = read_line(f, &line, &cap, &torn)) >= 0) {
        lineno++;
        snprintf(name, sizeof name, "%s:%ld", file, lineno);
        if (torn && lineno > 1) {
            mg_diag_warn(d, "%s: an incomplete last record (an interrupted sweep): skipped",
                         name);
            break;
        }
        cJSON *j = mg_json_parse(name, line, (size_t)n, d);
        if (!j) {
            rc = -1;
            break;
        }
        if (!cJSON_IsObject(j)) {
            mg_diag_error(d, "%s: $: expected an object, got %s", name, mg_json_type_name(j));
            rc = -1;
        } else if (lineno == 1) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "schema");
            if (!cJSON_IsString(s) || strcmp(s->valuestring, "mgsim-sweep/1")) {
                mg_diag_error(d, "%s: $.schema: expected \"mgsim-sweep/1\" (a results file of "
                              "mgsim sweep -o), got %s", name,
                              cJSON_IsString(s) ? s->valuestring : mg_json_type_name(s));
                rc = -1;
            } else {
                hdr = j;
                j = NULL;
            }
        } else {
            rc = fn(ctx, hdr, j, name, d);
        }
        cJSON_Delete(j);
    }
    if (!rc && !hdr) {
        mg_diag_error(d, "%s: empty: expected a results file of mgsim sweep -o", file);
        rc = -1;
    }
    if (!rc && header) *header = hdr;
    else cJSON_Delete(hdr);
    free(line);
    fclose(f);
    return rc;
}

typedef struct sw_pt {
    double index, us;
    int    kept;                 /* 1 kept, 0 pruned, -1 no rules */
} sw_pt;

typedef struct sw_ctx {
    sw_pt  *p;
    size_t  n, cap, failed, cut;
    int     rules;               /* the sweep had rules */
} sw_ctx;

/* The header's string key, or "" when absent or null. */
static const char *hdr_str(const cJSON *h, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(h, key);
    return cJSON_IsString(s) ? s->valuestring : "";
}

static int sw_record(void *vc, const cJSON *hdr, const cJSON *r, const char *where, mg_diag *d)
{
    sw_ctx *c = vc;
    const char *st;
    double idx, s;
    c->rules = hdr_str(hdr, "rules")[0] != 0;
    if (mg_plot_get_num(r, "index", where, "$", &idx, d) ||
        mg_plot_get_str(r, "status", where, "$", &st, d))
        return -1;
    if (!strcmp(st, "cut")) {                 /* --cutoff: slower than its bar */
        c->cut++;
        return 0;
    }
    if (strcmp(st, "ok")) {
        c->failed++;
        return 0;
    }
    if (mg_plot_get_pos(r, "seconds", where, "$", &s, d)) return -1;
    int kept = -1;
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "kept");
    if (c->rules) {
        if (!cJSON_IsBool(k)) {
            mg_diag_error(d, "%s: $.kept: expected true or false (the sweep has rules), got %s",
                          where, k ? mg_json_type_name(k) : "nothing");
            return -1;
        }
        kept = cJSON_IsTrue(k);
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        sw_pt *p = realloc(c->p, cap * sizeof *p);
        if (!p) {
            mg_diag_error(d, "%s: out of memory", where);
            return -1;
        }
        c->p = p;
        c->cap = cap;
    }
    c->p[c->n++] = (sw_pt){idx, s * 1e6, kept};
    return 0;
}

/* Order by time, ties by index (as the sweep's summary breaks them). */
static int by_time(const void *a, const void *b)
{
    const sw_pt *x = a, *y = b;
    if (x->us != y->us) return x->us < y->us ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

int mg_plot_prepare_sweep(mg_plot_job *job, int n, char **inputs, mg_diag *d)
{
    (void)n;
    const char *file = inputs[0];
    sw_ctx c = {0};
    cJSON *hdr = NULL;
    int rc = -1;
    FILE *s = NULL, *b = NULL;
    if (mg_plot_sweep_read(file, sw_record, &c, &hdr, d)) goto done;
    if (!c.n) {
        mg_diag_error(d, "%s: no simulated candidate (%zu rejected): nothing to draw", file,
                      c.failed);
        goto done;
    }
    qsort(c.p, c.n, sizeof *c.p, by_time);
    s = mg_plot_data_open(job, "s.dat", d);
    b = s ? mg_plot_data_open(job, "best.dat", d) : NULL;
    if (!b) goto done;
    size_t nk = 0, np = 0, bk = (size_t)-1;
    for (int blk = 0; blk < 2; blk++) {
        size_t w = 0;
        fprintf(s, "%s", blk ? "\n\n" : "");
        for (size_t i = 0; i < c.n; i++) {
            int in = blk ? c.p[i].kept != 0 : c.p[i].kept == 0;
            if (!in) continue;
            double row[3] = {c.p[i].index, c.p[i].us, (double)i + 1};
            mg_plot_row(s, 3, row);
            w++;
            if (blk && c.p[i].kept == 1 && bk == (size_t)-1) bk = i;
        }
        if (!w) fprintf(s, "NaN NaN NaN\n");
        if (blk) nk = w;
        else np = w;
    }
    double best[3] = {c.p[0].index, c.p[0].us, 1};
    mg_plot_row(b, 3, best);
    fprintf(b, "\n\n");
    double none[3] = {NAN, NAN, NAN}, kb[3] = {NAN, NAN, NAN};
    if (bk != (size_t)-1) {
        kb[0] = c.p[bk].index;
        kb[1] = c.p[bk].us;
        kb[2] = (double)bk + 1;
    }
    mg_plot_row(b, 3, bk != (size_t)-1 ? kb : none);
    mg_plot_var_str(job, "space", hdr_str(hdr, "space"));
    mg_plot_var_str(job, "config", hdr_str(hdr, "config"));
    mg_plot_var_str(job, "rules", hdr_str(hdr, "rules"));
    mg_plot_var_num(job, "pruned_only",
                    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(hdr, "pruned_only")));
    const cJSON *sz = cJSON_GetObjectItemCaseSensitive(hdr, "size");
    mg_plot_var_num(job, "size", cJSON_IsNumber(sz) ? sz->valuedouble : -1);
    mg_plot_var_num(job, "n", (double)c.n);
    mg_plot_var_num(job, "npruned", c.rules ? (double)np : 0);
    mg_plot_var_num(job, "nkept", c.rules ? (double)nk : 0);
    mg_plot_var_num(job, "nfailed", (double)c.failed);
    mg_plot_var_num(job, "ncut", (double)c.cut);
    const cJSON *co = cJSON_GetObjectItemCaseSensitive(hdr, "cutoff");
    mg_plot_var_num(job, "cutoff", cJSON_IsNumber(co) ? co->valuedouble : 0);
    mg_plot_var_num(job, "logy", c.p[c.n - 1].us > 10 * c.p[0].us);
    mg_plot_var_num(job, "bestidx", c.p[0].index);
    mg_plot_var_num(job, "besttime", c.p[0].us);
    mg_plot_var_num(job, "keptidx", bk != (size_t)-1 ? c.p[bk].index : -1);
    mg_plot_var_num(job, "kepttime", bk != (size_t)-1 ? c.p[bk].us : -1);
    mg_plot_var_num(job, "regret", bk != (size_t)-1 ? c.p[bk].us / c.p[0].us - 1 : -1);
    snprintf(job->summary, sizeof job->summary, "sweep of %zu candidates (%zu kept, %zu "
             "pruned, %zu rejected, %zu cut)", c.n, c.rules ? nk : c.n, c.rules ? np : 0,
             c.failed, c.cut);
    rc = 0;
done:
    if (s && mg_plot_data_close(job, s, "s.dat", d)) rc = -1;
    if (b && mg_plot_data_close(job, b, "best.dat", d)) rc = -1;
    cJSON_Delete(hdr);
    free(c.p);
    return rc;
}
