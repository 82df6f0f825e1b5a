/*
 * trace_decode.c - the record decoder: walks one warp's bytes with a
 * cursor, checking every byte against FORMAT.md section 5, into the record
 * form (mg_trace_decode_drec: what the reader keeps) or, through it, an
 * expanded mg_rec (mg_trace_decode).  Checks that need the header (object
 * ids, address ranges) are in trace_check.c.
 */
#include "traces/trace_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mg_trace_cursor_init(mg_trace_cursor *c, const mg_trace_wg *wg, uint32_t warp)
{
    c->wg = wg;
    c->warp = warp;
    c->index = 0;
    c->pos = c->end = 0;
    if (wg && warp < wg->n_warps) {
        c->pos = wg->warps[warp].off;
        c->end = c->pos + wg->warps[warp].len;
    }
    for (int i = 0; i < MG_TRACE_SITE_SLOTS; i++) c->sites[i].used = 0;
    c->prev_mask[0] = c->prev_mask[1] = 0;
    c->distinct_only = 0;
    c->nln = 0;
    c->ln = c->lnc[0].ln;
    c->lnc[0].used = c->lnc[1].used = 0;
    c->lnc_next = 0;
}

void mg_trace_cursor_lanes(mg_trace_cursor *c, const mg_rec *r)
{
    uint32_t p = r->form ? r->form_p : 0;
    for (int i = 0; i < 2; i++) {
        struct mg_trace_lanes *e = &c->lnc[i];
        if (e->used && e->mask[0] == r->mask[0] && e->mask[1] == r->mask[1] && e->p == p &&
            e->form == r->form) {
            c->ln = e->ln;
            c->nln = e->n;
            return;
        }
    }
    struct mg_trace_lanes *e = &c->lnc[c->lnc_next];
    c->lnc_next ^= 1;
    e->used = 1;
    e->mask[0] = r->mask[0];
    e->mask[1] = r->mask[1];
    e->p = p;
    e->form = r->form;
    e->n = mg_rec_distinct_lanes(r, e->ln);
    c->ln = e->ln;
    c->nln = e->n;
}

/* Fill e (offset off) and return -1. */
__attribute__((format(printf, 3, 4)))
static int fail(mg_trace_err *e, size_t off, const char *fmt, ...)
{
    va_list ap;
    e->off = off;
    va_start(ap, fmt);
    vsnprintf(e->what, sizeof e->what, fmt, ap);
    va_end(ap);
    return -1;
}

/* The decoding state of one record. */
typedef struct dec {
    const uint8_t *p;
    size_t pos, end, start;
    mg_trace_err *e;
} dec;

/* Read a uvar that must be <= max; what names the field in messages. */
static int get_long(dec *s, uint64_t max, const char *what, uint64_t *v)
{
    int rc = mg_trace_get_uvar(s->p, s->end, &s->pos, v);
    if (rc == -1)
        return fail(s->e, s->start, "truncated record: the warp's bytes end inside its %s", what);
    if (rc < 0) return fail(s->e, s->start, "%s: varint longer than 64 bits", what);
    if (*v > max)
        return fail(s->e, s->start, "%s %llu out of range (at most %llu)", what,
                    (unsigned long long)*v, (unsigned long long)max);
    return 0;
}

/* As get_long(), inline for the usual one-byte varint in range. */
static inline int get(dec *s, uint64_t max, const char *what, uint64_t *v)
{
    if (s->pos < s->end && s->p[s->pos] < 0x80 && s->p[s->pos] <= max) {
        *v = s->p[s->pos++];
        return 0;
    }
    return get_long(s, max, what, v);
}

/* Read an svar. */
static inline int get_s(dec *s, const char *what, int64_t *v)
{
    uint64_t z;
    if (get(s, UINT64_MAX, what, &z)) return -1;
    *v = mg_trace_unzigzag(z);
    return 0;
}

