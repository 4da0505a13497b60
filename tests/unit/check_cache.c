/* SPDX-License-Identifier: MIT */
/*
 * check_cache.c -- the remote reference cache of cache/cache.c against a
 * fake transport (plain arrays stand for the other threads' segments):
 * mapping, conflicts, the victim cache, dirty masks, write-back contents,
 * bypassing accesses, invalidation, clipping, and a randomized mix checked
 * against a shadow copy.
 */
#include "cache/cache.h"
#include "base/config.h"

#include "run_suite.h"

#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 3
#define SEG (64 * 1024)
#define LINE 256
#define SETS 16
#define LO 64

static unsigned char mem[THREADS][SEG];
static struct {
    int fetches, puts, masked_puts;
    size_t fetched_bytes;
    uint64_t last_offset;
    size_t last_n;
} net;

static void fake_fetch(void *ctx, int t, uint64_t off, void *buf, size_t n)
{
    ck_assert_uint_ge(off, LO);
    ck_assert_uint_le(off + n, SEG);
    memcpy(buf, &mem[t][off], n);
    net.fetches++;
    net.fetched_bytes += n;
    net.last_offset = off;
    net.last_n = n;
}

static void fake_put(void *ctx, int t, uint64_t off, const void *data, size_t n)
{
    ck_assert_uint_ge(off, LO);
    ck_assert_uint_le(off + n, SEG);
    memcpy(&mem[t][off], data, n);
    net.puts++;
}

static void fake_put_masked(void *ctx, int t, uint64_t off, const void *data,
                            const uint64_t *mask, size_t n)
{
    ck_assert_uint_eq(n % 64, 0);
    ck_assert_uint_ge(off, LO);
    ck_assert_uint_le(off + n, SEG);
    for (size_t i = 0; i < n; i++)
        if (mask[i / 64] >> (i % 64) & 1)
            mem[t][off + i] = ((const unsigned char *)data)[i];
    net.masked_puts++;
}

static mupci_cache_t *make_limited(int victims, int max_tables)
{
    memset(&net, 0, sizeof net);
    for (int t = 0; t < THREADS; t++)
        for (int i = 0; i < SEG; i++)
            mem[t][i] = (unsigned char)(i * 7 + t * 31);
    mupci_cache_geometry_t g = {THREADS, LINE, SETS, victims, LO, SEG, max_tables};
    mupci_cache_transport_t tr = {fake_fetch, fake_put, fake_put_masked, NULL};
    mupci_cache_t *c = mupci_cache_create(&g, &tr);
    ck_assert_ptr_nonnull(c);
    return c;
}

static mupci_cache_t *make(int victims) { return make_limited(victims, 0); }

static uint64_t rd64(mupci_cache_t *c, int t, uint64_t off)
{
    uint64_t v;
    mupci_cache_read(c, t, off, &v, sizeof v);
    return v;
}

static uint64_t mem64(int t, uint64_t off)
{
    uint64_t v;
    memcpy(&v, &mem[t][off], sizeof v);
    return v;
}

#define CONFLICT (SETS * LINE) /* offsets this far apart share a set */

