/* vcheck.c - verify one schedule on a device (see vcheck.h). */
#include "probe/vcheck.h"
#include "traces/gen/tracer.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mgp_vcheck_tolerance(const mg_schedule *s)
{
    return s->storage == MG_PREC_FP16 || s->compute == MG_PREC_FP16 ? MGP_VCHECK_TOL_FP16
                                                                    : MGP_VCHECK_TOL_FP32;
}

double mgp_vcheck_terms(const mg_gen *g)
{
    double outs = 0;
    for (int i = 0; i < g->k.n_tensors; i++)
        if (g->k.t[i].role == MG_TENSOR_OUT) outs += (double)mg_tensor_elems(&g->k.t[i]);
    return outs > 0 && g->k.f.flops > 0 ? g->k.f.flops / 2 / outs : 0;
}

double mgp_vcheck_floor(const mg_gen *g)
{
    double n = mgp_vcheck_terms(g);
    return fmax(MGP_VCHECK_FLOOR, MGP_VCHECK_FLOOR_PER_ADD * (n - 1));
}

/* Element e of t's logical shape as "(i0,i1,i2,i3)". */
static const char *elem_index(const mg_tensor *t, int64_t e, char *buf, size_t len)
{
    int64_t ix[4];
    for (int d = 3; d >= 0; d--) {
        int64_t n = t->dims[d] > 0 ? t->dims[d] : 1;
        ix[d] = e % n;
        e /= n;
    }
    snprintf(buf, len, "(%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ")", ix[0], ix[1],
             ix[2], ix[3]);
    return buf;
}

/* Compare one float tensor; returns 0 or 1 with why. */
static int compare_float(const mg_tensor *t, const float *ref, const float *got, double tol,
                         double rel_floor, char *why, size_t len)
{
    int64_t n = mg_tensor_elems(t), bad = 0, first = -1;
    double worst = 0;
    for (int64_t e = 0; e < n; e++) {
        double r = ref[e], g = got[e];
        double err = fabs(g - r) / fmax(fabs(r), rel_floor);
        if (err <= tol) continue;                 /* NaN fails here */
        if (first < 0) first = e;
        bad++;
        if (!(err <= worst)) worst = err;          /* NaN/inf wins */
    }
    if (!bad) return 0;
    char ix[96];
    snprintf(why, len, "output '%s': %" PRId64 " of %" PRId64 " elements wrong; first %s: "
             "got %.9g, expected %.9g; worst relative error %.3g > %g (floor %g)", t->name,
             bad, n, elem_index(t, first, ix, sizeof ix), (double)got[first],
             (double)ref[first], worst, tol, rel_floor);
    return 1;
}

/* Compare one integer tensor exactly; returns 0 or 1 with why. */
static int compare_int(const mg_tensor *t, const int32_t *ref, const int32_t *got, char *why,
                       size_t len)
{
    int64_t n = mg_tensor_elems(t), bad = 0, first = -1;
    for (int64_t e = 0; e < n; e++) {
        if (ref[e] == got[e]) continue;
        if (first < 0) first = e;
        bad++;
    }
    if (!bad) return 0;
    char ix[96];
    snprintf(why, len, "output '%s': %" PRId64 " of %" PRId64 " elements wrong; first %s: "
             "got %" PRId32 ", expected %" PRId32, t->name, bad, n,
             elem_index(t, first, ix, sizeof ix), got[first], ref[first]);
    return 1;
}

/* Check a tensor whose consecutive blocks of b elements must each be a
 * permutation of 0..b-1 (the device's execution order); 0 or 1 with why. */
static int compare_perm(const mg_tensor *t, const int32_t *got, int64_t b, char *why,
                        size_t len)
{
    int64_t n = mg_tensor_elems(t);
    unsigned char *seen = calloc((size_t)b, 1);
    if (!seen) {
        snprintf(why, len, "output '%s': out of memory for the permutation check", t->name);
        return 1;
    }
    int bad = 0;
    for (int64_t q = 0; q * b < n && !bad; q++) {
        memset(seen, 0, (size_t)b);
        for (int64_t e = q * b; e < (q + 1) * b && e < n; e++) {
            int32_t v = got[e];
            if (v < 0 || v >= b || seen[v]) {
                snprintf(why, len, "output '%s': block %" PRId64 " is not a permutation of "
                         "0..%" PRId64 ": element %" PRId64 " is %" PRId32 "%s", t->name, q,
                         b - 1, e - q * b, v, v >= 0 && v < b ? " (a repeat)" : "");
                bad = 1;
                break;
            }
            seen[v] = 1;
        }
    }
    free(seen);
    return bad;
}

int mgp_vcheck_outputs(const mg_gen *g, const mg_host *ref, const mg_host *got, double tol,
                       char *why, size_t len)
{
    double rel_floor = mgp_vcheck_floor(g);
    for (int i = 0; i < g->k.n_tensors; i++) {
        const mg_tensor *t = &g->k.t[i];
        if (t->role != MG_TENSOR_OUT) continue;
        int bad = t->perm_block > 0 && t->dtype == MG_DT_I32
                      ? compare_perm(t, got->i[i], t->perm_block, why, len)
                  : t->dtype == MG_DT_I32
                      ? compare_int(t, ref->i[i], got->i[i], why, len)
                      : compare_float(t, ref->f[i], got->f[i], tol, rel_floor, why, len);
        if (bad) return 1;
    }
    return 0;
}