/* Decode the ALU body into q; mode MG_ALU_MODE_KEEP: a keep follows. */
static int get_alu(dec *s, mg_trace_drec *q, unsigned mode)
{
    uint64_t cls, vec, n, flops, dep, keep = 0;
    if (get(s, MG_ALU_CLASS_COUNT - 1, "ALU class", &cls) || get(s, 16, "ALU vec", &vec) ||
        get(s, UINT32_MAX, "ALU n", &n) || get(s, 2, "ALU flops", &flops) ||
        get(s, UINT32_MAX, "ALU dep", &dep) ||
        (mode == MG_ALU_MODE_KEEP && get(s, UINT32_MAX, "ALU keep", &keep)))
        return -1;

    if (vec != 1 && vec != 2 && vec != 3 && vec != 4 && vec != 8 && vec != 16)
        return fail(s->e, s->start, "ALU vec %llu is not one of 1, 2, 3, 4, 8, 16",
                    (unsigned long long)vec);
    if (n == 0) return fail(s->e, s->start, "ALU n is 0 (at least 1 instruction)");
    if (dep == 0 || dep > n)
        return fail(s->e, s->start, "ALU dep %llu is not in 1..n (n = %llu)",
                    (unsigned long long)dep, (unsigned long long)n);
    q->cls = (uint8_t)cls;
    q->vec = (uint8_t)vec;
    q->n = (uint32_t)n;
    q->flops = (uint8_t)flops;
    q->dep = (uint32_t)dep;
    q->keep = (uint32_t)keep;
    return 0;
}

/* AFFINE and SAME bodies: the form's base (relative to ref), for AFFINE
 * its a and c, for each of the dims dimensions into n. */
static inline int get_mem_form(dec *s, unsigned mode, int dims, const int64_t ref[2],
                               mg_trace_site *n)
{
    for (int d = 0; d < dims; d++) {
        int64_t db;
        if (get_s(s, "base", &db)) return -1;
        n->base[d] = (int64_t)((uint64_t)ref[d] + (uint64_t)db);
        if (mode == MG_MODE_AFFINE && (get_s(s, "a", &n->a[d]) || get_s(s, "c", &n->c[d])))
            return -1;
    }
    return 0;
}

/* LIST body: each active lane's address as a delta from the previous
 * one's (the first from ref), into vals (dims values per active lane, in
 * lane order); n's base becomes the first active lane's address (ref when
 * no lane is active). */
static inline int get_mem_list(dec *s, const uint64_t mask[2], int dims, const int64_t ref[2],
                               mg_trace_site *n, int64_t *vals)
{
    int64_t prev[2] = {ref[0], ref[1]};
    unsigned k = 0;
    for (int h = 0; h < 2; h++)
        for (uint64_t m = mask[h]; m; m &= m - 1) {
            for (int d = 0; d < dims; d++) {
                int64_t dv;
                if (get_s(s, "lane address delta", &dv)) return -1;
                prev[d] = (int64_t)((uint64_t)prev[d] + (uint64_t)dv);
                vals[k++] = prev[d];
            }
        }
    for (int d = 0; d < dims; d++) n->base[d] = k ? vals[d] : ref[d];
    return 0;
}

/* Decode a memory body in `mode` into q (vals: a LIST's values), using and
 * updating the cursor's site slot. */
