/* SPDX-License-Identifier: MIT */
/*
 * mupc_ext.h -- libmupc's own extensions that involve no pointer-to-shared:
 * the remote reference cache's counters and shape, and the segment size.
 * Included by <mupc.h>; a UPC program includes <mupc.h> (or this file) to
 * use them, e.g. to report its own cache misses.
 */
#ifndef MUPC_EXT_H
#define MUPC_EXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- */
/* Remote reference cache (keys cache, cache_line_size, cache_sets,   */
/* victim_cache_lines, cache_stats; cache/README.md)                  */
/* ---------------------------------------------------------------- */

/* This thread's counters since start-up (or the last reset).  Relaxed
 * remote scalar accesses of at most one line go through the cache; hits
 * and misses count those accesses (victim_hits are misses in the direct-
 * mapped table that the victim cache served without a fetch). */
typedef struct mupc_cache_stats {
    unsigned long long hits, misses, victim_hits;
    unsigned long long evictions;     /* lines that left the cache for room */
    unsigned long long writebacks;    /* dirty lines written back */
    unsigned long long invalidations; /* fences that emptied a non-empty cache */
    unsigned long long lines_invalidated;
    unsigned long long bytes_fetched, bytes_written_back;
} mupc_cache_stats_t;
/* Returns 1 with the counters when the cache is on, 0 (all zeros) when it
 * is off (cache = off, or a single thread: nothing is remote). */
int mupc_cache_stats(mupc_cache_stats_t *stats);
void mupc_cache_stats_reset(void);
/* The cache's shape, as configured: bytes per line, direct-mapped sets
 * per remote thread and victim lines.  Returns 1, or 0 (all zeros) when
 * the cache is off.  For benchmarks and tools that report per geometry. */
typedef struct mupc_cache_geometry {
    size_t line_size, sets, victim_lines;
} mupc_cache_geometry_t;
int mupc_cache_geometry(mupc_cache_geometry_t *geometry);

/* ---------------------------------------------------------------- */
/* Introspection                                                     */
/* ---------------------------------------------------------------- */

/* Size in bytes of every thread's shared segment (key segment_size). */
size_t mupc_segment_size(void);

/* The node layout (keys shm, simulate_nodes): how many nodes the job
 * spans (pretend nodes included), the node of a thread (0 .., numbered in
 * order of their lowest thread), and one line per node
 * ("mupc: node 0: threads 0-3 (shared memory)") to `out` (a FILE *).
 * Threads whose segments this one maps are those upc_thread_info reports
 * castable. */
int mupc_node_count(void);
int mupc_node_of(int thread);
void mupc_describe_nodes(void *out);

#ifdef __cplusplus
}
#endif

#endif /* MUPC_EXT_H */
