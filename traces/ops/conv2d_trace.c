/*
 * conv2d_trace.c - the conv2d kernel's access trace (conv2d.h), warp by
 * warp in the program order of conv2d_cl.c's kernel as the compiler
 * schedules it: per window tap and channel step the input loads (one per
 * pixel of the tile), the weight loads, the FMAs (streamed weights,
 * mg_conv_streams_w(): each weight load followed by the dot it feeds);
 * with split > 1 the partial-tile local stores, the barrier (every warp,
 * even one with no item inside the output), the local loads and adds of
 * item 0; then the output stores.
 */
#include "traces/gen/emit.h"
#include "traces/ops/conv2d.h"
#include "traces/ops/ewise.h"

typedef struct lanes {
    /* fast: local z is sp R + r (split index sp, row in the group r) and
     * the lanes' addresses are affine in local x, y, r and sp: records go
     * out through mg_emit_aff_blocks() (blocks of R local z); but not for
     * a depthwise split item's taps over several sp (they depend on sp) */
    int fast;
    int multi;                          /* the warp spans several split indices */
    int64_t sp0;                        /* lane 0's split index (the first block) */
    int64_t ky0, kx0;                   /* fast: the current tap */
    int64_t wg0, wg1;                   /* gid 0 and 1 of local id 0: wg x local */
    int64_t wo0[MG_TRACE_MAX_LANES], co0[MG_TRACE_MAX_LANES], ho[MG_TRACE_MAX_LANES];
    int64_t sp[MG_TRACE_MAX_LANES];     /* split index */
    int64_t lid[MG_TRACE_MAX_LANES];    /* index in the split slice (the kernel's lid) */
    int64_t ky[MG_TRACE_MAX_LANES], kx[MG_TRACE_MAX_LANES];
    mg_lmask item;                      /* lanes inside the output (the kernel's ok) */
    mg_lmask first, rest;               /* items with s = 0, s > 0 */
    mg_lmask pix[256];                  /* pixel j of the tile lies inside Wo */
} lanes;

/* Each lane's ids, as the kernel derives them from its local and group ids. */
static void lanes_of(const mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, lanes *L)
{
    const mg_kernel *k = w->k;
    L->item = L->first = L->rest = (mg_lmask){{0, 0}};
    for (uint32_t l = 0; l < w->lanes; l++) {
        int64_t lz = w->lid[2][l], r = lz % g->R;
        L->sp[l] = lz / g->R;
        L->ho[l] = g->flat ? w->gid[2][l] : (int64_t)w->wg[2] * g->R + r;
        L->lid[l] = (r * k->local[1] + w->lid[1][l]) * k->local[0] + w->lid[0][l];
        if (w->gid[0][l] >= g->nz || w->gid[1][l] >= g->nx || L->ho[l] >= g->Ho) continue;
        mg_lm_set(&L->item, l);
        mg_lm_set(L->sp[l] ? &L->rest : &L->first, l);
        L->co0[l] = w->gid[0][l] * g->TC;
        L->wo0[l] = w->gid[1][l] * g->TW;
    }
    for (int64_t j = 0; j < g->TW; j++) {
        L->pix[j] = (mg_lmask){{0, 0}};
        for (uint32_t l = 0; l < w->lanes; l++)
            if (mg_lm_get(&L->item, l) && L->wo0[l] + j < g->Wo) mg_lm_set(&L->pix[j], l);
    }
    L->sp0 = L->sp[0];
    L->multi = L->sp0 != w->lidn[2] / g->R;
    L->fast = !w->lanewise && !(s->depthwise && L->multi);
    L->wg0 = (int64_t)w->wg[0] * k->local[0];
    L->wg1 = (int64_t)w->wg[1] * k->local[1];
}

/* Input load j of channel step cr at the current tap, fast path: returns
 * 0 when some lane may fall outside the input, or an image's channel
 * texel is not affine in local x or the split index (lane by lane then). */
