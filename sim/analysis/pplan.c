/* pplan.c - the probe's schedule choices (see pplan.h). */
#include "sim/analysis/pplan.h"

#include <math.h>
#include <stdio.h>

#define MIB (1024.0 * 1024.0)

int64_t mg_pplan_pow2_floor(double v)
{
    int64_t p = 1;
    while ((double)(p * 2) <= v) p *= 2;
    return p;
}

int64_t mg_pplan_round_to(double v, int64_t m)
{
    int64_t r = (int64_t)llround(v / (double)m) * m;
    return r < m ? m : r;
}

/* ---- pointer chase ------------------------------------------------------------ */

const char *mg_pplan_chase(const mg_pdev *d, int img, int64_t r, int64_t stride, char *buf,
                           size_t len)
{
    char page[32] = "";
    if (r >= 16384) snprintf(page, sizeof page, " page=4096");
    if (!img) {
        snprintf(buf, len, "pchase mem=buffer order=random range=%lld stride=%lld%s iters=%%lld",
                 (long long)r, (long long)stride, page);
        return buf;
    }
    int64_t w = r < 4096 ? r / 4 : r <= (int64_t)(64 * MIB) ? 1024 : 4096;
    int64_t h = r / 4 / w;
    if ((uint64_t)w > d->img_w || (uint64_t)h > d->img_h || h > 16384) return NULL;
    snprintf(buf, len, "pchase mem=image order=random range=%lld stride=%lld W=%lld%s "
             "iters=%%lld", (long long)r, (long long)stride, (long long)w, page);
    return buf;
}

const char *mg_pplan_chase_img(const mg_pdev *d, int64_t r, int64_t stride, int64_t w,
                               int64_t page, char *buf, size_t len)
{
    if (w < 1 || stride < 4 || r % (4 * w) || r % stride || (page && (page % stride || r % page)))
        return NULL;
    int64_t h = r / 4 / w;
    if ((uint64_t)w > d->img_w || (uint64_t)h > d->img_h || h > 16384 || w > 16384) return NULL;
    char pg[32] = "";
    if (page) snprintf(pg, sizeof pg, " page=%lld", (long long)page);
    snprintf(buf, len, "pchase mem=image order=random range=%lld stride=%lld W=%lld%s "
             "iters=%%lld", (long long)r, (long long)stride, (long long)w, pg);
    return buf;
}

const char *mg_pplan_chase_blocks(const mg_pdev *d, int64_t r, int64_t stride, char *buf,
                                  size_t len, int64_t *quantum)
{
    uint64_t hmax = d->img_h < 16384 ? d->img_h : 16384;
    int64_t w = 8;
    while ((uint64_t)(r / 4 / w) > hmax && w < 16384) w *= 2;
    if (quantum) *quantum = 8 * w * 4;
    return mg_pplan_chase_img(d, r, stride, w, 8 * w * 4, buf, len);
}

int64_t mg_pplan_chase_quantum(int img, double v)
{
    return v >= 16384 ? (img && v > 64 * MIB ? 16384 : 4096) : img && v >= 4096 ? 4096
                                                                                : MG_PPLAN_STEP;
}

int64_t mg_pplan_chase_round(int img, double v)
{
    return mg_pplan_round_to(v, mg_pplan_chase_quantum(img, v));
}

const char *mg_pplan_lattice(const mg_pdev *d, int64_t points, int64_t dx, int sy, char *buf,
                             size_t len, int64_t *cycle)
{
    int64_t w = points * dx, h = d->img_h < 4096 ? (int64_t)d->img_h : 4096;
    if ((uint64_t)w > d->img_w) w = (int64_t)d->img_w - (int64_t)d->img_w % dx;
    snprintf(buf, len, "pchase mem=image range=%lld W=%lld stride=%lld stride_y=%d iters=%%lld",
             (long long)(w * h * 4), (long long)w, (long long)(4 * dx), sy);
    *cycle = (w / dx) * (h / sy);
    return buf;
}

/* ---- bandwidth -------------------------------------------------------------------- */

static const char *const mem_names[] = {"buffer", "image", "local", "constant"};

int mg_pplan_bw(const mg_pdev *d, int mem, int64_t fp, int64_t min_loads,
                int64_t local_groups_per_cu, int balanced, const char *extra, char *buf,
                size_t len, double *bytes_mult)
{
    return mg_pplan_bw_grown(d, mem, fp, min_loads, local_groups_per_cu, balanced, 0, extra,
                             buf, len, bytes_mult);
}

