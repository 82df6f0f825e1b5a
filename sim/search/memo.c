/*
 * memo.c - a sweep's memory of simulated candidates (memo.h): an
 * open-addressing hash table from model keys to results.
 */
#include "sim/search/memo.h"

#include "base/hash.h"
#include "traces/gen/op.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { PENDING = 1, DONE, ABANDONED };

typedef struct entry {
    char        *key;                    /* NULL: empty */
    uint64_t     hash;
    int          state;                  /* PENDING, DONE or ABANDONED */
    mg_sweep_result result;                 /* DONE: the result; schedule, reason NULL */
} entry;

struct mg_memo {
    pthread_mutex_t mu;
    pthread_cond_t  cv;                  /* a PENDING entry was settled */
    entry   *tab;
    size_t   cap, n;                     /* cap a power of two */
    uint64_t hits;
};

mg_memo *mg_memo_new(void)
{
    mg_memo *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->cap = 1024;
    m->tab = calloc(m->cap, sizeof *m->tab);
    if (!m->tab) {
        free(m);
        return NULL;
    }
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->cv, NULL);
    return m;
}

void mg_memo_free(mg_memo *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->cap; i++) free(m->tab[i].key);
    free(m->tab);
    pthread_cond_destroy(&m->cv);
    pthread_mutex_destroy(&m->mu);
    free(m);
}

/* Is `word` (up to a space or the end) "name=..." for a name in the
 * space-separated list? */
static int inert_word(const char *list, const char *word, size_t len)
{
    const char *eq = memchr(word, '=', len);
    if (!list || !eq) return 0;
    size_t kn = (size_t)(eq - word);
    for (const char *p = list; *p;) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n && n == kn && !memcmp(p, word, n)) return 1;
        p += n;
    }
    return 0;
}

int mg_memo_key(const mg_schedule *s, const char *canon, char *key, size_t n)
{
    const char *list = s->op ? s->op->trace_inert : NULL;
    size_t k = 0;
    for (const char *p = canon; *p;) {
        while (*p == ' ') p++;
        size_t len = strcspn(p, " ");
        if (len && !inert_word(list, p, len)) {
            if (k + len + 2 > n) return -1;
            if (k) key[k++] = ' ';
            memcpy(key + k, p, len);
            k += len;
        }
        p += len;
    }
    if (k >= n) return -1;
    key[k] = '\0';
    return 0;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static entry *find(entry *tab, size_t cap, const char *key, uint64_t h)
{
    for (size_t i = (size_t)h & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!tab[i].key || (tab[i].hash == h && !strcmp(tab[i].key, key))) return &tab[i];
}

/* Settled keys kept at most: past this the memo forgets them all (pending
 * ones stay).  Candidates that share a key are usually neighbours in a
 * space's order (the inert knobs vary fastest), so little is lost, and the
 * memo stays a few MiB whatever the space's size. */
#define MEMO_MAX 16384

/* Forget every settled key (the table keeps its size). */
static void forget(mg_memo *m)
{
    entry *tab = calloc(m->cap, sizeof *tab);
    if (!tab) return;
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->tab[i].key) continue;
        if (m->tab[i].state == PENDING) {
            *find(tab, m->cap, m->tab[i].key, m->tab[i].hash) = m->tab[i];
            n++;
        } else {
            free(m->tab[i].key);
        }
    }
    free(m->tab);
    m->tab = tab;
    m->n = n;
}

/* Double the table; returns 0, -1 when out of memory (the table unchanged). */
static int grow(mg_memo *m)
{
    size_t cap = 2 * m->cap;
    entry *tab = calloc(cap, sizeof *tab);
    if (!tab) return -1;
    for (size_t i = 0; i < m->cap; i++)
        if (m->tab[i].key) *find(tab, cap, m->tab[i].key, m->tab[i].hash) = m->tab[i];
    free(m->tab);
    m->tab = tab;
    m->cap = cap;
    return 0;
}

int mg_memo_get(mg_memo *m, const char *key, int nowait, mg_sweep_result *r)
{
    uint64_t h = mg_fnv1a_str(key);
    int rc = 0;
    pthread_mutex_lock(&m->mu);
    entry *e = find(m->tab, m->cap, key, h);
    while (e->key && e->state == PENDING) {     /* another thread simulates it */
        if (nowait) {
            pthread_mutex_unlock(&m->mu);
            return 2;
        }
        pthread_cond_wait(&m->cv, &m->mu);
        e = find(m->tab, m->cap, key, h);       /* the table may have grown */
    }
    if (e->key && e->state == DONE) {
        mg_sweep_result own = *r;
        *r = e->result;
        r->index = own.index;
        r->schedule = own.schedule;
        r->reason = own.reason;
        r->has_rules = own.has_rules;
        r->fired = own.fired;
        m->hits++;
        rc = 1;
    } else if (e->key) {
        rc = -1;                                /* abandoned: simulate, do not put */
    } else {
        if (m->n >= MEMO_MAX) forget(m);
        if (2 * (m->n + 1) > m->cap && grow(m)) {
            pthread_mutex_unlock(&m->mu);
            return -1;                          /* no memory: simulate, do not put */
        }
        e = find(m->tab, m->cap, key, h);
        size_t len = strlen(key) + 1;
        e->key = malloc(len);
        if (e->key) {                           /* claimed: the caller puts */
            memcpy(e->key, key, len);
            e->hash = h;
            e->state = PENDING;
            m->n++;
        } else {
            rc = -1;
        }
    }
    pthread_mutex_unlock(&m->mu);
    return rc;
}

void mg_memo_put(mg_memo *m, const char *key, const mg_sweep_result *r)
{
    uint64_t h = mg_fnv1a_str(key);
    pthread_mutex_lock(&m->mu);
    entry *e = find(m->tab, m->cap, key, h);
    if (e->key && e->state == PENDING) {
        if (r->ok || r->cut) {                  /* a cut too: twins share the bar */
            e->result = *r;
            e->result.schedule = e->result.reason = NULL;
            e->state = DONE;
        } else {
            e->state = ABANDONED;
        }
        pthread_cond_broadcast(&m->cv);
    }
    pthread_mutex_unlock(&m->mu);
}

uint64_t mg_memo_hits(mg_memo *m)
{
    pthread_mutex_lock(&m->mu);
    uint64_t h = m->hits;
    pthread_mutex_unlock(&m->mu);
    return h;
}
