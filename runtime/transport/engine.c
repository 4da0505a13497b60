/* SPDX-License-Identifier: MIT */
/*
 * engine.c -- progress lock, batches, persistent receives, send completion,
 * operation slots, and the two ways of waiting (communication loop and
 * computation-pthread waits).  See engine.h for the design.
 */
#include "transport/engine.h"
#include "base/backoff.h"
#include "base/wake.h"
#include "transport/direct.h"
#include "base/fatal.h"
#include "base/job.h"
#include "transport/node.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

/* MPICH declares MPI_Test{all,some} with access attributes, and GCC >= 11
 * then takes the MPI_STATUSES_IGNORE sentinel for a zero-size array
 * (a false -Wstringop-overflow at -O2). */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif


static const mupci_config_t *cfg;
static int nthreads;

/* ---- the progress lock ---- */
static pthread_mutex_t progress_lock = PTHREAD_MUTEX_INITIALIZER;
/* initial-exec: a cheap TLS access from a shared library (the default
 * model calls __tls_get_addr on every lock and unlock) */
static __thread int holds_lock __attribute__((tls_model("initial-exec")));
static int progress_depth; /* >0 while dispatching (handlers must not wait) */

/* ---- shutdown and pthread coordination ---- */
static atomic_int shutdown_flag;
static atomic_int exit_status;
static atomic_uint compute_activity; /* bumped by every progress pass of a waiting computation pthread */
static atomic_int comm_kicked;       /* work was queued for the communication pthread */
static pthread_mutex_t wake_mx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cv = PTHREAD_COND_INITIALIZER;

/* How waits spin, yield and sleep (backoff.c, mupci_wait_policies): made
 * at init for start-up, and again once the node's bells are known. */
static mupci_wait_policies_t policies;
static mupci_wait_host_t wait_host;
/* This thread's message bell (node.h), or NULL: set once before the
 * communication pthread starts, so both pthreads read it without the
 * node's tables (which mupci_node_finalize frees). */
static mupci_bell_t *own_bell;
/* Rings of own_bell that request_shutdown has begun: the main pthread
 * waits for them to end before the segment can go (engine_finalize). */
static atomic_int shutdown_rings;
static int64_t idle_longest_ns; /* make_policies */
/* The pass some module wants by then (mupci_engine_pass_due), 0 for none:
 * set with the lock held, read by the communication pthread before it
 * sleeps, whose sleeps on a node that rings every message are otherwise
 * long (backoff.c, comm_idle). */
static _Atomic int64_t pass_due_ns;
static int pass_due_now; /* lock held: the current pass meets pass_due_ns */
/* When the communication pthread's sleep on its bell ends, 0 when it is
 * not asleep there (mupci_engine_pass_due rings it for an earlier time). */
static _Atomic int64_t comm_sleeps_until_ns;

/* ---- outgoing batches, one open buffer per destination ---- */
typedef struct batch {
    char *buf;
    size_t used;
    uint8_t urgent; /* holds a request or reply: flush at the end of the pass */
    uint8_t listed; /* in urgent_dests */
    uint8_t open;   /* in open_dests */
} batch_t;
/* A batch per thread of the job (24 bytes each), but the passes visit only
 * the destinations with messages waiting: a progress pass costs what was
 * sent, not the size of the job (doc/architecture.md, "What a rank costs"). */
static batch_t *batches;
static int *urgent_dests, nurgent; /* batches that became urgent, each once */
static int *open_dests, nopen;     /* batches that may hold messages, each once */
static char **pool;
static int pool_count, pool_cap;
static unsigned long appended, appended_at_last_pass;

/* ---- sends in flight, completed together by MPI_Testall ---- */
typedef struct send_entry {
    char *buffer;     /* batch buffer to recycle, or NULL */
    mupci_op_t *op;   /* op to count down, or NULL */
    int dest;         /* whose message bell to ring again once it completes */
} send_entry_t;
static MPI_Request *send_reqs;
static send_entry_t *send_entries;
static int *send_idx; /* scratch for MPI_Testsome */
static int nsends, send_cap;
static int nbulk_sends; /* of them, fragments of bulk data (no batch buffer) */

/* ---- bulk-data receives into user memory ---- */
static MPI_Request *data_reqs;
static mupci_op_t **data_ops;
static int *data_done_idx;
static int ndata, data_cap;

/* ---- persistent receives, tested oldest first ---- */
static MPI_Request *recv_reqs;
static char **recv_bufs;
static int nrecv, recv_head;

/* ---- operation slots ---- */
#define MAX_OPS MUPCI_MAX_OPS
static mupci_op_t ops[MAX_OPS];
static uint32_t free_slots[MAX_OPS];
static int nfree_slots;

/* ================================================================ */
/* Lock                                                              */
/* ================================================================ */

void mupci_engine_lock(void)
{
    MUPCI_PT(pthread_mutex_lock(&progress_lock));
    holds_lock = 1;
}

void mupci_engine_unlock(void)
{
    holds_lock = 0;
    MUPCI_PT(pthread_mutex_unlock(&progress_lock));
}

void mupci_engine_lock_for_abort(void)
{
    if (holds_lock)
        return;
    /* Bounded: the other pthread never holds the lock for long, but never
     * let an abort hang on it. */
    for (int i = 0; i < 100000; i++) {
        if (pthread_mutex_trylock(&progress_lock) == 0) {
            holds_lock = 1;
            return;
        }
        usleep(10);
    }
}

/* ================================================================ */
/* Buffers, sends and data receives                                  */
/* ================================================================ */

static void ring_message_bell(int dest);

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q)
        mupci_fatal("out of memory (%zu bytes) in the message engine", n);
    return q;
}

static char *buffer_get(void)
{
    if (pool_count > 0)
        return pool[--pool_count];
    char *b = malloc(cfg->batch_size);
    if (!b)
        mupci_fatal("out of memory for a %zu-byte batch buffer", cfg->batch_size);
    return b;
}

static void buffer_put(char *b)
{
    if (pool_count == pool_cap) {
        pool_cap = pool_cap ? 2 * pool_cap : 16;
        pool = xrealloc(pool, (size_t)pool_cap * sizeof *pool);
    }
    pool[pool_count++] = b;
}

