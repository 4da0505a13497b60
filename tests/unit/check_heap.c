/* SPDX-License-Identifier: MIT */
/*
 * check_heap.c -- the first-fit allocator of runtime/base/heap.c, without MPI:
 * first fit, splitting, coalescing, alignment, exhaustion, bad frees and a
 * randomized fragmentation pattern checked against a shadow map.
 */
#include "base/heap.h"

#include "run_suite.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN 1000
#define END (BEGIN + 64 * 1024)

static mupci_heap_t *heap;

static void setup(void) { heap = mupci_heap_create(BEGIN, END, 64); }
static void teardown(void) { mupci_heap_destroy(heap); }

/* Highest fit: blocks come from the top down; a floor stops them and says
 * where the block would start; freed blocks merge with the space below. */
START_TEST(top_down_with_a_floor)
{
    uint64_t end = END / 64 * 64, needed = 1;
    uint64_t a = mupci_heap_alloc_top(heap, 100, 0, &needed);
    ck_assert_uint_eq(a, end - 128);
    ck_assert_uint_eq(needed, 0);
    uint64_t b = mupci_heap_alloc_top(heap, 64, a - 64, &needed);
    ck_assert_uint_eq(b, a - 64); /* exactly at the floor */
    ck_assert_uint_eq(mupci_heap_alloc_top(heap, 64, b, &needed), 0);
    ck_assert_uint_eq(needed, b - 64); /* where it would go */
    ck_assert_uint_eq(mupci_heap_live_low(heap), b);
    ck_assert_uint_eq(mupci_heap_live_high(heap), end);
    ck_assert_uint_eq(mupci_heap_alloc_top(heap, 1 << 20, 0, &needed), 0);
    ck_assert_uint_eq(needed, 0); /* no free space that large at all */
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_OK);
    /* the hole at the top is the highest fit again */
    ck_assert_uint_eq(mupci_heap_alloc_top(heap, 64, 0, &needed), end - 64);
    ck_assert_int_eq(mupci_heap_free(heap, b), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_free(heap, end - 64), MUPCI_HEAP_OK);
    ck_assert_uint_eq(mupci_heap_live_low(heap), end);
    mupci_heap_stats_t st = mupci_heap_stats(heap);
    ck_assert_uint_eq(st.free_blocks, 1);
    ck_assert_uint_eq(st.free_bytes, st.total_bytes);
}
END_TEST

/* First fit under a ceiling: the lowest fit must end at or below it. */
START_TEST(first_fit_below_a_ceiling)
{
    uint64_t a = mupci_heap_alloc_below(heap, 256, BEGIN + 1000);
    ck_assert_uint_ne(a, 0);
    ck_assert_uint_eq(mupci_heap_alloc_below(heap, 1024, a + 1024), 0);
    uint64_t b = mupci_heap_alloc_below(heap, 1024, a + 256 + 1024);
    ck_assert_uint_eq(b, a + 256);
    ck_assert_uint_eq(mupci_heap_live_high(heap), b + 1024);
}
END_TEST

START_TEST(alignment_and_bounds)
{
    ck_assert_ptr_nonnull(heap);
    uint64_t a = mupci_heap_alloc(heap, 1);
    uint64_t b = mupci_heap_alloc(heap, 65);
    ck_assert_uint_eq(a % 64, 0);
    ck_assert_uint_eq(b % 64, 0);
    ck_assert_uint_ge(a, BEGIN);
    ck_assert_uint_eq(b, a + 64);                       /* 1 byte takes one 64-byte unit */
    ck_assert_uint_eq(mupci_heap_block_bytes(heap, b), 128); /* 65 bytes take two */
    ck_assert_uint_eq(mupci_heap_alloc(heap, 0), 0);
}
END_TEST

