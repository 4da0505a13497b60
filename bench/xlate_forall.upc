/* SPDX-License-Identifier: MIT */
/* xlate_forall.upc -- what a upc_forall over a shared array costs in
 * translated code (mupcc compiles this file), against the same update of
 * a private array: a[i] = a[i] + 1 over every element, each thread
 * updating its own.  The translator runs a canonical loop over its owned
 * iterations only and makes a[i] a private access
 * (translator/rewrite_forall.c); the same loop with the affinity cast to
 * shared void * is left to the general code (every iteration tests its
 * affinity, every access tests locality), which is what every upc_forall
 * was before.  Prints, in ns per element this thread updates:
 *   mupc.xlate.forall_private_ns          a plain for loop over a private array
 *   mupc.xlate.forall_ns                  upc_forall ... &a[i], a cyclic array
 *   mupc.xlate.forall_blocked_ns          the same over a shared [256] array
 *   mupc.xlate.forall_general_ns          the cyclic loop, general code
 *   mupc.xlate.forall_blocked_general_ns  the blocked loop, general code
 * (fastest of the rounds; --quick runs fewer). */
#include <upc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define PER_THREAD (1 << 18) /* 1 MiB of ints per thread and array */
#define BLOCK 256
shared int cyc[PER_THREAD * THREADS];
shared [BLOCK] int blk[PER_THREAD * THREADS];
static int priv[PER_THREAD];

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void keep_min(double *best, double t0, double t1)
{
    if ((t1 - t0) / PER_THREAD < *best)
        *best = (t1 - t0) / PER_THREAD;
}

int main(int argc, char **argv)
{
    int quick = argc > 1 && !strcmp(argv[1], "--quick");
    int rounds = quick ? 2 : 9, n = PER_THREAD * THREADS;
    double best[5] = {1e30, 1e30, 1e30, 1e30, 1e30};
    for (int r = 0; r < rounds; r++) {
        double t0 = now_ns();
        for (int i = 0; i < PER_THREAD; i++)
            priv[i] = priv[i] + 1;
        double t1 = now_ns();
        upc_forall (int i = 0; i < n; i++; &cyc[i])
            cyc[i] = cyc[i] + 1;
        double t2 = now_ns();
        upc_forall (int i = 0; i < n; i++; &blk[i])
            blk[i] = blk[i] + 1;
        double t3 = now_ns();
        upc_forall (int i = 0; i < n; i++; (shared void *)&cyc[i])
            cyc[i] = cyc[i] + 1;
        double t4 = now_ns();
        upc_forall (int i = 0; i < n; i++; (shared void *)&blk[i])
            blk[i] = blk[i] + 1;
        double t5 = now_ns();
        keep_min(&best[0], t0, t1);
        keep_min(&best[1], t1, t2);
        keep_min(&best[2], t2, t3);
        keep_min(&best[3], t3, t4);
        keep_min(&best[4], t4, t5);
    }
    int bad = priv[PER_THREAD - 1] != rounds;
    upc_barrier;
    for (int i = MYTHREAD; i < n; i += THREADS * 97)
        bad |= cyc[i] != 2 * rounds || blk[i] != 2 * rounds;
    if (bad) {
        fprintf(stderr, "xlate_forall: thread %d found wrong values\n", MYTHREAD);
        return 1;
    }
    upc_barrier;
    if (MYTHREAD == 0) {
        printf("mupc.xlate.forall_private_ns %.3f\n", best[0]);
        printf("mupc.xlate.forall_ns %.3f\n", best[1]);
        printf("mupc.xlate.forall_blocked_ns %.3f\n", best[2]);
        printf("mupc.xlate.forall_general_ns %.3f\n", best[3]);
        printf("mupc.xlate.forall_blocked_general_ns %.3f\n", best[4]);
    }
    return 0;
}
