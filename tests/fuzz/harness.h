/*
 * harness.h - what the libFuzzer targets in tests/fuzz/ share: the input
 * as a NUL-terminated string, as strict JSON, or as a file (for loaders
 * that take only a path), a shipped device config, and silencing what a
 * parser prints on stderr.
 *
 * Targets run from the repository root (`make fuzz` does), so the shipped
 * configs are found by their relative paths.  Files live in one temporary
 * folder per process, removed at exit.  Everything aborts on a harness
 * failure (out of memory, an unwritable temp folder): a fuzzer that
 * silently tests nothing would be worse.
 */
#ifndef MG_FUZZ_HARNESS_H
#define MG_FUZZ_HARNESS_H

#include <stddef.h>
#include <stdint.h>
#include <cjson/cJSON.h>

#include "sim/config/device.h"

/* The libFuzzer entry point each target defines. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* data as a malloc'd NUL-terminated string (caller frees). */
char *mg_fuzz_text(const uint8_t *data, size_t size);

/* data parsed as strict JSON (base/jsonfile), or NULL when it is not. */
cJSON *mg_fuzz_json(const uint8_t *data, size_t size);

/* Write `head` (may be NULL) then data to the file `name` in the
 * process's temporary folder, replacing what it held; returns its path
 * (valid until the next call with the same name). */
const char *mg_fuzz_file(const char *name, const char *head, const uint8_t *data,
                         size_t size);

/* The process's temporary folder (created on first use). */
const char *mg_fuzz_dir(void);

/* configs/devices/adreno640.json, loaded once (its document in *doc when
 * doc is not NULL). */
const mg_device *mg_fuzz_device(const cJSON **doc);

/* Send stderr to /dev/null (on = 1) or back (on = 0). */
void mg_fuzz_quiet(int on);

/* Abort with msg when cond is false: a property every accepted input must
 * have (a round trip, a bound) failed. */
void mg_fuzz_assert(int cond, const char *msg);

#endif
