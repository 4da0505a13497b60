/* SPDX-License-Identifier: MIT */
/*
 * gasp.c -- what GASP costs: the 8-byte relaxed remote get of bench/core
 * (cache off), built three ways from this one file (bench/Makefile.inc):
 *
 *   bench/gasp_nohooks   libmupc with its GASP hooks compiled out
 *                        (-DMUPCI_GASP=0)          mupc.gasp.get_nohooks_us
 *   bench/gasp_hooks     the normal libmupc, no --profile flag
 *                                                  mupc.gasp.get_hooks_us
 *   bench/gasp_count     --profile with a tool that only counts events
 *                        (bench/gasp_count_tool.c)  mupc.gasp.get_count_us
 *
 *   mupcrun -n 2 bench/gasp_hooks [--quick]
 *
 * bench/run-bench runs the three in turn, several rounds, and compares
 * medians (gasp.overhead.none_pct, gasp.overhead.count_pct).
 */
#include <mupc_upc.h>

#include "timing.h"

#ifndef GASP_VARIANT
#error "build with -DGASP_VARIANT=\"nohooks\" (or hooks, count)"
#endif

enum { ITERS = 2000 };

MUPC_SHARED_ARRAY(word, long, 1, 1, MUPC_PER_THREAD)

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    if (THREADS < 2) {
        fprintf(stderr, "bench/gasp: needs 2 or more threads\n");
        return 1;
    }
    MUPC_PUT(long, MUPC_ELEM(word, MYTHREAD), 4242L + MYTHREAD);
    upc_barrier();
    if (MYTHREAD == 0) {
        mupc_ptr_t target = MUPC_ELEM(word, 1);
        int iters = bench_iters(&plan, ITERS);
        double means[64];
        for (int b = 0; b < plan.batches; b++) {
            long sum = 0;
            double t0 = bench_now_us();
            for (int i = 0; i < iters; i++)
                sum += MUPC_GET(long, target);
            means[b] = (bench_now_us() - t0) / iters;
            if (sum != 4243L * iters) {
                fprintf(stderr, "bench/gasp: remote get read %ld, expected 4243\n", sum / iters);
                upc_global_exit(1);
            }
        }
        printf("mupc.gasp.get_%s_us %.3f\n", GASP_VARIANT, bench_median(means, plan.batches));
    }
    upc_barrier();
    return 0;
}
