/* SPDX-License-Identifier: MIT */
/*
 * cache.c -- direct-mapped, write-back remote reference cache with a victim
 * cache and per-byte dirty masks.  See cache.h for the policies.
 */
#include "cache/cache.h"

#include <stdlib.h>
#include <string.h>

#define NO_TAG UINT64_MAX

typedef struct line {
    uint64_t tag;            /* offset of the line's first byte; NO_TAG: empty */
    int thread;              /* whose segment the line caches */
    int full;                /* every byte valid (fetched); else only dirty ones */
    int dirty;               /* some bit of mask is set */
    int listed;              /* recorded in cache->listed */
    unsigned long long used; /* victim entries: last use, for replacement */
    unsigned char *data;
    uint64_t *mask;          /* bit i of word i/64: byte i written by this thread */
} line_t;

/* One remote thread's direct-mapped table, made when that thread is first
 * cached: a job of 100,000 threads costs each rank a pointer per thread
 * until it touches them, not 100,000 tables (doc/architecture.md, "What a
 * rank costs"). */
typedef struct row {
    int resident;          /* lines (table and victim) holding this thread's data */
    unsigned char *data;   /* sets * line_size bytes, then the masks (sets * words);
                            * one calloc, so large enough to be mapped page by
                            * page as lines fill */
    uint64_t *mask;        /* in data's block */
    line_t lines[];        /* sets */
} row_t;

struct mupci_cache {
    mupci_cache_geometry_t g;
    mupci_cache_transport_t t;
    unsigned shift;     /* log2(line_size) */
    size_t words;       /* mask words per line */
    row_t **rows;       /* [threads]: NULL until the thread is first cached */
    size_t nrows;       /* rows made */
    int *made;          /* [max_tables]: the threads with a row, oldest at `oldest` */
    size_t oldest;
    size_t reused;      /* rows handed to another thread */
    line_t *victims;    /* victim_lines entries */
    unsigned char *victim_data;
    uint64_t *victim_mask;
    line_t **listed;    /* every line that may hold data, for invalidation */
    size_t nlisted, listed_cap;
    unsigned char *scratch; /* a fetched line, merged under dirty bytes */
    unsigned long long clock;
    mupci_cache_stats_t stats;
};

/* ---------------------------------------------------------------- */
/* Creation                                                          */
/* ---------------------------------------------------------------- */

static void init_lines(mupci_cache_t *c, line_t *lines, size_t n, unsigned char *data,
                       uint64_t *mask)
{
    for (size_t i = 0; i < n; i++) {
        lines[i].tag = NO_TAG;
        lines[i].data = data + i * c->g.line_size;
        lines[i].mask = mask + i * c->words;
    }
}

mupci_cache_t *mupci_cache_create(const mupci_cache_geometry_t *g,
                                  const mupci_cache_transport_t *t)
{
    mupci_cache_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->g = *g;
    c->t = *t;
    while (((size_t)1 << c->shift) < g->line_size)
        c->shift++;
    c->words = g->line_size / 64;
    size_t victims = (size_t)g->victim_lines;
    c->rows = calloc((size_t)g->threads, sizeof *c->rows);
    c->victims = calloc(victims + 1, sizeof(line_t));
    c->victim_data = calloc(victims + 1, g->line_size);
    c->victim_mask = calloc((victims + 1) * c->words, sizeof(uint64_t));
    c->listed_cap = victims;
    c->listed = calloc(victims + 1, sizeof(line_t *));
    c->scratch = malloc(g->line_size);
    if (g->max_tables > 0)
        c->made = malloc((size_t)g->max_tables * sizeof *c->made);
    if (!c->rows || !c->victims || !c->victim_data || !c->victim_mask || !c->listed ||
        !c->scratch || (g->max_tables > 0 && !c->made)) {
        mupci_cache_destroy(c);
        return NULL;
    }
    init_lines(c, c->victims, victims, c->victim_data, c->victim_mask);
    return c;
}

static void free_row(row_t *r)
{
    if (!r)
        return;
    free(r->data);
    free(r);
}

