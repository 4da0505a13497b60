/* SPDX-License-Identifier: MIT */
/*
 * engine.h -- the two-pthread message engine (the MuPC report §4.3-4.4.3).
 *
 * All MPI calls and all protocol state sit behind one progress lock (MPI is
 * initialized MPI_THREAD_SERIALIZED).  The communication pthread polls when
 * the computation pthread is busy in user code; a computation pthread that
 * waits for something drives progress itself (a handoff costs
 * a scheduler round trip when cores are scarce).
 *
 * Outgoing messages are appended to a per-destination batch buffer and
 * sent as one MPI message when the batch fills, when someone waits, or when
 * the communication pthread sees the sender has gone quiet; sends complete
 * through MPI_Testall.  Incoming batches land in persistent receives
 * (MPI_Recv_init/MPI_Start), tested oldest first so per-source order holds.
 */
#ifndef MUPCI_ENGINE_H
#define MUPCI_ENGINE_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "base/config.h"
#include "base/job.h"
#include "transport/msg.h"
#include "mupc.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>


/* ---- life cycle (main thread) ---- */
/* ranks_per_core: this node's computation pthreads per core it may use,
 * rounded up (1 when there are cores to spare): it sets how long waits
 * spin and idle pthreads sleep (make_policies). */
void mupci_engine_init(const mupci_config_t *cfg, int ranks_per_core);
/* Once the node's mappings are made (mupci_node_init): the waiting
 * policy (base/backoff.c) from what a wake-up costs here, in ns, and from
 * whether every message to this thread rings its bell. */
void mupci_engine_start_waits(int64_t wake_ns);
int mupci_engine_bells_announce_all(void);
/* What init chose: polls a wait spins before it yields, and the longest
 * sleep of an idle communication pthread, in microseconds. */
int mupci_engine_wait_spins(void);
int64_t mupci_engine_longest_sleep_us(void);
/* Serve requests until mupci_engine_request_shutdown(); returns the status. */
int mupci_engine_comm_loop(void);
/* Complete outstanding sends, meet every other thread in a last barrier
 * while still serving messages, and release MPI resources, before
 * MPI_Finalize (each step bounded: after a global exit a peer may be
 * gone).  Returns holding the progress lock for good, so the
 * computation pthread (if still running) can never enter MPI again. */
void mupci_engine_finalize(void);

/* Any thread: stop the communication loop; computation-pthread waits park. */
void mupci_engine_request_shutdown(int status);
int mupci_engine_shutting_down(void);
/* Any thread: end the communication pthread's idle sleep now (work was
 * queued for it). */
void mupci_engine_wake_comm(void);

/* ---- the progress lock ---- */
void mupci_engine_lock(void);
void mupci_engine_unlock(void);
/* For the fatal path: make sure no other pthread is inside MPI. */
void mupci_engine_lock_for_abort(void);

/* ---- operations: a slot that replies and data fragments count down ---- */
typedef struct mupci_op {
    /* Parts still outstanding; 0 = complete.  Counted down by the progress
     * engine (lock held) and by direct copies (queue lock only), so it is
     * touched only through the two functions below: the countdown releases
     * the data a part delivered, the test acquires it, and the user's reads
     * of the buffer after a sync are ordered after the copy. */
    int pending;
    void *dst;            /* where GET_REPLY payloads go */
    uint32_t slot;
    uint32_t generation;
    int in_use;
} mupci_op_t;

mupci_op_t *mupci_op_alloc(int pending, void *dst); /* lock held */
/* One part of op is complete (its data, if any, is in place). */
static inline void mupci_op_part_done(mupci_op_t *op)
{
    __atomic_fetch_sub(&op->pending, 1, __ATOMIC_RELEASE);
}
/* Every part of op is complete. */
static inline int mupci_op_complete(const mupci_op_t *op)
{
    return __atomic_load_n(&op->pending, __ATOMIC_ACQUIRE) <= 0;
}
void mupci_op_free(mupci_op_t *op);                  /* lock held */
mupci_op_t *mupci_op_from_slot(int src, uint32_t slot); /* validated, for handlers */
uint64_t mupci_op_handle(const mupci_op_t *op);
mupci_op_t *mupci_op_from_handle(uint64_t handle); /* NULL if not a live handle */

