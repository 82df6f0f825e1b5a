/* version.h - the one place the version is written. */
#ifndef MG_VERSION_H
#define MG_VERSION_H
#define MG_VERSION "0.1.0"

/* The model's revision: one more for every change that can change a
 * simulated figure or a record (the timing model, the generator's kernels
 * and traces, sampling, the rules' decisions, the record format).  Sweep
 * results headers carry it ("model"), so a results file written by another
 * revision is never resumed into a mix (configs/README.md). */
#define MG_MODEL_REVISION 7
#endif
