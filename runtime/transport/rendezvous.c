/* SPDX-License-Identifier: MIT */
/*
 * rendezvous.c -- collective calls checked and gathered at thread 0
 * (rendezvous.h).
 */
#include "transport/rendezvous.h"
#include "transport/engine.h"
#include "transport/node.h"
#include "base/backoff.h"
#include "base/fatal.h"
#include "base/wake.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How each kind's arguments are named in a mismatch message: one letter
 * per argument, 'd' decimal, 'x' hex, 'h' compared but not shown (it is
 * in the call's name), then the names. */
typedef struct kind_info {
    const char *style;
    const char *names[MUPCI_RV_NARGS];
} kind_info_t;

static const kind_info_t kinds[MUPCI_RV_NKINDS] = {
    [MUPCI_RV_ALL_ALLOC] = {"dd", {"nblocks", "nbytes"}},
    [MUPCI_RV_ALL_FREE] = {"ddd", {"thread", "offset", "phase"}},
    [MUPCI_RV_ALL_LOCK_ALLOC] = {"", {0}},
    [MUPCI_RV_ALL_LOCK_FREE] = {"dd", {"offset", "thread"}},
    [MUPCI_RV_DOMAIN_ALLOC] = {"dx", {"type", "ops"}},
    [MUPCI_RV_DOMAIN_FREE] = {"dx", {"type", "ops"}},
    /* UPC-IO: the first argument says which function (it is in the name) */
    [MUPCI_RV_IO_OPEN] = {"hxdx", {"call", "flags", "numhints", "hints hash"}},
    [MUPCI_RV_IO_FILE] = {"hddx", {"call", "file", "cmd", "arg"}},
    [MUPCI_RV_IO_SEEK] = {"hddd", {"call", "file", "offset", "origin"}},
    [MUPCI_RV_IO_SIZE] = {"hdd", {"call", "file", "size"}},
    [MUPCI_RV_IO_DATA] = {"hdxddd", {"call", "file", "flags", "size", "nmemb", "blocksize"}},
    [MUPCI_RV_IO_LIST] = {"hdx", {"call", "file", "flags"}},
    [MUPCI_RV_BROADCAST] = {"ddx", {"nbytes", "root", "flags"}},
    [MUPCI_RV_SCATTER] = {"ddx", {"nbytes", "root", "flags"}},
    [MUPCI_RV_GATHER] = {"ddx", {"nbytes", "root", "flags"}},
    [MUPCI_RV_GATHER_ALL] = {"dx", {"nbytes", "flags"}},
    [MUPCI_RV_EXCHANGE] = {"dx", {"nbytes", "flags"}},
    [MUPCI_RV_PERMUTE] = {"dx", {"nbytes", "flags"}},
    [MUPCI_RV_REDUCE] = {"hxdddx", {"type", "op", "nelems", "blk_size", "dst thread", "flags"}},
    [MUPCI_RV_PREFIX_REDUCE] = {"hxddx", {"type", "op", "nelems", "blk_size", "flags"}},
    [MUPCI_RV_ALLV] = {"hddx", {"call", "size", "root+1", "op"}}, /* root -1: all */
    [MUPCI_RV_MAIN_END] = {"", {0}},
};

/* Only the library calls wait for an answer. */
static int replies(uint64_t kind) { return kind < MUPCI_RV_BROADCAST; }

typedef struct arrival {
    uint64_t kind, line, args[MUPCI_RV_NARGS];
    uint64_t seq;      /* the caller's call number, from 0 */
    uint32_t barriers; /* barriers the caller had notified (modulo 2^16) */
    uint32_t unused;
    char what[32];
    char file[112]; /* the end of a longer path */
} arrival_t;

/* Thread 0: one pending collective call, until every thread is in. */
typedef struct pending {
    uint64_t seq;
    arrival_t first; /* what the first thread to arrive passed */
    uint16_t first_barriers; /* and how many barriers it had notified */
    int first_thread;
    int arrived;
    struct pending *next;
    uint32_t ops[]; /* ops[t]: thread t's request, once arrived */
} pending_t;

static mupci_rv_action_t actions[MUPCI_RV_NKINDS];
/* Thread 0 only: one per call some thread has not reached yet, in the
 * order of their first arrivals.  A thread may run many calls ahead (a
 * root of UPC_OUT_MYSYNC broadcasts), so a call newer than all is
 * appended at once instead of searched for. */
static pending_t *pendings, *last_pending;
static pending_t *spares; /* finished ones, for reuse (they all have one size) */
static int nspares;
#define SPARES_MAX 64
static uint64_t next_new_seq; /* calls below this one have had an arrival */
static uint64_t calls_made;  /* this thread's collective calls so far */
static int main_ended; /* this thread's MAIN_END went: not a call of the program's */
static arrival_t last_call;  /* the last of them */
static mupci_rv_barrier_probe_t barrier_probe;
static uint16_t barriers_notified; /* carried by each call (flags) for the probe */
static void (*call_hook)(void);
static int nthreads;

/* Threads other than 0: the arrivals of checked calls, queued in call
 * order and sent as one message (progress lock held).  One message per
 * call doubled the cost of a small broadcast: 0.41 us against 0.20 us
 * without arrivals (2 threads, bench/coll's MYSYNC broadcast of 8 bytes).
 * The queue goes out when it is full, before a gathered call's arrival,
 * at the end of main, when this thread notifies a barrier (so thread 0
 * has a barrier's earlier calls before the barrier can complete), and
 * from a progress pass once its oldest arrival has waited QUEUE_AGE_NS:
 * a thread blocked in a mismatched call still tells thread 0 within a
 * millisecond.  Nothing else waits for an arrival that the age sends.
 * It was 20 us, which across nodes sent a thread's arrivals every two or
 * three calls of a stream of small broadcasts, each message a send of
 * 5-7 us over TCP: a MYSYNC broadcast of 8 bytes between two emulated
 * hosts took 2-6 % longer with it (four runs, medians of 11-21
 * interleaved batches in one job).  On a node 32 such calls take less
 * than 20 us anyway. */
#define QUEUE_MAX 32
#define QUEUE_AGE_NS 1000000
static arrival_t queued[QUEUE_MAX];
static _Atomic int nqueued; /* read without the lock by barrier_notified */
static int queue_cap;
static int64_t oldest_queued_ns;

/* Gathered calls meet in shared memory, not in messages (see the section
 * "Gathered calls on one node" below). */
static int on_node;

static void flush_arrivals(void)
{
    int n = atomic_load_explicit(&nqueued, memory_order_relaxed);
    if (n == 0)
        return;
    size_t bytes = (size_t)n * sizeof queued[0];
    mupci_msg_t m = {MUPCI_MSG_RV_ARRIVE, 0, 0, 0, bytes};
    /* emptied first: the send may run a progress pass (throttling), whose
     * hook must not send the same arrivals again; queued[] itself only
     * grows on this pthread, outside progress */
    atomic_store_explicit(&nqueued, 0, memory_order_relaxed);
    mupci_engine_send(0, &m, queued, bytes);
}

static void queue_arrival(const arrival_t *a, int send_now)
{
    int n = atomic_load_explicit(&nqueued, memory_order_relaxed);
    if (n == 0) {
        oldest_queued_ns = mupci_now_ns();
        /* the age limit holds while nothing else makes a pass: a thread
         * that stops in its own check of the call (a collective's data of
         * the wrong size) still lets thread 0 name both calls */
        mupci_engine_pass_due(oldest_queued_ns + QUEUE_AGE_NS);
    }
    queued[n++] = *a;
    atomic_store_explicit(&nqueued, n, memory_order_relaxed);
    if (n == queue_cap || send_now)
        flush_arrivals();
}

/* A progress hook (engine.h): the queue's age limit, looked at every
 * 16th pass (a clock read on every pass of a waiting thread cost 8 % of
 * its time in the broadcast above), and in the pass asked for when the
 * queue began (the communication pthread's, on a node whose every
 * message rings it, may be the only one for 100 ms). */
static int flush_old_arrivals(void)
{
    static unsigned passes;
    if (atomic_load_explicit(&nqueued, memory_order_relaxed) &&
        ((++passes & 15) == 0 || mupci_engine_pass_due_now()) &&
        mupci_now_ns() - oldest_queued_ns >= QUEUE_AGE_NS)
        flush_arrivals();
    return 0;
}

static void node_init(void);

void mupci_rv_init(int threads)
{
    nthreads = threads;
    size_t fit = mupci_engine_inline_max() / sizeof queued[0];
    queue_cap = fit < 1 ? 1 : fit > QUEUE_MAX ? QUEUE_MAX : (int)fit;
    if (mupc_mythread != 0)
        mupci_engine_register_progress(flush_old_arrivals);
    node_init();
}

void mupci_rv_set_action(mupci_rv_kind_t kind, mupci_rv_action_t action)
{
    actions[kind] = action;
}

static void copy_tail(char *to, size_t cap, const char *from)
{
    size_t n = from ? strlen(from) : 0;
    if (n < cap)
        memcpy(to, from ? from : "", n + 1);
    else
        snprintf(to, cap, "...%s", from + n - (cap - 4));
}

static arrival_t make_arrival(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                              const char *what, const char *file, int line)
{
    arrival_t a;
    memset(&a, 0, sizeof a);
    a.kind = (uint64_t)kind;
    a.line = (uint64_t)(uint32_t)line;
    memcpy(a.args, args, sizeof a.args);
    copy_tail(a.what, sizeof a.what, what);
    copy_tail(a.file, sizeof a.file, file);
    return a;
}

static void rendezvous_on_node(const arrival_t *a, mupci_reply_t *result);

void mupci_rendezvous(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                      const char *what, const char *file, int line, mupci_reply_t *result)
{
    arrival_t a = make_arrival(kind, args, what, file, line);
    mupci_engine_lock();
    a.seq = calls_made++;
    a.barriers = barriers_notified;
    last_call = a;
    if (call_hook)
        call_hook();
    flush_arrivals(); /* thread 0 gets this thread's checked calls first */
    if (on_node) {
        rendezvous_on_node(&a, result);
    } else {
        mupci_msg_t m = {MUPCI_MSG_RV_ARRIVE, 0, 0, 0, sizeof a};
        mupci_request_locked(0, &m, &a, sizeof a, result);
    }
    mupci_engine_unlock();
}

void mupci_rv_check(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                    const char *what, const char *file, int line)
{
    arrival_t a = make_arrival(kind, args, what, file, line);
    mupci_engine_lock();
    a.seq = calls_made++;
    /* In the same lock section as the count: a barrier message handled in
     * between took the end of main for a collective call the waiting
     * thread had not made, and said so instead of naming the barrier it
     * waits in (errors.sh's skip-barrier under ASan, which widened the
     * gap). */
    if (kind == MUPCI_RV_MAIN_END)
        main_ended = 1;
    a.barriers = barriers_notified;
    last_call = a;
    if (call_hook && kind != MUPCI_RV_MAIN_END)
        call_hook();
    if (mupc_mythread == 0) {
        mupci_msg_t m = {MUPCI_MSG_RV_ARRIVE, 0, 0, 0, sizeof a};
        mupci_engine_deliver_local(&m, &a, sizeof a);
    } else {
        queue_arrival(&a, kind == MUPCI_RV_MAIN_END);
    }
    mupci_engine_unlock();
}

static void describe(char *text, size_t cap, const arrival_t *a);

static int arrivals_in(void *deadline)
{
    return !pendings || mupci_now_ns() > *(const int64_t *)deadline;
}

void mupci_rv_wait_arrivals(int64_t timeout_ns)
{
    int64_t deadline = mupci_now_ns() + timeout_ns;
    mupci_engine_wait(arrivals_in, &deadline);
}

/* The end of main is checked by its own rules (mismatch): it is not one
 * of the calls a barrier counts. */
uint64_t mupci_rv_calls_made(void) { return calls_made - (uint64_t)main_ended; }

int mupci_rv_main_ended(void) { return main_ended; }

void mupci_rv_set_barrier_probe(mupci_rv_barrier_probe_t probe) { barrier_probe = probe; }

void mupci_rv_barrier_notified(void)
{
    barriers_notified++;
    if (atomic_load_explicit(&nqueued, memory_order_relaxed)) {
        mupci_engine_lock();
        flush_arrivals();
        mupci_engine_unlock();
    }
}

void mupci_rv_set_call_hook(void (*hook)(void)) { call_hook = hook; }

/* This thread has made more collective calls than a thread waiting in a
 * barrier had made when it got there: the two sequences differ. */
void mupci_rv_ahead_of_barrier(int waiter, uint64_t waiter_calls)
{
    char call[320];
    describe(call, sizeof call, &last_call);
    mupci_fatal_plain("thread %d waits in a barrier after %llu collective calls, while thread "
                      "%d has made %llu, the last %s; every thread must make the same "
                      "collective calls and barriers, in the same order",
                      waiter, (unsigned long long)waiter_calls, mupc_mythread,
                      (unsigned long long)calls_made, call);
}

void mupci_rv_main_end(void)
{
    static const uint64_t none[MUPCI_RV_NARGS];
    mupci_rv_check(MUPCI_RV_MAIN_END, none, "the end of main", NULL, 0);
}

static pending_t *find_or_add(uint64_t seq, const arrival_t *a, int src, uint16_t barriers)
{
    if (seq < next_new_seq)
        for (pending_t *p = pendings; p; p = p->next)
            if (p->seq == seq)
                return p;
    if (seq >= next_new_seq)
        next_new_seq = seq + 1;
    size_t size = sizeof(pending_t) + (size_t)nthreads * sizeof spares->ops[0];
    pending_t *p = spares;
    if (p) {
        spares = p->next;
        nspares--;
        memset(p, 0, size);
    } else if (!(p = calloc(1, size))) {
        mupci_fatal("out of memory for a collective call");
    }
    p->seq = seq;
    p->first = *a;
    p->first_thread = src;
    p->first_barriers = barriers;
    if (last_pending)
        last_pending->next = p;
    else
        pendings = p;
    last_pending = p;
    return p;
}

static void remove_pending(pending_t *p)
{
    pending_t **at = &pendings, *before = NULL;
    while (*at != p) {
        before = *at;
        at = &(*at)->next;
    }
    *at = p->next;
    if (last_pending == p)
        last_pending = before;
    if (nspares == SPARES_MAX) {
        free(p);
        return;
    }
    p->next = spares;
    spares = p;
    nspares++;
}

/* "upc_all_alloc(nblocks=2, nbytes=8) at prog.c:12" */
static void describe(char *text, size_t cap, const arrival_t *a)
{
    const kind_info_t *k = &kinds[a->kind];
    size_t n = (size_t)snprintf(text, cap, "%s(", a->what);
    const char *sep = "";
    for (int i = 0; k->style[i] && n < cap; i++) {
        if (k->style[i] == 'h')
            continue;
        n += (size_t)snprintf(text + n, cap - n, k->style[i] == 'x' ? "%s%s=%#llx" : "%s%s=%llu",
                              sep, k->names[i], (unsigned long long)a->args[i]);
        sep = ", ";
    }
    if (n < cap)
        snprintf(text + n, cap - n, ") at %s:%llu", a->file, (unsigned long long)a->line);
}

static void mismatch(const pending_t *p, const arrival_t *a, int src) __attribute__((noreturn));
static void mismatch(const pending_t *p, const arrival_t *a, int src)
{
    const arrival_t *f = &p->first;
    char first[320], other[320];
    if (f->kind == MUPCI_RV_MAIN_END || a->kind == MUPCI_RV_MAIN_END) {
        int ended = f->kind == MUPCI_RV_MAIN_END ? p->first_thread : src;
        const arrival_t *w = f->kind == MUPCI_RV_MAIN_END ? a : f;
        mupci_fatal_at(w->file, (int)w->line,
                       "thread %d reached the end of main (or called exit) while thread %d waits in %s at "
                       "%s:%llu; every thread must make the same collective calls before "
                       "main returns",
                       ended, ended == src ? p->first_thread : src, w->what, w->file,
                       (unsigned long long)w->line);
    }
    describe(first, sizeof first, f);
    describe(other, sizeof other, a);
    mupci_fatal_plain("collective call number %llu differs between threads: thread %d called "
                      "%s, thread %d called %s; every thread must make the same collective "
                      "calls, with the same arguments, in the same order",
                      (unsigned long long)p->seq + 1, p->first_thread, first, src, other);
}

/* Thread 0: a call numbered seq, from src, cannot be met if thread 0 waits
 * in a barrier having made no more than seq calls (the probe). */
static void check_against_barrier(uint64_t seq, const arrival_t *a, int src, uint16_t barriers)
{
    const char *bwhat, *bfile;
    int bline;
    if (!barrier_probe || a->kind == MUPCI_RV_MAIN_END ||
        !barrier_probe(seq, barriers, &bwhat, &bfile, &bline))
        return;
    char call[320];
    describe(call, sizeof call, a);
    mupci_fatal_plain("thread %d called %s while thread 0 waits in %s at %s:%d; every thread "
                      "must make the same collective calls and barriers, in the same order",
                      src, call, bwhat, bfile, bline);
}

void mupci_rv_barrier_wait_started(void)
{
    for (pending_t *p = pendings; p; p = p->next)
        check_against_barrier(p->seq, &p->first, p->first_thread, p->first_barriers);
}

static void answer_on_node(uint64_t seq, const mupci_reply_t *out);

/* Thread 0: one arrival; op is the request a gathered call answers (by
 * message; none on one node). */
static void take_arrival(int src, const arrival_t *in, uint32_t op)
{
    arrival_t a = *in;
    if (a.kind >= MUPCI_RV_NKINDS)
        mupci_fatal("internal error: collective arrival of kind %llu from thread %d",
                    (unsigned long long)a.kind, src);
    uint16_t barriers = (uint16_t)a.barriers;
    check_against_barrier(a.seq, &a, src, barriers);
    pending_t *p = find_or_add(a.seq, &a, src, barriers);
    if (a.kind != p->first.kind || memcmp(a.args, p->first.args, sizeof a.args) != 0)
        mismatch(p, &a, src);
    p->ops[src] = op;
    if (++p->arrived < nthreads)
        return;
    if (replies(a.kind)) {
        mupci_reply_t out = {{0, 0}, 0};
        if (actions[a.kind])
            actions[a.kind](a.args, &out);
        if (on_node) {
            answer_on_node(a.seq, &out);
        } else {
            for (int t = 0; t < nthreads; t++)
                mupci_reply(t, p->ops[t], out.status, out.word[0], out.word[1]);
            mupci_engine_flush_all();
        }
    }
    remove_pending(p);
}

/* One arrival, or a thread's queue of checked calls' arrivals. */
static void mupci_handle_RV_ARRIVE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    if (len == 0 || len % sizeof(arrival_t) != 0 || mupc_mythread != 0)
        mupci_fatal("internal error: malformed collective arrival from thread %d", src);
    for (size_t at = 0; at < len; at += sizeof(arrival_t)) {
        arrival_t a;
        memcpy(&a, (const char *)payload + at, sizeof a);
        take_arrival(src, &a, m->op);
    }
}

