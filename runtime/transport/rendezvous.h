/* SPDX-License-Identifier: MIT */
/*
 * rendezvous.h -- every collective call checked, and the collective
 * library calls (upc_all_alloc, upc_all_free, upc_all_lock_alloc,
 * upc_all_lock_free, atomic domains) gathered at thread 0.
 *
 * Every thread makes the same collective calls in the same order, so the
 * k-th call of each thread belongs together.  Every collective call, and
 * the end of main, sends thread 0 an arrival: which call, its arguments
 * and the caller's file:line (the checked calls' arrivals go in batches,
 * at the latest when the thread notifies a barrier, ends main, or has
 * waited 20 us with arrivals unsent).  Thread 0 checks that the k-th
 * arrivals of all threads agree (a mismatch stops the job naming both
 * calls and where they were made).  For the library calls it also runs the call's action
 * once every thread is in and answers every thread with its result, so
 * each of them is also a synchronization point: no thread leaves before
 * all have entered.  The data collectives only check: they do not wait
 * for the verdict, and a thread may run ahead (UPC_IN_NOSYNC).  When the
 * whole job is one node sharing memory, a library call's arrival and its
 * answer go through the threads' control blocks instead of messages
 * (rendezvous.c, "Gathered calls on one node"); the checks are the same.
 */
#ifndef MUPCI_RENDEZVOUS_H
#define MUPCI_RENDEZVOUS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "transport/request.h"

#include <stdint.h>

typedef enum {
    /* gathered: an action on thread 0 answers every thread */
    MUPCI_RV_ALL_ALLOC,
    MUPCI_RV_ALL_FREE,
    MUPCI_RV_ALL_LOCK_ALLOC,
    MUPCI_RV_ALL_LOCK_FREE,
    MUPCI_RV_DOMAIN_ALLOC,
    MUPCI_RV_DOMAIN_FREE,
    /* UPC-IO (io/upc_io.c): gathered with no action, so every call is
     * also the point after which all threads are inside it */
    MUPCI_RV_IO_OPEN,
    MUPCI_RV_IO_FILE,
    MUPCI_RV_IO_SEEK,
    MUPCI_RV_IO_SIZE,
    MUPCI_RV_IO_DATA,
    MUPCI_RV_IO_LIST,
    /* checked only */
    MUPCI_RV_BROADCAST,
    MUPCI_RV_SCATTER,
    MUPCI_RV_GATHER,
    MUPCI_RV_GATHER_ALL,
    MUPCI_RV_EXCHANGE,
    MUPCI_RV_PERMUTE,
    MUPCI_RV_REDUCE,
    MUPCI_RV_PREFIX_REDUCE,
    MUPCI_RV_ALLV, /* the value collectives of <bupc_collectivev.h> */
    MUPCI_RV_MAIN_END, /* main returned: no further collective call */
    MUPCI_RV_NKINDS
} mupci_rv_kind_t;

/* Arguments that must agree between threads; their meaning per kind is
 * in rendezvous.c's table (for the messages). */
#define MUPCI_RV_NARGS 6

/* Runs on thread 0 with the progress lock held, once all threads have
 * arrived; must not wait.  NULL action: the reply is all zeros. */
typedef void (*mupci_rv_action_t)(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out);

void mupci_rv_init(int threads);
void mupci_rv_set_action(mupci_rv_kind_t kind, mupci_rv_action_t action);

/* A gathered call (collective); `what` (the API name), file and line are
 * the caller's, for the mismatch message. */
void mupci_rendezvous(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                      const char *what, const char *file, int line, mupci_reply_t *result);

/* A checked call: tell thread 0, do not wait. */
void mupci_rv_check(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                    const char *what, const char *file, int line);

/* main returned on this thread: a thread still inside a collective call
 * (or that makes one) is told at thread 0. */
void mupci_rv_main_end(void);
/* Thread 0, after the final barrier: wait (at most `timeout_ns`) until
 * every thread's arrivals, the end of main's included, have been received
 * and checked.  They are sent without a reply; the barrier on a node
 * does not carry them, so without this thread 0 could finalize MPI with
 * a peer's last one still on its way (unchecked, and a message MPI never
 * matched). */
void mupci_rv_wait_arrivals(int64_t timeout_ns);

/* Collective calls and barriers must come in the same order on every
 * thread.  A barrier records how many collective calls its thread had made
 * (mupci_rv_calls_made, from the computation pthread or with the progress
 * lock held); the barrier reports a thread that is ahead of a waiting one
 * (mupci_rv_ahead_of_barrier), and thread 0 asks the barrier module
 * through the probe whether an arriving call can still be met: 0 if it
 * can, else the barrier it waits in (what, file, line). */
uint64_t mupci_rv_calls_made(void);
int mupci_rv_main_ended(void);
void mupci_rv_ahead_of_barrier(int waiter, uint64_t waiter_calls) __attribute__((noreturn));
/* barriers: how many barriers the calling thread had notified (modulo
 * 2^16) when it made call number seq; every call carries it. */
typedef int (*mupci_rv_barrier_probe_t)(uint64_t seq, uint16_t barriers, const char **what,
                                        const char **file, int *line);
void mupci_rv_set_barrier_probe(mupci_rv_barrier_probe_t probe);
/* Computation pthread: this thread notifies a barrier. */
void mupci_rv_barrier_notified(void);
/* Runs with the progress lock held each time this thread makes a call:
 * the barrier module compares with the arrivals it holds already. */
void mupci_rv_set_call_hook(void (*hook)(void));
/* Thread 0, lock held, once it waits in a barrier: the calls that arrived
 * before are looked at too. */
void mupci_rv_barrier_wait_started(void);

#endif
