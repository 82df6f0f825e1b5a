/*
 * trace_corpus.c - build the sample trace and the malformed-trace corpus
 * byte by byte (see trace_corpus.h).  The serializer here is independent
 * of traces/trace_file.c's writer, so the test that both give the same
 * sample bytes also checks the writer against FORMAT.md.
 */
#include "tests/unit/trace_corpus.h"
#include "traces/trace_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- a growable byte buffer ------------------------------------------------- */

typedef struct bytes {
    uint8_t *b;
    size_t n, cap;
} bytes;

static void b_raw(bytes *x, const void *p, size_t n)
{
    if (x->n + n > x->cap) {
        x->cap = (x->n + n) * 2 + 64;
        x->b = realloc(x->b, x->cap);
        if (!x->b) abort();
    }
    memcpy(x->b + x->n, p, n);
    x->n += n;
}

static void b_byte(bytes *x, uint8_t v) { b_raw(x, &v, 1); }

static void b_u(bytes *x, uint64_t v)
{
    uint8_t t[MG_TRACE_MAX_VARINT];
    b_raw(x, t, mg_trace_put_uvar(t, v));
}

static void b_str(bytes *x, const char *s)
{
    b_u(x, strlen(s));
    b_raw(x, s, strlen(s));
}

/* Magic, `version` and the header fields of h, with `n_images` written as
 * the image count (h's images up to 32 follow). */
static void b_header(bytes *x, const mg_trace_header *h, uint64_t version, uint64_t n_images)
{
    b_raw(x, "MGTRACE", 8);
    b_u(x, version);
    b_str(x, h->kernel);
    for (int i = 0; i < 3; i++) b_u(x, h->global[i]);
    for (int i = 0; i < 3; i++) b_u(x, h->local[i]);
    b_u(x, h->warp_width);
    b_u(x, h->regs_per_item);
    b_u(x, h->local_bytes);
    b_u(x, n_images);
    for (uint64_t i = 0; i < n_images && i < MG_TRACE_MAX_OBJS; i++) {
        const mg_trace_image *im = &h->images[i];
        b_str(x, im->name);
        b_u(x, im->width);
        b_u(x, im->height);
        b_u(x, im->channels);
        b_u(x, im->type);
        b_u(x, im->texel_bytes);
    }
    b_u(x, h->n_buffers);
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        b_str(x, h->buffers[i].name);
        b_u(x, h->buffers[i].bytes);
        b_u(x, h->buffers[i].space);
        if (version >= 2) b_u(x, h->buffers[i].elem);
    }
}

/* A work group as the file holds it. */
static void b_wg(bytes *x, const mg_trace_wg *wg)
{
    b_byte(x, MG_TRACE_TAG_GROUP);
    for (int i = 0; i < 3; i++) b_u(x, wg->id[i]);
    b_u(x, wg->n_warps);
    for (uint32_t k = 0; k < wg->n_warps; k++) {
        b_u(x, wg->warps[k].lanes);
        b_u(x, wg->warps[k].n_records);
        b_u(x, wg->warps[k].len);
        b_raw(x, wg->bytes + wg->warps[k].off, wg->warps[k].len);
    }
}

static void b_end(bytes *x, uint64_t nwg, uint64_t nrec)
{
    b_byte(x, MG_TRACE_TAG_END);
    b_u(x, nwg);
    b_u(x, nrec);
}

/* ---- the sample ------------------------------------------------------------- */

void mg_sample_header(mg_trace_header *h)
{
    memset(h, 0, sizeof *h);
    h->version = MG_TRACE_VERSION;
    strcpy(h->kernel, "small_sample");
    h->global[0] = 32, h->global[1] = 2, h->global[2] = 1;
    h->local[0] = 16, h->local[1] = 2, h->local[2] = 1;
    h->warp_width = 16;
    h->regs_per_item = 24;
    h->local_bytes = 128;
    h->n_images = 2;
    h->images[0] = (mg_trace_image){"input", 32, 2, 4, MG_TEXEL_FP32, 16};
    h->images[1] = (mg_trace_image){"output", 32, 2, 4, MG_TEXEL_FP16, 8};
    h->n_buffers = 3;
    h->buffers[0] = (mg_trace_buffer){"weights", 64, MG_SPACE_CONSTANT, 4};
    h->buffers[1] = (mg_trace_buffer){"bias", 128, MG_SPACE_GLOBAL, 2};
    h->buffers[2] = (mg_trace_buffer){"out", 256, MG_SPACE_GLOBAL, 0};
}

