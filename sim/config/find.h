/*
 * find.h - device configs found by name through a search path.
 *
 * A config argument that contains a '/' or ends in ".json" is a path and is
 * used as written.  Any other word (`--config adreno640`) is a name: the
 * first existing file among DIR/NAME.json, DIR/devices/NAME.json and
 * DIR/configs/devices/NAME.json (a source tree), for DIR in this order:
 *
 *   1. the current directory
 *   2. each directory of $MGSIM_PATH (colon-separated; empty entries skipped)
 *   3. PREFIX/share/mgsim/configs next to the running program
 *      (EXE/../share/mgsim/configs, so an installed tree moved or installed
 *      under DESTDIR still finds its own configs), and EXE/../configs (a
 *      build in a source tree: bin/mgsim finds configs/devices/); for
 *      libmgsim.so loaded by another program (Python), LIBDIR/../share/
 *      mgsim/configs beside the library
 *   4. MGSIM_DATADIR/configs, the directory `make install` fills
 *      (compiled in; default /usr/local/share/mgsim)
 *
 * When no file matches, the loader says so, naming what the user wrote,
 * with the nearest known config name (mg_config_hint).
 */
#ifndef MG_CONFIG_FIND_H
#define MG_CONFIG_FIND_H

#include <stddef.h>

#define MG_CONFIG_TOO_LONG  (-1)   /* the resolved path does not fit out */
#define MG_CONFIG_NOT_FOUND (-2)   /* a name no directory holds */

/* Resolve arg into out (size len, always terminated; arg itself when
 * nothing is found).  Returns 1 when a name was resolved to a file, 0 when
 * arg is a path or an existing file (used as written), or one of the two
 * negative codes above. */
int mg_config_find(const char *arg, char *out, size_t len);

/* The search path's directories, in order, one per call: writes the i-th
 * into out and returns 1, or returns 0 past the last (for messages and
 * the nearest-name hint). */
int mg_config_dir(size_t i, char *out, size_t len);

/* " (did you mean 'NEAR'?)" for a name no directory holds, or "". */
const char *mg_config_hint(const char *arg, char *out, size_t len);

#endif
