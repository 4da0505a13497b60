/* SPDX-License-Identifier: MIT */
/*
 * test_heap.c -- the shared heap across threads: upc_all_alloc gives the
 * same pointer everywhere; upc_global_alloc from every thread at once
 * gives disjoint blocks; data written through one thread's pointer is
 * read through another's; upc_alloc memory is remotely accessible; frees
 * from any thread return every byte (checked on thread 0's heap figures);
 * upc_all_free frees nothing before every thread has called it; the local
 * and symmetric heaps share the segment: upc_alloc of 64 MB per thread
 * with the default settings, most of the segment taken by upc_alloc and
 * then by upc_all_alloc, without overlap.
 */
#include "check.h"

#include <unistd.h>

#define ROUNDS 20
#define PER_THREAD 8

MUPC_SHARED_ARRAY(shared_ptrs, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)

static mupc_heap_info_t info(void)
{
    mupc_heap_info_t h;
    mupc_heap_info(&h);
    return h;
}

/* upc_all_alloc: one pointer for all; fill cyclically; everyone checks. */
static void all_alloc_is_shared(void)
{
    size_t nblocks = 3 * (size_t)THREADS + 1, nbytes = 24;
    mupc_ptr_t a = upc_all_alloc(nblocks, nbytes);
    CHECK(!mupc_ptr_is_null(a), "upc_all_alloc returned null");
    CHECK_EQ_LL(upc_threadof(a), 0);
    MUPC_PUT(pts, MUPC_ELEM(shared_ptrs, MYTHREAD), a);
    upc_barrier();
    for (int t = 0; t < THREADS; t++)
        if (thread_is_sampled(t))
            CHECK(mupc_ptr_equal(MUPC_GET(pts, MUPC_ELEM(shared_ptrs, t)), a),
                  "thread %d got a different pointer", t);
    /* block b (24 bytes = 3 longs) is on thread b % THREADS */
    for (size_t i = 0; i < nblocks * 3; i++)
        if ((i / 3) % (size_t)THREADS == (size_t)MYTHREAD)
            MUPC_PUT(long, mupc_ptr_index(a, i, sizeof(long), 3), (long)(1000 + i));
    upc_barrier();
    for (size_t i = 0; i < nblocks * 3; i++)
        if (thread_is_sampled((int)((i / 3) % (size_t)THREADS)))
            CHECK_EQ_LL(MUPC_GET(long, mupc_ptr_index(a, i, sizeof(long), 3)), 1000 + (long)i);
    upc_all_free(a);
}

/* Every thread allocates concurrently; blocks must not overlap: each
 * thread stamps every word of its blocks (on all threads), and all stamps
 * are checked after a barrier, so two threads handed the same space would
 * see each other's stamps. */
static long stamp(int round, int k, size_t w)
{
    return ((long)MYTHREAD << 40) | ((long)round << 20) | ((long)k << 12) | (long)w;
}

static void global_alloc_concurrent(void)
{
    mupc_ptr_t mine[PER_THREAD];
    size_t words[PER_THREAD];
    /* each round writes and reads a block on every thread: past 16
     * threads, fewer rounds (one at 256 and more), and the blocks on the
     * sampled threads only (check.h): touching every thread's heap from
     * every thread took more memory than 512 emulated ranks have here
     * (each rank's connections and cache tables to 511 others; the kernel
     * killed one at 24 GB in all) */
    int rounds = per_thread_share(ROUNDS, 16 * ROUNDS, 1);
    for (int round = 0; round < rounds; round++) {
        for (int k = 0; k < PER_THREAD; k++) {
            size_t bytes = 8 * (size_t)(1 + (MYTHREAD + k + round) % 7);
            words[k] = bytes / 8 * (size_t)THREADS;
            mine[k] = upc_global_alloc((size_t)THREADS, bytes); /* one block per thread */
            CHECK(!mupc_ptr_is_null(mine[k]), "upc_global_alloc returned null");
            for (size_t w = 0; w < words[k]; w++)
                if (thread_is_sampled((int)(w / (bytes / 8))))
                    MUPC_PUT(long, mupc_ptr_index(mine[k], w, 8, bytes / 8), stamp(round, k, w));
        }
        upc_barrier();
        for (int k = 0; k < PER_THREAD; k++)
            for (size_t w = 0; w < words[k]; w++)
                if (thread_is_sampled((int)(w / (words[k] / (size_t)THREADS))))
                    CHECK_EQ_LL(MUPC_GET(long, mupc_ptr_index(mine[k], w, 8,
                                                          words[k] / (size_t)THREADS)),
                            stamp(round, k, w));
        upc_barrier();
        for (int k = 0; k < PER_THREAD; k++)
            upc_free(mine[k]);
    }
}

