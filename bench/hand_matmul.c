/* SPDX-License-Identifier: MIT */
/* hand_matmul.c -- the matmul kernel of matmul_kernel.h written by hand
 * against mupc.h (through the <mupc_upc.h> macro layer), the way translated code
 * was written before the translator: prints mupc.hand.matmul_s, the
 * fastest of the rounds (see bench/xlate_matmul.upc). */
#include <mupc_upc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "matmul_kernel.h"

#define N MATMUL_N
/* shared [N] double A[N*THREADS][N], C[N*THREADS][N]: N*N per thread */
MUPC_SHARED_ARRAY(A, double, N * N, N, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(C, double, N * N, N, MUPC_PER_THREAD)
static double B[N][N];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define AT(name, i, j) MUPC_ELEM(name, (size_t)(i) * N + (size_t)(j))

int main(int argc, char **argv)
{
    int rounds = argc > 1 && !strcmp(argv[1], "--quick") ? 2 : 7;
    for (int k = 0; k < N; k++)
        for (int j = 0; j < N; j++)
            B[k][j] = matmul_b(k, j);
    for (int i = MYTHREAD; i < N * THREADS; i += THREADS) /* row i is on thread i % THREADS */
        for (int k = 0; k < N; k++)
            MUPC_PUT(double, AT(A, i, k), matmul_a(i, k));
    upc_barrier();
    double best = 1e30;
    for (int r = 0; r < rounds; r++) {
        double t0 = now_s();
        for (int i = MYTHREAD; i < N * THREADS; i += THREADS)
            for (int j = 0; j < N; j++) {
                MUPC_PUT(double, AT(C, i, j), 0.0);
                for (int k = 0; k < N; k++)
                    MUPC_PUT(double, AT(C, i, j),
                             MUPC_GET(double, AT(C, i, j)) + MUPC_GET(double, AT(A, i, k)) * B[k][j]);
            }
        double t = now_s() - t0;
        best = t < best ? t : best;
    }
    for (int i = MYTHREAD; i < N * THREADS; i += THREADS)
        for (int j = 0; j < N; j++)
            if (MUPC_GET(double, AT(C, i, j)) != matmul_c(i, j)) {
                fprintf(stderr, "hand_matmul: C[%d][%d] wrong\n", i, j);
                return 1;
            }
    upc_barrier();
    if (MYTHREAD == 0)
        printf("mupc.hand.matmul_s %.6f\n", best);
    return 0;
}
