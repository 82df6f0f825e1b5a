/*
 * trace_check.c - checks that need the header: the header's own fields
 * (FORMAT.md section 3) and each decoded record against it (section 6).
 */
#include "traces/trace_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Write a reason into why and return -1. */
__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Nonzero when s (at most cap bytes) is a string of 1..cap-1 printable
 * ASCII characters. */
static int name_ok(const char *s, size_t cap)
{
    size_t len = strnlen(s, cap);
    if (len == 0 || len == cap) return 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] < 0x20 || s[i] > 0x7e) return 0;
    return 1;
}

int mg_trace_check_header(const mg_trace_header *h, char *why, size_t n)
{
    if (!name_ok(h->kernel, sizeof h->kernel))
        return bad(why, n, "kernel name must be 1..%zu printable characters",
                   sizeof h->kernel - 1);
    uint64_t items = 1;
    for (int i = 0; i < 3; i++) {
        if (!h->global[i] || !h->local[i])
            return bad(why, n, "global[%d] = %u, local[%d] = %u: sizes must be at least 1", i,
                       h->global[i], i, h->local[i]);
        if (h->global[i] % h->local[i])
            return bad(why, n, "global[%d] = %u is not a multiple of local[%d] = %u", i,
                       h->global[i], i, h->local[i]);
        if (h->global[i] > MG_TRACE_MAX_ITEMS / items)     /* items x global > 2^48 */
            return bad(why, n, "global size %u x %u x %u exceeds 2^48 work items",
                       h->global[0], h->global[1], h->global[2]);
        items *= h->global[i];
    }
    if (h->warp_width < 1 || h->warp_width > MG_TRACE_MAX_LANES)
        return bad(why, n, "warp width %u out of range (1..%u)", h->warp_width,
                   MG_TRACE_MAX_LANES);
    uint32_t wpw = mg_trace_warps_per_wg(h);
    if (wpw > MG_TRACE_MAX_WARPS)
        return bad(why, n, "work group %u x %u x %u makes %u warps of %u (at most %u)",
                   h->local[0], h->local[1], h->local[2], wpw, h->warp_width,
                   MG_TRACE_MAX_WARPS);
    if (h->n_images > MG_TRACE_MAX_OBJS || h->n_buffers > MG_TRACE_MAX_OBJS)
        return bad(why, n, "%u images and %u buffers (at most %u each)", h->n_images,
                   h->n_buffers, MG_TRACE_MAX_OBJS);
    for (uint32_t i = 0; i < h->n_images; i++) {
        const mg_trace_image *im = &h->images[i];
        if (!name_ok(im->name, sizeof im->name))
            return bad(why, n, "image %u: name must be 1..%zu printable characters", i,
                       sizeof im->name - 1);
        if (im->width < 1 || im->width > MG_TRACE_MAX_IMAGE_SIDE || im->height < 1 ||
            im->height > MG_TRACE_MAX_IMAGE_SIDE)
            return bad(why, n, "image %u \"%s\": size %ux%u out of range (1..%u each)", i,
                       im->name, im->width, im->height, MG_TRACE_MAX_IMAGE_SIDE);
        if (im->channels < 1 || im->channels > 4)
            return bad(why, n, "image %u \"%s\": %u channels (1..4)", i, im->name, im->channels);
        if (im->type != MG_TEXEL_FP32 && im->type != MG_TEXEL_FP16)
            return bad(why, n, "image %u \"%s\": texel type %u unknown (0 fp32, 1 fp16)", i,
                       im->name, im->type);
        uint32_t tb = im->channels * (im->type == MG_TEXEL_FP32 ? 4u : 2u);
        if (im->texel_bytes != tb)
            return bad(why, n, "image %u \"%s\": texel_bytes %u, expected %u (%u channels of %s)",
                       i, im->name, im->texel_bytes, tb, im->channels,
                       im->type == MG_TEXEL_FP32 ? "fp32" : "fp16");
    }
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        const mg_trace_buffer *b = &h->buffers[i];
        if (!name_ok(b->name, sizeof b->name))
            return bad(why, n, "buffer %u: name must be 1..%zu printable characters", i,
                       sizeof b->name - 1);
        if (b->bytes < 1 || b->bytes > MG_TRACE_MAX_BUF_BYTES)
            return bad(why, n, "buffer %u \"%s\": size %llu bytes out of range (1..2^48)", i,
                       b->name, (unsigned long long)b->bytes);
        if (b->space != MG_SPACE_GLOBAL && b->space != MG_SPACE_CONSTANT)
            return bad(why, n, "buffer %u \"%s\": space %u unknown (0 global, 1 constant)", i,
                       b->name, b->space);
        if (b->elem > 8 || (b->elem & (b->elem - 1)))
            return bad(why, n, "buffer %u \"%s\": element of %u bytes (1, 2, 4 or 8; 0 not known)",
                       i, b->name, b->elem);
    }
    return 0;
}

