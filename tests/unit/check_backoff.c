/* SPDX-License-Identifier: MIT */
/*
 * check_backoff.c -- the idle ladder: spin, then yield for a window, then
 * sleep with doubling periods up to the cap; work resets it.  A yield
 * meter marks yields slow while the time lost in slow ones is large; the
 * waiting policy made from what the host costs.
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
    mupci_yield_meter_t m = {0, 0};
    int64_t t = 1000000000;
    ck_assert(!mupci_yields_slow(&m, t));
    mupci_yield_meter_note(&m, t, t + MUPCI_SLOW_YIELD_NS); /* quick enough: not counted */
    ck_assert_int_eq(m.lost_ns, 0);
    /* slow ones add up; slow once past MUPCI_SLOW_YIELD_LOST_NS */
    int64_t slow = MUPCI_SLOW_YIELD_NS + 1, at = t;
    int n = 0;
    while (!mupci_yields_slow(&m, at)) {
        mupci_yield_meter_note(&m, at, at + slow);
        at += slow;
        n++;
        ck_assert_int_le(n, MUPCI_SLOW_YIELD_LOST_NS / slow + 1);
    }
    ck_assert_int_eq(n, MUPCI_SLOW_YIELD_LOST_NS / slow + 1);
    /* one half-life later the sum is halved: quick again */
    ck_assert(!mupci_yields_slow(&m, at + MUPCI_SLOW_YIELD_HALF_LIFE_NS));
    /* a single yield longer than the whole budget (a busy process's
     * slice) is slow at once, and forgotten after enough half-lives */
    mupci_yield_meter_t one = {0, 0};
    mupci_yield_meter_note(&one, t, t + 2 * MUPCI_SLOW_YIELD_LOST_NS);
    ck_assert(mupci_yields_slow(&one, t + 2 * MUPCI_SLOW_YIELD_LOST_NS));
    ck_assert(!mupci_yields_slow(&one, t + 2 * MUPCI_SLOW_YIELD_LOST_NS +
                                           2 * MUPCI_SLOW_YIELD_HALF_LIFE_NS));
    mupci_yield_metered(&m); /* a real yield on this machine: recorded, no crash */
}
END_TEST

/* The policy: the competitive rule with cores to spare, the message
 * path's yields when oversubscribed, sleeps until rung when bells
 * announce everything, and a user's yield window and longest sleep
 * obeyed. */
START_TEST(wait_policies)
{
    mupci_wait_host_t h = {.wake_ns = 90000, .ranks_per_core = 1, .spin_polls = 100,
                           .yield_window_ns = 2000000, .yield_window_set = 0,
                           .sleep_max_ns = 2000000, .idle_longest_ns = 4000000,
                           .bells_announce_all = 1};
    mupci_wait_policies_t p = mupci_wait_policies(&h);
    ck_assert_int_eq(p.bell.spin_polls, 100);
    ck_assert_int_eq(p.bell.yield_ns, 90000); /* one wake-up */
    ck_assert_int_eq(p.bell.sleep_min_ns, 4000000); /* until rung: the bound only */
    ck_assert_int_eq(p.bell.sleep_max_ns, 4000000);
    ck_assert_int_eq(p.timed.yield_ns, 2000000);
    ck_assert_int_eq(p.timed.sleep_min_ns, 10000); /* the ladder */
    ck_assert_int_eq(p.timed.sleep_max_ns, 2000000);
    /* every message rings it: the bound is a safety net */
    ck_assert_int_eq(p.comm_idle.sleep_min_ns, MUPCI_COMM_RUNG_SLEEP_NS);
    ck_assert_int_eq(p.comm_idle.sleep_max_ns, MUPCI_COMM_RUNG_SLEEP_NS);
    ck_assert_int_eq(p.comm_timed.sleep_min_ns, 20000);
    ck_assert_int_eq(p.comm_timed.sleep_max_ns, 4000000);
    ck_assert_int_eq(p.comm_defer.spin_polls, 0);
    ck_assert_int_eq(p.comm_defer.yield_ns, 0);

    h.wake_ns = 10; /* clamped */
    ck_assert_int_eq(mupci_wait_policies(&h).bell.yield_ns, MUPCI_WAKE_NS_MIN);
    h.wake_ns = 10000000;
    ck_assert_int_eq(mupci_wait_policies(&h).bell.yield_ns, MUPCI_WAKE_NS_MAX);

    h.ranks_per_core = 2; /* oversubscribed: fewer spins, the message path's yields */
    p = mupci_wait_policies(&h);
    ck_assert_int_eq(p.bell.spin_polls, 25);
    ck_assert_int_eq(p.bell.yield_ns, 2000000);

    h.sleep_max_set = 1; /* idle_sleep_max_us set by the user: taken as it is */
    ck_assert_int_eq(mupci_wait_policies(&h).comm_idle.sleep_max_ns, 4000000);
    h.sleep_max_set = 0;
    h.idle_longest_ns = 2 * MUPCI_COMM_RUNG_SLEEP_NS; /* never shortened */
    ck_assert_int_eq(mupci_wait_policies(&h).comm_idle.sleep_max_ns, 2 * MUPCI_COMM_RUNG_SLEEP_NS);
    h.idle_longest_ns = 4000000;

    h.ranks_per_core = 1;
    h.yield_window_ns = 300000; /* set by the user: taken as it is */
    h.yield_window_set = 1;
    ck_assert_int_eq(mupci_wait_policies(&h).bell.yield_ns, 300000);

    h.bells_announce_all = 0; /* messages from other nodes: the timed ladder */
    p = mupci_wait_policies(&h);
    ck_assert_int_eq(p.comm_idle.sleep_min_ns, 20000);
    ck_assert_int_eq(p.comm_idle.yield_ns, 300000);
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
    tcase_add_test(tc, wait_policies);
    tcase_add_test(tc, idle_really_sleeps);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
