/* SPDX-License-Identifier: MIT */
/*
 * xfer.h -- moving bytes to and from other threads' segments: the protocol
 * behind every get, put, mem* call and fence (the MuPC report §4.4.4-4.4.5).
 *
 * Callers are the computation pthread, not holding the progress lock, with
 * arguments already checked; data with local affinity never gets here.
 */
#ifndef MUPCI_XFER_H
#define MUPCI_XFER_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "transport/node.h"

#include <stddef.h>
#include <stdint.h>

void mupci_xfer_init(int threads);

/* The route of an access to `thread`, chosen here and only here: where
 * [offset, ...) of its segment is mapped in this process (a load or a
 * store; on-node shared memory, node.h), or NULL, and then the calls below
 * copy straight from a segment of this node (direct.h) or send messages.
 * The access API's inline fast path asks this first. */
static inline char *mupci_xfer_mapped(int thread, uint64_t offset)
{
    char *segment = mupci_node_segment(thread);
    return segment ? segment + offset : NULL;
}

/* Blocking get: the bytes are in `dst` on return. */
void mupci_xfer_get(void *dst, int thread, uint64_t offset, size_t n);
/* Relaxed put: `src` may be reused on return; applied at the target later,
 * in order with this thread's later accesses to that target. */
void mupci_xfer_put(int thread, uint64_t offset, const void *src, size_t n);
/* Relaxed put of the bytes of src[0, n) whose bit is set in mask (bit i of
 * word i/64 = byte i; n a multiple of 64): a cache write-back. */
void mupci_xfer_put_masked(int thread, uint64_t offset, const void *src, const uint64_t *mask,
                           size_t n);
void mupci_xfer_memset(int thread, uint64_t offset, int c, size_t n);
/* Shared-to-shared copy between any two threads (either may be remote). */
void mupci_xfer_copy(int dst_thread, uint64_t dst_offset, int src_thread, uint64_t src_offset,
                     size_t n);

/* Non-blocking variants; the handle is never 0. */
uint64_t mupci_xfer_get_nb(void *dst, int thread, uint64_t offset, size_t n);
uint64_t mupci_xfer_put_nb(int thread, uint64_t offset, const void *src, size_t n);
/* Complete (applied at the target) when the handle syncs. */
uint64_t mupci_xfer_memset_nb(int thread, uint64_t offset, int c, size_t n);
/* -1: not a live handle; otherwise 1 when complete (and retired) or, with
 * `wait` == 0, 0 when still in flight. */
int mupci_xfer_sync(uint64_t handle, int wait);

/* Wait until every earlier put of this thread is applied at its target.
 * With none in flight, poll_when_idle makes one progress pass instead (a
 * thread spinning on strict data sees incoming writes); a caller about to
 * wait for a message, which polls anyway, passes 0. */
void mupci_xfer_fence(int poll_when_idle);

#endif