/* upc_alloc'ed memory: written by its owner, read and written by the
 * next thread, and freed by the next thread (a remote free). */
static void local_alloc_remote_use(void)
{
    mupc_ptr_t p = upc_alloc(100 * sizeof(int));
    CHECK_EQ_LL(upc_threadof(p), MYTHREAD);
    int *local = mupc_local_addr(p);
    CHECK(local != NULL, "upc_alloc memory is not local");
    for (int i = 0; i < 100; i++)
        local[i] = MYTHREAD * 1000 + i;
    MUPC_PUT(pts, MUPC_ELEM(shared_ptrs, MYTHREAD), p);
    upc_barrier();
    int next = (MYTHREAD + 1) % THREADS;
    mupc_ptr_t q = MUPC_GET(pts, MUPC_ELEM(shared_ptrs, next));
    for (int i = 0; i < 100; i++) {
        mupc_ptr_t e = mupc_ptr_index(q, (size_t)i, sizeof(int), 0);
        CHECK_EQ_LL(MUPC_GET(int, e), next * 1000 + i);
    }
    upc_barrier();
    upc_free(q); /* frees the next thread's block */
    upc_barrier();
    mupc_heap_info_t h = info();
    CHECK_EQ_LL(h.local_blocks, 0);
    CHECK_EQ_LL(h.local_free, h.local_bytes);
}

/* upc_all_free is collective: the last thread arrives 100 ms late and reads
 * the block first.  Thread 0 reallocates the space as soon as its own call
 * returns and overwrites it, so had the block been freed before the late
 * thread arrived, the late thread would read thread 0's new values. */
static void all_free_waits_for_everyone(void)
{
    size_t n = 64 * (size_t)THREADS;
    mupc_ptr_t a = upc_all_alloc(n, sizeof(long));
    for (size_t i = 0; i < n; i++)
        if (i % (size_t)THREADS == (size_t)MYTHREAD)
            MUPC_PUT(long, mupc_ptr_index(a, i, sizeof(long), 1), 7000 + (long)i);
    upc_barrier();
    if (MYTHREAD == THREADS - 1) {
        usleep(100000);
        for (size_t i = 0; i < n; i++)
            CHECK_EQ_LL(MUPC_GET(long, mupc_ptr_index(a, i, sizeof(long), 1)), 7000 + (long)i);
    }
    upc_all_free(a);
    if (MYTHREAD == 0) {
        mupc_ptr_t b = upc_global_alloc(n, sizeof(long)); /* first fit: a's space */
        for (size_t i = 0; i < n; i++)
            MUPC_PUT(long, mupc_ptr_index(b, i, sizeof(long), 1), -1);
        upc_fence;
        upc_free(b);
    }
    upc_barrier();
}

/* 64 MB per thread from upc_alloc: more than the former fixed local heap
 * (a quarter of the former 64M segment). */
