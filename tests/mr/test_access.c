/* SPDX-License-Identifier: MIT */
/*
 * test_access.c -- every typed get/put (relaxed and strict), block
 * get/put, upc_memget/memput/memcpy/memset at sizes below and above the
 * inline and fragment limits, between every pair of threads.
 */
#include "check.h"

#include <string.h>
#include <upc_nb.h>

/* Every scalar type but pointers-to-shared (tested separately). */
#define SCALARS(X)                                                                      \
    X(char, char) X(schar, signed char) X(uchar, unsigned char) X(short, short)          \
    X(ushort, unsigned short) X(int, int) X(uint, unsigned int) X(long, long)             \
    X(ulong, unsigned long) X(llong, long long) X(ullong, unsigned long long)             \
    X(float, float) X(double, double) X(ldouble, long double)

#define BIG (3u << 20) /* 3 MiB: one fragment by default, twelve with get_paths.sh's 256K */

MUPC_SHARED_ARRAY(scalars, char, 256, 256, MUPC_PER_THREAD) /* 256 bytes per thread */
MUPC_SHARED_ARRAY(big, char, BIG, BIG, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(copy, char, BIG, BIG, MUPC_PER_THREAD)

/* Byte i of thread t's `big` block after the writer filled it. */
static unsigned char pattern(int t, size_t i) { return (unsigned char)(t * 31 + i * 7 + (i >> 9)); }

static mupc_ptr_t slot_of(int t, size_t byte)
{
    return MUPC_ELEM(scalars, (size_t)t * 256 + byte);
}

/* Thread t writes one value of each type into slots of thread (t+1)%T;
 * afterwards every thread reads them back from everywhere. */
#define TYPE_VALUE(t, k) ((t) * 100 + (k) + 1)

static void scalar_round(int strict)
{
    int to = (MYTHREAD + 1) % THREADS;
    size_t at = 0;
#define PUT_ONE(name, type)                                                             \
    mupc_put_##name(slot_of(to, at), (type)TYPE_VALUE(MYTHREAD, at), strict, __FILE__,   \
                    __LINE__);                                                          \
    at += 16;
    SCALARS(PUT_ONE)
#undef PUT_ONE
    upc_barrier();
    for (int t = 0; t < THREADS; t++) {
        /* Past 16 threads, the sampled threads' slots and this one's: a
         * rank reading every thread held cache tables and connections for
         * all of them (tests/mr/test_pointers.c) */
        if (!thread_is_sampled(t) && t != MYTHREAD)
            continue;
        int from = (t + THREADS - 1) % THREADS; /* who wrote thread t's slots */
        at = 0;
#define GET_ONE(name, type)                                                             \
    {                                                                                   \
        type v = mupc_get_##name(slot_of(t, at), strict, __FILE__, __LINE__);            \
        CHECK(v == (type)TYPE_VALUE(from, at), #name " at %zu on thread %d", at, t);    \
        at += 16;                                                                       \
    }
        SCALARS(GET_ONE)
#undef GET_ONE
    }
    upc_barrier();
}

static void pts_round(void)
{
    mupc_ptr_t p = MUPC_ELEM(big, (size_t)MYTHREAD * BIG + 12345);
    mupc_put_pts(slot_of((MYTHREAD + 1) % THREADS, 240), p, MUPC_RELAXED, __FILE__, __LINE__);
    upc_barrier();
    int from = (MYTHREAD + THREADS - 1) % THREADS;
    mupc_ptr_t q = mupc_get_pts(slot_of(MYTHREAD, 240), MUPC_STRICT, __FILE__, __LINE__);
    CHECK(mupc_ptr_equal(q, MUPC_ELEM(big, (size_t)from * BIG + 12345)), "pts value");
    upc_barrier();
}

/* The largest transfer: BIG, or past 256 threads 1 MiB (still four
 * fragments).  At 1,024 emulated ranks BIG's 12 MiB a rank (the two
 * arrays' touched pages and bulk_round's two buffers) outgrew the
 * machine's 24 GB (bench/HISTORY.md, "Test programs at 1,024 threads"). */
static size_t largest(void) { return THREADS <= 256 ? BIG : (size_t)1 << 20; }

static void bulk_round(size_t n)
{
    int to = (MYTHREAD + 1) % THREADS, from = (MYTHREAD + THREADS - 1) % THREADS;
    unsigned char *buf = malloc(n), *back = malloc(n);
    for (size_t i = 0; i < n; i++)
        buf[i] = pattern(MYTHREAD, i);
    /* memput into the next thread's block, read it back */
    upc_memput(MUPC_ELEM(big, (size_t)to * BIG), buf, n);
    upc_memget(back, MUPC_ELEM(big, (size_t)to * BIG), n);
    CHECK(memcmp(buf, back, n) == 0, "memput/memget round trip of %zu bytes", n);
    upc_barrier();
    /* what the previous thread wrote into my block, seen locally */
    unsigned char *mine = mupc_local_addr(MUPC_ELEM(big, (size_t)MYTHREAD * BIG));
    CHECK(mine != NULL, "local address of own block");
    for (size_t i = 0; i < n; i++)
        CHECK(mine[i] == pattern(from, i), "byte %zu of %zu from thread %d", i, n, from);
    /* third-party copy: my block -> copy block of thread to+1 */
    int dst = (MYTHREAD + 2) % THREADS;
    upc_memcpy(MUPC_ELEM(copy, (size_t)dst * BIG), MUPC_ELEM(big, (size_t)to * BIG), n);
    upc_barrier();
    int wrote = ((MYTHREAD - 2) % THREADS + THREADS) % THREADS; /* who copied into mine */
    unsigned char *cp = mupc_local_addr(MUPC_ELEM(copy, (size_t)MYTHREAD * BIG));
    for (size_t i = 0; i < n; i++)
        CHECK(cp[i] == pattern(wrote, i), "memcpy byte %zu of %zu (copied by thread %d)", i, n,
              wrote);
    upc_barrier(); /* everyone has checked before copy blocks are reused */
    /* block get/put with strictness */
    mupc_put_block(MUPC_ELEM(copy, (size_t)to * BIG), buf, n < 100 ? n : 100, MUPC_STRICT,
                   __FILE__, __LINE__);
    mupc_get_block(back, MUPC_ELEM(copy, (size_t)to * BIG), n < 100 ? n : 100, MUPC_RELAXED,
                   __FILE__, __LINE__);
    CHECK(memcmp(buf, back, n < 100 ? n : 100) == 0, "block put/get");
    upc_barrier();
    free(buf);
    free(back);
}

static void memset_round(void)
{
    int to = (MYTHREAD + 1) % THREADS, from = (MYTHREAD + THREADS - 1) % THREADS;
    size_t sizes[] = {1, 100, 70000, largest()};
    for (int k = 0; k < (int)(sizeof sizes / sizeof sizes[0]); k++) {
        upc_memset(MUPC_ELEM(big, (size_t)to * BIG), 'a' + MYTHREAD % 20 + k, sizes[k]);
        upc_barrier();
        unsigned char *mine = mupc_local_addr(MUPC_ELEM(big, (size_t)MYTHREAD * BIG));
        unsigned char want = (unsigned char)('a' + from % 20 + k);
        for (size_t i = 0; i < sizes[k]; i++)
            CHECK(mine[i] == want, "memset byte %zu of %zu: %d, want %d", i, sizes[k], mine[i],
                  want);
        upc_barrier();
    }
}

/* A thread's own small puts (still batched, not yet at the target) must
 * be seen by its next large get of the same bytes, blocking or not: large
 * on-node gets read the target's memory directly (runtime/transport/direct.h) and
 * would overtake them. */
static void put_then_large_get(void)
{
    int to = (MYTHREAD + 1) % THREADS;
    size_t n = 300 * 1024;
    unsigned char *back = malloc(n);
    for (int round = 0; round < 2; round++) {
        unsigned char note[64];
        memset(note, 0xA0 + round, sizeof note);
        upc_memput(MUPC_ELEM(big, (size_t)to * BIG + 4096), note, sizeof note);
        mupc_put_uchar(MUPC_ELEM(big, (size_t)to * BIG + n - 1), (unsigned char)(0x50 + round),
                    MUPC_RELAXED, __FILE__, __LINE__);
        if (round == 0) {
            upc_memget(back, MUPC_ELEM(big, (size_t)to * BIG), n);
        } else {
            upc_handle_t h = upc_memget_nb(back, MUPC_ELEM(big, (size_t)to * BIG), n);
            upc_sync(h);
        }
        CHECK(back[4096] == note[0] && back[4096 + 63] == note[63],
              "round %d: a 300 KiB get sees this thread's 64-byte put before it", round);
        CHECK(back[n - 1] == 0x50 + round, "round %d: a 300 KiB get sees this thread's 1-byte "
                                           "relaxed put before it (%#x)", round, back[n - 1]);
    }
    upc_barrier();
    free(back);
}

int main(void)
{
    scalar_round(MUPC_RELAXED);
    scalar_round(MUPC_STRICT);
    pts_round();
    size_t sizes[] = {1, 8, 1000, 16 * 1024, 300 * 1024, largest()};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        bulk_round(sizes[k]);
    memset_round();
    put_then_large_get();
    if (MYTHREAD == 0)
        printf("test_access: %d threads OK\n", THREADS);
    return 0;
}
