/*
 * trace_read.c - the streaming trace reader (FORMAT.md sections 2-4, 6).
 *
 * Holds one work group at a time.  Every count is checked against a limit
 * before anything is allocated for it, a warp's bytes are read in chunks so
 * a declared length never allocates more than the file holds (plus 1 MiB),
 * and every record is decoded and checked against the header before the
 * work group is handed out.  A consumer that wants the record form
 * (wg->want_recs: the simulator) gets the group decoded once, as the
 * generator would hand it over (affine forms, not per-lane addresses),
 * within the group's record-form budget; the forms are checked at their
 * extreme lanes, and lane by lane only where that cannot vouch for them.
 * Errors are one line: the file, the record index (counting from 0 over
 * the file) where one applies, the byte offset.
 */
#include "traces/trace_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct mg_trace_reader {
    char name[4096];
    FILE *f;                     /* NULL when reading memory */
    int own_f;                   /* close f at the end (not stdin) */
    const uint8_t *mem;
    size_t mem_len;
    uint64_t off;                /* bytes consumed so far */
    mg_trace_header h;
    uint32_t warps_per_wg;
    uint64_t n_wgs, n_records;   /* read so far */
    int state;                   /* 0 reading, 1 ended cleanly, -1 failed */
    uint64_t warp_off[MG_TRACE_MAX_WARPS];   /* file offset of each warp's bytes */
    size_t rec_off[MG_TRACE_MAX_WARPS];      /* index of each warp's first kept record */
    mg_trace_drec drec;          /* scratch: a record not kept */
    int64_t vals[2 * MG_TRACE_MAX_LANES];    /* a LIST record's values */
    mg_rec rec;                  /* scratch: a record checked lane by lane */
};

/* Add "NAME: " + message to d, mark the reader failed, return -1. */
__attribute__((format(printf, 3, 4)))
static int rfail(mg_trace_reader *r, mg_diag *d, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    mg_diag_error(d, "%s: %s", r->name, msg);
    r->state = -1;
    return -1;
}

/* Report the end of the input inside `what`: truncation, or a read error. */
static int eof_fail(mg_trace_reader *r, mg_diag *d, const char *what)
{
    if (r->f && ferror(r->f))
        return rfail(r, d, "read error at byte offset %llu: %s", (unsigned long long)r->off,
                     strerror(errno));
    return rfail(r, d, "unexpected end of file at byte offset %llu, inside %s (truncated file?)",
                 (unsigned long long)r->off, what);
}

/* Next byte, or -1 at the end of the input. */
static int rd_byte(mg_trace_reader *r)
{
    int c;
    if (r->f) {
        c = getc(r->f);
        if (c == EOF) return -1;
    } else {
        if (r->off >= r->mem_len) return -1;
        c = r->mem[r->off];
    }
    r->off++;
    return c;
}

/* Read up to n bytes into dst; returns the count read. */
static size_t rd_bytes(mg_trace_reader *r, uint8_t *dst, size_t n)
{
    size_t k;
    if (r->f) {
        k = fread(dst, 1, n, r->f);
    } else {
        k = r->mem_len - r->off < n ? (size_t)(r->mem_len - r->off) : n;
        memcpy(dst, r->mem + r->off, k);
    }
    r->off += k;
    return k;
}

/* Read a uvar that must be <= max; `what` names the field. */
static int rd_uvar(mg_trace_reader *r, mg_diag *d, uint64_t max, const char *what, uint64_t *v)
{
    uint64_t start = r->off, x = 0;
    for (int shift = 0;; shift += 7) {
        int c = rd_byte(r);
        if (c < 0) return eof_fail(r, d, what);
        if (shift == 63 && (c & 0xfe))
            return rfail(r, d, "byte offset %llu: %s: varint longer than 64 bits",
                         (unsigned long long)start, what);
        x |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) break;
    }
    if (x > max)
        return rfail(r, d, "byte offset %llu: %s %llu out of range (at most %llu)",
                     (unsigned long long)start, what, (unsigned long long)x,
                     (unsigned long long)max);
    *v = x;
    return 0;
}