START_TEST(read_miss_fetches_a_line_then_hits)
{
    mupci_cache_t *c = make(0);
    uint64_t v;
    ck_assert_uint_eq(mupci_cache_read(c, 1, 4096 + 16, &v, 8), LINE);
    ck_assert_uint_eq(v, mem64(1, 4096 + 16));
    ck_assert_uint_eq(net.last_offset, 4096);
    ck_assert_uint_eq(net.last_n, LINE);
    for (int i = 0; i < LINE; i += 8) {
        uint64_t w;
        ck_assert_uint_eq(mupci_cache_read(c, 1, 4096 + (uint64_t)i, &w, 8), 0);
        ck_assert_uint_eq(w, mem64(1, 4096 + (uint64_t)i));
    }
    ck_assert_int_eq(net.fetches, 1);
    const mupci_cache_stats_t *s = mupci_cache_stats(c);
    ck_assert_uint_eq(s->misses, 1);
    ck_assert_uint_eq(s->hits, LINE / 8);
    ck_assert_uint_eq(s->bytes_fetched, LINE);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(conflicts_evict_and_threads_do_not_share_tables)
{
    mupci_cache_t *c = make(0);
    rd64(c, 1, 4096);
    rd64(c, 2, 4096); /* another thread's table: no conflict */
    rd64(c, 1, 4096 + LINE); /* the next set */
    ck_assert_int_eq(net.fetches, 3);
    rd64(c, 1, 4096);
    rd64(c, 2, 4096);
    ck_assert_int_eq(net.fetches, 3);
    rd64(c, 1, 4096 + CONFLICT); /* same set: displaces 4096 */
    ck_assert_int_eq(net.fetches, 4);
    ck_assert_uint_eq(mupci_cache_stats(c)->evictions, 1);
    rd64(c, 1, 4096);
    ck_assert_int_eq(net.fetches, 5);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(victim_cache_brings_lines_back)
{
    mupci_cache_t *c = make(2);
    rd64(c, 1, 4096);
    rd64(c, 1, 4096 + CONFLICT); /* 4096 -> victim */
    ck_assert_int_eq(net.fetches, 2);
    ck_assert_uint_eq(rd64(c, 1, 4096 + 8), mem64(1, 4096 + 8)); /* swapped back */
    ck_assert_uint_eq(rd64(c, 1, 4096 + CONFLICT + 8), mem64(1, 4096 + CONFLICT + 8));
    ck_assert_int_eq(net.fetches, 2);
    const mupci_cache_stats_t *s = mupci_cache_stats(c);
    ck_assert_uint_eq(s->victim_hits, 2);
    ck_assert_uint_eq(s->evictions, 0);
    /* a third line of the set: the least recently used victim leaves */
    rd64(c, 1, 4096 + 2 * CONFLICT);
    rd64(c, 1, 4096 + 3 * CONFLICT);
    ck_assert_uint_eq(s->evictions, 1);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(dirty_victim_is_written_back_when_it_leaves)
{
    mupci_cache_t *c = make(1);
    uint64_t v = 0x1122334455667788ull;
    int allocated;
    mupci_cache_write(c, 2, 8192, &v, 8, &allocated);
    ck_assert_int_eq(allocated, 1);
    ck_assert_int_eq(net.fetches, 0); /* a write miss does not fetch */
    rd64(c, 2, 8192 + CONFLICT);      /* dirty line -> victim */
    ck_assert_uint_ne(mem64(2, 8192), v);
    rd64(c, 2, 8192 + 2 * CONFLICT); /* victim full: the dirty line leaves */
    ck_assert_uint_eq(mem64(2, 8192), v);
    ck_assert_int_eq(net.puts, 1);
    ck_assert_uint_eq(mupci_cache_stats(c)->writebacks, 1);
    ck_assert_uint_eq(mupci_cache_stats(c)->bytes_written_back, 8);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(write_back_sends_only_written_bytes)
{
    mupci_cache_t *c = make(0);
    unsigned char ours[4] = {0xA1, 0xA2, 0xA3, 0xA4};
    int allocated;
    mupci_cache_write(c, 1, 4096, ours, 4, &allocated);
    mupci_cache_write(c, 1, 4096 + 8, ours, 4, &allocated);
    ck_assert_int_eq(allocated, 0);
    /* another thread writes the bytes in between meanwhile */
    mem[1][4096 + 4] = 0x5A;
    mem[1][4096 + 100] = 0x5B;
    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), 1);
    ck_assert_int_eq(had, 1);
    ck_assert_int_eq(net.masked_puts, 1); /* two runs: one masked put */
    ck_assert_mem_eq(&mem[1][4096], ours, 4);
    ck_assert_mem_eq(&mem[1][4096 + 8], ours, 4);
    ck_assert_uint_eq(mem[1][4096 + 4], 0x5A);
    ck_assert_uint_eq(mem[1][4096 + 100], 0x5B);
    /* one run: a plain put */
    mupci_cache_write(c, 1, 4096 + 200, ours, 4, &allocated);
    mupci_cache_write(c, 1, 4096 + 204, ours, 4, &allocated);
    mupci_cache_invalidate(c, &had);
    ck_assert_int_eq(net.puts, 1);
    ck_assert_int_eq(net.masked_puts, 1);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(read_after_write_miss_merges_the_line)
{
    mupci_cache_t *c = make(0);
    uint32_t ours = 0xDEADBEEF;
    int allocated;
    mupci_cache_write(c, 1, 4100, &ours, 4, &allocated);
    uint32_t back;
    ck_assert_uint_eq(mupci_cache_read(c, 1, 4100, &back, 4), 0); /* written bytes: a hit */
    ck_assert_uint_eq(back, ours);
    ck_assert_int_eq(net.fetches, 0);
    unsigned char wide[16];
    ck_assert_uint_eq(mupci_cache_read(c, 1, 4096, wide, 16), LINE);
    ck_assert_mem_eq(wide, &mem[1][4096], 4);
    ck_assert_mem_eq(wide + 4, &ours, 4);
    ck_assert_mem_eq(wide + 8, &mem[1][4104], 8);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(access_straddling_two_lines)
{
    mupci_cache_t *c = make(0);
    uint64_t v;
    ck_assert_uint_eq(mupci_cache_read(c, 1, 4096 + LINE - 4, &v, 8), 2 * LINE);
    ck_assert_uint_eq(v, mem64(1, 4096 + LINE - 4));
    uint64_t w = 0x0102030405060708ull;
    int allocated;
    mupci_cache_write(c, 2, 4096 + LINE - 4, &w, 8, &allocated);
    int had;
    mupci_cache_invalidate(c, &had);
    ck_assert_uint_eq(mem64(2, 4096 + LINE - 4), w);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(bypassing_accesses_stay_in_order)
{
    mupci_cache_t *c = make(2);
    uint64_t v = 42;
    int allocated;
    mupci_cache_write(c, 1, 4096, &v, 8, &allocated);
    mupci_cache_prepare_read(c, 1, 4000, 200); /* overlaps the dirty line */
    ck_assert_uint_eq(mem64(1, 4096), 42);
    ck_assert_uint_eq(rd64(c, 1, 4096), 42); /* line kept */
    mupci_cache_prepare_read(c, 1, 0, 64);    /* elsewhere: nothing happens */
    ck_assert_int_eq(net.puts, 1);
    /* a bypassing write drops the line, so the next read fetches */
    int before = net.fetches;
    mupci_cache_prepare_write(c, 1, 4096 + 8, 8);
    memset(&mem[1][4096 + 8], 0x77, 8);
    ck_assert_uint_eq(rd64(c, 1, 4096 + 8), 0x7777777777777777ull);
    ck_assert_int_eq(net.fetches, before + 1);
    /* a range covering the whole table (and the victim cache) */
    for (int i = 0; i < 4; i++)
        mupci_cache_write(c, 2, (uint64_t)(4096 + i * CONFLICT), &v, 8, &allocated);
    mupci_cache_prepare_write(c, 2, LO, SEG - LO);
    for (int i = 0; i < 4; i++)
        ck_assert_uint_eq(mem64(2, (uint64_t)(4096 + i * CONFLICT)), 42);
    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), 0);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(lines_are_clipped_to_the_segment)
{
    mupci_cache_t *c = make(0);
    uint64_t v;
    ck_assert_uint_eq(mupci_cache_read(c, 1, LO, &v, 8), LINE - LO);
    ck_assert_uint_eq(net.last_offset, LO);
    ck_assert_uint_eq(mupci_cache_read(c, 1, SEG - 8, &v, 8), LINE);
    ck_assert_uint_eq(net.last_offset + net.last_n, SEG);
    mupci_cache_destroy(c);
}
END_TEST

START_TEST(invalidate_empties_the_cache)
{
    mupci_cache_t *c = make(4);
    for (int i = 0; i < 8; i++)
        rd64(c, 1 + i % 2, (uint64_t)(4096 + i * CONFLICT));
    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), 0);
    ck_assert_int_eq(had, 1);
    const mupci_cache_stats_t *s = mupci_cache_stats(c);
    ck_assert_uint_eq(s->invalidations, 1);
    ck_assert_uint_eq(s->lines_invalidated, 6); /* one per thread in the table, 4 victims */
    int before = net.fetches;
    rd64(c, 1, 4096);
    ck_assert_int_eq(net.fetches, before + 1);
    mupci_cache_invalidate(c, &had);
    mupci_cache_invalidate(c, &had);
    ck_assert_int_eq(had, 0);
    ck_assert_uint_eq(s->invalidations, 2);
    mupci_cache_destroy(c);
}
END_TEST

/* One table at most (max_tables = 1): caching another thread writes back
 * the first one's dirty bytes, takes its lines out of the victim cache too,
 * and a later read of the first thread fetches again and sees the write. */
START_TEST(past_max_tables_the_oldest_table_is_reused)
{
    mupci_cache_t *c = make_limited(2, 1);
    int allocated;
    unsigned char w = 0xab;
    mupci_cache_write(c, 1, 4096 + 3, &w, 1, &allocated);
    uint64_t before = rd64(c, 1, 4096 + CONFLICT); /* same set: the written line */
    ck_assert_uint_eq(before, mem64(1, 4096 + CONFLICT)); /* goes to the victim cache */
    ck_assert_int_eq(net.puts + net.masked_puts, 0);
    ck_assert_uint_eq(mupci_cache_threads_cached(c), 1);

    ck_assert_uint_eq(rd64(c, 2, 8192), mem64(2, 8192)); /* thread 2 takes the table */
    ck_assert_int_eq(net.puts, 1);
    ck_assert_uint_eq(mem[1][4096 + 3], 0xab);
    ck_assert_uint_eq(mupci_cache_threads_cached(c), 1);
    ck_assert_uint_eq(mupci_cache_tables_reused(c), 1);
    ck_assert_uint_eq(mupci_cache_stats(c)->evictions, 2);

    int fetches = net.fetches;
    uint64_t v;
    ck_assert_uint_eq(mupci_cache_read(c, 1, 4096, &v, 8), LINE); /* a miss again */
    ck_assert_uint_eq(v & 0xffffffff, (uint64_t)(mem64(1, 4096) & 0xffffffff));
    ck_assert_uint_eq(((unsigned char *)&v)[3], 0xab);
    ck_assert_int_eq(net.fetches, fetches + 1);
    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), 0);
    ck_assert_int_eq(had, 1);
    mupci_cache_destroy(c);
}
END_TEST