static int x_fast(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, const lanes *L,
                  int64_t j, int64_t cr)
{
    /* hi of row r: (wg z R + r) stride - pad + ky */
    int64_t hz = (int64_t)w->wg[2] * g->R * s->stride - s->pad + L->ky0;
    const mg_lmask *m = &L->pix[j];
    if (!mg_lm_any(m)) return 1;
    if (g->pack_x) {    /* no bounds: ho of local z (wg z R + r), gx of local y */
        int64_t win = g->PH * g->PW * g->eb;
        mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
        int64_t dsp[2] = {g->CS * win, 0};
        f.at[0] = mg_conv_xp_index(s, g, (int64_t)w->wg[2] * g->R, L->wg1, j, L->ky0, L->kx0,
                                   L->sp0 * g->CS + cr) * g->eb;
        f.dy[0] = s->Cin * win;
        f.dz[0] = g->nx * s->Cin * win;
        mg_emit_aff_blocks(w, MG_REC_BUF_LOAD, MG_CONV_SITE_X, MG_CONV_TX, (uint32_t)g->eb,
                           m->m, &f, g->R, dsp);
        return 1;
    }
    /* the lane index rises with local z, and with local y within one z */
    unsigned first = m->m[0] ? (unsigned)__builtin_ctzll(m->m[0])
                             : 64u + (unsigned)__builtin_ctzll(m->m[1]);
    unsigned last = m->m[1] ? 127u - (unsigned)__builtin_clzll(m->m[1])
                            : 63u - (unsigned)__builtin_clzll(m->m[0]);
    int64_t zf = w->lid[2][first], zl = w->lid[2][last];
    /* r rises with the lane within one split index; over several, the
     * lanes' rows lie within 0 .. R - 1 */
    int one = zf / g->R == zl / g->R;
    int64_t hif = hz + (one ? zf % g->R : 0) * s->stride;
    int64_t hil = hz + (one ? zl % g->R : g->R - 1) * s->stride;
    if (hil < 0 || hif >= s->H) return 1;               /* no lane inside: no record */
    if (hif < 0 || hil >= s->H) return 0;               /* some lanes outside */
    /* wi of local y: ((wg1 + y) TW + j) stride - pad + kx; over several z,
     * y may take any value of the group's */
    int64_t yf = zf == zl ? w->lid[1][first] : 0;
    int64_t yl = zf == zl ? w->lid[1][last] : (int64_t)w->k->local[1] - 1;
    int64_t wi0 = (L->wg1 * g->TW + j) * s->stride - s->pad + L->kx0, wdy = g->TW * s->stride;
    if (wi0 + wdy * yf < 0 || wi0 + wdy * yl >= s->W) return 0;
    /* c of local x: depthwise (wg0 + x) TC + cr, else sp CS + cr */
    int64_t c0 = s->depthwise ? L->wg0 * g->TC + cr : L->sp0 * g->CS + cr;
    int64_t cdx = s->depthwise ? g->TC : 0, csp = s->depthwise ? 0 : g->CS;
    mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int64_t dsp[2] = {0, 0};
    if (g->img_x) {
        if (cdx % 4 || (L->multi && csp % 4)) return 0; /* c / 4 not affine in x or sp */
        f.at[0] = wi0 * g->cin4 + c0 / 4;
        f.dx[0] = cdx / 4;
        f.dy[0] = wdy * g->cin4;
        dsp[0] = csp / 4;
        f.at[1] = hz;
        f.dz[1] = s->stride;
    } else {
        f.at[0] = ((hz * s->W + wi0) * s->Cin + c0) * g->eb;
        f.dx[0] = cdx * g->eb;
        f.dy[0] = wdy * s->Cin * g->eb;
        f.dz[0] = s->stride * s->W * s->Cin * g->eb;
        dsp[0] = csp * g->eb;
    }
    mg_emit_aff_blocks(w, g->img_x ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_X,
                       MG_CONV_TX, (uint32_t)(g->XV * g->eb), m->m, &f, g->R, dsp);
    return 1;
}

