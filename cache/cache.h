/* SPDX-License-Identifier: MIT */
/*
 * cache.h -- the remote reference cache's logic (the MuPC report §4.4.9).
 *
 * One direct-mapped table of `sets` lines per remote thread, made when
 * that thread is first cached (a rank of a large job pays for the threads
 * it touches, plus a pointer per thread), a small fully-associative victim
 * cache shared by all of them, write-back with a per-byte dirty mask.  A
 * table that cannot be allocated leaves that thread uncached; past
 * max_tables the oldest table is emptied and reused, so a rank that
 * touches every thread of a large job keeps a bounded cache.  Pure
 * module: data moves through a transport the caller supplies (the message
 * engine in the runtime, a fake in the unit tests), and only the
 * computation pthread ever touches a cache.
 *
 * Policies:
 *  - a read miss fetches the whole line (clipped to the segment);
 *  - a write miss allocates the line without fetching it: only the bytes
 *    written are valid (and dirty); a later read of any other byte fetches
 *    the line and merges it under the dirty bytes.  MuPC fetched on write
 *    misses; not fetching saves a round trip per write miss and cannot
 *    change results, because write-back only ever sends dirty bytes;
 *  - a line displaced by a conflict moves to the victim cache; the oldest
 *    victim leaves the cache, written back if dirty; a victim hit swaps the
 *    line back into its set;
 *  - write-back sends only dirty bytes: one plain put when they form one
 *    run, otherwise a masked put (the target applies the mask), so threads
 *    writing different bytes of one line never overwrite each other.
 */
#ifndef MUPCI_CACHE_H
#define MUPCI_CACHE_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "mupc.h"

#include <stddef.h>
#include <stdint.h>

typedef struct mupci_cache_transport {
    /* Read n bytes at `offset` of `thread`'s segment into buf; blocking. */
    void (*fetch)(void *ctx, int thread, uint64_t offset, void *buf, size_t n);
    /* Write n bytes; returns when `data` may be reused. */
    void (*put)(void *ctx, int thread, uint64_t offset, const void *data, size_t n);
    /* Write the bytes of data[0, n) whose bit is set in mask (bit i of
     * word i/64 = byte i); n is a multiple of 64. */
    void (*put_masked)(void *ctx, int thread, uint64_t offset, const void *data,
                       const uint64_t *mask, size_t n);
    void *ctx;
} mupci_cache_transport_t;

typedef struct mupci_cache_geometry {
    int threads;        /* one table per thread (the caller never asks for itself) */
    size_t line_size;   /* power of two, >= 64 */
    int sets;           /* power of two */
    int victim_lines;   /* 0: no victim cache */
    uint64_t valid_lo;  /* lines are clipped to [valid_lo, valid_hi) of a segment */
    uint64_t valid_hi;
    int max_tables;     /* 0: no limit; else at most this many threads have a
                         * table at once, and caching one more empties the
                         * table made longest ago and reuses it */
} mupci_cache_geometry_t;

/* What one thread's table costs in address space (line descriptors, data,
 * dirty masks, its entries in the invalidation list): the unit in which
 * the runtime turns cache_memory into max_tables. */
size_t mupci_cache_table_bytes(const mupci_cache_geometry_t *geometry);

/* The counters are the public ones (mupc.h, mupc_cache_stats). */
typedef mupc_cache_stats_t mupci_cache_stats_t;

typedef struct mupci_cache mupci_cache_t;

/* NULL when memory runs out. */
mupci_cache_t *mupci_cache_create(const mupci_cache_geometry_t *geometry,
                                  const mupci_cache_transport_t *transport);
void mupci_cache_destroy(mupci_cache_t *c);

/* Read or write n bytes (n <= line size; the range may straddle two
 * lines).  Return the bytes fetched from the owner: 0 means every byte
 * came from the cache (a hit, for GASP_UPC_CACHE_HIT). */
size_t mupci_cache_read(mupci_cache_t *c, int thread, uint64_t offset, void *dst, size_t n);
/* *allocated is set when a line had to be placed (a miss). */
void mupci_cache_write(mupci_cache_t *c, int thread, uint64_t offset, const void *src, size_t n,
                       int *allocated);

/* Before an access that bypasses the cache reads [offset, offset+n) of
 * `thread`: write back the dirty bytes cached there, so the read sees this
 * thread's own earlier writes. */
void mupci_cache_prepare_read(mupci_cache_t *c, int thread, uint64_t offset, size_t n);
/* Before one that writes there: the same, and drop those lines, so later
 * cached reads see the new data. */
void mupci_cache_prepare_write(mupci_cache_t *c, int thread, uint64_t offset, size_t n);

/* At a fence: write back every dirty line, then empty the cache.  Returns
 * the number of dirty lines written back; *had_lines tells whether there
 * was anything to invalidate. */
size_t mupci_cache_invalidate(mupci_cache_t *c, int *had_lines);

/* How many threads have a table now (at most max_tables when set). */
size_t mupci_cache_threads_cached(const mupci_cache_t *c);
/* How many times a table was emptied and given to another thread (over the
 * cache's life: mupci_cache_stats_reset leaves it). */
size_t mupci_cache_tables_reused(const mupci_cache_t *c);

const mupci_cache_stats_t *mupci_cache_stats(const mupci_cache_t *c);
void mupci_cache_stats_reset(mupci_cache_t *c);

#endif