/* One thread's view: whatever mix of reads, writes, bypassing accesses and
 * fences it makes, it reads what it wrote, and after a fence memory holds
 * exactly the shadow copy; also with one table for the two remote threads,
 * so tables are reused all the time. */
START_TEST(random_mix_matches_a_shadow_copy)
{
    static unsigned char shadow[THREADS][SEG];
    mupci_cache_t *c = make_limited(_i % 3, _i / 3); /* 0, 1 and 2 victim lines */
    memcpy(shadow, mem, sizeof mem);
    srand(1234u + (unsigned)_i);
    for (int step = 0; step < 20000; step++) {
        int t = 1 + rand() % (THREADS - 1);
        /* a few hot lines per set, so conflicts and victims happen */
        uint64_t off = 4096 + (uint64_t)(rand() % 4) * CONFLICT + (uint64_t)(rand() % (SETS * LINE));
        size_t n = 1 + (size_t)(rand() % 16);
        unsigned char buf[16];
        int what = rand() % 100;
        if (what < 45) {
            mupci_cache_read(c, t, off, buf, n);
            ck_assert_mem_eq(buf, &shadow[t][off], n);
        } else if (what < 90) {
            int allocated;
            for (size_t i = 0; i < n; i++)
                buf[i] = (unsigned char)rand();
            mupci_cache_write(c, t, off, buf, n, &allocated);
            memcpy(&shadow[t][off], buf, n);
        } else if (what < 95) {
            mupci_cache_prepare_read(c, t, off, n);
            ck_assert_mem_eq(&mem[t][off], &shadow[t][off], n);
        } else if (what < 99) {
            mupci_cache_prepare_write(c, t, off, n);
            memset(&mem[t][off], step & 0xff, n);
            memset(&shadow[t][off], step & 0xff, n);
        } else {
            int had;
            mupci_cache_invalidate(c, &had);
            ck_assert(memcmp(mem, shadow, sizeof mem) == 0);
        }
    }
    int had;
    mupci_cache_invalidate(c, &had);
    ck_assert(memcmp(mem, shadow, sizeof mem) == 0);
    const mupci_cache_stats_t *s = mupci_cache_stats(c);
    ck_assert_uint_gt(s->evictions + s->victim_hits, 0);
    mupci_cache_destroy(c);
}
END_TEST


