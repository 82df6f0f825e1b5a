/*
 * print.h - printing a resolved device config (internal to the CLI).
 */
#ifndef MG_EMIT_H
#define MG_EMIT_H

#include <stddef.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"

/* Schema row i of dev as JSON (canonical units).  Caller owns it. */
cJSON *mg_device_field_json(const mg_device *dev, size_t i);

/* Schema row i of dev as one line of text. */
char *mg_device_field_text(const mg_device *dev, size_t i, char *buf, size_t len);

/* A table: key, value, origin (file|default), source. */
void mg_device_print_text(const mg_device *dev, FILE *out);

#endif