/* Start a record of `type` at `site` with no lane active. */
static void rec_start(mg_rec *r, int type, unsigned site)
{
    memset(r, 0, sizeof *r);
    r->type = (uint8_t)type;
    r->site = (uint16_t)site;
    r->lanes = 16;
}

/* Put r after the hook saw it; *index counts the warp's records. */
static void put(mg_trace_wg *wg, mg_rec *r, uint32_t wgx, uint32_t warp, uint32_t *index,
                mg_sample_hook hook)
{
    if (hook) hook(r, wgx, warp, *index);
    if (mg_trace_wg_put(wg, r)) abort();
    ++*index;
}

/* An ALU record with every lane, or every other lane when `half`. */
static void alu(mg_rec *r, unsigned site, int cls, unsigned vec, unsigned n, unsigned flops,
                int half)
{
    rec_start(r, MG_REC_ALU, site);
    for (unsigned l = 0; l < 16; l += half ? 2 : 1) mg_rec_set_active(r, l);
    r->cls = (uint8_t)cls, r->vec = (uint8_t)vec, r->n = n, r->flops = (uint8_t)flops;
}

/* Work item (gx, gy) = (16 wgx + lane, warp): the 14 records of one warp.
 *  0 tex_read input (gx, gy)        7 barrier (local fence)
 *  1 tex_read input (gx-1, gy), gx>0 8 local_load 64w + 4((5 lane) mod 16): LIST
 *  2 const_load weights 0 (16 B)    9 buf_load bias 4 gx
 *  3 alu fp32 vec4 n4 FMA          10 alu int n2
 *  4 const_load weights 16: SAME   11 alu sfu, even lanes
 *  5 alu fp32 vec4 n4 FMA          12 buf_store out 4 (32 gy + gx), gx < 30
 *  6 local_store 64w + 4 lane      13 img_write output (gx, gy), gx < 30 */
static void sample_warp(mg_trace_wg *wg, uint32_t wgx, uint32_t w, mg_sample_hook hook)
{
    mg_rec *r = calloc(1, sizeof *r);
    if (!r || mg_trace_wg_warp_begin(wg, 16)) abort();
    uint32_t idx = 0;
    for (int k = 0; k < 2; k++) {
        rec_start(r, MG_REC_TEX_READ, (unsigned)k);
        r->obj = 0, r->width = 16;
        for (unsigned l = 0; l < 16; l++) {
            int64_t gx = 16 * (int64_t)wgx + l - k;
            if (gx < 0) continue;
            mg_rec_set_active(r, l);
            r->a[l] = gx, r->b[l] = w;
        }
        put(wg, r, wgx, w, &idx, hook);
    }
    for (int k = 0; k < 2; k++) {
        rec_start(r, MG_REC_CONST_LOAD, 2);
        r->obj = 0, r->width = 16;
        for (unsigned l = 0; l < 16; l++) mg_rec_set_active(r, l), r->a[l] = 16 * k;
        put(wg, r, wgx, w, &idx, hook);
        alu(r, 3, MG_ALU_FP32, 4, 4, 2, 0);
        put(wg, r, wgx, w, &idx, hook);
    }
    for (int k = 0; k < 3; k++) {
        static const int types[3] = {MG_REC_LOCAL_STORE, MG_REC_BARRIER, MG_REC_LOCAL_LOAD};
        rec_start(r, types[k], 4u + (unsigned)k);
        r->width = k == 1 ? 0 : 4;
        r->obj = k == 1 ? 1 : 0;
        for (unsigned l = 0; l < 16; l++) {
            mg_rec_set_active(r, l);
            r->a[l] = 64 * w + 4 * (k ? (5 * l) % 16 : l);
        }
        put(wg, r, wgx, w, &idx, hook);
    }
    rec_start(r, MG_REC_BUF_LOAD, 7);
    r->obj = 1, r->width = 4;
    for (unsigned l = 0; l < 16; l++) mg_rec_set_active(r, l), r->a[l] = 4 * (16 * wgx + l);
    put(wg, r, wgx, w, &idx, hook);
    alu(r, 8, MG_ALU_INT, 1, 2, 0, 0);
    put(wg, r, wgx, w, &idx, hook);
    alu(r, 9, MG_ALU_SFU, 1, 1, 0, 1);
    put(wg, r, wgx, w, &idx, hook);
    rec_start(r, MG_REC_BUF_STORE, 10);
    r->obj = 2, r->width = 4;
    for (unsigned l = 0; l < 16; l++)
        if (16 * wgx + l < 30) mg_rec_set_active(r, l), r->a[l] = 4 * (32 * w + 16 * wgx + l);
    put(wg, r, wgx, w, &idx, hook);
    rec_start(r, MG_REC_IMG_WRITE, 11);
    r->obj = 1, r->width = 8;
    for (unsigned l = 0; l < 16; l++)
        if (16 * wgx + l < 30) mg_rec_set_active(r, l), r->a[l] = 16 * wgx + l, r->b[l] = w;
    put(wg, r, wgx, w, &idx, hook);
    if (mg_trace_wg_warp_end(wg)) abort();
    free(r);
}

