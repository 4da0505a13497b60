/* SPDX-License-Identifier: MIT */
/*
 * coll_net.h -- the messages between the threads of one collective call,
 * which every collective algorithm (coll.c, coll_reduce.c) is built on,
 * and the binomial trees those algorithms use.
 *
 * Every thread makes the same collective calls in the same order, so the
 * k-th call of each thread belongs together: a message is addressed by
 * (call number, round, source).  A message that arrives before its
 * receiver has entered the call (UPC_IN_NOSYNC lets the sender run ahead)
 * waits in the receiver's mailbox; nothing is written to the receiver's
 * shared memory until the receiver itself takes it.
 *
 * Computation pthread only, progress lock not held.
 */
#ifndef MUPCI_COLL_NET_H
#define MUPCI_COLL_NET_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>

#define MUPCI_COLL_ANY (-1) /* receive from whichever thread sends */

/* Start this thread's next collective call (numbers its messages); what,
 * file and line name it in error messages. */
void mupci_coll_begin(const char *what, const char *file, int line);

/* Send n bytes to `dest` (any thread, itself included) as message `round`
 * of the current call; `buf` may be reused on return. */
void mupci_coll_send(int dest, int round, const void *buf, size_t n);
/* Wait for message `round` of the current call from `src` (or
 * MUPCI_COLL_ANY), copy its n bytes to buf; returns the sender. */
int mupci_coll_recv(int src, int round, void *buf, size_t n);

/* Binomial tree over "virtual ranks" v = (thread - root) mod THREADS:
 * v's parent is v without its lowest set bit, its children are v + 2^k
 * for 2^k below that bit, and its subtree is the contiguous range
 * [v, v + mupci_tree_span(v)).  A fold over children in increasing k
 * therefore combines in virtual-rank order. */
static inline int mupci_tree_vrank(int thread, int root, int threads)
{
    return (thread - root + threads) % threads;
}
static inline int mupci_tree_thread(int vrank, int root, int threads)
{
    return (vrank + root) % threads;
}
static inline int mupci_tree_lowbit(int v, int threads)
{
    if (v == 0) { /* the root: the smallest power of two >= threads */
        int p = 1;
        while (p < threads)
            p <<= 1;
        return p;
    }
    return v & -v;
}
static inline int mupci_tree_parent(int v) { return v & (v - 1); }
/* Threads in v's subtree. */
static inline int mupci_tree_span(int v, int threads)
{
    int span = mupci_tree_lowbit(v, threads);
    return span < threads - v ? span : threads - v;
}

#endif
