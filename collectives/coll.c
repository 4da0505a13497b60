/* SPDX-License-Identifier: MIT */
/*
 * coll.c -- the data-movement collectives of upc_collective.h:
 * broadcast, scatter, gather, gather_all, exchange, permute.
 *
 * Owner computes: each thread reads only its own src blocks and writes
 * only its own dst blocks, and only inside the call; the bytes travel as
 * collective messages (coll_net.h).  Exchange is the exception on a node:
 * there a thread writes its blocks into the other threads' dst, once they
 * have entered the call.  Broadcast, scatter and gather use a
 * binomial tree rooted at the thread holding the single-thread array
 * (log2 THREADS steps; scatter/gather pass each subtree's blocks as one
 * message); gather_all is a gather to thread 0 and a broadcast; exchange
 * sends every block straight to its owner, by a copy into its segment when
 * the owner is on this node (coll_shm.h); permute all-gathers perm,
 * checks it, then sends one block each.
 */
#include "collectives/coll.h"
#include "upc/barrier.h"
#include "collectives/coll_net.h"
#include "collectives/coll_shm.h"
#include "base/fatal.h"
#include "base/job.h"
#include "base/gasp_hooks.h"
#include "cache/rcache.h"
#include "transport/segment.h"
#include "transport/xfer.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Message rounds within one call. */
enum { ROUND_TREE = 1, ROUND_BCAST = 2, ROUND_DIRECT = 3 };

/* ---------------------------------------------------------------- */
/* Entering, leaving, addressing                                     */
/* ---------------------------------------------------------------- */

void mupci_coll_enter(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                      upc_flag_t flags, const char *what, const char *file, int line)
{
    mupci_upc_thread_only(what, file, line);
    const int in_flags = UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC;
    const int out_flags = UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
    int in = flags & in_flags, out = flags & out_flags;
    if (MUPCI_CHECKS && mupci_unlikely((in & (in - 1)) != 0 || (out & (out - 1)) != 0 ||
                                       (flags & ~(in_flags | out_flags)) != 0))
        mupci_fatal_at(file, line,
                       "%s: synchronization flags %#x: give at most one of UPC_IN_NOSYNC, "
                       "UPC_IN_MYSYNC, UPC_IN_ALLSYNC and at most one of UPC_OUT_NOSYNC, "
                       "UPC_OUT_MYSYNC, UPC_OUT_ALLSYNC, OR-ed together",
                       what, (unsigned)flags);
    mupci_coll_begin(what, file, line);
    /* Before the entry barrier: threads that disagree on the flags must
     * not pair one call's barrier with another's. */
    mupci_rv_check(kind, args, what, file, line);
    if ((in & (UPC_IN_NOSYNC | UPC_IN_MYSYNC)) == 0)
        mupci_barrier_internal(what, file, line);
}

void mupci_coll_leave(upc_flag_t flags, const char *what, const char *file, int line)
{
    if ((flags & (UPC_OUT_NOSYNC | UPC_OUT_MYSYNC)) == 0)
        mupci_barrier_internal(what, file, line);
}

void *mupci_coll_local(mupc_ptr_t p, size_t n, const char *what, const char *role,
                       const char *file, int line)
{
    if (MUPCI_CHECKS && mupci_unlikely(p.thread != (uint32_t)mupc_mythread ||
                                       !mupci_segment_range_ok(p.addr, n)))
        mupci_fatal_at(file, line,
                       "%s: %s: %zu bytes at thread %u, offset %llu %s; check the pointer "
                       "and the size (each segment holds %zu bytes)",
                       what, role, n, p.thread, (unsigned long long)p.addr,
                       p.thread != (uint32_t)mupc_mythread
                           ? "are not this thread's part of the array"
                           : "lie outside the shared segment",
                       mupci_segment_bytes);
    return mupci_segment_addr(p.addr);
}

