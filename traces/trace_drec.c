/*
 * trace_drec.c - the record form of a work group (trace.h, mg_trace_drec):
 * records kept decoded, for a consumer in the producer's process, so that
 * nothing is varint-encoded only to be decoded again.  A memory record's
 * addresses are kept as an affine form of the lane index when one fits
 * (a generated kernel's usually do: a few words per record, so a work
 * group stays small whatever its lane count), else as a list of the
 * active lanes' values.  Expanding gives exactly the mg_rec the decoder
 * gives for the encoded form of the same record.
 */
#include "traces/trace_internal.h"

#include <stdlib.h>
#include <string.h>

/* Grow *p (elements of size sz, capacity *cap) to hold need.  Returns 0,
 * -1 on OOM. */
static int grow(void **p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap) return 0;
    size_t c = *cap ? *cap : 256;
    while (c < need) {
        if (c > SIZE_MAX / 2 / sz) return -1;
        c *= 2;
    }
    void *q = realloc(*p, c * sz);
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

/* Fit the addresses of r, every lane active, with rows of p lanes: base
 * from lane 0, a from lanes 0 and 1, c from lanes 0 and p, per dimension,
 * then check every lane (both dimensions in one pass).  Returns 1 with *f
 * when they hold. */
static int fit_full(const mg_rec *r, int dims, uint32_t p, mg_trace_affine *f)
{
    uint32_t lanes = r->lanes;
    uint64_t fa[2] = {0, 0}, fc[2] = {0, 0};
    for (int d = 0; d < dims; d++) {
        const int64_t *v = d ? r->b : r->a;
        if (p >= 2 && lanes >= 2) fa[d] = (uint64_t)v[1] - (uint64_t)v[0];
        if (lanes > p) fc[d] = (uint64_t)v[p] - (uint64_t)v[0];
    }
    uint64_t row0 = (uint64_t)r->a[0], row1 = dims == 2 ? (uint64_t)r->b[0] : 0;
    for (uint32_t l0 = 0; l0 < lanes; l0 += p, row0 += fc[0], row1 += fc[1]) {
        uint32_t end = lanes - l0 < p ? lanes : l0 + p;
        uint64_t v0 = row0, v1 = row1;
        if (dims == 2) {
            for (uint32_t l = l0; l < end; l++, v0 += fa[0], v1 += fa[1])
                if ((int64_t)v0 != r->a[l] || (int64_t)v1 != r->b[l]) return 0;
        } else {
            for (uint32_t l = l0; l < end; l++, v0 += fa[0])
                if ((int64_t)v0 != r->a[l]) return 0;
        }
    }
    f->p = p;
    f->base[0] = r->a[0];
    f->base[1] = dims == 2 ? r->b[0] : 0;
    for (int d = 0; d < 2; d++) {
        f->a[d] = (int64_t)fa[d];
        f->c[d] = (int64_t)fc[d];
    }
    return 1;
}

/* Fit r's addresses with rows of p lanes into *f (act[0..n): the active
 * lanes, or NULL when every lane is). */
static int fit(const mg_rec *r, int dims, const uint8_t *act, unsigned n, uint32_t p,
               mg_trace_affine *f)
{
    return act ? mg_trace_fit_affine(r, act, n, p, f) : fit_full(r, dims, p, f);
}

/* Choose the address form of memory record r into q: the P the site's
 * last record used, then P = lanes, then (unless the site's last record
 * was a list) every other P; a list when none fits. */
