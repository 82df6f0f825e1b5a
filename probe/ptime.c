/* ptime.c - timed measurements of generated kernels (see ptime.h). */
#include "probe/ptime.h"
#include "sim/analysis/knee.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double mgp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

const char *mgp_tp_name(int status)
{
    static const char *const n[] = {"ok", "skip", "error", "hung", "budget", "stopped"};
    return status >= 0 && status <= MGP_TP_STOP ? n[status] : "error";
}

void mgp_fmt_scale(char *out, size_t len, const char *fmt, long long v)
{
    const char *at = strstr(fmt, "%lld");
    if (!at) {
        snprintf(out, len, "%s", fmt);
        return;
    }
    snprintf(out, len, "%.*s%lld%s", (int)(at - fmt), fmt, v, at + 4);
}

int mgp_parse_line(const char *line, mg_schedule *s, char *msg, size_t len)
{
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_schedule_parse_line(line, NULL, s, &d);
    if (rc) snprintf(msg, len, "generator: %s", mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

int mgp_regs_from_log(const char *log)
{
    for (const char *p = log; p && (p = strstr(p, "Used ")); p += 5) {
        char *end;
        long n = strtol(p + 5, &end, 10);
        if (end != p + 5 && !strncmp(end, " register", 9) && n >= 0 && n < 100000)
            return (int)n;
    }
    return -1;
}

long mgp_bytes_from_log(const char *log, const char *what)
{
    size_t wl = strlen(what);
    for (const char *p = log; p && (p = strstr(p, " bytes ")); p += 7) {
        if (strncmp(p + 7, what, wl)) continue;
        const char *d = p;                          /* the digits before " bytes" */
        while (d > log && d[-1] >= '0' && d[-1] <= '9') d--;
        if (d == p || p - d > 9) continue;
        return strtol(d, NULL, 10);
    }
    return -1;
}

/* Set p's status and message; returns the status. */
static int fail(mgp_point *p, int status, const char *what, const char *msg)
{
    p->status = status;
    snprintf(p->msg, sizeof p->msg, "%s%s", what, msg);
    return status;
}

/* May a new build or launch start?  MGP_TP_OK, or the reason not. */
static int may_start(const mgp_timer *t, mgp_point *p)
{
    if (t->stop && *t->stop) return fail(p, MGP_TP_STOP, "interrupted", "");
    if (t->hung)
        return fail(p, MGP_TP_HUNG, "an earlier launch hung: the device is not used again", "");
    if (t->deadline > 0 && mgp_now() > t->deadline)
        return fail(p, MGP_TP_BUDGET, "the aspect's time budget ran out", "");
    return MGP_TP_OK;
}

/* The MGP_TP status of a kexec result. */
static int from_kx(int rc)
{
    return rc == MGP_KX_OK ? MGP_TP_OK : rc == MGP_KX_SKIP ? MGP_TP_SKIP
           : rc == MGP_KX_HUNG ? MGP_TP_HUNG : MGP_TP_FAIL;
}

/* One prepared kernel of the scaled schedule. */
typedef struct built {
    mg_gen    g;
    mg_host   h;
    mgp_kexec e;
    int       have_g, have_h, have_e;
} built;

static void unbuild(built *b)
{
    if (b->have_e) mgp_kexec_release(&b->e);
    if (b->have_h) mg_host_free(&b->h);
    if (b->have_g) mg_gen_free(&b->g);
    b->have_e = b->have_h = b->have_g = 0;
}

/* Generate and prepare `line` into b.  Returns a MGP_TP status. */
static int build(mgp_timer *t, const char *line, built *b, mgp_point *p)
{
    memset(b, 0, sizeof *b);
    mg_schedule s;
    char msg[512];
    if (mgp_parse_line(line, &s, msg, sizeof msg)) return fail(p, MGP_TP_FAIL, "", msg);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_gen_prepare(&b->g, &s, &d);
    b->have_g = 1;
    if (rc) {
        fail(p, MGP_TP_FAIL, "generator: ", mg_diag_first(&d));
        mg_diag_free(&d);
        return p->status;
    }
    mg_diag_free(&d);
    mg_schedule_format(&b->g.s, p->schedule, sizeof p->schedule);
    p->regs_estimate = b->g.k.f.regs_per_item;
    p->items = 1;
    for (int i = 0; i < 3; i++) p->items *= (double)(b->g.k.global[i] > 0 ? b->g.k.global[i] : 1);
    p->flops = b->g.k.f.flops;
    p->group = 1;
    for (int i = 0; i < 3; i++) p->group *= (double)(b->g.k.local[i] > 0 ? b->g.k.local[i] : 1);
    p->bytes_per_item = (double)b->g.k.f.bytes_per_item;
    if (mg_host_init(&b->g, &b->h)) return fail(p, MGP_TP_FAIL, "out of memory for the inputs", "");
    b->have_h = 1;
    rc = mgp_kexec_prepare_opts(&b->e, t->dev, &b->g, &b->h, 0, t->build_opts);
    b->have_e = 1;
    p->kwg = (double)b->e.kwg;
    if (rc != MGP_KX_OK) return fail(p, from_kx(rc), "", b->e.msg);
    p->regs_compiler = mgp_regs_from_log(b->e.build_log);
    return MGP_TP_OK;
}

/* One timed launch of b; the hang limit is max(hang_s, 20 x expect_ns). */
static int launch(mgp_timer *t, built *b, double expect_ns, double *ns, mgp_point *p)
{
    double limit = fmax(t->hang_s > 0 ? t->hang_s : 60, 20 * expect_ns * 1e-9);
    int rc = mgp_kexec_run_timed(&b->e, ns, limit, t->stop);
    if (rc == MGP_KX_HUNG) {
        if (t->stop && *t->stop) return fail(p, MGP_TP_STOP, "interrupted: ", b->e.msg);
        t->hung = 1;
    }
    if (rc != MGP_KX_OK) return fail(p, from_kx(rc), "", b->e.msg);
    return MGP_TP_OK;
}

int mgp_measure(mgp_timer *t, const char *fmt, int64_t start, int64_t max, mgp_point *p)
{
    memset(p, 0, sizeof *p);
    p->regs_compiler = -1;
    int64_t it = start < 1 ? 1 : start > max ? max : start;
    double want = t->min_ms * 1e6, warm = 0;
    built b;
    memset(&b, 0, sizeof b);
    for (int step = 0;; step++) {
        if (may_start(t, p)) return p->status;
        char line[2048];
        mgp_fmt_scale(line, sizeof line, fmt, (long long)it);
        if (build(t, line, &b, p) != MGP_TP_OK) {
            unbuild(&b);
            return p->status;
        }
        p->scale = it;
        if (launch(t, &b, 0, &warm, p) != MGP_TP_OK) {
            unbuild(&b);
            return p->status;
        }
        if (warm >= want || it >= max || step == 7 || !strstr(fmt, "%lld")) {
            p->short_run = warm < want;
            break;
        }
        double f = ceil(1.25 * want / fmax(warm, 1000));
        f = f < 2 ? 2 : f > 64 ? 64 : f;
        it = (double)it * f >= (double)max ? max : (int64_t)((double)it * f);
        unbuild(&b);
    }
    int reps = t->reps < 1 ? 1 : t->reps > MGP_REPS_MAX ? MGP_REPS_MAX : t->reps;
    for (int r = 0; r < reps; r++) {
        if ((t->stop && *t->stop) || t->hung) {
            may_start(t, p);
            break;
        }
        if (launch(t, &b, warm, &p->ns[p->n], p) != MGP_TP_OK) break;
        p->n++;
    }
    unbuild(&b);
    if (p->n < reps) {
        if (p->status == MGP_TP_OK) p->status = MGP_TP_FAIL;
        return p->status;
    }
    p->median = mg_knee_median(p->ns, p->n);
    p->min = p->max = p->ns[0];
    for (int r = 1; r < p->n; r++) {
        p->min = fmin(p->min, p->ns[r]);
        p->max = fmax(p->max, p->ns[r]);
    }
    p->spread = mg_knee_spread(p->ns, p->n);
    p->noise = mg_knee_noise(p->ns, p->n);
    p->status = MGP_TP_OK;
    return MGP_TP_OK;
}

int mgp_run_once(mgp_timer *t, const char *line, mg_gen *g, mg_host *h, char *msg, size_t len)
{
    mgp_point p;
    memset(&p, 0, sizeof p);
    memset(g, 0, sizeof *g);
    memset(h, 0, sizeof *h);
    if (may_start(t, &p)) {
        snprintf(msg, len, "%s", p.msg);
        return p.status;
    }
    built b;
    int rc = build(t, line, &b, &p);
    if (rc == MGP_TP_OK) rc = launch(t, &b, 0, &p.median, &p);
    if (rc == MGP_TP_OK && mgp_kexec_read(&b.e, &b.h, NULL, NULL) != MGP_KX_OK)
        rc = fail(&p, MGP_TP_FAIL, "", b.e.msg);
    if (rc != MGP_TP_OK) {
        snprintf(msg, len, "%s", p.msg);
        unbuild(&b);
        return rc;
    }
    mgp_kexec_release(&b.e);
    *g = b.g;
    *h = b.h;
    return MGP_TP_OK;
}
