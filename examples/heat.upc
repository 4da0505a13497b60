/* SPDX-License-Identifier: MIT */
/*
 * heat.upc -- 1-D heat diffusion (Jacobi), the quick-start demo.
 *
 *   mupcrun -n 4 examples/heat [CELLS_PER_THREAD] [STEPS]
 *
 * The rod is a blocked shared array, one row of MAX_CELLS per thread (the
 * first CELLS_PER_THREAD are used).  Each step a thread reads its two halo
 * cells from its neighbours' rows with fine-grained remote reads, updates
 * its own cells through a pointer-to-local and meets the others at a
 * barrier.  At the end thread 0 collects the rod with one bulk upc_memget
 * per thread, checks it against a sequential run and prints what happened
 * and how long it took.
 */
#include <upc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CELLS 100000

shared [MAX_CELLS] double rod[THREADS][MAX_CELLS]; /* row t on thread t */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double initial(size_t i, size_t n) { return i == n / 3 ? 1000.0 : (i % 7) * 0.5; }

static void step(double *next, const double *cur, size_t n, double left, double right)
{
    for (size_t i = 0; i < n; i++) {
        double l = i ? cur[i - 1] : left, r = i + 1 < n ? cur[i + 1] : right;
        next[i] = cur[i] + 0.25 * (l - 2 * cur[i] + r);
    }
}

/* The whole rod on one thread, for the check. */
static double *sequential(size_t total, int steps)
{
    double *a = malloc(total * sizeof *a), *b = malloc(total * sizeof *b);
    for (size_t i = 0; i < total; i++)
        a[i] = initial(i, total);
    for (int s = 0; s < steps; s++) {
        step(b, a, total, a[0], a[total - 1]);
        double *t = a;
        a = b;
        b = t;
    }
    free(b);
    return a;
}

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 20000;
    int steps = argc > 2 ? atoi(argv[2]) : 200;
    if (n < 2 || n > MAX_CELLS) {
        if (MYTHREAD == 0)
            fprintf(stderr, "heat: cells per thread must be 2..%d\n", MAX_CELLS);
        return 2;
    }
    size_t total = n * (size_t)THREADS;
    double *cur = (double *)&rod[MYTHREAD][0]; /* my row, which has affinity to me */
    double *next = malloc(n * sizeof *next);
    for (size_t i = 0; i < n; i++)
        cur[i] = initial((size_t)MYTHREAD * n + i, total);
    upc_barrier;

    double t0 = now();
    long remote_gets = 0;
    for (int s = 0; s < steps; s++) {
        /* halo: the neighbours' edge cells (the rod's ends are insulated) */
        double left = MYTHREAD ? rod[MYTHREAD - 1][n - 1] : cur[0];
        double right = MYTHREAD + 1 < THREADS ? rod[MYTHREAD + 1][0] : cur[n - 1];
        remote_gets += (MYTHREAD > 0) + (MYTHREAD + 1 < THREADS);
        step(next, cur, n, left, right);
        upc_barrier; /* everyone has read the old halo */
        memcpy(cur, next, n * sizeof *cur);
        upc_barrier; /* everyone has written the new values */
    }
    double elapsed = now() - t0;

    /* thread 0 collects the rod with bulk gets and checks it */
    int ok = 1;
    if (MYTHREAD == 0) {
        double *whole = malloc(total * sizeof *whole), *want = sequential(total, steps);
        for (int t = 0; t < THREADS; t++)
            upc_memget(whole + (size_t)t * n, &rod[t][0], n * sizeof(double));
        double worst = 0;
        for (size_t i = 0; i < total; i++) {
            double d = whole[i] > want[i] ? whole[i] - want[i] : want[i] - whole[i];
            worst = d > worst ? d : worst;
        }
        ok = worst < 1e-9;
        printf("heat: %d UPC threads, %zu cells, %d steps: %.3f s (%.1f us/step), "
               "%ld remote halo reads per thread, max error %.2e vs sequential: %s\n",
               THREADS, total, steps, elapsed, elapsed * 1e6 / steps, remote_gets, worst,
               ok ? "OK" : "WRONG");
        free(whole);
        free(want);
    }
    free(next);
    upc_barrier;
    return ok ? 0 : 1;
}
