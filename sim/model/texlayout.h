/*
 * texlayout.h - the texture representation: how an image's texels map to
 * texture-L1 lines, L2 lines and the 2D blocks the image is stored and
 * fetched from DRAM in (internal to sim/model and the analytic model,
 * sim/analytic).  See sim/MODEL.md, "Memory".
 *
 * An L1 line holds a tile of tw x th texels; an L2 line holds `per` tiles
 * side by side in x (a row of the image's blocked layout); a block holds
 * bx x by L2 lines (bx in x, by stacked in y).  With image.block_* unset a
 * block is one L2 line: an L2 miss fetches just that line.
 *
 * Ids: an L1 line is img | (tile_y x pitch + tile_x), an L2 line img |
 * tile_y << 28 | (tile_x / per), where img = (image index + 1) << 56.
 * The L1 id is the tile's index in the image stored tile by tile, row-major
 * (pitch = the tiles in a row of the image: mg_texlayout_set_width), the
 * low address bits a texture cache indexes its sets by: a row of tiles
 * fills consecutive sets.  Without a width the pitch is 2^28.
 */
#ifndef MG_TEXLAYOUT_H
#define MG_TEXLAYOUT_H

#include <stdint.h>

#include "sim/config/device.h"

/* Most L2 lines one block may hold (a config rule enforces it). */
#define MG_TEXLAYOUT_MAX_LINES 64

typedef struct mg_texlayout {
    int64_t  tw, th;        /* L1 tile in texels of this image */
    uint64_t per;           /* L1 tiles per L2 line, side by side in x */
    uint64_t bx, by;        /* L2 lines per block in x and in y (1, 1: no blocks) */
    uint64_t img;           /* the image's id bits */
    uint64_t pitch;         /* L1 tiles per image row in the L1 ids (2^28: no width given) */
    int      pow2;          /* tw, th and per are powers of two: ... */
    int      stw, sth, sper;    /* ... their log2 (ids by shifts, not divisions) */
} mg_texlayout;

/* The layout of image number `obj` with texels of texel_bytes on dev. */
void mg_texlayout_init(mg_texlayout *m, const mg_device *dev, uint32_t texel_bytes,
                       uint32_t obj);

/* The image is width texels wide: its L1 ids become tile indices in a
 * row-major tile order (pitch = ceil(width / tile width); see above). */
void mg_texlayout_set_width(mg_texlayout *m, uint64_t width);

/* Does an L2 miss fetch more than its own line? */
static inline int mg_texlayout_blocked(const mg_texlayout *m)
{
    return m->bx * m->by > 1;
}

/* Texel (x, y) -> its L1 line id and its L2 line id. */
static inline void mg_texlayout_ids(const mg_texlayout *m, int64_t x, int64_t y, uint64_t *l1,
                                    uint64_t *l2)
{
    if (m->pow2 && (x | y) >= 0) {
        uint64_t tx = (uint64_t)x >> m->stw, ty = (uint64_t)y >> m->sth;
        *l1 = m->img | (ty * m->pitch + tx);
        *l2 = m->img | (ty << 28) | (tx >> m->sper);
        return;
    }
    uint64_t tx = (uint64_t)(x / m->tw), ty = (uint64_t)(y / m->th);
    *l1 = m->img | (ty * m->pitch + tx);
    *l2 = m->img | (ty << 28) | (tx / m->per);
}

/* mg_texlayout_ids() of texels (x[l], y[l]) for the lanes l = ln[0 .. n),
 * into l1[k], l2[k].  Returns 1 when the L1 ids rise strictly (so none
 * repeats), else 0.  (Out of line: its loop gets registers of its own.) */
int mg_texlayout_ids_n(const mg_texlayout *m, const int64_t *x, const int64_t *y,
                       const uint8_t *ln, uint32_t n, uint64_t *l1, uint64_t *l2);

/* The L2 line ids of the block holding L2 line `l2` (itself included), in
 * out[0 .. bx*by), bx*by <= MG_TEXLAYOUT_MAX_LINES; returns their number. */
uint32_t mg_texlayout_block_lines(const mg_texlayout *m, uint64_t l2, uint64_t *out);

#endif
