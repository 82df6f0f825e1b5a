/*
 * trace_stats.h - summary statistics of a trace, computed in one streaming
 * pass over any mg_trace_source (a file reader or the generator).  Printing
 * is the caller's business (`mgsim trace stats`, sim/cli/cmd_trace.c).
 *
 * Definitions (per record r with `act` active lanes):
 *   lane accesses[type]  sum of act                     (memory types)
 *   bytes[type]          sum of act x r.width           (memory types)
 *   alu_ops[cls]         sum of act x r.n x r.vec       (ALU records)
 *   flops                sum of act x r.n x r.vec x r.flops
 *   buffer lines         distinct (byte address / line) over every byte a
 *                        buffer or constant access touches, per buffer
 *   image tiles          distinct (x / tile_w, y / tile_h) per image, over
 *                        tex_read and img_write
 * Counters saturate at UINT64_MAX (and set `saturated`) rather than wrap.
 */
#ifndef MG_TRACE_STATS_H
#define MG_TRACE_STATS_H

#include <stdint.h>

#include "traces/trace.h"
#include "traces/trace_lineset.h"

typedef struct mg_trace_stats {
    mg_trace_header hdr;                   /* copy of the trace's header */
    uint32_t line_bytes, tile_w, tile_h;   /* granularity of distinct counts */
    uint64_t wgs, warps, records;
    uint64_t recs[MG_REC_TYPE_COUNT];      /* records by type */
    uint64_t lanes[MG_REC_TYPE_COUNT];     /* active lanes by type */
    uint64_t bytes[MG_REC_TYPE_COUNT];     /* lane accesses x width, memory types */
    uint64_t alu_ops[MG_ALU_CLASS_COUNT];  /* element operations by class */
    uint64_t flops;
    uint64_t barriers;                     /* barrier records (= recs[BARRIER]) */
    uint64_t buf_lines[MG_TRACE_MAX_OBJS]; /* distinct lines per buffer (after finish) */
    uint64_t img_tiles[MG_TRACE_MAX_OBJS]; /* distinct tiles per image (after finish) */
    int      exact;                        /* 1: line and tile counts are exact */
    int      saturated;                    /* 1: some counter hit UINT64_MAX */
    mg_trace_lineset set;                  /* buffers in slots 0..31, images 32..63 */
} mg_trace_stats;

/* Start empty statistics for a trace with header h, counting distinct lines
 * of line_bytes and tiles of tile_w x tile_h texels (each >= 1), exact up
 * to exact_max distinct lines and tiles (0: MG_LINESET_EXACT_MAX). */
void mg_trace_stats_init(mg_trace_stats *s, const mg_trace_header *h, uint32_t line_bytes,
                         uint32_t tile_w, uint32_t tile_h, size_t exact_max);
void mg_trace_stats_free(mg_trace_stats *s);

/* Count one decoded record. */
void mg_trace_stats_add_rec(mg_trace_stats *s, const mg_rec *r);

/* Decode and count every record of a work group.  Returns 0, or -1 on
 * malformed bytes (message in d). */
int mg_trace_stats_add_wg(mg_trace_stats *s, const mg_trace_wg *wg, mg_diag *d);

/* Fill buf_lines, img_tiles and exact from the distinct-line sets. */
void mg_trace_stats_finish(mg_trace_stats *s);

/* Consume a whole source: init (with the source's header), every work
 * group, finish.  Returns 0, or -1 with the message in d (s is still
 * initialized and must be freed). */
int mg_trace_stats_run(mg_trace_stats *s, mg_trace_source *src, uint32_t line_bytes,
                       uint32_t tile_w, uint32_t tile_h, mg_diag *d);

#endif
