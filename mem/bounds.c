/* SPDX-License-Identifier: MIT */
/*
 * bounds.c -- the checks of `checks = bounds` (see bounds.h).
 *
 * Where the check runs: at the accessing thread, before the access leaves
 * it, so that a bad access is stopped before any byte moves and the error
 * carries the caller's file:line without a round trip of error reports.
 * The thread must then know the object an offset of any thread falls in:
 *  - static shared arrays are placed symmetrically at start-up, so every
 *    thread knows all of them (runtime/transport/segment.c);
 *  - a heap block is known to its heap's keeper, which records it at
 *    allocation: the owner for a upc_alloc block, thread 0 for the
 *    symmetric heap of upc_global_alloc/upc_all_alloc.  The accessing
 *    thread asks the keeper (a BOUNDS_QUERY request; to itself it is a
 *    direct call) for the live block at or below the offset, and keeps
 *    the answers in a small table until its next fence.  A block freed by
 *    another thread is visible after a consistency point, as its writes
 *    are: an access racing with the free may still pass, never a correct
 *    access fail, because a failing check always asks the keeper again
 *    before it reports.
 * Checking at the target while serving the request was the alternative;
 * it would leave local accesses and direct (process_vm_readv) gets
 * unchecked, and the target still does not know the symmetric heap.
 */
#include "mem/bounds.h"
#include "mem/alloc.h"
#include "transport/engine.h"
#include "base/pts.h"
#include "transport/request.h"
#include "transport/segment.h"
#include "cache/rcache.h"

#include <stdlib.h>
#include <string.h>

int mupci_bounds_on;

/* ---- the keeper's records (progress lock held) ---- */

typedef struct record {
    uint64_t start;
    uint64_t nblocks, nbytes;
    mupci_bounds_kind_t kind;
} record_t;

static record_t *records; /* live blocks this thread keeps, by start */
static size_t nrecords, capacity;

void mupci_bounds_init(int on)
{
    mupci_bounds_on = on;
    mupci_segment_set_object_gaps(on);
    if (on) /* others' frees are visible after a fence */
        mupci_fence_set_hook(mupci_bounds_forget);
}

void mupci_bounds_finalize(void)
{
    free(records);
    records = NULL;
    nrecords = capacity = 0;
}

