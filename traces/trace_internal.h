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

#include "traces/trace.h"

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
/* The mode bits of an ALU record (version 3): 1 when a uvar `keep` ends
 * its body (FORMAT.md 5.1), 0 when it waits for every load. */
#define MG_ALU_MODE_KEEP 1u

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

/* ---- affine address forms (trace_codec.c) ---------------------------------- */

/* An affine form of one record's addresses (FORMAT.md 5.3): lane l of
 * dimension d is base[d] + a[d] x (l % p) + c[d] x (l / p). */
typedef struct mg_trace_affine {
    uint32_t p;
    int64_t base[2], a[2], c[2];
} mg_trace_affine;

/* Fit the active lanes act[0..n) (ascending, n >= 1) of memory record r
 * with row width p.  Returns 1 with *f when every lane fits, else 0. */
int mg_trace_fit_affine(const mg_rec *r, const uint8_t *act, unsigned n, uint32_t p,
                        mg_trace_affine *f);

/* The MG_FORM_* bits of an affine form over `dims` dimensions. */
static inline uint8_t mg_trace_form_bits(int dims, const int64_t a[2], const int64_t c[2])
{
    int rows_same = 1, row_const = 1;
    for (int d = 0; d < dims; d++) {
        rows_same &= c[d] == 0;
        row_const &= a[d] == 0;
    }
    return (uint8_t)((rows_same ? MG_FORM_ROWS_SAME : 0u) | (row_const ? MG_FORM_ROW_CONST : 0u));
}

/* ---- the record form of a work group (trace_drec.c) -------------------------- */

/* Append record r (checked by mg_trace_wg_put; full: every lane of the warp
 * is active) to the open warp of wg, which is in record form.  Returns 0,
 * -1 on OOM. */
int mg_trace_drec_put(mg_trace_wg *wg, const mg_rec *r, int full);

/* Put memory record r, every field but the addresses set, with the
 * addresses of its active lanes given by the affine form f (f->p in
 * 1..r->lanes; dimension 1 ignored for 1D types): in record form the
 * form is stored as it is, with no per-lane work and no fitting;
 * otherwise (bytes, or a group past its record-form budget) r's active
 * lanes are filled from f and r is put with mg_trace_wg_put().  The same
 * records either way.  Returns 0, -1 as mg_trace_wg_put(). */
int mg_trace_wg_put_affine(mg_trace_wg *wg, mg_rec *r, const mg_trace_affine *f);

/* An affine form in planes (mg_trace_drec with q > 0): rows of f.p lanes
 * as in f, q rows to a plane, plane k of a block adding e x k, block b
 * (of q2 planes; q2 = 0: one unbounded block) adding g x b; lane 0 is
 * lane `off` of block 0 (off a multiple of f.p, below f.p x q x q2, or
 * f.p x q with q2 = 0). */
typedef struct mg_trace_planes {
    mg_trace_affine f;
    uint32_t q, q2, off;
    int64_t  e[2], g[2];
} mg_trace_planes;

/* As mg_trace_wg_put_affine() with the form in planes f.  In record form
 * the record's form bits (trace.h) are ROW_CONST when lanes within a row
 * share their address (a = 0), else none; the encoded form fits the
 * addresses afresh. */
int mg_trace_wg_put_planes(mg_trace_wg *wg, mg_rec *r, const mg_trace_planes *f);

/* Write v[l] = base + a x (l % p) + c x (l / p) (wrapping) for the lanes
 * l < lanes set in mask. */
void mg_trace_expand(int64_t *v, const uint64_t mask[2], uint32_t lanes, int64_t base, int64_t a,
                     int64_t c, uint32_t p);

/* Fill the addresses of r's lanes ln[0..n) (ascending) from the affine
 * form (p, base, a, c) over dims dimensions (b = 0 when dims is 1): the
 * partial fill of a distinct_only cursor. */