/* ---- Gathered calls on one node ----
 *
 * When the whole job is one node sharing memory (every message rings its
 * destination's bell: mupci_engine_bells_announce_all), a gathered call's
 * arrival and its answer go through the threads' control blocks (node.h)
 * instead of messages.  Each thread writes its arrival into its own slot,
 * counts it in thread 0's `posts` and rings thread 0's message bell.
 * Thread 0's progress hook, in a pass of whichever of its pthreads makes
 * one, hands the new arrivals to take_arrival as the message handler
 * would, so the checks and their reports are the same.  The arrival that
 * completes the call runs the action and publishes one answer in thread
 * 0's slot, where one futex wake-up wakes every waiter.  By message a call
 * was an MPI request to thread 0 and a reply from it per thread, and a
 * ring of a bell for each: at 3 and 4 threads on 2 cores upc_all_alloc +
 * upc_all_free and upc_all_lock_alloc + upc_all_lock_free took 2-13 %
 * longer than with shm = off, whose messages ring nothing (bench/waits).
 *
 * One slot per thread is enough: a thread posts call k + 1 only after it
 * has read its answer to call k, which thread 0 gives only once it has
 * taken every thread's arrival; and thread 0 answers call k + 1 only when
 * every thread has posted it, so every thread has read answer k.  A
 * poster also sets its bit in thread 0's `posters`, so thread 0 looks at
 * the slots that changed, not at all of them (a node of 1,024 threads
 * would read a million slots per call).  The ordering is the bells'
 * (wake.h): a poster publishes its arrival and counts it before the
 * sequentially consistent ring, and a sleeper of thread 0 counts itself
 * before the pass that looks at `posts`; the same holds for the answer
 * and its waiters (every store the other side's last look depends on is
 * sequentially consistent, as the word and count of wake.h are).  A node
 * of more than NODE_RV_THREADS threads keeps the messages (the bits fill
 * the slot's space in the control block). */