static void track_send(MPI_Request req, char *buffer, mupci_op_t *op, int dest)
{
    if (nsends == send_cap) { /* grow: handlers must never wait for room */
        send_cap = send_cap ? 2 * send_cap : 64;
        send_reqs = xrealloc(send_reqs, (size_t)send_cap * sizeof *send_reqs);
        send_entries = xrealloc(send_entries, (size_t)send_cap * sizeof *send_entries);
        send_idx = xrealloc(send_idx, (size_t)send_cap * sizeof *send_idx);
    }
    send_reqs[nsends] = req;
    send_entries[nsends] = (send_entry_t){buffer, op, dest};
    nsends++;
}

/* A send MPI could not deliver at once (a full shared-memory queue, a
 * large message) completes only through this process's progress; the
 * bell rung when it was handed to MPI may have found nothing to read.  So
 * it rings again: a destination asleep on its bell sleeps until rung. */
static void send_completed(const send_entry_t *e)
{
    if (e->buffer)
        buffer_put(e->buffer);
    else
        nbulk_sends--;
    if (e->op)
        mupci_op_part_done(e->op);
    ring_message_bell(e->dest);
}

/* Drop the entries whose request MPI has set to MPI_REQUEST_NULL. */
static void compact_sends(void)
{
    int kept = 0;
    for (int i = 0; i < nsends; i++) {
        if (send_reqs[i] == MPI_REQUEST_NULL) {
            send_completed(&send_entries[i]);
            continue;
        }
        send_reqs[kept] = send_reqs[i];
        send_entries[kept] = send_entries[i];
        kept++;
    }
    nsends = kept;
}

/* Normal case: the sends in flight complete together (MPI_Testall).  When
 * many are in flight, retire whatever has completed (MPI_Testsome) so
 * buffers recycle even if one slow send holds up the batch. */
static int poll_sends(void)
{
    if (nsends == 0)
        return 0;
    int flag = 0;
    MUPCI_MPI(MPI_Testall(nsends, send_reqs, &flag, MPI_STATUSES_IGNORE));
    if (flag) {
        for (int i = 0; i < nsends; i++)
            send_completed(&send_entries[i]);
        nsends = 0;
        return 1;
    }
    if (nsends < cfg->send_slots / 2)
        return 0;
    int outcount = 0;
    MUPCI_MPI(MPI_Testsome(nsends, send_reqs, &outcount, send_idx, MPI_STATUSES_IGNORE));
    if (outcount > 0 && outcount != MPI_UNDEFINED)
        compact_sends();
    return outcount > 0 && outcount != MPI_UNDEFINED;
}

static void track_data_recv(MPI_Request req, mupci_op_t *op)
{
    if (ndata == data_cap) {
        data_cap = data_cap ? 2 * data_cap : 32;
        data_reqs = xrealloc(data_reqs, (size_t)data_cap * sizeof *data_reqs);
        data_ops = xrealloc(data_ops, (size_t)data_cap * sizeof *data_ops);
        data_done_idx = xrealloc(data_done_idx, (size_t)data_cap * sizeof *data_done_idx);
    }
    data_reqs[ndata] = req;
    data_ops[ndata] = op;
    ndata++;
}

static int poll_data_recvs(void)
{
    if (ndata == 0)
        return 0;
    int outcount = 0;
    MUPCI_MPI(MPI_Testsome(ndata, data_reqs, &outcount, data_done_idx, MPI_STATUSES_IGNORE));
    if (outcount == 0 || outcount == MPI_UNDEFINED)
        return 0;
    int kept = 0;
    for (int i = 0; i < ndata; i++) {
        if (data_reqs[i] == MPI_REQUEST_NULL) {
            if (data_ops[i])
                mupci_op_part_done(data_ops[i]);
            continue;
        }
        data_reqs[kept] = data_reqs[i];
        data_ops[kept] = data_ops[i];
        kept++;
    }
    ndata = kept;
    return 1;
}

/* Lock held: fragments of bulk data this process sends or receives are
 * in flight.  MPI moves them only while someone polls: over UCX's TCP
 * transport each progress call pushes what the socket takes and reads
 * what arrived, so a transfer stalls while both pthreads of either end
 * sleep.  A 16 MiB upc_memget across two emulated hosts moved at 850-970
 * MB/s with the waits' sleeps, 1520-1890 without, against MPI's
 * 1620-1960 (bench/HISTORY.md, "Bulk transfers over the network").  So
 * while this is true neither pthread sleeps.  It lasts a transfer: the
 * fragments are a get's reply or a put's data, which the other end
 * serves as soon as it handles the request. */
static int bulk_moving(void) { return nbulk_sends > 0 || ndata > 0; }

int mupci_engine_fragments(size_t n)
{
    return n == 0 ? 0 : (int)((n + cfg->fragment_size - 1) / cfg->fragment_size);
}

void mupci_engine_send_data(const void *buf, size_t n, int dest, int tag, mupci_op_t *op)
{
    const char *at = buf;
    for (size_t done = 0; done < n; done += cfg->fragment_size) {
        size_t piece = n - done < cfg->fragment_size ? n - done : cfg->fragment_size;
        MPI_Request req;
        MUPCI_MPI(MPI_Isend(at + done, (int)piece, MPI_BYTE, dest, tag, mupci_comm, &req));
        track_send(req, NULL, op, dest);
        nbulk_sends++;
    }
    ring_message_bell(dest);
}

void mupci_engine_recv_data(void *buf, size_t n, int src, int tag, mupci_op_t *op)
{
    char *at = buf;
    for (size_t done = 0; done < n; done += cfg->fragment_size) {
        size_t piece = n - done < cfg->fragment_size ? n - done : cfg->fragment_size;
        MPI_Request req;
        MUPCI_MPI(MPI_Irecv(at + done, (int)piece, MPI_BYTE, src, tag, mupci_comm, &req));
        track_data_recv(req, op);
    }
}

void mupci_engine_recv_data_now(void *buf, size_t n, int src, int tag)
{
    char *at = buf;
    for (size_t done = 0; done < n; done += cfg->fragment_size) {
        size_t piece = n - done < cfg->fragment_size ? n - done : cfg->fragment_size;
        MPI_Request req;
        int flag = 0;
        MUPCI_MPI(MPI_Irecv(at + done, (int)piece, MPI_BYTE, src, tag, mupci_comm, &req));
        /* Test, not Wait: MPICH's blocking calls spin and starve the other
         * pthreads.  The sender posted this data right after
         * the header we are handling, so it completes promptly. */
        while (!flag) {
            MUPCI_MPI(MPI_Test(&req, &flag, MPI_STATUS_IGNORE));
            if (!flag)
                sched_yield();
        }
    }
}

