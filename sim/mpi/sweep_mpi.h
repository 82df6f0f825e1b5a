/*
 * sweep_mpi.h - `mgsim-mpi sweep` under mpirun: one sweep split over the
 * ranks of an MPI job (built only with `make MPI=1`; nothing else in
 * mgsim includes MPI).
 *
 * Every rank loads the same inputs (checked: a rank whose config, space,
 * rules or options differ stops the job with exit 2) and simulates its
 * shard (search/shard.h: rank r of N is shard r/N) on its -j threads.
 * Rank 0 alone owns the results file: it scans the space and resumes the
 * file as one process does, sends every rank the list of candidates on
 * file, and writes every rank's results, received as result lines, in
 * candidate order through the sweep engine (mg_sweep_dist.fetch) - so the
 * file is byte for byte one process's, resumes as one, and may be resumed
 * by one process (or by a job of another size) after an interruption.
 *
 * Traffic: one result line (about 600 bytes) per candidate to rank 0,
 * plus once the list of resumed candidates (8 bytes each) to every rank.
 * A rank that fails sends its message to rank 0, which reports it, closes
 * the file on complete records and aborts the job with exit 2; an
 * interrupt (SIGINT/SIGTERM, which mpirun forwards) stops every rank and
 * leaves the file resumable, exit 130.
 */
#ifndef MG_SWEEP_MPI_H
#define MG_SWEEP_MPI_H

/* MPI_Init when this process was started by an MPI launcher
 * (mg_sweep_under_mpi), with threads (MPI_THREAD_SERIALIZED).  Returns 0,
 * or -1 after printing why. */
int mg_mpi_start(int *argc, char ***argv);

/* End the job for exit status rc: a clean finalize, or (rank 0 ending in
 * error or interrupted before every rank ended) an abort with rc.
 * Returns rc. */
int mg_mpi_end(int rc);

/* `mgsim sweep` over the MPI job (as mg_cmd_sweep without one). */
int mg_mpi_cmd_sweep(int argc, char **argv);

#endif
