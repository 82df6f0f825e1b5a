/*
 * vp_measure.c - one point of the virtual probe: a schedule through the
 * generator and the timing model at two loop counts (see vp.h).
 */
#include "sim/vprobe/vp.h"
#include "traces/gen/gen.h"
#include "sim/model/model.h"
#include "sim/analysis/profile.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy fmt into out with its "%lld" replaced by n. */
static void fill(char *out, size_t len, const char *fmt, int64_t n)
{
    const char *at = strstr(fmt, "%lld");
    if (!at) snprintf(out, len, "%s", fmt);
    else snprintf(out, len, "%.*s%lld%s", (int)(at - fmt), fmt, (long long)n, at + 4);
}

/* Parse "op key=value ..." plus warp=W into s.  Returns 0, or -1 with the
 * generator's message in msg. */
static int parse(const char *line, int64_t warp, mg_schedule *s, char *msg, size_t len)
{
    char wbuf[32];
    snprintf(wbuf, sizeof wbuf, "warp=%lld", (long long)warp);
    mg_diag d;
    mg_diag_init(&d);
    int rc = mg_schedule_parse_line(line, wbuf, s, &d);
    if (rc) snprintf(msg, len, "%s", mg_diag_first(&d));
    mg_diag_free(&d);
    return rc;
}

/* Simulate `line`.  Returns 0 with *st; 1 when the model refused it (why
 * in msg); -1 when the schedule is bad. */
static int simulate(mg_vp *v, const char *line, mg_sim_stats *st, int *regs, char *canon,
                    size_t clen, char *msg, size_t len)
{
    mg_schedule s;
    if (parse(line, v->dev->warp_width, &s, msg, len)) return -1;
    mg_gen *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    mg_diag d;
    mg_diag_init(&d);
    int rc = -1;
    if (mg_gen_prepare(g, &s, &d)) {
        snprintf(msg, len, "%s", mg_diag_first(&d));
        goto out;
    }
    if (canon) mg_schedule_format(&g->s, canon, clen);
    *regs = (int)g->hdr.regs_per_item;
    mg_gen_stream gs;
    mg_trace_source src = mg_gen_source(&gs, g);
    mg_sim_opts so;
    memset(&so, 0, sizeof so);
    so.quiet = 1;
    so.sample = MG_SAMPLE_OFF;
    so.spill = 1;            /* the probe's plan reaches past max_regs_per_item */
    v->runs++;
    if (mg_sim_run(v->dev, &src, &so, st, &d)) {
        snprintf(msg, len, "%s", mg_diag_first(&d));
        rc = 1;
        goto out;
    }
    v->sim_seconds += st->seconds;
    rc = 0;
out:
    mg_diag_free(&d);
    mg_gen_free(g);
    free(g);
    return rc;
}

/* The point from loop count p->b (already simulated: p->t_b) to c. */
static int measure_more(mg_vp *v, const char *fmt, const mg_vp_point *p, int64_t c,
                              mg_vp_point *q);

int mg_vp_measure(mg_vp *v, const char *fmt, int64_t a, int64_t b, mg_vp_point *p)
{
    memset(p, 0, sizeof *p);
    p->a = a;
    p->b = b;
    char line[700];
    mg_sim_stats sa, sb;
    int regs = 0;
    fill(line, sizeof line, fmt, a);
    int rc = simulate(v, line, &sa, &regs, NULL, 0, p->msg, sizeof p->msg);
    if (rc == 0) {
        fill(line, sizeof line, fmt, b);
        rc = simulate(v, line, &sb, &regs, p->schedule, sizeof p->schedule, p->msg,
                      sizeof p->msg);
    }
    if (!p->schedule[0]) fill(p->schedule, sizeof p->schedule, fmt, b);
    p->regs = regs;
    if (rc < 0) {
        mg_vp_fail(v, "%s: %s", line, p->msg);
        return -1;
    }
    if (rc > 0) return 0;
    p->t_a = sa.seconds;
    p->t_b = sb.seconds;
    p->flops = sb.flops - sa.flops;
    p->flops_b = sb.flops;
    p->ns = (sb.seconds - sa.seconds) * 1e9 / (double)(b - a);
    if (!(p->ns > 0)) {
        snprintf(p->msg, sizeof p->msg, "the time did not grow with the loop count (%g s at %lld, "
                 "%g s at %lld)", sa.seconds, (long long)a, sb.seconds, (long long)b);
        return 0;
    }
    p->ok = 1;
    return 0;
}

