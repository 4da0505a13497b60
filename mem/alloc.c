/* SPDX-License-Identifier: MIT */
/*
 * alloc.c -- upc_global_alloc, upc_all_alloc, upc_alloc, upc_free,
 * upc_all_free over the heaps of alloc.h.
 *
 * Symmetric blocks are carved on thread 0: upc_global_alloc asks it with a
 * HEAP_ALLOC request, upc_all_alloc through a rendezvous whose action
 * allocates once for everybody.  upc_alloc takes from the caller's own
 * local heap.  A free goes to the owner of the pointer (thread 0 keeps the
 * symmetric heap too), and to thread 0 when the owner has no such local
 * block, and waits for the verdict, so that a bad free is reported with
 * the caller's file and line.
 *
 * The two heaps share the space after the static data (alloc.h): the
 * symmetric heap fills it from the bottom (first fit), each local heap
 * from the top (highest fit), so either can use what the other does not.
 * Each thread's local heap has a floor no symmetric block reaches above;
 * thread 0 keeps every thread's floor and places symmetric blocks below
 * the lowest.  A local heap lowers its floor by asking thread 0 (granted
 * if no symmetric block is in the way), and raises it again when its
 * blocks are freed, keeping `slack` below its lowest block so that
 * upc_alloc does not ask on every call.  Floor changes carry a change
 * number, so thread 0 applies them in the order they were made.
 */
#include "mem/alloc.h"
#include "mem/bounds.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "base/job.h"
#include "base/gasp_hooks.h"
#include "base/heap.h"
#include "cache/rcache.h"
#include "transport/rendezvous.h"
#include "transport/segment.h"

#include <stdio.h>
#include <stdlib.h>

/* Every block starts on a 64-byte boundary: enough for any scalar, and a
 * block never shares a cache line with its neighbour (the remote reference cache's lines). */
#define HEAP_ALIGN 64

enum { HEAP_STATUS_NOMEM = 0xffff, TOP_ROOM = 4096 };

static void all_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out);

static mupci_heap_t *symmetric; /* thread 0 only */
static mupci_heap_t *local;
static int local_percent;       /* local_heap_percent */

/* This thread's floor and its bookkeeping (progress lock held). */
static uint64_t local_floor;  /* no symmetric block reaches above it */
static uint64_t local_limit;  /* the lowest floor local_heap_percent allows */
static uint64_t slack;        /* free room kept below the lowest local block */
static uint64_t floor_changes; /* numbers this thread's floor changes */
static int lowering;          /* a request to lower the floor is on its way */

/* Thread 0 only: every thread's floor, as the latest change applied. */
static uint64_t *floors, *floor_change_seen;

static uint64_t align_down(uint64_t n) { return n & ~(uint64_t)(HEAP_ALIGN - 1); }

void mupci_alloc_init(const mupci_config_t *cfg)
{
    size_t size = mupci_segment_bytes, stat = mupci_segment_static_end;
    /* The first local block sits at the top; a page of room above it lets
     * an access just past its end be judged as such (checks = bounds),
     * not only as past the segment. */
    uint64_t top = size > stat + 2 * TOP_ROOM ? align_down(size - TOP_ROOM) : align_down(size);
    local_percent = cfg->local_heap_percent;
    uint64_t cap = (uint64_t)(size / 100) * (uint64_t)local_percent;
    local_limit = cap >= top - stat ? stat : align_down(top - cap);
    local_floor = top; /* empty until the first upc_alloc */
    /* a 64th of the heaps' space, at most 4 MiB: few floor requests, and
     * little space kept from the symmetric heap */
    slack = align_down((top - stat) / 64);
    if (slack > (4u << 20))
        slack = 4u << 20;
    local = mupci_heap_create(stat, top, HEAP_ALIGN);
    if (mupc_mythread == 0) {
        symmetric = mupci_heap_create(stat, top, HEAP_ALIGN);
        floors = malloc((size_t)mupc_threads * sizeof *floors);
        floor_change_seen = calloc((size_t)mupc_threads, sizeof *floor_change_seen);
        if (floors)
            for (int t = 0; t < mupc_threads; t++)
                floors[t] = top;
    }
    if (!local || (mupc_mythread == 0 && (!symmetric || !floors || !floor_change_seen)))
        mupci_fatal("out of memory for the heap bookkeeping");
    mupci_rv_set_action(MUPCI_RV_ALL_ALLOC, all_alloc_action);
}

