/*
 * alloc.h -- the shared heaps behind upc_global_alloc, upc_all_alloc,
 * upc_alloc and upc_free (seed 004 §4.4.8, DESIGN.md §3).
 *
 * Segment layout after the static shared data (same offsets everywhere):
 *   [static_end, local_begin)  symmetric heap: a block has the same offset
 *                              on every thread; tracked on thread 0 only
 *   [local_begin, size)        local heap (local_heap_percent of it): upc_alloc,
 *                              tracked by each thread for its own segment
 */
#ifndef MUPCI_ALLOC_H
#define MUPCI_ALLOC_H

#include "config.h"

#include <stdint.h>

/* After mupci_segment_init and mupci_rv_init.  Stops the job if the two
 * heaps and the static data do not fit in the segment. */
void mupci_alloc_init(const mupci_config_t *cfg);
void mupci_alloc_finalize(void);

/* Is `offset` in the local (upc_alloc) part of a segment? */
int mupci_alloc_is_local_heap(uint64_t offset);

#endif
