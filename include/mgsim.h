/*
 * mgsim.h - the public C API of libmgsim: the mobile-GPU timing model
 * embedded in another program (a compiler's cost model, a search loop).
 *
 * Stable: this header is the whole installed interface (the library's other
 * symbols are internal and may change).  MGSIM_API_VERSION grows only when
 * something is added; nothing here changes meaning.
 *
 *   mgsim_device *dev = mgsim_device_load("adreno640", err, sizeof err);
 *   mgsim_stats st;
 *   if (dev && mgsim_run_schedule(dev, "conv2d H=56 W=56 Cin=64 Cout=64",
 *                                 &st, err, sizeof err) == 0)
 *       printf("%.3f us\n", st.seconds * 1e6);
 *   mgsim_device_free(dev);
 *
 * Link with `pkg-config --cflags --libs mgsim` (libmgsim.so or libmgsim.a;
 * the static library also needs -lcjson -lm -lpthread, which pkg-config
 * --static lists).  Every function is thread-safe on distinct arguments;
 * a loaded device is read only and may be shared by threads.  Errors are
 * one line, as the command-line tools print them, written into err (size
 * errlen; err may be NULL).  Results are deterministic: the same inputs
 * give the same numbers, as `mgsim run` and `mgsim sweep` print them.
 */
#ifndef MGSIM_H
#define MGSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MGSIM_API_VERSION 1

/* The library exports these symbols and no others. */
#if defined(__GNUC__)
#define MGSIM_API __attribute__((visibility("default")))
#else
#define MGSIM_API
#endif

/* A loaded, checked device config (opaque). */
typedef struct mgsim_device mgsim_device;

/* The statistics of one simulated kernel launch (as `mgsim run` reports). */
typedef struct mgsim_stats {
    double   cycles;               /* kernel time in shader cycles */
    double   seconds;              /* the same at the device's clock */
    double   flops;                /* floating-point operations */
    double   gflops;               /* flops / seconds / 1e9 */
    double   bound_gflops;         /* the roofline's attainable GFLOPS */
    char     binding[16];          /* what binds it: "compute", "l2", "dram", ... */
    uint64_t warp_instrs;          /* warp instructions replayed */
    uint64_t work_groups, warps;   /* of the launch */
    double   resident_warps_mean;  /* per shader core, while busy */
    uint32_t resident_warps_max;
    uint32_t registers_per_item;   /* the trace header's register estimate */
} mgsim_stats;

/* The version of the library ("0.1.0") and of this header's API. */
MGSIM_API const char *mgsim_version(void);
MGSIM_API int mgsim_api_version(void);

/* Load a device config: a path ("configs/devices/adreno640.json") or a
 * name found through the config search path (the current directory,
 * $MGSIM_PATH, the installed share/mgsim/configs: see mgsim(1)).  NULL
 * on error. */
MGSIM_API mgsim_device *mgsim_device_load(const char *config, char *err, size_t errlen);
MGSIM_API void mgsim_device_free(mgsim_device *dev);

/* The config's name ("adreno640"). */
MGSIM_API const char *mgsim_device_name(const mgsim_device *dev);

/* Simulate a generated kernel: `schedule` is the words `mgsim run` takes,
 * "OP key=value ..." ("matmul M=256 N=256 K=256 tile=4x4").  With json
 * non-NULL, *json receives the whole `mgsim run --json` report (free it
 * with mgsim_free).  0, or -1 with the reason in err. */
MGSIM_API int mgsim_run_schedule(const mgsim_device *dev, const char *schedule, mgsim_stats *st,
                       char **json, char *err, size_t errlen);

/* Simulate a recorded trace file (.mgt, traces/FORMAT.md); as above. */
MGSIM_API int mgsim_run_trace(const mgsim_device *dev, const char *trace_path, mgsim_stats *st,
                    char **json, char *err, size_t errlen);

/* The outcome of a sweep (as `mgsim sweep` summarizes it). */
typedef struct mgsim_sweep_summary {
    uint64_t candidates;           /* members of the space */
    uint64_t kept;                 /* kept by the rules (all without rules) */
    uint64_t simulated;            /* simulated to the end */
    uint64_t failed;               /* rejected by the generator or the model */
    uint64_t best_index;           /* the fastest candidate's member number */
    double   best_seconds;         /* its time (0 when none was simulated) */
    char     best_schedule[1024];  /* its schedule words */
} mgsim_sweep_summary;

/* Sweep a search space (a path, a configs/spaces file) on dev, pruned by
 * rules (a path, or NULL for none; with rules only the kept candidates
 * are simulated), on `threads` threads (>= 1).  With json non-NULL, *json
 * receives the `mgsim sweep --json` summary (free with mgsim_free).  No
 * results file is written.  0, or -1 with the reason in err. */
MGSIM_API int mgsim_sweep(const mgsim_device *dev, const char *space, const char *rules, int threads,
                mgsim_sweep_summary *sum, char **json, char *err, size_t errlen);

/* Free what the library returned (the json strings). */
MGSIM_API void mgsim_free(void *p);

#ifdef __cplusplus
}
#endif

#endif
