/* SPDX-License-Identifier: MIT */
/*
 * hybrid.upc -- UPC with OpenMP: each UPC thread's OpenMP team works on
 * the thread's own block, UPC moves data between threads.
 *
 *   mupcc -O2 -fopenmp -o hybrid examples/hybrid.upc
 *   OMP_NUM_THREADS=2 mupcrun -n 4 ./hybrid [ELEMENTS_PER_THREAD] [STEPS]
 *
 * The vector is a blocked shared array, one block per UPC thread.  Each
 * step, the team of each UPC thread smooths its own block through a
 * pointer-to-local (a plain C loop, `#pragma omp parallel for`), with the
 * two cells beyond the block's ends that the UPC thread itself read from
 * its neighbours' blocks before the parallel region; then the UPC threads
 * meet at a barrier.  Only the UPC thread (the one that runs main) makes
 * UPC calls: shared reads, upc_barrier, upc_memget; the OpenMP workers
 * touch private memory only (doc/upc-support.md, "UPC and OpenMP").  At
 * the end thread 0 gathers the vector and checks it against the same
 * steps done sequentially.
 */
#include <upc.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_ELEMENTS 200000

shared [MAX_ELEMENTS] double v[THREADS][MAX_ELEMENTS]; /* row t on thread t */

static double initial(size_t i) { return (double)(i % 11) - 5.0 + (i % 97 == 0 ? 100.0 : 0.0); }

/* One smoothing step of n cells with the halo cells left and right. */
static void smooth(double *next, const double *cur, size_t n, double left, double right)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        double l = i ? cur[i - 1] : left, r = i + 1 < n ? cur[i + 1] : right;
        next[i] = 0.25 * l + 0.5 * cur[i] + 0.25 * r;
    }
}

static int check(size_t n, int steps)
{
    size_t total = n * THREADS;
    double *all = malloc(total * sizeof *all), *seq = malloc(total * sizeof *seq),
           *tmp = malloc(total * sizeof *tmp);
    if (!all || !seq || !tmp) {
        fprintf(stderr, "hybrid: out of memory\n");
        return 1;
    }
    for (int t = 0; t < THREADS; t++)
        upc_memget(all + (size_t)t * n, &v[t][0], n * sizeof(double));
    for (size_t i = 0; i < total; i++)
        seq[i] = initial(i);
    for (int s = 0; s < steps; s++) {
        for (size_t i = 0; i < total; i++) {
            double l = i ? seq[i - 1] : 0.0, r = i + 1 < total ? seq[i + 1] : 0.0;
            tmp[i] = 0.25 * l + 0.5 * seq[i] + 0.25 * r;
        }
        double *x = seq;
        seq = tmp, tmp = x;
    }
    double err = 0;
    for (size_t i = 0; i < total; i++)
        err = fmax(err, fabs(all[i] - seq[i]));
    printf("hybrid: %d UPC threads x %d OpenMP threads, %zu elements, %d steps, max error %.3g vs "
           "sequential: %s\n",
           THREADS, omp_get_max_threads(), total, steps, err, err < 1e-12 ? "OK" : "WRONG");
    free(all), free(seq), free(tmp);
    return err < 1e-12 ? 0 : 1;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 100000;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    if (n < 1 || n > MAX_ELEMENTS || steps < 0) {
        if (MYTHREAD == 0)
            fprintf(stderr, "usage: hybrid [ELEMENTS_PER_THREAD (1-%d)] [STEPS (>= 0)]\n", MAX_ELEMENTS);
        return 2;
    }
    double *mine = (double *)&v[MYTHREAD][0]; /* this thread's block, as a private pointer */
    double *next = malloc((size_t)n * sizeof *next);
    if (!next) {
        fprintf(stderr, "hybrid: out of memory\n");
        return 1;
    }
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        mine[i] = initial((size_t)MYTHREAD * (size_t)n + (size_t)i);
    upc_barrier;
    for (int s = 0; s < steps; s++) {
        /* UPC, by the UPC thread: the halo from the neighbours' blocks */
        double left = MYTHREAD ? v[MYTHREAD - 1][n - 1] : 0.0;
        double right = MYTHREAD + 1 < THREADS ? v[MYTHREAD + 1][0] : 0.0;
        upc_barrier; /* everyone has read before anyone writes */
        smooth(next, mine, (size_t)n, left, right); /* OpenMP, on private memory */
#pragma omp parallel for schedule(static)
        for (long i = 0; i < n; i++)
            mine[i] = next[i];
        upc_barrier;
    }
    free(next);
    return MYTHREAD == 0 ? check((size_t)n, steps) : 0;
}