void mg_trace_expand_lanes(mg_rec *r, int dims, uint32_t p, const int64_t base[2],
                           const int64_t a[2], const int64_t c[2], const uint8_t *ln, uint32_t n);

/* Expand the next record of cursor c (over a group in record form) into
 * *r, as the decoder would.  Returns 1, or 0 at the end of the warp. */
int mg_trace_drec_next(mg_trace_cursor *c, mg_rec *r);

/* Expand record q of a warp of `lanes` lanes into *r (vals: a list's
 * values, dims per active lane in lane order; unused for a form), as
 * mg_trace_drec_next() does, honouring c->distinct_only (c->prev_mask is
 * left as it is). */
void mg_trace_drec_expand(mg_trace_cursor *c, const mg_trace_drec *q, const int64_t *vals,
                          uint32_t lanes, mg_rec *r);

/* Encode wg, in record form, in place: its records so far, the open warp
 * (if any) left open with the encoder's state to go on.  Returns 0, -1 on
 * OOM (wg unchanged). */
int mg_trace_wg_to_bytes(mg_trace_wg *wg);

/* Re-encode every record of src (either form) into dst, bytes form, the
 * same bytes the generator would have put.  Returns 0, -1 on OOM. */
int mg_trace_wg_encode(mg_trace_wg *dst, const mg_trace_wg *src);

/* ---- decoding with a structured error (trace_decode.c) --------------------- */

typedef struct mg_trace_err {
    size_t off;          /* byte offset (in wg->bytes) of the bad record */
    char   what[256];    /* what is wrong, no place prefix */
} mg_trace_err;

/* As mg_trace_cursor_next(), with the error returned in *e instead of a
 * diag: 1 record, 0 end of warp, -1 malformed (e filled). */
int mg_trace_decode(mg_trace_cursor *c, mg_rec *r, mg_trace_err *e);

/* Decode the next record of c's warp, which must be in bytes form, into
 * the record form q (its form as the file gives it: p, base, a, c; q, q2,
 * off, e, g zero), a LIST's values, dims per active lane in lane order,
 * into vals (room for 2 x MG_TRACE_MAX_LANES) with q->list set and
 * q->base[0] left 0.  Every check of mg_trace_decode() is made, with the
 * same messages.  1 record, 0 end of warp, -1 malformed (e filled). */
int mg_trace_decode_drec(mg_trace_cursor *c, mg_trace_drec *q, int64_t *vals, mg_trace_err *e);

/* ---- checks against the header (trace_check.c) ----------------------------- */

/* Check a header's fields against FORMAT.md section 3.  Returns 0, or -1
 * with a reason in why (no place prefix). */
int mg_trace_check_header(const mg_trace_header *h, char *why, size_t n);

/* Check a decoded record against the header (FORMAT.md section 6): object
 * ids and spaces, every active lane's address in range.  Returns 0, or -1
 * with a reason in why. */
int mg_trace_check_rec(const mg_trace_header *h, const mg_rec *r, char *why, size_t n);

/* The same checks on record q of a warp of `lanes` lanes in record form
 * (vals: a list's values, as mg_trace_decode_drec() gives them), without
 * expanding it: an affine form is checked at its extreme active lanes
 * (the first and last active lane of each row), whose exact values bound
 * every active lane's.  Returns 1 when q passes every check of
 * mg_trace_check_rec(), 0 when it may not (a check fails, or a value
 * would wrap): the caller then expands q and calls mg_trace_check_rec()
 * for the verdict and its message. */
int mg_trace_check_drec(const mg_trace_header *h, const mg_trace_drec *q, uint32_t lanes,
                        const int64_t *vals);

/* ---- reading from memory (trace_read.c) ----------------------------------- */

/* Like mg_trace_reader_open() over len bytes at data (not copied: they must
 * outlive the reader), named `name` in messages. */
mg_trace_reader *mg_trace_reader_open_mem(const void *data, size_t len, const char *name,
                                          mg_diag *d);

#endif
