/*
 * fifo.c - first in, first out: the victim is the way filled longest ago;
 * hits change nothing.  A fill stamp per way (stamp.h).
 */
#include "sim/model/cache/cache.h"
#include "sim/model/cache/stamp.h"

const mg_repl_policy mg_repl_fifo = {
    .name = "fifo",
    .state_bytes = mg_stamps_bytes,
    .fill = mg_stamps_set,
    .victim = mg_stamps_oldest,
};