/* The block with affinity to thread t of an array `shared [block] char[]`
 * that starts at p (phase ignored). */
static mupc_ptr_t block_of(mupc_ptr_t p, int t, size_t block)
{
    size_t index = (size_t)((t - (int)p.thread + mupc_threads) % mupc_threads);
    return mupc_ptr_add(upc_resetphase(p), (ptrdiff_t)(index * block), 1, block);
}

static void check_thread(mupc_ptr_t p, const char *what, const char *role, const char *file,
                         int line)
{
    if (MUPCI_CHECKS && mupci_unlikely(p.thread >= (uint32_t)mupc_threads || p.addr == 0))
        mupci_fatal_at(file, line,
                       "%s: %s is %s (thread %u, THREADS is %d); pass a pointer into the "
                       "shared array the call works on",
                       what, role,
                       p.addr == 0 ? "a null pointer-to-shared" : "out of range", p.thread,
                       mupc_threads);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        mupci_fatal("out of memory for a %zu-byte collective buffer", n);
    return p;
}

/* ---------------------------------------------------------------- */
/* Tree algorithms                                                   */
/* ---------------------------------------------------------------- */

void mupci_coll_bcast(int root, void *buf, size_t n, int round)
{
    int N = mupc_threads, v = mupci_tree_vrank(mupc_mythread, root, N);
    if (v != 0)
        mupci_coll_recv(mupci_tree_thread(mupci_tree_parent(v), root, N), round, buf, n);
    /* largest subtree first: it has the longest way to go */
    for (int k = mupci_tree_lowbit(v, N) >> 1; k >= 1; k >>= 1)
        if (v + k < N)
            mupci_coll_send(mupci_tree_thread(v + k, root, N), round, buf, n);
}

/* Scatter: `all` (on the root) holds THREADS blocks of n bytes in virtual-
 * rank order; every thread ends with its own block in `mine`. */
void mupci_coll_scatter(int root, const void *all, void *mine, size_t n)
{
    int N = mupc_threads, v = mupci_tree_vrank(mupc_mythread, root, N);
    size_t span = (size_t)mupci_tree_span(v, N);
    char *sub = v == 0 ? (char *)all : xmalloc(span * n); /* my subtree's blocks */
    if (v != 0)
        mupci_coll_recv(mupci_tree_thread(mupci_tree_parent(v), root, N), ROUND_TREE, sub,
                        span * n);
    for (int k = mupci_tree_lowbit(v, N) >> 1; k >= 1; k >>= 1)
        if (v + k < N)
            mupci_coll_send(mupci_tree_thread(v + k, root, N), ROUND_TREE, sub + (size_t)k * n,
                            (size_t)mupci_tree_span(v + k, N) * n);
    memcpy(mine, sub, n);
    if (v != 0)
        free(sub);
}

/* Gather: the reverse; on the root `all` receives the blocks in virtual-
 * rank order (other threads pass NULL). */
void mupci_coll_gather(int root, const void *mine, void *all, size_t n)
{
    int N = mupc_threads, v = mupci_tree_vrank(mupc_mythread, root, N);
    size_t span = (size_t)mupci_tree_span(v, N);
    char *sub = v == 0 ? (char *)all : xmalloc(span * n);
    memcpy(sub, mine, n);
    for (int k = 1; k < mupci_tree_lowbit(v, N) && v + k < N; k <<= 1)
        mupci_coll_recv(mupci_tree_thread(v + k, root, N), ROUND_TREE, sub + (size_t)k * n,
                        (size_t)mupci_tree_span(v + k, N) * n);
    if (v != 0) {
        mupci_coll_send(mupci_tree_thread(mupci_tree_parent(v), root, N), ROUND_TREE, sub,
                        span * n);
        free(sub);
    }
}

/* Every thread gets every thread's n bytes, in thread order. */
static void allgather(const void *mine, void *all, size_t n)
{
    mupci_coll_gather(0, mine, all, n);
    mupci_coll_bcast(0, all, (size_t)mupc_threads * n, ROUND_BCAST);
}

