/* hash.c - see hash.h. */
#include "base/hash.h"

#include <string.h>

#define FNV1A_PRIME 0x100000001b3ull

uint64_t mg_fnv1a_more(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * FNV1A_PRIME;
    return h;
}

uint64_t mg_fnv1a(const void *p, size_t n) { return mg_fnv1a_more(MG_FNV1A_INIT, p, n); }

uint64_t mg_fnv1a_str(const char *s) { return mg_fnv1a(s, strlen(s)); }
