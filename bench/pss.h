/* SPDX-License-Identifier: MIT */
/*
 * pss.h -- this process's proportional set size (Pss in
 * /proc/self/smaps_rollup, kB): its private pages plus its share of the
 * pages it shares (libraries, MPI's shared-memory segments).  The memory
 * figure of bench/scale and bench/mpi_scale.
 */
#ifndef MUPC_BENCH_PSS_H
#define MUPC_BENCH_PSS_H

#include <stdio.h>

/* -1 where the kernel has no smaps_rollup (before Linux 4.14). */
static inline long bench_pss_kb(void)
{
    char line[256];
    long kb = -1;
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "Pss: %ld kB", &kb) == 1)
            break;
    fclose(f);
    return kb;
}

#endif
