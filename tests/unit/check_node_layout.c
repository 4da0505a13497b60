/* SPDX-License-Identifier: MIT */
/*
 * check_node_layout.c -- which pretend node each thread is on
 * (mupci_node_layout, runtime/transport/layout.c): real nodes, simulate_nodes blocks,
 * and both together; nodes numbered in order of their lowest thread.
 */
#include "transport/node.h"

#include "run_suite.h"

#include <check.h>

static void expect(const int *node_of, const int *want, int threads)
{
    for (int t = 0; t < threads; t++)
        ck_assert_msg(node_of[t] == want[t], "thread %d: node %d, want %d", t, node_of[t], want[t]);
}

START_TEST(one_real_node)
{
    int real[4] = {0, 0, 0, 0}, node_of[4], want[4] = {0, 0, 0, 0};
    ck_assert_int_eq(mupci_node_layout(real, 4, 1, node_of), 1);
    expect(node_of, want, 4);
}
END_TEST

START_TEST(simulated_halves)
{
    int real[4] = {0, 0, 0, 0}, node_of[4], want[4] = {0, 0, 1, 1};
    ck_assert_int_eq(mupci_node_layout(real, 4, 2, node_of), 2);
    expect(node_of, want, 4);
    int want3[3] = {0, 0, 1}; /* thread t in block t * 2 / 3 */
    ck_assert_int_eq(mupci_node_layout(real, 3, 2, node_of), 2);
    expect(node_of, want3, 3);
}
END_TEST

START_TEST(more_pretend_nodes_than_threads)
{
    int real[2] = {0, 0}, node_of[2], want[2] = {0, 1};
    ck_assert_int_eq(mupci_node_layout(real, 2, 9, node_of), 2);
    expect(node_of, want, 2);
}
END_TEST

START_TEST(real_nodes_interleaved)
{
    /* a round-robin launcher: ranks 0 and 2 on one host, 1 and 3 on another */
    int real[4] = {0, 1, 0, 1}, node_of[4], want[4] = {0, 1, 0, 1};
    ck_assert_int_eq(mupci_node_layout(real, 4, 1, node_of), 2);
    expect(node_of, want, 4);
}
END_TEST

START_TEST(real_and_simulated)
{
    /* two real nodes of 4, each cut in two by simulate_nodes = 4 */
    int real[8] = {0, 0, 0, 0, 4, 4, 4, 4}, node_of[8], want[8] = {0, 0, 1, 1, 2, 2, 3, 3};
    ck_assert_int_eq(mupci_node_layout(real, 8, 4, node_of), 4);
    expect(node_of, want, 8);
    /* simulate_nodes = 2 matches the real split: still 2 nodes */
    int want2[8] = {0, 0, 0, 0, 1, 1, 1, 1};
    ck_assert_int_eq(mupci_node_layout(real, 8, 2, node_of), 2);
    expect(node_of, want2, 8);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("node_layout");
    TCase *tc = tcase_create("layout");
    tcase_add_test(tc, one_real_node);
    tcase_add_test(tc, simulated_halves);
    tcase_add_test(tc, more_pretend_nodes_than_threads);
    tcase_add_test(tc, real_nodes_interleaved);
    tcase_add_test(tc, real_and_simulated);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