/* A job of 100,000 threads (the largest the model of doc/architecture.md
 * goes to), default geometry: creating the cache costs a pointer per
 * thread, not a table; a thread's table comes with its first access and
 * what it costs in touched memory is a few pages; every cached line is
 * still found, written back and invalidated. */
#define BIG_JOB 100000
#define BIG_LINE 1024
#define BIG_SETS 256

static size_t heap_bytes(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd; /* in use from the heap, and mmap'd chunks */
}

static size_t resident_bytes(void)
{
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%ld %ld", &pages, &resident), 2);
    fclose(f);
    return (size_t)resident * (size_t)sysconf(_SC_PAGESIZE);
}

/* A sanitizer's shadow memory grows the resident set with every page the
 * program touches, and ASan's allocator writes shadow for whole blocks
 * (make check-sanitize: 39.8 MB for the 100 threads under TSan against the
 * 2.9 MB bound): there the footprint check says nothing about the cache, so
 * only the plain build makes it. */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define SANITIZER_SHADOWS_MEMORY 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define SANITIZER_SHADOWS_MEMORY 1
#endif
#endif
#ifndef SANITIZER_SHADOWS_MEMORY
#define SANITIZER_SHADOWS_MEMORY 0
#endif

static unsigned char big_seg[2 * BIG_LINE];
static int big_fetches, big_puts;

