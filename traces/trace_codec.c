/*
 * trace_codec.c - varints and the record encoder: building one work group's
 * encoded warps (FORMAT.md sections 1 and 5).  The decoder is in
 * trace_decode.c.
 */
#include "traces/trace_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- varints ---------------------------------------------------------------- */

size_t mg_trace_put_uvar(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

int mg_trace_get_uvar(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    size_t i = *pos;
    for (int shift = 0; shift < 70; shift += 7) {
        if (i >= len) return -1;
        uint8_t b = p[i++];
        if (shift == 63 && (b & 0xfe)) return -2;     /* 10th byte: only bit 0 */
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pos = i;
            *v = x;
            return 0;
        }
    }
    return -2;
}

uint64_t mg_trace_zigzag(int64_t v)
{
    uint64_t u = (uint64_t)v;
    return (u << 1) ^ (0 - (u >> 63));
}

int64_t mg_trace_unzigzag(uint64_t z)
{
    return (int64_t)((z >> 1) ^ (0 - (z & 1)));
}

/* ---- work-group buffers ----------------------------------------------------- */

void mg_trace_wg_init(mg_trace_wg *wg)
{
    memset(wg, 0, sizeof *wg);
}

void mg_trace_wg_free(mg_trace_wg *wg)
{
    free(wg->warps);
    free(wg->bytes);
    free(wg->recs);
    free(wg->pool);
    memset(wg, 0, sizeof *wg);
}

/* Make room for `more` bytes after wg->len.  Returns 0, -1 on OOM. */
static int wg_reserve(mg_trace_wg *wg, size_t more)
{
    if (wg->cap - wg->len >= more) return 0;
    if (more > SIZE_MAX / 2 - wg->len) return -1;
    size_t cap = wg->cap ? wg->cap : 4096;
    while (cap - wg->len < more) cap *= 2;
    uint8_t *b = realloc(wg->bytes, cap);
    if (!b) return -1;
    wg->bytes = b;
    wg->cap = cap;
    return 0;
}

int mg_trace_wg_begin(mg_trace_wg *wg, const uint32_t id[3])
{
    memcpy(wg->id, id, sizeof wg->id);
    wg->n_warps = 0;
    wg->len = 0;
    wg->in_recs = wg->want_recs;
    wg->nrecs = wg->npool = 0;
    return 0;
}

/* A warp is open between warp_begin and warp_end; its len is SIZE_MAX. */
static mg_trace_warp *open_warp(mg_trace_wg *wg)
{
    if (!wg->n_warps) return NULL;
    mg_trace_warp *w = &wg->warps[wg->n_warps - 1];
    return w->len == SIZE_MAX ? w : NULL;
}

int mg_trace_wg_warp_begin(mg_trace_wg *wg, uint32_t lanes)
{
    if (lanes < 1 || lanes > MG_TRACE_MAX_LANES || open_warp(wg)) return -1;
    if (wg->n_warps == wg->warps_cap) {
        uint32_t cap = wg->warps_cap ? 2 * wg->warps_cap : 16;
        mg_trace_warp *w = realloc(wg->warps, cap * sizeof *w);
        if (!w) return -1;
        wg->warps = w;
        wg->warps_cap = cap;
    }
    mg_trace_warp *w = &wg->warps[wg->n_warps++];
    w->off = wg->in_recs ? wg->nrecs : wg->len;
    w->len = SIZE_MAX;
    w->lanes = lanes;
    w->n_records = 0;
    for (int i = 0; i < MG_TRACE_SITE_SLOTS; i++) wg->sites[i].used = 0;
    return 0;
}

int mg_trace_wg_warp_end(mg_trace_wg *wg)
{
    mg_trace_warp *w = open_warp(wg);
    if (!w) return -1;
    w->len = wg->in_recs ? wg->nrecs - w->off : wg->len - w->off;
    return 0;
}

/* ---- choosing an address encoding ------------------------------------------- */

typedef mg_trace_affine affine;

/* Nonzero when every active lane l (act[0..n), ascending) of v equals
 * base + a x (l % p) + c x (l / p) in wrapping 64-bit arithmetic.  The
 * lane's column and row are stepped from the previous active lane's rather
 * than divided out. */
