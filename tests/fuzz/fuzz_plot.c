/*
 * fuzz_plot.c - libFuzzer target: the inputs of `mgsim plot` (sim/plot/):
 * the input is given, as a file, to every plot kind's prepare step (run
 * reports, profiles and curves, sweep results, whatif and validate
 * reports), which writes its data files into a folder of the harness's.
 * The kinds share one mg_plot_docs, so the input is read and checked once,
 * not once per kind.  gnuplot is never run.
 */
#include "tests/fuzz/harness.h"

#include "sim/plot/plot.h"
#include "base/diag.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *input = (char *)mg_fuzz_file("input.json", NULL, data, size);
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/plot", mg_fuzz_dir());
    mg_plot_docs docs = {0};
    for (const mg_plot_kind *k = mg_plot_kinds; k->name; k++) {
        mg_plot_job job;
        mg_diag d;
        mg_diag_init(&d);
        int ok = mg_plot_job_init(&job, dir, &d) == 0;
        job.docs = &docs;
        if (ok && k->prepare(&job, 1, &input, &d) == 0) (void)mg_plot_job_finish(&job, &d);
        mg_plot_job_free(&job);
        mg_diag_free(&d);
    }
    mg_plot_docs_free(&docs);
    return 0;
}
