/* SPDX-License-Identifier: MIT */
/*
 * barrier.c -- upc_barrier, upc_notify, upc_wait by dissemination.
 *
 * Notify: fence (every earlier put is applied), then arrive.  Between the
 * n node leaders (below) the barrier takes ceil(log2 n) rounds: in round
 * k leader i sends what it knows to leader i + 2^k (mod n), once it has
 * arrived and has heard round k - 1 from leader i - 2^(k-1); after the
 * last round's message every leader has heard, directly or not, from
 * every other, and releases itself.  No leader waits for another to tell
 * it: with two leaders each sends one message and receives one, half the
 * round trip of an UP and a DOWN through a tree.  Threads may be at most
 * one phase apart, so state is kept per epoch parity: a fast leader's
 * message for the next epoch lands in the other slot.  A slot is cleared
 * at the wait that consumes it, which always happens before any thread
 * can arrive two epochs later.
 *
 * Named barriers: each message carries the value seen so far and which
 * thread passed it; two different named values produce a mismatch record
 * that every leader ends up with (merging is idempotent, so a record heard
 * twice along two paths changes nothing), and every thread's wait reports
 * it.
 *
 * The collective exit (main returned) is a barrier too, and it travels the
 * same way: each record also says whether a thread is at the end of main
 * and whether one is in any other barrier.  Both in one epoch means a
 * thread skipped a barrier (or made an extra one): every thread learns it
 * at the release and the job ends with where the waiting thread is,
 * instead of releasing a user barrier with a thread that has left main.
 *
 * Hierarchical with on-node shared memory (shm, node.h): the threads of a
 * node group do not send messages.  Each member notifies by writing its
 * record and epoch into its control block; the group's leader (its lowest
 * thread) merges them, takes part in the rounds, which span only leaders,
 * on the group's behalf, and publishes the release and result in its own
 * control block, which the members wait on: they spin briefly, then sleep
 * on a futex word the release rings (base/wake.h), so an oversubscribed
 * node neither spins nor yields.  With shm off every thread is a group of
 * one: the rounds span all threads.
 */
#include "upc/barrier.h"
#include "transport/engine.h"
#include "transport/rendezvous.h"
#include "base/fatal.h"
#include "base/job.h"
#include "base/gasp_hooks.h"
#include "transport/node.h"
#include "cache/rcache.h"
#include "base/wake.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct name_info {
    int32_t named, value, thread;             /* first named value seen */
    int32_t mismatch, other_value, other_thread; /* a conflicting one */
    int32_t at_exit;    /* 1 + a thread at the end of main, or 0 */
    int32_t in_barrier; /* 1 + a thread in any other barrier, or 0 */
    int32_t calls_thread; /* 1 + the thread with the fewest collective calls, or 0 */
    uint64_t calls;       /* how many it had made when it notified */
} name_info_t;

#define MAX_ROUNDS 31 /* ceil(log2(leaders)); the rounds heard are bits of a uint32_t */

typedef struct phase_state {
    int members_in; /* leader: every member of the group has arrived */
    uint32_t rounds_in; /* bit k: round k's message has arrived */
    int rounds_sent;
    int self_arrived;
    int released;
    name_info_t info;   /* merged over what this leader has heard */
    name_info_t result; /* merged over all threads, at the release */
} phase_state_t;

static phase_state_t phases[2];
static uint64_t epoch;   /* notifies so far */
static int notified;     /* between notify and wait */
static int lock_kept;    /* leader: upc_barrier's notify left the progress lock held */
static name_info_t mine; /* this thread's notify */
static uint64_t calls_at_notify; /* leader, under the lock: mine.calls */
static int me, nthreads, nrounds, send_to[MAX_ROUNDS];
static int has_peers; /* other leaders: the rounds are messages */