void mupci_cache_destroy(mupci_cache_t *c)
{
    if (!c)
        return;
    for (int t = 0; c->rows && t < c->g.threads; t++)
        free_row(c->rows[t]);
    free(c->rows);
    free(c->victims);
    free(c->victim_data);
    free(c->victim_mask);
    free(c->listed);
    free(c->scratch);
    free(c->made);
    free(c);
}

size_t mupci_cache_table_bytes(const mupci_cache_geometry_t *g)
{
    size_t per_line = sizeof(line_t) + sizeof(line_t *) + g->line_size + g->line_size / 8;
    size_t page = 4096; /* the data block, when mapped on its own, is rounded up to pages */
    return sizeof(row_t) + (size_t)g->sets * per_line + page;
}

size_t mupci_cache_threads_cached(const mupci_cache_t *c) { return c->nrows; }
size_t mupci_cache_tables_reused(const mupci_cache_t *c) { return c->reused; }

const mupci_cache_stats_t *mupci_cache_stats(const mupci_cache_t *c) { return &c->stats; }
void mupci_cache_stats_reset(mupci_cache_t *c) { memset(&c->stats, 0, sizeof c->stats); }

/* ---------------------------------------------------------------- */
/* Line states                                                       */
/* ---------------------------------------------------------------- */

static inline int present(const line_t *l) { return l->tag != NO_TAG; }

static void make_present(mupci_cache_t *c, line_t *l, int thread, uint64_t tag)
{
    l->tag = tag;
    l->thread = thread;
    l->full = 0;
    c->rows[thread]->resident++;
    if (!l->listed) {
        l->listed = 1;
        c->listed[c->nlisted++] = l;
    }
}

static void make_empty(mupci_cache_t *c, line_t *l)
{
    if (!present(l))
        return;
    c->rows[l->thread]->resident--;
    l->tag = NO_TAG;
    l->full = 0;
    if (l->dirty)
        memset(l->mask, 0, c->words * sizeof(uint64_t));
    l->dirty = 0;
}

/* Exchange what two line slots hold (pointers, not bytes). */
static void swap_lines(mupci_cache_t *c, line_t *a, line_t *b)
{
    line_t tmp = *a;
    int a_listed = a->listed, b_listed = b->listed;
    *a = *b;
    *b = tmp;
    a->listed = a_listed;
    b->listed = b_listed;
    line_t *both[2] = {a, b};
    for (int i = 0; i < 2; i++)
        if (present(both[i]) && !both[i]->listed) {
            both[i]->listed = 1;
            c->listed[c->nlisted++] = both[i];
        }
}

/* ---------------------------------------------------------------- */
/* Write-back                                                        */
/* ---------------------------------------------------------------- */

/* Send the dirty bytes of a line and mark it clean. */
static void write_back(mupci_cache_t *c, line_t *l)
{
    if (!l->dirty)
        return;
    size_t w0 = 0, w1 = c->words - 1, bits = 0;
    while (l->mask[w0] == 0)
        w0++;
    while (l->mask[w1] == 0)
        w1--;
    for (size_t w = w0; w <= w1; w++)
        bits += (size_t)__builtin_popcountll(l->mask[w]);
    size_t first = w0 * 64 + (size_t)__builtin_ctzll(l->mask[w0]);
    size_t last = w1 * 64 + 63 - (size_t)__builtin_clzll(l->mask[w1]);
    if (last - first + 1 == bits) /* one run: a plain put */
        c->t.put(c->t.ctx, l->thread, l->tag + first, l->data + first, bits);
    else
        c->t.put_masked(c->t.ctx, l->thread, l->tag + w0 * 64, l->data + w0 * 64, l->mask + w0,
                        (w1 - w0 + 1) * 64);
    memset(l->mask, 0, c->words * sizeof(uint64_t));
    l->dirty = 0;
    c->stats.writebacks++;
    c->stats.bytes_written_back += bits;
}

/* The line leaves the cache. */
static void evict(mupci_cache_t *c, line_t *l)
{
    write_back(c, l);
    make_empty(c, l);
    c->stats.evictions++;
}

/* ---------------------------------------------------------------- */
/* Victim cache                                                      */
/* ---------------------------------------------------------------- */

static line_t *victim_find(mupci_cache_t *c, int thread, uint64_t tag)
{
    for (int i = 0; i < c->g.victim_lines; i++)
        if (c->victims[i].tag == tag && c->victims[i].thread == thread)
            return &c->victims[i];
    return NULL;
}

