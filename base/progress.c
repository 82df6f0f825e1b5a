/*
 * progress.c - a progress line on stderr (progress.h).
 */
#include "base/progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void mg_progress_start(mg_progress *p, int on, const char *label, const char *unit,
                       uint64_t total, const char *note)
{
    *p = (mg_progress){.on = on, .label = label, .unit = unit, .note = note, .total = total};
    p->t0 = p->last = now_s();
}

static void draw(mg_progress *p, uint64_t done, double t)
{
    double el = t - p->t0, rate = el > 0 ? (double)done / el : 0;
    char eta[32] = "?";
    if (rate > 0 && done <= p->total) {
        double left = (double)(p->total - done) / rate;
        snprintf(eta, sizeof eta, "%dm%02ds", (int)(left / 60), (int)left % 60);
    }
    fprintf(stderr, "\r%s: %" PRIu64 "/%" PRIu64 " %s (%.1f%%)  %.1f %s/s  ETA %s%s%s\033[K",
            p->label, done, p->total, p->unit,
            p->total ? 100.0 * (double)done / (double)p->total : 100.0, rate, p->unit, eta,
            p->note ? "  " : "", p->note ? p->note : "");
    fflush(stderr);
    p->drawn = 1;
    p->last = t;
}

void mg_progress_update(mg_progress *p, uint64_t done)
{
    if (!p->on) return;
    double t = now_s();
    if (t - p->last >= 0.25) draw(p, done, t);
}

void mg_progress_end(mg_progress *p, uint64_t done)
{
    if (!p->on || !p->drawn) return;
    draw(p, done, now_s());
    fputc('\n', stderr);
    fflush(stderr);
}
