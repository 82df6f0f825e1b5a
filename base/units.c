/* units.c - see units.h. */
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct unit_def {
    const char *suffix;
    double      scale;
} unit_def;

/* Each table is ordered from the largest unit to the smallest: the printer
 * takes the first unit in which the value is a short exact number.  Decimal
 * byte units come after the binary ones so sizes print in KiB/MiB when they
 * can; bandwidths are conventionally decimal, so GB/s comes first there. */
static const unit_def size_units[] = {
    {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0},
    {"KiB", 1024.0}, {"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"kB", 1e3},
    {"B", 1.0}, {NULL, 0}};
static const unit_def freq_units[] = {
    {"GHz", 1e9}, {"MHz", 1e6}, {"kHz", 1e3}, {"Hz", 1.0}, {NULL, 0}};
static const unit_def bw_units[] = {
    {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"kB/s", 1e3},
    {"TiB/s", 1099511627776.0}, {"GiB/s", 1073741824.0},
    {"MiB/s", 1048576.0}, {"KiB/s", 1024.0}, {"B/s", 1.0}, {NULL, 0}};
static const unit_def time_units[] = {
    {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12},
    {NULL, 0}};

static const unit_def *units_for(mg_unit_kind k)
{
    switch (k) {
    case MG_UNIT_SIZE: return size_units;
    case MG_UNIT_FREQ: return freq_units;
    case MG_UNIT_BANDWIDTH: return bw_units;
    case MG_UNIT_TIME: return time_units;
    }
    return size_units;
}

const char *mg_unit_name(mg_unit_kind k)
{
    switch (k) {
    case MG_UNIT_SIZE: return "size";
    case MG_UNIT_FREQ: return "frequency";
    case MG_UNIT_BANDWIDTH: return "bandwidth";
    case MG_UNIT_TIME: return "time";
    }
    return "?";
}

const char *mg_unit_example(mg_unit_kind k)
{
    switch (k) {
    case MG_UNIT_SIZE: return "\"1KiB\"";
    case MG_UNIT_FREQ: return "\"585MHz\"";
    case MG_UNIT_BANDWIDTH: return "\"194.5GB/s\"";
    case MG_UNIT_TIME: return "\"120ns\"";
    }
    return "?";
}

/* Suffixes that people write but that we refuse, with the reason. */
static const char *ambiguous_reason(mg_unit_kind k, const char *suf)
{
    if (k == MG_UNIT_SIZE || k == MG_UNIT_BANDWIDTH) {
        if (!strcmp(suf, "KB") || !strcmp(suf, "KB/s"))
            return "ambiguous: write KiB (1024) or kB (1000)";
        if (!strcmp(suf, "K") || !strcmp(suf, "M") || !strcmp(suf, "G"))
            return "ambiguous: write KiB/MiB/GiB (binary) or kB/MB/GB (decimal)";
        if (!strcmp(suf, "b") || !strcmp(suf, "Kb") || !strcmp(suf, "Mb") ||
            !strcmp(suf, "Gb") || !strcmp(suf, "Gb/s") || !strcmp(suf, "Mb/s"))
            return "bits are not accepted: write bytes (B)";
        if (!strcmp(suf, "GBps") || !strcmp(suf, "MBps"))
            return "write the rate as GB/s or MB/s";
    }
    if (k == MG_UNIT_TIME && !strcmp(suf, "cycles"))
        return "this key takes a time; cycle counts go in *_cycles keys";
    return NULL;
}

int mg_unit_parse(mg_unit_kind kind, const char *s, double *out,
                  char *err, size_t errlen)
{
    const char *p = s;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) {
        snprintf(err, errlen, "empty %s; write e.g. %s", mg_unit_name(kind),
                 mg_unit_example(kind));
        return -1;
    }
    errno = 0;
    char *end;
    double v = strtod(p, &end);
    if (end == p || !isfinite(v) || errno == ERANGE) {
        snprintf(err, errlen, "'%s' does not start with a finite number; write e.g. %s",
                 s, mg_unit_example(kind));
        return -1;
    }
    /* strtod accepts "inf", "nan" and hex; only plain decimals here. */
    for (const char *q = p; q < end; q++) {
        if (!(isdigit((unsigned char)*q) || *q == '.' || *q == 'e' || *q == 'E' ||
              *q == '-' || *q == '+')) {
            snprintf(err, errlen, "'%s' is not a plain decimal number with a unit", s);
            return -1;
        }
    }
    while (isspace((unsigned char)*end)) end++;
    char suf[16];
    size_t n = strlen(end);
    while (n > 0 && isspace((unsigned char)end[n - 1])) n--;
    if (n == 0) {
        snprintf(err, errlen, "'%s' has no unit; write e.g. %s", s,
                 mg_unit_example(kind));
        return -1;
    }
    if (n >= sizeof suf) {
        snprintf(err, errlen, "unknown %s unit in '%s'", mg_unit_name(kind), s);
        return -1;
    }
    memcpy(suf, end, n);
    suf[n] = '\0';
    const char *why = ambiguous_reason(kind, suf);
    if (why) {
        snprintf(err, errlen, "unit '%s' in '%s' is not accepted (%s)", suf, s, why);
        return -1;
    }
    for (const unit_def *u = units_for(kind); u->suffix; u++) {
        if (!strcmp(u->suffix, suf)) {
            double r = v * u->scale;
            if (!isfinite(r)) {
                snprintf(err, errlen, "'%s' overflows", s);
                return -1;
            }
            if (r != 0 && fabs(r) < DBL_MIN) {      /* subnormal: would not parse back */
                snprintf(err, errlen, "'%s' underflows (below %g in base units)", s, DBL_MIN);
                return -1;
            }
            *out = r;
            return 0;
        }
    }
    char list[128] = "";
    for (const unit_def *u = units_for(kind); u->suffix; u++) {
        if (list[0]) strncat(list, " ", sizeof list - strlen(list) - 1);
        strncat(list, u->suffix, sizeof list - strlen(list) - 1);
    }
    snprintf(err, errlen, "unknown %s unit '%s' in '%s' (known: %s)",
             mg_unit_name(kind), suf, s, list);
    return -1;
}

/* True when v/scale printed with %.6g parses back to exactly v. */
static int exact_in(double v, double scale, char *num, size_t len)
{
    double q = v / scale;
    if (fabs(q) < 1.0) return 0;
    snprintf(num, len, "%.6g", q);
    if (strchr(num, 'e')) return 0;
    double back = strtod(num, NULL) * scale;
    return back == v || fabs(back - v) <= fabs(v) * 1e-15;
}

char *mg_unit_format(mg_unit_kind kind, double v, char *buf, size_t len)
{
    const unit_def *u = units_for(kind);
    char num[64];
    if (v == 0.0) {
        const unit_def *last = u;
        while ((last + 1)->suffix) last++;
        if (kind == MG_UNIT_TIME) last = &time_units[0];
        snprintf(buf, len, "0%s", last->suffix);
        return buf;
    }
    for (; u->suffix; u++) {
        if (exact_in(v, u->scale, num, sizeof num)) {
            snprintf(buf, len, "%s%s", num, u->suffix);
            return buf;
        }
    }
    /* No short exact form: full precision in the base unit. */
    u = units_for(kind);
    while ((u + 1)->suffix) u++;
    if (kind == MG_UNIT_TIME) u = &time_units[0];
    snprintf(buf, len, "%.17g%s", v, u->suffix);
    return buf;
}
