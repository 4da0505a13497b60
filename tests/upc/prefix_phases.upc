/* SPDX-License-Identifier: MIT */
/* prefix_phases.upc -- upc_all_prefix_reduce with dst and src starting at
 * different threads or phases (UPC 1.3 collectives library §7.3.2 asks
 * only that both have the block size blk_size; Berkeley's try_prefix
 * tries every offset): each dst element is the sum of the src elements up
 * to it, at 1..4 threads, blocked and cyclic, with UPC_NONCOMM_FUNC too. */
#include <upc.h>
#include <upc_collective.h>
#include <stdio.h>

#define NAME "prefix_phases"
#define B 3
#define N (5 * B)

shared [B] long src[N * THREADS];
shared [B] long dst[(N + B) * THREADS];
shared long csrc[N * THREADS];
shared long cdst[(N + 1) * THREADS];
shared int errs[THREADS];

static long sub_noncomm(long a, long b) { return a + b; } /* + in order */

int main(void)
{
    int errors = 0;
    upc_forall (int i = 0; i < N * THREADS; i++; &src[i])
        src[i] = i + 1;
    upc_forall (int i = 0; i < N * THREADS; i++; &csrc[i])
        csrc[i] = 2 * i + 1;
    upc_barrier;
    for (int off = 0; off <= B; off++) {
        int n = N * THREADS - B;
        upc_all_prefix_reduceL(&dst[off], &src[1], UPC_ADD, n, B, NULL,
                               UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        for (int i = 0; i < n; i++) { /* sum of 2..i+2 */
            long want = (long)(i + 2) * (i + 3) / 2 - 1;
            if (MYTHREAD == 0 && dst[off + i] != want) {
                if (errors++ < 5)
                    printf("Error: %s: blocked, offset %d: dst[%d] = %ld, want %ld\n", NAME, off, i,
                           (long)dst[off + i], want);
            }
        }
        upc_all_prefix_reduceL(&cdst[off % 2], &csrc[0], UPC_NONCOMM_FUNC, n, 1, sub_noncomm,
                               UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
        for (int i = 0; i < n; i++) { /* sum of the first i+1 odd numbers */
            long want = (long)(i + 1) * (i + 1);
            if (MYTHREAD == 0 && cdst[off % 2 + i] != want) {
                if (errors++ < 5)
                    printf("Error: %s: cyclic, offset %d: dst[%d] = %ld, want %ld\n", NAME,
                           off % 2, i, (long)cdst[off % 2 + i], want);
            }
        }
    }
    errs[MYTHREAD] = errors;
    upc_barrier;
    int total = 0;
    for (int t = 0; t < THREADS; t++)
        total += errs[t];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