int mg_pplan_bw_grown(const mg_pdev *d, int mem, int64_t fp, int64_t min_loads,
                      int64_t local_groups_per_cu, int balanced, int grow, const char *extra,
                      char *buf, size_t len, double *bytes_mult)
{
    int64_t nc = fp / 16, maxwg = d->max_wg < 256 ? (int64_t)d->max_wg : 256;
    if (mem == MG_PMEM_LOCAL) {
        int64_t wg = mg_pplan_pow2_floor(fmin((double)maxwg, fmax(1, (double)nc / min_loads)));
        int64_t groups = ((int64_t)d->cus * local_groups_per_cu) << grow;
        if (wg * groups > (1 << 20)) return -1;           /* past the launch limit */
        snprintf(buf, len, "bandwidth mem=local footprint=%lld items=%lld wg=%lld %s iters=%%lld",
                 (long long)fp, (long long)(wg * groups), (long long)wg, extra);
        *bytes_mult = (double)fp * (double)groups;
        return 0;
    }
    /* about 2 x compute units x the largest group, in whole groups per unit */
    int64_t items = mg_pplan_pow2_floor(fmin(2.0 * d->cus * (double)d->max_wg, 1 << 20));
    int64_t wg = items < maxwg ? items : maxwg;
    int64_t per = d->cus ? (items / wg + d->cus - 1) / d->cus : 0;
    if (balanced && per && (per << grow) * d->cus * wg <= (1 << 20))
        items = (per << grow) * d->cus * wg;       /* 2^grow x the groups per unit */
    else if ((items << grow) <= (1 << 20))
        items <<= grow;
    else
        return -1;                                 /* past the launch limit */
    /* readers: a power of two that divides the items */
    int64_t rmax = 1;
    while (items % (rmax * 2) == 0) rmax *= 2;
    if (mem == MG_PMEM_IMAGE && d->tex_l1_bytes && d->tex_line_w_bytes && d->tex_line_rows) {
        double lines = (double)d->tex_l1_bytes / (double)(d->tex_line_w_bytes * d->tex_line_rows);
        double row = fmax(1, (double)d->tex_line_w_bytes / 16);     /* texels per line row */
        rmax = mg_pplan_pow2_floor(fmin((double)rmax, fmax(1, lines / 4) * row));
    }
    int64_t r = mg_pplan_pow2_floor(fmin((double)rmax, fmax(1, (double)nc / min_loads)));
    for (; r >= 1; r /= 2) {
        snprintf(buf, len, "bandwidth mem=%s footprint=%lld items=%lld readers=%lld wg=%lld %s "
                 "iters=%%lld", mem_names[mem], (long long)fp, (long long)items, (long long)r,
                 (long long)wg, extra);
        if (mem != MG_PMEM_IMAGE) break;
        int64_t sc = nc / r, ih = sc < 4096 ? sc : 4096, iw = r * (sc / ih);
        if (iw <= 16384 && (uint64_t)iw <= d->img_w && (uint64_t)ih <= d->img_h) break;
    }
    if (r < 1) return -1;
    *bytes_mult = (double)fp * (double)items / (double)r;
    return 0;
}

void mg_pplan_bw_range(const mg_pdev *d, int mem, double big, int64_t *lo, double *hi)
{
    *lo = 4096;
    *hi = big;
    if (mem == MG_PMEM_LOCAL) *hi = fmin((double)d->local_mem, 32768), *lo = 1024;
    if (mem == MG_PMEM_CONSTANT) *hi = fmin((double)d->const_mem, 65536), *lo = 1024;
}

/* ---- load issue ------------------------------------------------------------------ */

const char *mg_pplan_vload(const mg_pdev *d, int fp16, int vec, int packed, char *buf,
                           size_t len)
{
    int64_t items, wg, stride = 64;
    mg_pplan_flops(d, &items, &wg);
    while ((uint64_t)stride < d->cacheline && stride < 4096) stride *= 2;
    if (packed) stride = (int64_t)vec * (fp16 ? 2 : 4);
    snprintf(buf, len, "vload items=%lld wg=%lld lines=%d stride=%lld vec=%d storage=%s "
             "iters=%%lld", (long long)items, (long long)wg, MG_PPLAN_VLOAD_LINES,
             (long long)stride, vec, fp16 ? "fp16" : "fp32");
    return buf;
}

/* ---- loads in flight --------------------------------------------------------------- */

const int mg_pplan_lsu_loads[MG_PPLAN_LSU_NLOADS] = {1, 2, 4, 8, 16};
const int mg_pplan_lsu_warps[MG_PPLAN_LSU_NWARPS] = {1, 2, 4, 8, 16};

const char *mg_pplan_lsu(const mg_pdev *d, int loads, int warps, int warp, char *buf,
                         size_t len)
{
    int64_t line = 64, wg = (int64_t)warps * (warp > 0 ? warp : 32);
    while ((uint64_t)line < d->cacheline && line < 4096) line *= 2;
    if (wg > (int64_t)d->max_wg || (uint64_t)wg > d->max_items[0]) return NULL;
    snprintf(buf, len, "mlp range=%lld stride=%lld loads=%d items=%lld wg=%lld iters=%%lld",
             (long long)(32 * line), (long long)line, loads, (long long)d->cus * wg,
             (long long)wg);
    return buf;
}

/* ---- compute ------------------------------------------------------------------------ */

void mg_pplan_flops(const mg_pdev *d, int64_t *items, int64_t *wg)
{
    *wg = d->max_wg < 256 ? (int64_t)d->max_wg : 256;
    int64_t all = (int64_t)d->cus * *wg;          /* one group on every core */
    *items = 4 * all;
    if (*items < 4096) *items = (4096 + all - 1) / all * all;
}

int64_t mg_pplan_warp_groups(const mg_pdev *d)
{
    return d->cus * 32 > 64 ? (int64_t)d->cus * 32 : 64;
}

int64_t mg_pplan_regs_wg_small(const mg_pdev *d)
{
    return d->max_wg < 64 ? (int64_t)d->max_wg : 64;
}

int64_t mg_pplan_regs_wg_full(const mg_pdev *d)
{
    return d->max_wg > 1024 ? 1024 : (int64_t)d->max_wg;
}

int64_t mg_pplan_regs_wg_conc(const mg_pdev *d)
{
    return d->max_wg < 256 ? (int64_t)d->max_wg : 256;
}

const int mg_pplan_reg_counts[] = {8, 16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 112, 128, 144, 160,
                                   176, 192, 208, 224, 232, 240, 248, 256};
const int mg_pplan_reg_counts_n = (int)(sizeof mg_pplan_reg_counts / sizeof mg_pplan_reg_counts[0]);
const double mg_pplan_conc_mult[] = {0.5, 1, 1.5, 2, 2.5, 3, 4};
const int mg_pplan_conc_mult_n = (int)(sizeof mg_pplan_conc_mult / sizeof mg_pplan_conc_mult[0]);