#define NODE_RV_THREADS 12288
typedef struct node_rv_slot {
    arrival_t arrival;       /* the owner's gathered call */
    _Atomic uint64_t posted; /* its seq + 1, once arrival is written */
    /* thread 0's slot only: */
    _Atomic uint64_t posts;    /* arrivals posted by threads 1.. so far */
    _Atomic uint64_t answered; /* seq + 1 of the last call answered */
    mupci_reply_t answer;      /* its result */
    mupci_bell_t answers;      /* rung by each answer; the waiters sleep on it */
    _Atomic uint64_t posters[NODE_RV_THREADS / 64]; /* bit t: thread t posted, not yet taken */
} node_rv_slot_t;

_Static_assert(sizeof(node_rv_slot_t) <= MUPCI_NODE_CTL_COLL - MUPCI_NODE_CTL_RV,
               "the gathered calls' slot must fit before the collectives' slot");

static uint64_t posts_taken; /* thread 0: `posts` when the slots were last looked at */

static node_rv_slot_t *rv_slot(int thread)
{
    return (node_rv_slot_t *)((char *)mupci_node_ctl(thread) + MUPCI_NODE_CTL_RV);
}

static void take_posted_by(int thread)
{
    node_rv_slot_t *slot = rv_slot(thread);
    uint64_t posted = atomic_load_explicit(&slot->posted, memory_order_acquire);
    arrival_t a;
    memcpy(&a, &slot->arrival, sizeof a);
    if (a.seq + 1 != posted)
        mupci_fatal("internal error: thread %d's gathered call %llu is posted as %llu", thread,
                    (unsigned long long)a.seq, (unsigned long long)posted);
    take_arrival(thread, &a, 0);
}