static void big_fetch(void *ctx, int t, uint64_t off, void *buf, size_t n)
{
    ck_assert_uint_le(off + n, sizeof big_seg);
    memset(buf, (int)(t % 251), n);
    big_fetches++;
}

static void big_put(void *ctx, int t, uint64_t off, const void *data, size_t n)
{
    ck_assert_uint_eq(((const unsigned char *)data)[0], (unsigned char)(t % 253));
    big_puts++;
}

START_TEST(a_100000_thread_job_pays_for_the_threads_it_touches)
{
    size_t heap0 = heap_bytes();
    mupci_cache_geometry_t g = {BIG_JOB, BIG_LINE, BIG_SETS, 8, 0, sizeof big_seg, 0};
    mupci_cache_transport_t tr = {big_fetch, big_put, fake_put_masked, NULL};
    mupci_cache_t *c = mupci_cache_create(&g, &tr);
    ck_assert_ptr_nonnull(c);
    size_t created = heap_bytes() - heap0;
    /* the row pointers, the victims and their masks, a scratch line */
    ck_assert_msg(created <= (size_t)BIG_JOB * sizeof(void *) + 64 * 1024,
                  "an unused cache of %d threads takes %zu bytes", BIG_JOB, created);
    ck_assert_uint_eq(mupci_cache_threads_cached(c), 0);

    /* 100 threads spread over the job: a read and a write each */
    size_t rss0 = resident_bytes();
    for (int t = 0; t < BIG_JOB; t += BIG_JOB / 100) {
        uint64_t v;
        unsigned char w = (unsigned char)(t % 253);
        ck_assert_uint_eq(mupci_cache_read(c, t, 8, &v, sizeof v), BIG_LINE);
        ck_assert_uint_eq(v & 0xff, (uint64_t)(t % 251));
        int allocated;
        mupci_cache_write(c, t, BIG_LINE + 8, &w, 1, &allocated);
        ck_assert_int_eq(allocated, 1);
    }
    ck_assert_uint_eq(mupci_cache_threads_cached(c), 100);
    ck_assert_int_eq(big_fetches, 100);
    size_t touched = resident_bytes() - rss0;
    /* each thread: its line descriptors (sets x 48 bytes), two data pages
     * and a mask page; no more */
    size_t per_thread = BIG_SETS * 48 + 3 * 4096 + 4096;
    if (!SANITIZER_SHADOWS_MEMORY)
        ck_assert_msg(touched <= 100 * per_thread,
                      "caching 100 threads touched %zu bytes (at most %zu expected)", touched,
                      100 * per_thread);

    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), 100);
    ck_assert_int_eq(had, 1);
    ck_assert_int_eq(big_puts, 100);
    ck_assert_uint_eq(mupci_cache_stats(c)->lines_invalidated, 200);
    mupci_cache_destroy(c);
}
END_TEST

