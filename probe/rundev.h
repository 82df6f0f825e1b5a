/*
 * rundev.h - the device of `mgprobe run` and `mgprobe time`: the opened
 * kexec device, what the aspects need beyond it (aspect.h mgp_devp), and
 * its description for the JSON outputs (the `mgprobe devices --json`
 * object of the device, plus its platform).
 */
#ifndef MGP_RUNDEV_H
#define MGP_RUNDEV_H

#include "probe/aspect.h"

#include <cjson/cJSON.h>

typedef struct mgp_rundev {
    mgp_kexec_dev x;
    mgp_devp      p;
    cJSON        *json;        /* the device object (owned) */
} mgp_rundev;

/* Open device "P:D" (cmd names the command in messages).  Returns 0, or
 * -1 after printing why (the command exits MGP_EXIT_NODEV) (with an install hint when there is no OpenCL
 * platform at all). */
int mgp_rundev_open(mgp_rundev *rd, const char *cmd, unsigned pi, unsigned di);
void mgp_rundev_close(mgp_rundev *rd);

/* The current UTC time as "YYYY-MM-DDTHH:MM:SSZ" into buf. */
const char *mgp_utc_now(char *buf, size_t len);

#endif
