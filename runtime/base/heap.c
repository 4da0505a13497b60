/* SPDX-License-Identifier: MIT */
/*
 * heap.c -- first-fit allocator over segment offsets (see heap.h).
 *
 * All blocks, free and live, form one address-ordered list, so a freed
 * block finds its neighbours in O(1).  Free blocks are also chained in
 * address order for the first-fit scan; live blocks are indexed by start
 * offset in a tsearch tree, so a free of a bad offset is caught and
 * classified instead of corrupting the lists.  A small ring remembers
 * recently freed starts to tell a double free from a wild pointer.
 */
#define _GNU_SOURCE /* tdestroy */
#include "base/heap.h"

#include <search.h>
#include <stdlib.h>

typedef struct block {
    uint64_t start, size;
    int live;
    struct block *prev, *next;           /* all blocks, address order */
    struct block *prev_free, *next_free; /* free blocks, address order */
} block_t;

#define RECENT_FREES 64

struct mupci_heap {
    uint64_t begin, end;
    size_t align;
    block_t *first;     /* lowest block */
    block_t *free_head; /* lowest free block */
    void *live_tree;    /* live blocks by start */
    size_t used_blocks;
    uint64_t recent[RECENT_FREES]; /* starts of recently freed blocks */
    unsigned recent_next;
};

static int by_start(const void *a, const void *b)
{
    uint64_t x = ((const block_t *)a)->start, y = ((const block_t *)b)->start;
    return x < y ? -1 : x > y;
}

static uint64_t round_up(uint64_t n, size_t align) { return (n + align - 1) & ~(uint64_t)(align - 1); }

mupci_heap_t *mupci_heap_create(uint64_t begin, uint64_t end, size_t align)
{
    mupci_heap_t *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    h->align = align;
    h->begin = round_up(begin, align);
    h->end = end & ~(uint64_t)(align - 1);
    if (h->begin == 0)
        h->begin = align; /* offset 0 means "no block" */
    if (h->end > h->begin) {
        block_t *b = calloc(1, sizeof *b);
        if (!b) {
            free(h);
            return NULL;
        }
        b->start = h->begin;
        b->size = h->end - h->begin;
        h->first = h->free_head = b;
    } else {
        h->end = h->begin; /* an empty heap: every request fails */
    }
    return h;
}

static void no_free(void *p) { (void)p; }

void mupci_heap_destroy(mupci_heap_t *h)
{
    if (!h)
        return;
    tdestroy(h->live_tree, no_free);
    for (block_t *b = h->first, *next; b; b = next) {
        next = b->next;
        free(b);
    }
    free(h);
}

/* ---- free-list maintenance ---- */

static void unlink_free(mupci_heap_t *h, block_t *b)
{
    if (b->prev_free)
        b->prev_free->next_free = b->next_free;
    else
        h->free_head = b->next_free;
    if (b->next_free)
        b->next_free->prev_free = b->prev_free;
    b->prev_free = b->next_free = NULL;
}

/* Insert a free block that has no free neighbour in the block list. */
static void link_free(mupci_heap_t *h, block_t *b)
{
    block_t *before = NULL; /* the nearest free block below b */
    for (block_t *p = b->prev; p; p = p->prev)
        if (!p->live) {
            before = p;
            break;
        }
    b->prev_free = before;
    b->next_free = before ? before->next_free : h->free_head;
    if (b->next_free)
        b->next_free->prev_free = b;
    if (before)
        before->next_free = b;
    else
        h->free_head = b;
}

/* Remove `b` from the block list (it has been merged into a neighbour). */
static void drop_block(block_t *b)
{
    if (b->prev)
        b->prev->next = b->next;
    if (b->next)
        b->next->prev = b->prev;
    free(b);
}

/* ---- alloc / free ---- */

static int make_live(mupci_heap_t *h, block_t *b)
{
    if (!tsearch(b, &h->live_tree, by_start))
        return -1;
    b->live = 1;
    h->used_blocks++;
    return 0;
}

/* Free block b, whole, becomes live: its start, or 0 when out of memory. */
static uint64_t take_whole(mupci_heap_t *h, block_t *b)
{
    if (make_live(h, b) != 0)
        return 0;
    unlink_free(h, b);
    return b->start;
}

/* A new live block [start, start + size), not yet linked in, or NULL. */
static block_t *new_live_block(mupci_heap_t *h, uint64_t start, uint64_t size)
{
    block_t *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->start = start;
    b->size = size;
    if (make_live(h, b) != 0) {
        free(b);
        return NULL;
    }
    return b;
}

uint64_t mupci_heap_alloc(mupci_heap_t *h, size_t n) { return mupci_heap_alloc_below(h, n, h->end); }

uint64_t mupci_heap_alloc_below(mupci_heap_t *h, size_t n, uint64_t ceiling)
{
    if (n == 0 || n > h->end - h->begin)
        return 0;
    uint64_t need = round_up(n, h->align);
    block_t *b = h->free_head;
    while (b && b->size < need)
        b = b->next_free;
    if (!b || b->start + need > ceiling) /* the lowest fit: none lower */
        return 0;
    if (b->size == need) /* exact fit: the free block becomes live */
        return take_whole(h, b);
    /* Split: the front part becomes live, the rest stays in the free list. */
    block_t *front = new_live_block(h, b->start, need);
    if (!front)
        return 0;
    front->prev = b->prev;
    front->next = b;
    if (b->prev)
        b->prev->next = front;
    else
        h->first = front;
    b->prev = front;
    b->start += need;
    b->size -= need;
    return front->start;
}

