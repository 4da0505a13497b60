/* SPDX-License-Identifier: MIT */
/*
 * bupc.c -- the parts of <bupc_extensions.h> that need the runtime's
 * state: thread distances from the node layout, and conversions between
 * addresses in mapped segments and pointers-to-shared.
 */
#define MUPC_NO_MAIN_RENAME 1
#include <bupc_extensions.h>

#include "base/fatal.h"
#include "transport/node.h"
#include "transport/segment.h"

unsigned int mupc_bupc_thread_distance(int x, int y, const char *file, int line)
{
    if (x < 0 || x >= mupc_threads || y < 0 || y >= mupc_threads)
        mupci_fatal_at(file, line,
                       "bupc_thread_distance(%d, %d): threads run from 0 to THREADS-1 (%d)", x, y,
                       mupc_threads - 1);
    if (x == y)
        return BUPC_THREADS_SAME;
    if (mupci_node_of(x) != mupci_node_of(y))
        return BUPC_THREADS_VERYFAR;
    /* the threads of a node either all map each other's segments or all
     * lead groups of their own (node.h) */
    return mupci_node_leader(x) == mupci_node_leader(y) ? BUPC_THREADS_VERYNEAR
                                                        : BUPC_THREADS_NEAR;
}

mupc_ptr_t mupc_bupc_local_to_shared(void *ptr, int thread, int phase, const char *file,
                                     int line)
{
    uintptr_t base = (uintptr_t)mupci_segment_base, at = (uintptr_t)ptr;
    if (at < base || !mupci_segment_range_ok((uint64_t)(at - base), 0))
        mupci_fatal_at(file, line,
                       "bupc_local_to_shared: %p is not in this thread's shared segment", ptr);
    if (thread < 0 || thread >= mupc_threads || phase < 0)
        mupci_fatal_at(file, line,
                       "bupc_local_to_shared: thread %d, phase %d: the thread runs from 0 to "
                       "THREADS-1 (%d), the phase from 0",
                       thread, phase, mupc_threads - 1);
    return (mupc_ptr_t){(uint64_t)(at - base), (uint32_t)thread, (uint32_t)phase};
}

mupc_ptr_t mupc_bupc_inverse_cast(const void *ptr)
{
    uintptr_t at = (uintptr_t)ptr;
    for (int t = 0; ptr && t < mupc_threads; t++) {
        uintptr_t base = (uintptr_t)mupci_node_segment(t);
        if (base && at >= base && mupci_segment_range_ok((uint64_t)(at - base), 0))
            return (mupc_ptr_t){(uint64_t)(at - base), (uint32_t)t, 0};
    }
    return MUPC_NULL_PTR;
}