int mg_sample_wg(mg_trace_wg *wg, uint32_t wgx, mg_sample_hook hook)
{
    uint32_t id[3] = {wgx, 0, 0};
    mg_trace_wg_begin(wg, id);
    for (uint32_t w = 0; w < 2; w++) sample_warp(wg, wgx, w, hook);
    return 0;
}

/* The sample's work groups appended to x; returns the record count. */
static uint64_t sample_groups(bytes *x, mg_sample_hook hook)
{
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    for (uint32_t g = 0; g < MG_SAMPLE_WGS; g++) {
        mg_sample_wg(&wg, g, hook);
        b_wg(x, &wg);
    }
    mg_trace_wg_free(&wg);
    return MG_SAMPLE_WGS * 2 * MG_SAMPLE_RECS_PER_WARP;
}

uint8_t *mg_sample_bytes(size_t *len, mg_sample_hook hook)
{
    mg_trace_header h;
    mg_sample_header(&h);
    bytes x = {0};
    b_header(&x, &h, MG_TRACE_VERSION, h.n_images);
    uint64_t n = sample_groups(&x, hook);
    b_end(&x, MG_SAMPLE_WGS, n);
    *len = x.n;
    return x.b;
}

/* ---- the bad corpus ------------------------------------------------------------ */

/* Hooks: each breaks one record of the sample (the record index in the
 * file is 28 wgx + 14 warp + index). */
static void h_image_id(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 1 && w == 1 && i == 0) r->obj = 5;
}
static void h_buffer_id(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 1 && i == 9) r->obj = 7;
}
static void h_buffer_overrun(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 1 && w == 1 && i == 12)
        for (int l = 0; l < 16; l++) r->a[l] += 16;
}
static void h_texel_outside(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 1 && w == 0 && i == 0)
        for (int l = 0; l < 16; l++) r->a[l] += 1;
}
static void h_local_overrun(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 1 && i == 6)
        for (int l = 0; l < 16; l++) r->a[l] += 8;
}
static void h_const_on_global(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 0 && i == 2) r->obj = 1;
}
static void h_negative(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 0 && i == 9)
        for (int l = 0; l < 16; l++) r->a[l] -= 64;
}
static void h_width_zero(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 1 && i == 9) r->width = 0;
}
static void h_alu_vec(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 1 && w == 0 && i == 3) r->vec = 5;
}
static void h_alu_n_zero(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 1 && w == 0 && i == 10) r->n = 0;
}
static void h_keep(mg_rec *r, uint32_t g, uint32_t w, uint32_t i)
{
    if (g == 0 && w == 1 && i == 10) r->keep = 1;
}

/* Offset in wg->bytes of record k of warp w. */
static size_t rec_off(const mg_trace_wg *wg, uint32_t w, uint32_t k)
{
    mg_trace_cursor c;
    mg_rec *r = malloc(sizeof *r);
    mg_trace_cursor_init(&c, wg, w);
    while (c.index < k && mg_trace_cursor_next(&c, r, NULL) == 1) {}
    free(r);
    return c.pos;
}

/* Sample header, work groups 0 and 1 as built, each passed to `edit`
 * (which may change the encoded group), then the end marker. */
typedef void (*wg_edit)(mg_trace_wg *wg);
static uint8_t *sample_edited(size_t *len, wg_edit edit, uint64_t end_wgs)
{
    mg_trace_header h;
    mg_sample_header(&h);
    bytes x = {0};
    b_header(&x, &h, MG_TRACE_VERSION, h.n_images);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    for (uint32_t g = 0; g < MG_SAMPLE_WGS; g++) {
        mg_sample_wg(&wg, g, NULL);
        if (edit && g == 1) edit(&wg);
        b_wg(&x, &wg);
    }
    mg_trace_wg_free(&wg);
    b_end(&x, end_wgs, MG_SAMPLE_WGS * 2 * MG_SAMPLE_RECS_PER_WARP);
    *len = x.n;
    return x.b;
}

