/* SPDX-License-Identifier: MIT */
/*
 * check_coll_ops.c -- the reduction arithmetic of the collectives
 * (collectives/coll_ops.c) and the binomial-tree arithmetic (coll_net.h),
 * without MPI.
 */
#include "collectives/coll_net.h"
#include "collectives/coll_ops.h"

#include "run_suite.h"

#include <check.h>
#include <string.h>

static int last_nonzero(int a, int b) { return b != 0 ? b : a; }
static double dmax(double a, double b) { return a > b ? a : b; }

static mupci_redop_t redop(mupci_red_type_t type, upc_op_t op, void (*func)(void))
{
    mupci_redop_t r = {type, op, func};
    return r;
}

START_TEST(every_integer_operation)
{
    static const int x[] = {6, -3, 5, 0, 12};
    static const struct {
        upc_op_t op;
        int expected;
    } cases[] = {
        {UPC_ADD, 20},    {UPC_MULT, 0},   {UPC_AND, 6 & -3 & 5 & 0 & 12},
        {UPC_OR, 6 | -3 | 5 | 0 | 12},      {UPC_XOR, 6 ^ -3 ^ 5 ^ 0 ^ 12},
        {UPC_LOGAND, 0},  {UPC_LOGOR, 1},  {UPC_MIN, -3}, {UPC_MAX, 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        mupci_redop_t r = redop(MUPCI_RED_I, cases[i].op, NULL);
        ck_assert_ptr_null(mupci_redop_invalid(&r));
        int acc = 0;
        mupci_redop_fold(&r, &acc, 0, x, 5);
        ck_assert_msg(acc == cases[i].expected, "%s: %d, expected %d",
                      mupci_red_op_name(cases[i].op), acc, cases[i].expected);
    }
}
END_TEST

START_TEST(fold_with_and_without_start)
{
    mupci_redop_t r = redop(MUPCI_RED_UC, UPC_ADD, NULL);
    unsigned char x[] = {200, 100}, acc = 10;
    mupci_redop_fold(&r, &acc, 1, x, 2); /* wraps modulo 256 */
    ck_assert_int_eq(acc, (10 + 200 + 100) % 256);
    mupci_redop_fold(&r, &acc, 0, x, 1);
    ck_assert_int_eq(acc, 200);
}
END_TEST

START_TEST(noncommutative_order)
{
    mupci_redop_t r = redop(MUPCI_RED_I, UPC_NONCOMM_FUNC, (void (*)(void))last_nonzero);
    ck_assert(!mupci_redop_commutes(&r));
    int x[] = {4, 0, 7, 0}, out[4], acc = 0;
    mupci_redop_scan(&r, &acc, 0, x, out, 4);
    ck_assert_int_eq(out[0], 4);
    ck_assert_int_eq(out[1], 4);
    ck_assert_int_eq(out[2], 7);
    ck_assert_int_eq(out[3], 7);
    int left[] = {1, 2}, right[] = {0, 9}, res[2];
    mupci_redop_apply(&r, res, left, right, 2); /* left is the earlier operand */
    ck_assert_int_eq(res[0], 1);
    ck_assert_int_eq(res[1], 9);
}
END_TEST

START_TEST(scan_in_place_with_start)
{
    mupci_redop_t r = redop(MUPCI_RED_D, UPC_FUNC, (void (*)(void))dmax);
    double x[] = {1.5, -2, 8, 3}, acc = 4;
    mupci_redop_scan(&r, &acc, 1, x, x, 4);
    ck_assert(x[0] == 4 && x[1] == 4 && x[2] == 8 && x[3] == 8 && acc == 8);
    mupci_redop_t ld = redop(MUPCI_RED_LD, UPC_MULT, NULL);
    long double y[] = {2, 3, 0.5L}, lacc;
    mupci_redop_scan(&ld, &lacc, 0, y, y, 3);
    ck_assert(y[0] == 2 && y[1] == 6 && y[2] == 3 && lacc == 3);
}
END_TEST

START_TEST(invalid_combinations)
{
    mupci_redop_t r = redop(MUPCI_RED_F, UPC_XOR, NULL);
    ck_assert_ptr_nonnull(strstr(mupci_redop_invalid(&r), "integer type"));
    r = redop(MUPCI_RED_L, UPC_FUNC, NULL);
    ck_assert_ptr_nonnull(strstr(mupci_redop_invalid(&r), "func is NULL"));
    r = redop(MUPCI_RED_L, UPC_CSWAP, NULL);
    ck_assert_ptr_nonnull(strstr(mupci_redop_invalid(&r), "not a reduction operation"));
    r = redop(MUPCI_RED_D, UPC_LOGAND, NULL);
    ck_assert_ptr_null(mupci_redop_invalid(&r));
    ck_assert_int_eq(mupci_red_type_size(MUPCI_RED_US), sizeof(unsigned short));
    ck_assert_str_eq(mupci_red_type_name(MUPCI_RED_UL), "UL");
}
END_TEST

/* Every virtual rank but 0 has exactly one parent, whose subtree contains
 * it; the children's spans tile the parent's span without gaps. */
START_TEST(binomial_tree_shape)
{
    for (int n = 1; n <= 37; n++) {
        ck_assert_int_eq(mupci_tree_span(0, n), n);
        for (int v = 0; v < n; v++) {
            int covered = v + 1;
            for (int k = 1; k < mupci_tree_lowbit(v, n) && v + k < n; k <<= 1) {
                ck_assert_int_eq(v + k, covered); /* contiguous, in order */
                ck_assert_int_eq(mupci_tree_parent(v + k), v);
                covered += mupci_tree_span(v + k, n);
            }
            ck_assert_int_eq(covered, v + mupci_tree_span(v, n));
        }
        for (int root = 0; root < n; root++)
            for (int t = 0; t < n; t++)
                ck_assert_int_eq(mupci_tree_thread(mupci_tree_vrank(t, root, n), root, n), t);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("coll_ops");
    TCase *tc = tcase_create("ops");
    tcase_add_test(tc, every_integer_operation);
    tcase_add_test(tc, fold_with_and_without_start);
    tcase_add_test(tc, noncommutative_order);
    tcase_add_test(tc, scan_in_place_with_start);
    tcase_add_test(tc, invalid_combinations);
    tcase_add_test(tc, binomial_tree_shape);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
