/* SPDX-License-Identifier: MIT */
/* xlate_kernel.upc -- a bucket-count-and-rank kernel (the heart of the
 * NAS IS benchmark) written twice: naively, every access through
 * pointers-to-shared as a UPC programmer first writes it, and tuned, with
 * this thread's data privatized (cast to private pointers) and the other
 * threads' counts fetched with upc_memget.  mupcc compiles both; the
 * ranks they compute must agree.  Prints
 *   mupc.xlate.naive_kernel_s   seconds per ranking, naive
 *   mupc.xlate.tuned_kernel_s   seconds per ranking, tuned
 * (fastest of the rounds; --quick ranks fewer keys).
 *
 * Keys are dealt cyclically (key[i] on thread i % THREADS); each thread
 * counts its keys per bucket into its row of a shared [NB] count table,
 * then computes where each of its buckets starts in the global order (all
 * threads' smaller buckets, then the same bucket of lower threads), then
 * ranks its keys in order. */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NB 1024          /* buckets */
#define KEY_BITS 20      /* keys in [0, 2^20) */
#define SHIFT (KEY_BITS - 10)
shared long rank_sums[THREADS];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* count: shared [NB] int[NB * THREADS], row t is thread t's histogram */
static void rank_naive(shared int *key, shared int *rank, shared [NB] int *count, long n)
{
    int start[NB];
    for (int b = 0; b < NB; b++)
        count[MYTHREAD * NB + b] = 0;
    upc_forall (long i = 0; i < n; i++; &key[i])
        count[MYTHREAD * NB + (key[i] >> SHIFT)]++;
    upc_barrier;
    long before = 0;
    for (int b = 0; b < NB; b++) {
        long at = before;
        for (int t = 0; t < THREADS; t++) {
            if (t == MYTHREAD)
                start[b] = (int)at;
            at += count[t * NB + b];
        }
        before = at;
    }
    upc_forall (long i = 0; i < n; i++; &key[i])
        rank[i] = start[key[i] >> SHIFT]++;
    upc_barrier;
}

static void rank_tuned(shared int *key, shared int *rank, shared [NB] int *count, long n)
{
    int start[NB], hist[NB], *all = malloc(sizeof(int) * NB * THREADS);
    long mine = (n - MYTHREAD + THREADS - 1) / THREADS; /* keys of this thread */
    const int *k = (const int *)&key[MYTHREAD]; /* this thread's keys, in order */
    int *r = (int *)&rank[MYTHREAD];
    memset(hist, 0, sizeof hist);
    for (long j = 0; j < mine; j++)
        hist[k[j] >> SHIFT]++;
    upc_memput(&count[MYTHREAD * NB], hist, sizeof hist);
    upc_barrier;
    for (int t = 0; t < THREADS; t++)
        upc_memget(all + t * NB, &count[t * NB], sizeof hist);
    long before = 0;
    for (int b = 0; b < NB; b++) {
        long at = before;
        for (int t = 0; t < THREADS; t++) {
            if (t == MYTHREAD)
                start[b] = (int)at;
            at += all[t * NB + b];
        }
        before = at;
    }
    for (long j = 0; j < mine; j++)
        r[j] = start[k[j] >> SHIFT]++;
    free(all);
    upc_barrier;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    long per = quick ? 1L << 16 : 1L << 21, n = per * THREADS, rounds = quick ? 2 : 7;
    shared int *key = upc_all_alloc(n, sizeof(int));
    shared int *rank = upc_all_alloc(n, sizeof(int));
    shared int *tuned = upc_all_alloc(n, sizeof(int));
    shared [NB] int *count = upc_all_alloc(THREADS, NB * sizeof(int));
    unsigned x = 777u + (unsigned)MYTHREAD;
    upc_forall (long i = 0; i < n; i++; &key[i]) {
        x = x * 1664525u + 1013904223u;
        key[i] = (int)(x >> (32 - KEY_BITS));
    }
    upc_barrier;
    double best_naive = 1e30, best_tuned = 1e30;
    for (long r = 0; r < rounds; r++) {
        double t0 = now_s();
        rank_naive(key, rank, count, n);
        double t1 = now_s();
        rank_tuned(key, tuned, count, n);
        double t2 = now_s();
        if (t1 - t0 < best_naive)
            best_naive = t1 - t0;
        if (t2 - t1 < best_tuned)
            best_tuned = t2 - t1;
    }
    /* both rank the same way, and the ranks are 0..n-1 (their sum says
     * so, given each lies in range and the two variants agree) */
    long bad = 0, sum = 0;
    upc_forall (long i = 0; i < n; i++; &key[i]) {
        bad += rank[i] != tuned[i] || rank[i] < 0 || rank[i] >= n;
        sum += rank[i];
    }
    rank_sums[MYTHREAD] = sum;
    upc_barrier;
    long total = 0;
    for (int t = 0; t < THREADS; t++)
        total += rank_sums[t];
    if (bad || total != n * (n - 1) / 2) {
        fprintf(stderr, "xlate_kernel: thread %d: %ld ranks differ or lie outside 0..%ld, "
                "or they are not a permutation (sum %ld, want %ld)\n",
                MYTHREAD, bad, n - 1, total, n * (n - 1) / 2);
        return 1;
    }
    if (MYTHREAD == 0) {
        printf("mupc.xlate.naive_kernel_s %.6f\n", best_naive);
        printf("mupc.xlate.tuned_kernel_s %.6f\n", best_tuned);
    }
    upc_all_free(key);
    upc_all_free(rank);
    upc_all_free(tuned);
    upc_all_free(count);
    return 0;
}
