/* SPDX-License-Identifier: MIT */
/* bupc_extensions.upc -- the Berkeley UPC extensions libmupc provides
 * (doc/extensions.md): <bupc_extensions.h> timers, thread distance,
 * bupc_poll, the bupc_atomic families under contention from every
 * thread, the _async transfers completed by bupc_waitsync/trysync and
 * their array and implicit-handle forms, pointer-to-shared helpers; and
 * every value collective of <bupc_collectivev.h>, results checked. */
#include <upc.h>
#include <bupc_extensions.h>
#include <bupc_collectivev.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME "bupc_extensions"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define ROUNDS 50
#if !defined(MUPC_BUPC_EXTENSIONS) || BUPC_COLLECTIVEV_VERSION_MAJOR != 1
#error the headers' feature macros are missing
#endif

shared int64_t counter64;
shared uint32_t counter32;
shared int icount;
shared unsigned long bits;
shared long swapped;
shared int winner;
shared unsigned int flipper[THREADS];
shared [16] char blocks[16 * THREADS];
shared [16] char copies[16 * THREADS];
shared [16] char marks[16 * THREADS];
shared double cells[THREADS];
shared int errs[THREADS];

typedef struct pair { int a; double b; } pair_t;

int main(void)
{
    int errors = 0, i, total;
    int right = (MYTHREAD + 1) % THREADS, left = (MYTHREAD + THREADS - 1) % THREADS;

    /* ---- timers ---- */
    bupc_tick_t t0 = bupc_ticks_now(), t1 = t0;
    for (i = 0; i < 1000 && t1 == t0; i++)
        t1 = bupc_ticks_now();
    CHECK(t1 >= t0, "bupc_ticks_now is monotonic");
    CHECK(BUPC_TICK_MIN == 0 && BUPC_TICK_MAX > t1 && BUPC_TICK_MAX == (bupc_tick_t)-1,
          "BUPC_TICK_MIN/MAX bound the ticks");
    bupc_tick_t big = (bupc_tick_t)5000000;
    CHECK(bupc_ticks_to_us(big) == bupc_ticks_to_ns(big) / 1000, "ticks_to_us is ticks_to_ns / 1000");
    CHECK(bupc_ticks_to_ns(t1 - t0) < 1000000000ull, "a short interval converts to under a second");
    CHECK(bupc_tick_granularityus() > 0 && bupc_tick_granularityus() < 1000, "tick granularity");
    CHECK(bupc_tick_overheadus() >= 0 && bupc_tick_overheadus() < 1000, "tick overhead");

    /* ---- job layout ---- */
    CHECK(bupc_thread_distance(MYTHREAD, MYTHREAD) == BUPC_THREADS_SAME, "distance to myself is SAME");
    for (i = 0; i < THREADS; i++) {
        unsigned int d = bupc_thread_distance(MYTHREAD, i);
        CHECK(d == bupc_thread_distance(i, MYTHREAD), "thread distance is symmetric");
        CHECK(i == MYTHREAD ? d == BUPC_THREADS_SAME : d >= BUPC_THREADS_VERYNEAR && d <= BUPC_THREADS_VERYFAR,
              "thread distance levels");
        CHECK(bupc_thread_castable(i) == (d <= BUPC_THREADS_VERYNEAR), "castable iff SAME or VERYNEAR");
    }

    /* ---- pointer-to-shared helpers ---- */
    int *mine = (int *)&errs[MYTHREAD];
    shared int *back = bupc_local_to_shared(mine, MYTHREAD, 0);
    CHECK(back == &errs[MYTHREAD], "bupc_local_to_shared gives the element back");
    CHECK(bupc_inverse_cast(bupc_cast(&cells[MYTHREAD])) == (shared void *)&cells[MYTHREAD],
          "bupc_inverse_cast undoes bupc_cast");
    CHECK(bupc_castable(&cells[MYTHREAD]) && bupc_castable(NULL), "my element and NULL are castable");
    shared [16] char *q = bupc_ptradd(blocks, 16, 1, 16 * right + 5);
    CHECK(q == &blocks[16 * right + 5] && upc_threadof(q) == (size_t)right && upc_phaseof(q) == 5,
          "bupc_ptradd with a run-time block size");
    char dump[BUPC_DUMP_MIN_LENGTH];
    CHECK(bupc_dump_shared(&cells[right], dump, sizeof dump) == 0 && strstr(dump, "thread") != NULL,
          "bupc_dump_shared describes a pointer");
    CHECK(bupc_dump_shared(&cells[right], dump, 10) == -1, "bupc_dump_shared refuses a short buffer");
    CHECK(bupc_getenv("PATH") == getenv("PATH"), "bupc_getenv is getenv");

    /* ---- atomics under contention ---- */
    if (MYTHREAD == 0) {
        counter64 = 0, counter32 = 0, icount = 0, bits = 0, swapped = -1, winner = -1;
    }
    flipper[MYTHREAD] = 0x0f0f0f0fu;
    upc_barrier;
    for (i = 0; i < ROUNDS; i++) {
        bupc_atomicI64_fetchadd_relaxed(&counter64, 3);
        bupc_atomicU32_fetchadd_strict(&counter32, 1);
        bupc_atomicI_fetchadd_relaxed(&icount, 2);
    }
    unsigned long mybit = 1ul << MYTHREAD;
    unsigned long before = bupc_atomicUL_fetchor_relaxed(&bits, mybit);
    CHECK((before & mybit) == 0, "fetchor returns the old value, without my bit");
    int old = bupc_atomicI_cswap_strict(&winner, -1, MYTHREAD);
    long prev = bupc_atomicL_swap_relaxed(&swapped, (long)MYTHREAD);
    CHECK(prev == -1 || (prev >= 0 && prev < THREADS), "swap returns some earlier value");
    unsigned int was = bupc_atomicUI_fetchnot_relaxed(&flipper[right]);
    CHECK(was == 0x0f0f0f0fu, "fetchnot returns the old value");
    upc_barrier;
    CHECK(bupc_atomicI64_read_strict(&counter64) == (int64_t)3 * ROUNDS * THREADS, "I64 fetchadd loses nothing");
    CHECK(bupc_atomicU32_read_relaxed(&counter32) == (uint32_t)ROUNDS * THREADS, "U32 strict fetchadd loses nothing");
    CHECK(bupc_atomicI_read_relaxed(&icount) == 2 * ROUNDS * THREADS, "I fetchadd loses nothing");
    CHECK(bupc_atomicUL_read_relaxed(&bits) == (THREADS >= 64 ? ~0ul : (1ul << THREADS) - 1),
          "fetchor from every thread sets every bit");
    int w = bupc_atomicI_read_strict(&winner);
    CHECK(w >= 0 && w < THREADS && (old == -1) == (w == MYTHREAD), "cswap elects one winner");
    CHECK(flipper[MYTHREAD] == ~0x0f0f0f0fu, "fetchnot complements");
    upc_barrier;
    if (MYTHREAD == 0) {
        bupc_atomicU64_set_strict((shared void *)&counter64, 0xff00ff00ull);
        CHECK(bupc_atomicU64_fetchand_relaxed((shared void *)&counter64, 0x0ff00ff0ull) == 0xff00ff00ull, "U64 fetchand old");
        CHECK(bupc_atomicU64_fetchxor_relaxed((shared void *)&counter64, 0x1ull) == 0x0f000f00ull, "U64 fetchand result");
        CHECK(bupc_atomicU64_read_relaxed((shared void *)&counter64) == 0x0f000f01ull, "U64 fetchxor result");
        bupc_atomicI32_set_relaxed((shared void *)&counter32, -5);
        CHECK(bupc_atomicI32_fetchadd_relaxed((shared void *)&counter32, 7) == -5 && (int32_t)counter32 == 2,
              "I32 set then fetchadd");
    }

    /* ---- non-blocking transfers ---- */
    char out[16], in[16];
    for (i = 0; i < 16; i++)
        out[i] = (char)(MYTHREAD * 16 + i);
    bupc_handle_t h = bupc_memput_async(&blocks[16 * right], out, 16);
    bupc_waitsync(h);
    upc_barrier;
    memset(in, 0, sizeof in);
    h = bupc_memget_async(in, &blocks[16 * MYTHREAD], 16);
    while (!bupc_trysync(h))
        bupc_poll();
    for (i = 0; i < 16; i++)
        CHECK(in[i] == (char)(left * 16 + i), "memput_async then memget_async/trysync");
    bupc_handle_t hs[2];
    hs[0] = bupc_memcpy_async(&copies[16 * right], &blocks[16 * right], 16);
    hs[1] = bupc_memset_async(&marks[16 * MYTHREAD + 8], 'z', 4);
    bupc_waitsync_all(hs, 2);
    CHECK(hs[0] == BUPC_COMPLETE_HANDLE && hs[1] == BUPC_COMPLETE_HANDLE, "waitsync_all clears the handles");
    upc_barrier;
    for (i = 0; i < 16; i++)
        CHECK(copies[16 * MYTHREAD + i] == (char)(left * 16 + i), "memcpy_async copied the block");
    CHECK(marks[16 * MYTHREAD + 9] == 'z' && marks[16 * MYTHREAD + 7] == 0,
          "memset_async set its bytes only");
    upc_barrier; /* every thread has checked its copy before it is overwritten */
    hs[0] = bupc_memget_async(in, &copies[16 * right], 16);
    hs[1] = BUPC_COMPLETE_HANDLE;
    bupc_waitsync_some(hs, 2);
    while (!bupc_trysync_all(hs, 2))
        ;
    CHECK(in[3] == (char)(MYTHREAD * 16 + 3), "waitsync_some and trysync_all complete the get");
    bupc_memput_asynci(&copies[16 * right], out, 8);
    bupc_memset_asynci(&copies[16 * right + 8], 'q', 8);
    bupc_waitsynci();
    CHECK(bupc_trysynci(), "nothing implicit is left");
    upc_barrier;
    CHECK(copies[16 * MYTHREAD + 2] == (char)(left * 16 + 2) && copies[16 * MYTHREAD + 15] == 'q',
          "implicit-handle transfers");

    /* ---- value collectives ---- */
    int me = MYTHREAD, n = THREADS;
    int sum = bupc_allv_reduce(int, me, 0, UPC_ADD);
    if (MYTHREAD == 0)
        CHECK(sum == n * (n - 1) / 2, "bupc_allv_reduce to thread 0");
    int rootmax = bupc_allv_reduce(int, me + 10, THREADS - 1, UPC_MAX);
    if (MYTHREAD == THREADS - 1)
        CHECK(rootmax == n + 9, "bupc_allv_reduce to the last thread");
    double dv = 0.5 * (MYTHREAD + 1);
    CHECK(bupc_allv_reduce_all(double, dv, UPC_ADD) == 0.25 * n * (n + 1), "reduce_all of doubles");
    CHECK(bupc_allv_reduce(double, dv, -1, UPC_MIN) == 0.5, "reduce with root -1 is reduce_all");
    uint64_t ub = (uint64_t)1 << (MYTHREAD + 40);
    CHECK(bupc_allv_reduce_all(uint64_t, ub, UPC_OR) == (((uint64_t)1 << n) - 1) << 40, "reduce_all UPC_OR of uint64_t");
    cells[MYTHREAD] = 1.5 * MYTHREAD;
    upc_barrier;
    CHECK(bupc_allv_reduce_all(double, cells[MYTHREAD], UPC_MAX) == 1.5 * (n - 1), "a shared value as the operand");
    short sv = (short)(MYTHREAD + 1), factorial = 1; /* (MYTHREAD + 1)! */
    for (int i = 2; i <= MYTHREAD + 1; i++)
        factorial = (short)(factorial * i);
    CHECK(bupc_allv_prefix_reduce(short, sv, UPC_MULT) == factorial, "prefix_reduce UPC_MULT");
    CHECK(bupc_allv_prefix_reduce(long, 1L, UPC_ADD) == MYTHREAD + 1, "prefix_reduce of a constant");

    pair_t pv = {MYTHREAD, MYTHREAD * 0.25};
    pair_t got = bupc_allv_broadcast(pair_t, pv, THREADS - 1);
    CHECK(got.a == n - 1 && got.b == (n - 1) * 0.25, "broadcast of a structure");
    int *src = NULL;
    if (MYTHREAD == 1 % THREADS) {
        src = malloc(THREADS * sizeof *src);
        for (i = 0; i < THREADS; i++)
            src[i] = 100 + i * i;
    }
    CHECK(bupc_allv_scatter(int, 1 % THREADS, src) == 100 + MYTHREAD * MYTHREAD, "scatter");
    free(src);
    int *all = malloc(THREADS * sizeof *all);
    for (i = 0; i < THREADS; i++)
        all[i] = -1;
    int root = THREADS - 1;
    int *ret = bupc_allv_gather(int, me * 3, root, MYTHREAD == root ? all : NULL);
    if (MYTHREAD == root) {
        CHECK(ret == all, "gather returns the array");
        for (i = 0; i < THREADS; i++)
            CHECK(all[i] == 3 * i, "gather to the root, in thread order");
    }
    int dummy = bupc_allv_gather_all(int, me + 7, all)[MYTHREAD];
    CHECK(dummy == MYTHREAD + 7, "gather_all returns the array");
    for (i = 0; i < THREADS; i++)
        CHECK(all[i] == i + 7, "gather_all, in thread order");
    bupc_allv_gather_all(int, me, (MYTHREAD % 2 ? all : NULL));
    bupc_allv_gather(int, me, -1, all);
    for (i = 0; i < THREADS; i++)
        CHECK(all[i] == i, "gather with root -1");
    free(all);
    double pd = 10.0 * MYTHREAD;
    CHECK(bupc_allv_permute(double, pd, right) == 10.0 * left, "permute to the right neighbour");

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