static int get_mem(dec *s, mg_trace_cursor *c, mg_trace_drec *q, unsigned mode, uint32_t lanes,
                   int64_t *vals)
{
    int dims = mg_rec_dims(q->type);
    mg_trace_site *slot = &c->sites[q->site % MG_TRACE_SITE_SLOTS];
    int same_site = slot->used && slot->site == q->site;
    int64_t ref[2] = {same_site ? slot->base[0] : 0, same_site ? slot->base[1] : 0};
    mg_trace_site n = {.used = 1, .site = q->site};
    uint64_t v;
    if (mode == MG_MODE_SAME) {
        if (!same_site || !slot->affine)
            return fail(s->e, s->start,
                        "SAME address mode with no earlier affine record of site %u in this warp",
                        q->site);
        n = *slot;
    } else {
        if (get(s, MG_TRACE_MAX_OBJS - 1, "object id", &v)) return -1;
        n.obj = (uint32_t)v;
        if (get(s, MG_TRACE_MAX_WIDTH, "width", &v)) return -1;
        if (v == 0) return fail(s->e, s->start, "width 0 (at least 1 byte per lane)");
        n.width = (uint32_t)v;
    }
    if (mode == MG_MODE_AFFINE) {
        if (get(s, lanes, "AFFINE P", &v)) return -1;
        if (v == 0) return fail(s->e, s->start, "AFFINE P is 0 (1..%u)", lanes);
        n.p = (uint32_t)v;
        n.affine = 1;
    }
    int rc = mode == MG_MODE_AFFINE || mode == MG_MODE_SAME
                 ? get_mem_form(s, mode, dims, ref, &n)
                 : get_mem_list(s, q->mask, dims, ref, &n, vals);
    if (rc) return -1;
    *slot = n;
    q->obj = (uint8_t)n.obj;
    q->width = n.width;
    if (mode == MG_MODE_LIST) {
        q->list = 1;
        return 0;
    }
    q->p = n.p;
    for (int d = 0; d < dims; d++) {
        q->base[d] = n.base[d];
        q->a[d] = n.a[d];
        q->c[d] = n.c[d];
    }
    return 0;
}

/* Before a record of warp w at the cursor: 1 when one follows, 0 at the
 * warp's end, -1 with e filled when the bytes and the header's record
 * count disagree or the warp's lane count is out of range. */
static inline int warp_has_next(const mg_trace_cursor *c, const mg_trace_warp *w,
                                mg_trace_err *e)
{
    if (c->pos >= c->end) {
        if (c->index != w->n_records)
            return fail(e, c->pos, "the warp's bytes end after %u records, its header says %u",
                        c->index, w->n_records);
        return 0;
    }
    if (c->index >= w->n_records)
        return fail(e, c->pos, "%zu bytes after the last of the %u records the warp header declares",
                    c->end - c->pos, w->n_records);
    if (w->lanes < 1 || w->lanes > MG_TRACE_MAX_LANES)
        return fail(e, c->pos, "warp of %u lanes (1..%u)", w->lanes, MG_TRACE_MAX_LANES);
    return 1;
}

/* Check type byte tb of the cursor's record: a known type, not both mask
 * flags, no previous mask for the warp's first record, an address mode
 * only in a memory record, the keep flag (mode 1) the only one of an ALU
 * record.  0, or -1 with s->e filled. */
static inline int check_type_byte(const dec *s, const mg_trace_cursor *c, unsigned tb)
{
    unsigned type = tb & MG_TB_TYPE, mode = (tb & MG_TB_MODE) >> MG_TB_MODE_SHIFT;
    if (type < 1 || type >= MG_REC_TYPE_COUNT)
        return fail(s->e, s->start, "unknown record type %u (type byte 0x%02x; types are 1..%d)",
                    type, tb, MG_REC_TYPE_COUNT - 1);
    if ((tb & MG_TB_ALL) && (tb & MG_TB_PREV))
        return fail(s->e, s->start, "type byte 0x%02x sets both all-lanes and previous-mask", tb);
    if ((tb & MG_TB_PREV) && c->index == 0)
        return fail(s->e, s->start,
                    "mask of the previous record asked for by the warp's first record");
    if (type == MG_REC_ALU && mode > MG_ALU_MODE_KEEP)
        return fail(s->e, s->start, "ALU mode %u is not 0 or 1 (type byte 0x%02x)", mode, tb);
    if (!mg_rec_is_mem((int)type) && type != MG_REC_ALU && mode)
        return fail(s->e, s->start, "address mode %u in a record of type %s (type byte 0x%02x)",
                    mode, mg_rec_type_name((int)type), tb);
    if (mode > MG_MODE_LIST)
        return fail(s->e, s->start, "unknown address mode %u (type byte 0x%02x)", mode, tb);
    return 0;
}

/* r's lane mask as type byte tb says: every lane, the previous record's,
 * or (w->lanes + 7) / 8 bytes with no bit past the last lane. */
