/* SPDX-License-Identifier: MIT */
/*
 * access.c -- the public shared-access API of mupc.h: argument checks,
 * GASP events, the local-affinity short cut, and the strict/relaxed rules.
 * The protocol itself lives in xfer.c.  A thread whose segment is mapped
 * here (on-node shared memory, node.h) is read and written like this
 * thread's own, bypassing the remote reference cache, which only pays off
 * across nodes; for GASP the access is still remote.
 */
#include "mupc.h"
#include "upc/access.h"
#include "mem/bounds.h"
#include "base/fatal.h"
#include "base/job.h"
#include "base/gasp_hooks.h"
#include "transport/node.h"
#include "cache/rcache.h"
#include "transport/segment.h"
#include "transport/xfer.h"

#include <stdlib.h>
#include <string.h>

static void range_error(const char *what, mupc_ptr_t p, size_t n, const char *file, int line)
    __attribute__((noreturn));
static void range_error(const char *what, mupc_ptr_t p, size_t n, const char *file, int line)
{
    if (mupc_ptr_is_null(p))
        mupci_fatal_at(file, line, "%s: null pointer-to-shared (%zu bytes)", what, n);
    mupci_fatal_at(file, line,
                   "%s: pointer-to-shared out of range: thread %u, offset %llu, %zu bytes; "
                   "THREADS is %d and each segment holds %zu bytes (offsets below %d are "
                   "reserved): check the pointer arithmetic, or raise segment_size",
                   what, p.thread, (unsigned long long)p.addr, n, mupc_threads,
                   mupci_segment_bytes, MUPCI_SEGMENT_RESERVED);
}

static inline void check_ptr(const char *what, mupc_ptr_t p, size_t n, const char *file,
                             int line)
{
    mupci_upc_thread_only(what, file, line);
    if (MUPCI_CHECKS && mupci_unlikely(p.thread >= (uint32_t)mupc_threads ||
                                       !mupci_segment_range_ok(p.addr, n)))
        range_error(what, p, n, file, line);
    mupci_bounds_check(what, p, n, file, line);
}

/* The private side of a bulk transfer: null, or so close to it that it
 * can only be null plus an offset, would fault inside the runtime (on
 * either pthread) far from the call.  Not on the single-element path. */
#define MUPCI_NULL_PAGE 4096

static void private_error(const char *what, const char *role, const void *p, size_t n,
                          const char *file, int line) __attribute__((noreturn));
static void private_error(const char *what, const char *role, const void *p, size_t n,
                          const char *file, int line)
{
    if (!p)
        mupci_fatal_at(file, line, "%s: the private %s is a null pointer (%zu bytes); pass a "
                       "buffer of at least %zu bytes", what, role, n, n);
    mupci_fatal_at(file, line, "%s: the private %s %p lies in the first %d bytes of memory, "
                   "where nothing is mapped (a null pointer plus an offset?); pass a buffer of "
                   "at least %zu bytes", what, role, p, MUPCI_NULL_PAGE, n);
}

static inline void check_private(const char *what, const char *role, const void *p, size_t n,
                                 const char *file, int line)
{
    if (MUPCI_CHECKS && mupci_unlikely((uintptr_t)p < MUPCI_NULL_PAGE))
        private_error(what, role, p, n, file, line);
}

char *mupc_local_base;
uint64_t mupc_local_low, mupc_local_span;
uint32_t mupc_local_thread = UINT32_MAX;
uint64_t mupc_threads_magic;
char **mupc_thread_base;

/* mupc_thread_base: this thread's segment when its own data may be read
 * inline, the other mapped ones when no tool must see accesses to them. */
static void init_thread_bases(int inline_own, int inline_node)
{
    mupc_thread_base = calloc((size_t)mupc_threads, sizeof *mupc_thread_base);
    if (!mupc_thread_base)
        mupci_fatal("out of memory for the table of %d segments", mupc_threads);
    for (int t = 0; t < mupc_threads; t++)
        if (t == mupc_mythread ? inline_own : inline_node)
            mupc_thread_base[t] = t == mupc_mythread ? mupci_segment_base : mupci_node_segment(t);
}