static int affine_holds(const int64_t *v, const uint8_t *act, unsigned n, int64_t base,
                        int64_t a, int64_t c, uint32_t p)
{
    if (!n) return 1;
    if (act[0] == 0 && act[n - 1] == n - 1) {      /* lanes 0 .. n-1: rows of p */
        uint64_t row = (uint64_t)base;
        for (unsigned l0 = 0; l0 < n; l0 += p, row += (uint64_t)c) {
            unsigned end = n - l0 < p ? n : l0 + p;
            uint64_t val = row;
            for (unsigned l = l0; l < end; l++, val += (uint64_t)a)
                if ((int64_t)val != v[l]) return 0;
        }
        return 1;
    }
    uint32_t x = act[0] % p;
    uint64_t row = (uint64_t)base + (uint64_t)c * (act[0] / p);
    for (unsigned i = 0;;) {
        if ((int64_t)(row + (uint64_t)a * x) != v[act[i]]) return 0;
        if (++i == n) return 1;
        x += (uint32_t)(act[i] - act[i - 1]);
        while (x >= p) {
            x -= p;
            row += (uint64_t)c;
        }
    }
}

/* Fit the values v of the active lanes act[0..n) (n >= 1) with row width
 * p: a from the first two active lanes sharing a row (0 if none do), c from
 * the first active lanes of two rows (0 if one row), then check every
 * active lane.  Returns 1 with *base, *a, *c set, 0 when they do not fit. */
static int fit_dim(const int64_t *v, const uint8_t *act, unsigned n, uint32_t p,
                   int64_t *base, int64_t *a, int64_t *c)
{
    int64_t fa = 0, fc = 0;
    for (unsigned i = 1; i < n; i++) {
        if (act[i] / p != act[i - 1] / p) continue;
        int64_t dv = (int64_t)((uint64_t)v[act[i]] - (uint64_t)v[act[i - 1]]);
        int64_t dl = act[i] - act[i - 1];
        if (dv % dl) return 0;
        fa = dv / dl;
        break;
    }
    unsigned l0 = act[0];
    uint64_t r0 = (uint64_t)v[l0] - (uint64_t)fa * (l0 % p);
    unsigned next_row = (l0 / p + 1) * p;          /* first lane of the next row */
    for (unsigned i = 1; i < n; i++) {
        if (act[i] < next_row) continue;
        uint64_t ri = (uint64_t)v[act[i]] - (uint64_t)fa * (act[i] % p);
        int64_t dv = (int64_t)(ri - r0);
        int64_t dy = act[i] / p - l0 / p;
        if (dv % dy) return 0;
        fc = dv / dy;
        break;
    }
    int64_t fb = (int64_t)(r0 - (uint64_t)fc * (l0 / p));
    if (!affine_holds(v, act, n, fb, fa, fc, p)) return 0;
    *base = fb;
    *a = fa;
    *c = fc;
    return 1;
}

/* Fit every dimension of r with row width p into *f.  Returns 1 on a fit. */
static int fit_rec(const mg_rec *r, int dims, const uint8_t *act, unsigned n, uint32_t p,
                   affine *f)
{
    memset(f, 0, sizeof *f);
    f->p = p;
    for (int d = 0; d < dims; d++)
        if (!fit_dim(d ? r->b : r->a, act, n, p, &f->base[d], &f->a[d], &f->c[d])) return 0;
    return 1;
}

int mg_trace_fit_affine(const mg_rec *r, const uint8_t *act, unsigned n, uint32_t p,
                        mg_trace_affine *f)
{
    return fit_rec(r, mg_rec_dims(r->type), act, n, p, f);
}

/* Find an affine form for r: the slot's P first (when usable), then P =
 * lanes, then every other P.  Returns 1 with *f, 0 when none fits. */
static int find_affine(const mg_rec *r, int dims, const uint8_t *act, unsigned n,
                       const mg_trace_site *slot, affine *f)
{
    uint32_t first = slot ? slot->p : r->lanes;
    if (fit_rec(r, dims, act, n, first, f)) return 1;
    if (first != r->lanes && fit_rec(r, dims, act, n, r->lanes, f)) return 1;
    for (uint32_t p = 1; p < r->lanes; p++)
        if (p != first && fit_rec(r, dims, act, n, p, f)) return 1;
    return 0;
}

