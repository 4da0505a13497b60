/* SPDX-License-Identifier: MIT */
/*
 * check_backoff.c -- the idle ladder: spin, then yield for a window, then
 * sleep with doubling periods up to the cap; work resets it.  A yield
 * meter marks yields slow for a period after one slow yield.
 */
#include "base/backoff.h"

#include "run_suite.h"

#include <check.h>
#include <stdlib.h>

static const mupci_backoff_policy_t policy = {3, 1000, 100, 700};

START_TEST(ladder)
{
    mupci_backoff_t b;
    int64_t ns = 0, now = 5000;
    mupci_backoff_init(&b, &policy);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_SPIN);
    ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_YIELD);
    ck_assert_int_eq(mupci_backoff_next(&b, now + 999, &ns), MUPCI_BACKOFF_YIELD);
    ck_assert_int_eq(mupci_backoff_next(&b, now + 1000, &ns), MUPCI_BACKOFF_SLEEP);
    ck_assert_int_eq(ns, 100);
    mupci_backoff_next(&b, now + 2000, &ns);
    ck_assert_int_eq(ns, 200);
    mupci_backoff_next(&b, now + 3000, &ns);
    ck_assert_int_eq(ns, 400);
    mupci_backoff_next(&b, now + 4000, &ns);
    ck_assert_int_eq(ns, 700); /* capped */
    mupci_backoff_next(&b, now + 5000, &ns);
    ck_assert_int_eq(ns, 700);
    mupci_backoff_reset(&b);
    ck_assert_int_eq(mupci_backoff_next(&b, now + 6000, &ns), MUPCI_BACKOFF_SPIN);
}
END_TEST

START_TEST(skip_yield_goes_to_sleep)
{
    mupci_backoff_t b;
    int64_t ns = 0, now = 5000;
    mupci_backoff_init(&b, &policy);
    ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_SPIN);
    mupci_backoff_skip_yield(&b, now);
    ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_SLEEP);
    ck_assert_int_eq(ns, 100); /* the ladder's first sleep */
    ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_SLEEP);
    ck_assert_int_eq(ns, 200);
    mupci_backoff_init(&b, &policy); /* a clock that reads exactly the window */
    mupci_backoff_skip_yield(&b, policy.yield_ns);
    ck_assert_int_eq(mupci_backoff_next(&b, policy.yield_ns, &ns), MUPCI_BACKOFF_SLEEP);
    mupci_backoff_reset(&b);
    ck_assert_int_eq(mupci_backoff_next(&b, now, &ns), MUPCI_BACKOFF_SPIN);
}
END_TEST

START_TEST(yield_meter)
{
    mupci_yield_meter_t m = {0};
    int64_t t = 1000000000;
    ck_assert(!mupci_yields_slow(&m, t));
    mupci_yield_meter_note(&m, t, t + MUPCI_SLOW_YIELD_NS); /* quick enough */
    ck_assert(!mupci_yields_slow(&m, t + MUPCI_SLOW_YIELD_NS));
    int64_t end = t + MUPCI_SLOW_YIELD_NS + 1; /* slow */
    mupci_yield_meter_note(&m, t, end);
    ck_assert(mupci_yields_slow(&m, end));
    ck_assert(mupci_yields_slow(&m, end + MUPCI_SLOW_YIELD_PERIOD_NS - 1));
    ck_assert(!mupci_yields_slow(&m, end + MUPCI_SLOW_YIELD_PERIOD_NS));
    mupci_yield_metered(&m); /* a real yield on this machine: recorded, no crash */
}
END_TEST

START_TEST(idle_really_sleeps)
{
    mupci_backoff_policy_t p = {0, 0, 2000000, 2000000}; /* sleep 2 ms at once */
    mupci_backoff_t b;
    mupci_backoff_init(&b, &p);
    int64_t t0 = mupci_now_ns();
    mupci_backoff_idle(&b);
    ck_assert_int_ge(mupci_now_ns() - t0, 1900000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("backoff");
    TCase *tc = tcase_create("ladder");
    tcase_add_test(tc, ladder);
    tcase_add_test(tc, skip_yield_goes_to_sleep);
    tcase_add_test(tc, yield_meter);
    tcase_add_test(tc, idle_really_sleeps);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