static int put_addresses(mg_trace_wg *wg, mg_trace_drec *q, const mg_rec *r, int full)
{
    int dims = mg_rec_dims(r->type);
    mg_trace_site *s = &wg->sites[r->site % MG_TRACE_SITE_SLOTS];
    int same_site = s->used && s->site == r->site;
    uint8_t act_buf[MG_TRACE_MAX_LANES], *act = NULL;
    unsigned n = r->lanes;
    if (!full) {
        act = act_buf;
        n = 0;
        for (int h = 0; h < 2; h++)
            for (uint64_t m = r->mask[h]; m; m &= m - 1)
                act[n++] = (uint8_t)(64 * h + __builtin_ctzll(m));
    }
    mg_trace_affine f;
    int fit_ok = 0;
    if (n == 0) {
        memset(&f, 0, sizeof f);
        f.p = r->lanes;
        fit_ok = 1;
    } else {
        uint32_t first = same_site && s->affine && s->p <= r->lanes ? s->p : r->lanes;
        fit_ok = fit(r, dims, act, n, first, &f) ||
                 (first != r->lanes && fit(r, dims, act, n, r->lanes, &f));
        for (uint32_t p = 1; !fit_ok && !(same_site && !s->affine) && p < r->lanes; p++)
            fit_ok = p != first && fit(r, dims, act, n, p, &f);
    }
    s->used = 1;
    s->site = r->site;
    s->affine = (uint8_t)fit_ok;
    if (fit_ok) {
        s->p = f.p;
        q->p = f.p;
        memcpy(q->base, f.base, sizeof q->base);
        memcpy(q->a, f.a, sizeof q->a);
        memcpy(q->c, f.c, sizeof q->c);
        return 0;
    }
    if (grow((void **)&wg->pool, &wg->pool_cap, wg->npool + (size_t)n * (size_t)dims,
             sizeof *wg->pool))
        return -1;
    q->list = 1;
    q->base[0] = (int64_t)wg->npool;
    int64_t *v = wg->pool + wg->npool;
    for (unsigned i = 0; i < n; i++) {
        unsigned l = act ? act[i] : i;
        *v++ = r->a[l];
        if (dims == 2) *v++ = r->b[l];
    }
    wg->npool += (size_t)n * (size_t)dims;
    return 0;
}

/* A new decoded record at the end of wg (not yet counted in nrecs) with
 * r's type, site and mask, the rest zero; NULL when out of memory. */
static mg_trace_drec *drec_new(mg_trace_wg *wg, const mg_rec *r)
{
    if (grow((void **)&wg->recs, &wg->recs_cap, wg->nrecs + 1, sizeof *wg->recs)) return NULL;
    mg_trace_drec *q = &wg->recs[wg->nrecs];
    static const mg_trace_drec zero;
    *q = zero;                 /* (a copy, not a memset: gcc's rep stos is slow here) */
    q->type = r->type;
    q->site = r->site;
    q->mask[0] = r->mask[0];
    q->mask[1] = r->mask[1];
    return q;
}

int mg_trace_drec_put(mg_trace_wg *wg, const mg_rec *r, int full)
{
    mg_trace_drec *q = drec_new(wg, r);
    if (!q) return -1;
    if (r->type == MG_REC_ALU) {
        q->cls = r->cls;
        q->vec = r->vec;
        q->n = r->n;
        q->flops = r->flops;
        q->dep = r->dep ? r->dep : 1;
        q->keep = r->keep;
    } else if (r->type == MG_REC_BARRIER) {
        q->obj = r->obj;
    } else {
        q->obj = r->obj;
        q->width = r->width;
        if (put_addresses(wg, q, r, full)) return -1;
    }
    wg->nrecs++;
    return 0;
}

/* Can memory record r go into wg's record form as a form of `lanes`
 * lanes (p x q, 1 <= p <= that)?  No when wg is encoded or past its
 * budget, or when r is one mg_trace_wg_put() would refuse. */