/* Index of the first record whose start is above `offset`. */
static size_t upper_bound(uint64_t offset)
{
    size_t lo = 0, hi = nrecords;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (records[mid].start <= offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void mupci_bounds_add(uint64_t start, mupci_bounds_kind_t kind, size_t nblocks, size_t nbytes)
{
    if (!mupci_bounds_on)
        return;
    if (nrecords == capacity) {
        size_t cap = capacity ? 2 * capacity : 64;
        record_t *grown = realloc(records, cap * sizeof *grown);
        if (!grown)
            mupci_fatal("out of memory for the bounds records of %zu heap blocks", cap);
        records = grown;
        capacity = cap;
    }
    size_t at = upper_bound(start);
    memmove(records + at + 1, records + at, (nrecords - at) * sizeof *records);
    records[at] = (record_t){start, nblocks, nbytes, kind};
    nrecords++;
}

void mupci_bounds_remove(uint64_t start)
{
    size_t at = upper_bound(start);
    if (at == 0 || records[at - 1].start != start)
        return; /* recorded while checks were off, or never */
    memmove(records + at - 1, records + at, (nrecords - at) * sizeof *records);
    nrecords--;
}

/* Bytes of a record's block with affinity to `thread`. */
static uint64_t record_extent(const record_t *r, uint32_t thread)
{
    if (r->kind == MUPCI_BOUNDS_ALLOC)
        return r->nbytes;
    return mupci_pts_affinitysize(r->nblocks * r->nbytes, r->nbytes, thread, mupc_threads);
}

/* BOUNDS_QUERY: the live block at or below `offset`, and its extent on
 * thread `size`. */
static void mupci_handle_BOUNDS_QUERY(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    (void)payload;
    (void)len;
    size_t at = upper_bound(m->offset);
    /* flags 1: asked of thread 0 about a symmetric block (the owner had no
     * local block there) */
    int is_local = !(m->flags & 1) && mupci_alloc_is_local_heap(m->offset);
    /* thread 0 keeps both heaps: a block of the other one is not "below" */
    int other_heap = at > 0 && (records[at - 1].kind == MUPCI_BOUNDS_ALLOC) != is_local;
    if (mupci_bounds_on && !is_local && mupc_mythread != 0)
        mupci_reply(src, m->op, MUPCI_ALLOC_NOT_LOCAL, 0, 0);
    else if (!mupci_bounds_on)
        mupci_reply(src, m->op, MUPCI_BOUNDS_UNTRACKED, 0, 0);
    else if (at == 0 || other_heap)
        mupci_reply(src, m->op, MUPCI_BOUNDS_NONE, 0, 0);
    else
        mupci_reply(src, m->op, (uint16_t)records[at - 1].kind, records[at - 1].start,
                    record_extent(&records[at - 1], (uint32_t)m->size));
}

/* ---- the accessing thread ---- */

/* An object as the check sees it: its bytes on one thread. */
typedef struct object {
    uint32_t thread;
    uint64_t start, extent;
    mupci_bounds_kind_t kind;      /* NONE for a static array */
    const mupc_static_t *statik;   /* the static array, or NULL */
} object_t;

enum { KNOWN_BLOCKS = 8 };
static object_t known[KNOWN_BLOCKS]; /* keepers' answers since the last fence */
static unsigned nknown, known_next;

void mupci_bounds_forget(void) { nknown = 0; }

static int contains(const object_t *o, uint64_t offset, size_t n)
{
    return offset >= o->start && offset - o->start <= o->extent &&
           n <= o->extent - (offset - o->start);
}

/* The static array at or below `offset`; 0 when there is none. */
static int static_object(uint32_t thread, uint64_t offset, object_t *o)
{
    const mupc_static_t *s = mupci_segment_static_below(offset);
    if (!s)
        return 0;
    size_t nelems = s->per_thread ? s->nelems * (size_t)mupc_threads : s->nelems;
    *o = (object_t){thread, s->base.addr,
                    mupci_pts_affinitysize(nelems * s->elemsize, s->blocksize * s->elemsize,
                                           thread, mupc_threads),
                    MUPCI_BOUNDS_NONE, s};
    return 1;
}

/* Ask the keeper of the heap block at or below `offset` of `thread`.
 * Returns the reply's kind; UNTRACKED means the access cannot be judged. */
static mupci_bounds_kind_t ask_keeper(uint32_t thread, uint64_t offset, object_t *o)
{
    /* the owner knows its local heap; below it, thread 0 the symmetric one */
    mupci_msg_t m = {MUPCI_MSG_BOUNDS_QUERY, 0, 0, offset, thread};
    mupci_reply_t r;
    mupci_request((int)thread, &m, NULL, 0, &r);
    if (r.status == MUPCI_ALLOC_NOT_LOCAL) {
        m.flags = 1;
        mupci_request(0, &m, NULL, 0, &r);
    }
    *o = (object_t){thread, r.word[0], r.word[1], (mupci_bounds_kind_t)r.status, NULL};
    if (r.status != MUPCI_BOUNDS_NONE && r.status != MUPCI_BOUNDS_UNTRACKED) {
        known[known_next] = *o;
        known_next = (known_next + 1) % KNOWN_BLOCKS;
        if (nknown < KNOWN_BLOCKS)
            nknown++;
    }
    return (mupci_bounds_kind_t)r.status;
}

static int known_block(uint32_t thread, uint64_t offset, size_t n)
{
    for (unsigned i = 0; i < nknown; i++)
        if (known[i].thread == thread && contains(&known[i], offset, n))
            return 1;
    return 0;
}

static void describe(char *buf, size_t len, const object_t *o)
{
    static const char *const allocator[] = {
        [MUPCI_BOUNDS_ALLOC] = "upc_alloc",
        [MUPCI_BOUNDS_GLOBAL] = "upc_global_alloc",
        [MUPCI_BOUNDS_ALL] = "upc_all_alloc",
    };
    unsigned long long start = o->start, extent = o->extent;
    char where[64];
    if (extent > 0)
        snprintf(where, sizeof where, "offsets %llu..%llu", start, start + extent - 1);
    else
        snprintf(where, sizeof where, "none of it there");
    if (o->statik && o->statik->name)
        snprintf(buf, len, "static shared array '%s' (%llu bytes on thread %u, %s)",
                 o->statik->name, extent, o->thread, where);
    else if (o->statik)
        snprintf(buf, len, "the static shared array at offset %llu (%llu bytes on thread %u, %s)",
                 start, extent, o->thread, where);
    else
        snprintf(buf, len, "heap block allocated by %s of %llu bytes on thread %u (%s)",
                 allocator[o->kind], extent, o->thread, where);
}

static void out_of_bounds(const char *what, mupc_ptr_t p, size_t n, const object_t *o,
                          int found, const char *file, int line) __attribute__((noreturn));
static void out_of_bounds(const char *what, mupc_ptr_t p, size_t n, const object_t *o,
                          int found, const char *file, int line)
{
    const char *hint = "check the index against the object's size";
    if (!found)
        mupci_fatal_at(file, line,
                       "%s: out of bounds: %zu bytes at offset %llu of thread %u are in no live "
                       "shared object; %s",
                       what, n, (unsigned long long)p.addr, p.thread, hint);
    char object[256];
    describe(object, sizeof object, o);
    if (p.addr - o->start < o->extent)
        mupci_fatal_at(file, line,
                       "%s: out of bounds: %zu bytes at offset %llu of thread %u run %llu bytes "
                       "past the end of %s; %s",
                       what, n, (unsigned long long)p.addr, p.thread,
                       (unsigned long long)(p.addr + n - o->start - o->extent), object, hint);
    mupci_fatal_at(file, line,
                   "%s: out of bounds: %zu bytes at offset %llu of thread %u start %llu bytes "
                   "past the end of %s, in no live shared object; %s",
                   what, n, (unsigned long long)p.addr, p.thread,
                   (unsigned long long)(p.addr - o->start - o->extent), object, hint);
}

void mupci_bounds_check_slow(const char *what, mupc_ptr_t p, size_t n, const char *file,
                             int line)
{
    static object_t last_static; /* static objects never move: the last one checked */
    object_t o;
    if (p.addr < mupci_segment_static_end) {
        if (last_static.statik && last_static.thread == p.thread &&
            contains(&last_static, p.addr, n))
            return;
        int found = static_object(p.thread, p.addr, &o);
        if (!found || !contains(&o, p.addr, n))
            out_of_bounds(what, p, n, &o, found, file, line);
        last_static = o;
        return;
    }
    if (known_block(p.thread, p.addr, n))
        return;
    mupci_bounds_kind_t kind = ask_keeper(p.thread, p.addr, &o);
    if (kind == MUPCI_BOUNDS_UNTRACKED)
        return;
    if (kind == MUPCI_BOUNDS_NONE || !contains(&o, p.addr, n))
        out_of_bounds(what, p, n, &o, kind != MUPCI_BOUNDS_NONE, file, line);
}

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_BOUNDS_QUERY, mupci_handle_BOUNDS_QUERY},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
