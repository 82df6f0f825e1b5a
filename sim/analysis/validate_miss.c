/*
 * validate_miss.c - where the model misses (see validate.h): per group the
 * worst-predicted kernels against the best-predicted, each set described
 * by what binds it in the simulation (stall shares, roofline binding
 * level, occupancy, registers); and the residuals grouped by the value of
 * each schedule knob.  Counted here, printed by validate_report_miss.c.
 */
#include "sim/analysis/validate.h"
#include "sim/analysis/stats.h"
#include "base/words.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_vknob_names[MG_VKNOB_COUNT] = {
    "layout_in", "layout_w", "layout_out", "tile", "wg", "pattern",
    "vec", "storage", "compute", "split", "unroll", "occupancy",
};

#define KNOB_OCC (MG_VKNOB_COUNT - 1)

/* The occupancy bin of w resident warps per SP: "0-2", "2-4", ..., "64+". */
static void occ_bin(double w, char *out, size_t len)
{
    if (!isfinite(w)) {
        out[0] = 0;
        return;
    }
    int lo = 0, hi = 2;
    while (w >= hi && hi < 64) {
        lo = hi;
        hi *= 2;
    }
    if (w >= 64) snprintf(out, len, "64+");
    else snprintf(out, len, "%d-%d", lo, hi);
}

void mg_validate_knobs(mg_vkernel *k)
{
    for (int j = 0; j < KNOB_OCC; j++)
        mg_word_value(k->schedule, mg_vknob_names[j], k->knob[j], sizeof k->knob[j]);
    if (k->status == MG_VK_OK) occ_bin(k->occupancy, k->knob[KNOB_OCC], sizeof k->knob[0]);
    else k->knob[KNOB_OCC][0] = 0;
}

/* ---- per group: worst against best ---------------------------------------------- */

typedef struct ranked { double key; size_t i; } ranked;

/* Largest key first, then the lower index. */
static int by_key_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* A kernel's binding level ("" when unset). */
static const char *binding_of(const mg_vkernel *k)
{
    return k->binding ? k->binding : "";
}

/* The set's most common binding level (ties: the one met first). */
static void binding_mode(const mg_validation *v, const size_t *idx, size_t n, mg_vprofile *p)
{
    for (size_t a = 0; a < n; a++) {
        const char *x = binding_of(&v->k[idx[a]]);
        size_t c = 0;
        for (size_t b = 0; b < n; b++) c += !strcmp(x, binding_of(&v->k[idx[b]]));
        if (c > p->binding_n) {
            p->binding_n = c;
            snprintf(p->binding, sizeof p->binding, "%s", x);
        }
    }
}

/* Describe the kernels idx[0..n-1] (n <= MG_VMISS_MAX) into *p. */
static void profile(const mg_validation *v, const size_t *idx, size_t n, mg_vprofile *p)
{
    double e[MG_VMISS_MAX];
    memset(p, 0, sizeof *p);
    p->n = n;
    for (size_t j = 0; j < MG_VMISS_MAX; j++) p->kernel[j] = -1;
    for (size_t j = 0; j < n; j++) {
        const mg_vkernel *k = &v->k[idx[j]];
        e[j] = k->predicted_ns / k->measured_ns - 1;
        p->under += e[j] < 0;
        for (int s = 0; s < MG_STALL_COUNT; s++) p->stall[s] += k->stall[s] / (double)n;
        p->occupancy += k->occupancy / (double)n;
        p->occ_groups += k->occ_groups / (double)n;
        p->regs += k->regs_simulated / (double)n;
        p->kernel[j] = (long)k->index;
    }
    p->error = mg_stats_median(e, n);
    for (int s = 1; s < MG_STALL_COUNT; s++)
        if (p->stall[s] > p->stall[p->stall_main]) p->stall_main = s;
    binding_mode(v, idx, n, p);
}

