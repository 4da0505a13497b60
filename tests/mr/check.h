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

#endif