/* In the control block of each thread of a group (node.h). */
typedef struct node_slot {
    /* One cache line for what a release writes and the waiters poll (the
     * slot starts on a line): the last arriver of a flat group takes it
     * with its count, then writes released and rings releases there. */
    _Atomic uint32_t count[2]; /* leader, flat: threads arrived, per parity, and
                                * those whose records need a merge (ARRIVAL_*) */
    _Atomic uint64_t released; /* leader: 2 * the last epoch it released, + 1 when
                                * the waiters must read result (RELEASED_*) */
    mupci_bell_t releases;     /* leader: rung by each release; members sleep on it */
    /* Each thread's own line(s), read by the releaser. */
    _Alignas(64) _Atomic uint64_t arrived; /* member: the last epoch it notified */
    name_info_t info[2];       /* member: its notify, per epoch parity */
    _Alignas(64) name_info_t result[2]; /* leader: the merged result, per parity */
    mupci_bell_t arrivals;     /* leader: rung by each member's notify, and by a
                                * release its communication pthread made */
} node_slot_t;

_Static_assert(sizeof(node_slot_t) <= MUPCI_NODE_CTL_RV,
               "the barrier slot must fit the control block's first page");
_Static_assert(offsetof(node_slot_t, arrived) == 64, "the release's fields fill one line");

/* The released word: the epoch, and whether the waiters read the merged
 * result or may take their own record for it (see arrival_increment). */
#define RELEASED(ep, read_result) ((uint64_t)(ep) << 1 | (uint64_t)((read_result) != 0))
#define RELEASED_EPOCH(word) ((word) >> 1)
#define RELEASED_READ_RESULT(word) ((word)&1)

static int barrier_probe(uint64_t seq, uint16_t barriers, const char **what, const char **file,
                         int *line);
static int epoch_released(void);
static void call_made(void);

static const int *group; /* this thread's node group; group[0] leads it */
static int group_size;
/* The group is the whole job (one node, shm on): no messages at all.
 * Every thread then arrives alike, and the last to arrive merges the
 * records and releases the group (flat_arrive), so a release never waits
 * for a sleeping leader to be woken first: one wake-up, not two. */
static int flat;

static node_slot_t *slot_of(int thread) { return mupci_node_ctl(thread); }
static int is_member(void) { return group[0] != me; }

void mupci_barrier_init(int mythread, int threads)
{
    me = mythread;
    nthreads = threads;
    group = mupci_node_group(&group_size);
    /* the rounds span the groups' leaders, in thread order */
    int *leaders = malloc((size_t)threads * sizeof *leaders), nleaders = 0, index = -1;
    if (!leaders)
        mupci_fatal("out of memory");
    for (int t = 0; t < threads; t++)
        if (mupci_node_leader(t) == t) {
            if (t == me)
                index = nleaders;
            leaders[nleaders++] = t;
        }
    flat = group_size > 1 && nleaders == 1;
    if (flat && group_size >= 0x10000) /* the arrival count's halves (ARRIVALS) */
        mupci_fatal("%d threads on one node: the on-node barrier counts at most 65535; run "
                    "fewer threads per node",
                    group_size);
    has_peers = nleaders > 1;
    nrounds = 0;
    while (index >= 0 && (1L << nrounds) < nleaders) {
        send_to[nrounds] = leaders[(index + (1L << nrounds)) % nleaders];
        nrounds++;
    }
    free(leaders);
    if (mupci_node_sharing) /* node leaders: members arrive without a message */
        mupci_engine_register_progress(mupci_barrier_progress);
    if (me == 0)
        mupci_rv_set_barrier_probe(barrier_probe);
    mupci_rv_set_call_hook(call_made);
}

static name_info_t merge_names(name_info_t a, name_info_t b)
{
    if (a.mismatch || !b.named)
        return a;
    if (b.mismatch || !a.named)
        return b;
    if (a.value != b.value) {
        a.mismatch = 1;
        a.other_value = b.value;
        a.other_thread = b.thread;
    }
    return a;
}

