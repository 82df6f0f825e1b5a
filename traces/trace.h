/*
 * trace.h - the access-trace model (format v3) and its stream API.
 *
 * A trace is what one kernel launch does, warp instruction by warp
 * instruction: ALU work, texture reads, buffer loads/stores, local memory,
 * constant loads, image writes and barriers, each with an active-lane mask
 * and per-lane addresses.  The byte format is specified in traces/FORMAT.md.
 *
 * Unit of streaming: the work group.  A producer (the generator, or a reader
 * of a trace file) hands out one mg_trace_wg at a time: per warp, the
 * encoded records of that warp in program order.  A consumer (the file
 * writer, `trace stats`, the simulator) decodes a warp's records with an
 * mg_trace_cursor.  Memory is bounded by one work group, whatever the
 * length of the trace.  Records are stored encoded (a few bytes each) and
 * expanded into an mg_rec only while being looked at.
 */
#ifndef MG_TRACE_H
#define MG_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"

#define MG_TRACE_MAGIC      "MGTRACE"      /* 7 bytes + NUL in the file */
#define MG_TRACE_VERSION    3              /* written; 1 and 2 are still read */
#define MG_TRACE_MAX_LANES  128            /* widest warp a trace may use */
#define MG_TRACE_MAX_OBJS   32             /* images, and buffers, each */
#define MG_TRACE_NAME_MAX   32

/* ---- record model -------------------------------------------------------- */

typedef enum mg_rec_type {
    MG_REC_ALU = 1,       /* n instructions of vec elements each, per lane */
    MG_REC_TEX_READ,      /* image read at per-lane texel (x, y) */
    MG_REC_BUF_LOAD,      /* global buffer load at per-lane byte address */
    MG_REC_BUF_STORE,     /* global buffer store */
    MG_REC_LOCAL_LOAD,    /* local memory load at per-lane byte address */
    MG_REC_LOCAL_STORE,   /* local memory store */
    MG_REC_CONST_LOAD,    /* __constant buffer load at per-lane byte address */
    MG_REC_IMG_WRITE,     /* image write at per-lane texel (x, y) */
    MG_REC_BARRIER,       /* work-group barrier (local and/or global fence) */
    MG_REC_TYPE_COUNT
} mg_rec_type;

typedef enum mg_alu_class {
    MG_ALU_FP32, MG_ALU_FP16, MG_ALU_INT, MG_ALU_SFU, MG_ALU_CLASS_COUNT
} mg_alu_class;

/* One warp instruction, expanded.  Lane l is active when bit l of mask is
 * set; only active lanes' addresses are meaningful. */
typedef struct mg_rec {
    uint8_t  type;           /* mg_rec_type */
    uint16_t site;           /* static instruction id within the kernel: the
                                same load in source is the same site */
    uint16_t lanes;          /* lanes in this warp (<= MG_TRACE_MAX_LANES) */
    uint64_t mask[2];        /* active lanes */
    /* MG_REC_ALU */
    uint8_t  cls;            /* mg_alu_class */
    uint8_t  vec;            /* elements per instruction: 1, 2, 4, 8, 16 */
    uint32_t n;              /* instructions per lane this record stands for */
    uint8_t  flops;          /* flops per element: 2 FMA/MAD, 1 add/mul, 0 int/sfu */
    uint32_t dep;            /* longest chain of dependent instructions among the
                                n (1: independent .. n: each needs the previous) */
    uint32_t keep;           /* loads it does not need: it waits for every load
                                its warp has in flight but the `keep` newest
                                (0: waits for all; FORMAT.md 5.1) */
    /* memory records */
    uint8_t  obj;            /* image id (TEX/IMG) or buffer id (BUF/CONST);
                                0 for LOCAL; BARRIER: fence, 1 local | 2 global */
    uint32_t width;          /* bytes accessed per lane (vector width x element) */
    /* What the decoder knows of a memory record's address shape (0, 0 when
     * nothing: a list, or a record built by hand): the addresses are an
     * affine form of the lane index in rows of form_p lanes, and the
     * MG_FORM_* bits say which lanes repeat others' addresses (see
     * mg_rec_distinct_lanes()). */
    uint32_t form_p;
    uint8_t  form;
    int64_t  a[MG_TRACE_MAX_LANES];   /* byte address, or texel x */
    int64_t  b[MG_TRACE_MAX_LANES];   /* texel y (TEX/IMG); 0 for 1D addresses */
} mg_rec;