/* An empty victim entry, making one from the least recently used. */
static line_t *victim_free_entry(mupci_cache_t *c)
{
    line_t *oldest = &c->victims[0];
    for (int i = 0; i < c->g.victim_lines; i++) {
        if (!present(&c->victims[i]))
            return &c->victims[i];
        if (c->victims[i].used < oldest->used)
            oldest = &c->victims[i];
    }
    evict(c, oldest);
    return oldest;
}

/* A table line is needed for other data: its contents move to the victim
 * cache, or leave the cache when there is none. */
static void displace(mupci_cache_t *c, line_t *l)
{
    if (!present(l))
        return;
    if (c->g.victim_lines == 0) {
        evict(c, l);
        return;
    }
    line_t *v = victim_free_entry(c);
    swap_lines(c, v, l);
    v->used = ++c->clock;
}

/* ---------------------------------------------------------------- */
/* Tables                                                            */
/* ---------------------------------------------------------------- */

/* With max_tables reached: empty the table made longest ago (its dirty
 * bytes written back, its thread's lines in the victim cache gone too) and
 * hand it to `thread`.  First in, first out rather than least recently
 * used: nothing to record on the hit path, and a rank that sweeps over the
 * threads (matmul's columns, an all-to-all) gives up the ones it is done
 * with.  The lines stay in the invalidation list (they are the same
 * slots), so the list never grows past max_tables tables. */
static row_t *row_reuse(mupci_cache_t *c, int thread)
{
    int old = c->made[c->oldest];
    row_t *r = c->rows[old];
    for (int i = 0; i < c->g.victim_lines && r->resident > 0; i++)
        if (present(&c->victims[i]) && c->victims[i].thread == old)
            evict(c, &c->victims[i]);
    for (int s = 0; s < c->g.sets && r->resident > 0; s++)
        if (present(&r->lines[s]))
            evict(c, &r->lines[s]);
    c->rows[old] = NULL;
    c->rows[thread] = r;
    c->made[c->oldest] = thread;
    c->oldest = (c->oldest + 1) % (size_t)c->g.max_tables;
    c->reused++;
    return r;
}

/* Thread t's table, made on first use: its line descriptors are written
 * (48 bytes a set), its data and masks are mapped page by page as lines
 * fill.  The invalidation list grows here, so placing a line never
 * allocates.  NULL when memory runs out: the access then bypasses the
 * cache.  Lines swap buffers across tables (swap_lines), but every block
 * stays owned by the table or victim cache that allocated it. */
static row_t *row_make(mupci_cache_t *c, int thread)
{
    if (c->g.max_tables > 0 && c->nrows == (size_t)c->g.max_tables)
        return row_reuse(c, thread);
    size_t sets = (size_t)c->g.sets;
    if (c->listed_cap < (c->nrows + 1) * sets + (size_t)c->g.victim_lines) {
        size_t cap = c->listed_cap * 2 + sets;
        if (c->g.max_tables > 0 && cap > (size_t)c->g.max_tables * sets + (size_t)c->g.victim_lines)
            cap = (size_t)c->g.max_tables * sets + (size_t)c->g.victim_lines;
        line_t **grown = realloc(c->listed, cap * sizeof *grown);
        if (!grown)
            return NULL;
        c->listed = grown;
        c->listed_cap = cap;
    }
    row_t *r = calloc(1, sizeof *r + sets * sizeof(line_t));
    if (!r)
        return NULL;
    r->data = calloc(1, sets * (c->g.line_size + c->words * sizeof(uint64_t)));
    if (!r->data) {
        free_row(r);
        return NULL;
    }
    r->mask = (uint64_t *)(r->data + sets * c->g.line_size);
    init_lines(c, r->lines, sets, r->data, r->mask);
    c->rows[thread] = r;
    if (c->made)
        c->made[c->nrows] = thread;
    c->nrows++;
    return r;
}

/* ---------------------------------------------------------------- */
/* Lookup                                                            */
/* ---------------------------------------------------------------- */

static inline size_t set_index(const mupci_cache_t *c, uint64_t offset)
{
    return (size_t)(offset >> c->shift) & (size_t)(c->g.sets - 1);
}