/* Weight load c of channel step cr at the current tap (vec_axis=cout:
 * the vector of output channels co0 + c V ..), fast path: returns
 * 0 when the addresses are not affine in local x and the split index
 * (lane by lane then). */
static int w_fast(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, const lanes *L,
                  int64_t c, int64_t cr)
{
    int64_t ky = L->ky0, kx = L->kx0, co0 = L->wg0 * g->TC;     /* co0 of local x 0 */
    mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int64_t dsp[2] = {0, 0};
    if (s->depthwise) {
        int64_t ch = co0 + cr;
        if (g->img_w) {
            if (g->TC % 4) return 0;
            f.at[0] = kx * g->cin4 + ch / 4;
            f.dx[0] = g->TC / 4;
            f.at[1] = ky;
        } else {
            f.at[0] = ((ky * s->K + kx) * s->Cin + ch) * g->eb;
            f.dx[0] = g->TC * g->eb;
        }
    } else {
        /* ci of split index sp: sp CS + cr */
        int64_t co = co0 + (g->cout ? c * g->V : c), ci = L->sp0 * g->CS + cr;
        if (g->img_w) {
            if (L->multi && g->CS % 4) return 0;        /* ci / 4 not affine in sp */
            f.at[0] = kx * g->cin4 + ci / 4;
            dsp[0] = g->CS / 4;
            f.at[1] = co * s->K + ky;
            f.dx[1] = g->TC * s->K;
        } else {            /* packed: local x and sp step whole blocks of TC V */
            f.at[0] = mg_conv_w_index(s, g, co, ky, kx, ci) * g->eb;
            f.dx[0] = g->TC * s->K * s->K * s->Cin * g->eb;
            dsp[0] = (g->pack_x ? g->TC * s->K * s->K : g->pack_w ? g->TC : 1) * g->CS * g->eb;
        }
    }
    mg_emit_aff_blocks(w, g->img_w ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_W,
                       MG_CONV_TW, (uint32_t)(g->V * g->eb), L->item.m, &f, g->R, dsp);
    return 1;
}

/* A partial-tile local store or load (split > 1) of split slot q - 1 for
 * the lanes in m, fast path: a store's q is the lane's split index
 * (own = 1; q0 that of the warp's first block), a load's q0 (own = 0);
 * the lanes' lid (r L1 + y) L0 + x is affine in local x, y and r. */
static void local_fast(mg_warp *w, const mg_conv_geom *g, int type, int site, int64_t q0,
                       int own, int64_t j, int64_t c, mg_lmask m)
{
    int64_t T = g->TW * g->TC, L0 = w->k->local[0], L1 = w->k->local[1];
    int64_t G = L0 * L1 * g->R;
    mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
    int64_t dsp[2] = {own ? G * T * 4 : 0, 0};
    f.at[0] = ((q0 - 1) * G * T + j * g->TC + c) * 4;
    f.dx[0] = T * 4;
    f.dy[0] = L0 * T * 4;
    f.dz[0] = L1 * L0 * T * 4;
    mg_emit_aff_blocks(w, type, site, -1, (uint32_t)(g->LW * 4), m.m, &f, g->R, dsp);
}

/* A channel step's conversions (fp16 storage, fp32 compute): a buffer's
 * vload_half returns floats, one conversion instruction per element (the
 * H100's HADD2.F32 per half: configs/measured/h100/sass/), before the
 * FMAs use them; an image read returns floats from the texture unit.
 * With x set, the input's XV elements per output pixel j, then the V
 * elements of each of nwl weight loads, for the lanes that loaded them. */
