/* SPDX-License-Identifier: MIT */
/*
 * rcache.h -- the remote reference cache inside the runtime: one cache per
 * thread (cache/cache.h) whose transport is the message engine, the fence
 * every consistency point goes through, the GASP cache events and the
 * statistics dump.
 *
 * Only the computation pthread calls these, without the progress lock.
 */
#ifndef MUPCI_RCACHE_H
#define MUPCI_RCACHE_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "cache/cache.h"
#include "base/config.h"

#include <stddef.h>
#include <stdint.h>

/* The cache, or NULL when it is off (cache = off, or one thread), and its
 * line size (0 when off). */
extern mupci_cache_t *mupci_rcache;
extern size_t mupci_rcache_line;

void mupci_rcache_init(const mupci_config_t *cfg, int threads);
/* Print the statistics (key cache_stats) and release the cache. */
void mupci_rcache_finalize(void);

/* Whether a relaxed access of n bytes goes through the cache. */
static inline int mupci_rcache_serves(size_t n)
{
    return n - 1 < mupci_rcache_line; /* n = 0 wraps: never served */
}

/* Relaxed remote get/put of n <= line size bytes through the cache, with
 * GASP_UPC_CACHE_HIT / CACHE_MISS (between the access's start and end). */
void mupci_rcache_get(void *dst, int thread, uint64_t offset, size_t n, const char *file,
                      int line);
void mupci_rcache_put(int thread, uint64_t offset, const void *src, size_t n, const char *file,
                      int line);

/* Around an access that bypasses the cache (bulk, non-blocking, strict,
 * atomic): make this thread's own cached writes visible to it, and drop
 * lines it overwrites.  No-ops when the cache is off or holds nothing of
 * `thread`. */
static inline void mupci_rcache_before_read(int thread, uint64_t offset, size_t n)
{
    if (mupci_rcache)
        mupci_cache_prepare_read(mupci_rcache, thread, offset, n);
}
static inline void mupci_rcache_before_write(int thread, uint64_t offset, size_t n)
{
    if (mupci_rcache)
        mupci_cache_prepare_write(mupci_rcache, thread, offset, n);
}

/* The UPC fence, used by every consistency point (upc_fence, strict
 * accesses, barriers, notify/wait, lock acquire and release): write back
 * the dirty lines and invalidate the cache (GASP_UPC_CACHE_INVALIDATE),
 * then wait until every earlier write is applied at its target. */
void mupci_fence(const char *file, int line);
/* The same for a caller that sends and then waits for a message (a
 * barrier's notify, a lock request to another node): an empty fence
 * makes no progress pass of its own, since the wait polls.  Over TCP
 * that pass is an epoll_wait, half a microsecond, before the message
 * could leave. */
void mupci_fence_before_wait(const char *file, int line);
/* hook() runs in every fence, after the cache is invalidated and before
 * the puts are completed: the bounds checker forgets what it learnt of
 * other threads' heaps (mem/bounds.c).  The cache names nothing above it. */
void mupci_fence_set_hook(void (*hook)(void));
/* Invalidate only (upc_wait: nothing to write back that notify did not;
 * lines fetched between notify and wait must not survive the barrier). */
void mupci_rcache_invalidate(const char *file, int line);

#endif