/* The table line `offset` maps to, or NULL while the thread has no table. */
static inline line_t *set_of(mupci_cache_t *c, int thread, uint64_t offset)
{
    row_t *r = c->rows[thread];
    return r ? &r->lines[set_index(c, offset)] : NULL;
}

/* The table line holding the line of `offset`, placing it if needed
 * (*placed = 1 then; its bytes are not valid yet).  NULL if the thread's
 * table could not be made (out of memory). */
static line_t *locate(mupci_cache_t *c, int thread, uint64_t offset, int *placed)
{
    uint64_t tag = offset & ~(uint64_t)(c->g.line_size - 1);
    line_t *l = set_of(c, thread, offset);
    *placed = 0;
    if (!l) {
        row_t *r = row_make(c, thread);
        if (!r)
            return NULL;
        l = &r->lines[set_index(c, offset)];
    }
    if (l->tag == tag)
        return l;
    line_t *v = c->g.victim_lines ? victim_find(c, thread, tag) : NULL;
    if (v) { /* the incumbent, if any, takes the victim's place */
        swap_lines(c, v, l);
        v->used = ++c->clock;
        c->stats.victim_hits++;
        return l;
    }
    displace(c, l);
    make_present(c, l, thread, tag);
    *placed = 1;
    return l;
}

static int bytes_dirty(const line_t *l, size_t at, size_t n)
{
    if (!l->dirty)
        return 0;
    for (size_t i = at; i < at + n; i++)
        if (!(l->mask[i / 64] >> (i % 64) & 1))
            return 0;
    return 1;
}

/* Fetch the line from its owner; bytes this thread wrote stay.  Returns
 * the bytes fetched. */
static size_t fill(mupci_cache_t *c, line_t *l)
{
    uint64_t lo = l->tag > c->g.valid_lo ? l->tag : c->g.valid_lo;
    uint64_t hi = l->tag + c->g.line_size < c->g.valid_hi ? l->tag + c->g.line_size
                                                          : c->g.valid_hi;
    size_t at = (size_t)(lo - l->tag), n = (size_t)(hi - lo);
    if (!l->dirty) {
        c->t.fetch(c->t.ctx, l->thread, lo, l->data + at, n);
    } else {
        c->t.fetch(c->t.ctx, l->thread, lo, c->scratch + at, n);
        for (size_t i = at; i < at + n; i++)
            if (!(l->mask[i / 64] >> (i % 64) & 1))
                l->data[i] = c->scratch[i];
    }
    l->full = 1;
    c->stats.bytes_fetched += n;
    return n;
}

/* ---------------------------------------------------------------- */
/* Reads and writes                                                  */
/* ---------------------------------------------------------------- */

static size_t read_in_line(mupci_cache_t *c, int thread, uint64_t offset, void *dst, size_t n)
{
    int placed;
    line_t *l = locate(c, thread, offset, &placed);
    if (__builtin_expect(!l, 0)) { /* no memory for the thread's table: uncached */
        c->t.fetch(c->t.ctx, thread, offset, dst, n);
        c->stats.misses++;
        return n;
    }
    size_t at = (size_t)(offset - l->tag), fetched = 0;
    if (!l->full && !bytes_dirty(l, at, n))
        fetched = fill(c, l);
    memcpy(dst, l->data + at, n);
    if (fetched)
        c->stats.misses++;
    else
        c->stats.hits++;
    return fetched;
}

static int write_in_line(mupci_cache_t *c, int thread, uint64_t offset, const void *src,
                         size_t n)
{
    int placed;
    line_t *l = locate(c, thread, offset, &placed);
    if (__builtin_expect(!l, 0)) { /* no memory for the thread's table: uncached */
        c->t.put(c->t.ctx, thread, offset, src, n);
        c->stats.misses++;
        return 1;
    }
    size_t at = (size_t)(offset - l->tag);
    memcpy(l->data + at, src, n);
    for (size_t i = at; i < at + n; i++)
        l->mask[i / 64] |= (uint64_t)1 << (i % 64);
    l->dirty = 1;
    if (placed)
        c->stats.misses++;
    else
        c->stats.hits++;
    return placed;
}