/* Nonzero when r's active lanes follow the slot's P, a and c (any bases);
 * sets f to that form with the bases they need. */
static int fits_slot(const mg_rec *r, int dims, const uint8_t *act, unsigned n,
                     const mg_trace_site *s, affine *f)
{
    memset(f, 0, sizeof *f);
    f->p = s->p;
    for (int d = 0; d < dims; d++) {
        const int64_t *v = d ? r->b : r->a;
        f->a[d] = s->a[d];
        f->c[d] = s->c[d];
        f->base[d] = n ? (int64_t)((uint64_t)v[act[0]] - (uint64_t)s->a[d] * (act[0] % s->p) -
                                   (uint64_t)s->c[d] * (act[0] / s->p))
                       : s->base[d];
        if (!affine_holds(v, act, n, f->base[d], f->a[d], f->c[d], s->p)) return 0;
    }
    return 1;
}

/* ---- writing one record ------------------------------------------------------- */

/* Append svar(v - ref) at p; returns bytes written. */
static size_t put_delta(uint8_t *p, int64_t v, int64_t ref)
{
    return mg_trace_put_uvar(p, mg_trace_zigzag((int64_t)((uint64_t)v - (uint64_t)ref)));
}

/* Encode the address part of memory record r (after the mask) at p and
 * update its site slot.  *tb gets the mode bits.  Returns bytes written. */
static size_t put_addresses(mg_trace_wg *wg, const mg_rec *r, const uint8_t *act, unsigned n,
                            uint8_t *tb, uint8_t *p)
{
    int dims = mg_rec_dims(r->type);
    mg_trace_site *s = &wg->sites[r->site % MG_TRACE_SITE_SLOTS];
    int same_site = s->used && s->site == r->site;
    int64_t ref[2] = {same_site ? s->base[0] : 0, same_site ? s->base[1] : 0};
    int usable = same_site && s->affine && s->obj == r->obj && s->width == r->width &&
                 s->p <= r->lanes;
    affine f;
    size_t k = 0;
    if (usable && fits_slot(r, dims, act, n, s, &f)) {
        *tb = MG_MODE_SAME << MG_TB_MODE_SHIFT;
        for (int d = 0; d < dims; d++) k += put_delta(p + k, f.base[d], ref[d]);
    } else if (n && find_affine(r, dims, act, n, same_site && s->affine ? s : NULL, &f)) {
        *tb = MG_MODE_AFFINE << MG_TB_MODE_SHIFT;
        k += mg_trace_put_uvar(p + k, r->obj);
        k += mg_trace_put_uvar(p + k, r->width);
        k += mg_trace_put_uvar(p + k, f.p);
        for (int d = 0; d < dims; d++) {
            k += put_delta(p + k, f.base[d], ref[d]);
            k += mg_trace_put_uvar(p + k, mg_trace_zigzag(f.a[d]));
            k += mg_trace_put_uvar(p + k, mg_trace_zigzag(f.c[d]));
        }
    } else {
        *tb = MG_MODE_LIST << MG_TB_MODE_SHIFT;
        k += mg_trace_put_uvar(p + k, r->obj);
        k += mg_trace_put_uvar(p + k, r->width);
        int64_t prev[2] = {ref[0], ref[1]};
        for (unsigned i = 0; i < n; i++)
            for (int d = 0; d < dims; d++) {
                int64_t v = d ? r->b[act[i]] : r->a[act[i]];
                k += put_delta(p + k, v, prev[d]);
                prev[d] = v;
            }
        memset(&f, 0, sizeof f);
        for (int d = 0; d < dims; d++)
            f.base[d] = n ? (d ? r->b[act[0]] : r->a[act[0]]) : ref[d];
    }
    if (*tb == (MG_MODE_SAME << MG_TB_MODE_SHIFT)) {      /* only the bases move */
        for (int d = 0; d < dims; d++) s->base[d] = f.base[d];
        return k;
    }
    s->used = 1;
    s->site = r->site;
    s->affine = *tb == (MG_MODE_AFFINE << MG_TB_MODE_SHIFT);
    s->obj = r->obj;
    s->width = r->width;
    s->p = f.p;
    memcpy(s->base, f.base, sizeof s->base);
    memcpy(s->a, f.a, sizeof s->a);
    memcpy(s->c, f.c, sizeof s->c);
    return k;
}