/* The highest free block of at least `need` bytes, or NULL. */
static block_t *highest_fit(const mupci_heap_t *h, uint64_t need)
{
    block_t *fit = NULL;
    for (block_t *b = h->free_head; b; b = b->next_free)
        if (b->size >= need)
            fit = b;
    return fit;
}

uint64_t mupci_heap_alloc_top(mupci_heap_t *h, size_t n, uint64_t floor, uint64_t *needed_floor)
{
    *needed_floor = 0;
    if (n == 0 || n > h->end - h->begin)
        return 0;
    uint64_t need = round_up(n, h->align);
    block_t *b = highest_fit(h, need);
    if (!b)
        return 0;
    uint64_t start = b->start + b->size - need;
    if (start < floor) {
        *needed_floor = start;
        return 0;
    }
    if (b->size == need) /* exact fit: the free block becomes live */
        return take_whole(h, b);
    /* Split: the back part becomes live, the front stays in the free list. */
    block_t *back = new_live_block(h, start, need);
    if (!back)
        return 0;
    back->prev = b;
    back->next = b->next;
    if (b->next)
        b->next->prev = back;
    b->next = back;
    b->size -= need;
    return start;
}

uint64_t mupci_heap_live_low(const mupci_heap_t *h)
{
    for (const block_t *b = h->first; b; b = b->next)
        if (b->live)
            return b->start;
    return h->end;
}

uint64_t mupci_heap_live_high(const mupci_heap_t *h)
{
    uint64_t high = h->begin;
    for (const block_t *b = h->first; b; b = b->next)
        if (b->live)
            high = b->start + b->size;
    return high;
}

static block_t *find_live(const mupci_heap_t *h, uint64_t offset)
{
    block_t key = {.start = offset};
    block_t *const *found = tfind(&key, &h->live_tree, by_start);
    return found ? *found : NULL;
}

static mupci_heap_status_t classify_bad_free(const mupci_heap_t *h, uint64_t offset)
{
    if (!mupci_heap_contains(h, offset))
        return MUPCI_HEAP_OUTSIDE;
    for (const block_t *b = h->first; b; b = b->next)
        if (offset >= b->start && offset - b->start < b->size && b->live)
            return MUPCI_HEAP_INTERIOR;
    for (unsigned i = 0; i < RECENT_FREES; i++)
        if (h->recent[i] == offset)
            return MUPCI_HEAP_DOUBLE_FREE;
    return MUPCI_HEAP_NEVER_ALLOCATED;
}

mupci_heap_status_t mupci_heap_check(const mupci_heap_t *h, uint64_t offset)
{
    return find_live(h, offset) ? MUPCI_HEAP_OK : classify_bad_free(h, offset);
}

mupci_heap_status_t mupci_heap_free(mupci_heap_t *h, uint64_t offset)
{
    block_t *b = find_live(h, offset);
    if (!b)
        return classify_bad_free(h, offset);
    tdelete(b, &h->live_tree, by_start);
    b->live = 0;
    h->used_blocks--;
    h->recent[h->recent_next++ % RECENT_FREES] = offset;

    block_t *prev = b->prev, *next = b->next;
    if (prev && !prev->live) { /* merge into the free block below */
        prev->size += b->size;
        drop_block(b);
        b = prev;
    } else {
        link_free(h, b);
    }
    if (next && !next->live) { /* absorb the free block above */
        b->size += next->size;
        unlink_free(h, next);
        drop_block(next);
    }
    return MUPCI_HEAP_OK;
}

const char *mupci_heap_status_text(mupci_heap_status_t status)
{
    switch (status) {
    case MUPCI_HEAP_OK:
        return "was freed";
    case MUPCI_HEAP_DOUBLE_FREE:
        return "was freed already (double free)";
    case MUPCI_HEAP_NEVER_ALLOCATED:
        return "was never allocated (it points into free heap space)";
    case MUPCI_HEAP_INTERIOR:
        return "points inside an allocated block, not at its start (only pointers returned "
               "by an allocation can be freed)";
    case MUPCI_HEAP_OUTSIDE:
        return "does not point into a shared heap (only pointers returned by an allocation "
               "can be freed)";
    }
    return "?";
}

int mupci_heap_contains(const mupci_heap_t *h, uint64_t offset)
{
    return offset >= h->begin && offset < h->end;
}

size_t mupci_heap_block_bytes(const mupci_heap_t *h, uint64_t offset)
{
    const block_t *b = find_live(h, offset);
    return b ? (size_t)b->size : 0;
}

mupci_heap_stats_t mupci_heap_stats(const mupci_heap_t *h)
{
    mupci_heap_stats_t s = {(size_t)(h->end - h->begin), 0, 0, h->used_blocks, 0};
    for (const block_t *b = h->free_head; b; b = b->next_free) {
        s.free_bytes += b->size;
        if (b->size > s.largest_free)
            s.largest_free = b->size;
        s.free_blocks++;
    }
    return s;
}
