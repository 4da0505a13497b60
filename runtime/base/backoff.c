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

void mupci_yield_meter_note(mupci_yield_meter_t *m, int64_t start_ns, int64_t end_ns)
{
    if (end_ns - start_ns > MUPCI_SLOW_YIELD_NS)
        m->slow_until = end_ns + MUPCI_SLOW_YIELD_PERIOD_NS;
}

void mupci_yield_metered(mupci_yield_meter_t *m)
{
    int64_t start = mupci_now_ns();
    sched_yield();
    mupci_yield_meter_note(m, start, mupci_now_ns());
}
