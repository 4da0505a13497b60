/* SPDX-License-Identifier: MIT */
/*
 * backoff.c -- the spin / yield / sleep ladder of idle and waiting pthreads.
 */
#include "base/backoff.h"

#include <errno.h>
#include <sched.h>
#include <time.h>

static inline void mupci_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

int64_t mupci_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void mupci_backoff_init(mupci_backoff_t *b, const mupci_backoff_policy_t *policy)
{
    b->policy = policy;
    mupci_backoff_reset(b);
}

void mupci_backoff_reset(mupci_backoff_t *b)
{
    b->polls = 0;
    b->idle_since = 0;
    b->sleep_ns = b->policy->sleep_min_ns;
}

void mupci_backoff_skip_spin(mupci_backoff_t *b) { b->polls = b->policy->spin_polls; }

void mupci_backoff_skip_yield(mupci_backoff_t *b, int64_t now_ns)
{
    b->polls = b->policy->spin_polls;
    b->idle_since = now_ns - b->policy->yield_ns;
    if (b->idle_since == 0) /* 0 means "not idle yet" */
        b->idle_since = -1;
}

mupci_backoff_action_t mupci_backoff_next(mupci_backoff_t *b, int64_t now_ns,
                                          int64_t *sleep_ns)
{
    const mupci_backoff_policy_t *p = b->policy;
    if (b->polls < p->spin_polls) {
        b->polls++;
        return MUPCI_BACKOFF_SPIN;
    }
    if (b->idle_since == 0)
        b->idle_since = now_ns;
    if (now_ns - b->idle_since < p->yield_ns)
        return MUPCI_BACKOFF_YIELD;
    *sleep_ns = b->sleep_ns;
    b->sleep_ns *= 2;
    if (b->sleep_ns > p->sleep_max_ns)
        b->sleep_ns = p->sleep_max_ns;
    return MUPCI_BACKOFF_SLEEP;
}

mupci_backoff_action_t mupci_backoff_step(mupci_backoff_t *b, int64_t *sleep_ns)
{
    int64_t now = b->polls < b->policy->spin_polls ? 0 : mupci_now_ns();
    return mupci_backoff_next(b, now, sleep_ns);
}

void mupci_backoff_act(mupci_backoff_action_t action, int64_t sleep_ns)
{
    switch (action) {
    case MUPCI_BACKOFF_SPIN:
        mupci_cpu_relax();
        break;
    case MUPCI_BACKOFF_YIELD:
        sched_yield();
        break;
    case MUPCI_BACKOFF_SLEEP: {
        struct timespec ts = {sleep_ns / 1000000000, sleep_ns % 1000000000};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            continue; /* a signal cut the sleep short: sleep the rest */
        break;
    }
    }
}

void mupci_backoff_idle(mupci_backoff_t *b)
{
    int64_t sleep_ns = 0;
    mupci_backoff_action_t action = mupci_backoff_step(b, &sleep_ns);
    mupci_backoff_act(action, sleep_ns);
}

/* Bring the sum of lost time up to now: halved once per half-life gone. */
static void meter_decay(mupci_yield_meter_t *m, int64_t now_ns)
{
    int64_t halvings = (now_ns - m->lost_at) / MUPCI_SLOW_YIELD_HALF_LIFE_NS;
    if (halvings <= 0)
        return;
    m->lost_ns = halvings >= 62 ? 0 : m->lost_ns >> halvings;
    m->lost_at += halvings * MUPCI_SLOW_YIELD_HALF_LIFE_NS;
}

int mupci_yields_slow(mupci_yield_meter_t *m, int64_t now_ns)
{
    if (m->lost_ns == 0)
        return 0;
    meter_decay(m, now_ns);
    return m->lost_ns > MUPCI_SLOW_YIELD_LOST_NS;
}

void mupci_yield_meter_note(mupci_yield_meter_t *m, int64_t start_ns, int64_t end_ns)
{
    int64_t took = end_ns - start_ns;
    if (took <= MUPCI_SLOW_YIELD_NS)
        return;
    if (m->lost_ns == 0)
        m->lost_at = end_ns;
    meter_decay(m, end_ns);
    m->lost_ns += took;
}

void mupci_yield_metered(mupci_yield_meter_t *m)
{
    int64_t start = mupci_now_ns();
    sched_yield();
    mupci_yield_meter_note(m, start, mupci_now_ns());
}

/* ================================================================ */
/* The waiting policy                                                */
/* ================================================================ */