/* ================================================================ */
/* Batches                                                           */
/* ================================================================ */

size_t mupci_engine_inline_max(void) { return cfg->batch_size - MUPCI_MSG_HEADER_BYTES; }

/* A computation pthread of this node that waits for a message sleeps on
 * its message bell (node.h); ring it once the message is with MPI.  The
 * fence orders the send before the look at the sleeper count, against the
 * sleeper's increment of that count before its last poll (sleep_on):
 * either it finds the message or we find it asleep.  A message MPI has not
 * made visible yet (a full queue, a large send) is found by the sleeper's
 * next timed look: the bell only cuts sleeps short, no wait depends on it. */
static void ring_message_bell(int dest)
{
    mupci_bell_t *bell = mupci_node_message_bell(dest);
    if (!bell)
        return;
    mupci_node_fence();
    if (atomic_load_explicit(&bell->sleepers, memory_order_relaxed))
        mupci_bell_ring(bell);
}

static void flush_batch(int dest)
{
    batch_t *b = &batches[dest];
    if (b->used == 0)
        return;
    MPI_Request req;
    MUPCI_MPI(MPI_Isend(b->buf, (int)b->used, MPI_BYTE, dest, MUPCI_TAG_BATCH, mupci_comm, &req));
    track_send(req, b->buf, NULL, dest);
    b->buf = NULL;
    b->used = 0;
    b->urgent = 0;
    ring_message_bell(dest);
}

/* A sender outside a handler that has too many sends in flight waits for
 * some to complete (handlers never wait: they only add). */
static void throttle_sends(void)
{
    while (progress_depth == 0 && nsends >= cfg->send_slots) {
        mupci_engine_progress(0);
        if (nsends >= cfg->send_slots)
            sched_yield();
    }
}

void mupci_engine_flush(int dest)
{
    flush_batch(dest);
    throttle_sends();
}

/* Send the open batches that hold urgent messages (or all of them), and
 * forget the ones left empty. */
static void flush_open(int flush_everything)
{
    int kept = 0;
    for (int i = 0; i < nopen; i++) {
        int d = open_dests[i];
        batch_t *b = &batches[d];
        if (b->used && (flush_everything || b->urgent))
            flush_batch(d);
        if (b->used)
            open_dests[kept++] = d;
        else
            b->open = 0;
    }
    nopen = kept;
}

void mupci_engine_flush_all(void)
{
    flush_open(1);
    throttle_sends();
}

void mupci_engine_send(int dest, const mupci_msg_t *hdr, const void *payload, size_t len)
{
    batch_t *b = &batches[dest];
    if (!b->buf)
        b->buf = buffer_get();
    if (mupci_msg_append(b->buf, cfg->batch_size, &b->used, hdr, payload, len) != 0) {
        mupci_engine_flush(dest);
        b->buf = buffer_get();
        if (mupci_msg_append(b->buf, cfg->batch_size, &b->used, hdr, payload, len) != 0)
            mupci_fatal("internal error: %zu-byte payload exceeds batch_size %zu", len,
                        cfg->batch_size);
    }
    if (!b->open) {
        b->open = 1;
        open_dests[nopen++] = dest;
    }
    if (hdr->type != MUPCI_MSG_PUT && hdr->type != MUPCI_MSG_MEMSET &&
        hdr->type != MUPCI_MSG_PUT_MASKED) {
        b->urgent = 1;
        if (!b->listed) {
            b->listed = 1;
            urgent_dests[nurgent++] = dest;
        }
    }
    appended++;
}

/* End of a pass: requests and replies always go out; relaxed puts go out
 * when someone waits, or once the sender has gone quiet for a whole
 * communication-pthread pass (so a stream of puts coalesces). */
static void flush_after_pass(int flush_everything)
{
    int quiet = appended == appended_at_last_pass;
    appended_at_last_pass = appended;
    if (nopen)
        flush_open(flush_everything || quiet);
}

/* ================================================================ */
/* Incoming                                                          */
/* ================================================================ */

/* Filled by the modules that own the message types (engine.h). */
static mupci_handler_fn handlers[MUPCI_MSG_NTYPES];

void mupci_engine_register_handlers(const mupci_handler_entry_t *entries, size_t n)
{
    for (size_t i = 0; i < n; i++)
        handlers[entries[i].type] = entries[i].fn;
}

/* Progress hooks of the modules above (the on-node barrier). */
#define MAX_PROGRESS_HOOKS 4
static int (*progress_hooks[MAX_PROGRESS_HOOKS])(void);
static int nprogress_hooks;

void mupci_engine_register_progress(int (*fn)(void))
{
    if (nprogress_hooks == MAX_PROGRESS_HOOKS)
        mupci_fatal("internal: more than %d progress hooks", MAX_PROGRESS_HOOKS);
    progress_hooks[nprogress_hooks++] = fn;
}

/* Replies a handler produced go out at once, before the receive is
 * reposted and the next one tested: the requester is waiting for them. */
static void flush_urgent(void)
{
    while (nurgent > 0) {
        int d = urgent_dests[--nurgent];
        batches[d].listed = 0;
        if (batches[d].urgent)
            flush_batch(d);
    }
}

/* A module linked statically is left out when the program uses nothing of
 * it, and with it its handlers; but then no thread sends its messages
 * either (each module sends the types it handles). */
static inline void handle(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_handler_fn fn = handlers[m->type];
    if (mupci_unlikely(!fn))
        mupci_fatal("internal error: no handler registered for message type %s from thread %d",
                    mupci_msg_type_name(m->type), src);
    fn(src, m, payload, len);
}

static void dispatch_batch(int src, const char *buf, size_t len)
{
    size_t pos = 0;
    mupci_msg_t m;
    const void *payload;
    size_t plen;
    int rc;
    while ((rc = mupci_msg_next(buf, len, &pos, &m, &payload, &plen)) == 1)
        handle(src, &m, payload, plen);
    if (rc < 0)
        mupci_fatal("internal error: malformed batch of %zu bytes from thread %d at byte %zu",
                    len, src, pos);
}

void mupci_engine_deliver_local(const mupci_msg_t *m, const void *payload, size_t len)
{
    progress_depth++;
    handle(mupc_mythread, m, payload, len);
    progress_depth--;
    /* What the handler sent (a lock handed to a waiter, a collective's
     * answers) must not wait for the communication pthread's next pass:
     * it may be asleep for up to idle_sleep_max_us. */
    flush_urgent();
}

