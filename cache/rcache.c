/* SPDX-License-Identifier: MIT */
/*
 * rcache.c -- the remote reference cache wired to the message engine.
 */
#include "cache/rcache.h"
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "transport/segment.h"
#include "transport/xfer.h"

#include <stdio.h>
#include <string.h>

mupci_cache_t *mupci_rcache;
size_t mupci_rcache_line;
static int stats_at_exit;

/* ---- transport: the engine's blocking get and relaxed puts ---- */

static void fetch(void *ctx, int thread, uint64_t offset, void *buf, size_t n)
{
    mupci_xfer_get(buf, thread, offset, n);
}

static void put(void *ctx, int thread, uint64_t offset, const void *data, size_t n)
{
    mupci_xfer_put(thread, offset, data, n);
}

static void put_masked(void *ctx, int thread, uint64_t offset, const void *data,
                       const uint64_t *mask, size_t n)
{
    mupci_xfer_put_masked(thread, offset, data, mask, n);
}

static mupc_cache_geometry_t geometry; /* as configured; zeros while off */

/* How many threads' tables cache_memory holds: 0 (no limit) when it holds
 * one for every other thread of the job; a fatal error when it cannot hold
 * one at all. */
static int max_tables(const mupci_config_t *cfg, const mupci_cache_geometry_t *g)
{
    size_t table = mupci_cache_table_bytes(g);
    size_t fit = cfg->cache_memory / table;
    if (fit == 0)
        mupci_fatal("cache_memory = %zu bytes (%s) cannot hold the table of one remote thread "
                    "(cache_sets = %d lines of cache_line_size = %zu bytes: %zu bytes): raise "
                    "cache_memory to at least %zuK, lower cache_sets or cache_line_size, or set "
                    "cache = off",
                    cfg->cache_memory, cfg->origin[MUPCI_KEY_cache_memory], g->sets,
                    g->line_size, table, (table + 1023) / 1024);
    return fit >= (size_t)g->threads - 1 ? 0 : (int)fit;
}

void mupci_rcache_init(const mupci_config_t *cfg, int threads)
{
    stats_at_exit = cfg->cache_stats;
    if (!cfg->cache || threads == 1)
        return;
    mupci_cache_geometry_t g = {
        .threads = threads,
        .line_size = cfg->cache_line_size,
        .sets = cfg->cache_sets,
        .victim_lines = cfg->victim_cache_lines,
        .valid_lo = MUPCI_SEGMENT_RESERVED,
        .valid_hi = mupci_segment_bytes,
    };
    g.max_tables = max_tables(cfg, &g);
    mupci_cache_transport_t t = {fetch, put, put_masked, NULL};
    mupci_rcache = mupci_cache_create(&g, &t);
    if (!mupci_rcache)
        mupci_fatal("out of memory for the remote reference cache (a table pointer for each "
                    "of %d threads, %d victim lines of %zu bytes): set cache = off",
                    threads, cfg->victim_cache_lines, cfg->cache_line_size);
    mupci_rcache_line = cfg->cache_line_size;
    geometry = (mupc_cache_geometry_t){cfg->cache_line_size, (size_t)cfg->cache_sets,
                                       (size_t)cfg->victim_cache_lines};
}

static void print_stats(void)
{
    mupc_cache_stats_t s;
    if (!mupc_cache_stats(&s)) {
        fprintf(stderr, "mupc: thread %d: cache off\n", mupc_mythread);
        return;
    }
    unsigned long long accesses = s.hits + s.misses;
    fprintf(stderr,
            "mupc: thread %d: cache: %llu accesses, %llu hits (%.1f%%), %llu misses, "
            "%llu victim hits, %llu evictions, %llu write-backs, %llu invalidations "
            "(%llu lines), %llu bytes fetched, %llu bytes written back; %zu thread tables "
            "held, %zu reused (cache_memory)\n",
            mupc_mythread, accesses, s.hits, accesses ? 100.0 * (double)s.hits / (double)accesses : 0.0,
            s.misses, s.victim_hits, s.evictions, s.writebacks, s.invalidations,
            s.lines_invalidated, s.bytes_fetched, s.bytes_written_back,
            mupci_cache_threads_cached(mupci_rcache), mupci_cache_tables_reused(mupci_rcache));
}

void mupci_rcache_finalize(void)
{
    if (stats_at_exit)
        print_stats();
    mupci_rcache_line = 0;
    mupci_cache_destroy(mupci_rcache);
    mupci_rcache = NULL;
}

/* ---- accesses ---- */

void mupci_rcache_get(void *dst, int thread, uint64_t offset, size_t n, const char *file,
                      int line)
{
    size_t fetched = mupci_cache_read(mupci_rcache, thread, offset, dst, n);
    if (fetched)
        MUPCI_GASP_EVENT(GASP_UPC_CACHE_MISS, GASP_ATOMIC, 0, file, line, n, fetched);
    else
        MUPCI_GASP_EVENT(GASP_UPC_CACHE_HIT, GASP_ATOMIC, 0, file, line, n);
}

void mupci_rcache_put(int thread, uint64_t offset, const void *src, size_t n, const char *file,
                      int line)
{
    int allocated;
    mupci_cache_write(mupci_rcache, thread, offset, src, n, &allocated);
    /* A write miss places the line without fetching it (cache.h). */
    if (allocated)
        MUPCI_GASP_EVENT(GASP_UPC_CACHE_MISS, GASP_ATOMIC, 0, file, line, n, (size_t)0);
    else
        MUPCI_GASP_EVENT(GASP_UPC_CACHE_HIT, GASP_ATOMIC, 0, file, line, n);
}

/* ---- fences ---- */

void mupci_rcache_invalidate(const char *file, int line)
{
    if (!mupci_rcache)
        return;
    int had_lines;
    size_t dirty = mupci_cache_invalidate(mupci_rcache, &had_lines);
    if (had_lines)
        MUPCI_GASP_EVENT(GASP_UPC_CACHE_INVALIDATE, GASP_ATOMIC, 0, file, line, dirty);
}

static void (*fence_hook)(void);
void mupci_fence_set_hook(void (*hook)(void)) { fence_hook = hook; }

static void fence(const char *file, int line, int poll_when_idle)
{
    mupci_rcache_invalidate(file, line);
    if (mupci_unlikely(fence_hook != NULL))
        fence_hook();
    mupci_xfer_fence(poll_when_idle);
}

void mupci_fence(const char *file, int line) { fence(file, line, 1); }

void mupci_fence_before_wait(const char *file, int line) { fence(file, line, 0); }

/* ---- public ---- */

int mupc_cache_stats(mupc_cache_stats_t *stats)
{
    if (!mupci_rcache) {
        memset(stats, 0, sizeof *stats);
        return 0;
    }
    *stats = *mupci_cache_stats(mupci_rcache);
    return 1;
}

int mupc_cache_geometry(mupc_cache_geometry_t *g)
{
    *g = mupci_rcache ? geometry : (mupc_cache_geometry_t){0, 0, 0};
    return mupci_rcache != NULL;
}

void mupc_cache_stats_reset(void)
{
    if (mupci_rcache)
        mupci_cache_stats_reset(mupci_rcache);
}
