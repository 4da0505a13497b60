/* SPDX-License-Identifier: MIT */
/* xlate_local.upc -- what a shared read with local affinity costs in
 * translated code (mupcc compiles this file), against the same reads of a
 * private array: random reads of this thread's own elements of a cyclic
 * shared array, the index sequence the same for both.  Prints
 *   mupc.xlate.private.get_ns      ns per private read
 *   mupc.xlate.local.get_ns        ns per shared read a[i * THREADS + MYTHREAD]
 *                                  (the idiom: mupcc knows the element is ours)
 *   mupc.xlate.local_any.get_ns    the same elements through an index
 *                                  computed beforehand (a[j]: the general
 *                                  path divides j by THREADS and tests)
 * (fastest of the rounds; --quick runs fewer reads). */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PER_THREAD 65536 /* 256 KiB of ints per thread */
shared int a[PER_THREAD * THREADS];
static int priv[PER_THREAD];

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    long reads = quick ? 1L << 18 : 1L << 22, rounds = quick ? 2 : 7;
    unsigned *idx = malloc((size_t)reads * sizeof *idx), *full = malloc((size_t)reads * sizeof *full);
    unsigned x = 12345u + (unsigned)MYTHREAD;
    for (long k = 0; k < reads; k++) {
        x = x * 1664525u + 1013904223u;
        idx[k] = (x >> 8) % PER_THREAD;
        full[k] = idx[k] * THREADS + MYTHREAD;
    }
    for (int i = 0; i < PER_THREAD; i++) {
        priv[i] = i;
        a[i * THREADS + MYTHREAD] = i; /* this thread's own elements */
    }
    upc_barrier;
    double best_priv = 1e30, best_local = 1e30, best_any = 1e30;
    long sum = 0;
    for (long r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (long k = 0; k < reads; k++)
            sum += priv[idx[k]];
        double t1 = now_ns();
        for (long k = 0; k < reads; k++)
            sum += a[idx[k] * THREADS + MYTHREAD];
        double t2 = now_ns();
        for (long k = 0; k < reads; k++)
            sum += a[full[k]];
        double t3 = now_ns();
        if ((t1 - t0) / reads < best_priv)
            best_priv = (t1 - t0) / reads;
        if ((t2 - t1) / reads < best_local)
            best_local = (t2 - t1) / reads;
        if ((t3 - t2) / reads < best_any)
            best_any = (t3 - t2) / reads;
    }
    long want = 0;
    for (long k = 0; k < reads; k++)
        want += idx[k];
    if (sum != 3 * rounds * want) {
        fprintf(stderr, "xlate_local: thread %d read wrong values (sum %ld, want %ld)\n", MYTHREAD, sum,
                3 * rounds * want);
        return 1;
    }
    upc_barrier;
    if (MYTHREAD == 0) {
        printf("mupc.xlate.private.get_ns %.3f\n", best_priv);
        printf("mupc.xlate.local.get_ns %.3f\n", best_local);
        printf("mupc.xlate.local_any.get_ns %.3f\n", best_any);
    }
    free(idx);
    free(full);
    return 0;
}