static void e_outside(mg_trace_wg *wg) { wg->id[0] = 5; }
static void e_warp_count(mg_trace_wg *wg) { wg->n_warps = 1; }
static void e_lanes(mg_trace_wg *wg) { wg->warps[1].lanes = 17; }
static void e_count_more(mg_trace_wg *wg) { wg->warps[0].n_records++; }
static void e_count_less(mg_trace_wg *wg) { wg->warps[0].n_records--; }
static void e_too_many(mg_trace_wg *wg) { wg->warps[0].n_records = UINT32_MAX; }
static void e_unknown_type(mg_trace_wg *wg) { wg->bytes[rec_off(wg, 0, 3)] = 0x1c; }
static void e_mode_in_alu(mg_trace_wg *wg) { wg->bytes[rec_off(wg, 1, 5)] |= 0x40; }
static void e_prev_first(mg_trace_wg *wg)
{
    uint8_t *tb = &wg->bytes[rec_off(wg, 0, 0)];
    *tb = (uint8_t)((*tb & ~MG_TB_ALL) | MG_TB_PREV);
}
static void e_all_prev(mg_trace_wg *wg) { wg->bytes[rec_off(wg, 1, 4)] |= MG_TB_PREV; }
static void e_same_first(mg_trace_wg *wg)
{
    uint8_t *tb = &wg->bytes[rec_off(wg, 0, 2)];
    *tb = (uint8_t)((*tb & ~MG_TB_MODE) | (MG_MODE_SAME << MG_TB_MODE_SHIFT));
}

/* Replace bytes [at, at+n) of x with rep[0..m). */
static void splice(bytes *x, size_t at, size_t n, const void *rep, size_t m)
{
    bytes y = {0};
    b_raw(&y, x->b, at);
    b_raw(&y, rep, m);
    b_raw(&y, x->b + at + n, x->n - at - n);
    free(x->b);
    *x = y;
}

/* A file holding only magic, version and header (count n_images). */
static bytes header_file(const mg_trace_header *h, uint64_t version, uint64_t n_images)
{
    bytes x = {0};
    b_header(&x, h, version, n_images);
    return x;
}

/* Append a bad file to out (if room). */
static void add(mg_bad_trace *out, size_t max, size_t *n, const char *name, bytes x)
{
    if (*n >= max) {
        free(x.b);
        return;
    }
    out[*n].name = name;
    out[*n].bytes = x.b ? x.b : malloc(1);
    out[*n].len = x.n;
    ++*n;
}

/* The sample file with `hook`, as a bytes value. */
static bytes hooked(mg_sample_hook hook)
{
    bytes x = {0};
    x.b = mg_sample_bytes(&x.n, hook);
    x.cap = x.n;
    return x;
}

/* Edited sample as a bytes value. */
static bytes edited(wg_edit edit, uint64_t end_wgs)
{
    bytes x = {0};
    x.b = sample_edited(&x.n, edit, end_wgs);
    x.cap = x.n;
    return x;
}