/* done, when not NULL, is the condition a waiting computation pthread
 * waits for (wait_loop): once a batch has made it true, the waiter leaves
 * without testing the next receive.  That test would find nothing nearly
 * always, yet over TCP each failing MPI_Test is a progress pass of MPI's,
 * an epoll_wait: half a microsecond on a barrier's or a get's critical path
 * between the message that ends the wait and the return.  A batch that is
 * there all the same is handled by the next pass of either pthread, as one
 * that arrives just after the waiter left always was. */
static int poll_incoming(int (*done)(void *), void *arg, int *waiter_done)
{
    int handled = 0;
    while (handled < nrecv) {
        int flag = 0, count = 0;
        MPI_Status st;
        MUPCI_MPI(MPI_Test(&recv_reqs[recv_head], &flag, &st));
        if (!flag)
            break;
        MUPCI_MPI(MPI_Get_count(&st, MPI_BYTE, &count));
        dispatch_batch(st.MPI_SOURCE, recv_bufs[recv_head], (size_t)count);
        flush_urgent();
        MUPCI_MPI(MPI_Start(&recv_reqs[recv_head]));
        recv_head = (recv_head + 1) % nrecv;
        handled++;
        if (done && done(arg)) {
            *waiter_done = 1;
            break;
        }
    }
    return handled;
}

/* A pass that copies a piece of a queued on-node direct read holds the
 * progress lock meanwhile: 256 KiB is about 10 us at this machine's 26
 * GB/s.  Direct reads once used fragment_size; that grew to 4 MiB for
 * the network's sake, and these pieces stayed (a smaller fragment_size
 * still lowers them). */
#define DIRECT_PIECE_MAX (256 * 1024)

static size_t direct_piece_bytes(void)
{
    return cfg->fragment_size < DIRECT_PIECE_MAX ? cfg->fragment_size : DIRECT_PIECE_MAX;
}

/* One pass; done as for poll_incoming.  A waiter whose condition a batch
 * met leaves after flushing what the pass queued: the other polls (each
 * an MPI call that may be a progress pass of MPI's) wait for the next.
 * The condition is looked at once per batch only (a collective's wait
 * for any sender scans every thread's queue). */
static int progress_pass(int flush_everything, int (*done)(void *), void *arg)
{
    progress_depth++;
    int waiter_done = 0;
    int work = poll_incoming(done, arg, &waiter_done);
    if (!waiter_done) {
        work += poll_data_recvs();
        work += mupci_direct_progress(direct_piece_bytes());
        for (int i = 0; i < nprogress_hooks; i++)
            work += progress_hooks[i]();
    }
    progress_depth--;
    flush_after_pass(flush_everything);
    if (!waiter_done)
        work += poll_sends();
    return work;
}

int mupci_engine_progress(int flush_everything) { return progress_pass(flush_everything, NULL, NULL); }

/* ================================================================ */
/* Operation slots                                                   */
/* ================================================================ */

mupci_op_t *mupci_op_alloc(int pending, void *dst)
{
    if (nfree_slots == 0)
        mupci_fatal_plain("more than %d operations outstanding (non-blocking transfers not yet "
                          "synchronized?); call upc_sync on some handles first",
                          MAX_OPS);
    mupci_op_t *op = &ops[free_slots[--nfree_slots]];
    op->pending = pending;
    op->dst = dst;
    op->generation++;
    op->in_use = 1;
    return op;
}

void mupci_op_free(mupci_op_t *op)
{
    op->in_use = 0;
    free_slots[nfree_slots++] = op->slot;
}

mupci_op_t *mupci_op_from_slot(int src, uint32_t slot)
{
    if (slot >= MAX_OPS || !ops[slot].in_use)
        mupci_fatal("internal error: thread %d answered operation %u, which is not outstanding",
                    src, slot);
    return &ops[slot];
}

uint64_t mupci_op_handle(const mupci_op_t *op)
{
    return ((uint64_t)op->generation << 32) | (uint64_t)(op->slot + 1);
}

mupci_op_t *mupci_op_from_handle(uint64_t handle)
{
    uint64_t slot1 = handle & 0xffffffffu;
    if (slot1 == 0 || slot1 > MAX_OPS)
        return NULL;
    mupci_op_t *op = &ops[slot1 - 1];
    if (!op->in_use || op->generation != (uint32_t)(handle >> 32))
        return NULL;
    return op;
}

/* ================================================================ */
/* Waiting                                                           */
/* ================================================================ */

static void park_forever(void) __attribute__((noreturn));
static void park_forever(void)
{
    /* The job is ending (upc_global_exit elsewhere); the main pthread is
     * finalizing MPI and will end the process. */
    for (;;)
        pause();
}

/* A wait with a futex word (mupci_engine_wait_sleep) yields after its
 * spin, like any wait, as long as yields come back quickly (backoff.h):
 * then the pthreads that take the core are other waiters of this job,
 * which run a moment and give it back, and a yield costs a context switch
 * where a sleep costs a wake-up (4-9 us here).  Once a yield was slow, a
 * wake-up gets the core back sooner than the busy pthread's time slice
 * would.  Measured on 2 cores, 4-thread on-node barrier (quick runs,
 * other jobs on the machine, so ranges): with a busy loop per core beside
 * it, 15-35 us with no yields at all, 80-300 us with 20-100 us of yields
 * first, 500-780 us when the switch took two slow yields in a row or
 * never happened, about 1000 us before futexes; without busy loops, 3-7
 * us yielding, 16-28 us sleeping at once.  One slow yield is enough:
 * after a busy process's slice the next yield is quick again. */
static mupci_yield_meter_t compute_yields; /* computation pthread only */

/* Lock held: yield (and note a slow one); 0 if yields are slow now. */
static int yield_if_quick(void)
{
    if (mupci_yields_slow(&compute_yields, mupci_now_ns()))
        return 0;
    mupci_engine_unlock();
    mupci_yield_metered(&compute_yields);
    mupci_engine_lock();
    return 1;
}

/* A wait that can sleep spins first only while spinning pays.  Counted
 * in 4-thread on-node barriers on 2 cores: with a busy process per core
 * beside them, 80 of some 30,000 waits per thread ended in the spin (the
 * threads that would end it wait for a core), so each wait burnt its
 * polls for nothing; without the busy processes about a third did.  So
 * each spin that ends the wait restores SPIN_CREDIT failed spins, each
 * failed spin spends one, and with none left a wait skips the spin
 * except every SPIN_PROBE_EVERY-th, which tries again.  Waits done at
 * the first look (the releaser's own) count neither way. */
