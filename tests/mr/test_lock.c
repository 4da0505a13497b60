/* SPDX-License-Identifier: MIT */
/*
 * test_lock.c -- UPC locks under contention: mutual exclusion and no lost
 * update (a shared counter and a shared "owner" word on a third thread),
 * FIFO order of queued requests, upc_lock_attempt never waiting, the
 * MuPC report's Table 4.1 scenario (a release makes the critical section's
 * remote writes visible to the next holder), lock handles stored in
 * shared memory and used by every thread, freeing a held lock (UPC 1.3:
 * upc_lock_free succeeds whether the lock is unlocked or locked by any
 * thread), and upc_all_lock_free freeing nothing before every thread has
 * called it.
 */
#include "check.h"

#include <unistd.h>

MUPC_SHARED_ARRAY(counter, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(owner, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(order, long, 8, 8, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(turn, long, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(handles, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)

static int data_thread(void) { return THREADS - 1; } /* != lock host 0 when THREADS > 1 */

/* Critical section: nobody else inside (owner word), counter += 1 by a
 * plain get and put, which would lose updates if two threads overlapped or
 * if a release did not make the previous holder's writes visible. */
static void critical_section(void)
{
    mupc_ptr_t own = MUPC_ELEM(owner, data_thread()), cnt = MUPC_ELEM(counter, data_thread());
    long o = MUPC_GET(long, own);
    CHECK(o == -1, "thread %ld is inside the critical section too", o);
    MUPC_PUT(long, own, MYTHREAD);
    MUPC_PUT(long, cnt, MUPC_GET(long, cnt) + 1);
    CHECK_EQ_LL(MUPC_GET(long, own), MYTHREAD);
    MUPC_PUT(long, own, -1);
}

static void hammer(upc_lock_t l, const char *what)
{
    if (MYTHREAD == 0) {
        MUPC_PUT(long, MUPC_ELEM(owner, data_thread()), -1);
        MUPC_PUT(long, MUPC_ELEM(counter, data_thread()), 0);
    }
    upc_barrier();
    int n = per_thread_share(300, 2048, 2); /* acquisitions: 2 a thread at 1,024 */
    for (int i = 0; i < n; i++) {
        upc_lock(l);
        critical_section();
        upc_unlock(l);
    }
    upc_barrier();
    long total = MUPC_GET(long, MUPC_ELEM(counter, data_thread()));
    CHECK(total == (long)n * THREADS, "%s: counter %ld, want %ld", what, total,
          (long)n * THREADS);
}

/* The queued threads (every thread but 0 up to 16 threads; past that the
 * sampled ones, tests/mr/check.h) queue up in a known order while thread
 * 0 (the host) holds the lock; they must be served in that order.  Each
 * one's place is a step that every later one waits through, polling
 * thread 0: with every thread queued, test_lock had not ended after 25
 * minutes at 512 threads on emulated hosts. */
static void fifo_order(upc_lock_t l)
{
    int queued[SAMPLED_THREADS_MAX], n = sampled_threads(queued); /* queued[0] == 0 */
    if (MYTHREAD == 0) {
        upc_lock(l);
        for (int k = 1; k < n; k++) {
            MUPC_PUT_STRICT(long, MUPC_ELEM(turn, 0), queued[k]);
            while (mupc_lock_waiters(l) < k)
                upc_fence; /* lets the request in */
        }
        MUPC_PUT(long, MUPC_ELEM(turn, 0), 1); /* next free slot in `order` */
        upc_unlock(l);
    } else if (thread_is_sampled(MYTHREAD)) {
        while (MUPC_GET_STRICT(long, MUPC_ELEM(turn, 0)) != MYTHREAD)
            ;
        upc_lock(l);
        long slot = MUPC_GET(long, MUPC_ELEM(turn, 0));
        MUPC_PUT(long, MUPC_ELEM(order, (size_t)slot), MYTHREAD);
        MUPC_PUT(long, MUPC_ELEM(turn, 0), slot + 1);
        upc_unlock(l);
    }
    upc_barrier();
    for (int k = 1; k < n; k++)
        CHECK(MUPC_GET(long, MUPC_ELEM(order, (size_t)k)) == queued[k],
              "acquisition %d went to thread %ld, not %d", k,
              MUPC_GET(long, MUPC_ELEM(order, (size_t)k)), queued[k]);
    CHECK_EQ_LL(mupc_lock_waiters(l), MYTHREAD == 0 ? 0 : -1);
}

/* upc_lock_attempt returns 0 at once while another thread holds the lock,
 * and under contention every thread still gets it eventually. */
static void attempt(upc_lock_t l)
{
    if (MYTHREAD == 0)
        upc_lock(l);
    upc_barrier();
    if (MYTHREAD != 0)
        for (int i = 0; i < 50; i++)
            CHECK(upc_lock_attempt(l) == 0, "lock_attempt succeeded on a held lock");
    upc_barrier();
    if (MYTHREAD == 0)
        upc_unlock(l);
    int got = 0, want = per_thread_share(20, 320, 1);
    long tries = 0;
    while (got < want) {
        tries++;
        if (upc_lock_attempt(l)) {
            critical_section();
            upc_unlock(l);
            got++;
        }
    }
    upc_barrier();
    CHECK(tries >= want, "impossible try count %ld", tries);
}

/* The MuPC report's Table 4.1: thread 1 writes X (on thread 2) and F (on thread 0)
 * inside a critical section.  Once thread 0 sees F inside the lock, the
 * release must have made X visible too. */
static void table_4_1(upc_lock_t l)
{
    if (THREADS < 3)
        return;
    mupc_ptr_t x = MUPC_ELEM(counter, 2), f = MUPC_ELEM(owner, 0);
    if (MYTHREAD == 0)
        MUPC_PUT(long, f, 0);
    if (MYTHREAD == 2)
        MUPC_PUT(long, x, 0);
    upc_barrier();
    for (long round = 1; round <= 50; round++) {
        if (MYTHREAD == 1) {
            upc_lock(l);
            MUPC_PUT(long, x, round);
            MUPC_PUT(long, f, round);
            upc_unlock(l);
        } else if (MYTHREAD == 0) {
            long seen = 0;
            while (seen < round) {
                upc_lock(l);
                seen = MUPC_GET(long, f);
                if (seen >= round)
                    CHECK(MUPC_GET(long, x) >= seen, "round %ld: F=%ld visible but X=%ld", round,
                          seen, MUPC_GET(long, x));
                upc_unlock(l);
            }
        }
        upc_barrier();
    }
}

/* A lock is freed while its holder -- this thread, then another one --
 * still holds it; the program carries on with new locks.  The freed
 * handles are not used again (that would be a use of a freed lock). */
static void free_held_locks(void)
{
    upc_lock_t own = upc_global_lock_alloc();
    upc_lock(own);
    upc_lock_free(own); /* held by the caller */
    upc_lock_t after = upc_global_lock_alloc();
    CHECK(upc_lock_attempt(after), "a new lock after freeing a held one is not free");
    upc_unlock(after);
    upc_lock_free(after);

    /* held by the last thread, freed by thread 0 (itself when alone) */
    upc_lock_t shared_lock = upc_all_lock_alloc();
    if (MYTHREAD == THREADS - 1)
        upc_lock(shared_lock);
    upc_barrier();
    if (MYTHREAD == 0)
        upc_lock_free(shared_lock);
    upc_barrier();

    /* held by the last thread across upc_all_lock_free */
    upc_lock_t collective = upc_all_lock_alloc();
    if (MYTHREAD == THREADS - 1)
        upc_lock(collective);
    upc_all_lock_free(collective);

    upc_lock_t fresh = upc_all_lock_alloc();
    hammer(fresh, "a lock allocated after held locks were freed");
    upc_all_lock_free(fresh);
}

/* upc_all_lock_free is collective: the last thread arrives 100 ms late and
 * uses the lock first; had anybody freed it on arrival, its use would stop
 * the job as a use of a freed lock. */
static void all_lock_free_waits_for_everyone(void)
{
    upc_lock_t l = upc_all_lock_alloc();
    if (MYTHREAD == THREADS - 1) {
        usleep(100000);
        CHECK(upc_lock_attempt(l), "nobody holds the lock, yet upc_lock_attempt failed");
        upc_unlock(l);
        upc_lock(l);
        upc_unlock(l);
    }
    upc_all_lock_free(l);
}

int main(void)
{
    upc_lock_t all = upc_all_lock_alloc();
    hammer(all, "upc_all_lock_alloc lock");

    /* a lock from upc_global_lock_alloc on the last thread, passed through
     * shared memory to everyone */
    if (MYTHREAD == THREADS - 1)
        MUPC_PUT(pts, MUPC_ELEM(handles, 0), upc_global_lock_alloc());
    upc_barrier();
    upc_lock_t mine = MUPC_GET(pts, MUPC_ELEM(handles, 0));
    hammer(mine, "upc_global_lock_alloc lock");

    fifo_order(all);
    attempt(all);
    table_4_1(all);

    upc_barrier();
    if (MYTHREAD == THREADS - 1)
        upc_lock_free(mine);
    upc_all_lock_free(all);
    /* freed slots are reused with a new generation */
    upc_lock_t again = upc_all_lock_alloc();
    CHECK(!mupc_ptr_equal(again, all), "a freed handle came back unchanged");
    upc_lock(again);
    upc_unlock(again);
    upc_all_lock_free(again);

    free_held_locks();
    all_lock_free_waits_for_everyone();
    if (MYTHREAD == 0)
        printf("test_lock: %d threads OK\n", THREADS);
    return 0;
}