static inline int get_mask(dec *s, const mg_trace_cursor *c, const mg_trace_warp *w,
                           uint64_t mask[2], unsigned tb)
{
    if (tb & MG_TB_ALL) {
        mask[0] = w->lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w->lanes) - 1;
        mask[1] = w->lanes >= 128 ? ~(uint64_t)0
                  : w->lanes > 64 ? ((uint64_t)1 << (w->lanes - 64)) - 1 : 0;
        return 0;
    }
    if (tb & MG_TB_PREV) {
        mask[0] = c->prev_mask[0];
        mask[1] = c->prev_mask[1];
        return 0;
    }
    unsigned nb = (w->lanes + 7) / 8;
    if (s->end - s->pos < nb)
        return fail(s->e, s->start,
                    "truncated record: the warp's bytes end inside its lane mask");
    for (unsigned i = 0; i < nb; i++)
        mask[i >> 3] |= (uint64_t)s->p[s->pos + i] << (8 * (i & 7));
    s->pos += nb;
    unsigned pad = nb * 8 - w->lanes;
    if (pad && (s->p[s->pos - 1] >> (8 - pad)))
        return fail(s->e, s->start, "lane mask has bits set past lane %u of a %u-lane warp",
                    w->lanes - 1, w->lanes);
    return 0;
}

/* The record's body by its type: ALU fields, a barrier's fence, or a
 * memory access's addresses in `mode`. */
static inline int get_body(dec *s, mg_trace_cursor *c, mg_trace_drec *q, unsigned mode,
                           uint32_t lanes, int64_t *vals)
{
    if (q->type == MG_REC_ALU) return get_alu(s, q, mode);
    if (q->type == MG_REC_BARRIER) {
        uint64_t fence;
        int rc = get(s, 3, "barrier fence", &fence);
        q->obj = (uint8_t)fence;
        return rc;
    }
    return get_mem(s, c, q, mode, lanes, vals);
}

int mg_trace_decode_drec(mg_trace_cursor *c, mg_trace_drec *q, int64_t *vals, mg_trace_err *e)
{
    const mg_trace_wg *wg = c->wg;
    const mg_trace_warp *w = &wg->warps[c->warp];
    int more = warp_has_next(c, w, e);
    if (more <= 0) return more;
    dec s = {wg->bytes, c->pos, c->end, c->pos, e};
    unsigned tb = s.p[s.pos++];
    if (check_type_byte(&s, c, tb)) return -1;
    uint64_t site;
    if (get(&s, UINT16_MAX, "site", &site)) return -1;
    static const mg_trace_drec zero;
    *q = zero;                 /* (a copy, not a memset: gcc's rep stos is slow here) */
    q->type = (uint8_t)(tb & MG_TB_TYPE);
    q->site = (uint16_t)site;
    if (get_mask(&s, c, w, q->mask, tb) ||
        get_body(&s, c, q, (tb & MG_TB_MODE) >> MG_TB_MODE_SHIFT, w->lanes, vals))
        return -1;
    c->prev_mask[0] = q->mask[0];
    c->prev_mask[1] = q->mask[1];
    c->pos = s.pos;
    c->index++;
    return 1;
}

int mg_trace_decode(mg_trace_cursor *c, mg_rec *r, mg_trace_err *e)
{
    const mg_trace_wg *wg = c->wg;
    if (!wg || c->warp >= wg->n_warps)
        return fail(e, 0, "no warp %u in this work group", c->warp);
    if (wg->in_recs) return mg_trace_drec_next(c, r);
    mg_trace_drec q;
    int64_t vals[2 * MG_TRACE_MAX_LANES];
    int rc = mg_trace_decode_drec(c, &q, vals, e);
    if (rc == 1) mg_trace_drec_expand(c, &q, vals, wg->warps[c->warp].lanes, r);
    return rc;
}

int mg_trace_cursor_next(mg_trace_cursor *c, mg_rec *r, mg_diag *d)
{
    mg_trace_err e;
    int rc = mg_trace_decode(c, r, &e);
    if (rc < 0 && d)
        mg_diag_error(d, "warp %u, record %u, byte offset %zu: %s", c->warp, c->index, e.off,
                      e.what);
    return rc;
}