#define SPIN_CREDIT 32
#define SPIN_PROBE_EVERY 16
static int spin_credit = SPIN_CREDIT; /* computation pthread only */
static unsigned spin_probes;

static int spin_pays(void)
{
    return spin_credit > 0 || ++spin_probes % SPIN_PROBE_EVERY == 0;
}

static void spin_ended(int wait_done)
{
    if (wait_done)
        spin_credit = SPIN_CREDIT;
    else if (spin_credit > 0)
        spin_credit--;
}

/* Lock held: sleep on *word until it changes (a wake), at most
 * timeout_ns, unless done or the job is ending.  The count goes up before
 * the last look at done, so a waker that made done true after that look
 * sees this sleeper (wake.h).  On the message bell that last look polls
 * MPI first: the senders ring after their send (ring_message_bell). */
static void sleep_on(_Atomic uint32_t *word, _Atomic uint32_t *sleepers,
                     int (*done)(void *), void *arg, int64_t timeout_ns, int poll_first)
{
    uint32_t seen = atomic_load_explicit(word, memory_order_acquire);
    atomic_fetch_add_explicit(sleepers, 1, memory_order_seq_cst);
    if (poll_first)
        mupci_engine_progress(1);
    if (!done(arg) && !atomic_load(&shutdown_flag)) {
        mupci_engine_unlock();
        mupci_futex_wait(word, seen, timeout_ns);
        mupci_engine_lock();
    }
    atomic_fetch_sub_explicit(sleepers, 1, memory_order_seq_cst);
}

/* A sleep that a bell ends is shortened to this while sends of this
 * process are still in flight: MPI may need this process's progress to
 * deliver them (and to ring their destinations, send_completed). */
#define SENDS_IN_FLIGHT_SLEEP_NS 50000

/* Lock held: the next step of a wait that did no work.  Returns the
 * sleep to take, or 0 when the wait should poll again now (a spin, or a
 * yield that gave the core back quickly).  A yield is metered when a bell
 * can end the sleep that would replace it: once yields are slow, the
 * wait sleeps instead (backoff.h). */
static int64_t wait_step(mupci_backoff_t *b, int metered)
{
    int64_t sleep_ns = 0;
    mupci_backoff_action_t action = mupci_backoff_step(b, &sleep_ns);
    if (action == MUPCI_BACKOFF_SPIN)
        return 0; /* no pause instruction: the next MPI poll is the pause, and
                   * bench/core's get median was 0.57 us without it, 0.63 with */
    if (action == MUPCI_BACKOFF_YIELD) {
        if (!metered) {
            mupci_engine_unlock();
            sched_yield();
            mupci_engine_lock();
            return 0;
        }
        if (yield_if_quick())
            return 0;
        int64_t now = mupci_now_ns(); /* yields are slow: on to the ladder's sleeps */
        mupci_backoff_skip_yield(b, now);
        mupci_backoff_next(b, now, &sleep_ns);
    }
    return sleep_ns;
}

/* The lock stays held while spinning: nobody else needs it then (the
 * communication pthread stays away while we wait, see comm_defer), and
 * each release and re-acquire costs more than a poll.  It is released
 * around yields and sleeps.  With a futex word the sleeps are on it;
 * without one, when the node shares memory, on this thread's message bell,
 * which on-node senders ring.  bell_ends: whatever ends the wait rings the
 * word, so the policy is the bell one (sleep until rung); otherwise the
 * timed ladder, whose sleeps a ring only cuts short (messages from other
 * nodes ring nothing). */
static void wait_loop(int (*done)(void *), void *arg, _Atomic uint32_t *word,
                      _Atomic uint32_t *sleepers, int bell_ends)
{
    int message_bell = 0;
    if (!word) {
        mupci_bell_t *bell = own_bell;
        if (bell) {
            word = &bell->word;
            sleepers = &bell->sleepers;
            message_bell = 1;
        }
    }
    mupci_backoff_t b;
    mupci_backoff_init(&b, bell_ends && word ? &policies.bell : &policies.timed);
    int spinning = 0; /* a spin whose outcome counts (spin_pays) */
    for (int first = 1;; first = 0) {
        int work = progress_pass(1, done, arg);
        if (done(arg)) {
            if (spinning)
                spin_ended(1);
            break;
        }
        if (first && word) {
            spinning = spin_pays();
            if (!spinning)
                mupci_backoff_skip_spin(&b);
        }
        atomic_fetch_add_explicit(&compute_activity, 1, memory_order_relaxed);
        if (atomic_load(&shutdown_flag)) {
            mupci_engine_unlock();
            park_forever();
        }
        if (work || bulk_moving()) { /* a wait for bulk data polls as MPI_Wait does */
            mupci_backoff_reset(&b);
            continue;
        }
        if (spinning && b.polls >= b.policy->spin_polls) {
            spin_ended(0);
            spinning = 0;
        }
        int64_t sleep_ns = wait_step(&b, word != NULL);
        if (sleep_ns == 0)
            continue;
        if (!word) {
            mupci_engine_unlock();
            mupci_backoff_act(MUPCI_BACKOFF_SLEEP, sleep_ns);
            mupci_engine_lock();
            continue;
        }
        if (bell_ends && nsends > 0 && sleep_ns > SENDS_IN_FLIGHT_SLEEP_NS)
            sleep_ns = SENDS_IN_FLIGHT_SLEEP_NS;
        sleep_on(word, sleepers, done, arg, sleep_ns, message_bell);
        if (done(arg)) /* woken: leave before a whole progress pass */
            break;
    }
    atomic_fetch_add_explicit(&compute_activity, 1, memory_order_relaxed);
}

/* A wait for a message ends by the bell when every message this thread
 * can get rings it: the job is one node sharing memory. */
void mupci_engine_wait_locked(int (*done)(void *), void *arg)
{
    wait_loop(done, arg, NULL, NULL, wait_host.bells_announce_all);
}

/* Without messages to drive, every sleep lasts until a wake (the bell
 * policy); the computation pthread still counts a pass per sleep, so its
 * communication pthread keeps deferring (comm_defer) as in any wait. */