/* Check every active lane's byte address of r against [0, limit). */
static int check_bytes(const mg_rec *r, uint64_t limit, const char *what, char *why, size_t n)
{
    for (unsigned l = 0; l < r->lanes; l++) {
        if (!mg_rec_active(r, l)) continue;
        int64_t a = r->a[l];
        if (a < 0) return bad(why, n, "lane %u: byte address %lld is negative", l, (long long)a);
        if ((uint64_t)a > limit || r->width > limit - (uint64_t)a)
            return bad(why, n, "lane %u: byte address %lld + width %u is past the end of %s (%llu bytes)",
                       l, (long long)a, r->width, what, (unsigned long long)limit);
    }
    return 0;
}

/* Check the object and addresses of a buffer or constant access. */
static int check_buffer(const mg_trace_header *h, const mg_rec *r, char *why, size_t n)
{
    if (r->obj >= h->n_buffers)
        return bad(why, n, "buffer id %u out of range (the header lists %u buffer%s)", r->obj,
                   h->n_buffers, h->n_buffers == 1 ? "" : "s");
    const mg_trace_buffer *b = &h->buffers[r->obj];
    int want = r->type == MG_REC_CONST_LOAD ? MG_SPACE_CONSTANT : MG_SPACE_GLOBAL;
    if (b->space != want)
        return bad(why, n, "%s on buffer %u \"%s\", a %s buffer (%s needs a %s one)",
                   mg_rec_type_name(r->type), r->obj, b->name,
                   b->space == MG_SPACE_CONSTANT ? "constant" : "global",
                   mg_rec_type_name(r->type), want == MG_SPACE_CONSTANT ? "constant" : "global");
    char what[64];
    snprintf(what, sizeof what, "buffer %u \"%s\"", r->obj, b->name);
    return check_bytes(r, b->bytes, what, why, n);
}

/* Check the object and texel coordinates of an image access. */
static int check_image(const mg_trace_header *h, const mg_rec *r, char *why, size_t n)
{
    if (r->obj >= h->n_images)
        return bad(why, n, "image id %u out of range (the header lists %u image%s)", r->obj,
                   h->n_images, h->n_images == 1 ? "" : "s");
    const mg_trace_image *im = &h->images[r->obj];
    for (unsigned l = 0; l < r->lanes; l++) {
        if (!mg_rec_active(r, l)) continue;
        if (r->a[l] < 0 || r->a[l] >= im->width || r->b[l] < 0 || r->b[l] >= im->height)
            return bad(why, n, "lane %u: texel (%lld, %lld) outside image %u \"%s\" (%ux%u)", l,
                       (long long)r->a[l], (long long)r->b[l], r->obj, im->name, im->width,
                       im->height);
    }
    return 0;
}