static int form_fits(const mg_trace_wg *wg, const mg_rec *r, uint32_t p, uint64_t lanes)
{
    const mg_trace_warp *w = wg->n_warps ? &wg->warps[wg->n_warps - 1] : NULL;
    size_t max = wg->recs_max ? wg->recs_max : MG_TRACE_RECS_MAX;
    uint64_t full0 = r->lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << r->lanes) - 1;
    uint64_t full1 = r->lanes >= 128 ? ~(uint64_t)0
                     : r->lanes > 64 ? ((uint64_t)1 << (r->lanes - 64)) - 1 : 0;
    return wg->in_recs && mg_rec_dims(r->type) && w && w->len == SIZE_MAX &&
           r->lanes == w->lanes && p >= 1 && lanes <= r->lanes && !(r->mask[0] & ~full0) &&
           !(r->mask[1] & ~full1) && w->n_records != UINT32_MAX &&
           wg->nrecs * sizeof *wg->recs + wg->npool * sizeof *wg->pool <= max;
}

/* A new record-form entry for r with the form (p, base, a, c) and the
 * site's encoder state as a form's; NULL when out of memory. */
static mg_trace_drec *form_put(mg_trace_wg *wg, const mg_rec *r, const mg_trace_affine *f)
{
    int dims = mg_rec_dims(r->type);
    mg_trace_drec *q = drec_new(wg, r);
    if (!q) return NULL;
    q->obj = r->obj;
    q->width = r->width;
    q->p = f->p;
    for (int d = 0; d < dims; d++) {
        q->base[d] = f->base[d];
        q->a[d] = f->a[d];
        q->c[d] = f->c[d];
    }
    mg_trace_site *s = &wg->sites[r->site % MG_TRACE_SITE_SLOTS];
    s->used = 1;
    s->site = r->site;
    s->affine = 1;
    s->p = f->p;
    wg->nrecs++;
    wg->warps[wg->n_warps - 1].n_records++;
    return q;
}

int mg_trace_wg_put_affine(mg_trace_wg *wg, mg_rec *r, const mg_trace_affine *f)
{
    if (wg->sink) return mg_trace_wg_put(wg, r);
    int dims = mg_rec_dims(r->type);
    if (!form_fits(wg, r, f->p, f->p)) {
        if (dims && f->p >= 1 && r->lanes <= MG_TRACE_MAX_LANES) {
            mg_trace_expand(r->a, r->mask, r->lanes, f->base[0], f->a[0], f->c[0], f->p);
            if (dims == 2) mg_trace_expand(r->b, r->mask, r->lanes, f->base[1], f->a[1],
                                           f->c[1], f->p);
            else mg_trace_expand(r->b, r->mask, r->lanes, 0, 0, 0, f->p);
        }
        return mg_trace_wg_put(wg, r);           /* checks, then encodes */
    }
    return form_put(wg, r, f) ? 0 : -1;
}

/* Fill the addresses of r's lanes ln[0..n) (ascending) from the form in
 * planes of f (its p, q, q2, off, base, a, c, e, g; trace.h) over dims
 * dimensions (b = 0 when dims is 1), stepping from lane to lane (no
 * division but off's). */
static void planes_fill(mg_rec *r, int dims, const mg_trace_drec *f, const uint8_t *ln,
                        uint32_t n)
{
    uint32_t p = f->p, q = f->q, x = 0, j = f->off / p % q, k = f->off / p / q, last = 0;
    uint64_t blk[2] = {0, 0}, plane[2] = {0, 0}, row[2] = {0, 0};
    for (int d = 0; d < dims; d++) {
        blk[d] = (uint64_t)f->base[d];
        plane[d] = blk[d] + (uint64_t)f->e[d] * k;
        row[d] = plane[d] + (uint64_t)f->c[d] * j;
    }
    for (uint32_t i = 0; i < n; i++) {
        x += ln[i] - last;
        last = ln[i];
        while (x >= p) {
            x -= p;
            for (int d = 0; d < dims; d++) row[d] += (uint64_t)f->c[d];
            if (++j < q) continue;
            j = 0;
            if (f->q2 && ++k == f->q2) {
                k = 0;
                for (int d = 0; d < dims; d++) row[d] = plane[d] = blk[d] += (uint64_t)f->g[d];
            } else {
                for (int d = 0; d < dims; d++) row[d] = plane[d] += (uint64_t)f->e[d];
            }
        }
        r->a[last] = (int64_t)(row[0] + (uint64_t)f->a[0] * x);
        r->b[last] = dims == 2 ? (int64_t)(row[1] + (uint64_t)f->a[1] * x) : 0;
    }
}

