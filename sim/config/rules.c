/*
 * rules.c - cross-field rules of a device config, and derived values.
 *
 * Each rule states what must hold between keys and names, in its message,
 * the key to change.  Rules run after every key passed its own range check.
 */
#include "sim/config/load_internal.h"
#include "sim/config/schema.h"
#include "base/units.h"

#include <stdio.h>

static int is_pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

static const char *sz(int64_t v, char *buf, size_t len)
{
    return mg_unit_format(MG_UNIT_SIZE, (double)v, buf, len);
}

static void check_cache(const mg_cache_cfg *k, const char *pre, const char *name,
                        mg_diag *d)
{
    char a[32], b[32], c[32];
    if (!is_pow2(k->line)) {
        mg_diag_error(d, "%s: $.%s.line: expected a power of two, got %s", name, pre,
                      sz(k->line, a, sizeof a));
        return;
    }
    if (k->line * k->assoc > k->size) {
        mg_diag_error(d, "%s: $.%s.assoc: expected at most size/line = %lld ways "
                      "(size %s, line %s), got %lld", name, pre,
                      (long long)(k->size / k->line), sz(k->size, a, sizeof a),
                      sz(k->line, b, sizeof b), (long long)k->assoc);
        return;
    }
    if (k->size % (k->line * k->assoc) != 0) {
        mg_diag_error(d, "%s: $.%s.size: expected a multiple of line x assoc (%s x %lld = "
                      "%s) so the cache has a whole number of sets, got %s", name, pre,
                      sz(k->line, a, sizeof a), (long long)k->assoc,
                      sz(k->line * k->assoc, b, sizeof b), sz(k->size, c, sizeof c));
    }
}

static void check_core(mg_device *v, const char *name, mg_diag *d)
{
    if (v->max_workgroup_size % v->warp_width != 0)
        mg_diag_error(d, "%s: $.core.max_workgroup_size: expected a multiple of "
                      "core.warp_width (%lld), got %lld", name, (long long)v->warp_width,
                      (long long)v->max_workgroup_size);
    if (v->warp_width_max < v->warp_width || v->warp_width_max % v->warp_width != 0)
        mg_diag_error(d, "%s: $.core.warp_width_max: expected a multiple of core.warp_width "
                      "(%lld), got %lld", name, (long long)v->warp_width,
                      (long long)v->warp_width_max);
    int64_t cap = v->max_warps_per_sp * v->warp_width_max;
    if (v->max_items_per_sp == 0) {
        v->max_items_per_sp = v->max_warps_per_sp * v->warp_width;
    } else if (v->max_items_per_sp > cap) {
        mg_diag_error(d, "%s: $.core.max_items_per_sp: expected at most max_warps_per_sp x "
                      "warp_width_max = %lld, got %lld", name, (long long)cap,
                      (long long)v->max_items_per_sp);
    }
    if (v->max_workgroup_size > v->max_items_per_sp)
        mg_diag_error(d, "%s: $.core.max_workgroup_size: a work group runs on one core, so "
                      "expected at most %lld resident items per core, got %lld", name,
                      (long long)v->max_items_per_sp, (long long)v->max_workgroup_size);
}

static void check_registers(const mg_device *v, const char *name, mg_diag *d)
{
    if (v->reg_model == MG_REG_SHARED_POOL) {
        int64_t need = v->max_regs_per_item * v->warp_width;
        if (v->pool_regs_per_sp < need)
            mg_diag_error(d, "%s: $.registers.pool_regs_per_sp: expected at least "
                          "max_regs_per_item x warp_width = %lld (one warp at the register "
                          "limit must fit), got %lld", name, (long long)need,
                          (long long)v->pool_regs_per_sp);
        return;
    }
    for (int i = 0; i < v->nsteps; i++) {
        const mg_occ_step *s = &v->steps[i];
        if (i > 0 && s->max_regs <= v->steps[i - 1].max_regs)
            mg_diag_error(d, "%s: $.registers.occupancy_steps[%d].max_regs: expected more "
                          "than the previous step's %lld, got %lld", name, i,
                          (long long)v->steps[i - 1].max_regs, (long long)s->max_regs);
        if (i > 0 && s->max_items > v->steps[i - 1].max_items)
            mg_diag_error(d, "%s: $.registers.occupancy_steps[%d].max_items: expected at most "
                          "the previous step's %lld (more registers, fewer items), got %lld",
                          name, i, (long long)v->steps[i - 1].max_items,
                          (long long)s->max_items);
        if (s->max_items > v->max_items_per_sp)
            mg_diag_error(d, "%s: $.registers.occupancy_steps[%d].max_items: expected at most "
                          "core.max_items_per_sp (%lld), got %lld", name, i,
                          (long long)v->max_items_per_sp, (long long)s->max_items);
        if (s->max_items < v->warp_width)
            mg_diag_error(d, "%s: $.registers.occupancy_steps[%d].max_items: expected at "
                          "least one warp (%lld items), got %lld", name, i,
                          (long long)v->warp_width, (long long)s->max_items);
    }
    if (v->nsteps > 0 && v->steps[v->nsteps - 1].max_regs != v->max_regs_per_item)
        mg_diag_error(d, "%s: $.registers.occupancy_steps[%d].max_regs: the last step must "
                      "end at registers.max_regs_per_item (%lld), got %lld", name,
                      v->nsteps - 1, (long long)v->max_regs_per_item,
                      (long long)v->steps[v->nsteps - 1].max_regs);
}

/* image.block_*: both set or both 0; a block is a whole number of L2 lines
 * (an L2 line holds l2.line / tex_l1.line L1 tiles side by side in x). */