/* Bytes of [offset, offset+n) that lie in offset's line. */
static inline size_t first_part(const mupci_cache_t *c, uint64_t offset, size_t n)
{
    size_t room = c->g.line_size - (size_t)(offset & (c->g.line_size - 1));
    return n < room ? n : room;
}

size_t mupci_cache_read(mupci_cache_t *c, int thread, uint64_t offset, void *dst, size_t n)
{
    /* The common case first: the whole access hits one fetched line. */
    size_t at = (size_t)(offset & (c->g.line_size - 1));
    line_t *l = set_of(c, thread, offset);
    if (l && l->tag == offset - at && l->full && at + n <= c->g.line_size) {
        if (n == sizeof(uint64_t))
            memcpy(dst, l->data + at, sizeof(uint64_t)); /* inlined */
        else
            memcpy(dst, l->data + at, n);
        c->stats.hits++;
        return 0;
    }
    size_t first = first_part(c, offset, n);
    size_t fetched = read_in_line(c, thread, offset, dst, first);
    if (first < n)
        fetched += read_in_line(c, thread, offset + first, (char *)dst + first, n - first);
    return fetched;
}

void mupci_cache_write(mupci_cache_t *c, int thread, uint64_t offset, const void *src, size_t n,
                       int *allocated)
{
    size_t first = first_part(c, offset, n);
    *allocated = write_in_line(c, thread, offset, src, first);
    if (first < n)
        *allocated |= write_in_line(c, thread, offset + first, (const char *)src + first,
                                    n - first);
}

/* ---------------------------------------------------------------- */
/* Accesses that bypass the cache, and fences                        */
/* ---------------------------------------------------------------- */

static inline int overlaps(const mupci_cache_t *c, const line_t *l, int thread, uint64_t lo,
                           uint64_t hi)
{
    return present(l) && l->thread == thread && l->tag < hi && l->tag + c->g.line_size > lo;
}

/* Apply `action` to every cached line of `thread` overlapping [lo, hi). */
static void for_lines_in_range(mupci_cache_t *c, int thread, uint64_t lo, uint64_t hi,
                               void (*action)(mupci_cache_t *, line_t *))
{
    for (int i = 0; i < c->g.victim_lines; i++)
        if (overlaps(c, &c->victims[i], thread, lo, hi))
            action(c, &c->victims[i]);
    uint64_t first = lo >> c->shift, last = (hi - 1) >> c->shift;
    if (last - first + 1 < (uint64_t)c->g.sets) { /* look up each line of the range */
        for (uint64_t ln = first; ln <= last; ln++) {
            line_t *l = set_of(c, thread, ln << c->shift);
            if (overlaps(c, l, thread, lo, hi))
                action(c, l);
        }
    } else { /* the range covers the table: scan it */
        line_t *row = c->rows[thread]->lines;
        for (int s = 0; s < c->g.sets; s++)
            if (overlaps(c, &row[s], thread, lo, hi))
                action(c, &row[s]);
    }
}

static void drop(mupci_cache_t *c, line_t *l)
{
    write_back(c, l);
    make_empty(c, l);
}

void mupci_cache_prepare_read(mupci_cache_t *c, int thread, uint64_t offset, size_t n)
{
    if (n > 0 && c->rows[thread] && c->rows[thread]->resident > 0)
        for_lines_in_range(c, thread, offset, offset + n, write_back);
}

void mupci_cache_prepare_write(mupci_cache_t *c, int thread, uint64_t offset, size_t n)
{
    if (n > 0 && c->rows[thread] && c->rows[thread]->resident > 0)
        for_lines_in_range(c, thread, offset, offset + n, drop);
}

size_t mupci_cache_invalidate(mupci_cache_t *c, int *had_lines)
{
    size_t dirty = 0, lines = 0;
    /* Write-backs leave in list order; the transport packs them per
     * destination (one batched message per remote thread). */
    for (size_t i = 0; i < c->nlisted; i++) {
        line_t *l = c->listed[i];
        l->listed = 0;
        if (!present(l))
            continue;
        lines++;
        if (l->dirty) {
            write_back(c, l);
            dirty++;
        }
        make_empty(c, l);
    }
    c->nlisted = 0;
    *had_lines = lines > 0;
    if (lines > 0) {
        c->stats.invalidations++;
        c->stats.lines_invalidated += lines;
    }
    return dirty;
}