/* A pthread with nothing to do but wait polls, then yields, then sleeps.
 * How long each lasts is decided here, once per process, from what this
 * host costs.
 *
 * The rule is the competitive one of two-phase waiting (Karlin, Manasse,
 * McGeoch and Owicki, "Competitive randomized algorithms for non-uniform
 * problems", SODA 1990): poll for as long as blocking would cost, then
 * block.  It never pays more than twice what the best choice, made
 * knowing the wait's length, would have.  Blocking costs one wake-up:
 * wake_ns, measured at start-up by pairs of the node's processes waking
 * each other on a futex (mupci_node_measure_wake_ns), or given by
 * wake_cost_us.  On the 2-core virtual machines this project runs on it
 * was 86-95 us with 2 UPC threads (a sleeper's core goes idle and must be
 * woken) and 9-15 us with 4; on bare metal it is a few microseconds.
 *
 * bell: waits that a bell ends, because whoever ends them rings it: the
 *   on-node barrier, the on-node ticket locks, and every wait for a
 *   message when every message this thread can get comes from its own
 *   node (a sender of the node rings the destination's message bell).
 *   - spin_polls polls first, a quarter of them when the node has more
 *     computation pthreads than cores: a spinning waiter holds a core
 *     that the pthread it waits for may need;
 *   - then yield.  With cores to spare a yield finds no one to run and
 *     is a poll, and the yields last until wake_ns has passed since the
 *     wait started: the competitive rule.  With more computation pthreads
 *     than cores a yield hands the core to one that can run, the awaited
 *     one among them, for a context switch instead of a wake-up, and they
 *     last as long as the message path's (yield_window_us): with only
 *     wake_ns of them (9-15 us measured at 4 threads on 2 cores, where no
 *     core goes idle) the waits slept and paid wake-ups the message path
 *     never pays, and lost to it (4 threads: upc_all_alloc + free 150-200
 *     us against 120-150);
 *   - then sleep until rung.  The sleep's bound (idle_longest) is not a
 *     poll: it only lets the waiter look at the shutdown flag.
 *   Measured on 2 cores, one node (per call, medians of 5 runs, the
 *   message path, shm = off, in the same session): upc_all_alloc +
 *   upc_all_free took 2,500 / 3,300 us at 3 / 4 threads before, when a
 *   slow yield sent these waits into 10-us timed sleeps (the ladder's
 *   first step, never doubled), each a timer wake-up costing 30-500 us
 *   on these VMs, against 94 / 160 us on the message path; now 84 / 125
 *   us against 78 / 118, and upc_all_gather_all 56 / 68 against 70 / 81,
 *   upc_barrier 10 / 12 against 19 / 23.  bench/waits measures these
 *   calls against the message path in every make bench.
 * timed: waits for messages that no bell announces (a job of several
 *   nodes): spin, yield for yield_window_us, then sleeps from 10 us
 *   doubling up to idle_sleep_max_us; a bell from the node still cuts a
 *   sleep short.
 * comm_idle: the communication pthread after its work, while its
 *   computation pthread computes.  When every message rings the bell, it
 *   yields and then sleeps on the bell until rung, at most
 *   MUPCI_COMM_RUNG_SLEEP_NS (100 ms; a safety net, not a poll: what
 *   must happen by a time asks for a pass, mupci_engine_pass_due), unless
 *   the user set idle_sleep_max_us.  With the bound at idle_longest (2
 *   ms) it woke about 600 times a second in GWU's NAS CG at 2 threads on
 *   2 cores, each wake-up preempting a computing thread (480 involuntary
 *   switches a second); at 100 ms, 20 and 50.  NAS against NPB 3.4 MPI,
 *   2 ranks, medians of interleaved rounds (3 for CG, 5 for the others):
 *   CG B 1.20 -> 1.05, MG B 1.09 -> 0.98, FT A 1.02 -> 0.98, IS B 0.70
 *   -> 0.67;
 *   otherwise it yields for yield_window_us so that a request from
 *   another node is served at once, then sleeps from 20 us doubling up to
 *   idle_longest (comm_timed, also taken while sends of this process are
 *   in flight: MPI may need its progress to deliver them).
 * comm_defer: the communication pthread while its computation pthread
 *   waits (and so drives progress itself): off the core at once, sleeps
 *   from 20 us doubling up to idle_longest.
 * A yield_window_us set by the user replaces wake_ns as the yield budget
 * everywhere. */
mupci_wait_policies_t mupci_wait_policies(const mupci_wait_host_t *h)
{
    int64_t wake = h->wake_ns < MUPCI_WAKE_NS_MIN   ? MUPCI_WAKE_NS_MIN
                   : h->wake_ns > MUPCI_WAKE_NS_MAX ? MUPCI_WAKE_NS_MAX
                                                    : h->wake_ns;
    int oversubscribed = h->ranks_per_core > 1;
    int spins = oversubscribed ? h->spin_polls / 4 : h->spin_polls;
    int64_t bell_yield = h->yield_window_set || oversubscribed ? h->yield_window_ns : wake;
    int64_t longest = h->idle_longest_ns;
    int64_t rung_longest = h->sleep_max_set || longest > MUPCI_COMM_RUNG_SLEEP_NS
                               ? longest
                               : MUPCI_COMM_RUNG_SLEEP_NS;
    mupci_wait_policies_t p;
    p.bell = (mupci_backoff_policy_t){spins, bell_yield, longest, longest};
    p.timed = (mupci_backoff_policy_t){spins, h->yield_window_ns, 10000, h->sleep_max_ns};
    p.comm_timed = (mupci_backoff_policy_t){spins, h->yield_window_ns, 20000, longest};
    p.comm_idle = h->bells_announce_all
                      ? (mupci_backoff_policy_t){spins, bell_yield, rung_longest, rung_longest}
                      : p.comm_timed;
    p.comm_defer = (mupci_backoff_policy_t){0, 0, 20000, longest};
    return p;
}