int mg_trace_check_rec(const mg_trace_header *h, const mg_rec *r, char *why, size_t n)
{
    if (r->lanes > h->warp_width)
        return bad(why, n, "%u lanes, more than the warp width %u", r->lanes, h->warp_width);
    switch (r->type) {
    case MG_REC_TEX_READ:
    case MG_REC_IMG_WRITE:
        return check_image(h, r, why, n);
    case MG_REC_BUF_LOAD:
    case MG_REC_BUF_STORE:
    case MG_REC_CONST_LOAD:
        return check_buffer(h, r, why, n);
    case MG_REC_LOCAL_LOAD:
    case MG_REC_LOCAL_STORE:
        if (r->obj != 0)
            return bad(why, n, "local access with object id %u (must be 0)", r->obj);
        return check_bytes(r, h->local_bytes, "local memory", why, n);
    case MG_REC_ALU:
        if (r->keep && h->version && h->version < 3)
            return bad(why, n, "ALU record with a keep (loads it does not need) in a version %u file"
                       " (keep is version 3)", h->version);
        return 0;
    case MG_REC_BARRIER:
        return 0;
    default:
        return bad(why, n, "unknown record type %u", r->type);
    }
}

/* ---- the same checks on the record form, without expanding ------------------ */

/* The first and last lane of mask m in [lo, hi) into *first, *last;
 * 0 when none is set. */
static int mask_span(const uint64_t m[2], unsigned lo, unsigned hi, unsigned *first,
                     unsigned *last)
{
    uint64_t w[2];
    for (unsigned h = 0; h < 2; h++) {
        unsigned b = 64 * h;
        uint64_t keep = ~(uint64_t)0;
        if (lo > b) keep &= lo - b >= 64 ? 0 : ~(uint64_t)0 << (lo - b);
        if (hi < b + 64) keep &= hi <= b ? 0 : ((uint64_t)1 << (hi - b)) - 1;
        w[h] = m[h] & keep;
    }
    if (!w[0] && !w[1]) return 0;
    *first = w[0] ? (unsigned)__builtin_ctzll(w[0]) : 64 + (unsigned)__builtin_ctzll(w[1]);
    *last = w[1] ? 127 - (unsigned)__builtin_clzll(w[1]) : 63 - (unsigned)__builtin_clzll(w[0]);
    return 1;
}

/* Nonzero when base + a x + c y, computed exactly (no wrap), lies in
 * [lo, hi]. */
static int value_in(int64_t base, int64_t a, int64_t c, uint32_t x, uint32_t y, int64_t lo,
                    int64_t hi)
{
    int64_t ax, cy, v;
    if (__builtin_mul_overflow(a, (int64_t)x, &ax) || __builtin_mul_overflow(c, (int64_t)y, &cy) ||
        __builtin_add_overflow(base, ax, &v) || __builtin_add_overflow(v, cy, &v))
        return 0;
    return v >= lo && v <= hi;
}

/* Nonzero when every active lane of q's affine form (rows of q->p lanes)
 * in dimension d lies in [lo, hi].  Within a row the value is monotone
 * in the column, so each row's first and last active lanes bound the
 * row's values: when their exact values are in range, so is every active
 * lane's exact value, which then is its (wrapping) value too. */
