/* SPDX-License-Identifier: MIT */
/*
 * bounds.h -- `checks = bounds`: every shared access is checked against the
 * object it falls in, a static shared array (runtime/transport/segment.c) or a heap
 * block (alloc.c), and one outside every live object, or crossing an
 * object's end, stops the job with the caller's file:line.
 *
 * Off (the default), an access pays one predictable branch on
 * mupci_bounds_on.  The heaps' keepers record their live blocks here
 * (only while checks are on) and answer BOUNDS_QUERY requests about them.
 */
#ifndef MUPCI_BOUNDS_H
#define MUPCI_BOUNDS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "base/fatal.h"
#include "mupc.h"

#include <stddef.h>
#include <stdint.h>

extern int mupci_bounds_on;

/* The allocator that made a heap block (BOUNDS_QUERY's reply status). */
typedef enum {
    MUPCI_BOUNDS_NONE = 0, /* no live block starts at or below the offset */
    MUPCI_BOUNDS_ALLOC,    /* upc_alloc: one block on its owner */
    MUPCI_BOUNDS_GLOBAL,   /* upc_global_alloc: nblocks dealt round robin */
    MUPCI_BOUNDS_ALL,      /* upc_all_alloc: the same */
    MUPCI_BOUNDS_UNTRACKED /* the keeper runs with checks off: nothing to say */
} mupci_bounds_kind_t;

/* From the configuration (checks = bounds), before any access. */
void mupci_bounds_init(int on);
void mupci_bounds_finalize(void);

/* At a heap's keeper, progress lock held: a block allocated at `start` of
 * `nblocks` blocks of `nbytes` each (upc_alloc: 1 block of its size), and
 * the block at `start` freed. */
void mupci_bounds_add(uint64_t start, mupci_bounds_kind_t kind, size_t nblocks, size_t nbytes);
void mupci_bounds_remove(uint64_t start);

/* This thread's knowledge of other keepers' blocks is valid until its
 * next fence (a consistency point: frees by others become visible). */
void mupci_bounds_forget(void);

void mupci_bounds_check_slow(const char *what, mupc_ptr_t p, size_t n, const char *file,
                             int line);

/* `what` (e.g. "shared read") of n > 0 bytes at p, already known to lie in
 * a segment. */
static inline void mupci_bounds_check(const char *what, mupc_ptr_t p, size_t n,
                                      const char *file, int line)
{
    if (MUPCI_CHECKS && mupci_unlikely(mupci_bounds_on))
        mupci_bounds_check_slow(what, p, n, file, line);
}

#endif
