/* SPDX-License-Identifier: MIT */
/*
 * alloc.h -- the shared heaps behind upc_global_alloc, upc_all_alloc,
 * upc_alloc and upc_free (the MuPC report §4.4.8).
 *
 * Segment layout after the static shared data (same offsets everywhere):
 *   [static_end, ...)  symmetric heap, from the bottom up: a block has the
 *                      same offset on every thread; tracked on thread 0 only
 *   [..., size)        local heap, from the top down: upc_alloc, tracked by
 *                      each thread for its own segment, above its floor
 * The two meet anywhere (alloc.c); local_heap_percent caps the local heap.
 */
#ifndef MUPCI_ALLOC_H
#define MUPCI_ALLOC_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "base/config.h"
#include "mupc.h"

#include <stdint.h>

/* After mupci_segment_init and mupci_rv_init. */
void mupci_alloc_init(const mupci_config_t *cfg);
/* upc_free of a lock handle frees the lock, as upc_lock_free would (UPC 1.2
 * programs free locks so, and Berkeley UPC accepts it): the lock module,
 * above this one, says how to recognize a handle and free it. */
void mupci_alloc_set_lock_free(int (*is_lock)(mupc_ptr_t p),
                               void (*lock_free)(mupc_ptr_t p, const char *file, int line));
void mupci_alloc_finalize(void);

/* Is `offset` at or above this thread's local heap floor (so in no
 * symmetric block)?  Other threads' floors differ: ask their keepers. */
int mupci_alloc_is_local_heap(uint64_t offset);

/* A keeper's answer for an offset below its local heap when it is not
 * thread 0: ask thread 0, the symmetric heap's keeper. */
enum { MUPCI_ALLOC_NOT_LOCAL = 0xfffe };

#endif
