/* SPDX-License-Identifier: MIT */
/*
 * segment.h -- this thread's shared segment and the static shared objects.
 *
 * Layout of every thread's segment (offsets are the same on all threads):
 *   [0, 64)            reserved, so offset 0 can mean "null"
 *   [64, static_end)   static shared objects, in registration order
 *   [static_end, size) heaps (managed by mem/alloc.c)
 */
#ifndef MUPCI_SEGMENT_H
#define MUPCI_SEGMENT_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

#define MUPCI_SEGMENT_RESERVED 64

extern char *mupci_segment_base;
extern size_t mupci_segment_bytes;
extern size_t mupci_segment_static_end;
/* The memfd behind the segment (-1: a private mapping), and the control
 * block just past the segment's end (node.h), whose first word is this
 * process's pid: what another process checks after mapping it. */
extern int mupci_segment_fd;
extern void *mupci_segment_ctl;

/* Map the segment and place the registered static objects.  `shareable`
 * (shm = on): in a memfd the node's other processes can map. */
void mupci_segment_init(size_t size, int threads, int shareable);
/* checks = bounds (set before mupci_segment_init places the statics): a
 * gap of one element after each static object. */
void mupci_segment_set_object_gaps(int on);
void mupci_segment_finalize(void);
/* Computation pthread, before the user's main: the initializers of static
 * shared data (mupc_static_init). */
void mupci_segment_run_initializers(void);

/* The static shared object with the highest offset not above `offset`
 * (NULL when there is none): the one `offset` falls in, if any. */
struct mupc_static;
const struct mupc_static *mupci_segment_static_below(uint64_t offset);

/* True when [offset, offset + n) lies inside a segment and past the
 * reserved null area. */
static inline int mupci_segment_range_ok(uint64_t offset, size_t n)
{
    return offset >= MUPCI_SEGMENT_RESERVED && offset <= mupci_segment_bytes &&
           n <= mupci_segment_bytes - offset;
}

static inline void *mupci_segment_addr(uint64_t offset) { return mupci_segment_base + offset; }

#endif