/* ---------------------------------------------------------------- */
/* The collectives                                                   */
/* ---------------------------------------------------------------- */

/* One call of a data-movement collective: GASP start, argument checks,
 * entry synchronization, the movement (skipped for 0 bytes), exit
 * synchronization, GASP end. */
typedef void (*move_fn)(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                        const char *file, int line);

typedef struct coll_kind {
    unsigned int evt;
    mupci_rv_kind_t kind;
    const char *what;
    move_fn move;
    int rooted_at; /* the root is the thread of 's'rc, of 'd'st, or 0: none */
} coll_kind_t;

static void run_collective(const coll_kind_t *k, mupc_ptr_t dst, mupc_ptr_t src,
                           size_t nbytes, upc_flag_t flags, const char *file, int line)
{
    unsigned int evt = k->evt;
    const char *what = k->what;
    MUPCI_GASP_EVENT(evt, GASP_START, 0, file, line, &dst, &src, nbytes, (int)flags);
    check_thread(src, what, "src", file, line);
    check_thread(dst, what, "dst", file, line);
    uint64_t args[MUPCI_RV_NARGS] = {nbytes, flags};
    if (k->rooted_at) {
        args[1] = k->rooted_at == 's' ? src.thread : dst.thread;
        args[2] = flags;
    }
    mupci_coll_enter(k->kind, args, flags, what, file, line);
    if (nbytes > 0)
        k->move(dst, src, nbytes, what, file, line);
    mupci_coll_leave(flags, what, file, line);
    MUPCI_GASP_EVENT(evt, GASP_END, 0, file, line, &dst, &src, nbytes, (int)flags);
}

static void move_broadcast(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                           const char *file, int line)
{
    int root = (int)src.thread;
    char *out = mupci_coll_local(block_of(dst, mupc_mythread, nbytes), nbytes, what,
                                 "dst block", file, line);
    if (mupc_mythread == root) {
        char *in = mupci_coll_local(src, nbytes, what, "src", file, line);
        mupci_coll_bcast(root, in, nbytes, ROUND_BCAST);
        memmove(out, in, nbytes);
    } else {
        mupci_coll_bcast(root, out, nbytes, ROUND_BCAST);
    }
}

static void move_scatter(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                         const char *file, int line)
{
    int N = mupc_threads, root = (int)src.thread;
    char *out = mupci_coll_local(block_of(dst, mupc_mythread, nbytes), nbytes, what,
                                 "dst block", file, line);
    char *all = NULL;
    if (mupc_mythread == root) { /* src's blocks in virtual-rank order */
        const char *in = mupci_coll_local(src, (size_t)N * nbytes, what, "src", file, line);
        all = xmalloc((size_t)N * nbytes);
        for (int v = 0; v < N; v++)
            memcpy(all + (size_t)v * nbytes,
                   in + (size_t)mupci_tree_thread(v, root, N) * nbytes, nbytes);
    }
    mupci_coll_scatter(root, all, out, nbytes);
    free(all);
}

static void move_gather(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                        const char *file, int line)
{
    int N = mupc_threads, root = (int)dst.thread;
    const char *in = mupci_coll_local(block_of(src, mupc_mythread, nbytes), nbytes, what,
                                      "src block", file, line);
    char *all = mupc_mythread == root ? xmalloc((size_t)N * nbytes) : NULL;
    mupci_coll_gather(root, in, all, nbytes);
    if (all) {
        char *out = mupci_coll_local(dst, (size_t)N * nbytes, what, "dst", file, line);
        for (int v = 0; v < N; v++)
            memcpy(out + (size_t)mupci_tree_thread(v, root, N) * nbytes,
                   all + (size_t)v * nbytes, nbytes);
        free(all);
    }
}