static int measure_more(mg_vp *v, const char *fmt, const mg_vp_point *p, int64_t c,
                              mg_vp_point *q)
{
    memset(q, 0, sizeof *q);
    q->a = p->b;
    q->b = c;
    char line[700];
    mg_sim_stats sc;
    fill(line, sizeof line, fmt, c);
    int rc = simulate(v, line, &sc, &q->regs, q->schedule, sizeof q->schedule, q->msg,
                      sizeof q->msg);
    if (rc < 0) {
        mg_vp_fail(v, "%s: %s", line, q->msg);
        return -1;
    }
    if (rc > 0) return 0;
    q->t_a = p->t_b;
    q->t_b = sc.seconds;
    q->flops = sc.flops - p->flops_b;
    q->flops_b = sc.flops;
    q->ns = (q->t_b - q->t_a) * 1e9 / (double)(c - p->b);
    q->ok = q->ns > 0;
    if (!q->ok) snprintf(q->msg, sizeof q->msg, "the time did not grow with the loop count");
    return 0;
}

int mg_vp_measure_once(mg_vp *v, const char *fmt, int64_t n, mg_vp_point *p)
{
    memset(p, 0, sizeof *p);
    p->a = p->b = n;
    char line[700];
    mg_sim_stats st;
    fill(line, sizeof line, fmt, n);
    int rc = simulate(v, line, &st, &p->regs, p->schedule, sizeof p->schedule, p->msg,
                      sizeof p->msg);
    if (!p->schedule[0]) snprintf(p->schedule, sizeof p->schedule, "%.599s", line);
    if (rc < 0) {
        mg_vp_fail(v, "%s: %s", line, p->msg);
        return -1;
    }
    if (rc > 0) return 0;
    p->t_b = st.seconds;
    p->flops = p->flops_b = st.flops;
    p->ns = st.seconds * 1e9 / (double)n;
    p->ok = p->ns > 0;
    return 0;
}

int mg_vp_measure_steady(mg_vp *v, const char *fmt, int64_t a, int64_t b, int64_t max,
                         mg_vp_point *p)
{
    if (mg_vp_measure(v, fmt, a, b, p)) return -1;
    while (p->ok && 2 * p->b <= max) {
        mg_vp_point q;
        if (measure_more(v, fmt, p, 2 * p->b, &q)) return -1;
        double change = fabs(q.ns - p->ns) / p->ns;
        *p = q;
        if (!q.ok || change < 0.002) break;
    }
    return 0;
}

cJSON *mg_vp_point_add(cJSON *points, double x, double y, const mg_vp_point *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "x", x);
    if (p->ok && isfinite(y)) cJSON_AddNumberToObject(o, "y", y);
    else cJSON_AddNullToObject(o, "y");
    cJSON_AddStringToObject(o, "status", p->ok ? "ok" : "error");
    if (!p->ok) cJSON_AddStringToObject(o, "error", p->msg);
    cJSON_AddStringToObject(o, "schedule", p->schedule);
    cJSON *lc = cJSON_AddArrayToObject(o, "loop_counts");
    cJSON_AddItemToArray(lc, cJSON_CreateNumber((double)p->a));
    cJSON_AddItemToArray(lc, cJSON_CreateNumber((double)p->b));
    if (p->ok) {
        cJSON *t = cJSON_AddArrayToObject(o, "sim_seconds");
        cJSON_AddItemToArray(t, cJSON_CreateNumber(p->t_a));
        cJSON_AddItemToArray(t, cJSON_CreateNumber(p->t_b));
    }
    cJSON_AddNumberToObject(o, "regs_estimate", p->regs);
    cJSON_AddItemToArray(points, o);
    return o;
}

int mg_vp_earlier(const mg_vp *v, const char *aspect, const char *key, double *val)
{
    return v->profile ? mg_profile_number(v->profile, aspect, key, val, NULL) : -1;
}

void mg_vp_fail(mg_vp *v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->error, sizeof v->error, fmt, ap);
    va_end(ap);
    v->failed = 1;
}