void mupci_alloc_finalize(void)
{
    mupci_heap_destroy(local);
    mupci_heap_destroy(symmetric);
    free(floors);
    free(floor_change_seen);
    local = symmetric = NULL;
    floors = floor_change_seen = NULL;
}

int mupci_alloc_is_local_heap(uint64_t offset) { return offset >= local_floor; }

/* ---- the floors (progress lock held) ---- */

/* Thread 0: the lowest floor, and whose it is. */
static uint64_t symmetric_ceiling(int *thread)
{
    int lowest = 0;
    for (int t = 1; t < mupc_threads; t++)
        if (floors[t] < floors[lowest])
            lowest = t;
    *thread = lowest;
    return floors[lowest];
}

/* Thread 0: apply thread t's floor change number `change`.  A lowering is
 * refused (returns 0) when a symmetric block reaches above `floor`;
 * *blocker is then that block's end. */
static int apply_floor(int t, uint64_t floor, uint64_t change, int lower, uint64_t *blocker)
{
    if (change <= floor_change_seen[t])
        return 0; /* overtaken by a later change (only raises are posted) */
    floor_change_seen[t] = change;
    *blocker = mupci_heap_live_high(symmetric);
    if (lower && *blocker > floor)
        return 0;
    floors[t] = floor;
    return 1;
}

static void mupci_handle_HEAP_FLOOR(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    uint64_t blocker = 0;
    int lower = m->flags & 1;
    int granted = apply_floor(src, m->offset, m->size, lower, &blocker);
    if (lower)
        mupci_reply(src, m->op, (uint16_t)granted, blocker, 0);
}

/* After a local block is freed: give the symmetric heap back what lies
 * more than two slacks below the lowest local block, keeping one. */
static void return_free_floor_locked(void)
{
    uint64_t low = mupci_heap_live_low(local);
    if (lowering || low < local_floor + 2 * slack)
        return;
    local_floor = low - slack;
    uint64_t blocker;
    if (mupc_mythread == 0) {
        apply_floor(0, local_floor, ++floor_changes, 0, &blocker);
    } else {
        mupci_msg_t m = {MUPCI_MSG_HEAP_FLOOR, 0, 0, local_floor, ++floor_changes};
        mupci_post_locked(0, &m, NULL, 0);
    }
}

/* Ask thread 0 to let the local heap reach down to `floor` (lock not
 * held).  Returns 1 if granted; else *blocker is the end of the symmetric
 * block in the way. */
static int lower_floor(uint64_t floor, uint64_t *blocker)
{
    mupci_engine_lock();
    uint64_t change = ++floor_changes;
    int granted;
    if (mupc_mythread == 0) {
        granted = apply_floor(0, floor, change, 1, blocker);
    } else {
        lowering = 1; /* no raise may overtake this request */
        mupci_engine_unlock();
        mupci_msg_t m = {MUPCI_MSG_HEAP_FLOOR, 1, 0, floor, change};
        mupci_reply_t r;
        mupci_request(0, &m, NULL, 0, &r);
        granted = r.status == 1;
        *blocker = r.word[0];
        mupci_engine_lock();
        lowering = 0;
    }
    if (granted && floor < local_floor)
        local_floor = floor;
    mupci_engine_unlock();
    return granted;
}

/* ---- errors ---- */

static const char *const raise_segment =
    "raise segment_size in mupc.conf (or MUPC_SEGMENT_SIZE), or free shared memory";

/* r: HEAP_STATUS_NOMEM from thread 0, words: the symmetric heap's bytes in
 * use, and (thread << 44 | offset) of the lowest local floor. */
static void symmetric_exhausted(const char *what, size_t asked, const mupci_reply_t *r,
                                const char *file, int line) __attribute__((noreturn));