/* Lane helpers. */
static inline int mg_rec_active(const mg_rec *r, unsigned l)
{
    return (int)((r->mask[l >> 6] >> (l & 63)) & 1u);
}
static inline void mg_rec_set_active(mg_rec *r, unsigned l)
{
    r->mask[l >> 6] |= (uint64_t)1 << (l & 63);
}
static inline unsigned mg_popcount64(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;          /* (no libgcc call without -mpopcnt) */
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (unsigned)((x * 0x0101010101010101ull) >> 56);
}
static inline unsigned mg_rec_popcount(const mg_rec *r)
{
    return mg_popcount64(r->mask[0]) + mg_popcount64(r->mask[1]);
}

#define MG_FORM_ROWS_SAME 1u   /* every row has row 0's addresses, column by column */
#define MG_FORM_ROW_CONST 2u   /* the lanes of a row share their addresses */

/* The active lanes of r that may hold addresses no earlier active lane
 * holds, ascending, into out[]; returns their number.  Every other active
 * lane holds the addresses of a listed lane before it, so a consumer that
 * keeps the first occurrence of each address (or of anything computed from
 * the addresses alone) sees the same sequence through the list as through
 * every active lane.  Without form bits that is every active lane. */
unsigned mg_rec_distinct_lanes(const mg_rec *r, uint8_t *out);

/* ---- header -------------------------------------------------------------- */

typedef enum { MG_TEXEL_FP32 = 0, MG_TEXEL_FP16 = 1 } mg_texel_type;
typedef enum { MG_SPACE_GLOBAL = 0, MG_SPACE_CONSTANT = 1 } mg_buf_space;

typedef struct mg_trace_image {
    char     name[MG_TRACE_NAME_MAX];
    uint32_t width, height;      /* texels */
    uint8_t  channels;           /* 4: RGBA */
    uint8_t  type;               /* mg_texel_type */
    uint32_t texel_bytes;        /* channels x 4 (fp32) or x 2 (fp16) */
} mg_trace_image;

typedef struct mg_trace_buffer {
    char     name[MG_TRACE_NAME_MAX];
    uint64_t bytes;
    uint8_t  space;              /* mg_buf_space */
    uint8_t  elem;               /* bytes of one element (1, 2, 4, 8; 0: not
                                    known, as in version 1 files) */
} mg_trace_buffer;

typedef struct mg_trace_header {
    uint32_t version;
    char     kernel[64];
    uint32_t global[3];          /* NDRange global size (work items) */
    uint32_t local[3];           /* work-group size */
    uint32_t warp_width;         /* lanes per warp used to group records */
    uint32_t regs_per_item;      /* the generator's register estimate */
    uint32_t local_bytes;        /* local memory per work group */
    uint32_t n_images, n_buffers;
    mg_trace_image  images[MG_TRACE_MAX_OBJS];
    mg_trace_buffer buffers[MG_TRACE_MAX_OBJS];
} mg_trace_header;

/* Work groups in the launch, warps per work group. */
uint64_t mg_trace_num_wgs(const mg_trace_header *h);
uint32_t mg_trace_warps_per_wg(const mg_trace_header *h);

/* ---- one work group, encoded ---------------------------------------------- */

/* Per-site delta-coding state (FORMAT.md 5.3, "site table"): the last
 * memory record of each site in the current warp, direct-mapped by
 * site % MG_TRACE_SITE_SLOTS.  Kept by the encoder (in mg_trace_wg) and by
 * each decoder (in mg_trace_cursor); reset at every warp. */
#define MG_TRACE_SITE_SLOTS 64
typedef struct mg_trace_site {
    uint8_t  used;               /* slot holds a record of `site` */
    uint8_t  affine;             /* that record was AFFINE or SAME */
    uint16_t site;
    uint32_t obj, width, p;
    int64_t  base[2], a[2], c[2];
} mg_trace_site;

typedef struct mg_trace_warp {
    size_t   off, len;           /* byte range in wg->bytes */
    uint32_t lanes;              /* lanes in this warp */
    uint32_t n_records;
} mg_trace_warp;

