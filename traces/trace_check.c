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
    case MG_REC_BARRIER:
        return 0;
    default:
        return bad(why, n, "unknown record type %u", r->type);
    }
}