static void symmetric_exhausted(const char *what, size_t asked, const mupci_reply_t *r,
                                const char *file, int line)
{
    uint64_t floor = r->word[1] & ((1ull << 44) - 1);
    mupci_fatal_at(file, line,
                   "%s: out of shared memory: asked for %zu bytes per thread, but the symmetric "
                   "heap (upc_all_alloc, upc_global_alloc) has %llu bytes in use and thread "
                   "%llu's local heap (upc_alloc) reaches down to offset %llu of the %zu-byte "
                   "segment: no free space below it is large enough; %s",
                   what, asked, (unsigned long long)r->word[0],
                   (unsigned long long)(r->word[1] >> 44), (unsigned long long)floor,
                   mupci_segment_bytes, raise_segment);
}

static size_t local_bytes_in_use(void)
{
    mupci_engine_lock();
    mupci_heap_stats_t s = mupci_heap_stats(local);
    mupci_engine_unlock();
    return s.total_bytes - s.free_bytes;
}

/* upc_alloc: `blocker` is the end of the symmetric heap's highest block
 * (0: the local heap itself has no free space that large). */
static void local_exhausted(size_t asked, uint64_t blocker, int at_limit, const char *file,
                            int line) __attribute__((noreturn));
static void local_exhausted(size_t asked, uint64_t blocker, int at_limit, const char *file,
                            int line)
{
    size_t used = local_bytes_in_use();
    if (at_limit)
        mupci_fatal_at(file, line,
                       "upc_alloc: out of shared memory: asked for %zu bytes, but this thread's "
                       "local heap has %zu bytes in use and may use at most %d%% of the "
                       "%zu-byte segment; raise local_heap_percent (or MUPC_LOCAL_HEAP_PERCENT) "
                       "or segment_size in mupc.conf",
                       asked, used, local_percent, mupci_segment_bytes);
    if (blocker == 0)
        mupci_fatal_at(file, line,
                       "upc_alloc: out of shared memory: asked for %zu bytes, but this thread's "
                       "local heap (upc_alloc) has %zu bytes in use and no free space in the "
                       "%zu-byte segment is that large; %s",
                       asked, used, mupci_segment_bytes, raise_segment);
    mupci_fatal_at(file, line,
                   "upc_alloc: out of shared memory: asked for %zu bytes, but this thread's "
                   "local heap (upc_alloc) has %zu bytes in use at the top of the %zu-byte "
                   "segment and the symmetric heap (upc_all_alloc, upc_global_alloc) reaches up "
                   "to offset %llu: no free space between them is large enough; %s",
                   asked, used, mupci_segment_bytes, (unsigned long long)blocker, raise_segment);
}

/* Bytes per thread of `nblocks` blocks of `nbytes`, dealt round robin;
 * 1 if that overflows. */
static int per_thread(size_t nblocks, size_t nbytes, size_t *bytes)
{
    size_t rows = nblocks / (size_t)mupc_threads + (nblocks % (size_t)mupc_threads != 0);
    return __builtin_mul_overflow(rows, nbytes, bytes);
}

static size_t per_thread_bytes(const char *what, size_t nblocks, size_t nbytes, const char *file,
                               int line)
{
    size_t bytes;
    if (per_thread(nblocks, nbytes, &bytes))
        mupci_fatal_at(file, line, "%s(%zu, %zu): the size overflows", what, nblocks, nbytes);
    return bytes;
}

/* ---- allocation at a heap's keeper (progress lock held) ---- */

/* checks = bounds: at least one byte after every block belongs to no
 * object, so an access just past the end is caught even when the block
 * fills its 64-byte units */
static size_t with_guard(size_t n) { return n + (mupci_bounds_on && n > 0 && n < SIZE_MAX); }

/* Thread 0: a symmetric block below every local heap's floor. */
static void alloc_symmetric(size_t n, mupci_reply_t *out)
{
    int lowest;
    uint64_t ceiling = symmetric_ceiling(&lowest);
    uint64_t offset = mupci_heap_alloc_below(symmetric, with_guard(n), ceiling);
    if (offset) {
        *out = (mupci_reply_t){{offset, 0}, 0};
        return;
    }
    mupci_heap_stats_t s = mupci_heap_stats(symmetric);
    *out = (mupci_reply_t){{s.total_bytes - s.free_bytes, ((uint64_t)lowest << 44) | ceiling},
                           HEAP_STATUS_NOMEM};
}