static void trace_cvt_w(mg_warp *w, const mg_conv_geom *g, const lanes *L, int x, uint32_t nwl)
{
    if (x && !g->img_x)
        for (int64_t j = 0; j < g->TW; j++)
            mg_emit_alu(w, L->pix[j].m, MG_CONV_SITE_CVT, MG_ALU_FP32, 1, (uint32_t)g->XV, 0);
    if (!g->img_w)
        mg_emit_alu(w, L->item.m, MG_CONV_SITE_CVT, MG_ALU_FP32, 1, nwl * (uint32_t)g->V, 0);
}

/* Weight load c of channel step cr at the current tap. */
static void trace_load_w(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, lanes *L,
                         int64_t c, int64_t cr)
{
    uint32_t ww = (uint32_t)(g->V * g->eb);
    if (L->fast && w_fast(w, s, g, L, c, cr)) return;
    if (L->fast) {
        for (uint32_t l = 0; l < w->lanes; l++) {
            L->ky[l] = L->ky0;
            L->kx[l] = L->kx0;
        }
    }
    mg_emit_mem(w, g->img_w ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_W,
                MG_CONV_TW, ww);
    for (uint32_t l = 0; l < w->lanes; l++) {
        if (!mg_lm_get(&L->item, l)) continue;
        int64_t ky = L->ky[l], kx = L->kx[l];
        if (s->depthwise) {
            int64_t ch = L->co0[l] + cr;
            if (g->img_w) mg_emit_lane(w, l, kx * g->cin4 + ch / 4, ky);
            else mg_emit_lane(w, l, ((ky * s->K + kx) * s->Cin + ch) * g->eb, 0);
        } else {
            int64_t co = L->co0[l] + (g->cout ? c * g->V : c);
            int64_t ci = L->sp[l] * g->CS + cr;
            if (g->img_w) mg_emit_lane(w, l, kx * g->cin4 + ci / 4, co * s->K + ky);
            else mg_emit_lane(w, l, mg_conv_w_index(s, g, co, ky, kx, ci) * g->eb,
                              0);
        }
    }
    mg_emit_put(w);
}

/* The main loop: window taps (a depthwise split item's own taps), channel
 * steps of XV; loads and FMAs (vec_axis=cout: per pixel TC/V FMAs of V,
 * its scalar times a weight vector; cin: TC dots of V; depthwise: one
 * FMA of V). */