void mupci_access_init_local(void)
{
    mupc_local_base = mupci_segment_base;
    mupc_local_low = MUPCI_SEGMENT_RESERVED; /* offset 0 is the null pointer */
    mupc_local_span = mupci_segment_bytes - MUPCI_SEGMENT_RESERVED;
    int inline_ok = !mupci_gasp_local_events() && !mupci_bounds_on;
    mupc_local_thread = inline_ok ? (uint32_t)mupc_mythread : UINT32_MAX;
    init_thread_bases(inline_ok, inline_ok && !mupci_gasp_tool_linked());
    /* floor(2^64 / THREADS) + 1: exact for dividends below 2^32 */
    mupc_threads_magic = mupc_threads > 1 ? UINT64_MAX / (uint64_t)mupc_threads + 1 : 0;
}

static inline int is_local(mupc_ptr_t p) { return p.thread == (uint32_t)mupc_mythread; }

/* Remote accesses that bypass the cache stay in order with this thread's
 * cached ones (rcache.h). */
static void uncached_get(void *dst, mupc_ptr_t src, size_t n)
{
    mupci_rcache_before_read((int)src.thread, src.addr, n);
    mupci_xfer_get(dst, (int)src.thread, src.addr, n);
}

static void uncached_put(mupc_ptr_t dst, const void *src, size_t n)
{
    mupci_rcache_before_write((int)dst.thread, dst.addr, n);
    mupci_xfer_put((int)dst.thread, dst.addr, src, n);
}

/* ---------------------------------------------------------------- */
/* get / put (GASP_UPC_GET / GASP_UPC_PUT)                           */
/* ---------------------------------------------------------------- */

/* Always inlined into each typed accessor: as a call, the GASP hooks'
 * cold paths kept the compiler from inlining it, and the extra call cost
 * about 2 % of a same-node remote get (bench/gasp, gasp.overhead.none_pct). */
#define MUPCI_ACCESS_INLINE static inline __attribute__((always_inline))

MUPCI_ACCESS_INLINE void access_get(void *dst, mupc_ptr_t src, size_t n, int strict,
                                    const char *file, int line)
{
    int local = is_local(src);
    MUPCI_GASP_EVENT(GASP_UPC_GET, GASP_START, local, file, line, !strict, dst, &src, n);
    check_ptr("shared read", src, n, file, line);
    if (strict)
        mupci_fence(file, line);
    const char *mapped = mupci_xfer_mapped((int)src.thread, src.addr); /* on this node */
    if (mapped) {
        memcpy(dst, mapped, n);
        if (strict && mupci_node_sharing) /* later accesses stay after it (other
                                            * processes write here) */
            mupci_node_fence();
    } else if (!strict && mupci_rcache_serves(n))
        mupci_rcache_get(dst, (int)src.thread, src.addr, n, file, line);
    else
        uncached_get(dst, src, n);
    MUPCI_GASP_EVENT(GASP_UPC_GET, GASP_END, local, file, line, !strict, dst, &src, n);
}

MUPCI_ACCESS_INLINE void access_put(mupc_ptr_t dst, const void *src, size_t n, int strict,
                                    const char *file, int line)
{
    int local = is_local(dst);
    MUPCI_GASP_EVENT(GASP_UPC_PUT, GASP_START, local, file, line, !strict, &dst, src, n);
    check_ptr("shared write", dst, n, file, line);
    if (strict)
        mupci_fence(file, line);
    char *mapped = mupci_xfer_mapped((int)dst.thread, dst.addr); /* on this node */
    if (mapped)
        memcpy(mapped, src, n);
    else if (!strict && mupci_rcache_serves(n))
        mupci_rcache_put((int)dst.thread, dst.addr, src, n, file, line);
    else
        uncached_put(dst, src, n);
    /* A strict write is complete before the next access: on the node (this
     * thread's own segment included, which other processes read directly)
     * a processor fence keeps the store before later loads. */
    if (strict && !local)
        mupci_xfer_fence(1);
    else if (strict && mupci_node_sharing)
        mupci_node_fence();
    MUPCI_GASP_EVENT(GASP_UPC_PUT, GASP_END, local, file, line, !strict, &dst, src, n);
}