/* A symmetric block of `n` bytes per thread holding `nblocks` blocks dealt
 * round robin: each is n / rows bytes (checks = bounds records it). */
static void record_symmetric(const mupci_reply_t *r, mupci_bounds_kind_t kind, size_t n,
                             size_t nblocks)
{
    size_t rows = nblocks / (size_t)mupc_threads + (nblocks % (size_t)mupc_threads != 0);
    if (r->status == 0 && rows > 0)
        mupci_bounds_add(r->word[0], kind, nblocks, n / rows);
}

/* `offset` carries upc_global_alloc's nblocks. */
static void mupci_handle_HEAP_ALLOC(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_reply_t r;
    alloc_symmetric((size_t)m->size, &r);
    record_symmetric(&r, MUPCI_BOUNDS_GLOBAL, (size_t)m->size, (size_t)m->offset);
    mupci_reply(src, m->op, r.status, r.word[0], r.word[1]);
}

enum { HEAP_FREE_CHECK_ONLY = 1, HEAP_FREE_SYMMETRIC = 2 };

/* Sent to the pointer's owner; thread 0 keeps the symmetric heap too.  An
 * offset below another thread's local heap is answered NOT_LOCAL: the
 * caller then asks thread 0 (HEAP_FREE_SYMMETRIC) why it cannot be freed. */
static void mupci_handle_HEAP_FREE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    int is_local = !(m->flags & HEAP_FREE_SYMMETRIC) && mupci_alloc_is_local_heap(m->offset);
    if (!is_local && mupc_mythread != 0) {
        mupci_reply(src, m->op, MUPCI_ALLOC_NOT_LOCAL, 0, 0);
        return;
    }
    mupci_heap_t *heap = is_local ? local : symmetric;
    int check_only = m->flags & HEAP_FREE_CHECK_ONLY;
    mupci_heap_status_t status = check_only ? mupci_heap_check(heap, m->offset)
                                            : mupci_heap_free(heap, m->offset);
    if (!check_only && status == MUPCI_HEAP_OK) {
        mupci_bounds_remove(m->offset);
        if (is_local)
            return_free_floor_locked();
    }
    mupci_reply(src, m->op, (uint16_t)status, 0, 0);
}

/* args: nblocks, nbytes (every thread checked that the size fits). */
static void all_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out)
{
    size_t n = 0;
    per_thread((size_t)args[0], (size_t)args[1], &n);
    alloc_symmetric(n, out);
    record_symmetric(out, MUPCI_BOUNDS_ALL, n, (size_t)args[0]);
}

/* ---- the API ---- */

static mupc_ptr_t symmetric_result(const char *what, size_t asked, const mupci_reply_t *r,
                                   const char *file, int line)
{
    if (r->status == HEAP_STATUS_NOMEM)
        symmetric_exhausted(what, asked, r, file, line);
    return (mupc_ptr_t){r->word[0], 0, 0};
}

mupc_ptr_t mupc_global_alloc(size_t nblocks, size_t nbytes, const char *file, int line)
{
    mupci_upc_thread_only("upc_global_alloc", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_GLOBAL_ALLOC, GASP_START, 0, file, line, nblocks, nbytes);
    mupc_ptr_t p = MUPC_NULL_PTR;
    size_t n = per_thread_bytes("upc_global_alloc", nblocks, nbytes, file, line);
    if (n > 0) {
        mupci_msg_t m = {MUPCI_MSG_HEAP_ALLOC, 0, 0, nblocks, n};
        mupci_reply_t r;
        mupci_request(0, &m, NULL, 0, &r);
        p = symmetric_result("upc_global_alloc", n, &r, file, line);
    }
    MUPCI_GASP_EVENT(GASP_UPC_GLOBAL_ALLOC, GASP_END, 0, file, line, nblocks, nbytes, &p);
    return p;
}

