/* SPDX-License-Identifier: MIT */
/*
 * upc_castable.h -- UPC 1.3 castability: which shared data a thread can
 * reach through an ordinary C pointer.  Here each UPC thread is its own
 * process, so only the calling thread's own shared data is castable:
 * upc_cast returns NULL for anything with affinity to another thread, and
 * upc_thread_info reports every kind of memory castable for the calling
 * thread and none for the others.
 */
#ifndef MUPC_UPC_CASTABLE_H
#define MUPC_UPC_CASTABLE_H

#include <mupc.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UPC_CASTABLE_ALL_ALLOC (1 << 0)
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1)
#define UPC_CASTABLE_ALLOC (1 << 2)
#define UPC_CASTABLE_STATIC (1 << 3)
#define UPC_CASTABLE_ALL                                                         \
    (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC |   \
     UPC_CASTABLE_STATIC)

typedef struct {
    int guaranteedCastable;
    int probablyCastable;
} upc_thread_info_t;

/* The local address of *ptr, or NULL when it is not castable. */
void *upc_cast(mupc_ptr_t ptr);
upc_thread_info_t upc_thread_info(size_t thread);

#ifdef __cplusplus
}
#endif

#endif
