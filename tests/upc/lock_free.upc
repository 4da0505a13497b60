/* SPDX-License-Identifier: MIT */
/* lock_free.upc -- freeing locks and memory as UPC 1.3 says (§7.2.4,
 * §7.2.3): upc_lock_free succeeds whether the lock is unlocked or locked
 * by any thread; upc_all_lock_free and upc_all_free are collective, so a
 * thread that comes late may still use the lock or the memory before its
 * own call (Berkeley's all_free_test); upc_free of a lock frees the lock,
 * as UPC 1.2 programs do it (Berkeley's benchmarks/lockperf). */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NAME "lock_free"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define N 64
shared int errs[THREADS];

int main(void)
{
    int errors = 0, i, total;
    int late = THREADS - 1;

    /* freed while held by the caller */
    upc_lock_t *own = upc_global_lock_alloc();
    upc_lock(own);
    upc_lock_free(own);

    /* freed by thread 0 while the last thread holds it */
    upc_lock_t *held = upc_all_lock_alloc();
    if (MYTHREAD == late)
        upc_lock(held);
    upc_barrier;
    if (MYTHREAD == 0)
        upc_lock_free(held);
    upc_barrier;

    /* collective free while the last thread holds it */
    upc_lock_t *coll = upc_all_lock_alloc();
    if (MYTHREAD == late)
        CHECK(upc_lock_attempt(coll), "upc_lock_attempt of a free lock");
    upc_all_lock_free(coll);

    /* the last thread arrives late and uses the lock and the memory
     * before its own collective calls */
    upc_lock_t *lock = upc_all_lock_alloc();
    shared int *data = (shared int *)upc_all_alloc(N, sizeof(int));
    upc_forall (i = 0; i < N; i++; &data[i])
        data[i] = 1000 + i;
    upc_barrier;
    if (MYTHREAD == late) {
        usleep(100000);
        CHECK(upc_lock_attempt(lock), "upc_lock_attempt before upc_all_lock_free");
        upc_unlock(lock);
        upc_lock(lock);
        upc_unlock(lock);
    }
    upc_all_lock_free(lock);
    if (MYTHREAD == late) {
        usleep(100000);
        for (i = 0; i < N; i++)
            CHECK(data[i] == 1000 + i, "upc_all_alloc memory before upc_all_free");
    }
    upc_all_free(data);
    if (MYTHREAD == 0) { /* reuses the freed space at once */
        shared int *again = (shared int *)upc_global_alloc(N, sizeof(int));
        for (i = 0; i < N; i++)
            again[i] = -1;
        upc_fence;
        upc_free(again);
    }

    /* locks still work */
    upc_lock_t *fresh = upc_all_lock_alloc();
    upc_lock(fresh);
    upc_unlock(fresh);
    upc_all_lock_free(fresh);

    /* upc_free of locks, as lockperf does, then their slots are reused */
    upc_lock_t **many = malloc(8 * sizeof(upc_lock_t *));
    for (i = 0; i < 8; i++)
        many[i] = upc_global_lock_alloc();
    upc_lock(many[3]);
    for (i = 0; i < 8; i++)
        upc_free(many[i]);
    for (i = 0; i < 8; i++)
        many[i] = upc_global_lock_alloc();
    for (i = 0; i < 8; i++) {
        CHECK(upc_lock_attempt(many[i]), "a lock allocated after upc_free of locks is free");
        upc_unlock(many[i]);
        upc_lock_free(many[i]);
    }
    free(many);

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