#define MUPCI_DEFINE_SCALAR_ACCESS(name, type)                                            \
    type mupc_get_##name(mupc_ptr_t src, int strict, const char *file, int line)          \
    {                                                                                     \
        type value;                                                                       \
        access_get(&value, src, sizeof value, strict, file, line);                        \
        return value;                                                                     \
    }                                                                                     \
    void mupc_put_##name(mupc_ptr_t dst, type value, int strict, const char *file,        \
                         int line)                                                        \
    {                                                                                     \
        access_put(dst, &value, sizeof value, strict, file, line);                        \
    }
MUPC_SCALAR_TYPES(MUPCI_DEFINE_SCALAR_ACCESS)
#undef MUPCI_DEFINE_SCALAR_ACCESS

void mupc_get_block(void *dst, mupc_ptr_t src, size_t n, int strict, const char *file, int line)
{
    access_get(dst, src, n, strict, file, line);
}

void mupc_put_block(mupc_ptr_t dst, const void *src, size_t n, int strict, const char *file,
                    int line)
{
    access_put(dst, src, n, strict, file, line);
}

/* ---------------------------------------------------------------- */
/* upc_mem* (GASP_UPC_MEMCPY / MEMGET / MEMPUT / MEMSET)             */
/* ---------------------------------------------------------------- */

void mupc_memget(void *dst, mupc_ptr_t src, size_t n, const char *file, int line)
{
    int local = is_local(src);
    MUPCI_GASP_EVENT(GASP_UPC_MEMGET, GASP_START, local, file, line, dst, &src, n);
    if (n > 0) {
        check_ptr("upc_memget", src, n, file, line);
        check_private("upc_memget", "destination", dst, n, file, line);
        if (local)
            memcpy(dst, mupci_segment_addr(src.addr), n);
        else
            uncached_get(dst, src, n);
    }
    MUPCI_GASP_EVENT(GASP_UPC_MEMGET, GASP_END, local, file, line, dst, &src, n);
}

void mupc_memput(mupc_ptr_t dst, const void *src, size_t n, const char *file, int line)
{
    int local = is_local(dst);
    MUPCI_GASP_EVENT(GASP_UPC_MEMPUT, GASP_START, local, file, line, &dst, src, n);
    if (n > 0) {
        check_ptr("upc_memput", dst, n, file, line);
        check_private("upc_memput", "source", src, n, file, line);
        if (local)
            memcpy(mupci_segment_addr(dst.addr), src, n);
        else
            uncached_put(dst, src, n);
    }
    MUPCI_GASP_EVENT(GASP_UPC_MEMPUT, GASP_END, local, file, line, &dst, src, n);
}

/* The copy itself, done before returning, its pointers checked (mupc_memcpy,
 * and mupc_memcpy_nb when neither side alone is local). */
static void copy_now(mupc_ptr_t dst, mupc_ptr_t src, size_t n)
{
    if (n == 0)
        return;
    mupci_rcache_before_read((int)src.thread, src.addr, n);
    mupci_rcache_before_write((int)dst.thread, dst.addr, n);
    if (is_local(dst) && is_local(src))
        memmove(mupci_segment_addr(dst.addr), mupci_segment_addr(src.addr), n);
    else if (is_local(src))
        mupci_xfer_put((int)dst.thread, dst.addr, mupci_segment_addr(src.addr), n);
    else if (is_local(dst))
        mupci_xfer_get(mupci_segment_addr(dst.addr), (int)src.thread, src.addr, n);
    else
        mupci_xfer_copy((int)dst.thread, dst.addr, (int)src.thread, src.addr, n);
}