static void local_64_megabytes(void)
{
    size_t bytes = (size_t)64 << 20, words = bytes / sizeof(long);
    mupc_ptr_t p = upc_alloc(bytes);
    long *mine = mupc_local_addr(p);
    mine[0] = MYTHREAD;
    mine[words - 1] = -MYTHREAD;
    MUPC_PUT(pts, MUPC_ELEM(shared_ptrs, MYTHREAD), p);
    upc_barrier();
    int next = (MYTHREAD + 1) % THREADS;
    mupc_ptr_t q = MUPC_GET(pts, MUPC_ELEM(shared_ptrs, next));
    CHECK_EQ_LL(MUPC_GET(long, q), next);
    CHECK_EQ_LL(MUPC_GET(long, mupc_ptr_index(q, words - 1, sizeof(long), 0)), -next);
    upc_barrier();
    upc_free(p);
}

/* Stamp the first and last word of `bytes` at p, or check them. */
static void stamp_ends(mupc_ptr_t p, size_t bytes, long tag, int check)
{
    mupc_ptr_t last = mupc_ptr_index(p, bytes / sizeof(long) - 1, sizeof(long), 0);
    if (!check) {
        MUPC_PUT(long, p, tag);
        MUPC_PUT(long, last, tag + 1);
        return;
    }
    CHECK_EQ_LL(MUPC_GET(long, p), tag);
    CHECK_EQ_LL(MUPC_GET(long, last), tag + 1);
}

#define LOCAL_BLOCKS 6

/* upc_alloc takes 60% of every segment in blocks, then upc_all_alloc 30%
 * per thread: each heap uses what the other does not.  Every block's ends
 * are stamped and checked, so overlapping blocks would show.  Once the
 * local blocks are freed, the symmetric heap can have 80%. */
static void heaps_share_the_segment(void)
{
    size_t segment = mupc_segment_size(), piece = segment / 10 / 64 * 64;
    mupc_ptr_t locals[LOCAL_BLOCKS];
    for (int k = 0; k < LOCAL_BLOCKS; k++) {
        locals[k] = upc_alloc(piece);
        stamp_ends(locals[k], piece, 100 * MYTHREAD + 10 * k, 0);
    }
    size_t sym_bytes = 3 * piece;
    mupc_ptr_t sym = upc_all_alloc(THREADS, sym_bytes);
    mupc_ptr_t mine = mupc_ptr_index(sym, (size_t)MYTHREAD, sym_bytes, 1);
    stamp_ends(mine, sym_bytes, 1000000 + MYTHREAD, 0);
    upc_barrier();
    for (int k = 0; k < LOCAL_BLOCKS; k++)
        stamp_ends(locals[k], piece, 100 * MYTHREAD + 10 * k, 1);
    stamp_ends(mine, sym_bytes, 1000000 + MYTHREAD, 1);
    upc_barrier();
    for (int k = 0; k < LOCAL_BLOCKS; k++)
        upc_free(locals[k]);
    upc_all_free(sym);
    mupc_ptr_t big = upc_all_alloc(THREADS, 8 * piece); /* the local heaps gave it back */
    stamp_ends(mupc_ptr_index(big, (size_t)MYTHREAD, 8 * piece, 1), 8 * piece, 7, 0);
    upc_all_free(big);
}

int main(void)
{
    mupc_heap_info_t before = info();
    CHECK(before.local_bytes > 0, "no local heap");
    if (MYTHREAD == 0)
        CHECK(before.symmetric_bytes > 0, "no symmetric heap on thread 0");
    all_alloc_is_shared();
    global_alloc_concurrent();
    local_alloc_remote_use();
    all_free_waits_for_everyone();
    local_64_megabytes();
    heaps_share_the_segment();
    CHECK(mupc_ptr_is_null(upc_global_alloc(0, 16)), "zero size gives null");
    CHECK(mupc_ptr_is_null(upc_alloc(0)), "zero size gives null");
    upc_free(MUPC_NULL_PTR); /* no effect */
    upc_barrier();
    if (MYTHREAD == 0) {
        mupc_heap_info_t after = info();
        CHECK_EQ_LL(after.symmetric_blocks, 0);
        CHECK_EQ_LL(after.symmetric_free, before.symmetric_free);
        printf("test_heap: %d threads OK (symmetric heap %zu bytes, local %zu)\n", THREADS,
               after.symmetric_bytes, after.local_bytes);
    }
    return 0;
}
