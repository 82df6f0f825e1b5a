/*
 * plot.h - `mgsim plot`: mgsim's JSON outputs turned into gnuplot data files,
 * rendered by the gnuplot scripts in plots/.
 *
 * A plot job owns a data folder.  A kind's prepare function reads its
 * inputs (JSON documents only, never internal state), writes data files
 * there (whitespace-separated numeric columns; blocks separated by two
 * blank lines, so a script selects block i with `index i`) and assigns
 * gnuplot variables in DIR/meta.gp, which the script loads.  Strings (names,
 * labels) only ever go to meta.gp, as single-quoted gnuplot strings.  The C
 * side decides what is plotted (points, ranges, log or linear); colours,
 * marks and layout belong to the scripts.
 *
 * Everything written is deterministic: same inputs, same bytes.
 */
#ifndef MG_PLOT_H
#define MG_PLOT_H

#include <stdio.h>
#include <cjson/cJSON.h>

#include "base/diag.h"

/* The JSON documents that plot jobs have read, kept for later jobs: a
 * caller preparing several kinds from the same files (the fuzz target
 * gives one input to every kind) reads and checks each file once.  The
 * files must not change while it is in use.  Zeroed: empty. */
#define MG_PLOT_DOCS 8
typedef struct mg_plot_docs {
    int n;
    struct {
        char  *file;         /* the name it was read by */
        cJSON *doc;          /* its document, or NULL when it did not load */
        mg_diag msgs;        /* what loading it reported */
    } e[MG_PLOT_DOCS];
} mg_plot_docs;

typedef struct mg_plot_job {
    char        dir[4096];   /* the data folder */
    int         keep;        /* 1: a folder the user named (--data): kept */
    FILE       *meta;        /* DIR/meta.gp while preparing */
    const char *config;      /* --config CFG (roofline ceilings), or NULL */
    char        summary[512];/* one line for the user, set by prepare */
    mg_plot_docs *docs;      /* documents read once (set after init), or NULL */
} mg_plot_job;

typedef struct mg_plot_kind {
    const char *name;        /* "roofline" */
    const char *script;      /* its file in the scripts folder: "roofline.gp" */
    const char *input;       /* what INPUT is, one line for --help */
    int         max_inputs;  /* 1, or more (0: any number) */
    /* Read inputs[0..n-1], write the data.  0, or -1 with messages in d. */
    int (*prepare)(mg_plot_job *job, int n, char **inputs, mg_diag *d);
} mg_plot_kind;

extern const mg_plot_kind mg_plot_kinds[];   /* NULL-name terminated */

/* The kind called name, or NULL. */
const mg_plot_kind *mg_plot_kind_find(const char *name);

/* Make the data folder: dir (created when missing, kept) or, when NULL, a
 * fresh temporary folder removed by mg_plot_job_free.  Opens meta.gp.
 * Returns 0, or -1 with a message in d. */
int mg_plot_job_init(mg_plot_job *job, const char *dir, mg_diag *d);

/* Close meta.gp.  Returns 0, or -1 on a write error (message in d). */
int mg_plot_job_finish(mg_plot_job *job, mg_diag *d);

/* Close what is open and remove a temporary data folder with its files. */
void mg_plot_job_free(mg_plot_job *job);

/* The JSON document of file (mg_json_load), from job->docs when it has
 * the file (then the messages of its loading are added to d again), read
 * into it when there is room.  Hand it back with mg_plot_unload; never
 * change it.  NULL with a message in d when the file does not load. */
cJSON *mg_plot_load(mg_plot_job *job, const char *file, mg_diag *d);

/* Free a document of mg_plot_load unless job->docs keeps it (NULL: none). */
void mg_plot_unload(mg_plot_job *job, cJSON *doc);

/* Free the documents and empty docs. */
void mg_plot_docs_free(mg_plot_docs *docs);

/* Create DIR/name for writing.  NULL with a message in d on failure. */
FILE *mg_plot_data_open(mg_plot_job *job, const char *name, mg_diag *d);

/* Close a data file; -1 with a message in d on a write error. */
int mg_plot_data_close(mg_plot_job *job, FILE *f, const char *name, mg_diag *d);

/* Write "x y ..." numbers as one data row (shortest exact form; NaN for
 * a missing value, which gnuplot skips). */
void mg_plot_row(FILE *f, int n, const double *v);