void mupc_memcpy(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file, int line)
{
    int local = is_local(dst) && is_local(src);
    MUPCI_GASP_EVENT(GASP_UPC_MEMCPY, GASP_START, local, file, line, &dst, &src, n);
    if (n > 0) {
        check_ptr("upc_memcpy (destination)", dst, n, file, line);
        check_ptr("upc_memcpy (source)", src, n, file, line);
    }
    copy_now(dst, src, n);
    MUPCI_GASP_EVENT(GASP_UPC_MEMCPY, GASP_END, local, file, line, &dst, &src, n);
}

void mupc_memset(mupc_ptr_t dst, int c, size_t n, const char *file, int line)
{
    int local = is_local(dst);
    MUPCI_GASP_EVENT(GASP_UPC_MEMSET, GASP_START, local, file, line, &dst, c, n);
    if (n > 0) {
        check_ptr("upc_memset", dst, n, file, line);
        if (local) {
            memset(mupci_segment_addr(dst.addr), c, n);
        } else {
            mupci_rcache_before_write((int)dst.thread, dst.addr, n);
            mupci_xfer_memset((int)dst.thread, dst.addr, c, n);
        }
    }
    MUPCI_GASP_EVENT(GASP_UPC_MEMSET, GASP_END, local, file, line, &dst, c, n);
}

/* ---------------------------------------------------------------- */
/* Non-blocking (GASP_UPC_NB_GET_INIT / NB_PUT_INIT / NB_SYNC)       */
/* ---------------------------------------------------------------- */

mupc_handle_t mupc_get_nb(void *dst, mupc_ptr_t src, size_t n, const char *file, int line)
{
    int local = is_local(src);
    mupc_handle_t h = MUPC_HANDLE_TRIVIAL;
    MUPCI_GASP_EVENT(GASP_UPC_NB_GET_INIT, GASP_START, local, file, line, 1, dst, &src, n);
    if (n > 0) {
        check_ptr("non-blocking get", src, n, file, line);
        check_private("upc_memget_nb", "destination", dst, n, file, line);
        if (local) {
            memcpy(dst, mupci_segment_addr(src.addr), n);
        } else {
            mupci_rcache_before_read((int)src.thread, src.addr, n);
            h = mupci_xfer_get_nb(dst, (int)src.thread, src.addr, n);
        }
    }
    MUPCI_GASP_EVENT(GASP_UPC_NB_GET_INIT, GASP_END, local, file, line, 1, dst, &src, n,
                     (gasp_upc_nb_handle_t)h);
    return h;
}

mupc_handle_t mupc_put_nb(mupc_ptr_t dst, const void *src, size_t n, const char *file, int line)
{
    int local = is_local(dst);
    mupc_handle_t h = MUPC_HANDLE_TRIVIAL;
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_START, local, file, line, 1, &dst, src, n);
    if (n > 0) {
        check_ptr("non-blocking put", dst, n, file, line);
        check_private("upc_memput_nb", "source", src, n, file, line);
        if (local) {
            memcpy(mupci_segment_addr(dst.addr), src, n);
        } else {
            mupci_rcache_before_write((int)dst.thread, dst.addr, n);
            h = mupci_xfer_put_nb((int)dst.thread, dst.addr, src, n);
        }
    }
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_END, local, file, line, 1, &dst, src, n,
                     (gasp_upc_nb_handle_t)h);
    return h;
}

/* One side local: a non-blocking get or put from/into the local bytes.
 * Otherwise the copy is done now; a tool sees a put completed in its
 * initiation interval (NB_PUT_INIT, src NULL, GASP_NB_TRIVIAL), never the
 * blocking MEMCPY: every non-blocking call raises an INIT (gasp_upc.h). */
mupc_handle_t mupc_memcpy_nb(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file,
                             int line)
{
    if (n > 0) {
        check_ptr("upc_memcpy_nb (destination)", dst, n, file, line);
        check_ptr("upc_memcpy_nb (source)", src, n, file, line);
    }
    if (n > 0 && is_local(dst) && !is_local(src))
        return mupc_get_nb(mupci_segment_addr(dst.addr), src, n, file, line);
    if (n > 0 && is_local(src) && !is_local(dst))
        return mupc_put_nb(dst, mupci_segment_addr(src.addr), n, file, line);
    int local = is_local(dst) && is_local(src);
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_START, local, file, line, 1, &dst, (void *)NULL,
                     n);
    copy_now(dst, src, n);
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_END, local, file, line, 1, &dst, (void *)NULL, n,
                     (gasp_upc_nb_handle_t)GASP_NB_TRIVIAL);
    return MUPC_HANDLE_TRIVIAL;
}

