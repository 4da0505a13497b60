/*
 * alloc.c -- upc_global_alloc, upc_all_alloc, upc_alloc, upc_free,
 * upc_all_free over the heaps of alloc.h.
 *
 * Symmetric blocks are carved on thread 0: upc_global_alloc asks it with a
 * HEAP_ALLOC request, upc_all_alloc through a rendezvous whose action
 * allocates once for everybody.  upc_alloc takes from the caller's own
 * local heap without messages.  A free goes to the heap's keeper (thread 0
 * or the owner of a local block) and waits for the verdict, so that a bad
 * free is reported with the caller's file and line.
 */
#include "alloc.h"
#include "bounds.h"
#include "engine.h"
#include "fatal.h"
#include "gasp_hooks.h"
#include "heap.h"
#include "rcache.h"
#include "rendezvous.h"
#include "segment.h"

#include <stdio.h>

/* Every block starts on a 64-byte boundary: enough for any scalar, and a
 * block never shares a cache line with its neighbour (issue 4's cache). */
#define HEAP_ALIGN 64

enum { HEAP_STATUS_NOMEM = 0xffff };

static void all_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out);

static mupci_heap_t *symmetric; /* thread 0 only */
static mupci_heap_t *local;
static uint64_t local_begin;

void mupci_alloc_init(const mupci_config_t *cfg)
{
    size_t size = mupci_segment_bytes, stat = mupci_segment_static_end;
    size_t local_bytes = size / 100 * (size_t)cfg->local_heap_percent;
    if (size - local_bytes < stat)
        mupci_fatal_plain("local_heap_percent (%d%% of segment_size, %zu bytes) and the static "
                          "shared data (%zu bytes) do not fit in segment_size (%zu bytes); raise "
                          "segment_size or lower local_heap_percent in mupc.conf",
                          cfg->local_heap_percent, local_bytes, stat, size);
    local_begin = (size - local_bytes) & ~(uint64_t)(HEAP_ALIGN - 1);
    if (local_begin < stat)
        local_begin = stat;
    local = mupci_heap_create(local_begin, size, HEAP_ALIGN);
    if (mupc_mythread == 0)
        symmetric = mupci_heap_create(stat, local_begin, HEAP_ALIGN);
    if (!local || (mupc_mythread == 0 && !symmetric))
        mupci_fatal("out of memory for the heap bookkeeping");
    mupci_rv_set_action(MUPCI_RV_ALL_ALLOC, all_alloc_action);
}

void mupci_alloc_finalize(void)
{
    mupci_heap_destroy(local);
    mupci_heap_destroy(symmetric);
    local = symmetric = NULL;
}

int mupci_alloc_is_local_heap(uint64_t offset) { return offset >= local_begin; }

/* ---- errors ---- */

static void exhausted(const char *what, size_t asked, const mupci_reply_t *r, int is_local,
                      const char *file, int line) __attribute__((noreturn));
