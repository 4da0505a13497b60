/*
 * castable.c -- upc_castable.h: only the calling thread's segment is
 * mapped in this process.
 */
#include <upc_castable.h>

void *upc_cast(mupc_ptr_t ptr) { return mupc_local_addr(ptr); }

upc_thread_info_t upc_thread_info(size_t thread)
{
    upc_thread_info_t info = {0, 0};
    if (thread == (size_t)mupc_mythread)
        info.guaranteedCastable = info.probablyCastable = UPC_CASTABLE_ALL;
    return info;
}