void mupci_engine_wait_sleep_locked(int (*done)(void *), void *arg, _Atomic uint32_t *word,
                                    _Atomic uint32_t *sleepers, int messages)
{
    wait_loop(done, arg, word, sleepers, !messages);
}

void mupci_engine_wait_sleep(int (*done)(void *), void *arg, _Atomic uint32_t *word,
                             _Atomic uint32_t *sleepers, int messages)
{
    mupci_engine_lock();
    mupci_engine_wait_sleep_locked(done, arg, word, sleepers, messages);
    mupci_engine_unlock();
}

void mupci_engine_wait(int (*done)(void *), void *arg)
{
    mupci_engine_lock();
    mupci_engine_wait_locked(done, arg);
    mupci_engine_unlock();
}

void mupci_engine_poll(void)
{
    if (pthread_mutex_trylock(&progress_lock) != 0)
        return; /* someone is making progress right now */
    holds_lock = 1;
    mupci_engine_progress(1);
    mupci_engine_unlock();
}

static int op_done(void *arg) { return mupci_op_complete(arg); }

void mupci_engine_wait_op(mupci_op_t *op) { mupci_engine_wait(op_done, op); }

void mupci_engine_wait_op_locked(mupci_op_t *op) { mupci_engine_wait_locked(op_done, op); }

/* ================================================================ */
/* The communication pthread                                         */
/* ================================================================ */

/* The communication pthread's sleep while its computation pthread waits
 * (comm_defer): on a condition variable, which mupci_engine_wake_comm and
 * a shutdown signal.  Not on the message bell: the waiting computation
 * pthread handles the messages, and each would wake both pthreads. */
static void comm_sleep_cv(int64_t ns)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += ns;
    until.tv_sec += until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    MUPCI_PT(pthread_mutex_lock(&wake_mx));
    if (!atomic_load(&shutdown_flag))
        pthread_cond_timedwait(&wake_cv, &wake_mx, &until);
    MUPCI_PT(pthread_mutex_unlock(&wake_mx));
}

/* After its work the communication pthread polls between yields for
 * yield_window_us, so that a request from another node is served at once
 * while its computation pthread computes.  Where cores are oversubscribed
 * those yields take the core from the pthreads that compute: GWU's NAS CG
 * (class B, two emulated hosts on 2 cores, a request served every few
 * milliseconds) made 2.2-3.2 million yields a rank in 33 s, 2.3-2.9 s of
 * the communication pthread's CPU time.  So once a yield was slow (a busy
 * pthread had the core, backoff.h), it sleeps instead, as the computation
 * pthread's waits do: 0.8-1.1 s, and CG's median time 32.5 -> 31.6 s
 * (three interleaved rounds).  Yields on free cores stay quick and keep
 * the window. */
static mupci_yield_meter_t comm_yields; /* communication pthread only */

static void ring_own_bell(void);

/* A sleeping communication pthread whose sleep would end after the new
 * due time is rung.  The two sides store, then load the other's word
 * (sequentially consistent): either the sleeper sees the due time and
 * sleeps no longer, or the caller sees the sleep and rings, and a ring
 * after the sleeper's first look at the bell ends its futex wait. */
void mupci_engine_pass_due(int64_t at_ns)
{
    int64_t due = atomic_load(&pass_due_ns);
    if (due != 0 && due <= at_ns)
        return;
    atomic_store(&pass_due_ns, at_ns);
    int64_t until = atomic_load(&comm_sleeps_until_ns);
    if (until > at_ns)
        ring_own_bell();
}

int mupci_engine_pass_due_now(void) { return pass_due_now; }

/* Lock held: whether a pass is due now (it is then no longer pending). */
static int take_due_pass(void)
{
    int64_t due = atomic_load_explicit(&pass_due_ns, memory_order_relaxed);
    if (due == 0 || mupci_now_ns() < due)
        return 0;
    atomic_store_explicit(&pass_due_ns, 0, memory_order_relaxed);
    return 1;
}

/* A sleep of ns, ended no later than a due pass. */
static int64_t until_due(int64_t ns)
{
    int64_t due = atomic_load(&pass_due_ns);
    if (due == 0)
        return ns;
    int64_t left = due - mupci_now_ns();
    return left < 1000 ? 1000 : left < ns ? left : ns;
}

/* Communication pthread: a progress pass if the lock is free.  Returns -1
 * when it could not look (the computation pthread is in a pass), else
 * the work the pass did; *moving and *sending: bulk data, or any send,
 * still in flight. */
static int comm_try_progress(int *moving, int *sending)
{
    *moving = *sending = 0;
    if (pthread_mutex_trylock(&progress_lock) != 0)
        return -1;
    holds_lock = 1;
    pass_due_now = take_due_pass();
    int work = mupci_engine_progress(0);
    pass_due_now = 0;
    *moving = bulk_moving();
    *sending = nsends > 0;
    mupci_engine_unlock();
    return work;
}

/* The communication pthread's sleep while its computation pthread
 * computes.  On a node that shares memory it sleeps on its thread's
 * message bell, so that a message from the node ends it at once (so do
 * mupci_engine_wake_comm and a shutdown, which ring it too); elsewhere on
 * the condition variable.  As sleep_on does, it counts itself a sleeper
 * before one last look, so a sender after that look finds it asleep; a
 * look that cannot take the progress lock (the computation pthread is in
 * a pass) does not sleep, since that pass may have missed the message. */
static void comm_sleep(int64_t ns)
{
    mupci_bell_t *bell = own_bell;
    if (!bell) {
        comm_sleep_cv(until_due(ns));
        return;
    }
    uint32_t seen = atomic_load_explicit(&bell->word, memory_order_acquire);
    atomic_fetch_add_explicit(&bell->sleepers, 1, memory_order_seq_cst);
    int moving, sending;
    int busy = comm_try_progress(&moving, &sending) != 0 || moving;
    if (sending && ns > SENDS_IN_FLIGHT_SLEEP_NS) /* as in wait_loop */
        ns = SENDS_IN_FLIGHT_SLEEP_NS;
    if (!busy && !atomic_load(&shutdown_flag) && !atomic_load(&comm_kicked)) {
        atomic_store(&comm_sleeps_until_ns, mupci_now_ns() + ns); /* before until_due's look */
        mupci_futex_wait(&bell->word, seen, until_due(ns));
        atomic_store(&comm_sleeps_until_ns, 0);
    }
    atomic_fetch_sub_explicit(&bell->sleepers, 1, memory_order_seq_cst);
}