/* A record held decoded (a work group in record form, below): mg_rec's
 * fields, with the addresses of a memory record as an affine form of the
 * lane index (lane l: base + a x (l % p) + c x (l / p), per dimension),
 * or, with q > 0, one in planes of q rows of p lanes, and with q2 > 0
 * blocks of q2 planes, lane 0 at lane `off` of the first block (lane l,
 * v = l + off, z = v / (p q): base + a x (v % p) + c x ((v / p) % q) +
 * e x (z % q2) + g x (z / q2), or e x z with q2 = 0: a warp over several
 * local z, which the file format's forms cannot hold), or, when list is
 * set, the active lanes' values in order in wg->pool from index base[0]
 * (dims values per lane). */
typedef struct mg_trace_drec {
    uint8_t  type, cls, vec, flops;
    uint8_t  obj;                /* as mg_rec (barrier: the fence) */
    uint8_t  list;               /* addresses in wg->pool, not affine */
    uint16_t site;
    uint32_t n, dep, keep, width, p, q, q2, off;
    uint64_t mask[2];
    int64_t  base[2], a[2], c[2], e[2], g[2];
} mg_trace_drec;

typedef struct mg_trace_wg {
    uint32_t id[3];              /* work-group id */
    uint32_t n_warps;
    mg_trace_warp *warps;        /* n_warps entries (capacity warps_cap) */
    uint32_t warps_cap;
    uint8_t *bytes;              /* encoded records of every warp */
    size_t   len, cap;
    mg_trace_site sites[MG_TRACE_SITE_SLOTS];   /* encoder state, open warp */
    uint64_t enc_mask[2];        /* encoder: mask of the open warp's last record */
    /* Record form, for consumers in the same process (the simulator): set
     * want_recs before the producer fills the group, and a producer that
     * can (the generator) keeps the records decoded in recs instead of
     * encoding them; in_recs says which form the group is in (warps[k].off
     * is then an index into recs, .len the record count).  Cursors and the
     * file writer read either form, with the same records. */
    int      want_recs;
    int      in_recs;
    mg_trace_drec *recs;         /* nrecs records (capacity recs_cap) */
    size_t   nrecs, recs_cap;
    int64_t *pool;               /* list addresses (npool values, capacity pool_cap) */
    size_t   npool, pool_cap;
    /* A group whose record form outgrows this many bytes (0: the default,
     * MG_TRACE_RECS_MAX) is encoded from there on, so memory stays within
     * a few times the encoded size whatever the group's length. */
    size_t   recs_max;
    /* Shape sink, for a consumer that needs only what each record is, not
     * where it goes (the trace's lower bound, sim/model/bound.c): when
     * set before a producer fills the group, every record put is handed to
     * sink(sink_ctx, r) and not kept; r's addresses are then unspecified
     * (a producer that can, the generator, skips fitting them to forms).
     * The group's warps are kept, with no records.  mg_trace_wg_begin()
     * leaves both as they are. */
    void   (*sink)(void *ctx, const mg_rec *r);
    void    *sink_ctx;
} mg_trace_wg;

#define MG_TRACE_RECS_MAX ((size_t)32 << 20)

void mg_trace_wg_init(mg_trace_wg *wg);
void mg_trace_wg_free(mg_trace_wg *wg);

/* Producer side: start a work group (clears wg), then for each warp:
 * warp_begin, put each record in program order, warp_end.  Records put
 * must satisfy the header (lanes, object ids, addresses in range): the
 * producer is trusted; readers of files check.  Return 0, -1 on OOM, and
 * -1 for what the format cannot hold (put outside a warp, r->lanes not the
 * warp's lanes, mask bits past lanes, an unknown type, lanes outside
 * 1..MG_TRACE_MAX_LANES). */
int mg_trace_wg_begin(mg_trace_wg *wg, const uint32_t id[3]);
int mg_trace_wg_warp_begin(mg_trace_wg *wg, uint32_t lanes);
int mg_trace_wg_put(mg_trace_wg *wg, const mg_rec *r);
int mg_trace_wg_warp_end(mg_trace_wg *wg);