static void trace_reduce(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, lanes *L)
{
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int cvt = s->storage == MG_PREC_FP16 && s->compute == MG_PREC_FP32;
    uint32_t xw = (uint32_t)(g->XV * g->eb);
    uint32_t nfma = (uint32_t)(s->depthwise ? 1 : g->cout ? g->nw : g->TC);
    int dwsplit = s->depthwise && g->S > 1, row = s->pattern == MG_PAT_ROW;
    int64_t ntaps = dwsplit ? g->TT : s->K * s->K, steps = g->clen / g->XV;
    /* taps outside the channel steps; pack_in: channels outside the taps */
    int64_t nout = g->pack_x ? steps : ntaps, nin = g->pack_x ? ntaps : steps;
    int stream = mg_conv_streams_w(s, g);
    for (int64_t it = 0; it < nout * nin; it++) {
        int64_t tr = g->pack_x ? it % nin : it / nin;
        int64_t cr = (g->pack_x ? it / nin : it % nin) * g->XV;
        if (L->fast) {
            int64_t t = (dwsplit ? L->sp0 * g->TT : 0) + tr;
            L->ky0 = row ? t / s->K : t % s->K;
            L->kx0 = row ? t % s->K : t / s->K;
        } else {
            for (uint32_t l = 0; l < w->lanes; l++) {
                int64_t t = (dwsplit ? L->sp[l] * g->TT : 0) + tr;
                int64_t o1 = t / s->K, o2 = t % s->K;
                L->ky[l] = row ? o1 : o2;
                L->kx[l] = row ? o2 : o1;
            }
        }
        {
            for (int64_t j = 0; j < g->TW; j++) {
                if (L->fast && x_fast(w, s, g, L, j, cr)) continue;
                if (L->fast) {                   /* the slow path reads the lanes' taps */
                    for (uint32_t l = 0; l < w->lanes; l++) {
                        L->ky[l] = L->ky0;
                        L->kx[l] = L->kx0;
                    }
                }
                mg_emit_mem(w, g->img_x ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_X,
                            MG_CONV_TX, xw);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    if (!mg_lm_get(&L->pix[j], l)) continue;
                    int64_t hi = L->ho[l] * s->stride - s->pad + L->ky[l];
                    int64_t wi = (L->wo0[l] + j) * s->stride - s->pad + L->kx[l];
                    int64_t c = s->depthwise ? L->co0[l] + cr : L->sp[l] * g->CS + cr;
                    if (g->pack_x) {
                        mg_emit_lane(w, l, mg_conv_xp_index(s, g, L->ho[l], L->wo0[l] / g->TW, j,
                                                            L->ky[l], L->kx[l], c) * g->eb, 0);
                        continue;
                    }
                    if (hi < 0 || hi >= s->H || wi < 0 || wi >= s->W) continue;
                    if (g->img_x) mg_emit_lane(w, l, wi * g->cin4 + c / 4, hi);
                    else mg_emit_lane(w, l, ((hi * s->W + wi) * s->Cin + c) * g->eb, 0);
                }
                mg_emit_put(w);
            }
            if (stream) {                       /* each weight just before its dot */
                for (int64_t c = 0; c < g->nw; c++) {
                    trace_load_w(w, s, g, L, c, cr);
                    if (cvt) trace_cvt_w(w, g, L, c == 0, 1);
                    mg_emit_alu(w, L->pix[0].m, MG_CONV_SITE_FMA, cls, (int)g->V, 1, 2);
                }
                continue;
            }
            for (int64_t c = 0; c < g->nw; c++) trace_load_w(w, s, g, L, c, cr);
            if (cvt) trace_cvt_w(w, g, L, 1, (uint32_t)g->nw);
            for (int64_t j = 0; j < g->TW; j++)
                mg_emit_alu(w, L->pix[j].m, MG_CONV_SITE_FMA, cls, (int)g->V, nfma, 2);
        }
    }
}

/* pack_in=2: the packing pre-pass (conv2d_cl.c, emit_prepass), lane by
 * lane: per channel trip, window row and column, XS's load (lanes inside
 * the input) and P's store (every lane whose channel is below Cin). */
static void trace_prepass(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g,
                          const lanes *L)
{
    uint32_t eb = (uint32_t)g->eb;
    for (int64_t t = 0; t < g->ptrips; t++)
        for (int64_t r = 0; r < g->PH; r++)
            for (int64_t c = 0; c < g->PW; c++) {
                mg_emit_mem(w, MG_REC_BUF_LOAD, MG_CONV_SITE_PLD, g->tsrc, eb);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    int64_t ci = L->co0[l] / g->TC + t * g->nz;
                    int64_t hp = L->ho[l] * s->stride - s->pad + r;
                    int64_t wp = L->wo0[l] * s->stride - s->pad + c;
                    if (mg_lm_get(&L->item, l) && ci < s->Cin && hp >= 0 && hp < s->H &&
                        wp >= 0 && wp < s->W)
                        mg_emit_lane(w, l, ((ci * s->H + hp) * s->W + wp) * g->eb, 0);
                }
                mg_emit_put(w);
                mg_emit_mem(w, MG_REC_BUF_STORE, MG_CONV_SITE_PST, g->tpk, eb);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    int64_t ci = L->co0[l] / g->TC + t * g->nz;
                    if (mg_lm_get(&L->item, l) && ci < s->Cin)
                        mg_emit_lane(w, l, (((L->ho[l] * g->nx + L->wo0[l] / g->TW) * s->Cin +
                                             ci) * g->PH * g->PW + r * g->PW + c) * g->eb, 0);
                }
                mg_emit_put(w);
            }
}