static name_info_t merge(name_info_t a, name_info_t b)
{
    name_info_t m = merge_names(a, b);
    m.at_exit = a.at_exit ? a.at_exit : b.at_exit;
    m.in_barrier = a.in_barrier ? a.in_barrier : b.in_barrier;
    int a_fewer = a.calls_thread && (!b.calls_thread || a.calls <= b.calls);
    m.calls_thread = a_fewer ? a.calls_thread : b.calls_thread;
    m.calls = a_fewer ? a.calls : b.calls;
    return m;
}

/* Lock held.  A thread that notified epoch ep (this thread has not) had
 * made fewer collective calls than this thread has: this thread made a
 * call before the barrier that the other makes after it, or never.  The
 * final barrier is left to the end-of-main checks, which say more. */
static void check_calls(uint64_t ep, const name_info_t *info)
{
    if (ep == epoch + 1 && !info->at_exit && info->calls_thread && !mupci_rv_main_ended() &&
        mupci_rv_calls_made() > info->calls)
        mupci_rv_ahead_of_barrier(info->calls_thread - 1, info->calls);
}

static void send_round(int round, uint64_t ep, const name_info_t *info)
{
    mupci_msg_t m = {MUPCI_MSG_BARRIER_ROUND, (uint16_t)round, 0, ep, sizeof *info};
    mupci_engine_send(send_to[round], &m, info, sizeof *info);
}

static void release(uint64_t ep, const name_info_t *info)
{
    phase_state_t *ph = &phases[ep & 1];
    ph->result = *info;
    ph->released = 1;
    if (group_size > 1) {
        node_slot_t *mine_slot = slot_of(me);
        mine_slot->result[ep & 1] = *info;
        atomic_store_explicit(&mine_slot->released, RELEASED(ep, 1), memory_order_release);
        mupci_bell_ring(&mine_slot->releases);
        mupci_bell_ring(&mine_slot->arrivals); /* the leader's computation pthread */
    }
}

/* Leader, lock held: have all members of the group notified epoch ep?
 * Their records join the subtree's the first time the answer is yes.  A
 * member cannot notify ep + 2 (and overwrite its record) before this
 * leader releases ep + 1. */
static int members_arrived(uint64_t ep, phase_state_t *ph)
{
    if (ph->members_in)
        return 1;
    for (int i = 1; i < group_size; i++)
        if (atomic_load_explicit(&slot_of(group[i])->arrived, memory_order_acquire) < ep)
            return 0;
    for (int i = 1; i < group_size; i++)
        ph->info = merge(ph->info, slot_of(group[i])->info[ep & 1]);
    ph->members_in = 1;
    return 1;
}

/* Lock held: this thread has just made a collective call.  Leaders that
 * already sent the next barrier's rounds may have made fewer (the leader's
 * members are compared on every progress pass). */
static void call_made(void)
{
    phase_state_t *ph = &phases[(epoch + 1) & 1];
    if (ph->rounds_in)
        check_calls(epoch + 1, &ph->info);
}

/* Lock held.  Send every round whose turn has come (a round once the
 * previous one is heard; records heard early are merged at once, which
 * only adds to what a round carries); release after the last. */
static void try_advance(uint64_t ep)
{
    phase_state_t *ph = &phases[ep & 1];
    if (!ph->self_arrived || ph->released || !members_arrived(ep, ph))
        return;
    for (; ph->rounds_sent < nrounds; ph->rounds_sent++) {
        uint32_t needed = (1u << ph->rounds_sent) - 1;
        if ((ph->rounds_in & needed) != needed)
            return;
        send_round(ph->rounds_sent, ep, &ph->info);
    }
    uint32_t all = nrounds ? (uint32_t)((1ull << nrounds) - 1) : 0;
    if (ph->rounds_in == all)
        release(ep, &ph->info);
}

