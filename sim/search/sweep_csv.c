/*
 * sweep_csv.c - a sweep results file (JSON Lines, configs/README.md) as a
 * CSV table: one row per record, the schedule's knobs as columns (see
 * sweep.h mg_sweep_csv, base/csv.h).
 */
#include "sim/search/sweep.h"
#include "base/csv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Add the record on line no of path as a row.  0, or -1 with the problem
 * in d. */
static int add_record(mg_csv *t, const char *line, const char *path, uint64_t no, mg_diag *d)
{
    cJSON *r = cJSON_Parse(line);
    int rc = 0;
    if (!cJSON_IsObject(r)) {
        mg_diag_error(d, "%s:%" PRIu64 ": not a JSON object (a results file has one record "
                      "per line)", path, no);
        rc = -1;
    } else if (mg_csv_row(t) || mg_csv_set_json(t, "", r)) {
        mg_diag_error(d, "%s: out of memory", path);
        rc = -1;
    }
    cJSON_Delete(r);
    return rc;
}

int mg_sweep_csv(const char *results, const char *csv, mg_diag *d)
{
    FILE *f = fopen(results, "r");
    if (!f) {
        mg_diag_error(d, "%s: cannot read: %s", results, strerror(errno));
        return -1;
    }
    mg_csv *t = mg_csv_new();
    char *line = NULL;
    size_t cap = 0;
    uint64_t no = 0;
    ssize_t len;
    int rc = t ? 0 : -1;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        no++;
        if (line[len - 1] != '\n') break;        /* a torn last line: left out */
        if (no == 1) {
            if (!strstr(line, "\"schema\":\"mgsim-sweep/1\"")) {
                mg_diag_error(d, "%s:1: not a sweep results file (no \"schema\": "
                              "\"mgsim-sweep/1\" header)", results);
                rc = -1;
            }
            continue;
        }
        rc = add_record(t, line, results, no, d);
    }
    if (rc == 0 && no == 0) {
        mg_diag_error(d, "%s: empty (not a sweep results file)", results);
        rc = -1;
    }
    if (rc == 0) rc = mg_csv_save(t, csv, d);
    free(line);
    fclose(f);
    mg_csv_free(t);
    return rc;
}