size_t mg_bad_traces(mg_bad_trace *out, size_t max)
{
    size_t n = 0;
    mg_trace_header h, h2;
    mg_sample_header(&h);
    bytes hdr = header_file(&h, MG_TRACE_VERSION, h.n_images);
    size_t hl = hdr.n;
    bytes g0 = {0};
    {   /* the first work group alone, for its length */
        mg_trace_wg wg;
        mg_trace_wg_init(&wg);
        mg_sample_wg(&wg, 0, NULL);
        b_wg(&g0, &wg);
        mg_trace_wg_free(&wg);
    }
    bytes x;

    add(out, max, &n, "empty.mgt", (bytes){0});
    x = hooked(NULL);
    memcpy(x.b, "\x89PNG\r\n\x1a\n", 8);
    add(out, max, &n, "bad-magic.mgt", x);
    x = hooked(NULL);
    x.b[8] = MG_TRACE_VERSION + 1;
    add(out, max, &n, "future-version.mgt", x);
    x = hooked(NULL);
    x.n = hl + g0.n + 30;
    add(out, max, &n, "truncated.mgt", x);
    x = hooked(NULL);
    x.n -= 3;                                   /* 'E', 2, 56 */
    add(out, max, &n, "no-end-marker.mgt", x);
    x = hooked(NULL);
    splice(&x, 22, 1, "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10);
    add(out, max, &n, "varint-overflow.mgt", x);
    x = hooked(NULL);
    splice(&x, 22, 1, "\x80\x80\x80\x80\x10", 5);          /* 2^32 */
    add(out, max, &n, "global-too-big.mgt", x);
    h2 = h;
    h2.global[0] = 16u << 20, h2.global[1] = 2u << 20, h2.global[2] = 1u << 20;
    add(out, max, &n, "items-overflow.mgt", header_file(&h2, MG_TRACE_VERSION, 2));
    add(out, max, &n, "too-many-images.mgt", header_file(&h, MG_TRACE_VERSION, 33));
    h2 = h;
    h2.images[0].texel_bytes = 12;
    add(out, max, &n, "texel-bytes.mgt", header_file(&h2, MG_TRACE_VERSION, 2));
    h2 = h;
    h2.buffers[1].elem = 3;
    add(out, max, &n, "buffer-elem.mgt", header_file(&h2, MG_TRACE_VERSION, 2));
    h2 = h;
    strcpy(h2.kernel, "bell\a");
    add(out, max, &n, "kernel-name.mgt", header_file(&h2, MG_TRACE_VERSION, 2));
    x = header_file(&h, MG_TRACE_VERSION, 2);
    b_byte(&x, 0x58);
    add(out, max, &n, "bad-tag.mgt", x);
    x = header_file(&h, MG_TRACE_VERSION, 2);
    b_raw(&x, "G\0\0\0\2", 5);                  /* warp 0: 16 lanes, 1 record, 2^40 bytes */
    b_raw(&x, "\x10\x01\x80\x80\x80\x80\x80\x20", 8);
    add(out, max, &n, "huge-warp.mgt", x);
    add(out, max, &n, "records-overflow.mgt", edited(e_too_many, 2));
    add(out, max, &n, "wg-outside-grid.mgt", edited(e_outside, 2));
    add(out, max, &n, "warp-count.mgt", edited(e_warp_count, 2));
    add(out, max, &n, "lanes-over-warp.mgt", edited(e_lanes, 2));
    add(out, max, &n, "record-count-more.mgt", edited(e_count_more, 2));
    add(out, max, &n, "record-count-less.mgt", edited(e_count_less, 2));
    add(out, max, &n, "unknown-type.mgt", edited(e_unknown_type, 2));
    add(out, max, &n, "mode-in-alu.mgt", edited(e_mode_in_alu, 2));
    add(out, max, &n, "same-first.mgt", edited(e_same_first, 2));
    add(out, max, &n, "mask-prev-first.mgt", edited(e_prev_first, 2));
    add(out, max, &n, "mask-all-prev.mgt", edited(e_all_prev, 2));
    add(out, max, &n, "end-mismatch.mgt", edited(NULL, 3));
    x = hooked(NULL);
    b_byte(&x, '\n');
    add(out, max, &n, "trailing-garbage.mgt", x);
    add(out, max, &n, "image-id.mgt", hooked(h_image_id));
    add(out, max, &n, "buffer-id.mgt", hooked(h_buffer_id));
    add(out, max, &n, "buffer-overrun.mgt", hooked(h_buffer_overrun));
    add(out, max, &n, "texel-outside.mgt", hooked(h_texel_outside));
    add(out, max, &n, "local-overrun.mgt", hooked(h_local_overrun));
    add(out, max, &n, "const-on-global.mgt", hooked(h_const_on_global));
    add(out, max, &n, "negative-address.mgt", hooked(h_negative));
    add(out, max, &n, "width-zero.mgt", hooked(h_width_zero));
    add(out, max, &n, "alu-vec.mgt", hooked(h_alu_vec));
    add(out, max, &n, "alu-n-zero.mgt", hooked(h_alu_n_zero));
    x = hooked(h_keep);
    x.b[8] = 2;                                 /* a keep is version 3 */
    add(out, max, &n, "keep-in-v2.mgt", x);

    /* A 12-lane warp whose mask has a bit set for lane 15. */
    h2 = h;
    h2.global[0] = h2.local[0] = 12, h2.global[1] = h2.local[1] = 1;
    x = header_file(&h2, MG_TRACE_VERSION, 2);
    b_raw(&x, "G\0\0\0\1", 5);
    b_raw(&x, "\x0c\x01\x08" "\x01\x00\x3f\x80\x00\x01\x01\x02", 11);   /* alu, lanes 0-5 + 15 */
    b_end(&x, 1, 1);
    add(out, max, &n, "mask-padding.mgt", x);

    free(hdr.b);
    free(g0.b);
    return n;
}