static void comm_idle(mupci_backoff_t *b)
{
    int64_t sleep_ns = 0, now = mupci_now_ns();
    mupci_backoff_action_t action = mupci_backoff_next(b, now, &sleep_ns);
    if (action == MUPCI_BACKOFF_YIELD && mupci_yields_slow(&comm_yields, now)) {
        mupci_backoff_skip_yield(b, now);
        action = mupci_backoff_next(b, now, &sleep_ns);
    }
    switch (action) {
    case MUPCI_BACKOFF_SPIN:
        break;
    case MUPCI_BACKOFF_YIELD:
        mupci_yield_metered(&comm_yields);
        break;
    case MUPCI_BACKOFF_SLEEP:
        comm_sleep(sleep_ns);
        break;
    }
}

/* The computation pthread is waiting, so it drives progress itself: get
 * off the core instead of spinning or yielding next to it (a yielding
 * pthread still takes time slices when cores are scarce).  Sleeps grow
 * from 20 us to idle_sleep_max_us while it keeps waiting.  This came in
 * with the other get-path changes of the same commit, which together took
 * bench/core's get median from 0.74-0.81 to 0.56-0.57 us; on its own its
 * effect was within the run-to-run noise. */
static void comm_defer(mupci_backoff_t *defer)
{
    int64_t sleep_ns = 0;
    if (mupci_backoff_step(defer, &sleep_ns) == MUPCI_BACKOFF_SLEEP)
        comm_sleep_cv(sleep_ns);
}

int mupci_engine_comm_loop(void)
{
    mupci_backoff_t b, defer;
    unsigned seen = atomic_load(&compute_activity);
    mupci_backoff_init(&b, &policies.comm_idle);
    mupci_backoff_init(&defer, &policies.comm_defer);
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0); /* sleeps of ~20 us must not cost 50 us */
    while (!atomic_load(&shutdown_flag)) {
        unsigned now = atomic_load_explicit(&compute_activity, memory_order_relaxed);
        if (atomic_exchange(&comm_kicked, 0)) {
            /* Queued work (a direct copy) is ours to do even if the
             * computation pthread waited a moment ago: it computes now. */
            seen = now;
            mupci_backoff_reset(&b);
        } else if (now != seen) {
            seen = now;
            comm_defer(&defer);
            continue;
        }
        mupci_backoff_reset(&defer);
        int moving, sending, work = mupci_direct_progress(SIZE_MAX);
        int passed = comm_try_progress(&moving, &sending);
        if (passed > 0)
            work += passed;
        /* Sends in flight may need this process's progress to be
         * delivered: no sleep until rung meanwhile, the timed ladder. */
        const mupci_backoff_policy_t *idle = sending ? &policies.comm_timed : &policies.comm_idle;
        if (b.policy != idle)
            mupci_backoff_init(&b, idle);
        if (work)
            mupci_backoff_reset(&b);
        else if (moving)
            sched_yield(); /* poll again soon, giving way to a pthread that computes */
        else
            comm_idle(&b);
    }
    return atomic_load(&exit_status);
}

/* The communication pthread sleeps on the condition variable or on the
 * message bell (comm_sleep): both are woken. */
static void ring_own_bell(void)
{
    if (own_bell)
        mupci_bell_ring(own_bell);
}

void mupci_engine_wake_comm(void)
{
    atomic_store(&comm_kicked, 1);
    MUPCI_PT(pthread_mutex_lock(&wake_mx));
    MUPCI_PT(pthread_cond_signal(&wake_cv));
    MUPCI_PT(pthread_mutex_unlock(&wake_mx));
    ring_own_bell();
}

void mupci_engine_request_shutdown(int status)
{
    /* The first request's status wins, and it is stored before the flag
     * is raised: the communication loop returns exit_status as soon as it
     * sees the flag (upc_global_exit(1) at 1 thread once ended the job
     * with status 0 when the loop looked in between). */
    static atomic_int claimed;
    int expected = 0;
    /* Counted before the flag: the main pthread, which finalizes once it
     * sees the flag, then waits for this ring to end (the bell lives in
     * this thread's segment). */
    atomic_fetch_add(&shutdown_rings, 1);
    if (atomic_compare_exchange_strong(&claimed, &expected, 1)) {
        atomic_store(&exit_status, status);
        atomic_store(&shutdown_flag, 1);
    }
    MUPCI_PT(pthread_mutex_lock(&wake_mx));
    MUPCI_PT(pthread_cond_broadcast(&wake_cv));
    MUPCI_PT(pthread_mutex_unlock(&wake_mx));
    ring_own_bell(); /* the communication pthread may sleep on it */
    atomic_fetch_sub(&shutdown_rings, 1);
}

int mupci_engine_shutting_down(void) { return atomic_load(&shutdown_flag); }

/* ================================================================ */
/* Life cycle                                                        */
/* ================================================================ */

/* The longest sleep of a pthread with nothing to wait for: the
 * communication pthread while its computation pthread computes or waits,
 * and a wait that a bell ends (mupci_engine_wait_sleep without messages).
 * A node running STRETCH_FROM or more ranks per core stretches the
 * default by that factor, up to IDLE_SLEEP_CEILING_US.  Such sleeps are
 * polls that find nothing: 128 ranks' 256 pthreads on 2 cores waking every
 * 2 ms each made about 128,000 wake-ups a second (at 256 threads on 8
 * emulated hosts: load 490, 46-72 % system time), and the ranks with work
 * waited for a core.  A computation pthread waiting for a message keeps
 * idle_sleep_max_us: a message from another node rings no bell, so it
 * sees the message only when it wakes: tests/mr/test_lock at 64 threads
 * on 4 emulated hosts (16 ranks per host of 2 cores), where a lock is
 * handed on across hosts, took 105 s unstretched and had not ended after
 * 4 minutes with these waits stretched too; stretched as here, 90 s.  The
 * price: a request from another node to a rank that computes, or sleeps
 * in a bell-ended wait, may wait that much longer for its communication
 * pthread, where a core would not often have been free sooner anyway.  A
 * value the user set is taken as it is. */
#define STRETCH_FROM 4 /* 2-3 ranks per core (4 threads on 2 cores) keep the default */
#define IDLE_SLEEP_CEILING_US 32000