static void check_epoch(int src, const mupci_msg_t *m)
{
    /* another leader may be one notify ahead of us, never more */
    if (m->offset != epoch && m->offset != epoch + 1)
        mupci_fatal("internal error: barrier message for epoch %llu from thread %d at epoch "
                    "%llu",
                    (unsigned long long)m->offset, src, (unsigned long long)epoch);
}

static void mupci_handle_BARRIER_ROUND(int src, const mupci_msg_t *m, const void *payload,
                                       size_t len)
{
    name_info_t info;
    check_epoch(src, m);
    if (m->flags >= nrounds)
        mupci_fatal("internal error: barrier round %u from thread %d of %d rounds", m->flags,
                    src, nrounds);
    memcpy(&info, payload, sizeof info);
    check_calls(m->offset, &info);
    phase_state_t *ph = &phases[m->offset & 1];
    ph->rounds_in |= 1u << m->flags;
    ph->info = merge(ph->info, info);
    try_advance(m->offset);
}

/* ---------------------------------------------------------------- */

/* Thread 0 waiting in a barrier (under the progress lock): a collective
 * call that arrives meanwhile, numbered at or above the calls thread 0
 * has made, comes where thread 0 has this barrier. */
static struct {
    int waiting;
    const char *what, *file;
    int line;
} root_wait;

/* A caller that had notified this barrier (or the next) has passed it,
 * or is in it: the rounds between leaders may release other leaders
 * before thread 0 hears its last round, so such a call is no skipped
 * barrier.  One that had not has made the call where thread 0 has this
 * barrier. */
static int barrier_probe(uint64_t seq, uint16_t barriers, const char **what, const char **file,
                         int *line)
{
    uint16_t behind = (uint16_t)((uint16_t)epoch - barriers);
    if (!root_wait.waiting || epoch_released() || seq < mupci_rv_calls_made() || behind == 0 ||
        behind == 0xffff)
        return 0;
    *what = root_wait.what;
    *file = root_wait.file;
    *line = root_wait.line;
    return 1;
}

/* Thread 0, lock held: it waits in a barrier from now on. */
static void root_wait_begin(const char *what, const char *file, int line)
{
    root_wait.what = what;
    root_wait.file = file;
    root_wait.line = line;
    root_wait.waiting = 1;
    mupci_rv_barrier_wait_started();
}

/* Flat groups, the common case: a barrier where no thread passed a name,
 * reached the end of main or made a collective call since its previous
 * barrier needs no merge, and each waiter may check against its own
 * record.  Call counts were equal at the previous barrier (unequal ones
 * stop the job there), so they still are.  An arrival that is not plain
 * adds ARRIVAL_MERGE instead of 1 to the count, in the one read-modify-
 * write it makes anyway.  Reading every other thread's record (a cache
 * line each) and the result cost a fifth of a 2-thread barrier. */
#define ARRIVAL_MERGE 0x10001u
#define ARRIVALS(count) ((count)&0xffffu)
#define MERGE_NEEDED(count) ((count) >> 16)
static uint64_t calls_at_last_notify;

static uint32_t arrival_increment(const name_info_t *info)
{
    int plain = !info->named && !info->at_exit && info->calls == calls_at_last_notify &&
                group_size < 0x10000;
    calls_at_last_notify = info->calls;
    return plain ? 1 : ARRIVAL_MERGE;
}

/* What the merge of plain records gives, as far as wait_phase looks. */
static name_info_t plain_result(void)
{
    name_info_t r = mine;
    r.in_barrier = 0;
    r.calls_thread = 0;
    return r;
}

/* Flat (one node, the whole job): publish this thread's record; the last
 * of the group to arrive merges the records in thread order (as the
 * leader would) when they need it, resets the count for epoch + 2 (nobody
 * arrives there before this release) and releases.  The count's
 * read-modify-writes order every record before the last arrival's reads. */