/* Consumer side: walk one warp's records. */
typedef struct mg_trace_cursor {
    const mg_trace_wg *wg;
    uint32_t warp;
    size_t   pos, end;           /* byte positions in wg->bytes */
    uint32_t index;              /* records decoded so far in this warp */
    uint64_t prev_mask[2];       /* mask of the last record decoded */
    /* Set by a consumer that reads only the lanes mg_rec_distinct_lanes()
     * lists (the simulator's memory path): then a memory record with form
     * bits, in a warp of at most 64 lanes, may come with only those lanes'
     * addresses filled in.  0 after mg_trace_cursor_init(). */
    int      distinct_only;
    /* With distinct_only, after each memory record: the lanes
     * mg_rec_distinct_lanes() lists for it, ln[0 .. nln), so that the
     * consumer need not list them again.  ln points into lnc, the lists
     * of the last two masks and forms seen (a warp's records repeat a few
     * of them: a list is made once, not per record). */
    uint32_t nln;
    const uint8_t *ln;
    struct mg_trace_lanes {
        uint64_t mask[2];
        uint32_t p, n;
        uint8_t  form, used;
        uint8_t  ln[MG_TRACE_MAX_LANES];
    } lnc[2];
    uint32_t lnc_next;           /* the entry to replace next */
    /* per-site decoder state (delta coding), owned by the cursor; last, as
     * the record form does not use it */
    mg_trace_site sites[MG_TRACE_SITE_SLOTS];
} mg_trace_cursor;

void mg_trace_cursor_init(mg_trace_cursor *c, const mg_trace_wg *wg, uint32_t warp);
/* Set c->ln, c->nln to mg_rec_distinct_lanes() of r (the record just
 * decoded), from c->lnc when an entry has r's mask and form. */
void mg_trace_cursor_lanes(mg_trace_cursor *c, const mg_rec *r);

/* Decode the next record into *r.  Returns 1 with a record, 0 at the end
 * of the warp, -1 on malformed bytes (a message naming the warp, record
 * index and byte offset is added to d when d is not NULL). */
int mg_trace_cursor_next(mg_trace_cursor *c, mg_rec *r, mg_diag *d);

/* ---- sources: anything that hands out work groups ------------------------- */

typedef struct mg_trace_source {
    const mg_trace_header *hdr;
    /* Fill wg with the next work group.  Returns 1, 0 at the end, -1 on
     * error (message in d). */
    int (*next_wg)(void *self, mg_trace_wg *wg, mg_diag *d);
    void *self;
    /* Optional random access, NULL when the source has none (sampled
     * simulation, sim/model/sample.h, uses it to skip work groups without
     * producing them).  seek_wg: the next next_wg() hands out the work
     * group of linear index idx (x fastest); wg_at: fill wg with work group
     * idx without moving the stream.  Both return 0, -1 on error. */
    int (*seek_wg)(void *self, uint64_t idx, mg_diag *d);
    int (*wg_at)(void *self, uint64_t idx, mg_trace_wg *wg, mg_diag *d);
} mg_trace_source;

/* ---- files ---------------------------------------------------------------- */

typedef struct mg_trace_writer mg_trace_writer;
typedef struct mg_trace_reader mg_trace_reader;

/* Write a trace file atomically: nothing appears at `path` until
 * mg_trace_writer_close() succeeds; mg_trace_writer_abort() leaves nothing. */
mg_trace_writer *mg_trace_writer_open(const char *path, const mg_trace_header *h,
                                      mg_diag *d);
int  mg_trace_writer_put_wg(mg_trace_writer *w, const mg_trace_wg *wg, mg_diag *d);
int  mg_trace_writer_close(mg_trace_writer *w, mg_diag *d);
void mg_trace_writer_abort(mg_trace_writer *w);

/* Stream a trace file with bounded memory.  Every check a reader can make
 * is made (magic, version, header limits, lanes <= warp width, object ids,
 * addresses inside their buffer or image, counts that would overflow, known
 * record types); errors name the file, the record index and byte offset.
 * mg_trace_reader_next_wg() hands a group out in record form when wg's
 * want_recs is set and the group fits its record-form budget (recs_max),
 * else in bytes form; the records and any error are the same either way. */
mg_trace_reader *mg_trace_reader_open(const char *path, mg_diag *d);
const mg_trace_header *mg_trace_reader_header(const mg_trace_reader *r);
int  mg_trace_reader_next_wg(mg_trace_reader *r, mg_trace_wg *wg, mg_diag *d);
void mg_trace_reader_close(mg_trace_reader *r);
mg_trace_source mg_trace_reader_source(mg_trace_reader *r);

/* Copy every work group of src to a file. */
int mg_trace_write_all(const char *path, mg_trace_source *src, mg_diag *d);

/* Names, for printing. */
const char *mg_rec_type_name(int type);
const char *mg_alu_class_name(int cls);

#endif
