/*
 * hash.h - the project's one hash: 64-bit FNV-1a.  Used where a hash is
 * written to a file or compared across runs (sweep file headers, from
 * their own offset basis: sim/search/sweep_file.c; the sweep memo;
 * mgprobe's register-count memo), so it must never change.
 */
#ifndef MG_HASH_H
#define MG_HASH_H

#include <stddef.h>
#include <stdint.h>

#define MG_FNV1A_INIT 0xcbf29ce484222325ull   /* the FNV-1a 64-bit offset basis */

/* Continue the FNV-1a hash h over n bytes at p (h = MG_FNV1A_INIT to start). */
uint64_t mg_fnv1a_more(uint64_t h, const void *p, size_t n);

/* FNV-1a of n bytes at p. */
uint64_t mg_fnv1a(const void *p, size_t n);

/* FNV-1a of the NUL-terminated string s (without its NUL). */
uint64_t mg_fnv1a_str(const char *s);

#endif