/* Read a uvar into a uint32_t field. */
static int rd_u32(mg_trace_reader *r, mg_diag *d, const char *what, uint32_t *out)
{
    uint64_t v;
    if (rd_uvar(r, d, UINT32_MAX, what, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Read a str field of at most cap-1 bytes into out (NUL-terminated). */
static int rd_str(mg_trace_reader *r, mg_diag *d, size_t cap, const char *what, char *out)
{
    uint64_t n;
    if (rd_uvar(r, d, cap - 1, what, &n)) return -1;
    if (rd_bytes(r, (uint8_t *)out, (size_t)n) != n) return eof_fail(r, d, what);
    out[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)out[i] < 0x20 || (unsigned char)out[i] > 0x7e)
            return rfail(r, d, "byte offset %llu: %s has a byte 0x%02x that is not printable ASCII",
                         (unsigned long long)(r->off - n + i), what, (unsigned char)out[i]);
    return 0;
}

/* Read magic, version and header fields into r->h, then check them. */
static int read_header(mg_trace_reader *r, mg_diag *d)
{
    uint8_t magic[8];
    size_t k = rd_bytes(r, magic, 8);
    if (k < 8 && memcmp(magic, MG_TRACE_MAGIC, k) == 0)
        return eof_fail(r, d, "the magic number");
    if (memcmp(magic, MG_TRACE_MAGIC, 8))
        return rfail(r, d, "byte offset 0: not a trace file (bad magic: expected \"MGTRACE\" and a NUL byte)");
    mg_trace_header *h = &r->h;
    uint64_t at = r->off, v;
    if (rd_uvar(r, d, UINT32_MAX, "format version", &v)) return -1;
    if (v < 1 || v > MG_TRACE_VERSION)
        return rfail(r, d, "byte offset %llu: trace format version %llu is not supported (this reader knows versions 1 to %d)",
                     (unsigned long long)at, (unsigned long long)v, MG_TRACE_VERSION);
    h->version = (uint32_t)v;
    at = r->off;
    if (rd_str(r, d, sizeof h->kernel, "kernel name", h->kernel)) return -1;
    for (int i = 0; i < 3; i++)
        if (rd_u32(r, d, "global size", &h->global[i])) return -1;
    for (int i = 0; i < 3; i++)
        if (rd_u32(r, d, "local size", &h->local[i])) return -1;
    if (rd_u32(r, d, "warp width", &h->warp_width) ||
        rd_u32(r, d, "registers per item", &h->regs_per_item) ||
        rd_u32(r, d, "local bytes", &h->local_bytes) ||
        rd_u32(r, d, "image count", &h->n_images))
        return -1;
    if (h->n_images > MG_TRACE_MAX_OBJS)
        return rfail(r, d, "byte offset %llu: %u images (at most %u)",
                     (unsigned long long)r->off - 1, h->n_images, MG_TRACE_MAX_OBJS);
    for (uint32_t i = 0; i < h->n_images; i++) {
        mg_trace_image *im = &h->images[i];
        uint32_t ch, ty;
        if (rd_str(r, d, sizeof im->name, "image name", im->name) ||
            rd_u32(r, d, "image width", &im->width) || rd_u32(r, d, "image height", &im->height) ||
            rd_u32(r, d, "image channels", &ch) || rd_u32(r, d, "image texel type", &ty) ||
            rd_u32(r, d, "image texel bytes", &im->texel_bytes))
            return -1;
        im->channels = ch > 255 ? 255 : (uint8_t)ch;      /* out of range: caught below */
        im->type = ty > 255 ? 255 : (uint8_t)ty;
    }
    if (rd_u32(r, d, "buffer count", &h->n_buffers)) return -1;
    if (h->n_buffers > MG_TRACE_MAX_OBJS)
        return rfail(r, d, "byte offset %llu: %u buffers (at most %u)",
                     (unsigned long long)r->off - 1, h->n_buffers, MG_TRACE_MAX_OBJS);
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        mg_trace_buffer *b = &h->buffers[i];
        uint32_t sp, el = 0;
        if (rd_str(r, d, sizeof b->name, "buffer name", b->name) ||
            rd_uvar(r, d, UINT64_MAX, "buffer bytes", &b->bytes) ||
            rd_u32(r, d, "buffer space", &sp) ||
            (h->version >= 2 && rd_u32(r, d, "buffer element bytes", &el)))
            return -1;
        b->space = sp > 255 ? 255 : (uint8_t)sp;
        b->elem = el > 255 ? 255 : (uint8_t)el;             /* out of range: caught below */
    }
    char why[256];
    if (mg_trace_check_header(h, why, sizeof why))
        return rfail(r, d, "header at byte offset %llu: %s", (unsigned long long)at, why);
    r->warps_per_wg = mg_trace_warps_per_wg(h);
    return 0;
}

/* Allocate a reader named `name`; NULL (and an error in d) on OOM. */
static mg_trace_reader *reader_new(const char *name, mg_diag *d)
{
    mg_trace_reader *r = calloc(1, sizeof *r);
    if (!r) {
        mg_diag_error(d, "%s: out of memory", name);
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

/* Read and check the header of a freshly opened reader; closes it and
 * returns NULL on failure. */
static mg_trace_reader *reader_start(mg_trace_reader *r, mg_diag *d)
{
    if (read_header(r, d)) {
        mg_trace_reader_close(r);
        return NULL;
    }
    return r;
}

mg_trace_reader *mg_trace_reader_open(const char *path, mg_diag *d)
{
    mg_trace_reader *r = reader_new(path, d);
    if (!r) return NULL;
    if (!strcmp(path, "-")) {
        r->f = stdin;
    } else {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            mg_diag_error(d, "%s: is a directory, expected a trace file", path);
            free(r);
            return NULL;
        }
        r->f = fopen(path, "rb");
        if (!r->f) {
            mg_diag_error(d, "%s: cannot open: %s", path, strerror(errno));
            free(r);
            return NULL;
        }
        r->own_f = 1;
    }
    return reader_start(r, d);
}

mg_trace_reader *mg_trace_reader_open_mem(const void *data, size_t len, const char *name,
                                          mg_diag *d)
{
    mg_trace_reader *r = reader_new(name, d);
    if (!r) return NULL;
    r->mem = data;
    r->mem_len = len;
    return reader_start(r, d);
}

const mg_trace_header *mg_trace_reader_header(const mg_trace_reader *r)
{
    return &r->h;
}

void mg_trace_reader_close(mg_trace_reader *r)
{
    if (!r) return;
    if (r->own_f) fclose(r->f);
    free(r);
}

/* Read the end marker's totals (the tag is consumed) and check them and
 * that the input ends there.  Returns 0, or -1. */
static int read_end(mg_trace_reader *r, mg_diag *d)
{
    uint64_t at = r->off - 1, nw, nr;
    if (rd_uvar(r, d, UINT64_MAX, "the end marker's work-group count", &nw) ||
        rd_uvar(r, d, UINT64_MAX, "the end marker's record count", &nr))
        return -1;
    if (nw != r->n_wgs || nr != r->n_records)
        return rfail(r, d, "end marker at byte offset %llu says %llu work groups and %llu records, the file holds %llu and %llu",
                     (unsigned long long)at, (unsigned long long)nw, (unsigned long long)nr,
                     (unsigned long long)r->n_wgs, (unsigned long long)r->n_records);
    if (rd_byte(r) >= 0)
        return rfail(r, d, "byte offset %llu: trailing bytes after the end marker",
                     (unsigned long long)r->off - 1);
    r->state = 1;
    return 0;
}

/* Read n bytes of warp data onto the end of wg->bytes, growing it by at
 * most 1 MiB beyond what has actually been read. */
static int read_warp_bytes(mg_trace_reader *r, mg_trace_wg *wg, size_t n, mg_diag *d)
{
    while (n) {
        size_t chunk = n < ((size_t)1 << 20) ? n : ((size_t)1 << 20);
        if (wg->cap - wg->len < chunk) {
            size_t cap = wg->cap ? wg->cap : 4096;
            while (cap - wg->len < chunk) cap *= 2;
            uint8_t *b = realloc(wg->bytes, cap);
            if (!b) return rfail(r, d, "out of memory reading a work group");
            wg->bytes = b;
            wg->cap = cap;
        }
        size_t k = rd_bytes(r, wg->bytes + wg->len, chunk);
        wg->len += k;
        if (k < chunk) return eof_fail(r, d, "a warp's records");
        n -= chunk;
    }
    return 0;
}

/* Make room in wg's record form for every record its warp headers
 * declare, within the group's budget (trace.h, recs_max).  Returns 1, or
 * 0 when they would not fit (the group then stays in bytes form). */
static int recs_reserve(mg_trace_wg *wg)
{
    size_t n = 0, max = wg->recs_max ? wg->recs_max : MG_TRACE_RECS_MAX;
    for (uint32_t k = 0; k < wg->n_warps; k++) n += wg->warps[k].n_records;
    if (n > max / sizeof *wg->recs) return 0;
    if (wg->recs_cap < n) {
        mg_trace_drec *q = realloc(wg->recs, n * sizeof *q);
        if (!q) return 0;
        wg->recs = q;
        wg->recs_cap = n;
    }
    wg->nrecs = wg->npool = 0;
    return 1;
}

/* Keep record q (decoded in place at wg->recs[wg->nrecs]) and, for a
 * list, its values in wg->pool.  Returns 1, or 0 when the pool would
 * outgrow the group's budget (or memory): nothing more is kept. */
static int keep_rec(mg_trace_wg *wg, mg_trace_drec *q, const int64_t *vals)
{
    if (q->list) {
        size_t n = (size_t)(mg_popcount64(q->mask[0]) + mg_popcount64(q->mask[1])) *
                   (size_t)mg_rec_dims(q->type);
        size_t max = wg->recs_max ? wg->recs_max : MG_TRACE_RECS_MAX;
        size_t need = wg->npool + n;
        if (wg->nrecs * sizeof *wg->recs + need * sizeof *wg->pool > max) return 0;
        if (wg->pool_cap < need) {
            size_t cap = wg->pool_cap ? wg->pool_cap : 1024;
            while (cap < need) cap *= 2;
            int64_t *pl = realloc(wg->pool, cap * sizeof *pl);
            if (!pl) return 0;
            wg->pool = pl;
            wg->pool_cap = cap;
        }
        q->base[0] = (int64_t)wg->npool;
        if (n) memcpy(wg->pool + wg->npool, vals, n * sizeof *vals);
        wg->npool = need;
    }
    wg->nrecs++;
    return 1;
}

/* Check record q of warp c against the header the cheap way, and when
 * that cannot vouch for it, lane by lane (the verdict and message of
 * mg_trace_check_rec()).  0, or -1 with the reason in e->what. */
static int check_drec(mg_trace_reader *r, mg_trace_cursor *c, const mg_trace_drec *q,
                      uint32_t lanes, mg_trace_err *e)
{
    if (mg_trace_check_drec(&r->h, q, lanes, r->vals)) return 0;
    mg_trace_drec_expand(c, q, r->vals, lanes, &r->rec);
    return mg_trace_check_rec(&r->h, &r->rec, e->what, sizeof e->what);
}

/* Decode every record of wg and check it against the header; the first
 * failure is reported with its record index (over the file) and the file
 * offset of the record.  When the consumer wants the record form
 * (wg->want_recs) and the group fits its budget, the records are decoded
 * straight into it and the group is handed out in record form; else it
 * stays in bytes form. */
static int check_wg(mg_trace_reader *r, mg_trace_wg *wg, mg_diag *d)
{
    uint64_t index = r->n_records;
    int keep = wg->want_recs && recs_reserve(wg);
    for (uint32_t k = 0; k < wg->n_warps; k++) {
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, wg, k);
        uint32_t lanes = wg->warps[k].lanes;
        mg_trace_err e;
        int rc;
        r->rec_off[k] = wg->nrecs;
        for (;;) {
            size_t start = c.pos;
            /* (with keep, a record always finds room: recs_reserve()
             * made it for the counts the warp headers declare, which
             * bound the records decoded) */
            int in_place = keep && wg->nrecs < wg->recs_cap;
            mg_trace_drec *q = in_place ? &wg->recs[wg->nrecs] : &r->drec;
            rc = mg_trace_decode_drec(&c, q, r->vals, &e);
            if (rc <= 0) break;
            if (check_drec(r, &c, q, lanes, &e)) {
                e.off = start;
                c.index--;                   /* name the record that failed */
                rc = -1;
                break;
            }
            if (keep) keep = in_place && keep_rec(wg, q, r->vals);
        }
        if (rc < 0)
            return rfail(r, d, "record %llu at byte offset %llu (work group %u,%u,%u, warp %u): %s",
                         (unsigned long long)(index + c.index),
                         (unsigned long long)(r->warp_off[k] + (e.off - wg->warps[k].off)),
                         wg->id[0], wg->id[1], wg->id[2], k, e.what);
        index += c.index;
    }
    if (keep) {                              /* hand the group out in record form */
        for (uint32_t k = 0; k < wg->n_warps; k++) {
            wg->warps[k].off = r->rec_off[k];
            wg->warps[k].len = wg->warps[k].n_records;
        }
        wg->in_recs = 1;
    }
    return 0;
}

/* Read warp k's header and bytes into wg; rec_index is the file-wide
 * index of its first record (for messages), *total sums the group's
 * bytes against the limit. */
static int read_warp(mg_trace_reader *r, mg_trace_wg *wg, uint32_t k, uint64_t rec_index,
                     size_t *total, mg_diag *d)
{
    uint64_t wat = r->off, lanes, nrec, len;
    if (rd_uvar(r, d, UINT32_MAX, "a warp's lane count", &lanes) ||
        rd_uvar(r, d, UINT32_MAX, "a warp's record count", &nrec) ||
        rd_uvar(r, d, UINT64_MAX, "a warp's byte length", &len))
        return -1;
    char place[160];
    snprintf(place, sizeof place,
             "warp %u of work group %u,%u,%u at byte offset %llu (before record %llu): ", k,
             wg->id[0], wg->id[1], wg->id[2], (unsigned long long)wat,
             (unsigned long long)rec_index);
    if (lanes < 1 || lanes > r->h.warp_width)
        return rfail(r, d, "%s%llu lanes, %s the warp width %u", place, (unsigned long long)lanes,
                     lanes ? "more than" : "expected 1 up to", r->h.warp_width);
    if (len > MG_TRACE_MAX_WARP_BYTES)
        return rfail(r, d, "%s%llu bytes of records, more than the %zu MiB limit", place,
                     (unsigned long long)len, MG_TRACE_MAX_WARP_BYTES >> 20);
    if (nrec > len / 2)
        return rfail(r, d, "%s%llu records cannot fit in %llu bytes (a record takes at least 2)",
                     place, (unsigned long long)nrec, (unsigned long long)len);
    *total += (size_t)len;
    if (*total > MG_TRACE_MAX_WG_BYTES)
        return rfail(r, d, "%sthe work group's records exceed the %zu MiB limit", place,
                     MG_TRACE_MAX_WG_BYTES >> 20);
    mg_trace_warp *w = &wg->warps[k];
    w->off = wg->len;
    w->len = (size_t)len;
    w->lanes = (uint32_t)lanes;
    w->n_records = (uint32_t)nrec;
    wg->n_warps = k + 1;
    r->warp_off[k] = r->off;
    return read_warp_bytes(r, wg, (size_t)len, d);
}

int mg_trace_reader_next_wg(mg_trace_reader *r, mg_trace_wg *wg, mg_diag *d)
{
    if (r->state) return r->state > 0 ? 0 : -1;
    uint64_t at = r->off;
    int tag = rd_byte(r);
    if (tag < 0) return eof_fail(r, d, "the work-group list, before the end marker");
    if (tag == MG_TRACE_TAG_END) return read_end(r, d) ? -1 : 0;
    if (tag != MG_TRACE_TAG_GROUP)
        return rfail(r, d, "byte offset %llu: unknown tag 0x%02x (expected 0x47, a work group, or 0x45, the end marker)",
                     (unsigned long long)at, tag);
    const mg_trace_header *h = &r->h;
    uint32_t id[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (rd_u32(r, d, "a work-group id", &id[i])) return -1;
        if (id[i] >= h->global[i] / h->local[i])
            return rfail(r, d, "work group at byte offset %llu: id %u,%u,%u outside the %u x %u x %u launch grid",
                         (unsigned long long)at, id[0], id[1], id[2], h->global[0] / h->local[0],
                         h->global[1] / h->local[1], h->global[2] / h->local[2]);
    }
    uint64_t nw;
    if (rd_uvar(r, d, UINT32_MAX, "a work group's warp count", &nw)) return -1;
    if (nw != r->warps_per_wg)
        return rfail(r, d, "work group %u,%u,%u at byte offset %llu: warp count %llu, the header makes %u (%u x %u x %u items in warps of %u)",
                     id[0], id[1], id[2], (unsigned long long)at, (unsigned long long)nw,
                     r->warps_per_wg, h->local[0], h->local[1], h->local[2], h->warp_width);
    mg_trace_wg_begin(wg, id);
    wg->in_recs = 0;                 /* the reader keeps the bytes it checked */
    if (wg->warps_cap < nw) {
        mg_trace_warp *w = realloc(wg->warps, (size_t)nw * sizeof *w);
        if (!w) return rfail(r, d, "out of memory reading a work group");
        wg->warps = w;
        wg->warps_cap = (uint32_t)nw;
    }
    size_t total = 0;
    uint64_t index = r->n_records;
    for (uint32_t k = 0; k < nw; k++) {
        if (read_warp(r, wg, k, index, &total, d)) return -1;
        index += wg->warps[k].n_records;
    }
    if (check_wg(r, wg, d)) return -1;
    r->n_wgs++;
    r->n_records = index;
    return 1;
}

static int reader_next(void *self, mg_trace_wg *wg, mg_diag *d)
{
    return mg_trace_reader_next_wg(self, wg, d);
}

mg_trace_source mg_trace_reader_source(mg_trace_reader *r)
{
    mg_trace_source s = {&r->h, reader_next, r, NULL, NULL};      /* no random access */
    return s;
}