/* A non-blocking put of n bytes of c, for a tool (NB_PUT_INIT with src
 * NULL): its handle reaches NB_SYNC, so it must come from an INIT. */
mupc_handle_t mupc_memset_nb(mupc_ptr_t dst, int c, size_t n, const char *file, int line)
{
    int local = is_local(dst);
    mupc_handle_t h = MUPC_HANDLE_TRIVIAL;
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_START, local, file, line, 1, &dst, (void *)NULL, n);
    if (n > 0) {
        check_ptr("upc_memset_nb", dst, n, file, line);
        if (local) {
            memset(mupci_segment_addr(dst.addr), c, n);
        } else {
            mupci_rcache_before_write((int)dst.thread, dst.addr, n);
            h = mupci_xfer_memset_nb((int)dst.thread, dst.addr, c, n);
        }
    }
    MUPCI_GASP_EVENT(GASP_UPC_NB_PUT_INIT, GASP_END, local, file, line, 1, &dst, (void *)NULL, n,
                     (gasp_upc_nb_handle_t)h);
    return h;
}

/* Retire `h` (wait) or test it once; 1 when complete, 0 if not yet. */
static int sync_op(mupc_handle_t h, int wait, const char *what, const char *file, int line)
{
    int rc = mupci_xfer_sync(h, wait);
    if (rc < 0)
        mupci_fatal_at(file, line,
                       "%s: handle %#llx is not an outstanding transfer (synchronized "
                       "already, or not returned by a non-blocking call)",
                       what, (unsigned long long)h);
    return rc;
}

void mupc_sync(mupc_handle_t h, const char *file, int line)
{
    if (h == MUPC_HANDLE_TRIVIAL)
        return;
    MUPCI_GASP_EVENT(GASP_UPC_NB_SYNC, GASP_START, 0, file, line, (gasp_upc_nb_handle_t)h);
    sync_op(h, 1, "upc_sync", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_NB_SYNC, GASP_END, 0, file, line, (gasp_upc_nb_handle_t)h);
}

/* At the end of NB_SYNC a tool takes the transfer as retired (GASP 1.4
 * §5.4.6), so only the attempt that finds it complete raises that pair;
 * every attempt is a GASP_MUPC_NB_SYNC_ATTEMPT whose end has the result. */
int mupc_sync_attempt(mupc_handle_t h, const char *file, int line)
{
    if (h == MUPC_HANDLE_TRIVIAL)
        return 1;
    gasp_upc_nb_handle_t gh = (gasp_upc_nb_handle_t)h;
    MUPCI_GASP_EVENT(GASP_MUPC_NB_SYNC_ATTEMPT, GASP_START, 0, file, line, gh);
    int done = sync_op(h, 0, "upc_sync_attempt", file, line);
    if (done) {
        MUPCI_GASP_EVENT(GASP_UPC_NB_SYNC, GASP_START, 0, file, line, gh);
        MUPCI_GASP_EVENT(GASP_UPC_NB_SYNC, GASP_END, 0, file, line, gh);
    }
    MUPCI_GASP_EVENT(GASP_MUPC_NB_SYNC_ATTEMPT, GASP_END, 0, file, line, gh, done);
    return done;
}

/* ---------------------------------------------------------------- */
/* Fence (GASP_UPC_FENCE)                                            */
/* ---------------------------------------------------------------- */

void mupc_fence(const char *file, int line)
{
    mupci_upc_thread_only("upc_fence", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_FENCE, GASP_START, 0, file, line);
    mupci_fence(file, line);
    MUPCI_GASP_EVENT(GASP_UPC_FENCE, GASP_END, 0, file, line);
}