/* split > 1: partial tiles to local memory, the barrier, item 0's adds. */
static void trace_combine(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g,
                          const lanes *L)
{
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    int64_t T = g->TW * g->TC, G = w->k->local[0] * w->k->local[1] * g->R;
    uint32_t lw = (uint32_t)(g->LW * 4);
    for (int64_t j = 0; j < g->TW; j++) {
        mg_lmask m = mg_lm_and(L->rest, L->pix[j]);
        for (int64_t c = 0; c < g->TC; c += g->LW) {
            if (L->fast) {
                local_fast(w, g, MG_REC_LOCAL_STORE, MG_CONV_SITE_LST, L->sp0, 1, j, c, m);
                continue;
            }
            mg_emit_mem(w, MG_REC_LOCAL_STORE, MG_CONV_SITE_LST, -1, lw);
            for (uint32_t l = 0; l < w->lanes; l++)
                if (mg_lm_get(&m, l))
                    mg_emit_lane(w, l, (((L->sp[l] - 1) * G + L->lid[l]) * T + j * g->TC + c) * 4,
                                 0);
            mg_emit_put(w);
        }
    }
    mg_emit_barrier(w, MG_CONV_SITE_BAR);
    for (int64_t p = 1; p < g->S; p++)
        for (int64_t j = 0; j < g->TW; j++) {
            mg_lmask m = mg_lm_and(L->first, L->pix[j]);
            for (int64_t c = 0; c < g->TC; c += g->LW) {
                if (L->fast) {
                    local_fast(w, g, MG_REC_LOCAL_LOAD, MG_CONV_SITE_LLD, p, 0, j, c, m);
                } else {
                    mg_emit_mem(w, MG_REC_LOCAL_LOAD, MG_CONV_SITE_LLD, -1, lw);
                    for (uint32_t l = 0; l < w->lanes; l++)
                        if (mg_lm_get(&m, l))
                            mg_emit_lane(w, l, (((p - 1) * G + L->lid[l]) * T + j * g->TC + c) * 4,
                                         0);
                    mg_emit_put(w);
                }
                mg_emit_alu(w, m.m, MG_CONV_SITE_ADD, cls, (int)g->LW, 1, 1);
            }
        }
}

/* The epilogue before the store of channels co0 + c .. + SV of the lanes
 * in m: the bias load and add (bias=1), the activation's ALU records. */