START_TEST(first_fit_reuses_lowest_hole)
{
    uint64_t a = mupci_heap_alloc(heap, 256);
    uint64_t b = mupci_heap_alloc(heap, 256);
    uint64_t c = mupci_heap_alloc(heap, 256);
    uint64_t d = mupci_heap_alloc(heap, 256);
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_free(heap, c), MUPCI_HEAP_OK);
    /* two 256-byte holes: a 128-byte request splits the lowest one */
    uint64_t e = mupci_heap_alloc(heap, 128);
    ck_assert_uint_eq(e, a);
    uint64_t f = mupci_heap_alloc(heap, 128);
    ck_assert_uint_eq(f, a + 128);
    /* the next hole that fits 256 is c's */
    ck_assert_uint_eq(mupci_heap_alloc(heap, 256), c);
    (void)b;
    (void)d;
}
END_TEST

START_TEST(coalesce_both_neighbours)
{
    mupci_heap_stats_t empty = mupci_heap_stats(heap);
    uint64_t a = mupci_heap_alloc(heap, 1024);
    uint64_t b = mupci_heap_alloc(heap, 1024);
    uint64_t c = mupci_heap_alloc(heap, 1024);
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_free(heap, c), MUPCI_HEAP_OK); /* merges with the tail */
    ck_assert_uint_eq(mupci_heap_stats(heap).free_blocks, 2);
    ck_assert_int_eq(mupci_heap_free(heap, b), MUPCI_HEAP_OK); /* merges both sides */
    mupci_heap_stats_t s = mupci_heap_stats(heap);
    ck_assert_uint_eq(s.free_blocks, 1);
    ck_assert_uint_eq(s.used_blocks, 0);
    ck_assert_uint_eq(s.free_bytes, empty.free_bytes);
    ck_assert_uint_eq(s.largest_free, empty.total_bytes);
    /* the whole heap is one block again */
    ck_assert_uint_eq(mupci_heap_alloc(heap, empty.total_bytes), a);
}
END_TEST

START_TEST(exhaustion_returns_zero)
{
    mupci_heap_stats_t s = mupci_heap_stats(heap);
    ck_assert_uint_eq(mupci_heap_alloc(heap, s.total_bytes + 1), 0);
    uint64_t all = mupci_heap_alloc(heap, s.total_bytes);
    ck_assert_uint_ne(all, 0);
    ck_assert_uint_eq(mupci_heap_alloc(heap, 1), 0);
    ck_assert_uint_eq(mupci_heap_stats(heap).largest_free, 0);
    ck_assert_int_eq(mupci_heap_free(heap, all), MUPCI_HEAP_OK);
    ck_assert_uint_ne(mupci_heap_alloc(heap, 1), 0);
}
END_TEST

START_TEST(fragmentation_blocks_large_request)
{
    /* Fill the heap with 1 KiB blocks, free every other one: half the heap
     * is free, yet no 2 KiB request fits until a neighbour is freed. */
    size_t total = mupci_heap_stats(heap).total_bytes, n = total / 1024;
    uint64_t *blk = calloc(n, sizeof *blk);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_ne(blk[i] = mupci_heap_alloc(heap, 1024), 0);
    for (size_t i = 0; i < n; i += 2)
        ck_assert_int_eq(mupci_heap_free(heap, blk[i]), MUPCI_HEAP_OK);
    mupci_heap_stats_t s = mupci_heap_stats(heap);
    ck_assert_uint_ge(s.free_bytes, total / 2 - 1024);
    ck_assert_uint_lt(s.largest_free, 2048); /* 1 KiB holes (the last one joins the tail) */
    ck_assert_uint_eq(mupci_heap_alloc(heap, 2048), 0);
    ck_assert_int_eq(mupci_heap_free(heap, blk[1]), MUPCI_HEAP_OK);
    ck_assert_uint_eq(mupci_heap_alloc(heap, 3072), blk[0]);
    free(blk);
}
END_TEST

START_TEST(bad_frees_are_classified)
{
    uint64_t a = mupci_heap_alloc(heap, 512);
    uint64_t b = mupci_heap_alloc(heap, 512);
    ck_assert_int_eq(mupci_heap_free(heap, a + 64), MUPCI_HEAP_INTERIOR);
    ck_assert_int_eq(mupci_heap_free(heap, 8), MUPCI_HEAP_OUTSIDE);
    ck_assert_int_eq(mupci_heap_free(heap, END + 4096), MUPCI_HEAP_OUTSIDE);
    ck_assert_int_eq(mupci_heap_free(heap, b + 4096), MUPCI_HEAP_NEVER_ALLOCATED);
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_DOUBLE_FREE);
    /* a refused free changes nothing */
    ck_assert_uint_eq(mupci_heap_stats(heap).used_blocks, 1);
    ck_assert_uint_eq(mupci_heap_block_bytes(heap, b), 512);
    ck_assert_ptr_nonnull(strstr(mupci_heap_status_text(MUPCI_HEAP_DOUBLE_FREE), "double free"));
}
END_TEST

