/* SPDX-License-Identifier: MIT */
/* atomics.upc -- the UPC 1.3 atomic memory operations (<upc_atomic.h>,
 * library §7.4): a domain from the collective upc_all_atomicdomain_alloc,
 * the same pointer on every thread (also when passed through shared
 * memory); relaxed UPC_ADD from every thread loses no update; fetching
 * UPC_INC; strict UPC_CSWAP elects exactly one winner; UPC_GET and
 * UPC_SET; upc_atomic_isfast; upc_all_atomicdomain_free. */
#include <upc.h>
#include <upc_atomic.h>
#include <stdio.h>

#define ROUNDS 100
shared long total;
shared int ticket;
shared int winner = -1;
shared long cell[THREADS];
upc_atomicdomain_t *shared published;
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    upc_atomicdomain_t *longs = upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD | UPC_GET | UPC_SET, 0);
    upc_atomicdomain_t *ints = upc_all_atomicdomain_alloc(UPC_INT, UPC_INC | UPC_CSWAP, 0);
    if (MYTHREAD == 0)
        published = longs;
    upc_barrier;
    if (published != longs)
        errors++, printf("Error: atomics: the domain differs between threads (thread %d)\n", MYTHREAD);
    upc_atomicdomain_t *twin = upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD | UPC_GET | UPC_SET, 0);
    if (twin == longs)
        errors++, printf("Error: atomics: two domains are one pointer (thread %d)\n", MYTHREAD);
    upc_all_atomicdomain_free(twin);

    const long one = 1;
    for (int i = 0; i < ROUNDS; i++)
        upc_atomic_relaxed(published, NULL, UPC_ADD, &total, &one, NULL);
    int mine = -1;
    upc_atomic_relaxed(ints, &mine, UPC_INC, &ticket, NULL, NULL);
    const int unset = -1, me = MYTHREAD;
    int seen = 0;
    upc_atomic_strict(ints, &seen, UPC_CSWAP, &winner, &unset, &me);
    const long mark = 1000 + MYTHREAD;
    upc_atomic_relaxed(longs, NULL, UPC_SET, &cell[MYTHREAD], &mark, NULL);
    upc_barrier;

    long sum = 0, got = 0;
    upc_atomic_relaxed(longs, &sum, UPC_GET, &total, NULL, NULL);
    upc_atomic_relaxed(longs, &got, UPC_GET, &cell[(MYTHREAD + 1) % THREADS], NULL, NULL);
    if (sum != (long)ROUNDS * THREADS)
        errors++, printf("Error: atomics: UPC_ADD total %ld, want %ld (thread %d)\n", sum, (long)ROUNDS * THREADS, MYTHREAD);
    if (mine < 0 || mine >= THREADS || ticket != THREADS)
        errors++, printf("Error: atomics: UPC_INC fetched %d, ticket %d (thread %d)\n", mine, (int)ticket, MYTHREAD);
    if (winner < 0 || winner >= THREADS || (seen == -1) != (winner == MYTHREAD))
        errors++, printf("Error: atomics: UPC_CSWAP winner %d, I saw %d (thread %d)\n", (int)winner, seen, MYTHREAD);
    if (got != 1000 + (MYTHREAD + 1) % THREADS)
        errors++, printf("Error: atomics: UPC_SET/UPC_GET read %ld (thread %d)\n", got, MYTHREAD);
    if (!upc_atomic_isfast(UPC_LONG, UPC_ADD, &cell[MYTHREAD]))
        errors++, printf("Error: atomics: an operation on my own element is not fast (thread %d)\n", MYTHREAD);
    upc_barrier;
    upc_all_atomicdomain_free(longs);
    upc_all_atomicdomain_free(ints);

    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int all = 0;
        for (int t = 0; t < THREADS; t++)
            all += errs[t];
        if (all == 0)
            printf("Success: atomics\n");
    }
    return errors != 0;
}
