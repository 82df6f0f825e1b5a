/* strsim.c - see strsim.h. */
#include "base/strsim.h"

#include <stdio.h>
#include <string.h>

#define STRSIM_MAX 127

size_t mg_edit_distance_max(const char *a, const char *b, size_t max)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > STRSIM_MAX) la = STRSIM_MAX;
    if (lb > STRSIM_MAX) lb = STRSIM_MAX;
    if ((la > lb ? la - lb : lb - la) > max) return max + 1;   /* a lower bound */
    /* A second lower bound, linear: an edit changes the letter counts by
     * at most 2 in all (a substitution -1 and +1, an insertion or deletion
     * 1, a transposition 0), so the distance is at least half the L1
     * difference of the two words' letter counts.  Most candidates of a
     * suggestion fail here, without the quadratic table. */
    if (max < la + lb) {
        int cnt[256] = {0};
        size_t l1 = 0;
        for (size_t i = 0; i < la; i++) cnt[(unsigned char)a[i]]++;
        l1 = la;
        for (size_t j = 0; j < lb; j++) {
            int *c = &cnt[(unsigned char)b[j]];
            if (*c > 0) l1--; else l1++;
            (*c)--;
        }
        if ((l1 + 1) / 2 > max) return max + 1;
    }
    /* Three rolling rows: i-2, i-1, i.  A cell is at least the minimum of
     * the row above or (by a transposition) of the row two above, so once
     * two rows in a row exceed max, every later one does. */
    size_t r0[STRSIM_MAX + 1], r1[STRSIM_MAX + 1], r2[STRSIM_MAX + 1];
    size_t *pp = r0, *p = r1, *c = r2;
    size_t min_pp = 0, min_p = 0;
    for (size_t j = 0; j <= lb; j++) p[j] = j;
    for (size_t i = 1; i <= la; i++) {
        c[0] = i;
        size_t min_c = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t v = p[j] + 1;                       /* deletion */
            if (c[j - 1] + 1 < v) v = c[j - 1] + 1;    /* insertion */
            if (p[j - 1] + cost < v) v = p[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < v)
                v = pp[j - 2] + 1;                     /* transposition */
            c[j] = v;
            if (v < min_c) min_c = v;
        }
        size_t *t = pp; pp = p; p = c; c = t;
        min_pp = min_p;
        min_p = min_c;
        if (i > 1 && min_p > max && min_pp > max) return max + 1;
    }
    return p[lb] > max ? max + 1 : p[lb];
}

size_t mg_edit_distance(const char *a, const char *b)
{
    return mg_edit_distance_max(a, b, (size_t)-1 - 1);
}

const char *mg_suggest(const char *word, const char *const *cands, size_t n)
{
    const char *best = NULL;
    size_t bestd = (size_t)-1;
    size_t lw = strlen(word);
    size_t limit = lw / 3 > 1 ? lw / 3 : 1;
    if (limit < 2 && lw >= 4) limit = 2;
    for (size_t i = 0; i < n && bestd > 0; i++) {
        size_t lc = strlen(cands[i]);
        int prefix = lw >= 3 && lc >= 3 &&
                     (strncmp(word, cands[i], lw < lc ? lw : lc) == 0);
        /* Only a distance below bestd (and within limit, unless a prefix)
         * can win: the DP stops as soon as it cannot. */
        size_t max = prefix || limit > bestd - 1 ? bestd - 1 : limit;
        size_t d = mg_edit_distance_max(word, cands[i], max);
        if (d <= max) {
            best = cands[i];
            bestd = d;
        }
    }
    return best;
}

const char *mg_hint_of(mg_hint *h, const char *sug, const char *q)
{
    if (sug) snprintf(h->text, sizeof h->text, " (did you mean %s%s%s?)", q, sug, q);
    else h->text[0] = '\0';
    return h->text;
}

const char *mg_hint_near(mg_hint *h, const char *word, const char *const *cands, size_t n,
                         const char *q)
{
    return mg_hint_of(h, mg_suggest(word, cands, n), q);
}

char *mg_join_names(char *buf, size_t len, const char *const *names, size_t n, const char *sep)
{
    if (!len) return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        if (i) strncat(buf, sep, len - strlen(buf) - 1);
        strncat(buf, names[i], len - strlen(buf) - 1);
    }
    return buf;
}
