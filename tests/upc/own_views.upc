/* SPDX-License-Identifier: MIT */
/* own_views.upc -- loops over this thread's elements of cyclic arrays
 * reached through global pointers-to-shared, p[X * THREADS + MYTHREAD]
 * with X read from data (NAS IS's bucket counts, sort and ranking): the
 * translator reads the pointer and this thread's part of the array once
 * before the loop (translator/rewrite_hoist.c, __mupc_own_view) and makes
 * each access a bounds test and a plain load or store.  Reads, stores
 * whose index has a side effect (evaluated once), ++ and -- before and
 * after, compound assignments, both orders of the index, long and double
 * elements, an X below 0 and a pointer that is not on thread 0 (both
 * through the runtime's path), a neighbour's elements, a parameter and a
 * local variable (a view without a copy), a loop with a switch inside,
 * an int += double (converted after the addition).  Every result is
 * checked against values computed in private memory.  translator.sh runs
 * it on two simulated nodes and with checks = bounds too. */
#include <upc.h>
#include <stdio.h>

#define N 50  /* elements per thread */
#define K 400 /* keys per thread */

#define CHECK(cond, what)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            errors++;                                                                        \
            printf("Error: own_views: %s (thread %d, %s:%d)\n", what, MYTHREAD, __FILE__,    \
                   __LINE__);                                                                \
        }                                                                                    \
    } while (0)

shared int *counts;   /* cyclic, N per thread */
shared int *sorted;   /* cyclic, K per thread */
shared long *wide;    /* cyclic, N per thread */
shared double *reals; /* cyclic, N per thread */
shared int *above;    /* counts + THREADS: on thread 0, one row further */
shared int *shifted;  /* counts + 1: on thread 1 when THREADS > 1 */
shared int errs[THREADS];

static int errors;
static int keys[K], starts[N], histogram[N];

/* unevenly spread, differently on each thread */
static int key(int i) { return (i * 7 + MYTHREAD) % (N - MYTHREAD % 5); }

/* through a parameter: adds 2 to each key's count, sums the new counts */
static long add_twice(shared int *c, const int *ks, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        c[MYTHREAD + ks[i] * THREADS] += 2;
        s += c[ks[i] * THREADS + MYTHREAD];
    }
    return s;
}