static void move_gather_all(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                            const char *file, int line)
{
    size_t total = (size_t)mupc_threads * nbytes;
    const char *in = mupci_coll_local(block_of(src, mupc_mythread, nbytes), nbytes, what,
                                      "src block", file, line);
    char *out = mupci_coll_local(block_of(dst, mupc_mythread, total), total, what,
                                 "dst block", file, line);
    char *all = xmalloc(total); /* dst may overlap src */
    allgather(in, all, nbytes);
    memcpy(out, all, total);
    free(all);
}

/* Exchange: block `to` of this thread's src goes to block `me` of
 * thread to's dst.  To the node's other threads it is pushed into their
 * segments (coll_shm.h), to other nodes it travels as a message. */
static void move_exchange(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, const char *what,
                          const char *file, int line)
{
    int N = mupc_threads, me = mupc_mythread, pushers = 0;
    size_t total = (size_t)N * nbytes;
    const char *in = mupci_coll_local(block_of(src, me, total), total, what, "src block",
                                      file, line);
    char *out = mupci_coll_local(block_of(dst, me, total), total, what, "dst block", file,
                                 line);
    for (int t = 0; t < N; t++)
        pushers += mupci_coll_shm_peer(t);
    uint32_t call = pushers ? mupci_coll_shm_enter() : 0;
    /* Staggered, so the threads do not all send to thread 0 first;
     * messages first, so they travel while the pushes copy. */
    for (int k = 1; k < N; k++) {
        int to = (me + k) % N;
        if (!mupci_coll_shm_peer(to))
            mupci_coll_send(to, ROUND_DIRECT, in + (size_t)to * nbytes, nbytes);
    }
    for (int k = 1; k < N; k++) {
        int to = (me + k) % N;
        if (!mupci_coll_shm_peer(to))
            continue;
        uint64_t at = block_of(dst, to, total).addr + (uint64_t)me * nbytes;
        if (MUPCI_CHECKS && mupci_unlikely(!mupci_segment_range_ok(at, nbytes)))
            mupci_fatal_at(file, line,
                           "%s: dst block of thread %d: %zu bytes at offset %llu lie outside "
                           "the shared segment; check the pointer and the size",
                           what, to, nbytes, (unsigned long long)at);
        mupci_coll_shm_push(to, call, at, in + (size_t)to * nbytes, nbytes);
    }
    memmove(out + (size_t)me * nbytes, in + (size_t)me * nbytes, nbytes);
    for (int k = 1; k < N; k++) {
        int from = (me - k + N) % N;
        if (!mupci_coll_shm_peer(from))
            mupci_coll_recv(from, ROUND_DIRECT, out + (size_t)from * nbytes, nbytes);
    }
    if (pushers)
        mupci_coll_shm_await(call, pushers);
}

void mupc_all_broadcast(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                        const char *file, int line)
{
    static const coll_kind_t k = {GASP_UPC_ALL_BROADCAST, MUPCI_RV_BROADCAST, "upc_all_broadcast", move_broadcast, 's'};
    run_collective(&k, dst, src, nbytes, flags, file, line);
}

void mupc_all_scatter(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                      const char *file, int line)
{
    static const coll_kind_t k = {GASP_UPC_ALL_SCATTER, MUPCI_RV_SCATTER, "upc_all_scatter", move_scatter, 's'};
    run_collective(&k, dst, src, nbytes, flags, file, line);
}

void mupc_all_gather(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                     const char *file, int line)
{
    static const coll_kind_t k = {GASP_UPC_ALL_GATHER, MUPCI_RV_GATHER, "upc_all_gather", move_gather, 'd'};
    run_collective(&k, dst, src, nbytes, flags, file, line);
}

void mupc_all_gather_all(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                         const char *file, int line)
{
    static const coll_kind_t k = {GASP_UPC_ALL_GATHER_ALL, MUPCI_RV_GATHER_ALL, "upc_all_gather_all", move_gather_all, 0};
    run_collective(&k, dst, src, nbytes, flags, file, line);
}

