/*
 * conv2d_trace.c - the conv2d kernel's access trace (conv2d.h), warp by
 * warp in the program order of conv2d_cl.c's kernel: per window tap and
 * channel step the input loads (one per pixel of the tile), the weight
 * loads, the FMAs; with split > 1 the partial-tile local stores, the
 * barrier (every warp, even one with no item inside the output), the local
 * loads and adds of item 0; then the output stores.
 */
#include "gen/emit.h"
#include "ops/conv2d.h"

typedef struct lanes {
    int64_t wo0[MG_TRACE_MAX_LANES], co0[MG_TRACE_MAX_LANES], ho[MG_TRACE_MAX_LANES];
    int64_t sp[MG_TRACE_MAX_LANES];     /* split index */
    int64_t lid[MG_TRACE_MAX_LANES];    /* index in the split slice (the kernel's lid) */
    int64_t ky[MG_TRACE_MAX_LANES], kx[MG_TRACE_MAX_LANES];
    mg_lmask item;                      /* lanes inside the output (the kernel's ok) */
    mg_lmask first, rest;               /* items with s = 0, s > 0 */
    mg_lmask pix[256];                  /* pixel j of the tile lies inside Wo */
} lanes;

/* Each lane's ids, as the kernel derives them from its local and group ids. */
static void lanes_of(const mg_warp *w, const mg_conv_geom *g, lanes *L)
{
    const mg_kernel *k = w->k;
    L->item = L->first = L->rest = (mg_lmask){{0, 0}};
    for (uint32_t l = 0; l < w->lanes; l++) {
        int64_t lz = w->lid[2][l], r = lz % g->R;
        L->sp[l] = lz / g->R;
        L->ho[l] = (int64_t)w->wg[2] * g->R + r;
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
}

/* The main loop: window taps (a depthwise split item's own taps), channel
 * steps; loads and FMAs. */
static void trace_reduce(mg_warp *w, const mg_schedule *s, const mg_conv_geom *g, lanes *L)
{
    int cls = s->compute == MG_PREC_FP16 ? MG_ALU_FP16 : MG_ALU_FP32;
    uint32_t xw = (uint32_t)(g->V * g->eb);
    int dwsplit = s->depthwise && g->S > 1, row = s->pattern == MG_PAT_ROW;
    int64_t ntaps = dwsplit ? g->TT : s->K * s->K;
    for (int64_t tr = 0; tr < ntaps; tr++) {
        for (uint32_t l = 0; l < w->lanes; l++) {
            int64_t t = (dwsplit ? L->sp[l] * g->TT : 0) + tr;
            int64_t o1 = t / s->K, o2 = t % s->K;
            L->ky[l] = row ? o1 : o2;
            L->kx[l] = row ? o2 : o1;
        }
        for (int64_t cr = 0; cr < g->clen; cr += g->V) {
            for (int64_t j = 0; j < g->TW; j++) {
                mg_emit_mem(w, g->img_x ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_X,
                            MG_CONV_TX, xw);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    if (!mg_lm_get(&L->pix[j], l)) continue;
                    int64_t hi = L->ho[l] * s->stride - s->pad + L->ky[l];
                    int64_t wi = (L->wo0[l] + j) * s->stride - s->pad + L->kx[l];
                    if (hi < 0 || hi >= s->H || wi < 0 || wi >= s->W) continue;
                    int64_t c = s->depthwise ? L->co0[l] + cr : L->sp[l] * g->CS + cr;
                    if (g->img_x) mg_emit_lane(w, l, wi * g->cin4 + c / 4, hi);
                    else mg_emit_lane(w, l, ((hi * s->W + wi) * s->Cin + c) * g->eb, 0);
                }
                mg_emit_put(w);
            }
            for (int64_t c = 0; c < g->nw; c++) {
                mg_emit_mem(w, g->img_w ? MG_REC_TEX_READ : MG_REC_BUF_LOAD, MG_CONV_SITE_W,
                            MG_CONV_TW, xw);
                for (uint32_t l = 0; l < w->lanes; l++) {
                    if (!mg_lm_get(&L->item, l)) continue;
                    int64_t ky = L->ky[l], kx = L->kx[l];
                    if (s->depthwise) {
                        int64_t ch = L->co0[l] + cr;
                        if (g->img_w) mg_emit_lane(w, l, kx * g->cin4 + ch / 4, ky);
                        else mg_emit_lane(w, l, ((ky * s->K + kx) * s->Cin + ch) * g->eb, 0);
                    } else {
                        int64_t co = L->co0[l] + c, ci = L->sp[l] * g->CS + cr;
                        if (g->img_w) mg_emit_lane(w, l, kx * g->cin4 + ci / 4, co * s->K + ky);
                        else mg_emit_lane(w, l, (((co * s->K + ky) * s->K + kx) * s->Cin + ci) *
                                                g->eb, 0);
                    }
                }
                mg_emit_put(w);
            }
            for (int64_t j = 0; j < g->TW; j++)
                mg_emit_alu(w, L->pix[j].m, MG_CONV_SITE_FMA, cls, (int)g->V,
                            (uint32_t)(s->depthwise ? 1 : g->TC), 2);
        }
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
                mg_emit_mem(w, MG_REC_LOCAL_LOAD, MG_CONV_SITE_LLD, -1, lw);
                for (uint32_t l = 0; l < w->lanes; l++)
                    if (mg_lm_get(&m, l))
                        mg_emit_lane(w, l, (((p - 1) * G + L->lid[l]) * T + j * g->TC + c) * 4, 0);
                mg_emit_put(w);
                mg_emit_alu(w, m.m, MG_CONV_SITE_ADD, cls, (int)g->LW, 1, 1);
            }
        }
}

static void trace_body(mg_warp *w, const void *ctx)
{
    const mg_schedule *s = ctx;
    mg_conv_geom g;
    mg_conv_geom_of(s, &g);
    static _Thread_local lanes L;       /* large: keep it off the stack */
    lanes_of(w, &g, &L);
    int any = mg_lm_any(&L.item);
    if (!any && g.S == 1) return;       /* split = 1: such items returned at once */
    if (any) trace_reduce(w, s, &g, &L);
    if (g.S > 1) trace_combine(w, s, &g, &L);
    mg_lmask out = g.S > 1 ? L.first : L.item;
    for (int64_t j = 0; j < g.TW; j++) {
        mg_lmask m = mg_lm_and(out, L.pix[j]);
        for (int64_t c = 0; c < g.TC; c += g.SV) {
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

void mg_conv_trace_wg(const mg_schedule *s, const mg_kernel *k, const uint32_t wg[3],
                      mg_trace_wg *out)
{
    mg_emit_wg(k, wg, out, trace_body, s);
}
