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
 * than MUPCI_SLOW_YIELD_NS means a busy pthread got the core, which keeps
 * it for a whole time slice (milliseconds): the cores are oversubscribed,
 * and a pthread that polls by yielding takes time from the ones that
 * compute.  From then on, for MUPCI_SLOW_YIELD_PERIOD_NS, yields count as
 * slow and the ladders go from the spin straight to sleep.  One pthread
 * per meter. */
#define MUPCI_SLOW_YIELD_NS 200000
#define MUPCI_SLOW_YIELD_PERIOD_NS 100000000
typedef struct mupci_yield_meter {
    int64_t slow_until; /* ns; yields are slow before it */
} mupci_yield_meter_t;

static inline int mupci_yields_slow(const mupci_yield_meter_t *m, int64_t now_ns)
{
    return now_ns < m->slow_until;
}

/* Record a yield that went from start_ns to end_ns. */
void mupci_yield_meter_note(mupci_yield_meter_t *m, int64_t start_ns, int64_t end_ns);

/* sched_yield, recorded. */
void mupci_yield_metered(mupci_yield_meter_t *m);

#endif
