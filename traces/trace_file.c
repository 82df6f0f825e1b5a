/*
 * trace_file.c - the trace file writer (FORMAT.md sections 2-4): header,
 * work groups, end marker, written to a temporary file and renamed into
 * place on close (base/afile), so a failed or aborted write leaves nothing.
 * The reader is trace_read.c.
 */
#include "traces/trace_internal.h"
#include "base/afile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mg_trace_writer {
    mg_afile af;
    mg_trace_header h;
    uint32_t warps_per_wg;
    uint64_t n_wgs, n_records;
};

/* Write v as a uvar to f. */
static void w_uvar(FILE *f, uint64_t v)
{
    uint8_t b[MG_TRACE_MAX_VARINT];
    fwrite(b, 1, mg_trace_put_uvar(b, v), f);
}

/* Write a str field (length, then bytes). */
static void w_str(FILE *f, const char *s)
{
    size_t n = strlen(s);
    w_uvar(f, n);
    fwrite(s, 1, n, f);
}

/* Write magic, version and header fields (FORMAT.md sections 2-3). */
static void write_header(FILE *f, const mg_trace_header *h)
{
    fwrite(MG_TRACE_MAGIC, 1, 8, f);               /* 7 characters and the NUL */
    w_uvar(f, MG_TRACE_VERSION);
    w_str(f, h->kernel);
    for (int i = 0; i < 3; i++) w_uvar(f, h->global[i]);
    for (int i = 0; i < 3; i++) w_uvar(f, h->local[i]);
    w_uvar(f, h->warp_width);
    w_uvar(f, h->regs_per_item);
    w_uvar(f, h->local_bytes);
    w_uvar(f, h->n_images);
    for (uint32_t i = 0; i < h->n_images; i++) {
        const mg_trace_image *im = &h->images[i];
        w_str(f, im->name);
        w_uvar(f, im->width);
        w_uvar(f, im->height);
        w_uvar(f, im->channels);
        w_uvar(f, im->type);
        w_uvar(f, im->texel_bytes);
    }
    w_uvar(f, h->n_buffers);
    for (uint32_t i = 0; i < h->n_buffers; i++) {
        w_str(f, h->buffers[i].name);
        w_uvar(f, h->buffers[i].bytes);
        w_uvar(f, h->buffers[i].space);
        w_uvar(f, h->buffers[i].elem);
    }
}

mg_trace_writer *mg_trace_writer_open(const char *path, const mg_trace_header *h, mg_diag *d)
{
    char why[256];
    if (mg_trace_check_header(h, why, sizeof why)) {
        mg_diag_error(d, "%s: cannot write trace: header: %s", path, why);
        return NULL;
    }
    mg_trace_writer *w = calloc(1, sizeof *w);
    if (!w) {
        mg_diag_error(d, "%s: out of memory", path);
        return NULL;
    }
    if (!mg_afile_open(&w->af, path)) {
        mg_diag_error(d, "%s: cannot write: %s", path, strerror(errno));
        free(w);
        return NULL;
    }
    w->h = *h;
    w->h.version = MG_TRACE_VERSION;
    w->warps_per_wg = mg_trace_warps_per_wg(h);
    write_header(w->af.f, &w->h);
    return w;
}

int mg_trace_writer_put_wg(mg_trace_writer *w, const mg_trace_wg *wg, mg_diag *d)
{
    const char *path = w->af.path;
    if (wg->in_recs) {               /* records kept decoded: encode them first */
        mg_trace_wg enc;
        mg_trace_wg_init(&enc);
        int rc = mg_trace_wg_encode(&enc, wg);
        if (rc) mg_diag_error(d, "%s: out of memory encoding a work group", path);
        else rc = mg_trace_writer_put_wg(w, &enc, d);
        mg_trace_wg_free(&enc);
        return rc;
    }
    for (int i = 0; i < 3; i++)
        if (wg->id[i] >= w->h.global[i] / w->h.local[i]) {
            mg_diag_error(d, "%s: work group id (%u, %u, %u) outside the launch grid", path,
                          wg->id[0], wg->id[1], wg->id[2]);
            return -1;
        }
    if (wg->n_warps != w->warps_per_wg) {
        mg_diag_error(d, "%s: work group (%u, %u, %u) has %u warps, the header makes %u", path,
                      wg->id[0], wg->id[1], wg->id[2], wg->n_warps, w->warps_per_wg);
        return -1;
    }
    size_t total = 0;
    for (uint32_t k = 0; k < wg->n_warps; k++) {
        const mg_trace_warp *wp = &wg->warps[k];
        total += wp->len == SIZE_MAX ? 0 : wp->len;
        if (wp->len == SIZE_MAX || wp->lanes < 1 || wp->lanes > w->h.warp_width ||
            wp->len > MG_TRACE_MAX_WARP_BYTES || total > MG_TRACE_MAX_WG_BYTES) {
            mg_diag_error(d, "%s: work group (%u, %u, %u) warp %u: open, %u lanes (warp width %u)"
                             " or too many bytes for the trace format",
                          path, wg->id[0], wg->id[1], wg->id[2], k, wp->lanes, w->h.warp_width);
            return -1;
        }
    }
    FILE *f = w->af.f;
    fputc(MG_TRACE_TAG_GROUP, f);
    for (int i = 0; i < 3; i++) w_uvar(f, wg->id[i]);
    w_uvar(f, wg->n_warps);
    for (uint32_t k = 0; k < wg->n_warps; k++) {
        const mg_trace_warp *wp = &wg->warps[k];
        w_uvar(f, wp->lanes);
        w_uvar(f, wp->n_records);
        w_uvar(f, wp->len);
        if (wp->len) fwrite(wg->bytes + wp->off, 1, wp->len, f);    /* (no bytes: maybe no buffer) */
        w->n_records += wp->n_records;
    }
    w->n_wgs++;
    if (ferror(f)) {
        mg_diag_error(d, "%s: write failed: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int mg_trace_writer_close(mg_trace_writer *w, mg_diag *d)
{
    fputc(MG_TRACE_TAG_END, w->af.f);
    w_uvar(w->af.f, w->n_wgs);
    w_uvar(w->af.f, w->n_records);
    int rc = 0;
    if (mg_afile_commit(&w->af)) {
        mg_diag_error(d, "%s: write failed: %s", w->af.path, strerror(errno));
        rc = -1;
    }
    free(w);
    return rc;
}

void mg_trace_writer_abort(mg_trace_writer *w)
{
    if (!w) return;
    mg_afile_abort(&w->af);
    free(w);
}

int mg_trace_write_all(const char *path, mg_trace_source *src, mg_diag *d)
{
    mg_trace_writer *w = mg_trace_writer_open(path, src->hdr, d);
    if (!w) return -1;
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int rc;
    while ((rc = src->next_wg(src->self, &wg, d)) == 1)
        if (mg_trace_writer_put_wg(w, &wg, d)) { rc = -1; break; }
    mg_trace_wg_free(&wg);
    if (rc < 0) {
        mg_trace_writer_abort(w);
        return -1;
    }
    return mg_trace_writer_close(w, d);
}