int main(void)
{
    counts = upc_all_alloc(N * THREADS, sizeof(int));
    sorted = upc_all_alloc(K * THREADS, sizeof(int));
    wide = upc_all_alloc(N * THREADS, sizeof(long));
    reals = upc_all_alloc(N * THREADS, sizeof(double));
    above = counts + THREADS;
    shifted = counts + 1;
    int i;
    for (i = 0; i < K; i++) {
        keys[i] = key(i);
        histogram[keys[i]]++;
    }
    for (i = 0; i < N; i++) {
        counts[MYTHREAD + i * THREADS] = 0;
        wide[MYTHREAD + i * THREADS] = 0;
        reals[i * THREADS + MYTHREAD] = 0.5;
    }

    /* counting: ++ through the view */
    for (i = 0; i < K; i++)
        counts[MYTHREAD + keys[i] * THREADS]++;
    int bad = 0;
    for (i = 0; i < N; i++)
        bad += counts[MYTHREAD + i * THREADS] != histogram[i];
    CHECK(bad == 0, "counts[MYTHREAD + key * THREADS]++");

    /* reads, the other order of the index */
    long sum = 0, want = 0;
    for (i = 0; i < K; i++)
        sum += counts[keys[i] * THREADS + MYTHREAD];
    for (i = 0; i < K; i++)
        want += histogram[keys[i]];
    CHECK(sum == want, "reads of counts[key * THREADS + MYTHREAD]");

    /* a store whose index increments a private counter: once per access */
    starts[0] = 0;
    for (i = 1; i < N; i++)
        starts[i] = starts[i - 1] + histogram[i - 1];
    for (i = 0; i < K; i++)
        sorted[MYTHREAD + (starts[keys[i]]++) * THREADS] = keys[i];
    bad = 0;
    for (i = 1; i < K; i++)
        bad += sorted[MYTHREAD + i * THREADS] < sorted[MYTHREAD + (i - 1) * THREADS];
    CHECK(bad == 0, "sorted[MYTHREAD + (start[key]++) * THREADS] = key sorts");
    CHECK(starts[N - 1] == K, "each store's index evaluated once");

    /* compound assignments, -- and values of ++ before and after */
    for (i = 0; i < N; i++)
        wide[MYTHREAD + i * THREADS] += 3L * i;
    for (i = 0; i < N; i++)
        wide[MYTHREAD + i * THREADS]--;
    long post = 0, pre = 0;
    for (i = 0; i < N; i++)
        post += wide[MYTHREAD + i * THREADS]++;
    for (i = 0; i < N; i++)
        pre += ++wide[MYTHREAD + i * THREADS];
    want = 0;
    for (i = 0; i < N; i++)
        want += 3L * i - 1;
    CHECK(post == want, "the value of wide[...]++");
    CHECK(pre == want + 2 * N, "the value of ++wide[...]");
    double dsum = 0;
    for (i = 0; i < N; i++) {
        reals[MYTHREAD + i * THREADS] *= 4;
        dsum += reals[MYTHREAD + i * THREADS];
    }
    CHECK(dsum == 2.0 * N, "double elements, *=");

    /* a parameter, then a local variable (undoing it), a switch in the loop */
    long got2 = add_twice(counts, keys, K);
    want = 0;
    int seen[N] = {0};
    for (i = 0; i < K; i++) {
        seen[keys[i]]++;
        want += histogram[keys[i]] + 2 * seen[keys[i]];
    }
    CHECK(got2 == want, "a parameter: c[MYTHREAD + key * THREADS] += 2");
    shared int *local = counts;
    for (i = 0; i < K; i++)
        local[MYTHREAD + keys[i] * THREADS] -= 2;
    bad = 0;
    for (i = 0; i < N; i++) {
        switch (i % 3) {
        case 0:
            bad += local[MYTHREAD + i * THREADS] != histogram[i];
            break;
        default:
            bad += local[i * THREADS + MYTHREAD] - histogram[i] != 0;
            break;
        }
    }
    CHECK(bad == 0, "a local variable: local[MYTHREAD + key * THREADS] -= 2");

    /* X below 0 from a pointer one row further: element MYTHREAD of counts */
    int x = -1, got = 0;
    for (i = 0; i < 3; i++)
        got += above[MYTHREAD + x * THREADS];
    CHECK(got == 3 * histogram[0], "above[MYTHREAD - THREADS]");
    for (i = 0; i < 3; i++)
        got += above[MYTHREAD + i * THREADS];
    CHECK(got == 3 * histogram[0] + histogram[1] + histogram[2] + histogram[3],
          "above[MYTHREAD + i * THREADS]");

    upc_barrier;
    /* a pointer on thread 1: thread MYTHREAD + 1's elements */
    int theirs = 0, mine = 0;
    for (i = 0; i < N - 1; i++)
        theirs += shifted[MYTHREAD + i * THREADS];
    for (i = 0; i < N - 1; i++)
        mine += counts[1 + MYTHREAD + i * THREADS];
    CHECK(theirs == mine, "shifted[MYTHREAD + i * THREADS] is counts[1 + MYTHREAD + i * THREADS]");
    upc_barrier;

    /* the operand keeps its type: int += double converts after the addition */
    for (i = 0; i < N; i++)
        counts[MYTHREAD + i * THREADS] = 3;
    for (i = 0; i < N; i++)
        counts[MYTHREAD + i * THREADS] += -0.5;
    bad = 0;
    for (i = 0; i < N; i++)
        bad += counts[MYTHREAD + i * THREADS] != 2;
    CHECK(bad == 0, "counts[...] += -0.5 leaves 3 at 2");

    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (i = 0; i < THREADS; i++)
            total += errs[i];
        if (total == 0)
            printf("Success: own_views\n");
    }
    return 0;
}
