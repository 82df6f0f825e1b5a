/*
 * texlayout.c - see texlayout.h.
 */
#include "sim/model/texlayout.h"
#include "sim/model/sim_internal.h"

#define LINE_X_MASK ((UINT64_C(1) << 28) - 1)
#define LINE_Y_MASK ((UINT64_C(1) << 28) - 1)

/* log2 of v when v is a power of two, else -1. */
static int log2_of(uint64_t v)
{
    if (!v || (v & (v - 1))) return -1;
    int s = 0;
    while (v >>= 1) s++;
    return s;
}

void mg_texlayout_init(mg_texlayout *m, const mg_device *dev, uint32_t texel_bytes,
                       uint32_t obj)
{
    int64_t tb = texel_bytes ? (int64_t)texel_bytes : 1;
    m->tw = dev->tile_w_texels * dev->tile_texel_bytes / tb;
    if (m->tw < 1) m->tw = 1;
    m->th = dev->tile_h_texels > 0 ? dev->tile_h_texels : 1;
    m->per = dev->tex_l1.line > 0 ? (uint64_t)(dev->l2.line / dev->tex_l1.line) : 1;
    if (m->per < 1) m->per = 1;
    m->img = mg_line_space_img(obj);      /* the image's own line-id space */
    m->pitch = UINT64_C(1) << 28;
    m->bx = m->by = 1;
    if (dev->img_block_w_texels > 0 && dev->img_block_h_texels > 0) {
        /* the block's width in this image's texels, over an L2 line's */
        int64_t bw = dev->img_block_w_texels * dev->tile_texel_bytes / tb;
        int64_t lw = m->tw * (int64_t)m->per;
        if (bw > lw) m->bx = (uint64_t)(bw / lw);
        if (dev->img_block_h_texels > m->th) m->by = (uint64_t)(dev->img_block_h_texels / m->th);
        while (m->bx * m->by > MG_TEXLAYOUT_MAX_LINES) {      /* the rules forbid it */
            if (m->by > 1) m->by /= 2;
            else m->bx /= 2;
        }
    }
    m->stw = log2_of((uint64_t)m->tw);
    m->sth = log2_of((uint64_t)m->th);
    m->sper = log2_of(m->per);
    m->pow2 = m->stw >= 0 && m->sth >= 0 && m->sper >= 0;
}

void mg_texlayout_set_width(mg_texlayout *m, uint64_t width)
{
    uint64_t p = (width + (uint64_t)m->tw - 1) / (uint64_t)m->tw;
    m->pitch = p ? p : 1;
}

uint32_t mg_texlayout_block_lines(const mg_texlayout *m, uint64_t l2, uint64_t *out)
{
    uint64_t lx = l2 & LINE_X_MASK, ly = (l2 >> 28) & LINE_Y_MASK;
    uint64_t x0 = lx / m->bx * m->bx, y0 = ly / m->by * m->by;
    uint32_t n = 0;
    for (uint64_t y = y0; y < y0 + m->by; y++)
        for (uint64_t x = x0; x < x0 + m->bx; x++) out[n++] = m->img | (y << 28) | x;
    return n;
}

/* mg_texlayout_ids_n() by mg_texlayout_ids(), lane by lane: any layout,
 * any texel.  Ids are never 0 (img is not): the first rises from 0. */
static int ids_n_any(const mg_texlayout *m, const int64_t *x, const int64_t *y,
                     const uint8_t *ln, uint32_t n, uint64_t *l1, uint64_t *l2)
{
    int rising = 1;
    uint64_t prev = 0;
    for (uint32_t k = 0; k < n; k++) {
        mg_texlayout_ids(m, x[ln[k]], y[ln[k]], &l1[k], &l2[k]);
        rising &= l1[k] > prev;
        prev = l1[k];
    }
    return rising;
}

/* (texlayout.h) A power-of-two layout's loop does the shifts of
 * mg_texlayout_ids() with its state in registers; a negative texel (its
 * divisions round to zero) starts over in ids_n_any(). */
int mg_texlayout_ids_n(const mg_texlayout *m, const int64_t *x, const int64_t *y,
                       const uint8_t *ln, uint32_t n, uint64_t *l1, uint64_t *l2)
{
    if (!m->pow2) return ids_n_any(m, x, y, ln, n, l1, l2);
    uint64_t img = m->img, pitch = m->pitch, prev = 0;
    int stw = m->stw, sth = m->sth, sper = m->sper, rising = 1;
    for (uint32_t k = 0; k < n; k++) {
        int64_t tx = x[ln[k]], ty = y[ln[k]];
        if ((tx | ty) < 0) return ids_n_any(m, x, y, ln, n, l1, l2);
        uint64_t lx = (uint64_t)tx >> stw, ly = (uint64_t)ty >> sth;
        uint64_t a = img | (ly * pitch + lx);
        l1[k] = a;
        l2[k] = img | ly << 28 | (lx >> sper);
        rising &= a > prev;
        prev = a;
    }
    return rising;
}
