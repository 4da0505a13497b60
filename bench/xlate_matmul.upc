/* SPDX-License-Identifier: MIT */
/* xlate_matmul.upc -- the matmul kernel of matmul_kernel.h in UPC, compiled
 * by mupcc (the translator): prints mupc.xlate.matmul_s, the fastest of the
 * rounds, to compare with bench/hand_matmul.c's mupc.hand.matmul_s. */
#include <upc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "matmul_kernel.h"

#define N MATMUL_N
shared [N] double A[N * THREADS][N];
shared [N] double C[N * THREADS][N];
static double B[N][N];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 && !strcmp(argv[1], "--quick") ? 2 : 7;
    int i, j, k;
    for (k = 0; k < N; k++)
        for (j = 0; j < N; j++)
            B[k][j] = matmul_b(k, j);
    upc_forall (i = 0; i < N * THREADS; i++; &A[i][0])
        for (k = 0; k < N; k++)
            A[i][k] = matmul_a(i, k);
    upc_barrier;
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = now_s();
        upc_forall (i = 0; i < N * THREADS; i++; &C[i][0])
            for (j = 0; j < N; j++) {
                C[i][j] = 0;
                for (k = 0; k < N; k++)
                    C[i][j] += A[i][k] * B[k][j];
            }
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    upc_forall (i = 0; i < N * THREADS; i++; &C[i][0])
        for (j = 0; j < N; j++)
            if (C[i][j] != matmul_c(i, j)) {
                fprintf(stderr, "xlate_matmul: C[%d][%d] = %g, want %g\n", i, j, C[i][j], matmul_c(i, j));
                return 1;
            }
    upc_barrier;
    if (MYTHREAD == 0)
        printf("mupc.xlate.matmul_s %.6f\n", best);
    return 0;
}