/* Thread 0's progress hook: the arrivals posted since the last look. */
static int take_posted(void)
{
    uint64_t posts = atomic_load_explicit(&rv_slot(0)->posts, memory_order_seq_cst);
    if (posts == posts_taken)
        return 0;
    posts_taken = posts; /* before the look: a later post makes another */
    _Atomic uint64_t *posters = rv_slot(0)->posters;
    int took = 0;
    for (int w = 0; w < (nthreads + 63) / 64; w++) {
        if (!atomic_load_explicit(&posters[w], memory_order_relaxed))
            continue;
        uint64_t bits = atomic_exchange_explicit(&posters[w], 0, memory_order_acquire);
        for (; bits; bits &= bits - 1, took++)
            take_posted_by(w * 64 + __builtin_ctzll(bits));
    }
    return took;
}

/* Thread 0, lock held: the answer to call seq, for every thread.  Thread
 * 0's own computation pthread may wait for it on its message bell, if
 * another pthread of this process made the pass. */
static void answer_on_node(uint64_t seq, const mupci_reply_t *out)
{
    node_rv_slot_t *zero = rv_slot(0);
    zero->answer = *out;
    atomic_store_explicit(&zero->answered, seq + 1, memory_order_seq_cst);
    mupci_wake_sleepers(&zero->answers.word, &zero->answers.sleepers, 1);
    mupci_bell_t *bell = mupci_node_message_bell(0);
    mupci_wake_sleepers(&bell->word, &bell->sleepers, 1);
}