/* Set r's status and reason; returns the status. */
static int set(mgp_vresult *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int set(mgp_vresult *r, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->reason, sizeof r->reason, fmt, ap);
    va_end(ap);
    r->status = status;
    return status;
}

/* Append a line to r->details. */
static void detail(mgp_vresult *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void detail(mgp_vresult *r, const char *fmt, ...)
{
    char line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t old = r->details ? strlen(r->details) : 0, add = strlen(line);
    char *p = realloc(r->details, old + add + 2);
    if (!p) return;
    memcpy(p + old, line, add);
    p[old + add] = '\n';
    p[old + add + 1] = '\0';
    r->details = p;
}

/* Copy a build log into r's details (at most 40 lines). */
static void detail_build_log(mgp_vresult *r, const char *log)
{
    int lines = 0;
    for (const char *p = log; p && *p && lines < 40; lines++) {
        const char *e = strchr(p, '\n');
        int n = e ? (int)(e - p) : (int)strlen(p);
        detail(r, "%.*s", n, p);
        p += n + (e ? 1 : 0);
    }
}

/* Run g once on dev (instrumented or not) with h's inputs; outputs into h,
 * the log (instrumented) into *log.  Returns the kexec status, the reason
 * (prefixed by `what`) in r. */
static int run_once(mgp_kexec_dev *dev, const mg_gen *g, mg_host *h, int instrumented,
                    uint32_t **log, size_t *log_words, const char *what, mgp_vresult *r)
{
    mgp_kexec e;
    int rc = mgp_kexec_prepare(&e, dev, g, h, instrumented);
    if (rc == MGP_KX_OK) rc = mgp_kexec_launch(&e, NULL);
    if (rc == MGP_KX_OK) rc = mgp_kexec_read(&e, h, log, log_words);
    if (rc != MGP_KX_OK) {
        set(r, rc, "%s%s", rc == MGP_KX_FAIL ? what : "", e.msg);
        if (e.build_log) detail_build_log(r, e.build_log);
    }
    mgp_kexec_release(&e);
    return rc;
}

/* The trace check: instrumented run, results again, then the tracer. */
static void check_trace(mgp_kexec_dev *dev, const mg_gen *g, const mg_host *ref, mg_host *h,
                        double tol, mgp_vresult *r)
{
    uint32_t *log = NULL;
    size_t words = 0;
    if (run_once(dev, g, h, 1, &log, &words, "instrumented build: ", r) != MGP_KX_OK) return;
    char why[1024];
    if (mgp_vcheck_outputs(g, ref, h, tol, why, sizeof why)) {
        set(r, MGP_KX_FAIL, "instrumented build: wrong result: %s", why);
        free(log);
        return;
    }
    mg_tracer_report rep;
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_tracer_compare(g, log, words, &rep, &d);
    if (rc < 0) {
        set(r, MGP_KX_FAIL, "%s", mg_diag_first(&d));
    } else if (rc > 0) {
        set(r, MGP_KX_FAIL, "trace differs from the kernel's own accesses in %" PRIu64 " of %"
            PRIu64 " work items (%" PRIu64 " accesses compared, %" PRIu64 " in the trace)",
            rep.bad_items, rep.items, rep.accesses, rep.expected);
        for (int i = 0; i < rep.n_msgs; i++) detail(r, "%s", rep.msg[i]);
        if (rep.bad_items > (uint64_t)rep.n_msgs)
            detail(r, "... and %" PRIu64 " more work items", rep.bad_items - (uint64_t)rep.n_msgs);
    }
    mg_diag_free(&d);
    free(log);
}

void mgp_verify_one(mgp_kexec_dev *dev, const mg_schedule *s, int trace, mgp_vresult *r)
{
    memset(r, 0, sizeof *r);
    mg_diag d;
    mg_diag_init(&d);
    mg_gen g;
    if (mg_gen_prepare(&g, s, &d)) {
        set(r, MGP_KX_FAIL, "generator: %s", mg_diag_first(&d));
        mg_diag_free(&d);
        mg_gen_free(&g);
        return;
    }
    mg_diag_free(&d);
    mg_host ref, h;
    int ok_ref = mg_host_init(&g, &ref) == 0, ok_h = mg_host_init(&g, &h) == 0;
    if (!ok_ref || !ok_h) {
        set(r, MGP_KX_FAIL, "out of memory for the host data");
    } else {
        mg_host_reference(&g, &ref);
        double tol = mgp_vcheck_tolerance(s);
        char why[1024];
        if (run_once(dev, &g, &h, 0, NULL, NULL, "", r) != MGP_KX_OK) {
            /* reason set */
        } else if (mgp_vcheck_outputs(&g, &ref, &h, tol, why, sizeof why)) {
            set(r, MGP_KX_FAIL, "wrong result: %s", why);
        } else if (trace) {
            check_trace(dev, &g, &ref, &h, tol, r);
        }
    }
    if (ok_ref) mg_host_free(&ref);
    if (ok_h) mg_host_free(&h);
    mg_gen_free(&g);
}

void mgp_vresult_free(mgp_vresult *r)
{
    free(r->details);
    r->details = NULL;
}
