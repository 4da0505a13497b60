/* SPDX-License-Identifier: MIT */
/* multidim.upc -- multidimensional shared arrays (UPC 1.3 §6.5.2.1).
 * The blocking applies to the elements in row-major order: element
 * [i][j] of `shared [B] T x[R][C]` is linear element k = i*C + j and has
 * affinity to thread (k / B) mod THREADS, phase k mod B (block size 1 when
 * there is no layout qualifier).  THREADS appears once, in one dimension. */
#include <upc.h>
#include <stdio.h>

#define NAME "multidim"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

shared int m[THREADS][8];            /* block size 1: [i][j] on (i*8+j) % THREADS */
shared [8] int r[4][8 * THREADS];    /* [i][j]: k = i*8*THREADS + j, thread j/8 */
shared int t3[THREADS][2][3];        /* [i][j][k] on (i*6 + j*3 + k) % THREADS */
shared int errs[THREADS];

int main(void)
{
    int errors = 0;
    int i, j, k, total;

    upc_forall (i = 0; i < THREADS; i++; continue)
        upc_forall (j = 0; j < 8; j++; &m[i][j])   /* controlling: the inner one */
            m[i][j] = 100 * i + j + 10000 * MYTHREAD;
    for (i = 0; i < 4; i++)
        upc_forall (j = 0; j < 8 * THREADS; j++; &r[i][j])
            r[i][j] = 1000 * i + j + 100000 * MYTHREAD;
    for (i = 0; i < THREADS; i++)
        for (j = 0; j < 2; j++)
            upc_forall (k = 0; k < 3; k++; &t3[i][j][k])
                t3[i][j][k] = i * 6 + j * 3 + k;
    upc_barrier;

    for (i = 0; i < THREADS; i++)
        for (j = 0; j < 8; j++) {
            int owner = (i * 8 + j) % THREADS;
            CHECK(upc_threadof(&m[i][j]) == (size_t)owner, "upc_threadof(&m[i][j]) == (i*8+j) % THREADS");
            CHECK(upc_phaseof(&m[i][j]) == 0, "block size 1: phase 0");
            CHECK(m[i][j] == 100 * i + j + 10000 * owner, "m[i][j] written by its owner");
            CHECK(&m[i][j] == &m[0][0] + (i * 8 + j), "&m[i][j] == &m[0][0] + i*8 + j");
        }
    for (i = 0; i < 4; i++)
        for (j = 0; j < 8 * THREADS; j++) {
            CHECK(upc_threadof(&r[i][j]) == (size_t)(j / 8), "upc_threadof(&r[i][j]) == j/8");
            CHECK(upc_phaseof(&r[i][j]) == (size_t)(j % 8), "upc_phaseof(&r[i][j]) == j%8");
            CHECK(r[i][j] == 1000 * i + j + 100000 * (j / 8), "r[i][j] written by its owner");
        }
    for (i = 0; i < THREADS; i++)
        for (j = 0; j < 2; j++)
            for (k = 0; k < 3; k++) {
                CHECK(upc_threadof(&t3[i][j][k]) == (size_t)((i * 6 + j * 3 + k) % THREADS),
                      "upc_threadof(&t3[i][j][k]) follows row-major order");
                CHECK(t3[i][j][k] == i * 6 + j * 3 + k, "t3[i][j][k] value");
            }

    /* a row of m is itself a shared array: pointer to its first element */
    {
        shared int *row = m[THREADS - 1];
        CHECK(row == &m[THREADS - 1][0], "m[i] decays to &m[i][0]");
        CHECK(row[7] == m[THREADS - 1][7], "indexing through a pointer to a row");
        CHECK(upc_threadof(&row[3]) == (size_t)(((THREADS - 1) * 8 + 3) % THREADS),
              "pointer arithmetic from a row follows the flattened layout");
    }

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