/* The same job, a rank that reads and writes every one of the 100,000
 * threads with cache_memory at its default (settings.def): it never holds
 * more than the tables that fit, every write still reaches its thread, and
 * the heap stays within cache_memory. */
START_TEST(a_rank_touching_every_thread_stays_within_cache_memory)
{
    size_t heap0 = heap_bytes();
    mupci_cache_geometry_t g = {BIG_JOB, BIG_LINE, BIG_SETS, 8, 0, sizeof big_seg, 0};
    mupci_config_t defaults;
    mupci_config_defaults(&defaults);
    size_t budget = defaults.cache_memory;
    g.max_tables = (int)(budget / mupci_cache_table_bytes(&g));
    ck_assert_int_eq(g.max_tables, 160); /* doc/architecture.md quotes it */
    mupci_cache_transport_t tr = {big_fetch, big_put, fake_put_masked, NULL};
    mupci_cache_t *c = mupci_cache_create(&g, &tr);
    ck_assert_ptr_nonnull(c);
    big_fetches = big_puts = 0;
    for (int t = 0; t < BIG_JOB; t++) {
        uint64_t v;
        unsigned char w = (unsigned char)(t % 253);
        ck_assert_uint_eq(mupci_cache_read(c, t, 8, &v, sizeof v), BIG_LINE);
        int allocated;
        mupci_cache_write(c, t, BIG_LINE + 8, &w, 1, &allocated);
    }
    ck_assert_uint_eq(mupci_cache_threads_cached(c), (size_t)g.max_tables);
    ck_assert_int_eq(big_fetches, BIG_JOB);
    ck_assert_int_eq(big_puts, BIG_JOB - g.max_tables); /* the reused tables' writes */
    size_t used = heap_bytes() - heap0;
    ck_assert_msg(used <= (size_t)BIG_JOB * sizeof(void *) + 64 * 1024 + budget,
                  "caching all %d threads took %zu bytes of heap", BIG_JOB, used);
    int had;
    ck_assert_uint_eq(mupci_cache_invalidate(c, &had), (size_t)g.max_tables);
    ck_assert_int_eq(big_puts, BIG_JOB);
    mupci_cache_destroy(c);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("cache");
    tcase_add_test(tc, read_miss_fetches_a_line_then_hits);
    tcase_add_test(tc, conflicts_evict_and_threads_do_not_share_tables);
    tcase_add_test(tc, victim_cache_brings_lines_back);
    tcase_add_test(tc, dirty_victim_is_written_back_when_it_leaves);
    tcase_add_test(tc, write_back_sends_only_written_bytes);
    tcase_add_test(tc, read_after_write_miss_merges_the_line);
    tcase_add_test(tc, access_straddling_two_lines);
    tcase_add_test(tc, bypassing_accesses_stay_in_order);
    tcase_add_test(tc, lines_are_clipped_to_the_segment);
    tcase_add_test(tc, invalidate_empties_the_cache);
    tcase_add_test(tc, past_max_tables_the_oldest_table_is_reused);
    tcase_add_loop_test(tc, random_mix_matches_a_shadow_copy, 0, 6);
    tcase_add_test(tc, a_100000_thread_job_pays_for_the_threads_it_touches);
    tcase_add_test(tc, a_rank_touching_every_thread_stays_within_cache_memory);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
