/* SPDX-License-Identifier: MIT */
/*
 * backoff.h -- how a pthread waits when there is nothing to do.
 *
 * Measured on 2-core machines: pure spinning starves the
 * other pthreads when cores are scarce, and every sleep costs ~50 us unless
 * the timer slack is lowered.  So: spin a bounded number of polls, then
 * sched_yield for a window, then sleep with doubling periods up to a cap.
 * Any useful work resets the ladder.
 */
#ifndef MUPCI_BACKOFF_H
#define MUPCI_BACKOFF_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stdint.h>

typedef struct mupci_backoff_policy {
    int spin_polls;       /* polls before yielding */
    int64_t yield_ns;     /* yielding window before sleeping */
    int64_t sleep_min_ns; /* first sleep */
    int64_t sleep_max_ns; /* sleep cap */
} mupci_backoff_policy_t;

typedef enum { MUPCI_BACKOFF_SPIN, MUPCI_BACKOFF_YIELD, MUPCI_BACKOFF_SLEEP } mupci_backoff_action_t;

typedef struct mupci_backoff {
    const mupci_backoff_policy_t *policy;
    int polls;           /* idle polls since the last work */
    int64_t idle_since;  /* ns timestamp of the last work (0 = not idle yet) */
    int64_t sleep_ns;    /* next sleep period */
} mupci_backoff_t;

int64_t mupci_now_ns(void);

void mupci_backoff_init(mupci_backoff_t *b, const mupci_backoff_policy_t *policy);
void mupci_backoff_reset(mupci_backoff_t *b);
/* Go on from where the spin ends (the spin polls counted as done). */
void mupci_backoff_skip_spin(mupci_backoff_t *b);
/* Go on from where the yield window ends: the next step is a sleep. */
void mupci_backoff_skip_yield(mupci_backoff_t *b, int64_t now_ns);

/* Decide the next idle step (pure; `now_ns` from mupci_now_ns()).  For
 * MUPCI_BACKOFF_SLEEP, *sleep_ns receives the period. */
mupci_backoff_action_t mupci_backoff_next(mupci_backoff_t *b, int64_t now_ns,
                                          int64_t *sleep_ns);

/* The next step, reading the clock only once spinning is over. */
mupci_backoff_action_t mupci_backoff_step(mupci_backoff_t *b, int64_t *sleep_ns);

/* Do a step: spin hint, sched_yield or nanosleep. */
void mupci_backoff_act(mupci_backoff_action_t action, int64_t sleep_ns);

/* One idle step: decide and do it. */
void mupci_backoff_idle(mupci_backoff_t *b);

/* Whether yields give the core back quickly.  A yield that takes longer
 * than MUPCI_SLOW_YIELD_NS means another pthread had the core for a
 * while.  Under the job's own oversubscription (4 UPC threads on 2
 * cores) that is normal and rare: 0.5-1.5 % of a 4-thread barrier's
 * yields, a pthread of the job computing or being woken.  Beside a
 * process that computes without end (a busy loop per core) it is most of
 * the waiting time: the busy process keeps the core for a whole time
 * slice (1-4 ms here), and a pthread that polls by yielding gets it back
 * only then, where a sleeper woken by a futex is run at once.  So the
 * meter sums the time lost in slow yields, halving the sum every
 * MUPCI_SLOW_YIELD_HALF_LIFE_NS, and yields count as slow while the sum
 * exceeds MUPCI_SLOW_YIELD_LOST_NS (about 7 % of the time lost): then the
 * waits go from the spin straight to sleep.  One slow yield used to mark
 * yields slow for 100 ms; under the job's own oversubscription that kept
 * the waits asleep most of the time (bench/shm's 4-thread on-node barrier
 * 35-48 us, against 10-16 us with this rule).  One pthread per meter. */
#define MUPCI_SLOW_YIELD_NS 200000
#define MUPCI_SLOW_YIELD_HALF_LIFE_NS 50000000
#define MUPCI_SLOW_YIELD_LOST_NS 5000000
typedef struct mupci_yield_meter {
    int64_t lost_ns; /* time lost in slow yields, halved every half-life */
    int64_t lost_at; /* ns: when lost_ns was last brought up to date */
} mupci_yield_meter_t;

int mupci_yields_slow(mupci_yield_meter_t *m, int64_t now_ns);

/* Record a yield that went from start_ns to end_ns. */
void mupci_yield_meter_note(mupci_yield_meter_t *m, int64_t start_ns, int64_t end_ns);

/* sched_yield, recorded. */
void mupci_yield_metered(mupci_yield_meter_t *m);

/* ---- the waiting policy: how long to spin, yield and sleep, from what
 * the host costs (backoff.c gives the rule and the figures behind it) ---- */

/* The bounds put on a measured wake-up: a yield budget past
 * MUPCI_SLOW_YIELD_NS would only hold slow yields. */
#define MUPCI_WAKE_NS_MIN 1000
#define MUPCI_WAKE_NS_MAX MUPCI_SLOW_YIELD_NS

/* The longest sleep of an idle communication pthread that every message
 * rings awake (comm_idle on one node, backoff.c): a safety net, not a
 * poll. */
#define MUPCI_COMM_RUNG_SLEEP_NS 100000000

/* What the policy is made from. */
typedef struct mupci_wait_host {
    int64_t wake_ns;         /* one futex wake-up of a sleeping pthread on this host */
    int ranks_per_core;      /* this node's computation pthreads per core (1: cores to spare) */
    int spin_polls;          /* setting spin_polls */
    int64_t yield_window_ns; /* setting yield_window_us */
    int yield_window_set;    /* ... and whether the user set it */
    int64_t sleep_max_ns;    /* setting idle_sleep_max_us */
    int sleep_max_set;       /* ... and whether the user set it */
    int64_t idle_longest_ns; /* the longest sleep of a pthread with nothing to wait for */
    int bells_announce_all;  /* every message this thread can get rings its bell (one node) */
} mupci_wait_host_t;

typedef struct mupci_wait_policies {
    /* a wait that a bell ends: whoever makes its condition true rings it */
    mupci_backoff_policy_t bell;
    /* a wait for messages no bell announces (other nodes): timed sleeps */
    mupci_backoff_policy_t timed;
    /* the communication pthread after its work, while its computation
     * pthread computes (comm_timed: the same when no bell can end its
     * sleeps, or this process has sends in flight); and while its
     * computation pthread waits */
    mupci_backoff_policy_t comm_idle, comm_timed, comm_defer;
} mupci_wait_policies_t;

mupci_wait_policies_t mupci_wait_policies(const mupci_wait_host_t *host);

#endif
