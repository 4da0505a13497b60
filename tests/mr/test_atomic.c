/* SPDX-License-Identifier: MIT */
/*
 * test_atomic.c -- atomics under contention from every thread: fetch-and-
 * add hands out every value exactly once; INC, CSWAP retry loops, double
 * ADD, MAX and XOR reach exactly the expected totals; pointer-to-shared
 * CSWAP; the strict form; the MuPC-style mupc_cswap_* / mupc_fetch_add_*.
 */
#include "check.h"
#include <upc_atomic.h>
#include <upc_castable.h>

/* XOR's operand: bit MYTHREAD mod 64 (a shift by 64 or more is undefined). */
static int64_t xor_bit(int thread) { return (int64_t)1 << (thread % 64); }

MUPC_SHARED_ARRAY(cells, int64_t, 8, 8, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(dcell, double, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(pcell, mupc_ptr_t, 1, 1, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(icell, int, 2, 2, MUPC_PER_THREAD)
MUPC_SHARED_ARRAY(sums, int64_t, 1, 1, MUPC_PER_THREAD)

static mupc_ptr_t cell(int t, int i) { return MUPC_ELEM(cells, (size_t)t * 8 + (size_t)i); }

int main(void)
{
    int host = THREADS - 1; /* remote for everyone but the last thread */
    const int N = per_thread_share(400, 6400, 10); /* operations per loop */
    upc_atomicdomain_t *d64 = upc_all_atomicdomain_alloc(
        UPC_INT64, UPC_ADD | UPC_INC | UPC_CSWAP | UPC_GET | UPC_SET | UPC_MAX | UPC_XOR, 0);
    upc_atomicdomain_t *dd = upc_all_atomicdomain_alloc(UPC_DOUBLE, UPC_ADD | UPC_GET, 0);
    upc_atomicdomain_t *dp = upc_all_atomicdomain_alloc(UPC_PTS, UPC_CSWAP | UPC_SET, 0);
    int64_t zero = 0, one = 1;
    if (MYTHREAD == 0)
        for (int i = 0; i < 8; i++)
            upc_atomic_relaxed(d64, NULL, UPC_SET, cell(host, i), &zero, NULL);
    upc_barrier();

    /* 1. fetch-and-add: each old value is handed out once, so the sum of
     * all fetched values is 0 + 1 + ... + (N*THREADS - 1). */
    int64_t prev = -1, mysum = 0;
    for (int i = 0; i < N; i++) {
        int64_t old;
        upc_atomic_relaxed(d64, &old, UPC_ADD, cell(host, 0), &one, NULL);
        CHECK(old > prev, "fetched %lld after %lld", (long long)old, (long long)prev);
        prev = old;
        mysum += old;
        upc_atomic_relaxed(d64, NULL, UPC_INC, cell(host, 1), NULL, NULL);
    }
    MUPC_PUT(llong, MUPC_ELEM(sums, MYTHREAD), mysum);

    /* 2. lock-free increment through a compare-and-swap retry loop */
    for (int i = 0; i < N; i++) {
        int64_t seen, want;
        upc_atomic_relaxed(d64, &seen, UPC_GET, cell(host, 2), NULL, NULL);
        for (;;) {
            int64_t old;
            want = seen + 1;
            upc_atomic_relaxed(d64, &old, UPC_CSWAP, cell(host, 2), &seen, &want);
            if (old == seen)
                break;
            seen = old;
        }
    }

    /* 3. MAX and XOR from everyone; double ADD (exact in binary) */
    int64_t mine = 1000 + MYTHREAD, bit = xor_bit(MYTHREAD);
    upc_atomic_relaxed(d64, NULL, UPC_MAX, cell(host, 3), &mine, NULL);
    upc_atomic_relaxed(d64, NULL, UPC_XOR, cell(host, 4), &bit, NULL);
    double half = 0.5;
    for (int i = 0; i < N; i++)
        upc_atomic_strict(dd, NULL, UPC_ADD, MUPC_ELEM(dcell, host), &half, NULL);

    /* 4. MuPC style: fetch-add on an int, exactly one CSWAP winner */
    for (int i = 0; i < N; i++)
        MUPC_FETCH_ADD(int, MUPC_ELEM(icell, (size_t)host * 2), 2);
    int won = MUPC_CSWAP(int, MUPC_ELEM(icell, (size_t)host * 2 + 1), 0, MYTHREAD + 1) == 0;

    /* 5. pointer-to-shared CSWAP: exactly one thread installs its pointer */
    mupc_ptr_t nullp = MUPC_NULL_PTR, me = cell(MYTHREAD, 7), seenp;
    upc_atomic_relaxed(dp, &seenp, UPC_CSWAP, MUPC_ELEM(pcell, host), &nullp, &me);
    int installed = mupc_ptr_is_null(seenp);
    MUPC_PUT(llong, cell(MYTHREAD, 6), (installed ? 1 : 0) + (won ? 2 : 0));
    upc_barrier();

    /* Past 16 threads thread 0 alone reads every thread's results: each
     * rank caching every other one ran 1,024 ranks out of memory here. */
    int checks_all = THREADS <= 16 || MYTHREAD == 0;
    long long total = (long long)N * THREADS, expect_sum = total * (total - 1) / 2, sum = 0;
    if (checks_all) {
        for (int t = 0; t < THREADS; t++)
            sum += MUPC_GET(llong, MUPC_ELEM(sums, t));
        CHECK(sum == expect_sum, "fetched values sum to %lld, want %lld", sum, expect_sum);
    }
    int64_t v;
    upc_atomic_strict(d64, &v, UPC_GET, cell(host, 0), NULL, NULL);
    CHECK_EQ_LL(v, total);
    upc_atomic_relaxed(d64, &v, UPC_GET, cell(host, 1), NULL, NULL);
    CHECK_EQ_LL(v, total);
    upc_atomic_relaxed(d64, &v, UPC_GET, cell(host, 2), NULL, NULL);
    CHECK_EQ_LL(v, total);
    upc_atomic_relaxed(d64, &v, UPC_GET, cell(host, 3), NULL, NULL);
    CHECK_EQ_LL(v, 1000 + THREADS - 1);
    upc_atomic_relaxed(d64, &v, UPC_GET, cell(host, 4), NULL, NULL);
    int64_t xor_all = 0;
    for (int t = 0; t < THREADS; t++)
        xor_all ^= xor_bit(t);
    CHECK_EQ_LL(v, xor_all);
    double dv;
    upc_atomic_relaxed(dd, &dv, UPC_GET, MUPC_ELEM(dcell, host), NULL, NULL);
    CHECK(dv == 0.5 * (double)total, "double sum %g, want %g", dv, 0.5 * (double)total);
    CHECK_EQ_LL(MUPC_GET(int, MUPC_ELEM(icell, (size_t)host * 2)), 2 * total);
    if (checks_all) {
        int winners = 0, installers = 0;
        for (int t = 0; t < THREADS; t++) {
            long long flags = MUPC_GET(llong, cell(t, 6));
            installers += (int)(flags & 1);
            winners += (int)(flags >> 1);
        }
        CHECK_EQ_LL(installers, 1);
        CHECK_EQ_LL(winners, 1);
    }
    mupc_ptr_t final = MUPC_GET(pts, MUPC_ELEM(pcell, host));
    CHECK(!mupc_ptr_is_null(final) && upc_threadof(final) < (size_t)THREADS, "pts CSWAP result");
    CHECK_EQ_LL(upc_atomic_isfast(UPC_INT64, UPC_ADD, cell(MYTHREAD, 0)), 1);
    /* processor atomics exactly when every thread shares this node's
     * memory, and only up to 8 bytes (a pointer-to-shared is 16) */
    int one_node = 1;
    for (int t = 0; t < THREADS; t++)
        one_node &= upc_thread_info((size_t)t).guaranteedCastable == UPC_CASTABLE_ALL;
    int next = (MYTHREAD + 1) % THREADS;
    CHECK_EQ_LL(upc_atomic_isfast(UPC_INT64, UPC_ADD, cell(next, 0)), one_node);
    CHECK_EQ_LL(upc_atomic_isfast(UPC_PTS, UPC_SET, cell(next, 0)), THREADS == 1);
    upc_barrier();
    upc_all_atomicdomain_free(d64);
    upc_all_atomicdomain_free(dd);
    upc_all_atomicdomain_free(dp);
    if (MYTHREAD == 0)
        printf("test_atomic: %d threads OK\n", THREADS);
    return 0;
}