static void exhausted(const char *what, size_t asked, const mupci_reply_t *r, int is_local,
                      const char *file, int line)
{
    mupci_fatal_at(file, line,
                   "%s: out of shared memory: asked for %zu bytes per thread, but the %s heap "
                   "has %llu bytes free and its largest free block is %llu bytes; raise %s in "
                   "mupc.conf (or MUPC_%s)",
                   what, asked, is_local ? "local (upc_alloc)" : "symmetric",
                   (unsigned long long)r->word[0], (unsigned long long)r->word[1],
                   is_local ? "local_heap_percent or segment_size" : "segment_size",
                   is_local ? "LOCAL_HEAP_PERCENT" : "SEGMENT_SIZE");
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

static void alloc_from(mupci_heap_t *heap, size_t n, mupci_reply_t *out)
{
    /* checks = bounds: at least one byte after every block belongs to no
     * object, so an access just past the end is caught even when the
     * block fills its 64-byte units */
    uint64_t offset = mupci_heap_alloc(heap, n + (mupci_bounds_on && n > 0 && n < SIZE_MAX));
    if (offset) {
        *out = (mupci_reply_t){{offset, 0}, 0};
        return;
    }
    mupci_heap_stats_t s = mupci_heap_stats(heap);
    *out = (mupci_reply_t){{s.free_bytes, s.largest_free}, HEAP_STATUS_NOMEM};
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
void mupci_handle_HEAP_ALLOC(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_reply_t r;
    alloc_from(symmetric, (size_t)m->size, &r);
    record_symmetric(&r, MUPCI_BOUNDS_GLOBAL, (size_t)m->size, (size_t)m->offset);
    mupci_reply(src, m->op, r.status, r.word[0], r.word[1]);
}

enum { HEAP_FREE_CHECK_ONLY = 1 };

void mupci_handle_HEAP_FREE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    mupci_heap_t *heap = mupci_alloc_is_local_heap(m->offset) ? local : symmetric;
    int check_only = m->flags & HEAP_FREE_CHECK_ONLY;
    mupci_heap_status_t status = check_only ? mupci_heap_check(heap, m->offset)
                                            : mupci_heap_free(heap, m->offset);
    if (!check_only && status == MUPCI_HEAP_OK)
        mupci_bounds_remove(m->offset);
    mupci_reply(src, m->op, (uint16_t)status, 0, 0);
}

/* args: nblocks, nbytes (every thread checked that the size fits). */
static void all_alloc_action(const uint64_t args[MUPCI_RV_NARGS], mupci_reply_t *out)
{
    size_t n = 0;
    per_thread((size_t)args[0], (size_t)args[1], &n);
    alloc_from(symmetric, n, out);
    record_symmetric(out, MUPCI_BOUNDS_ALL, n, (size_t)args[0]);
}

/* ---- the API ---- */

static mupc_ptr_t symmetric_result(const char *what, size_t asked, const mupci_reply_t *r,
                                   const char *file, int line)
{
    if (r->status == HEAP_STATUS_NOMEM)
        exhausted(what, asked, r, 0, file, line);
    return (mupc_ptr_t){r->word[0], 0, 0};
}

mupc_ptr_t mupc_global_alloc(size_t nblocks, size_t nbytes, const char *file, int line)
{
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
    MUPCI_GASP_EVENT(GASP_UPC_ALL_ALLOC, GASP_START, 0, file, line, nblocks, nbytes);
    size_t n = per_thread_bytes("upc_all_alloc", nblocks, nbytes, file, line);
    mupci_reply_t r;
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)nblocks, (uint64_t)nbytes};
    mupci_rendezvous(MUPCI_RV_ALL_ALLOC, args, "upc_all_alloc", file, line, &r);
    mupc_ptr_t p = n ? symmetric_result("upc_all_alloc", n, &r, file, line) : MUPC_NULL_PTR;
    MUPCI_GASP_EVENT(GASP_UPC_ALL_ALLOC, GASP_END, 0, file, line, nblocks, nbytes, &p);
    return p;
}

mupc_ptr_t mupc_alloc(size_t nbytes, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_UPC_ALLOC, GASP_START, 0, file, line, nbytes);
    mupc_ptr_t p = MUPC_NULL_PTR;
    if (nbytes > 0) {
        mupci_reply_t r;
        mupci_engine_lock(); /* remote frees change this heap from handlers */
        alloc_from(local, nbytes, &r);
        if (r.status == 0)
            mupci_bounds_add(r.word[0], MUPCI_BOUNDS_ALLOC, 1, nbytes);
        mupci_engine_unlock();
        if (r.status == HEAP_STATUS_NOMEM)
            exhausted("upc_alloc", nbytes, &r, 1, file, line);
        p = (mupc_ptr_t){r.word[0], (uint32_t)mupc_mythread, 0};
    }
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
    int is_local = mupci_alloc_is_local_heap(p.addr);
    /* A symmetric block is freed through thread 0's pointer, phase 0; for
     * any other, the keeper only checks, so the reason is exact. */
    int wrong = p.phase != 0 || (!is_local && p.thread != 0);
    mupci_msg_t m = {MUPCI_MSG_HEAP_FREE, wrong ? HEAP_FREE_CHECK_ONLY : 0, 0, p.addr, 0};
    mupci_reply_t r;
    mupci_request(is_local ? (int)p.thread : 0, &m, NULL, 0, &r);
    if (r.status != MUPCI_HEAP_OK)
        bad_free(what, p, mupci_heap_status_text((mupci_heap_status_t)r.status), file, line);
    if (wrong)
        not_returned(what, p, file, line);
}

void mupc_free(mupc_ptr_t p, const char *file, int line)
{
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
