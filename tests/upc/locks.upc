/* SPDX-License-Identifier: MIT */
/* locks.upc -- UPC locks (UPC 1.3 §7.2.4): upc_all_lock_alloc (collective,
 * same lock on every thread), upc_global_lock_alloc, upc_lock,
 * upc_lock_attempt, upc_unlock, upc_lock_free.  upc_lock and
 * upc_unlock imply null strict accesses, so relaxed updates made while
 * holding the lock are seen by the next holder. */
#include <upc.h>
#include <stdio.h>

#define NAME "locks"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define ITERS 100
shared int counter;                  /* on thread 0 */
shared long sums[THREADS];           /* spread over all threads */
upc_lock_t *shared glock;            /* lock from upc_global_lock_alloc */
upc_lock_t *shared lock0;            /* thread 0's upc_all_lock_alloc result */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, total, attempts = 0;
    upc_lock_t *lock;

    lock = upc_all_lock_alloc();
    CHECK(lock != 0, "upc_all_lock_alloc returned non-null");
    if (MYTHREAD == 0) {
        counter = 0;
        lock0 = lock;
        glock = upc_global_lock_alloc();
    }
    sums[MYTHREAD] = 0;
    upc_barrier;
    CHECK(lock == lock0, "upc_all_lock_alloc returns the same lock on every thread");
    CHECK(glock != 0, "upc_global_lock_alloc returned non-null");

    for (i = 0; i < ITERS; i++) {
        upc_lock(lock);
        counter = counter + 1;       /* read-modify-write, not atomic on its own */
        upc_unlock(lock);
    }

    /* every thread adds into every element of sums under the global lock,
     * taking it with upc_lock_attempt (retrying until it succeeds) */
    for (i = 0; i < ITERS; i++) {
        while (!upc_lock_attempt(glock))
            attempts++;
        sums[i % THREADS] += i;
        upc_unlock(glock);
    }
    upc_barrier;

    CHECK(counter == ITERS * THREADS, "counter == 100 * THREADS");
    for (i = 0; i < THREADS; i++) {
        long want = 0;
        int k;
        for (k = i; k < ITERS; k += THREADS)
            want += k;
        CHECK(sums[i] == want * THREADS, "sums[i] after locked updates from every thread");
    }
    (void)attempts;                  /* failed attempts: any number is fine */
    upc_barrier;                     /* every thread has read counter before it changes */

    /* the lock is usable again after a round of use */
    if (MYTHREAD == THREADS - 1) {
        upc_lock(lock);
        counter = -1;
        upc_unlock(lock);
    }
    upc_barrier;
    CHECK(counter == -1, "write under the lock seen after the barrier");
    upc_barrier;                     /* nobody uses the locks any more */
    if (MYTHREAD == 0) {
        upc_lock_free(lock);
        upc_lock_free(glock);
    }

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
