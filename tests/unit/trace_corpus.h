/*
 * trace_corpus.h - the committed trace files, rebuilt from code: the
 * sample traces/samples/small.mgt and the malformed files of
 * tests/bad/traces/.  test_trace.c checks that the committed bytes equal
 * what these functions build (so format drift is caught), and
 * `MG_TRACE_REGEN=1 build/tests/unit_tests trace_corpus` rewrites them.
 */
#ifndef MG_TEST_TRACE_CORPUS_H
#define MG_TEST_TRACE_CORPUS_H

#include <stddef.h>
#include <stdint.h>

#include "traces/trace.h"

/* Called with every record of the sample before it is put; may change it. */
typedef void (*mg_sample_hook)(mg_rec *r, uint32_t wgx, uint32_t warp, uint32_t index);

/* The sample's header: kernel "small_sample", global 32x2x1, local 16x2x1,
 * warp 16, images input (32x2 rgba fp32) and output (32x2 rgba fp16),
 * buffers weights (64 B constant), bias (128 B), out (256 B). */
void mg_sample_header(mg_trace_header *h);

/* Build work group (wgx, 0, 0) of the sample into wg: 2 warps of 16 lanes,
 * 14 records each (see trace_corpus.c).  hook may be NULL.  Returns 0. */
int mg_sample_wg(mg_trace_wg *wg, uint32_t wgx, mg_sample_hook hook);

/* Number of work groups and records in the sample. */
enum { MG_SAMPLE_WGS = 2, MG_SAMPLE_RECS_PER_WARP = 14 };

/* The bytes of the whole sample file, built without the file writer
 * (malloc'd; *len set), or of the sample with `hook` applied. */
uint8_t *mg_sample_bytes(size_t *len, mg_sample_hook hook);

/* One file of the bad corpus. */
typedef struct mg_bad_trace {
    const char *name;       /* file name under tests/bad/traces/ */
    uint8_t    *bytes;      /* malloc'd */
    size_t      len;
} mg_bad_trace;

/* Build every file of the bad corpus into out[0..max); returns the count. */
size_t mg_bad_traces(mg_bad_trace *out, size_t max);

#endif
