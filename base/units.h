/*
 * units.h - parse and print quantities written with unit suffixes.
 *
 * Config values that carry a physical unit are written as strings with an
 * explicit suffix ("1KiB", "585MHz", "194.5GB/s", "120ns"), so no value is
 * ever ambiguous.  Binary prefixes (KiB, MiB, GiB, TiB) are powers of 1024,
 * SI prefixes (kB, MB, GB, TB) powers of 1000.  "KB" (capital K, no i) is
 * rejected as ambiguous.  Bare numbers are rejected: the unit must be named.
 */
#ifndef MG_UNITS_H
#define MG_UNITS_H

#include <stddef.h>

typedef enum mg_unit_kind {
    MG_UNIT_SIZE,       /* bytes:        B KiB MiB GiB TiB kB MB GB TB */
    MG_UNIT_FREQ,       /* hertz:        Hz kHz MHz GHz */
    MG_UNIT_BANDWIDTH,  /* bytes/second: B/s kB/s MB/s GB/s TB/s KiB/s ... TiB/s */
    MG_UNIT_TIME        /* seconds:      ps ns us ms s */
} mg_unit_kind;

/* Parse `s` as a quantity of `kind` into base units (bytes, Hz, B/s, s).
 * Returns 0 on success.  On failure returns -1 and writes a short reason
 * (e.g. "unknown unit 'KB' (ambiguous: write KiB or kB)") into err. */
int mg_unit_parse(mg_unit_kind kind, const char *s, double *out,
                  char *err, size_t errlen);

/* Format `v` (base units) canonically: the largest unit in which it is an
 * exact, short number ("128KiB", "585MHz", "194.5GB/s", "120ns").  The
 * output parses back to v within a relative 1e-15 (the unit's scale may
 * round the last bit: 1.2e-6 s prints "1.2us", which parses to the double
 * below it).  Returns buf. */
char *mg_unit_format(mg_unit_kind kind, double v, char *buf, size_t len);

/* A one-word name and an example, for help texts and error messages. */
const char *mg_unit_name(mg_unit_kind kind);
const char *mg_unit_example(mg_unit_kind kind);

#endif
