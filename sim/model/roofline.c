/*
 * roofline.c - the hierarchical roofline of a simulated kernel: each
 * memory level's bandwidth ceiling at the operation intensity the kernel
 * has at that level, and the compute peak; the lowest is the bound.
 */
#include "sim/model/model.h"

#include <string.h>

const char *mg_level_name(int lv)
{
    static const char *const n[] = {"tex_l1", "buffer_l1", "local", "constant", "l2", "dram"};
    return lv >= 0 && lv < MG_LV_COUNT ? n[lv] : "compute";
}

void mg_roofline_compute(const mg_device *dev, const mg_sim_stats *st, mg_roofline *r)
{
    memset(r, 0, sizeof *r);
    r->peak_flops = mg_device_peak_flops(dev, st->fp16_dominant);
    r->bw[MG_LV_TEX_L1] = mg_device_tex_bandwidth(dev);
    r->bw[MG_LV_BUF_L1] = dev->buffer_path == MG_BUF_VIA_L1 ? dev->buf_l1.bandwidth : 0;
    r->bw[MG_LV_LOCAL] = dev->local_kind == MG_LOCAL_ONCHIP ? dev->local_bandwidth : 0;
    r->bw[MG_LV_CONST] = dev->const_bandwidth;
    r->bw[MG_LV_L2] = dev->l2.bandwidth;
    r->bw[MG_LV_DRAM] = dev->dram_bandwidth;
    r->bound_flops = r->peak_flops;
    r->binding = -1;
    for (int lv = 0; lv < MG_LV_COUNT; lv++) {
        if (st->lv[lv].bytes <= 0 || r->bw[lv] <= 0) continue;
        r->oi[lv] = st->flops / st->lv[lv].bytes;
        double ceiling = r->oi[lv] * r->bw[lv];
        if (ceiling < r->bound_flops) {
            r->bound_flops = ceiling;
            r->binding = lv;
        }
    }
    if (st->flops > 0 && r->bound_flops > 0) {
        r->bound_seconds = st->flops / r->bound_flops;
        r->over_bound = st->seconds / r->bound_seconds;
    }
    r->achieved_flops = st->seconds > 0 ? st->flops / st->seconds : 0;
}
