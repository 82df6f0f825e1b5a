/* trace_rec.c - record and header helpers: lane counts, names, geometry. */
#include "traces/trace_internal.h"

/* Every active lane of r into out (ascending); returns their number. */
static unsigned all_lanes(const mg_rec *r, uint8_t *out)
{
    unsigned n = 0;
    for (unsigned h = 0; h < 2; h++)
        for (uint64_t m = r->mask[h]; m; m &= m - 1)
            out[n++] = (uint8_t)(64 * h + (unsigned)__builtin_ctzll(m));
    return n;
}

/* Rows that never straddle a mask word (p divides 64): a row's lanes are
 * one shift of a mask word; ROW_CONST takes each row's first active lane,
 * ROWS_SAME the active lanes of columns no earlier row had active. */
static unsigned by_rows(const mg_rec *r, uint8_t *out)
{
    uint32_t p = r->form_p;
    uint64_t cols = p == 64 ? ~(uint64_t)0 : ((uint64_t)1 << p) - 1, seen = 0;
    unsigned n = 0;
    for (uint32_t l0 = 0; l0 < r->lanes; l0 += p) {
        uint64_t row = (r->mask[l0 >> 6] >> (l0 & 63)) & cols;
        if (r->form == MG_FORM_ROW_CONST) {
            if (row) out[n++] = (uint8_t)(l0 + (unsigned)__builtin_ctzll(row));
            continue;
        }
        uint64_t fresh = row & ~seen;
        seen |= fresh;
        for (; fresh; fresh &= fresh - 1)
            out[n++] = (uint8_t)(l0 + (unsigned)__builtin_ctzll(fresh));
        if (seen == cols) break;
    }
    return n;
}

/* Per form (mg_rec's form_p and form bits): with ROW_CONST only the first
 * active lane of each row can be new; with ROWS_SAME only the first active
 * lane of each column (rows repeat row 0); with both, the first active
 * lane. */
unsigned mg_rec_distinct_lanes(const mg_rec *r, uint8_t *out)
{
    uint32_t p = r->form_p;
    if (!p || !r->form) return all_lanes(r, out);
    if (r->form == (MG_FORM_ROWS_SAME | MG_FORM_ROW_CONST)) {
        for (unsigned h = 0; h < 2; h++)
            if (r->mask[h]) {
                out[0] = (uint8_t)(64 * h + (unsigned)__builtin_ctzll(r->mask[h]));
                return 1;
            }
        return 0;
    }
    if (p <= 64 && 64 % p == 0) return by_rows(r, out);
    unsigned n = 0;
    if (r->form == MG_FORM_ROW_CONST) {
        for (uint32_t l0 = 0; l0 < r->lanes; l0 += p) {
            uint32_t end = r->lanes - l0 < p ? r->lanes : l0 + p;
            for (uint32_t l = l0; l < end; l++)
                if (mg_rec_active(r, l)) {
                    out[n++] = (uint8_t)l;
                    break;
                }
        }
        return n;
    }
    /* ROWS_SAME: a lane is new when its column has not been active yet */
    uint64_t seen[2] = {0, 0};
    uint32_t cols = p < r->lanes ? p : r->lanes, x = 0;
    for (uint32_t l = 0; l < r->lanes && n < cols; l++, x = x + 1 == p ? 0 : x + 1) {
        if (!mg_rec_active(r, l) || ((seen[x >> 6] >> (x & 63)) & 1)) continue;
        seen[x >> 6] |= (uint64_t)1 << (x & 63);
        out[n++] = (uint8_t)l;
    }
    return n;
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