/* Assign gnuplot variables in meta.gp: a number, a string (single-quoted,
 * control characters blanked), a printf-formatted string. */
void mg_plot_var_num(mg_plot_job *job, const char *name, double v);

/* `input`: the INPUT files for the title ("a.json", or "a.json and 2
 * more"), by their base names.  Set before prepare, which may set its own
 * (validate: the timings file the report names). */
void mg_plot_var_input(mg_plot_job *job, int n, char **inputs);

/* `input` from a validation report: the base name of its $.timings (the
 * measured file), when it has one. */
void mg_plot_var_timings(mg_plot_job *job, const cJSON *report);
void mg_plot_var_str(mg_plot_job *job, const char *name, const char *v);
void mg_plot_var_strf(mg_plot_job *job, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* s as a single-quoted gnuplot string literal into buf (truncated to fit). */
char *mg_plot_quote(const char *s, char *buf, size_t len);

/* JSON access with messages "FILE: $.path: expected ..., got ...".
 * Each returns 0 and the value, or -1 after adding the message to d. */
int mg_plot_get_num(const cJSON *o, const char *key, const char *file, const char *path,
                    double *v, mg_diag *d);
int mg_plot_get_pos(const cJSON *o, const char *key, const char *file, const char *path,
                    double *v, mg_diag *d);        /* > 0 */
int mg_plot_get_str(const cJSON *o, const char *key, const char *file, const char *path,
                    const char **v, mg_diag *d);
const cJSON *mg_plot_get_obj(const cJSON *o, const char *key, const char *file,
                             const char *path, mg_diag *d);  /* NULL on error */
const cJSON *mg_plot_get_arr(const cJSON *o, const char *key, const char *file,
                             const char *path, mg_diag *d);  /* NULL on error */

/* Axis range helpers: the power of 10 at or below / at or above v > 0. */
double mg_plot_decade_floor(double v);
double mg_plot_decade_ceil(double v);

/* The kinds' prepare functions (plot_roofline.c, plot_curves.c, ...). */
int mg_plot_prepare_roofline(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_regs(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_chase(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_sweep(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_whatif(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_net(mg_plot_job *job, int n, char **inputs, mg_diag *d);

/* Sweep results files (plot_sweep.c).  Is file a results file of `mgsim
 * sweep -o` (its first line names schema mgsim-sweep/1)? */
int mg_plot_is_sweep(const char *file);

/* Called per record: the header line's object, the record's, and where
 * it is ("FILE:LINE").  Returns 0, or -1 to stop with a message in d. */
typedef int (*mg_plot_sweep_fn)(void *ctx, const cJSON *header, const cJSON *rec,
                                const char *where, mg_diag *d);

/* Read a results file: check the header, call fn for every record (a torn
 * last line is skipped with a warning in d).  *header (when not NULL) gets
 * the header object, the caller's to free.  Returns 0, or -1 with a
 * message in d. */
int mg_plot_sweep_read(const char *file, mg_plot_sweep_fn fn, void *ctx, cJSON **header,
                       mg_diag *d);
int mg_plot_prepare_validate(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_compare(mg_plot_job *job, int n, char **inputs, mg_diag *d);
int mg_plot_prepare_residuals(mg_plot_job *job, int n, char **inputs, mg_diag *d);

/* Rendering (plot_render.c).  The gnuplot executable on PATH, or NULL. */
char *mg_plot_find_gnuplot(void);

/* The folder holding the scripts: $MGSIM_PLOTS, else next to the running
 * binary (BINDIR/../share/mgsim/plots installed, BINDIR/../plots and
 * BINDIR/../../../plots in the source tree), checked for script.  NULL
 * when none has it. */
char *mg_plot_find_scripts(const char *script);

/* Render the job's data with scripts/script into out (.png or .svg,
 * written to a temporary and renamed: nothing at out on failure; "-": a
 * PNG on stdout, which the caller has checked is not a terminal).
 * gnuplot's own messages go to stderr.  Returns 0, or -1 with a message
 * in d. */
int mg_plot_render(const mg_plot_job *job, const char *gnuplot, const char *scripts,
                   const char *script, const char *out, mg_diag *d);

/* The terminal for an output name: "png", "svg", or NULL when the
 * extension is neither; "-" (stdout) is "png". */
const char *mg_plot_term(const char *out);

#endif