static int64_t stretched_sleep_ns(int ranks_per_core)
{
    int64_t us = cfg->idle_sleep_max_us;
    int user_set = strcmp(cfg->origin[MUPCI_KEY_idle_sleep_max_us], "default") != 0;
    if (ranks_per_core >= STRETCH_FROM && !user_set) {
        us *= ranks_per_core;
        if (us > IDLE_SLEEP_CEILING_US)
            us = IDLE_SLEEP_CEILING_US;
    }
    return us * 1000;
}

int mupci_engine_wait_spins(void) { return policies.bell.spin_polls; }

int64_t mupci_engine_longest_sleep_us(void) { return idle_longest_ns / 1000; }

static void make_policies(void) { policies = mupci_wait_policies(&wait_host); }

/* Until mupci_engine_start_waits: no bell announces anything yet, and a
 * wake-up is taken to cost the most the policy allows. */
static void init_wait_host(int ranks_per_core)
{
    idle_longest_ns = stretched_sleep_ns(ranks_per_core);
    int yield_set = strcmp(cfg->origin[MUPCI_KEY_yield_window_us], "default") != 0;
    wait_host = (mupci_wait_host_t){
        .wake_ns = MUPCI_WAKE_NS_MAX,
        .ranks_per_core = ranks_per_core,
        .spin_polls = cfg->spin_polls,
        .yield_window_ns = (int64_t)cfg->yield_window_us * 1000,
        .yield_window_set = yield_set,
        .sleep_max_ns = (int64_t)cfg->idle_sleep_max_us * 1000,
        .sleep_max_set = strcmp(cfg->origin[MUPCI_KEY_idle_sleep_max_us], "default") != 0,
        .idle_longest_ns = idle_longest_ns,
        .bells_announce_all = 0,
    };
    make_policies();
}

void mupci_engine_start_waits(int64_t wake_ns)
{
    own_bell = mupci_node_message_bell(mupc_mythread);
    wait_host.wake_ns = wake_ns;
    wait_host.bells_announce_all = mupci_node_all_mapped() && own_bell != NULL;
    make_policies();
}

int mupci_engine_bells_announce_all(void) { return wait_host.bells_announce_all; }

void mupci_engine_init(const mupci_config_t *config, int ranks_per_core)
{
    cfg = config;
    /* From here on an abort first stops the other pthread's MPI calls. */
    mupci_fatal_set_abort_hook(mupci_engine_lock_for_abort);
    MUPCI_MPI(MPI_Comm_size(mupci_comm, &nthreads));
    init_wait_host(ranks_per_core);
    batches = calloc((size_t)nthreads, sizeof *batches);
    urgent_dests = calloc((size_t)nthreads, sizeof *urgent_dests);
    open_dests = calloc((size_t)nthreads, sizeof *open_dests);
    nrecv = cfg->recv_buffers;
    recv_reqs = calloc((size_t)nrecv, sizeof *recv_reqs);
    recv_bufs = calloc((size_t)nrecv, sizeof *recv_bufs);
    if (!batches || !urgent_dests || !open_dests || !recv_reqs || !recv_bufs)
        mupci_fatal("out of memory setting up the message engine");
    for (int i = 0; i < nrecv; i++) {
        recv_bufs[i] = buffer_get();
        MUPCI_MPI(MPI_Recv_init(recv_bufs[i], (int)cfg->batch_size, MPI_BYTE, MPI_ANY_SOURCE,
                                MUPCI_TAG_BATCH, mupci_comm, &recv_reqs[i]));
    }
    MUPCI_MPI(MPI_Startall(nrecv, recv_reqs));
    for (uint32_t i = 0; i < MAX_OPS; i++) {
        ops[i].slot = i;
        free_slots[MAX_OPS - 1 - i] = i;
    }
    nfree_slots = MAX_OPS;
    prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
}

/* Progress until every send and data receive of ours has completed, or
 * the deadline passes (after a global exit a peer may already be gone). */
static void drain(int64_t deadline)
{
    mupci_engine_flush_all();
    while ((nsends > 0 || ndata > 0) && mupci_now_ns() < deadline) {
        if (!mupci_engine_progress(1))
            sched_yield();
    }
}

static int progress_everything(void) { return mupci_engine_progress(1); }

/* The last synchronization, while progress still runs: a thread enters it
 * once its own traffic is complete, and serves what others still send
 * (the persistent receives are live) until every thread is there.  MPI
 * then starts its shutdown with no transfer of ours in flight anywhere.
 * Non-blocking and polled: a blocking MPI_Barrier would spin a core that
 * another rank of the node needs.  The polls between progress passes that
 * found nothing sleep as the start-up collectives' do (job.h): from 20 us,
 * doubling up to 1 ms, longer with many ranks per core.  A fixed 50 us
 * poll would have 1,024 ranks on two cores ask for 20 million wake-ups a
 * second between them while some had not yet left their final barrier;
 * measured there, the synchronization now takes 0.07-0.13 s on thread 0
 * and the exit as long as before, within MPI_Finalize's own spread
 * (bench/HISTORY.md, "Test programs at 1,024 threads").  Bounded:
 * a peer that died leaves the barrier incomplete, and MPI_Finalize is then
 * bounded by finish.c's watchdog. */
static void last_synchronization(int64_t deadline)
{
    MPI_Request req;
    MUPCI_MPI(MPI_Ibarrier(mupci_comm, &req));
    /* At the deadline the request is left to MPI, which finalizes next. */
    (void)mupci_job_wait_serving(&req, progress_everything, deadline);
}

void mupci_engine_finalize(void)
{
    while (atomic_load(&shutdown_rings) > 0) /* a ring of own_bell ends in microseconds */
        sched_yield();
    mupci_engine_lock();
    drain(mupci_now_ns() + 2000000000LL);
    /* 5 s, and 10 ms a thread: an oversubscribed node's ranks take turns */
    last_synchronization(mupci_now_ns() + 5000000000LL + 10000000LL * nthreads);
    drain(mupci_now_ns() + 1000000000LL); /* replies to what came in meanwhile */
    for (int i = 0; i < nrecv; i++) {
        MUPCI_MPI(MPI_Cancel(&recv_reqs[i]));
        MUPCI_MPI(MPI_Wait(&recv_reqs[i], MPI_STATUS_IGNORE));
        MUPCI_MPI(MPI_Request_free(&recv_reqs[i]));
        free(recv_bufs[i]);
    }
    for (int i = 0; i < pool_count; i++)
        free(pool[i]);
    pool_count = 0;
    /* The lock stays held: no pthread may enter MPI after this. */
}
