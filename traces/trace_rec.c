/* trace_rec.c - record and header helpers: lane counts, names, geometry. */
#include "trace_internal.h"

/* Active lanes of r: the bits set in its mask. */
unsigned mg_rec_popcount(const mg_rec *r)
{
    return (unsigned)(__builtin_popcountll(r->mask[0]) + __builtin_popcountll(r->mask[1]));
}

/* Nonzero for types that carry an object, a width and per-lane addresses. */
int mg_rec_is_mem(int type)
{
    return type >= MG_REC_TEX_READ && type <= MG_REC_IMG_WRITE;
}

/* 2 (texel x, y) for image types, 1 (byte address) for other memory types,
 * 0 otherwise. */
int mg_rec_dims(int type)
{
    if (type == MG_REC_TEX_READ || type == MG_REC_IMG_WRITE) return 2;
    return mg_rec_is_mem(type) ? 1 : 0;
}

/* Lower-case name of a record type ("buf_load"); "?" when unknown. */
const char *mg_rec_type_name(int type)
{
    static const char *const names[MG_REC_TYPE_COUNT] = {
        [MG_REC_ALU] = "alu",
        [MG_REC_TEX_READ] = "tex_read",
        [MG_REC_BUF_LOAD] = "buf_load",
        [MG_REC_BUF_STORE] = "buf_store",
        [MG_REC_LOCAL_LOAD] = "local_load",
        [MG_REC_LOCAL_STORE] = "local_store",
        [MG_REC_CONST_LOAD] = "const_load",
        [MG_REC_IMG_WRITE] = "img_write",
        [MG_REC_BARRIER] = "barrier",
    };
    return type > 0 && type < MG_REC_TYPE_COUNT ? names[type] : "?";
}

/* Lower-case name of an ALU class ("fp32"); "?" when unknown. */
const char *mg_alu_class_name(int cls)
{
    static const char *const names[MG_ALU_CLASS_COUNT] = {"fp32", "fp16", "int", "sfu"};
    return cls >= 0 && cls < MG_ALU_CLASS_COUNT ? names[cls] : "?";
}

/* Work groups in the launch: the product of global[i] / local[i] (0 when a
 * local size is 0, which a checked header never has). */
uint64_t mg_trace_num_wgs(const mg_trace_header *h)
{
    uint64_t n = 1;
    for (int i = 0; i < 3; i++) {
        if (!h->local[i]) return 0;
        n *= h->global[i] / h->local[i];
    }
    return n;
}

/* Warps per work group: ceil(local[0] x local[1] x local[2] / warp_width);
 * 0 for a zero warp width, UINT32_MAX when the count does not fit. */
uint32_t mg_trace_warps_per_wg(const mg_trace_header *h)
{
    if (!h->warp_width) return 0;
    uint64_t items = (uint64_t)h->local[0] * h->local[1];
    if (h->local[2] && items > UINT64_MAX / h->local[2]) return UINT32_MAX;
    items *= h->local[2];
    uint64_t w = items / h->warp_width + (items % h->warp_width != 0);
    return w > UINT32_MAX ? UINT32_MAX : (uint32_t)w;
}