/* Worst case bytes of one record: type, site, mask, obj, width, and a LIST
 * of MG_TRACE_MAX_LANES lanes x 2 dimensions of 10-byte varints. */
#define REC_MAX (1 + 3 + 16 + 20 + MG_TRACE_MAX_LANES * 2 * MG_TRACE_MAX_VARINT)

int mg_trace_wg_put(mg_trace_wg *wg, const mg_rec *r)
{
    mg_trace_warp *w = open_warp(wg);
    if (!w || r->lanes != w->lanes || r->type < 1 || r->type >= MG_REC_TYPE_COUNT) return -1;
    if (wg->sink) {
        wg->sink(wg->sink_ctx, r);
        return 0;
    }
    uint64_t full[2] = {r->lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->lanes) - 1,
                        r->lanes >= 128 ? ~(uint64_t)0
                        : r->lanes > 64 ? ((uint64_t)1 << (r->lanes - 64)) - 1 : 0};
    if ((r->mask[0] & ~full[0]) || (r->mask[1] & ~full[1])) return -1;
    if (w->n_records == UINT32_MAX) return -1;
    if (wg->in_recs && wg->nrecs * sizeof *wg->recs + wg->npool * sizeof *wg->pool >
                           (wg->recs_max ? wg->recs_max : MG_TRACE_RECS_MAX) &&
        (mg_trace_wg_to_bytes(wg) || !(w = open_warp(wg))))      /* warps moved */
        return -1;
    if (wg->in_recs) {
        if (mg_trace_drec_put(wg, r, r->mask[0] == full[0] && r->mask[1] == full[1])) return -1;
        w->n_records++;
        return 0;
    }
    if (wg_reserve(wg, REC_MAX)) return -1;

    uint8_t act[MG_TRACE_MAX_LANES];
    unsigned n = 0;
    for (int h = 0; h < 2; h++)
        for (uint64_t m = r->mask[h]; m; m &= m - 1)
            act[n++] = (uint8_t)(64 * h + __builtin_ctzll(m));
    uint8_t *p = wg->bytes + wg->len;
    uint8_t tb = r->type;
    size_t k = 1;
    int prev = w->n_records && r->mask[0] == wg->enc_mask[0] && r->mask[1] == wg->enc_mask[1];
    if (n == r->lanes) tb |= MG_TB_ALL;
    else if (prev) tb |= MG_TB_PREV;
    k += mg_trace_put_uvar(p + k, r->site);
    if (n != r->lanes && !prev) {
        for (unsigned i = 0; i < (r->lanes + 7u) / 8; i++)
            p[k++] = (uint8_t)(r->mask[i >> 3] >> (8 * (i & 7)));
    }
    wg->enc_mask[0] = r->mask[0];
    wg->enc_mask[1] = r->mask[1];
    if (r->type == MG_REC_ALU) {
        k += mg_trace_put_uvar(p + k, r->cls);
        k += mg_trace_put_uvar(p + k, r->vec);
        k += mg_trace_put_uvar(p + k, r->n);
        k += mg_trace_put_uvar(p + k, r->flops);
        k += mg_trace_put_uvar(p + k, r->dep ? r->dep : 1);
        if (r->keep) {
            tb |= MG_ALU_MODE_KEEP << MG_TB_MODE_SHIFT;
            k += mg_trace_put_uvar(p + k, r->keep);
        }
    } else if (r->type == MG_REC_BARRIER) {
        k += mg_trace_put_uvar(p + k, r->obj);
    } else {
        uint8_t mode = 0;
        k += put_addresses(wg, r, act, n, &mode, p + k);
        tb |= mode;
    }
    p[0] = tb;
    wg->len += k;
    w->n_records++;
    return 0;
}
