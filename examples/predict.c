/*
 * predict.c - libmgsim embedded: load a device config by name, simulate a
 * generated kernel, print its statistics, then sweep a small space.
 *
 *   cc predict.c $(pkg-config --cflags --libs mgsim) -o predict
 *   ./predict adreno640 "conv2d H=28 W=28 Cin=32 Cout=32" [SPACE.json]
 *
 * Exit status 0, or 2 with the library's one-line message on stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <mgsim.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: predict CONFIG \"OP key=value ...\" [SPACE.json]\n");
        return 2;
    }
    char err[512];
    mgsim_device *dev = mgsim_device_load(argv[1], err, sizeof err);
    if (!dev) {
        fprintf(stderr, "predict: %s\n", err);
        return 2;
    }
    mgsim_stats st;
    if (mgsim_run_schedule(dev, argv[2], &st, NULL, err, sizeof err)) {
        fprintf(stderr, "predict: %s\n", err);
        mgsim_device_free(dev);
        return 2;
    }
    printf("libmgsim %s (API %d) on %s\n", mgsim_version(), mgsim_api_version(),
           mgsim_device_name(dev));
    printf("%s: %.0f cycles = %.3f us, %.2f GFLOPS (bound %.2f, %s), %" PRIu64 " warps\n",
           argv[2], st.cycles, st.seconds * 1e6, st.gflops, st.bound_gflops, st.binding,
           st.warps);
    int rc = 0;
    if (argc > 3) {
        mgsim_sweep_summary sum;
        if (mgsim_sweep(dev, argv[3], NULL, 2, &sum, NULL, err, sizeof err)) {
            fprintf(stderr, "predict: %s\n", err);
            rc = 2;
        } else {
            printf("sweep: %" PRIu64 " candidates, %" PRIu64 " simulated, best #%" PRIu64
                   " %.3f us: %s\n", sum.candidates, sum.simulated, sum.best_index,
                   sum.best_seconds * 1e6, sum.best_schedule);
        }
    }
    mgsim_device_free(dev);
    return rc;
}
