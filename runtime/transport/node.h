/* SPDX-License-Identifier: MIT */
/*
 * node.h -- which UPC threads share a node, and this process's mappings of
 * their shared segments (on-node shared memory, runtime/transport/README.md).
 *
 * Every thread's segment lives in a memfd (segment.c); the threads of one
 * node open each other's through /proc/PID/fd and map them, so an access
 * to a thread of the same node is a load or a store.  Node locality is a
 * property of each target thread, decided once at start-up; everything
 * that crosses nodes keeps the message engine.
 *
 * A "node" here is a real node (same host name and boot id) cut into the pretend
 * nodes of simulate_nodes; threads of different pretend nodes never use
 * each other's memory.  With shm = off every thread is a node of its own
 * as far as mappings go (mupci_node_segment is NULL for every other
 * thread), but mupci_node_of still tells the real layout.
 */
#ifndef MUPCI_NODE_H
#define MUPCI_NODE_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Bytes past the end of each segment's memfd holding the thread's control
 * block: words other threads of the node poll.  The first page holds the
 * owner's pid, the on-node barrier's slot, the gathered calls' slot, the
 * collectives' slot, and in
 * its last 64 bytes the count of threads asleep on the owner's lock
 * records; then one 16-byte record per on-node lock the thread hosts
 * (lock.c).  Pages are only allocated when
 * touched, so the lock area costs nothing until locks are used. */
#define MUPCI_NODE_CTL_PAGE 4096 /* pid word (64 bytes), then the barrier's slot */
#define MUPCI_NODE_CTL_BELL 8    /* after the pid: the message bell (engine.c) */
#define MUPCI_NODE_CTL_WAKE_PROBE 16 /* after the bell: the start-up wake-up probe (16 bytes) */
#define MUPCI_NODE_CTL_USER 64   /* where mupci_node_ctl's part starts */
/* The lock sleeper count's offset in mupci_node_ctl's part (lock.c), and
 * before it the collectives' slot (coll_shm.c), and before that the
 * gathered calls' slot (rendezvous.c); the barrier's slot ends before
 * that. */
#define MUPCI_NODE_CTL_LOCK_WAKE (MUPCI_NODE_CTL_PAGE - MUPCI_NODE_CTL_USER - 64)
#define MUPCI_NODE_CTL_COLL (MUPCI_NODE_CTL_LOCK_WAKE - 64)
#define MUPCI_NODE_CTL_RV (MUPCI_NODE_CTL_COLL - 2048)
#define MUPCI_NODE_LOCK_SLOTS 65536
#define MUPCI_NODE_CTL_BYTES (MUPCI_NODE_CTL_PAGE + 16 * MUPCI_NODE_LOCK_SLOTS)

/* segment[t]: thread t's segment as mapped in this process (this thread's
 * own included), or NULL when accesses to t are messages. */
extern char **mupci_node_segments;

/* Collective, after the segment is mapped: find the layout, map the
 * segments of this node's threads.  Falls back to messages for the whole
 * node (reported by mupci_node_describe) when any mapping fails. */
void mupci_node_init(int shm, int simulate_nodes, int mythread, int threads);

/* Which threads share this thread's machine, before mupci_node_init: one
 * sleeping all-gather of host name and boot id (no communicator split, whose
 * collectives busy-poll).  Returns the number of threads on this machine. */
int mupci_node_discover(void);
void mupci_node_finalize(void);

static inline char *mupci_node_segment(int thread) { return mupci_node_segments[thread]; }

/* 1 when other processes map this thread's segment and it maps theirs:
 * only then do strict accesses and fences need a processor fence. */
extern int mupci_node_sharing;

/* The processor fence those strict accesses and fences need: this
 * process's stores to mapped segments before its later loads.
 * ThreadSanitizer does not model stand-alone fences (GCC refuses them with
 * -Werror=tsan), so its builds use a sequentially consistent
 * read-modify-write on one word instead, which orders the same way for it
 * and is a full barrier on the processors we build for. */
#if defined(__SANITIZE_THREAD__)
#define MUPCI_NODE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define MUPCI_NODE_TSAN 1
#endif
#endif
#ifdef MUPCI_NODE_TSAN
extern _Atomic int mupci_node_fence_word;
static inline void mupci_node_fence(void)
{
    atomic_fetch_add_explicit(&mupci_node_fence_word, 0, memory_order_seq_cst);
}
#else
static inline void mupci_node_fence(void) { atomic_thread_fence(memory_order_seq_cst); }
#endif

/* The node of `thread` (0 .. mupci_node_count()-1, numbered in order of
 * their lowest thread) and how many nodes the job spans. */
int mupci_node_of(int thread);
int mupci_node_count(void);
/* The threads whose segments this process maps, this one included, in
 * increasing order (just this thread with shm off): the on-node barrier's
 * group.  members[0] leads it. */
const int *mupci_node_group(int *count);
/* The lowest thread of `thread`'s group (itself when it is alone). */
int mupci_node_leader(int thread);
/* 1 when every thread of the job is mapped here (one node, shm on). */
int mupci_node_all_mapped(void);
/* The control block of a thread of this node's group (NULL for others),
 * and its lock records. */
void *mupci_node_ctl(int thread);
void *mupci_node_lock_records(int thread);
/* The bell a thread's computation pthread sleeps on while it waits for a
 * message, rung by whoever of the node sends it one (engine.c); NULL
 * unless the thread is in this process's group and the group shares
 * memory (mupci_node_sharing). */
struct mupci_bell *mupci_node_message_bell(int thread);

/* After mupci_node_init, on every thread of the job at about the same
 * time: what a futex wake-up of another process of this node costs, in
 * ns (the waiting policy's input, base/backoff.c), measured with `rounds`
 * wake-ups each way; *across is 0 when it could only measure two pthreads
 * of this process (no partner on the node). */
int64_t mupci_node_measure_wake_ns(int rounds, int *across);

/* One line per node: "node 0: threads 0-1 (shared memory)"; thread 0 of
 * the job calls it for `verbose` and mupc-nodes prints it. */
void mupci_node_describe(FILE *out);

/* Pure: the node of each thread.  real[t] is equal for threads on one
 * real node; simulate > 1 also cuts the threads into that many
 * consecutive blocks (thread t in block t * simulate / threads).  Nodes
 * are numbered in order of their lowest thread.  Returns the node count. */
int mupci_node_layout(const int *real, int threads, int simulate, int *node_of);

#endif
