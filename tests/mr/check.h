/* SPDX-License-Identifier: MIT */
/*
 * check.h -- assertions for multi-rank test programs: a failed check prints
 * the thread, file:line and the values, then ends the job with status 1.
 */
#ifndef MUPC_TEST_CHECK_H
#define MUPC_TEST_CHECK_H

#include <mupc_upc.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond, ...)                                                                \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "FAIL: thread %d: %s:%d: %s: ", MYTHREAD, __FILE__, __LINE__, \
                    #cond);                                                             \
            fprintf(stderr, __VA_ARGS__);                                               \
            fputc('\n', stderr);                                                        \
            fflush(stderr);                                                             \
            upc_global_exit(1);                                                         \
        }                                                                               \
    } while (0)

#define CHECK_EQ_LL(a, b)                                                               \
    CHECK((long long)(a) == (long long)(b), "%lld != %lld", (long long)(a), (long long)(b))

/* A contention loop's iterations per thread: `small` up to 16 threads,
 * then `total` shared out (at least `least` each), so the target is as
 * contended at 1,024 threads without hours of cross-host round trips in
 * make check-scale (128 ranks to an emulated host of 2 cores). */
static inline int per_thread_share(int small, int total, int least)
{
    if (THREADS <= 16)
        return small;
    return total / THREADS > least ? total / THREADS : least;
}

/* The threads an all-pairs loop visits: every thread up to 16 threads;
 * past that the first two, the middle one and the last two, the same on
 * every thread (a collective may take them as roots), so a test that
 * checks every pair stays O(THREADS) in all at 1,024 threads (make
 * check-scale).  Fills out[] and returns how many. */
#define SAMPLED_THREADS_MAX 16
static inline int sampled_threads(int out[SAMPLED_THREADS_MAX])
{
    int n = 0;
    if (THREADS <= SAMPLED_THREADS_MAX) {
        for (int t = 0; t < THREADS; t++)
            out[n++] = t;
        return n;
    }
    const int picks[] = {0, 1, THREADS / 2, THREADS - 2, THREADS - 1};
    for (size_t k = 0; k < sizeof picks / sizeof picks[0]; k++)
        out[n++] = picks[k];
    return n;
}

/* Is thread t one of sampled_threads()? */
static inline int thread_is_sampled(int t)
{
    int picks[SAMPLED_THREADS_MAX], n = sampled_threads(picks);
    for (int k = 0; k < n; k++)
        if (picks[k] == t)
            return 1;
    return 0;
}

#endif