static void flat_arrive(void)
{
    node_slot_t *lead = slot_of(group[0]), *slot = slot_of(me);
    int parity = (int)(epoch & 1);
    uint32_t add = arrival_increment(&mine);
    slot->info[parity] = mine;
    atomic_store_explicit(&slot->arrived, epoch, memory_order_release);
    uint32_t count = atomic_fetch_add(&lead->count[parity], add) + add;
    if ((int)ARRIVALS(count) < group_size)
        return;
    int merge_needed = MERGE_NEEDED(count) != 0;
    if (merge_needed) {
        name_info_t info = lead->info[parity];
        for (int i = 1; i < group_size; i++)
            info = merge(info, slot_of(group[i])->info[parity]);
        lead->result[parity] = info;
    }
    atomic_store(&lead->count[parity], 0);
    atomic_store_explicit(&lead->released, RELEASED(epoch, merge_needed), memory_order_release);
    mupci_bell_ring(&lead->releases);
}

/* A released flat or member wait: the group's result. */
static name_info_t group_result(void)
{
    node_slot_t *lead = slot_of(group[0]);
    uint64_t word = atomic_load_explicit(&lead->released, memory_order_acquire);
    return RELEASED_READ_RESULT(word) ? lead->result[epoch & 1] : plain_result();
}

/* Flat, the leader: arrive under the lock, since its communication
 * pthread reads epoch (progress hook, thread 0's probe), and note what
 * those need. */
static void flat_leader_notify(int then_wait, int at_exit, const char *what, const char *file,
                               int line)
{
    mupci_engine_lock();
    epoch++;
    flat_arrive();
    calls_at_notify = mine.calls;
    if (me == 0 && then_wait && !at_exit)
        root_wait_begin(what, file, line);
    mupci_engine_unlock();
}

/* then_wait: upc_barrier, whose wait follows at once (thread 0 marks
 * itself waiting here, under the lock it takes anyway). */
static void notify(int named, int value, int at_exit, int then_wait, const char *what,
                   const char *file, int line)
{
    if (notified)
        mupci_fatal_at(file, line,
                       "%s: this thread already called upc_notify; call upc_wait before the "
                       "next upc_notify or upc_barrier (split-phase barriers cannot nest)",
                       what);
    /* The barrier's wait polls (upc_wait's, or a leader's communication
     * pthread meanwhile), so an empty fence need not poll first. */
    mupci_fence_before_wait(file, line);
    mine = (name_info_t){named != 0, value, me, 0, 0, 0, at_exit ? me + 1 : 0,
                         at_exit ? 0 : me + 1, me + 1, mupci_rv_calls_made()};
    mupci_rv_barrier_notified(); /* counts as epoch does: thread 0's probe compares */
    if (flat && is_member()) {
        epoch++;
        flat_arrive();
        notified = 1;
        return;
    }
    if (flat) {
        flat_leader_notify(then_wait, at_exit, what, file, line);
        notified = 1;
        return;
    }
    if (is_member()) {
        epoch++;
        node_slot_t *slot = slot_of(me);
        slot->info[epoch & 1] = mine;
        atomic_store_explicit(&slot->arrived, epoch, memory_order_release);
        mupci_bell_ring(&slot_of(group[0])->arrivals); /* a sleeping leader merges it */
        notified = 1;
        return;
    }
    mupci_engine_lock();
    epoch++;
    calls_at_notify = mine.calls;
    phase_state_t *ph = &phases[epoch & 1];
    ph->self_arrived = 1;
    ph->info = merge(ph->info, mine);
    try_advance(epoch);
    if (me == 0 && then_wait && !at_exit) /* the final barrier: the end-of-main checks */
        root_wait_begin(what, file, line);
    mupci_engine_flush_all();
    if (then_wait) /* the wait that follows at once takes it over */
        lock_kept = 1;
    else
        mupci_engine_unlock();
    notified = 1;
}

