/*
 * trace_internal.h - what the trace modules share and the outside world
 * does not need: format limits and byte layout (FORMAT.md), varints, the
 * decoder with a structured error, header and record checks, and a reader
 * over a memory buffer (the fuzz target's entry point).
 */
#ifndef MG_TRACE_INTERNAL_H
#define MG_TRACE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* ---- limits (FORMAT.md section 7) ----------------------------------------- */

#define MG_TRACE_MAX_WARPS      1024u
#define MG_TRACE_MAX_WARP_BYTES ((size_t)64 << 20)
#define MG_TRACE_MAX_WG_BYTES   ((size_t)256 << 20)
#define MG_TRACE_MAX_BUF_BYTES  ((uint64_t)1 << 48)
#define MG_TRACE_MAX_ITEMS      ((uint64_t)1 << 48)
#define MG_TRACE_MAX_IMAGE_SIDE 65536u
#define MG_TRACE_MAX_WIDTH      128u
#define MG_TRACE_MAX_VARINT     10

/* ---- byte layout ----------------------------------------------------------- */

#define MG_TRACE_TAG_GROUP 0x47        /* 'G' */
#define MG_TRACE_TAG_END   0x45        /* 'E' */

#define MG_TB_TYPE       0x0fu         /* type byte: bits 0-3 type */
#define MG_TB_ALL        0x10u         /* bit 4: all lanes active, no mask */
#define MG_TB_MODE_SHIFT 5             /* bits 5-6: address mode */
#define MG_TB_MODE       0x60u
#define MG_TB_PREV       0x80u         /* bit 7: mask of the previous record */

enum { MG_MODE_AFFINE = 0, MG_MODE_SAME = 1, MG_MODE_LIST = 2 };

/* ---- record kinds (trace_rec.c) ------------------------------------------- */

/* Nonzero for the memory types (tex, buf, local, const, img). */
int mg_rec_is_mem(int type);
/* Address values per lane: 2 for texel (x, y) types, 1 for other memory
 * types, 0 for ALU and barrier. */
int mg_rec_dims(int type);

/* ---- varints (trace_codec.c) ---------------------------------------------- */

/* Write v as LEB128 at p (room for MG_TRACE_MAX_VARINT bytes); returns the
 * bytes written. */
size_t mg_trace_put_uvar(uint8_t *p, uint64_t v);
/* Read a LEB128 value from p[*pos .. len).  Returns 0 and advances *pos;
 * -1 when the bytes end inside it; -2 when it exceeds 64 bits. */
int mg_trace_get_uvar(const uint8_t *p, size_t len, size_t *pos, uint64_t *v);
/* Zigzag: signed <-> unsigned, small magnitudes to small values. */
uint64_t mg_trace_zigzag(int64_t v);
int64_t  mg_trace_unzigzag(uint64_t z);

/* ---- decoding with a structured error (trace_decode.c) --------------------- */

typedef struct mg_trace_err {
    size_t off;          /* byte offset (in wg->bytes) of the bad record */
    char   what[256];    /* what is wrong, no place prefix */
} mg_trace_err;

/* As mg_trace_cursor_next(), with the error returned in *e instead of a
 * diag: 1 record, 0 end of warp, -1 malformed (e filled). */
int mg_trace_decode(mg_trace_cursor *c, mg_rec *r, mg_trace_err *e);

/* ---- checks against the header (trace_check.c) ----------------------------- */

/* Check a header's fields against FORMAT.md section 3.  Returns 0, or -1
 * with a reason in why (no place prefix). */
int mg_trace_check_header(const mg_trace_header *h, char *why, size_t n);

/* Check a decoded record against the header (FORMAT.md section 6): object
 * ids and spaces, every active lane's address in range.  Returns 0, or -1
 * with a reason in why. */
int mg_trace_check_rec(const mg_trace_header *h, const mg_rec *r, char *why, size_t n);

/* ---- reading from memory (trace_read.c) ----------------------------------- */

/* Like mg_trace_reader_open() over len bytes at data (not copied: they must
 * outlive the reader), named `name` in messages. */
mg_trace_reader *mg_trace_reader_open_mem(const void *data, size_t len, const char *name,
                                          mg_diag *d);

#endif
