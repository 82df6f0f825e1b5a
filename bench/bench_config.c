/*
 * bench_config.c - how fast device configs load, check and print.
 * Prints figures; asserts nothing.  Usage: bench_config FILE [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "sim/config/device.h"
#include "base/jsonfile.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_config FILE [SECONDS]\n");
        return 2;
    }
    double secs = argc > 2 ? atof(argv[2]) : 1.0;
    mg_device *dev = malloc(sizeof *dev);
    if (!dev) return 2;
    long n = 0;
    double t0 = now(), t;
    do {
        mg_diag d;
        mg_diag_init(&d);
        if (mg_device_load(argv[1], 1, dev, &d)) {
            mg_diag_print(&d, stderr, "bench_config");
            return 2;
        }
        mg_diag_free(&d);
        n++;
    } while ((t = now() - t0) < secs);
    printf("config load+check (file, parse, schema, rules, sources): %.0f configs/s "
           "(%.1f us each, %ld loads)\n", n / t, 1e6 * t / n, n);
    long m = 0;
    t0 = now();
    do {
        cJSON *j = mg_device_to_json(dev);
        cJSON_Delete(j);
        m++;
    } while ((t = now() - t0) < secs);
    printf("config resolve to JSON: %.0f configs/s (%.1f us each)\n", m / t, 1e6 * t / m);
    free(dev);
    return 0;
}