/* The active lanes of r, ascending, into ln; returns their number. */
static uint32_t active_lanes(const mg_rec *r, uint8_t *ln)
{
    uint32_t n = 0;
    for (int h = 0; h < 2; h++)
        for (uint64_t m = r->mask[h]; m; m &= m - 1)
            ln[n++] = (uint8_t)(64 * h + __builtin_ctzll(m));
    return n;
}

int mg_trace_wg_put_planes(mg_trace_wg *wg, mg_rec *r, const mg_trace_planes *f)
{
    if (wg->sink) return mg_trace_wg_put(wg, r);
    int dims = mg_rec_dims(r->type);
    uint32_t p = f->f.p;
    uint64_t block = (uint64_t)p * f->q * (f->q2 ? f->q2 : 1);
    int ok = p >= 1 && f->q >= 1 && f->off % p == 0 && f->off < block;
    if (ok && form_fits(wg, r, p, p)) {
        mg_trace_drec *q = form_put(wg, r, &f->f);
        if (!q) return -1;
        q->q = f->q;
        q->q2 = f->q2;
        q->off = f->off;
        for (int d = 0; d < dims; d++) {
            q->e[d] = f->e[d];
            q->g[d] = f->g[d];
        }
        return 0;
    }
    if (dims && ok && r->lanes <= MG_TRACE_MAX_LANES) {   /* the lanes, as a drec would */
        mg_trace_drec t;
        memset(&t, 0, sizeof t);
        t.p = p;
        t.q = f->q;
        t.q2 = f->q2;
        t.off = f->off;
        for (int d = 0; d < dims; d++) {
            t.base[d] = f->f.base[d];
            t.a[d] = f->f.a[d];
            t.c[d] = f->f.c[d];
            t.e[d] = f->e[d];
            t.g[d] = f->g[d];
        }
        uint8_t ln[MG_TRACE_MAX_LANES];
        planes_fill(r, dims, &t, ln, active_lanes(r, ln));
    }
    return mg_trace_wg_put(wg, r);               /* checks, then encodes */
}

void mg_trace_expand(int64_t *v, const uint64_t mask[2], uint32_t lanes, int64_t base, int64_t a,
                     int64_t c, uint32_t p)
{
    uint64_t full0 = lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << lanes) - 1;
    uint64_t full1 = lanes >= 128 ? ~(uint64_t)0 : lanes > 64 ? ((uint64_t)1 << (lanes - 64)) - 1 : 0;
    if (mask[0] == full0 && mask[1] == full1) {      /* every lane: rows of p */
        uint64_t row = (uint64_t)base;
        for (uint32_t l0 = 0; l0 < lanes; l0 += p, row += (uint64_t)c) {
            uint32_t end = lanes - l0 < p ? lanes : l0 + p;
            uint64_t val = row;
            for (uint32_t l = l0; l < end; l++, val += (uint64_t)a) v[l] = (int64_t)val;
        }
        return;
    }
    if (p >= lanes) {          /* one row: lane l is base + a l */
        for (int h = 0; h < 2; h++)
            for (uint64_t m = mask[h]; m; m &= m - 1) {
                unsigned l = 64u * (unsigned)h + (unsigned)__builtin_ctzll(m);
                v[l] = (int64_t)((uint64_t)base + (uint64_t)a * l);
            }
        return;
    }
    uint64_t row = (uint64_t)base;
    for (uint32_t l0 = 0; l0 < lanes; l0 += p, row += (uint64_t)c)
        for (uint32_t x = 0; x < p && l0 + x < lanes; x++) {
            uint32_t l = l0 + x;
            if ((mask[l >> 6] >> (l & 63)) & 1) v[l] = (int64_t)(row + (uint64_t)a * x);
        }
}

