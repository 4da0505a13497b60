/* SPDX-License-Identifier: MIT */
/*
 * test_wake.c -- waiters that have gone to sleep are woken: a barrier
 * (blocking and split phase) and a broadcast with one thread arriving
 * ~50 ms late, each thread in turn (past 16 threads, five of them:
 * sampled_threads in check.h); a lock held ~50 ms while every other thread queues on
 * it; and at the end, upc_global_exit(0) from the last thread while the
 * others sleep in a lock and in a barrier, which must end the job (status
 * 0) instead of hanging or releasing them.  A waiter released early, or
 * not seeing what the late thread wrote before arriving, fails.
 *
 * TEST_WAKE_MAX_MS=M (tests/scripts/shm.sh, with idle_sleep_max_us =
 * 100000 so a sleep ends late unless it is woken): every waiter must be
 * released within M ms of the late thread's arrival (of the unlock).
 */
#include "check.h"

#include <upc_collective.h>

#include <string.h>
#include <time.h>
#include <unistd.h>

#define LATE_US 50000

MUPC_SHARED_ARRAY(mark, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(inside, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(served, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(stamp, double, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(bcast_src, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(bcast_dst, long, 1, 1, MUPC_PER_THREAD)

static double max_ms; /* TEST_WAKE_MAX_MS, or 0 */

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Released within max_ms of `since` (another thread's clock reading:
 * CLOCK_MONOTONIC is one clock on a machine, and the tests' emulated
 * hosts share one).  Waiters compare their release with the late thread's
 * arrival stamp, not with how long they waited themselves: with 128 ranks
 * per core (make check-scale) a thread can leave the previous barrier
 * 10 ms and more after the late one. */
static void woken_in_time(double since, const char *what)
{
    double delay = now_ms() - since;
    CHECK(max_ms == 0 || delay < max_ms, "%s: released %.1f ms after the release (limit %.0f)",
          what, delay, max_ms);
}

/* Thread `late` arrives LATE_US after the others, having written `value`
 * into every thread's mark; the others wait (long enough to sleep). */
static void late_barrier(int late, long value, int split)
{
    if (MYTHREAD == late) {
        usleep(LATE_US);
        for (int t = 0; t < THREADS; t++) {
            MUPC_PUT(long, MUPC_ELEM(mark, t), value);
            MUPC_PUT(double, MUPC_ELEM(stamp, t), now_ms());
        }
    }
    if (split) {
        upc_notify(late);
        upc_wait(late);
    } else {
        upc_barrier();
    }
    double left = now_ms();
    long seen = MUPC_GET(long, MUPC_ELEM(mark, MYTHREAD));
    CHECK(seen == value, "late thread %d: mark %ld, expected %ld", late, seen, value);
    double arrived = MUPC_GET(double, MUPC_ELEM(stamp, MYTHREAD));
    CHECK(left >= arrived, "released %.1f ms before thread %d arrived", arrived - left, late);
    woken_in_time(arrived, "barrier");
}

/* Thread `late` calls a broadcast LATE_US after the others, which wait
 * in it for its data (NOSYNC: a message on the node, so the sleeper is
 * woken by the sender's ring of its message bell, engine.c). */
static void late_broadcast(int late, long value)
{
    if (MYTHREAD == late) {
        usleep(LATE_US);
        MUPC_PUT(long, MUPC_ELEM(bcast_src, late), value);
        for (int t = 0; t < THREADS; t++)
            MUPC_PUT(double, MUPC_ELEM(stamp, t), now_ms());
    }
    upc_all_broadcast(MUPC_ELEM(bcast_dst, 0), MUPC_ELEM(bcast_src, late), sizeof(long),
                      UPC_IN_NOSYNC | UPC_OUT_NOSYNC);
    double left = now_ms();
    long seen = MUPC_GET(long, MUPC_ELEM(bcast_dst, MYTHREAD));
    CHECK(seen == value, "broadcast from thread %d: got %ld, expected %ld", late, seen, value);
    if (MYTHREAD != late) {
        double called = MUPC_GET(double, MUPC_ELEM(stamp, MYTHREAD));
        CHECK(left >= called, "left a broadcast %.1f ms before thread %d called it",
              called - left, late);
        woken_in_time(called, "broadcast");
    }
    upc_barrier();
}

/* Thread 0 holds a lock LATE_US while the others queue
 * on it; each then holds it alone for a moment. */
static void slept_lock(upc_lock_t l)
{
    mupc_ptr_t in = MUPC_ELEM(inside, 0), count = MUPC_ELEM(served, 0);
    if (MYTHREAD == 0) {
        upc_lock(l);
        MUPC_PUT_STRICT(long, count, 0);
        MUPC_PUT_STRICT(long, in, 1); /* held through the sleep */
    }
    upc_barrier();
    if (MYTHREAD == 0) {
        usleep(LATE_US);
        MUPC_PUT_STRICT(long, in, 0);
    } else {
        upc_lock(l);
        woken_in_time(MUPC_GET_STRICT(double, MUPC_ELEM(stamp, 0)), "lock");
    }
    long holder = MUPC_GET_STRICT(long, in);
    CHECK(holder == 0, "thread %d got the lock while thread %ld held it", MYTHREAD, holder - 1);
    MUPC_PUT_STRICT(long, in, MYTHREAD + 1);
    usleep(1000);
    CHECK_EQ_LL(MUPC_GET_STRICT(long, in), MYTHREAD + 1);
    MUPC_PUT_STRICT(long, in, 0);
    MUPC_PUT_STRICT(long, count, MUPC_GET_STRICT(long, count) + 1);
    MUPC_PUT_STRICT(double, MUPC_ELEM(stamp, 0), now_ms()); /* the next holder's start */
    upc_unlock(l);
    upc_barrier();
    CHECK_EQ_LL(MUPC_GET_STRICT(long, count), THREADS);
}

/* The job ends with status 0 from the last thread's upc_global_exit;
 * nobody may pass the lock or the barrier. */
static void exit_while_asleep(upc_lock_t l)
{
    int last = THREADS - 1;
    if (MYTHREAD == last)
        upc_lock(l);
    upc_barrier();
    if (MYTHREAD == last) {
        usleep(2 * LATE_US);
        upc_global_exit(0);
    }
    if (MYTHREAD % 2)
        upc_lock(l);
    else
        upc_barrier();
    fprintf(stderr, "FAIL: thread %d passed a wait the last thread never released\n", MYTHREAD);
    fflush(stderr);
    upc_global_exit(1);
}

int main(void)
{
    const char *limit = getenv("TEST_WAKE_MAX_MS");
    max_ms = limit ? atof(limit) : 0;
    long value = 1;
    int lates[SAMPLED_THREADS_MAX], nlates = sampled_threads(lates);
    for (int k = 0; k < nlates; k++)
        for (int split = 0; split < 2; split++)
            late_barrier(lates[k], value++, split);
    for (int k = 0; k < nlates; k++)
        late_broadcast(lates[k], value++);
    upc_lock_t l = upc_all_lock_alloc();
    slept_lock(l);
    if (THREADS > 1)
        exit_while_asleep(l);
    upc_barrier();
    return 0;
}
