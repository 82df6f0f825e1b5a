/*
 * occupancy.c - how many warps of a work group can be resident on one SP
 * at once (sim/MODEL.md, "Occupancy").
 */
#include "sim/model/sim_internal.h"

uint64_t mg_occ_warp_regs(const mg_sim *s, uint32_t lanes)
{
    return (uint64_t)s->regs_per_item * lanes;
}

uint32_t mg_occ_warps(const mg_device *dev, uint32_t lanes, uint64_t regs_per_item)
{
    uint64_t cap = (uint64_t)dev->max_warps_per_sp;
    uint64_t by_items = (uint64_t)dev->max_items_per_sp / lanes;
    if (by_items < cap) cap = by_items;
    uint64_t by_regs;
    if (dev->reg_model == MG_REG_SHARED_POOL) {
        uint64_t per_warp = regs_per_item * lanes;
        by_regs = per_warp ? (uint64_t)dev->pool_regs_per_sp / per_warp : cap;
    } else {
        /* dedicated: the first step that holds this many registers; past the
         * last step the compiler spills and the last step applies */
        int64_t items = dev->steps[dev->nsteps - 1].max_items;
        for (int i = 0; i < dev->nsteps; i++) {
            if ((int64_t)regs_per_item <= dev->steps[i].max_regs) {
                items = dev->steps[i].max_items;
                break;
            }
        }
        by_regs = (uint64_t)items / lanes;
    }
    if (by_regs < cap) cap = by_regs;
    return (uint32_t)cap;
}

uint32_t mg_occ_group_warps(const mg_sim *s)
{
    return mg_occ_warps(s->dev, s->hdr->warp_width, s->regs_per_item);
}
