/* trace_stats.c - see trace_stats.h. */
#include "traces/trace_stats.h"
#include "traces/trace_internal.h"

#include <string.h>

/* *acc += v, saturating at UINT64_MAX. */
static void add_sat(mg_trace_stats *s, uint64_t *acc, uint64_t v)
{
    if (*acc > UINT64_MAX - v) {
        *acc = UINT64_MAX;
        s->saturated = 1;
    } else {
        *acc += v;
    }
}

/* a x b, saturating at UINT64_MAX. */
static uint64_t mul_sat(mg_trace_stats *s, uint64_t a, uint64_t b)
{
    if (a && b > UINT64_MAX / a) {
        s->saturated = 1;
        return UINT64_MAX;
    }
    return a * b;
}

void mg_trace_stats_init(mg_trace_stats *s, const mg_trace_header *h, uint32_t line_bytes,
                         uint32_t tile_w, uint32_t tile_h, size_t exact_max)
{
    memset(s, 0, sizeof *s);
    s->hdr = *h;
    s->line_bytes = line_bytes ? line_bytes : 1;
    s->tile_w = tile_w ? tile_w : 1;
    s->tile_h = tile_h ? tile_h : 1;
    s->exact = 1;
    mg_trace_lineset_init(&s->set, exact_max);
}

void mg_trace_stats_free(mg_trace_stats *s)
{
    mg_trace_lineset_free(&s->set);
}

/* Add the lines each active lane's access of a buffer touches. */
static void add_buffer_lines(mg_trace_stats *s, const mg_rec *r)
{
    uint64_t last = UINT64_MAX;            /* consecutive lanes often share a line */
    for (unsigned l = 0; l < r->lanes; l++) {
        if (!mg_rec_active(r, l) || r->a[l] < 0 || !r->width) continue;
        uint64_t first = (uint64_t)r->a[l] / s->line_bytes;
        uint64_t end = ((uint64_t)r->a[l] + r->width - 1) / s->line_bytes;
        for (uint64_t line = first; line <= end; line++) {
            if (line == last) continue;
            mg_trace_lineset_add(&s->set, r->obj, line);
            last = line;
        }
    }
}

/* Add the tiles each active lane's texel falls in. */
static void add_image_tiles(mg_trace_stats *s, const mg_rec *r)
{
    uint64_t last = UINT64_MAX;
    for (unsigned l = 0; l < r->lanes; l++) {
        if (!mg_rec_active(r, l) || r->a[l] < 0 || r->b[l] < 0) continue;
        uint64_t tx = (uint64_t)r->a[l] / s->tile_w, ty = (uint64_t)r->b[l] / s->tile_h;
        uint64_t tile = (ty << 28) | (tx & ((1u << 28) - 1));
        if (tile == last) continue;
        mg_trace_lineset_add(&s->set, MG_TRACE_MAX_OBJS + r->obj, tile);
        last = tile;
    }
}

void mg_trace_stats_add_rec(mg_trace_stats *s, const mg_rec *r)
{
    if (r->type < 1 || r->type >= MG_REC_TYPE_COUNT) return;
    uint64_t act = mg_rec_popcount(r);
    s->records++;
    s->recs[r->type]++;
    add_sat(s, &s->lanes[r->type], act);
    if (r->type == MG_REC_ALU) {
        uint64_t ops = mul_sat(s, mul_sat(s, act, r->n), r->vec);
        if (r->cls < MG_ALU_CLASS_COUNT) add_sat(s, &s->alu_ops[r->cls], ops);
        add_sat(s, &s->flops, mul_sat(s, ops, r->flops));
    } else if (r->type == MG_REC_BARRIER) {
        s->barriers++;
    } else {
        add_sat(s, &s->bytes[r->type], act * r->width);
        if (r->obj >= MG_TRACE_MAX_OBJS) return;
        if (r->type == MG_REC_TEX_READ || r->type == MG_REC_IMG_WRITE)
            add_image_tiles(s, r);
        else if (r->type != MG_REC_LOCAL_LOAD && r->type != MG_REC_LOCAL_STORE)
            add_buffer_lines(s, r);
    }
}

int mg_trace_stats_add_wg(mg_trace_stats *s, const mg_trace_wg *wg, mg_diag *d)
{
    mg_rec r;
    s->wgs++;
    for (uint32_t k = 0; k < wg->n_warps; k++) {
        mg_trace_cursor c;
        mg_trace_cursor_init(&c, wg, k);
        int rc;
        while ((rc = mg_trace_cursor_next(&c, &r, d)) == 1) mg_trace_stats_add_rec(s, &r);
        if (rc < 0) return -1;
        s->warps++;
    }
    return 0;
}

void mg_trace_stats_finish(mg_trace_stats *s)
{
    for (unsigned i = 0; i < MG_TRACE_MAX_OBJS; i++) {
        s->buf_lines[i] = mg_trace_lineset_count(&s->set, i);
        s->img_tiles[i] = mg_trace_lineset_count(&s->set, MG_TRACE_MAX_OBJS + i);
    }
    s->exact = mg_trace_lineset_exact(&s->set);
}

int mg_trace_stats_run(mg_trace_stats *s, mg_trace_source *src, uint32_t line_bytes,
                       uint32_t tile_w, uint32_t tile_h, mg_diag *d)
{
    mg_trace_stats_init(s, src->hdr, line_bytes, tile_w, tile_h, 0);
    mg_trace_wg wg;
    mg_trace_wg_init(&wg);
    int rc;
    while ((rc = src->next_wg(src->self, &wg, d)) == 1)
        if (mg_trace_stats_add_wg(s, &wg, d)) { rc = -1; break; }
    mg_trace_wg_free(&wg);
    mg_trace_stats_finish(s);
    return rc < 0 ? -1 : 0;
}