mupc_ptr_t mupc_all_alloc(size_t nblocks, size_t nbytes, const char *file, int line)
{
    mupci_upc_thread_only("upc_all_alloc", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_ALL_ALLOC, GASP_START, 0, file, line, nblocks, nbytes);
    size_t n = per_thread_bytes("upc_all_alloc", nblocks, nbytes, file, line);
    mupci_reply_t r;
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)nblocks, (uint64_t)nbytes};
    mupci_rendezvous(MUPCI_RV_ALL_ALLOC, args, "upc_all_alloc", file, line, &r);
    mupc_ptr_t p = n ? symmetric_result("upc_all_alloc", n, &r, file, line) : MUPC_NULL_PTR;
    MUPCI_GASP_EVENT(GASP_UPC_ALL_ALLOC, GASP_END, 0, file, line, nblocks, nbytes, &p);
    return p;
}

/* Highest fit at or above the floor, lowering the floor (one slack more
 * than needed when the symmetric heap allows) when the space is below it. */
static uint64_t alloc_local(size_t nbytes, const char *file, int line)
{
    for (;;) {
        uint64_t needed_floor;
        mupci_engine_lock(); /* remote frees change this heap from handlers */
        uint64_t offset = mupci_heap_alloc_top(local, with_guard(nbytes), local_floor,
                                               &needed_floor);
        if (offset)
            mupci_bounds_add(offset, MUPCI_BOUNDS_ALLOC, 1, nbytes);
        mupci_engine_unlock();
        if (offset)
            return offset;
        if (needed_floor == 0)
            local_exhausted(nbytes, 0, 0, file, line);
        if (needed_floor < local_limit)
            local_exhausted(nbytes, 0, 1, file, line);
        uint64_t roomy = needed_floor - local_limit > slack ? needed_floor - slack : local_limit;
        uint64_t blocker;
        if (!lower_floor(roomy, &blocker) && !lower_floor(needed_floor, &blocker))
            local_exhausted(nbytes, blocker, 0, file, line);
    }
}

mupc_ptr_t mupc_alloc(size_t nbytes, const char *file, int line)
{
    mupci_upc_thread_only("upc_alloc", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_ALLOC, GASP_START, 0, file, line, nbytes);
    mupc_ptr_t p = MUPC_NULL_PTR;
    if (nbytes > 0)
        p = (mupc_ptr_t){alloc_local(nbytes, file, line), (uint32_t)mupc_mythread, 0};
    MUPCI_GASP_EVENT(GASP_UPC_ALLOC, GASP_END, 0, file, line, nbytes, &p);
    return p;
}

static void bad_free(const char *what, mupc_ptr_t p, const char *why, const char *file,
                     int line) __attribute__((noreturn));
static void bad_free(const char *what, mupc_ptr_t p, const char *why, const char *file, int line)
{
    mupci_fatal_at(file, line,
                   "%s: the pointer-to-shared (thread %u, offset %llu, phase %u) %s", what,
                   p.thread, (unsigned long long)p.addr, p.phase, why);
}

/* Why p cannot be freed, judged from the segment layout alone, or NULL. */
static const char *outside_heaps(mupc_ptr_t p)
{
    if (p.thread >= (uint32_t)mupc_threads)
        return "names a thread that does not exist";
    if (p.addr >= mupci_segment_bytes)
        return "lies beyond the end of the shared segment (only pointers returned by an "
               "allocation can be freed)";
    if (p.addr < MUPCI_SEGMENT_RESERVED)
        return "is not a pointer an allocation returned (offsets below 64 are reserved)";
    if (p.addr < mupci_segment_static_end)
        return "points into static shared data, which cannot be freed";
    return NULL;
}

/* A live block's start named with another thread or a phase: not the
 * pointer the allocation returned. */
static void not_returned(const char *what, mupc_ptr_t p, const char *file, int line)
    __attribute__((noreturn));
static void not_returned(const char *what, mupc_ptr_t p, const char *file, int line)
{
    char why[200];
    if (p.phase != 0)
        snprintf(why, sizeof why, "has phase %u: free the pointer the allocation returned "
                 "(phase 0)", p.phase);
    else /* symmetric: the allocation returned thread 0's */
        snprintf(why, sizeof why, "points at thread %u's part of a block from "
                 "upc_global_alloc or upc_all_alloc: free the pointer the allocation "
                 "returned (thread 0)", p.thread);
    bad_free(what, p, why, file, line);
}

