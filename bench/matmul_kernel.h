/* SPDX-License-Identifier: MIT */
/* matmul_kernel.h -- the kernel bench/xlate_matmul.upc (UPC, translated)
 * and bench/hand_matmul.c (C against mupc.h) both time: C = A x B for this
 * thread's rows, A and C `shared [N] double [N*THREADS][N]` (row i on
 * thread i % THREADS), B private.  The same loops, the same data. */
#ifndef MUPC_BENCH_MATMUL_KERNEL_H
#define MUPC_BENCH_MATMUL_KERNEL_H

#define MATMUL_N 48 /* columns; rows: MATMUL_N * THREADS */

/* A[i][k] = (i + k) % 7, B[k][j] = (k * j) % 5: C[i][j] is checkable. */
static inline double matmul_a(int i, int k) { return (double)((i + k) % 7); }
static inline double matmul_b(int k, int j) { return (double)((k * j) % 5); }
static inline double matmul_c(int i, int j)
{
    double c = 0;
    for (int k = 0; k < MATMUL_N; k++)
        c += matmul_a(i, k) * matmul_b(k, j);
    return c;
}

#endif
