/*
 * walk.c - access-pattern walks, ALU merging, local barriers (walk.h).
 */
#include "traces/ops/walk.h"

#include "traces/gen/schedule.h"

#include <string.h>

int64_t mg_walk_band(int pattern, int64_t R)
{
    int64_t h;
    switch (pattern) {
    case MG_PAT_ROW: h = 1; break;
    case MG_PAT_BLOCK2: h = 2; break;
    case MG_PAT_BLOCK4: h = 4; break;
    case MG_PAT_BLOCK8: h = 8; break;
    default: h = R; break;                      /* column */
    }
    return h < R ? h : (R > 0 ? R : 1);
}

void mg_walk_start(mg_walk *w, int pattern, int64_t R, int64_t X)
{
    w->R = R;
    w->X = X;
    w->h = mg_walk_band(pattern, R);
    w->yb = 0;
    w->x = 0;
    w->y = 0;
}

int mg_walk_next(mg_walk *w, int64_t *y, int64_t *x)
{
    if (w->R <= 0 || w->X <= 0 || w->yb >= w->R) return 0;
    *y = w->y;
    *x = w->x;
    /* advance: y within the band, then x, then the band */
    if (++w->y < w->yb + w->h && w->y < w->R) return 1;
    w->y = w->yb;
    if (++w->x < w->X) return 1;
    w->x = 0;
    w->yb += w->h;
    w->y = w->yb;
    return 1;
}

void mg_walk_cl_open(mg_sb *o, int pattern, int64_t R, int64_t X, const char *yv,
                     const char *xv, const char *ind)
{
    int64_t h = mg_walk_band(pattern, R);
    long long r = (long long)R, x = (long long)X;
    if (h == 1 || h >= R) {             /* row: y outer; column: x outer */
        const char *outer = h == 1 ? yv : xv, *inner = h == 1 ? xv : yv;
        long long no = h == 1 ? r : x, ni = h == 1 ? x : r;
        mg_sb_printf(o, "%sfor (int %s = 0; %s < %lld; %s++)\n", ind, outer, outer, no, outer);
        mg_sb_printf(o, "%sfor (int %s = 0; %s < %lld; %s++) {\n", ind, inner, inner, ni, inner);
    } else {
        mg_sb_printf(o, "%sfor (int %sb = 0; %sb < %lld; %sb += %lld)\n"
                        "%sfor (int %s = 0; %s < %lld; %s++)\n"
                        "%sfor (int %s = %sb; %s < %sb + %lld && %s < %lld; %s++) {\n",
                     ind, yv, yv, r, yv, (long long)h, ind, xv, xv, x, xv, ind, yv, yv, yv, yv,
                     (long long)h, yv, r, yv);
    }
}

void mg_walk_cl_close(mg_sb *o, const char *ind)
{
    mg_sb_printf(o, "%s}\n", ind);
}

void mg_alu_flush(mg_warp *w, mg_alu_run *a)
{
    while (a->n > 0) {
        uint32_t n = a->n > UINT32_MAX ? UINT32_MAX : (uint32_t)a->n;
        mg_emit_alu(w, a->m.m, a->site, a->cls, a->vec, n, a->flops);
        a->n -= n;
    }
}

void mg_alu_add(mg_warp *w, mg_alu_run *a, mg_lmask m, int site, int cls, int vec, uint64_t n,
                int flops)
{
    if (!mg_lm_any(&m) || n == 0) return;
    if (a->n && (a->m.m[0] != m.m[0] || a->m.m[1] != m.m[1] || a->site != site ||
                 a->cls != cls || a->vec != vec || a->flops != flops))
        mg_alu_flush(w, a);
    if (!a->n) {
        a->m = m;
        a->site = site;
        a->cls = cls;
        a->vec = vec;
        a->flops = flops;
    }
    a->n += n;
}

void mg_walk_barrier_local(mg_warp *w, int site)
{
    /* mg_emit_barrier() leaves the fence (carried in r.obj) as it finds
     * it: set the local-memory fence bit first. */
    w->r.obj = 1;
    mg_emit_barrier(w, site);
}