static void free_block(const char *what, mupc_ptr_t p, const char *file, int line)
{
    const char *outside = outside_heaps(p);
    if (outside)
        bad_free(what, p, outside, file, line);
    /* A block is freed through the pointer the allocation returned, phase
     * 0; for any other, the keeper only checks, so the reason is exact. */
    mupci_msg_t m = {MUPCI_MSG_HEAP_FREE, p.phase != 0 ? HEAP_FREE_CHECK_ONLY : 0, 0, p.addr, 0};
    mupci_reply_t r;
    mupci_request((int)p.thread, &m, NULL, 0, &r);
    if (r.status == MUPCI_ALLOC_NOT_LOCAL) { /* another thread's part of a symmetric block? */
        m.flags = HEAP_FREE_CHECK_ONLY | HEAP_FREE_SYMMETRIC;
        mupci_request(0, &m, NULL, 0, &r);
        if (r.status == MUPCI_HEAP_OK)
            not_returned(what, p, file, line);
    }
    if (r.status != MUPCI_HEAP_OK)
        bad_free(what, p, mupci_heap_status_text((mupci_heap_status_t)r.status), file, line);
    if (p.phase != 0)
        not_returned(what, p, file, line);
}

static int (*is_lock_handle)(mupc_ptr_t p);
static void (*free_lock_handle)(mupc_ptr_t p, const char *file, int line);

void mupci_alloc_set_lock_free(int (*is_lock)(mupc_ptr_t p),
                               void (*lock_free)(mupc_ptr_t p, const char *file, int line))
{
    is_lock_handle = is_lock;
    free_lock_handle = lock_free;
}

void mupc_free(mupc_ptr_t p, const char *file, int line)
{
    mupci_upc_thread_only("upc_free", file, line);
    if (is_lock_handle && is_lock_handle(p)) {
        free_lock_handle(p, file, line);
        return;
    }
    MUPCI_GASP_EVENT(GASP_UPC_FREE, GASP_START, 0, file, line, &p);
    /* This thread's cached writes land before the memory can be reused. */
    mupci_fence(file, line);
    if (!mupc_ptr_is_null(p))
        free_block("upc_free", p, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_FREE, GASP_END, 0, file, line, &p);
}

/* Collective: the rendezvous answers no thread before every thread has
 * arrived, so thread 0 frees the block (through the heap's keeper, like
 * upc_free) only after every thread has made its last use of it. */
void mupc_all_free(mupc_ptr_t p, const char *file, int line)
{
    mupci_upc_thread_only("upc_all_free", file, line);
    MUPCI_GASP_EVENT(GASP_UPC_FREE, GASP_START, 0, file, line, &p);
    mupci_fence(file, line); /* as in mupc_free */
    uint64_t args[MUPCI_RV_NARGS] = {p.thread, p.addr, p.phase};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_ALL_FREE, args, "upc_all_free", file, line, &r);
    if (mupc_mythread == 0 && !mupc_ptr_is_null(p))
        free_block("upc_all_free", p, file, line);
    MUPCI_GASP_EVENT(GASP_UPC_FREE, GASP_END, 0, file, line, &p);
}

void mupc_heap_info(mupc_heap_info_t *info)
{
    mupci_engine_lock();
    mupci_heap_stats_t l = mupci_heap_stats(local);
    mupci_heap_stats_t s = symmetric ? mupci_heap_stats(symmetric) : (mupci_heap_stats_t){0};
    mupci_engine_unlock();
    *info = (mupc_heap_info_t){s.total_bytes, s.free_bytes, s.largest_free, s.used_blocks,
                               l.total_bytes, l.free_bytes, l.largest_free, l.used_blocks};
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_HEAP_FLOOR, mupci_handle_HEAP_FLOOR},
    {MUPCI_MSG_HEAP_ALLOC, mupci_handle_HEAP_ALLOC},
    {MUPCI_MSG_HEAP_FREE, mupci_handle_HEAP_FREE},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