/* Group g's misses into *m; r has room for every kernel. */
static void group_misses(const mg_validation *v, size_t g, ranked *r, mg_vmiss *m)
{
    size_t n = 0, idx[MG_VMISS_MAX];
    memset(m, 0, sizeof *m);
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || k->group != g) continue;
        r[n++] = (ranked){fabs(log(k->predicted_ns / k->measured_ns)), i};
    }
    if (n < 2) return;
    size_t q = (n + 3) / 4;
    if (q > MG_VMISS_MAX) q = MG_VMISS_MAX;
    qsort(r, n, sizeof *r, by_key_desc);
    for (size_t j = 0; j < q; j++) idx[j] = r[j].i;
    profile(v, idx, q, &m->worst);
    for (size_t j = 0; j < q; j++) idx[j] = r[n - 1 - j].i;
    profile(v, idx, q, &m->best);
}

void mg_validate_misses(mg_validation *v)
{
    free(v->miss);
    v->miss = calloc(v->ngroups ? v->ngroups : 1, sizeof *v->miss);
    ranked *r = malloc((v->n ? v->n : 1) * sizeof *r);
    if (v->miss && r)
        for (size_t g = 0; g < v->ngroups; g++) group_misses(v, g, r, &v->miss[g]);
    free(r);
}

/* ---- residuals by knob -------------------------------------------------------------- */

/* Natural order: runs of digits compare by value ("8,8,1" < "16,1,1"). */
static int natcmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y) return x < y ? -1 : 1;
            a = ea;
            b = eb;
            continue;
        }
        if (*a != *b) return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return (unsigned char)*a - (unsigned char)*b;
}

/* Natural order, then plain ("1" before "01"): a total order. */
static int by_value(const void *a, const void *b)
{
    const char *x = ((const mg_vresidual *)a)->value, *y = ((const mg_vresidual *)b)->value;
    int c = natcmp(x, y);
    return c ? c : strcmp(x, y);
}

/* Append knob j's distinct values among the compared kernels to res
 * (room for v->n more), sorted; returns how many. */
static size_t knob_values(const mg_validation *v, int j, mg_vresidual *res)
{
    size_t nv = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || !k->knob[j][0]) continue;
        size_t x = 0;
        while (x < nv && strcmp(res[x].value, k->knob[j])) x++;
        if (x < nv) continue;
        memset(&res[nv], 0, sizeof res[nv]);
        res[nv].knob = j;
        snprintf(res[nv++].value, sizeof res[0].value, "%s", k->knob[j]);
    }
    qsort(res, nv, sizeof *res, by_value);
    return nv;
}

/* The statistics of one knob value; p, m have room for every kernel. */
static void residual(const mg_validation *v, mg_vresidual *r, double *p, double *m)
{
    size_t n = 0;
    for (size_t i = 0; i < v->n; i++) {
        const mg_vkernel *k = &v->k[i];
        if (k->status != MG_VK_OK || strcmp(k->knob[r->knob], r->value)) continue;
        p[n] = k->predicted_ns;
        m[n++] = k->measured_ns;
    }
    r->n = n;
    r->mape = mg_stats_mape(p, m, n);
    for (size_t i = 0; i < n; i++) p[i] = p[i] / m[i] - 1;
    r->median_error = mg_stats_median(p, n);
}

void mg_validate_residuals(mg_validation *v)
{
    free(v->res);
    v->res = NULL;
    v->nres = 0;
    size_t room = (v->n ? v->n : 1) * MG_VKNOB_COUNT;
    mg_vresidual *res = malloc(room * sizeof *res);
    double *buf = malloc(2 * (v->n ? v->n : 1) * sizeof *buf);
    if (!res || !buf) {
        free(res);
        free(buf);
        return;
    }
    size_t nres = 0;
    for (int j = 0; j < MG_VKNOB_COUNT; j++) nres += knob_values(v, j, res + nres);
    for (size_t x = 0; x < nres; x++) residual(v, &res[x], buf, buf + v->n);
    free(buf);
    v->res = res;
    v->nres = nres;
}