static int form_in(const mg_trace_drec *q, uint32_t lanes, int d, int64_t lo, int64_t hi)
{
    uint32_t p = q->p;
    int64_t base = q->base[d], a = q->a[d], c = q->c[d], ap;
    unsigned f, l;
    if (p >= lanes || p == 1 || (!__builtin_mul_overflow(a, (int64_t)p, &ap) && ap == c)) {
        int64_t s = p >= lanes ? a : c / (int64_t)p;      /* one row: base + s x lane */
        if (!mask_span(q->mask, 0, lanes, &f, &l)) return 1;
        return value_in(base, s, 0, f, 0, lo, hi) && value_in(base, s, 0, l, 0, lo, hi);
    }
    uint64_t full0 = lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << lanes) - 1;
    uint64_t full1 = lanes >= 128 ? ~(uint64_t)0 : lanes > 64 ? ((uint64_t)1 << (lanes - 64)) - 1 : 0;
    if (q->mask[0] == full0 && q->mask[1] == full1) {
        /* every lane: full rows 0 .. rows-2, whose values move linearly
         * with the row (the first and the last bound them), and row
         * rows-1 of k lanes */
        uint32_t rows = (lanes + p - 1) / p, k = lanes - (rows - 1) * p;
        return value_in(base, a, c, 0, 0, lo, hi) && value_in(base, a, c, p - 1, 0, lo, hi) &&
               value_in(base, a, c, 0, rows - 1, lo, hi) &&
               value_in(base, a, c, k - 1, rows - 1, lo, hi) &&
               (rows < 2 || value_in(base, a, c, p - 1, rows - 2, lo, hi));
    }
    for (uint32_t y = 0, l0 = 0; l0 < lanes; y++, l0 += p) {
        uint32_t end = lanes - l0 < p ? lanes : l0 + p;
        if (!mask_span(q->mask, l0, end, &f, &l)) continue;
        if (!value_in(base, a, c, f - l0, y, lo, hi) || !value_in(base, a, c, l - l0, y, lo, hi))
            return 0;
    }
    return 1;
}

/* Nonzero when every active lane of q in dimension d (of dims) lies in
 * [lo, hi]: the form's extreme lanes, or each of a list's values. */
static int lanes_in(const mg_trace_drec *q, const int64_t *vals, uint32_t lanes, int dims, int d,
                    int64_t lo, int64_t hi)
{
    if (q->q) return 0;                       /* planes: not from a file */
    if (!q->list) return form_in(q, lanes, d, lo, hi);
    unsigned n = (mg_popcount64(q->mask[0]) + mg_popcount64(q->mask[1])) * (unsigned)dims;
    for (unsigned i = (unsigned)d; i < n; i += (unsigned)dims)
        if (vals[i] < lo || vals[i] > hi) return 0;
    return 1;
}

/* Nonzero when every active lane's byte address a of q has 0 <= a and
 * a + width <= limit. */
static int bytes_in(const mg_trace_drec *q, const int64_t *vals, uint32_t lanes, uint64_t limit)
{
    if (q->width > limit) return 0;
    return lanes_in(q, vals, lanes, 1, 0, 0, (int64_t)(limit - q->width));
}

int mg_trace_check_drec(const mg_trace_header *h, const mg_trace_drec *q, uint32_t lanes,
                        const int64_t *vals)
{
    if (lanes > h->warp_width) return 0;
    switch (q->type) {
    case MG_REC_TEX_READ:
    case MG_REC_IMG_WRITE: {
        if (q->obj >= h->n_images) return 0;
        const mg_trace_image *im = &h->images[q->obj];
        return lanes_in(q, vals, lanes, 2, 0, 0, (int64_t)im->width - 1) &&
               lanes_in(q, vals, lanes, 2, 1, 0, (int64_t)im->height - 1);
    }
    case MG_REC_BUF_LOAD:
    case MG_REC_BUF_STORE:
    case MG_REC_CONST_LOAD: {
        if (q->obj >= h->n_buffers) return 0;
        const mg_trace_buffer *b = &h->buffers[q->obj];
        int want = q->type == MG_REC_CONST_LOAD ? MG_SPACE_CONSTANT : MG_SPACE_GLOBAL;
        return b->space == want && bytes_in(q, vals, lanes, b->bytes);
    }
    case MG_REC_LOCAL_LOAD:
    case MG_REC_LOCAL_STORE:
        return q->obj == 0 && bytes_in(q, vals, lanes, h->local_bytes);
    case MG_REC_ALU:
        return !(q->keep && h->version && h->version < 3);
    case MG_REC_BARRIER:
        return 1;
    default:
        return 0;
    }
}