/* Progress lock held, every progress pass (engine.c): members arrive
 * without a message, so a leader between its notify and its wait (in user
 * code, perhaps spinning on a strict flag a member sets after its wait)
 * must still notice them: its communication pthread passes the node's
 * arrival on, or releases the node, meanwhile. */
int mupci_barrier_progress(void)
{
    if (group_size < 2 || is_member())
        return 0;
    /* Members waiting in the next barrier while this leader is elsewhere.
     * Only a collective call since this leader's own notify can put it
     * ahead of them (fewer calls at that notify are reported at release),
     * so the communication loop scans the group only then. */
    for (int i = 1; i < group_size && mupci_rv_calls_made() != calls_at_notify; i++)
        if (atomic_load_explicit(&slot_of(group[i])->arrived, memory_order_acquire) > epoch)
            check_calls(epoch + 1, &slot_of(group[i])->info[(epoch + 1) & 1]);
    phase_state_t *ph = &phases[epoch & 1];
    if (flat || !ph->self_arrived || ph->released)
        return 0;
    int sent = ph->rounds_sent;
    try_advance(epoch);
    return ph->rounds_sent != sent || ph->released;
}

/* Leader: each pass of the engine's wait runs mupci_barrier_progress
 * before this test, so the members' arrivals are looked at meanwhile. */
static int released(void *arg) { return phases[epoch & 1].released; }

static int leader_released(void *arg)
{
    uint64_t word = atomic_load_explicit(&slot_of(group[0])->released, memory_order_acquire);
    return RELEASED_EPOCH(word) >= epoch;
}

/* Whether this thread's current epoch is released (lock held). */
static int epoch_released(void) { return flat ? leader_released(NULL) : released(NULL); }

/* The merged record of this epoch, once released. */
static name_info_t wait_release(const char *what, const char *file, int line)
{
    name_info_t result;
    if (is_member()) {
        mupci_bell_t *bell = &slot_of(group[0])->releases;
        mupci_engine_wait_sleep(leader_released, NULL, &bell->word, &bell->sleepers, 0);
        return group_result();
    }
    /* one lock section for the whole wait (and upc_barrier's notify):
     * each acquisition costs */
    if (!lock_kept)
        mupci_engine_lock();
    lock_kept = 0;
    if (me == 0 && !mine.at_exit && !root_wait.waiting) /* upc_wait after upc_notify */
        root_wait_begin(what, file, line);
    if (flat) {
        mupci_bell_t *bell = &slot_of(me)->releases;
        mupci_engine_wait_sleep_locked(leader_released, NULL, &bell->word, &bell->sleepers, 0);
    } else if (group_size > 1) { /* members wake it; messages still need it across nodes */
        mupci_bell_t *bell = &slot_of(me)->arrivals;
        mupci_engine_wait_sleep_locked(released, NULL, &bell->word, &bell->sleepers, has_peers);
    } else {
        mupci_engine_wait_locked(released, NULL);
    }
    root_wait.waiting = 0;
    result = flat ? group_result() : phases[epoch & 1].result;
    memset(&phases[epoch & 1], 0, sizeof phases[0]);
    mupci_engine_unlock();
    return result;
}

static void report_mismatch(const name_info_t *r, const char *what, const char *file, int line)
{
    /* Every thread learns of the mismatch; the two threads involved speak
     * first, the others only if the job has not ended a moment later. */
    if (me != r->thread && me != r->other_thread)
        sleep(1);
    mupci_fatal_at(file, line,
                   "%s: named barrier mismatch: thread %d passed %d but thread %d passed %d; "
                   "every thread must pass the same value (or use an anonymous barrier)",
                   what, r->thread, r->value, r->other_thread, r->other_value);
}

/* A thread reached the end of main while another waits in a barrier.  The
 * waiting threads know where they wait, so they report it; the thread the
 * record names speaks first, the others only if the job has not ended a
 * moment later. */