void mg_trace_expand_lanes(mg_rec *r, int dims, uint32_t p, const int64_t base[2],
                           const int64_t a[2], const int64_t c[2], const uint8_t *ln, uint32_t n)
{
    if (n && ln[n - 1] < p) {           /* every lane in row 0 (the usual case) */
        uint64_t b0 = (uint64_t)base[0], a0 = (uint64_t)a[0];
        if (dims == 2) {
            uint64_t b1 = (uint64_t)base[1], a1 = (uint64_t)a[1];
            for (uint32_t k = 0; k < n; k++) {
                uint32_t l = ln[k];
                r->a[l] = (int64_t)(b0 + a0 * l);
                r->b[l] = (int64_t)(b1 + a1 * l);
            }
        } else {
            for (uint32_t k = 0; k < n; k++) {
                uint32_t l = ln[k];
                r->a[l] = (int64_t)(b0 + a0 * l);
                r->b[l] = 0;
            }
        }
        return;
    }
    uint32_t x = 0, last = 0;
    uint64_t row[2] = {(uint64_t)base[0], dims == 2 ? (uint64_t)base[1] : 0};
    for (uint32_t k = 0; k < n; k++) {
        x += ln[k] - last;
        last = ln[k];
        while (x >= p) {
            x -= p;
            row[0] += (uint64_t)c[0];
            if (dims == 2) row[1] += (uint64_t)c[1];
        }
        r->a[last] = (int64_t)(row[0] + (uint64_t)a[0] * x);
        r->b[last] = dims == 2 ? (int64_t)(row[1] + (uint64_t)a[1] * x) : 0;
    }
}

int mg_trace_drec_next(mg_trace_cursor *c, mg_rec *r)
{
    const mg_trace_wg *wg = c->wg;
    const mg_trace_warp *w = &wg->warps[c->warp];
    if (c->index >= w->n_records) return 0;
    const mg_trace_drec *q = &wg->recs[w->off + c->index++];
    if (c->index < w->n_records) __builtin_prefetch(q + 1);   /* read later: warps interleave */
    c->prev_mask[0] = q->mask[0];
    c->prev_mask[1] = q->mask[1];
    /* (a list of no active lane may have no pool behind it) */
    mg_trace_drec_expand(c, q, q->list && wg->pool ? wg->pool + q->base[0] : NULL, w->lanes, r);
    return 1;
}

