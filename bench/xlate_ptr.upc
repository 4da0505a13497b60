/* SPDX-License-Identifier: MIT */
/* xlate_ptr.upc -- what a read through a pointer-to-shared costs in
 * translated code (mupcc compiles this file): random reads of a cyclic
 * array from upc_all_alloc, p[j] with j computed beforehand (so the
 * translated code does the general arithmetic: a division by THREADS and
 * a table look-up), of this thread's elements and of the next thread's
 * (on the node with shm = on), against the same reads of a private array,
 * the index sequence the same for all three.  Prints
 *   mupc.xlate.ptr_private_get_ns ns per private read (the baseline: the
 *                                 same reads in the same program; bench/matrix's
 *                                 mupc.private.get_ns reads volatile longs)
 *   mupc.xlate.ptr_local_get_ns   ns per read p[j], element of this thread
 *   mupc.xlate.ptr_shm_get_ns     ns per read p[j], element of the next thread
 *   mupc.xlate.dir_local_get_ns   ns per read rows[MYTHREAD].arr[j]: this thread's
 *                                 row of upc_alloc'd ints, reached through a
 *                                 pointer-to-shared stored in shared memory
 *                                 (NAS MG's and FT's pattern; the translator
 *                                 reads the pointer once per loop)
 *   mupc.xlate.privatized_stencil_ns ns per element of out[i] = in[i-1] +
 *                                 in[i] + in[i+1] over this thread's rows
 *                                 through local pointers cast from
 *                                 rows[MYTHREAD].arr and outs[MYTHREAD].arr
 *                                 (as NAS MG's optimized variant does)
 *   mupc.xlate.dir_stencil_ns     the same loop written naively, through
 *                                 rows[MYTHREAD].arr[i] (NAS MG's naive
 *                                 resid: the translator runs a copy of the
 *                                 loop with plain loads and stores,
 *                                 rewrite_version.c)
 * (fastest of the rounds; --quick runs fewer reads). */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PER_THREAD 65536 /* 256 KiB of ints per thread, as bench/xlate_local */
#define STENCIL_PASSES 8
static int priv[PER_THREAD];

typedef struct {
    shared [] int *arr;
} row_t;
shared row_t rows[THREADS], outs[THREADS];

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* sum of p[at[k]] over the reads, timed; *best keeps the fastest per read */
static long timed_reads(shared int *p, const unsigned *at, long reads, double *best)
{
    long sum = 0;
    double t0 = now_ns();
    for (long k = 0; k < reads; k++)
        sum += p[at[k]];
    double per = (now_ns() - t0) / reads;
    if (per < *best)
        *best = per;
    return sum;
}

/* the same through rows[MYTHREAD].arr */
static long timed_row_reads(const unsigned *at, long reads, double *best)
{
    long sum = 0;
    double t0 = now_ns();
    for (long k = 0; k < reads; k++)
        sum += rows[MYTHREAD].arr[at[k]];
    double per = (now_ns() - t0) / reads;
    if (per < *best)
        *best = per;
    return sum;
}

/* STENCIL_PASSES passes of the 3-point stencil over this thread's rows,
 * written naively or through local pointers; *best keeps the fastest per
 * element; returns the sum of the last pass's results */
static long timed_stencil(int naive, double *best)
{
    const int n = PER_THREAD;
    int *in = (int *)rows[MYTHREAD].arr, *out = (int *)outs[MYTHREAD].arr;
    double t0 = now_ns();
    for (int pass = 0; pass < STENCIL_PASSES; pass++) {
        if (naive)
            for (int i = 1; i < n - 1; i++)
                outs[MYTHREAD].arr[i] = rows[MYTHREAD].arr[i - 1] + rows[MYTHREAD].arr[i] + rows[MYTHREAD].arr[i + 1];
        else
            for (int i = 1; i < n - 1; i++)
                out[i] = in[i - 1] + in[i] + in[i + 1];
    }
    double per = (now_ns() - t0) / ((double)STENCIL_PASSES * (n - 2));
    if (per < *best)
        *best = per;
    long sum = 0;
    for (int i = 1; i < n - 1; i++)
        sum += out[i];
    return sum;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    long reads = quick ? 1L << 18 : 1L << 22, rounds = quick ? 2 : 7;
    unsigned *idx = malloc((size_t)reads * sizeof *idx);
    unsigned *own = malloc((size_t)reads * sizeof *own), *next = malloc((size_t)reads * sizeof *next);
    shared int *p = upc_all_alloc(PER_THREAD * THREADS, sizeof(int));
    unsigned x = 12345u + (unsigned)MYTHREAD;
    int neighbour = (MYTHREAD + 1) % THREADS;
    for (long k = 0; k < reads; k++) {
        x = x * 1664525u + 1013904223u;
        idx[k] = (x >> 8) % PER_THREAD;
        own[k] = idx[k] * THREADS + MYTHREAD;
        next[k] = idx[k] * THREADS + neighbour;
    }
    rows[MYTHREAD].arr = (shared [] int *)upc_alloc(PER_THREAD * sizeof(int));
    outs[MYTHREAD].arr = (shared [] int *)upc_alloc(PER_THREAD * sizeof(int));
    for (int i = 0; i < PER_THREAD; i++) {
        priv[i] = i;
        p[i * THREADS + MYTHREAD] = i; /* this thread's own elements */
        rows[MYTHREAD].arr[i] = i;
    }
    upc_barrier;
    double best_priv = 1e30, best_local = 1e30, best_shm = 1e30, best_row = 1e30;
    double best_cast_stencil = 1e30, best_row_stencil = 1e30;
    long sum = 0, stencil_sum = 0;
    for (long r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (long k = 0; k < reads; k++)
            sum += priv[idx[k]];
        double per = (now_ns() - t0) / reads;
        if (per < best_priv)
            best_priv = per;
        sum += timed_reads(p, own, reads, &best_local);
        sum += timed_reads(p, next, reads, &best_shm);
        sum += timed_row_reads(idx, reads, &best_row);
        stencil_sum += timed_stencil(0, &best_cast_stencil) - timed_stencil(1, &best_row_stencil);
    }
    long want = 0;
    for (long k = 0; k < reads; k++)
        want += idx[k];
    if (stencil_sum != 0 || timed_stencil(1, &best_row_stencil) != 3L * (PER_THREAD - 1) * (PER_THREAD - 2) / 2) {
        fprintf(stderr, "xlate_ptr: thread %d's naive stencil differs from the privatized one\n", MYTHREAD);
        return 1;
    }
    if (sum != 4 * rounds * want) {
        fprintf(stderr, "xlate_ptr: thread %d read wrong values (sum %ld, want %ld)\n", MYTHREAD, sum,
                4 * rounds * want);
        return 1;
    }
    upc_barrier;
    if (MYTHREAD == 0) {
        printf("mupc.xlate.ptr_private_get_ns %.3f\n", best_priv);
        printf("mupc.xlate.ptr_local_get_ns %.3f\n", best_local);
        printf("mupc.xlate.ptr_shm_get_ns %.3f\n", best_shm);
        printf("mupc.xlate.dir_local_get_ns %.3f\n", best_row);
        printf("mupc.xlate.privatized_stencil_ns %.3f\n", best_cast_stencil);
        printf("mupc.xlate.dir_stencil_ns %.3f\n", best_row_stencil);
    }
    upc_free(rows[MYTHREAD].arr);
    upc_free(outs[MYTHREAD].arr);
    upc_all_free(p);
    free(idx);
    free(own);
    free(next);
    return 0;
}