static int answered(void *want)
{
    return atomic_load_explicit(&rv_slot(0)->answered, memory_order_seq_cst) >=
           *(const uint64_t *)want;
}

/* Lock held: this thread's part of a gathered call.  Thread 0 hands its
 * own arrival to the handler, as a message to itself (so an action runs in
 * a handler's context, whichever arrival completes the call), then waits
 * as for a message: the wait's passes take the posted arrivals, and later
 * posters ring its message bell.  The others post theirs and sleep on the
 * answers' bell, which nothing but an answer rings. */
static void rendezvous_on_node(const arrival_t *a, mupci_reply_t *result)
{
    node_rv_slot_t *zero = rv_slot(0);
    uint64_t want = a->seq + 1;
    if (mupc_mythread == 0) {
        mupci_msg_t m = {MUPCI_MSG_RV_ARRIVE, 0, 0, 0, sizeof *a};
        mupci_engine_deliver_local(&m, a, sizeof *a);
        mupci_engine_wait_locked(answered, &want);
    } else {
        node_rv_slot_t *mine = rv_slot(mupc_mythread);
        mine->arrival = *a;
        atomic_store_explicit(&mine->posted, want, memory_order_release);
        atomic_fetch_or_explicit(&zero->posters[mupc_mythread / 64],
                                 UINT64_C(1) << (mupc_mythread % 64), memory_order_seq_cst);
        atomic_fetch_add_explicit(&zero->posts, 1, memory_order_seq_cst);
        mupci_bell_t *bell = mupci_node_message_bell(0);
        mupci_wake_sleepers(&bell->word, &bell->sleepers, 1);
        mupci_engine_wait_sleep_locked(answered, &want, &zero->answers.word,
                                       &zero->answers.sleepers, 0);
    }
    *result = zero->answer;
}

static void node_init(void)
{
    on_node = mupci_engine_bells_announce_all() && nthreads <= NODE_RV_THREADS;
    if (on_node && mupc_mythread == 0)
        mupci_engine_register_progress(take_posted);
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_RV_ARRIVE, mupci_handle_RV_ARRIVE},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