void mg_trace_drec_expand(mg_trace_cursor *c, const mg_trace_drec *q, const int64_t *vals,
                          uint32_t lanes, mg_rec *r)
{
    r->type = q->type;
    r->site = q->site;
    r->lanes = (uint16_t)lanes;
    r->mask[0] = q->mask[0];
    r->mask[1] = q->mask[1];
    r->cls = q->cls;
    r->vec = q->vec;
    r->n = q->n;
    r->flops = q->flops;
    if (q->type == MG_REC_ALU) {
        r->dep = q->dep;
        r->keep = q->keep;
    }
    r->obj = q->obj;
    r->width = q->width;
    int dims = mg_rec_dims(q->type);
    r->form_p = 0;
    r->form = 0;
    if (!dims) return;
    if (q->list) {
        const int64_t *v = vals;
        for (int h = 0; h < 2; h++)
            for (uint64_t m = q->mask[h]; m; m &= m - 1) {
                unsigned l = 64u * (unsigned)h + (unsigned)__builtin_ctzll(m);
                r->a[l] = *v++;
                r->b[l] = dims == 2 ? *v++ : 0;
            }
        if (c->distinct_only) mg_trace_cursor_lanes(c, r);
        return;
    }
    r->form_p = q->p;
    if (q->q) {               /* planes: lanes within a row may share an address */
        int row_const = 1;
        for (int d = 0; d < dims; d++) row_const &= q->a[d] == 0;
        r->form = row_const ? MG_FORM_ROW_CONST : 0;
        uint8_t all[MG_TRACE_MAX_LANES];
        const uint8_t *ln = all;
        uint32_t n;
        if (c->distinct_only) mg_trace_cursor_lanes(c, r);
        if (r->form && c->distinct_only && lanes <= 64) {
            ln = c->ln;
            n = c->nln;
        } else {
            n = active_lanes(r, all);
        }
        planes_fill(r, dims, q, ln, n);
        return;
    }
    r->form = mg_trace_form_bits(dims, q->a, q->c);
    if (c->distinct_only) mg_trace_cursor_lanes(c, r);
    if (r->form && c->distinct_only && lanes <= 64) {
        mg_trace_expand_lanes(r, dims, q->p, q->base, q->a, q->c, c->ln, c->nln);
        return;
    }
    mg_trace_expand(r->a, q->mask, lanes, q->base[0], q->a[0], q->c[0], q->p);
    if (dims == 2) {
        mg_trace_expand(r->b, q->mask, lanes, q->base[1], q->a[1], q->c[1], q->p);
    } else {
        for (int h = 0; h < 2; h++)
            for (uint64_t m = q->mask[h]; m; m &= m - 1)
                r->b[64u * (unsigned)h + (unsigned)__builtin_ctzll(m)] = 0;
    }
}

int mg_trace_wg_to_bytes(mg_trace_wg *wg)
{
    mg_trace_wg enc;
    mg_trace_wg_init(&enc);
    mg_rec *r = malloc(sizeof *r);
    int rc = r ? mg_trace_wg_begin(&enc, wg->id) : -1;
    for (uint32_t k = 0; k < wg->n_warps && rc == 0; k++) {
        int open = wg->warps[k].len == SIZE_MAX;
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, wg, k);
        rc = mg_trace_wg_warp_begin(&enc, wg->warps[k].lanes);
        while (rc == 0 && mg_trace_drec_next(&c, r) == 1) rc = mg_trace_wg_put(&enc, r);
        if (rc == 0 && !open) rc = mg_trace_wg_warp_end(&enc);
    }
    free(r);
    if (rc) {
        mg_trace_wg_free(&enc);
        return -1;
    }
    free(wg->warps);
    free(wg->bytes);
    free(wg->recs);
    free(wg->pool);
    wg->warps = enc.warps;
    wg->warps_cap = enc.warps_cap;
    wg->n_warps = enc.n_warps;
    wg->bytes = enc.bytes;
    wg->len = enc.len;
    wg->cap = enc.cap;
    memcpy(wg->sites, enc.sites, sizeof wg->sites);
    memcpy(wg->enc_mask, enc.enc_mask, sizeof wg->enc_mask);
    wg->in_recs = 0;
    wg->recs = NULL;
    wg->pool = NULL;
    wg->nrecs = wg->recs_cap = wg->npool = wg->pool_cap = 0;
    return 0;
}

int mg_trace_wg_encode(mg_trace_wg *dst, const mg_trace_wg *src)
{
    mg_rec *r = malloc(sizeof *r);
    if (!r) return -1;
    dst->want_recs = 0;
    int rc = mg_trace_wg_begin(dst, src->id);
    for (uint32_t k = 0; k < src->n_warps && rc == 0; k++) {
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, src, k);
        rc = mg_trace_wg_warp_begin(dst, src->warps[k].lanes);
        int got = 0;
        while (rc == 0 && (got = mg_trace_cursor_next(&c, r, NULL)) == 1)
            rc = mg_trace_wg_put(dst, r);
        if (rc == 0 && got < 0) rc = -1;
        if (rc == 0) rc = mg_trace_wg_warp_end(dst);
    }
    free(r);
    return rc;
}