static void check_image_layout(const mg_device *v, const char *name, mg_diag *d)
{
    int64_t bw = v->img_block_w_texels, bh = v->img_block_h_texels;
    if (!bw && !bh) return;
    if (!bw || !bh) {
        mg_diag_error(d, "%s: $.image.%s: expected block_w_texels and block_h_texels both "
                      "set or both 0, got %lld x %lld", name,
                      bw ? "block_h_texels" : "block_w_texels", (long long)bw, (long long)bh);
        return;
    }
    int64_t per = v->tex_l1.line ? v->l2.line / v->tex_l1.line : 1;
    int64_t lw = v->tile_w_texels * (per > 0 ? per : 1);
    if (lw <= 0 || v->tile_h_texels <= 0) return;       /* reported elsewhere */
    if (bw % lw)
        mg_diag_error(d, "%s: $.image.block_w_texels: expected a multiple of an L2 line's "
                      "width, %lld texels (tile_w_texels x l2.line / tex_l1.line), got %lld",
                      name, (long long)lw, (long long)bw);
    if (bh % v->tile_h_texels)
        mg_diag_error(d, "%s: $.image.block_h_texels: expected a multiple of "
                      "tex_l1.tile_h_texels (%lld), got %lld", name,
                      (long long)v->tile_h_texels, (long long)bh);
    else if (bw % lw == 0 && (bw / lw) * (bh / v->tile_h_texels) > 64)
        mg_diag_error(d, "%s: $.image.block_w_texels: a block holds at most 64 L2 lines, "
                      "got %lld x %lld texels = %lld lines", name, (long long)bw,
                      (long long)bh, (long long)((bw / lw) * (bh / v->tile_h_texels)));
}

/* l2 banks: bank_bytes and sector_bytes powers of two, a sector within
 * one bank's block. */
static void check_l2_banks(const mg_device *v, const char *name, mg_diag *d)
{
    int64_t bb = v->l2_bank_bytes, sb = v->l2_sector_bytes;
    if (bb & (bb - 1))
        mg_diag_error(d, "%s: $.l2.bank_bytes: expected a power of two, got %lld", name,
                      (long long)bb);
    if (sb & (sb - 1))
        mg_diag_error(d, "%s: $.l2.sector_bytes: expected a power of two, got %lld", name,
                      (long long)sb);
    else if (sb > bb)
        mg_diag_error(d, "%s: $.l2.sector_bytes: expected at most l2.bank_bytes (%lld): a "
                      "sector lies in one bank, got %lld", name, (long long)bb, (long long)sb);
}

static void check_memory(const mg_device *v, const char *name, mg_diag *d)
{
    char a[32], b[32];
    int64_t tile = v->tile_w_texels * v->tile_h_texels * v->tile_texel_bytes;
    if (tile != v->tex_l1.line)
        mg_diag_error(d, "%s: $.tex_l1.tile_w_texels: expected tile_w x tile_h x "
                      "tile_texel_bytes = line (%s), got %lld x %lld x %lld = %s", name,
                      sz(v->tex_l1.line, a, sizeof a), (long long)v->tile_w_texels,
                      (long long)v->tile_h_texels, (long long)v->tile_texel_bytes,
                      sz(tile, b, sizeof b));
    if (v->tex_l1.line > v->l2.line)
        mg_diag_error(d, "%s: $.tex_l1.line: expected at most l2.line (%s): an L1 line is "
                      "filled from one L2 line, got %s", name, sz(v->l2.line, a, sizeof a),
                      sz(v->tex_l1.line, b, sizeof b));
    if (v->l2.size < v->tex_l1.size)
        mg_diag_error(d, "%s: $.l2.size: expected at least tex_l1.size (%s), got %s", name,
                      sz(v->tex_l1.size, a, sizeof a), sz(v->l2.size, b, sizeof b));
    check_image_layout(v, name, d);
    check_l2_banks(v, name, d);
    if (v->buffer_path == MG_BUF_VIA_L1) {
        if (v->buf_l1.line > v->l2.line)
            mg_diag_error(d, "%s: $.buffer_l1.line: expected at most l2.line (%s), got %s",
                          name, sz(v->l2.line, a, sizeof a), sz(v->buf_l1.line, b, sizeof b));
    }
}

void mg_device_check_rules(mg_device *dev, const char *name, mg_diag *d)
{
    check_cache(&dev->tex_l1, "tex_l1", name, d);
    check_cache(&dev->l2, "l2", name, d);
    if (dev->buffer_path == MG_BUF_VIA_L1) check_cache(&dev->buf_l1, "buffer_l1", name, d);
    check_core(dev, name, d);
    check_registers(dev, name, d);
    check_memory(dev, name, d);
}

double mg_device_peak_flops(const mg_device *dev, int fp16)
{
    double per = fp16 ? dev->fp16_flops_per_alu_cycle : dev->fp32_flops_per_alu_cycle;
    return (double)dev->sp_count * (double)dev->alus_per_sp * per * dev->clock_hz;
}

double mg_device_tex_bandwidth(const mg_device *dev)
{
    if (dev->tex_unit_group_bytes <= 0) return dev->tex_l1.bandwidth;
    return (double)dev->tex_unit_group_bytes * dev->tex_unit_blocks_per_cycle *
           dev->clock_hz * (double)dev->sp_count;
}

int64_t mg_device_tex_sets(const mg_device *dev)
{
    return dev->tex_l1.size / (dev->tex_l1.line * dev->tex_l1.assoc);
}