START_TEST(check_classifies_without_freeing)
{
    uint64_t a = mupci_heap_alloc(heap, 512);
    ck_assert_int_eq(mupci_heap_check(heap, a), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_check(heap, a + 64), MUPCI_HEAP_INTERIOR);
    ck_assert_int_eq(mupci_heap_check(heap, a + 4096), MUPCI_HEAP_NEVER_ALLOCATED);
    ck_assert_int_eq(mupci_heap_check(heap, END + 64), MUPCI_HEAP_OUTSIDE);
    ck_assert_uint_eq(mupci_heap_block_bytes(heap, a), 512); /* still live */
    ck_assert_int_eq(mupci_heap_free(heap, a), MUPCI_HEAP_OK);
    ck_assert_int_eq(mupci_heap_check(heap, a), MUPCI_HEAP_DOUBLE_FREE);
}
END_TEST

START_TEST(empty_heap_refuses_everything)
{
    mupci_heap_t *h = mupci_heap_create(4096, 4096, 64);
    ck_assert_ptr_nonnull(h);
    ck_assert_uint_eq(mupci_heap_alloc(h, 1), 0);
    ck_assert_int_eq(mupci_heap_free(h, 4096), MUPCI_HEAP_OUTSIDE);
    mupci_heap_destroy(h);
}
END_TEST

/* Random alloc/free mix; a shadow byte map proves live blocks never
 * overlap and that all space returns once everything is freed. */
START_TEST(random_mix_never_overlaps)
{
    enum { SLOTS = 200 };
    uint64_t off[SLOTS] = {0};
    size_t len[SLOTS] = {0};
    unsigned char *owner = calloc(END, 1);
    srand(12345);
    for (int step = 0; step < 20000; step++) {
        int i = rand() % SLOTS;
        if (off[i]) {
            memset(owner + off[i], 0, len[i]);
            ck_assert_int_eq(mupci_heap_free(heap, off[i]), MUPCI_HEAP_OK);
            off[i] = 0;
            continue;
        }
        size_t n = 1 + (size_t)(rand() % 2000);
        uint64_t o = mupci_heap_alloc(heap, n);
        if (!o)
            continue; /* full for this size: fine */
        ck_assert_uint_ge(o, BEGIN);
        ck_assert_uint_le(o + n, END);
        size_t k = 0;
        while (k < n && owner[o + k] == 0)
            k++;
        ck_assert_msg(k == n, "block at %llu overlaps a live block", (unsigned long long)o);
        memset(owner + o, 1, n);
        off[i] = o;
        len[i] = n;
    }
    for (int i = 0; i < SLOTS; i++)
        if (off[i])
            ck_assert_int_eq(mupci_heap_free(heap, off[i]), MUPCI_HEAP_OK);
    mupci_heap_stats_t s = mupci_heap_stats(heap);
    ck_assert_uint_eq(s.free_blocks, 1);
    ck_assert_uint_eq(s.free_bytes, s.total_bytes);
    free(owner);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("heap");
    TCase *tc = tcase_create("first_fit");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, alignment_and_bounds);
    tcase_add_test(tc, top_down_with_a_floor);
    tcase_add_test(tc, first_fit_below_a_ceiling);
    tcase_add_test(tc, first_fit_reuses_lowest_hole);
    tcase_add_test(tc, coalesce_both_neighbours);
    tcase_add_test(tc, exhaustion_returns_zero);
    tcase_add_test(tc, fragmentation_blocks_large_request);
    tcase_add_test(tc, bad_frees_are_classified);
    tcase_add_test(tc, check_classifies_without_freeing);
    tcase_add_test(tc, empty_heap_refuses_everything);
    tcase_add_test(tc, random_mix_never_overlaps);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
