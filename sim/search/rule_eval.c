/*
 * rule_eval.c - evaluate the pruning rules on one planned kernel
 * (rule.h gives each rule's exact condition).
 */
#include "sim/search/rule.h"

#include <string.h>

static int has_input(const mg_kernel *k, int layout)
{
    for (int i = 0; i < k->n_tensors; i++)
        if (k->t[i].role == MG_TENSOR_IN && k->t[i].layout == layout) return 1;
    return 0;
}

static int l1_fires(const mg_rules *r, const mg_device *dev, const mg_kernel *k, int64_t wg)
{
    int64_t size;
    if (has_input(k, MG_TL_IMAGE)) size = dev->tex_l1.size;
    else if (dev->buffer_path == MG_BUF_VIA_L1) size = dev->buf_l1.size;
    else return 0;                       /* buffer loads bypass the L1 */
    int64_t bytes = !r->l1_items && k->f.wg_bytes_per_iter > 0 ? k->f.wg_bytes_per_iter
                                                                : wg * k->f.bytes_per_iter;
    return (double)bytes > r->l1_fraction * (double)size;
}

static int regs_fire(const mg_rules *r, const mg_device *dev, const mg_kernel *k, int64_t wg)
{
    int64_t regs = k->f.regs_per_item, g = dev->reg_granule > 0 ? dev->reg_granule : 1;
    regs = (regs + g - 1) / g * g;
    if (dev->max_regs_per_item > 0 && regs > dev->max_regs_per_item) return 1;
    if (dev->reg_model == MG_REG_SHARED_POOL)
        return (double)(regs * wg) > r->regs_fraction * (double)dev->pool_regs_per_sp;
    int64_t items = dev->max_items_per_sp;
    for (int i = 0; i < dev->nsteps; i++)
        if (regs <= dev->steps[i].max_regs) { items = dev->steps[i].max_items; break; }
    return (double)wg > r->regs_fraction * (double)items;
}

unsigned mg_rules_eval(const mg_rules *r, const mg_device *dev, const mg_schedule *s,
                       const mg_kernel *k)
{
    int64_t wg = k->local[0] * k->local[1] * k->local[2];
    unsigned m = 0;
    if (r->enabled[MG_RULE_L1] && l1_fires(r, dev, k, wg)) m |= 1u << MG_RULE_L1;
    if (r->enabled[MG_RULE_REGS] && regs_fire(r, dev, k, wg)) m |= 1u << MG_RULE_REGS;
    if (r->enabled[MG_RULE_BUFFER] && dev->buffer_path == MG_BUF_VIA_L2 &&
        has_input(k, MG_TL_BUFFER))
        m |= 1u << MG_RULE_BUFFER;
    if (r->enabled[MG_RULE_LOCAL] && k->f.local_bytes > 0) {
        int64_t alus = dev->alus_per_sp * (r->local_device ? dev->sp_count : 1);
        if ((double)wg > r->local_alpha * (double)alus) m |= 1u << MG_RULE_LOCAL;
    }
    if (r->enabled[MG_RULE_WARP] && (double)wg < r->warp_min_warps * (double)dev->warp_width)
        m |= 1u << MG_RULE_WARP;
    if (r->enabled[MG_RULE_WIDTH] && k->f.access_width > 0 &&
        k->f.access_width != r->width_best * mg_sched_elem_bytes(s))
        m |= 1u << MG_RULE_WIDTH;
    return m;
}

char *mg_rules_mask_str(unsigned mask, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (int i = 0; i < MG_RULE_COUNT; i++)
        if (mask & (1u << i) && o < len)
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "", mg_rule_names[i]);
    return buf;
}
