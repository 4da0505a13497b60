/* SPDX-License-Identifier: MIT */
/*
 * wake.c -- the futex calls behind wake.h.
 */
#include "base/wake.h"

#include "base/backoff.h"
#include "base/fatal.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

void mupci_futex_wait(_Atomic uint32_t *word, uint32_t seen, int64_t timeout_ns)
{
    struct timespec ts = {timeout_ns / 1000000000, timeout_ns % 1000000000};
    /* EAGAIN (the word changed), EINTR and ETIMEDOUT all mean: look again */
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, seen, &ts, NULL, 0);
}

void mupci_futex_wake_all(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

/* The ping-pong: the word counts the turns; even turns (0, 2, ...) are
 * the initiator's, odd ones the partner's. */

/* Sleep until *word leaves `seen`; 0 if it had not after give_up_ns. */
static int await_change(_Atomic uint32_t *word, uint32_t seen, int64_t give_up_ns)
{
    int64_t give_up = mupci_now_ns() + give_up_ns;
    while (atomic_load_explicit(word, memory_order_acquire) == seen) {
        if (mupci_now_ns() >= give_up)
            return 0;
        mupci_futex_wait(word, seen, 10000000);
    }
    return 1;
}

static void pass_turn(_Atomic uint32_t *word)
{
    atomic_fetch_add_explicit(word, 1, memory_order_release);
    mupci_futex_wake_all(word);
}

/* The partner may come late to the first turn (start-up skew); every
 * later turn takes a wake-up or two, far below the second bound. */
#define FIRST_TURN_NS 10000000000LL
#define LATER_TURN_NS 100000000LL

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* Each side sleeps a while before passing its turn, so that the other
 * is deeply asleep, its core idle, as a waiter is once its yields are
 * over: on the virtual machines this project runs on, waking an idle
 * core costs several times more than waking a pthread beside a busy one
 * (bench/shm's mupc.futex_wake_us 23-90 us). */
#define GAP_NS 500000

int64_t mupci_wake_pingpong(_Atomic uint32_t *word, _Atomic int64_t *stamp, int initiator,
                            int rounds)
{
    enum { MAX_ROUNDS = 64 };
    int64_t woken[MAX_ROUNDS];
    int samples = 0;
    if (rounds > MAX_ROUNDS)
        rounds = MAX_ROUNDS;
    /* turns 0, 2, 4, ... are the initiator's; each side samples how long
     * after the other's pass it woke, on the shared CLOCK_MONOTONIC */
    uint32_t last = 2u * (uint32_t)rounds;
    int64_t bound = FIRST_TURN_NS;
    for (uint32_t turn = initiator ? 0 : 1; turn < last; turn += 2, bound = LATER_TURN_NS) {
        if (turn > 0) {
            if (!await_change(word, turn - 1, bound)) /* until it is our turn */
                return -1;
            if (turn > 1 || !initiator)
                woken[samples++] = mupci_now_ns() - atomic_load(stamp);
        }
        struct timespec gap = {0, GAP_NS};
        nanosleep(&gap, NULL);
        atomic_store(stamp, mupci_now_ns());
        pass_turn(word);
    }
    if (samples == 0)
        return -1;
    qsort(woken, (size_t)samples, sizeof woken[0], cmp_i64);
    return woken[samples / 2];
}

typedef struct partner_arg {
    _Atomic uint32_t word;
    _Atomic int64_t stamp;
    int rounds;
} partner_arg_t;

static void *partner(void *arg)
{
    partner_arg_t *p = arg;
    mupci_wake_pingpong(&p->word, &p->stamp, 0, p->rounds);
    return NULL;
}

int64_t mupci_measure_wake_ns(int rounds)
{
    partner_arg_t p = {0, 0, rounds};
    pthread_t t;
    MUPCI_PT(pthread_create(&t, NULL, partner, &p));
    int64_t ns = mupci_wake_pingpong(&p.word, &p.stamp, 1, rounds);
    MUPCI_PT(pthread_join(t, NULL));
    return ns;
}
