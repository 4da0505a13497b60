/* SPDX-License-Identifier: MIT */
/*
 * test_pointers.c -- pointer-to-shared arithmetic against the UPC layout
 * rule, for several block sizes, by writing every element through its
 * pointer and checking where it landed with a local read.
 */
#include "check.h"

#include <stdlib.h>

#define N 5 /* elements per thread */

MUPC_SHARED_ARRAY(cyclic, long, N, 1, MUPC_PER_THREAD)   /* shared [1] long [N*THREADS] */
MUPC_SHARED_ARRAY(blocked3, long, N, 3, MUPC_PER_THREAD) /* shared [3] long [N*THREADS] */
MUPC_SHARED_ARRAY(blockedN, long, N, N, MUPC_PER_THREAD) /* shared [N] long [N*THREADS] */
MUPC_SHARED_ARRAY(indef, long, 17, 0, MUPC_TOTAL)         /* shared [] long [17] */

static void check_array(const char *name, mupc_ptr_t base, size_t blocksize, size_t total)
{
    /* every thread writes the elements with index % THREADS == MYTHREAD */
    for (size_t i = MYTHREAD; i < total; i += THREADS)
        MUPC_PUT(long, mupc_ptr_index(base, i, sizeof(long), blocksize), (long)(i * 10 + 1));
    upc_barrier();
    for (size_t i = 0; i < total; i++) {
        mupc_ptr_t p = mupc_ptr_index(base, i, sizeof(long), blocksize);
        size_t want_thread = blocksize ? (i / blocksize) % THREADS : 0;
        size_t want_phase = blocksize ? i % blocksize : 0;
        CHECK(upc_threadof(p) == want_thread, "%s[%zu]: thread %zu, want %zu", name, i,
              upc_threadof(p), want_thread);
        CHECK(upc_phaseof(p) == want_phase, "%s[%zu]: phase %zu, want %zu", name, i,
              upc_phaseof(p), want_phase);
        /* Past 16 threads the values are read on the sampled threads and
         * this one only: reading all of them made every rank talk to every
         * other, and at 1,024 emulated ranks each held 17 MB of cache
         * tables and connections, more than the machine had for all. */
        if (thread_is_sampled((int)want_thread) || want_thread == (size_t)MYTHREAD)
            CHECK(MUPC_GET(long, p) == (long)(i * 10 + 1), "%s[%zu] value", name, i);
        if (upc_threadof(p) == (size_t)MYTHREAD) {
            long *local = mupc_local_addr(p);
            CHECK(local && *local == (long)(i * 10 + 1), "%s[%zu] local view", name, i);
        } else {
            CHECK(mupc_local_addr(p) == NULL, "%s[%zu] remote has no local address", name, i);
        }
        /* stepping one at a time agrees with indexing */
        if (i > 0) {
            mupc_ptr_t prev = mupc_ptr_index(base, i - 1, sizeof(long), blocksize);
            mupc_ptr_t next = mupc_ptr_add(prev, 1, sizeof(long), blocksize);
            CHECK(mupc_ptr_equal(next, p) && upc_phaseof(next) == upc_phaseof(p),
                  "%s: (p+%zu)+1 != p+%zu", name, i - 1, i);
            CHECK(mupc_ptr_diff(p, prev, sizeof(long), blocksize) == 1, "%s: diff", name);
            CHECK(mupc_ptr_equal(mupc_ptr_add(p, -1, sizeof(long), blocksize), prev),
                  "%s: (p+%zu)-1", name, i);
        }
        CHECK(mupc_ptr_diff(p, base, sizeof(long), blocksize) == (ptrdiff_t)i, "%s: p-base",
              name);
    }
    /* affinity sizes add up and match the element counts */
    size_t sum = 0, *count = calloc((size_t)THREADS, sizeof *count);
    CHECK(count != NULL, "out of memory");
    for (size_t i = 0; i < total; i++) /* one pass: O(THREADS) at 1,024 threads too */
        count[upc_threadof(mupc_ptr_index(base, i, sizeof(long), blocksize))]++;
    for (int t = 0; t < THREADS; t++) {
        size_t bytes = upc_affinitysize(total * sizeof(long), blocksize * sizeof(long), t);
        CHECK(bytes == count[t] * sizeof(long), "%s: affinitysize(thread %d) = %zu, want %zu",
              name, t, bytes, count[t] * sizeof(long));
        sum += bytes;
    }
    free(count);
    CHECK(sum == total * sizeof(long), "%s: affinity sizes sum", name);
    upc_barrier();
}

int main(void)
{
    size_t total = (size_t)N * THREADS;
    check_array("cyclic", MUPC_BASE(cyclic), 1, total);
    check_array("blocked3", MUPC_BASE(blocked3), 3, total);
    check_array("blockedN", MUPC_BASE(blockedN), N, total);
    check_array("indefinite", MUPC_BASE(indef), 0, 17);
    mupc_ptr_t p = mupc_ptr_index(MUPC_BASE(blocked3), 4, sizeof(long), 3);
    CHECK(upc_phaseof(upc_resetphase(p)) == 0 && upc_addrfield(upc_resetphase(p)) ==
                                                     upc_addrfield(p),
          "upc_resetphase");
    /* UPC 1.3 §6.4.2: the same thread and address compare equal whatever
     * the phases; the next element (another address) does not. */
    CHECK(upc_phaseof(p) == 1 && mupc_ptr_equal(upc_resetphase(p), p) &&
              mupc_ptr_equal(p, upc_resetphase(p)),
          "upc_resetphase(p) == p");
    CHECK(!mupc_ptr_equal(upc_resetphase(p), mupc_ptr_add(p, 1, sizeof(long), 3)),
          "upc_resetphase(p) != p + 1");
    CHECK(mupc_ptr_is_null(MUPC_NULL_PTR) && !mupc_ptr_is_null(MUPC_BASE(cyclic)), "null");
    if (MYTHREAD == 0)
        printf("test_pointers: %d threads OK\n", THREADS);
    return 0;
}