/* ---- sending (lock held) ---- */
/* Largest payload that travels inline in a batch. */
size_t mupci_engine_inline_max(void);
/* Queue one message to `dest`; `urgent` messages (requests, replies) are
 * flushed at the end of the current progress pass at the latest. */
void mupci_engine_send(int dest, const mupci_msg_t *hdr, const void *payload, size_t len);
void mupci_engine_flush(int dest);
void mupci_engine_flush_all(void);
/* Run the handler of a message this thread sends to itself, at once. */
void mupci_engine_deliver_local(const mupci_msg_t *m, const void *payload, size_t len);
/* Bulk data as fragments of fragment_size with `tag`; each completed
 * fragment decrements op->pending (op may be NULL). */
void mupci_engine_send_data(const void *buf, size_t n, int dest, int tag, mupci_op_t *op);
void mupci_engine_recv_data(void *buf, size_t n, int src, int tag, mupci_op_t *op);
/* Receive bulk data now, inside a handler (keeps per-source order). */
void mupci_engine_recv_data_now(void *buf, size_t n, int src, int tag);
/* Number of fragments `n` bytes are split into. */
int mupci_engine_fragments(size_t n);

/* ---- progress and waiting ---- */
/* One pass: receive, dispatch, flush, complete sends.  Lock held.
 * Returns nonzero when it did useful work. */
int mupci_engine_progress(int flush_everything);
/* Computation pthread: drive progress until done(arg) (lock not held;
 * done is called with the lock held). */
void mupci_engine_wait(int (*done)(void *), void *arg);
/* The same, entered and left with the lock held (released while the
 * thread yields or sleeps). */
void mupci_engine_wait_locked(int (*done)(void *), void *arg);
/* Waits that another thread of the node ends by writing memory (the
 * on-node barrier, ticket locks): after a short spin, sleep on *word (a
 * futex, base/wake.h), registered in *sleepers, until whoever makes done
 * true wakes it (mupci_wake_sleepers), for at most idle_sleep_max_us at a
 * time (the shutdown flag is looked at between sleeps).  messages: done
 * may also need messages this pthread receives (a node leader in a job of
 * several nodes): then the sleeps keep the ordinary ladder's lengths
 * (progress is still driven between them) and only a wake cuts them
 * short.  Entered and left with the lock held. */
void mupci_engine_wait_sleep_locked(int (*done)(void *), void *arg, _Atomic uint32_t *word,
                                    _Atomic uint32_t *sleepers, int messages);
void mupci_engine_wait_sleep(int (*done)(void *), void *arg, _Atomic uint32_t *word,
                             _Atomic uint32_t *sleepers, int messages);
/* One progress pass if nobody else is making progress (lock not held):
 * lets a thread spinning on strict local data see remote writes. */
void mupci_engine_poll(void);
/* Convenience: wait until op->pending == 0. */
void mupci_engine_wait_op(mupci_op_t *op);
void mupci_engine_wait_op_locked(mupci_op_t *op);

/* ---- message handlers, one per type (see msg.h) ---- */
/* The engine names no module above it: the modules that own message types
 * give it their handlers, and the modules that have work to do without a
 * message give it progress hooks (GASNet-EX's gex_EP_RegisterHandlers).
 * Handlers are registered before main (the owners' constructors), so a
 * message that arrives early always finds its handler; a message of a type
 * with none stops the job.  A handler runs with the progress lock
 * held, on whichever pthread drives progress. */
typedef void (*mupci_handler_fn)(int src, const mupci_msg_t *m, const void *payload,
                                 size_t len);
typedef struct {
    mupci_msg_type_t type;
    mupci_handler_fn fn;
} mupci_handler_entry_t;
void mupci_engine_register_handlers(const mupci_handler_entry_t *entries, size_t n);
#define MUPCI_HANDLERS_REGISTER(table)                                                  \
    mupci_engine_register_handlers((table), sizeof(table) / sizeof(table)[0])
/* fn() runs in every progress pass (lock held) and returns how much work
 * it did, 0 for none. */
void mupci_engine_register_progress(int (*fn)(void));
/* A progress pass of this process is wanted by at_ns (mupci_now_ns's
 * clock) even if no message comes: an idle communication pthread sleeps
 * no longer than that, and in the hooks of the pass that meets the time
 * mupci_engine_pass_due_now() is 1.  The earliest time asked for wins.
 * Lock held. */
void mupci_engine_pass_due(int64_t at_ns);
int mupci_engine_pass_due_now(void);

#endif
