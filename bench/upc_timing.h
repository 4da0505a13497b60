/* SPDX-License-Identifier: MIT */
/*
 * upc_timing.h -- timing.h for the UPC benchmarks: a collective call
 * timed on every thread, each batch closed by a barrier.
 */
#ifndef MUPC_BENCH_UPC_TIMING_H
#define MUPC_BENCH_UPC_TIMING_H

#include <mupc_upc.h>

#include "timing.h"

typedef void (*bench_op_fn)(void *arg);

/* Median over batches of the per-call wall time, each batch closed by a
 * barrier, so the figure is per call on the slowest thread. */
static inline double bench_time_calls(const bench_plan_t *plan, int iters, bench_op_fn op,
                                      void *arg)
{
    double means[64];
    for (int i = 0; i < iters / 10 + 1; i++)
        op(arg); /* warm up */
    upc_barrier();
    for (int b = 0; b < plan->batches; b++) {
        double t0 = bench_now_us();
        for (int i = 0; i < iters; i++)
            op(arg);
        upc_barrier();
        means[b] = (bench_now_us() - t0) / iters;
    }
    return bench_median(means, plan->batches);
}

#endif
