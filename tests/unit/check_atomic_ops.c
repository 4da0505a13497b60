/* SPDX-License-Identifier: MIT */
/*
 * check_atomic_ops.c -- the arithmetic of every UPC 1.3 atomic operation
 * (runtime/base/atomic_ops.c), without MPI.
 */
#include "base/atomic_ops.h"
#include "mupc.h"
#include "upc_types.h"

#include "run_suite.h"

#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* pts.c (mupc_ptr_equal) refers to these runtime variables */
int mupc_threads = 1, mupc_mythread = 0;

static long long apply_ll(int type, int op, long long start, long long a, long long b,
                          long long *old)
{
    int64_t target = start, o1 = a, o2 = b, prev = 0; /* UPC_INT64 */
    (void)type;
    mupci_atomic_apply(UPC_INT64, op, &target, &o1, &o2, &prev);
    *old = prev;
    return target;
}

START_TEST(integer_operations)
{
    long long old;
    ck_assert_int_eq(apply_ll(0, UPC_ADD, 5, 3, 0, &old), 8);
    ck_assert_int_eq(old, 5);
    ck_assert_int_eq(apply_ll(0, UPC_SUB, 5, 3, 0, &old), 2);
    ck_assert_int_eq(apply_ll(0, UPC_MULT, -4, 3, 0, &old), -12);
    ck_assert_int_eq(apply_ll(0, UPC_INC, 9, 0, 0, &old), 10);
    ck_assert_int_eq(apply_ll(0, UPC_DEC, 9, 0, 0, &old), 8);
    ck_assert_int_eq(apply_ll(0, UPC_AND, 0xf0f, 0x0ff, 0, &old), 0x00f);
    ck_assert_int_eq(apply_ll(0, UPC_OR, 0xf00, 0x00f, 0, &old), 0xf0f);
    ck_assert_int_eq(apply_ll(0, UPC_XOR, 0xff, 0x0f, 0, &old), 0xf0);
    ck_assert_int_eq(apply_ll(0, UPC_MIN, 7, -2, 0, &old), -2);
    ck_assert_int_eq(apply_ll(0, UPC_MAX, 7, -2, 0, &old), 7);
    ck_assert_int_eq(apply_ll(0, UPC_GET, 7, 0, 0, &old), 7);
    ck_assert_int_eq(old, 7);
    ck_assert_int_eq(apply_ll(0, UPC_SET, 7, 11, 0, &old), 11);
    ck_assert_int_eq(old, 7);
    ck_assert_int_eq(apply_ll(0, UPC_CSWAP, 7, 7, 42, &old), 42); /* expected matches */
    ck_assert_int_eq(apply_ll(0, UPC_CSWAP, 7, 6, 42, &old), 7);  /* it does not */
    ck_assert_int_eq(old, 7);
}
END_TEST

START_TEST(signed_overflow_wraps)
{
    int v = INT_MAX, one = 1, old;
    mupci_atomic_apply(UPC_INT, UPC_ADD, &v, &one, NULL, &old);
    ck_assert_int_eq(v, INT_MIN);
    unsigned int u = 0, uold;
    mupci_atomic_apply(UPC_UINT, UPC_DEC, &u, NULL, NULL, &uold);
    ck_assert_uint_eq(u, UINT_MAX);
}
END_TEST

START_TEST(floating_point)
{
    double d = 1.5, a = 2.25, old;
    mupci_atomic_apply(UPC_DOUBLE, UPC_ADD, &d, &a, NULL, &old);
    ck_assert(d == 3.75 && old == 1.5);
    mupci_atomic_apply(UPC_DOUBLE, UPC_MIN, &d, &a, NULL, &old);
    ck_assert(d == 2.25);
    float f = 2.0f, g = 3.0f, fold;
    mupci_atomic_apply(UPC_FLOAT, UPC_MULT, &f, &g, NULL, &fold);
    ck_assert(f == 6.0f && fold == 2.0f);
    float e = 6.0f, n = 1.0f;
    mupci_atomic_apply(UPC_FLOAT, UPC_CSWAP, &f, &e, &n, &fold);
    ck_assert(f == 1.0f);
}
END_TEST

START_TEST(pointer_to_shared)
{
    mupc_ptr_t t = {64, 1, 0}, a = {128, 2, 3}, b = {256, 3, 0}, old;
    mupci_atomic_apply(UPC_PTS, UPC_CSWAP, &t, &a, &b, &old); /* t != a: no swap */
    ck_assert(mupc_ptr_equal(t, (mupc_ptr_t){64, 1, 0}));
    mupci_atomic_apply(UPC_PTS, UPC_SET, &t, &a, NULL, &old);
    ck_assert(mupc_ptr_equal(t, a) && t.phase == 3);
    mupci_atomic_apply(UPC_PTS, UPC_CSWAP, &t, &a, &b, &old);
    ck_assert(mupc_ptr_equal(t, b) && old.addr == 128);
}
END_TEST

START_TEST(operation_sets_per_type)
{
    ck_assert(mupci_atomic_op_allowed(UPC_INT, UPC_XOR));
    ck_assert(!mupci_atomic_op_allowed(UPC_DOUBLE, UPC_XOR));
    ck_assert(mupci_atomic_op_allowed(UPC_DOUBLE, UPC_MAX));
    ck_assert(mupci_atomic_op_allowed(UPC_PTS, UPC_CSWAP));
    ck_assert(!mupci_atomic_op_allowed(UPC_PTS, UPC_ADD));
    ck_assert(!mupci_atomic_op_allowed(UPC_INT, UPC_ADD | UPC_SUB)); /* one at a time */
    ck_assert(!mupci_atomic_op_allowed(99, UPC_ADD));
    ck_assert_uint_eq(mupci_atomic_type_size(UPC_PTS), sizeof(mupc_ptr_t));
    ck_assert_uint_eq(mupci_atomic_type_size(UPC_INT32), 4);
    ck_assert_uint_eq(mupci_atomic_type_size(0), 0);
    ck_assert_int_eq(mupci_atomic_operands(UPC_CSWAP), 2);
    ck_assert_int_eq(mupci_atomic_operands(UPC_INC), 0);
    ck_assert_int_eq(mupci_atomic_operands(UPC_ADD), 1);
    ck_assert_str_eq(mupci_atomic_op_name(UPC_XOR), "UPC_XOR");
    ck_assert_str_eq(mupci_atomic_type_name(UPC_UINT64), "UPC_UINT64");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("atomic_ops");
    TCase *tc = tcase_create("apply");
    tcase_add_test(tc, integer_operations);
    tcase_add_test(tc, signed_overflow_wraps);
    tcase_add_test(tc, floating_point);
    tcase_add_test(tc, pointer_to_shared);
    tcase_add_test(tc, operation_sets_per_type);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
