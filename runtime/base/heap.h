/* SPDX-License-Identifier: MIT */
/*
 * heap.h -- a first-fit (or, from the top, highest-fit) allocator over a
 * range of segment offsets
 * (the MuPC report §4.4.8).  Pure bookkeeping: it never touches the memory it
 * manages and knows nothing of MPI or threads, so it is unit-tested alone.
 *
 * Blocks are kept in address order; a free block found by the first-fit
 * scan is split, and a freed block is merged with free neighbours.  Every
 * block starts and ends on the heap's alignment.
 */
#ifndef MUPCI_HEAP_H
#define MUPCI_HEAP_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

typedef struct mupci_heap mupci_heap_t;

/* Why a free was refused. */
typedef enum {
    MUPCI_HEAP_OK = 0,
    MUPCI_HEAP_DOUBLE_FREE,   /* the block was freed already */
    MUPCI_HEAP_NEVER_ALLOCATED, /* inside free space, not from an allocation */
    MUPCI_HEAP_INTERIOR,      /* inside a live block, not its start */
    MUPCI_HEAP_OUTSIDE        /* not within this heap's range at all */
} mupci_heap_status_t;

/* Manage [begin, end); `align` is a power of two.  NULL if out of memory. */
mupci_heap_t *mupci_heap_create(uint64_t begin, uint64_t end, size_t align);
void mupci_heap_destroy(mupci_heap_t *heap);

/* Offset of a fresh block of at least `n` bytes (n > 0), or 0 when no free
 * block is large enough (0 is never inside a heap). */
uint64_t mupci_heap_alloc(mupci_heap_t *heap, size_t n);
/* The same, only if the block ends at or below `ceiling` (the lowest fit
 * is taken, so 0 means no block below the ceiling fits). */
uint64_t mupci_heap_alloc_below(mupci_heap_t *heap, size_t n, uint64_t ceiling);
/* Highest fit: the top of the highest free block large enough, if it
 * starts at or above `floor`; otherwise 0, and *needed_floor is where it
 * would start (0 when no free block is large enough at all). */
uint64_t mupci_heap_alloc_top(mupci_heap_t *heap, size_t n, uint64_t floor,
                              uint64_t *needed_floor);
/* Start of the lowest live block (the heap's end if none); end of the
 * highest (the heap's begin if none). */
uint64_t mupci_heap_live_low(const mupci_heap_t *heap);
uint64_t mupci_heap_live_high(const mupci_heap_t *heap);
mupci_heap_status_t mupci_heap_free(mupci_heap_t *heap, uint64_t offset);
/* What mupci_heap_free would answer, without freeing anything. */
mupci_heap_status_t mupci_heap_check(const mupci_heap_t *heap, uint64_t offset);
/* A sentence for a refused free, e.g. "was freed already (double free)". */
const char *mupci_heap_status_text(mupci_heap_status_t status);

int mupci_heap_contains(const mupci_heap_t *heap, uint64_t offset);
/* Bytes of the live block starting at `offset`, 0 if there is none. */
size_t mupci_heap_block_bytes(const mupci_heap_t *heap, uint64_t offset);

typedef struct mupci_heap_stats {
    size_t total_bytes;   /* size of the managed range */
    size_t free_bytes;    /* sum of the free blocks */
    size_t largest_free;  /* the largest request that can succeed now */
    size_t used_blocks;
    size_t free_blocks;
} mupci_heap_stats_t;
mupci_heap_stats_t mupci_heap_stats(const mupci_heap_t *heap);

#endif
