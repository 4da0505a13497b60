/* SPDX-License-Identifier: MIT */
/*
 * run_suite.h -- the main() every Check unit test shares: run one suite,
 * exit 0 only if every test passed.
 */
#ifndef MUPC_TEST_RUN_SUITE_H
#define MUPC_TEST_RUN_SUITE_H

#include <check.h>
#include <stdlib.h>

static inline int run_suite(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