static void report_exit(const name_info_t *r, const char *what, const char *file, int line)
{
    int leaver = r->at_exit - 1, waiter = r->in_barrier - 1;
    if (mine.at_exit) {
        sleep(1);
        mupci_fatal_plain("thread %d reached the end of main (or called exit) while thread %d waits in a "
                          "barrier; every thread must make the same barrier calls "
                          "(upc_barrier, upc_notify and upc_wait, collectives) before main "
                          "returns",
                          me, waiter);
    }
    if (me != waiter)
        sleep(1);
    mupci_fatal_at(file, line,
                   "thread %d reached the end of main (or called exit) while thread %d waits in %s at %s:%d; "
                   "every thread must make the same barrier calls (upc_barrier, upc_notify "
                   "and upc_wait, collectives) before main returns",
                   leaver, me, what, file, line);
}

static void wait_phase(int named, int value, const char *what, const char *file, int line)
{
    if (!notified)
        mupci_fatal_at(file, line, "%s: upc_wait without a preceding upc_notify", what);
    if (named && mine.named && value != mine.value)
        mupci_fatal_at(file, line,
                       "%s: upc_wait(%d) does not match this thread's upc_notify(%d)", what,
                       value, mine.value);
    name_info_t result = wait_release(what, file, line);
    notified = 0;
    if (result.at_exit && result.in_barrier)
        report_exit(&result, what, file, line);
    if (!result.at_exit && result.calls_thread && result.calls < mine.calls)
        mupci_rv_ahead_of_barrier(result.calls_thread - 1, result.calls);
    if (result.mismatch)
        report_mismatch(&result, what, file, line);
    if (named && result.named && value != result.value) {
        name_info_t r = {1, result.value, result.thread, 1, value, me, 0, 0, 0, 0};
        report_mismatch(&r, what, file, line);
    }
    /* Lines fetched between notify and wait may predate other threads'
     * writes before their notify. */
    mupci_rcache_invalidate(file, line);
}

void mupci_barrier_internal(const char *what, const char *file, int line)
{
    notify(0, 0, 0, 1, what, file, line);
    wait_phase(0, 0, what, file, line);
}

void mupci_barrier_exit(const char *file, int line)
{
    if (notified)
        mupci_fatal_plain("main returned between upc_notify and upc_wait; finish the "
                          "split-phase barrier with upc_wait first");
    notify(0, 0, 1, 1, "final barrier", file, line);
    wait_phase(0, 0, "final barrier", file, line);
}

/* ---------------------------------------------------------------- */
/* Public API (GASP_UPC_BARRIER / NOTIFY / WAIT)                     */
/* ---------------------------------------------------------------- */

void mupc_barrier(int named, int value, const char *file, int line)
{
    mupci_upc_thread_only("upc_barrier", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_BARRIER, GASP_START, 0, file, line, named, value);
    if (notified)
        mupci_fatal_at(file, line,
                       "upc_barrier: called between upc_notify and upc_wait; finish the "
                       "split-phase barrier with upc_wait first");
    notify(named, value, 0, 1, "upc_barrier", file, line);
    wait_phase(named, value, "upc_barrier", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_BARRIER, GASP_END, 0, file, line, named, value);
}

void mupc_notify(int named, int value, const char *file, int line)
{
    mupci_upc_thread_only("upc_notify", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_NOTIFY, GASP_START, 0, file, line, named, value);
    notify(named, value, 0, 0, "upc_notify", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_NOTIFY, GASP_END, 0, file, line, named, value);
}

void mupc_wait(int named, int value, const char *file, int line)
{
    mupci_upc_thread_only("upc_wait", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_WAIT, GASP_START, 0, file, line, named, value);
    wait_phase(named, value, "upc_wait", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_WAIT, GASP_END, 0, file, line, named, value);
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_BARRIER_ROUND, mupci_handle_BARRIER_ROUND},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