static void trace_epilogue(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g,
                           const lanes *L, mg_lmask m, int64_t c)
{
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    if (s->bias) {
        mg_emit_mem(w, MG_REC_BUF_LOAD, MG_CONV_SITE_BIAS, MG_CONV_TB,
                    (uint32_t)(g->SV * g->eb));
        for (uint32_t l = 0; l < w->lanes; l++)
            if (mg_lm_get(&m, l)) mg_emit_lane(w, l, (L->co0[l] + c) * g->eb, 0);
        mg_emit_put(w);
        mg_emit_alu(w, m.m, MG_CONV_SITE_BADD, cls, (int)g->SV, 1, 1);
    }
    mg_gact_trace(w, m.m, MG_CONV_SITE_ACT, cls, (int)g->SV, s->act);
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    static _Thread_local lanes L;       /* large: keep it off the stack */
    lanes_of(w, s, &g, &L);
    int any = mg_lm_any(&L.item);
    if (!any && g.S == 1) return;       /* split = 1: such items returned at once */
    if (any && g.prepass) trace_prepass(w, s, &g, &L);
    if (any) trace_reduce(w, s, &g, &L);
    if (g.S > 1) trace_combine(w, s, &g, &L);
    mg_lmask out = g.S > 1 ? L.first : L.item;
    for (int64_t j = 0; j < g.TW; j++) {
        mg_lmask m = mg_lm_and(out, L.pix[j]);
        for (int64_t c = 0; c < g.TC; c += g.SV) {
            if (s->bias || s->act) trace_epilogue(w, s, &g, &L, m, c);
            if (L.fast && (!g.img_y || g.TC % 4 == 0)) {
                /* wo of local y: (wg1 + y) TW + j; co of local x: (wg0 + x) TC + c */
                int64_t wo0 = L.wg1 * g.TW + j, co0 = L.wg0 * g.TC + c;
                int64_t hz = (int64_t)w->wg[2] * g.R;          /* ho = hz + r */
                int64_t dsp[2] = {0, 0};
                mg_lane_aff f = {{0, 0}, {0, 0}, {0, 0}, {0, 0}};
                if (g.img_y) {
                    f.at[0] = wo0 * g.cout4 + co0 / 4;
                    f.dx[0] = g.TC / 4;
                    f.dy[0] = g.TW * g.cout4;
                    f.at[1] = hz;
                    f.dz[1] = 1;
                } else {
                    f.at[0] = ((hz * g.Wo + wo0) * s->Cout + co0) * g.eb;
                    f.dx[0] = g.TC * g.eb;
                    f.dy[0] = g.TW * s->Cout * g.eb;
                    f.dz[0] = g.Wo * s->Cout * g.eb;
                }
                mg_emit_aff_blocks(w, g.img_y ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE,
                                   MG_CONV_SITE_Y, MG_CONV_TY, (uint32_t)(g.SV * g.eb), m.m, &f,
                                   g.R, dsp);
                continue;
            }
            mg_emit_mem(w, g.img_y ? MG_REC_IMG_WRITE : MG_REC_BUF_STORE, MG_CONV_SITE_Y,
                        MG_CONV_TY, (uint32_t)(g.SV * g.eb));
            for (uint32_t l = 0; l < w->lanes; l++) {
                if (!mg_lm_get(&m, l)) continue;
                int64_t wo = L.wo0[l] + j, co = L.co0[l] + c;
                if (g.img_y) mg_emit_lane(w, l, wo * g.cout4 + co / 4, L.ho[l]);
                else mg_emit_lane(w, l, ((L.ho[l] * g.Wo + wo) * s->Cout + co) * g.eb, 0);
            }
            mg_emit_put(w);
        }
    }
}

void mg_conv_flat_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    static _Thread_local int64_t gid[3][MG_TRACE_MAX_LANES];
    uint64_t in[2] = {0, 0};
    int lanewise = w->lanewise;
    for (uint32_t l = 0; l < w->lanes; l++) {
        int64_t f = w->gid[0][l], X = g.box[0], Y = g.box[1], B = X * Y * g.box[2];
        int64_t b = f / B, i = f % B;
        for (int d = 0; d < 3; d++) gid[d][l] = w->gid[d][l];
        if (f < g.items) in[l >> 6] |= (uint64_t)1 << (l & 63);
        /* past the range: gz = nz, outside the output like the grid's edge items */
        w->gid[0][l] = f < g.items ? b % g.ngrp[0] * X + i % X : g.nz;
        w->gid[1][l] = f < g.items ? b / g.ngrp[0] % g.ngrp[1] * Y + i / X % Y : 0;
        w->gid[2][l] = f < g.items ? b / (g.ngrp[0] * g.ngrp[1]) * g.box[2] + i / (X * Y) : 0;
    }
    if (in[0] || in[1]) {            /* the ids' 16 operators (conv2d.c, Launch) */
        mg_emit_alu(w, in, MG_CONV_SITE_FLAT, MG_ALU_INT, 1, 16, 0);
        w->lanewise = 1;
        trace_body(w, s);
    }
    for (uint32_t l = 0; l < w->lanes; l++)
        for (int d = 0; d < 3; d++) w->gid[d][l] = gid[d][l];
    w->lanewise = lanewise;
}

void mg_conv_trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                      mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, s->mode == MG_CONV_FLAT ? mg_conv_flat_body : trace_body, s);
}
