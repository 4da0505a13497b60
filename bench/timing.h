/* SPDX-License-Identifier: MIT */
/*
 * timing.h -- what the benchmarks share: a monotonic clock, the median of
 * batch means, and the one output format, `name value`, one per line.
 *
 * These machines are noisy, so every figure is the median over batches,
 * and each batch is the mean over many operations.
 */
#ifndef MUPC_BENCH_TIMING_H
#define MUPC_BENCH_TIMING_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts them). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Batch counts: --quick (make check's smoke test) only proves the
 * benchmark runs and prints every figure. */
typedef struct bench_plan {
    int quick;
    int batches;
} bench_plan_t;

static inline bench_plan_t bench_plan(int argc, char **argv)
{
    bench_plan_t p = {0, 21};
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--quick") == 0)
            p = (bench_plan_t){1, 3};
    return p;
}

/* Iterations per batch, cut down in quick mode. */
static inline int bench_iters(const bench_plan_t *p, int full)
{
    return p->quick ? (full / 10 > 0 ? full / 10 : 1) : full;
}

/* The figure's name depends on the thread count: "x.y_us" with 2
 * threads (the reference case), "x.y_Nt_us" otherwise. */
static inline void bench_report(const char *name2, const char *unit, int threads, double value)
{
    if (threads == 2)
        printf("%s_%s %.3f\n", name2, unit, value);
    else
        printf("%s_%dt_%s %.3f\n", name2, threads, unit, value);
    fflush(stdout);
}

/* "x.y 1.234" with 2 threads, "x_4t_y 1.234" with 4: the barriers'
 * names as in the issue ("mupc.barrier.us", "mupc.barrier_4t_us") and the
 * ratios of barriers timed in pairs ("injob.barrier.ratio"). */
static inline void bench_report_dotted(const char *name, const char *unit, int threads,
                                       double value)
{
    if (threads == 2)
        printf("%s.%s %.3f\n", name, unit, value);
    else
        printf("%s_%dt_%s %.3f\n", name, threads, unit, value);
    fflush(stdout);
}

static inline void bench_report_barrier(const char *prefix, int threads, double value)
{
    bench_report_dotted(prefix, "us", threads, value);
}

#endif
