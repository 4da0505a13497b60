/* SPDX-License-Identifier: MIT */
/*
 * check_pts.c -- pointer-to-shared arithmetic against a brute-force model
 * of the UPC layout, for many block sizes and thread counts.
 */
#include "base/pts.h"

#include "run_suite.h"

#include <check.h>
#include <stdlib.h>

int mupc_threads = 1, mupc_mythread = 0; /* normally defined by the runtime */

/* Where element i lives, straight from the layout rule. */
static mupc_ptr_t model(size_t i, size_t e, size_t b, int t, uint64_t base)
{
    mupc_ptr_t p;
    if (b == 0) {
        p.thread = 0;
        p.phase = 0;
        p.addr = base + i * e;
        return p;
    }
    p.thread = (uint32_t)((i / b) % (size_t)t);
    p.phase = (uint32_t)(i % b);
    p.addr = base + ((i / (b * (size_t)t)) * b + i % b) * e;
    return p;
}

static int same(mupc_ptr_t a, mupc_ptr_t b)
{
    return a.addr == b.addr && a.thread == b.thread && a.phase == b.phase;
}

START_TEST(add_matches_layout)
{
    size_t blocks[] = {0, 1, 2, 3, 7, 16};
    for (int t = 1; t <= 5; t++)
        for (size_t k = 0; k < sizeof blocks / sizeof blocks[0]; k++)
            for (size_t e = 1; e <= 16; e *= 2) {
                size_t b = blocks[k];
                mupc_ptr_t base = model(0, e, b, t, 64);
                for (size_t i = 0; i < 200; i++) {
                    mupc_ptr_t p = mupci_pts_add(base, (ptrdiff_t)i, e, b, t);
                    ck_assert_msg(same(p, model(i, e, b, t, 64)),
                                  "t=%d b=%zu e=%zu i=%zu: got (%u,%u,%llu)", t, b, e, i,
                                  p.thread, p.phase, (unsigned long long)p.addr);
                }
            }
}
END_TEST

START_TEST(add_from_anywhere_and_backwards)
{
    for (int t = 1; t <= 4; t++)
        for (size_t b = 0; b <= 5; b++)
            for (size_t i = 0; i < 60; i++)
                for (ptrdiff_t n = -(ptrdiff_t)i; n < 40; n += 3) {
                    mupc_ptr_t from = model(i, 8, b, t, 128);
                    mupc_ptr_t to = mupci_pts_add(from, n, 8, b, t);
                    ck_assert_msg(same(to, model((size_t)((ptrdiff_t)i + n), 8, b, t, 128)),
                                  "t=%d b=%zu: %zu%+td", t, b, i, n);
                    ck_assert_int_eq(mupci_pts_diff(to, from, 8, b, t), n);
                }
}
END_TEST

START_TEST(affinitysize_sums_and_matches)
{
    for (int t = 1; t <= 5; t++)
        for (size_t nb = 0; nb <= 24; nb += 4)
            for (size_t total = 0; total <= 200; total += 13) {
                size_t sum = 0;
                for (int th = 0; th < t; th++)
                    sum += mupci_pts_affinitysize(total, nb, (size_t)th, t);
                ck_assert_uint_eq(sum, total);
            }
    /* 10 bytes, blocks of 4, 2 threads: blocks [0-3]->0 [4-7]->1 [8-9]->0 */
    ck_assert_uint_eq(mupci_pts_affinitysize(10, 4, 0, 2), 6);
    ck_assert_uint_eq(mupci_pts_affinitysize(10, 4, 1, 2), 4);
    ck_assert_uint_eq(mupci_pts_affinitysize(10, 0, 0, 2), 10);
    ck_assert_uint_eq(mupci_pts_affinitysize(10, 0, 1, 2), 0);
}
END_TEST

START_TEST(local_bytes_cover_every_element)
{
    for (int t = 1; t <= 5; t++)
        for (size_t b = 0; b <= 6; b++)
            for (size_t n = 1; n <= 50; n++) {
                size_t bytes = mupci_pts_local_bytes(n, 4, b, t);
                for (size_t i = 0; i < n; i++) {
                    mupc_ptr_t p = model(i, 4, b, t, 0);
                    ck_assert_msg(p.addr + 4 <= bytes, "t=%d b=%zu n=%zu elem %zu", t, b, n, i);
                }
            }
}
END_TEST

/* UPC 1.3 §6.4.2: same thread and address compare equal whatever the
 * phases; a different thread or address never does. */
START_TEST(equality_ignores_phase)
{
    mupc_ptr_t p = {128, 1, 2};
    ck_assert(mupc_ptr_equal(p, upc_resetphase(p)));
    ck_assert(mupc_ptr_equal(p, (mupc_ptr_t){128, 1, 7}));
    ck_assert(!mupc_ptr_equal(p, (mupc_ptr_t){136, 1, 2}));
    ck_assert(!mupc_ptr_equal(p, (mupc_ptr_t){128, 0, 2}));
    ck_assert(upc_phaseof(upc_resetphase(p)) == 0 && upc_addrfield(upc_resetphase(p)) == 128);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("pts");
    TCase *tc = tcase_create("arithmetic");
    tcase_add_test(tc, add_matches_layout);
    tcase_add_test(tc, add_from_anywhere_and_backwards);
    tcase_add_test(tc, affinitysize_sums_and_matches);
    tcase_add_test(tc, local_bytes_cover_every_element);
    tcase_add_test(tc, equality_ignores_phase);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