void mupc_all_exchange(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                       const char *file, int line)
{
    static const coll_kind_t k = {GASP_UPC_ALL_EXCHANGE, MUPCI_RV_EXCHANGE, "upc_all_exchange", move_exchange, 0};
    run_collective(&k, dst, src, nbytes, flags, file, line);
}

/* ---- permute ---- */

/* perm[i], wherever it lives (bypassing the cache like other runtime reads). */
static int read_perm(mupc_ptr_t perm, int i)
{
    mupc_ptr_t p = mupc_ptr_index(perm, (size_t)i, sizeof(int), 1);
    int value;
    if (p.thread == (uint32_t)mupc_mythread) {
        memcpy(&value, mupci_segment_addr(p.addr), sizeof value);
    } else {
        mupci_rcache_before_read((int)p.thread, p.addr, sizeof value);
        mupci_xfer_get(&value, (int)p.thread, p.addr, sizeof value);
    }
    return value;
}

/* Every thread finds the same problem; thread 0 reports it first. */
static void check_permutation(const int *perm, int *inverse, const char *file, int line)
{
    int N = mupc_threads;
    for (int i = 0; i < N; i++)
        inverse[i] = -1;
    for (int i = 0; i < N; i++) {
        const char *problem = NULL;
        int other = -1;
        if (perm[i] < 0 || perm[i] >= N)
            problem = "out of range";
        else if ((other = inverse[perm[i]]) >= 0)
            problem = "a duplicate";
        if (problem) {
            if (mupc_mythread != 0)
                sleep(1);
            if (other >= 0)
                mupci_fatal_at(file, line,
                               "upc_all_permute: perm is not a permutation: perm[%d] and "
                               "perm[%d] are both %d; each of 0..%d must appear once",
                               other, i, perm[i], N - 1);
            mupci_fatal_at(file, line,
                           "upc_all_permute: perm is not a permutation: perm[%d] = %d is %s; "
                           "each of 0..%d must appear once",
                           i, perm[i], problem, N - 1);
        }
        inverse[perm[i]] = i;
    }
}

void mupc_all_permute(mupc_ptr_t dst, mupc_ptr_t src, mupc_ptr_t perm, size_t nbytes,
                      upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_permute";
    MUPCI_GASP_EVENT(GASP_UPC_ALL_PERMUTE, GASP_START, 0, file, line, &dst, &src, &perm,
                     nbytes, (int)flags);
    check_thread(src, what, "src", file, line);
    check_thread(dst, what, "dst", file, line);
    check_thread(perm, what, "perm", file, line);
    uint64_t args[MUPCI_RV_NARGS] = {nbytes, flags};
    mupci_coll_enter(MUPCI_RV_PERMUTE, args, flags, what, file, line);
    int N = mupc_threads, me = mupc_mythread;
    int mine = read_perm(perm, me);
    int *all = xmalloc(2 * (size_t)N * sizeof *all), *inverse = all + N;
    allgather(&mine, all, sizeof mine);
    check_permutation(all, inverse, file, line);
    if (nbytes > 0) {
        const char *in = mupci_coll_local(block_of(src, me, nbytes), nbytes, what, "src block",
                                          file, line);
        char *out = mupci_coll_local(block_of(dst, me, nbytes), nbytes, what, "dst block",
                                     file, line);
        if (mine != me)
            mupci_coll_send(mine, ROUND_DIRECT, in, nbytes);
        if (inverse[me] == me)
            memmove(out, in, nbytes);
        else
            mupci_coll_recv(inverse[me], ROUND_DIRECT, out, nbytes);
    }
    free(all);
    mupci_coll_leave(flags, what, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_ALL_PERMUTE, GASP_END, 0, file, line, &dst, &src, &perm, nbytes,
                     (int)flags);
}
