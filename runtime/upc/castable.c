/* SPDX-License-Identifier: MIT */
/*
 * castable.c -- upc_castable.h: this thread's segment, and with shm the
 * segments of the other threads of its node, are mapped in this process.
 */
#include <upc_castable.h>

#include "transport/node.h"
#include "transport/segment.h"

void *upc_cast(mupc_ptr_t ptr)
{
    if (ptr.thread >= (uint32_t)mupc_threads || !mupci_segment_range_ok(ptr.addr, 0))
        return NULL;
    char *segment = mupci_node_segment((int)ptr.thread);
    return segment ? segment + ptr.addr : NULL;
}

upc_thread_info_t upc_thread_info(size_t thread)
{
    upc_thread_info_t info = {0, 0};
    if (thread < (size_t)mupc_threads && mupci_node_segment((int)thread))
        info.guaranteedCastable = info.probablyCastable = UPC_CASTABLE_ALL;
    return info;
}
