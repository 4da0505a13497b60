/* SPDX-License-Identifier: MIT */
/*
 * gasp_tools.c -- libmupc extensions for GASP tool writers (gasp_upc.h):
 * the size of an event's data, decoded from its varargs, and a collective
 * upcall that brings every thread's results to thread 0 at exit.  The
 * tools shipped in tools/ use them; so can any tool.
 */
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "mupc.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- */
/* The size of an event's data                                       */
/* ---------------------------------------------------------------- */

static size_t reduction_elem_size(gasp_upc_reduction_t type)
{
    static const size_t sizes[] = {
        [GASP_UPC_REDUCTION_C] = sizeof(char),   [GASP_UPC_REDUCTION_UC] = sizeof(char),
        [GASP_UPC_REDUCTION_S] = sizeof(short),  [GASP_UPC_REDUCTION_US] = sizeof(short),
        [GASP_UPC_REDUCTION_I] = sizeof(int),    [GASP_UPC_REDUCTION_UI] = sizeof(int),
        [GASP_UPC_REDUCTION_L] = sizeof(long),   [GASP_UPC_REDUCTION_UL] = sizeof(long),
        [GASP_UPC_REDUCTION_F] = sizeof(float),  [GASP_UPC_REDUCTION_D] = sizeof(double),
        [GASP_UPC_REDUCTION_LD] = sizeof(long double),
    };
    return (unsigned)type < sizeof sizes / sizeof sizes[0] ? sizes[type] : 0;
}

/* Skip `n` pointer-sized arguments (pointers, and the PTS pointers). */
#define SKIP_POINTERS(ap, n)                  \
    for (int skip_ = 0; skip_ < (n); skip_++) \
        (void)va_arg(ap, void *)

static size_t reduction_bytes(va_list ap)
{
    SKIP_POINTERS(ap, 2); /* dst, src */
    (void)va_arg(ap, int); /* upc_op */
    size_t nelems = va_arg(ap, size_t);
    (void)va_arg(ap, size_t); /* blk_size */
    (void)va_arg(ap, void *); /* func */
    (void)va_arg(ap, int);    /* upc_flags */
    return nelems * reduction_elem_size(va_arg(ap, gasp_upc_reduction_t));
}

static size_t bytes_of(unsigned int evt, va_list ap)
{
    switch (evt) {
    case GASP_UPC_GET:
    case GASP_UPC_PUT:
    case GASP_UPC_NB_GET_INIT:
    case GASP_UPC_NB_PUT_INIT:
        (void)va_arg(ap, int); /* is_relaxed */
        SKIP_POINTERS(ap, 2);
        return va_arg(ap, size_t);
    case GASP_UPC_MEMCPY:
    case GASP_UPC_MEMGET:
    case GASP_UPC_MEMPUT:
        SKIP_POINTERS(ap, 2);
        return va_arg(ap, size_t);
    case GASP_UPC_MEMSET:
        SKIP_POINTERS(ap, 1);
        (void)va_arg(ap, int);
        return va_arg(ap, size_t);
    case GASP_UPC_ALL_BROADCAST:
    case GASP_UPC_ALL_SCATTER:
    case GASP_UPC_ALL_GATHER:
    case GASP_UPC_ALL_GATHER_ALL:
    case GASP_UPC_ALL_EXCHANGE:
        SKIP_POINTERS(ap, 2);
        return va_arg(ap, size_t);
    case GASP_UPC_ALL_PERMUTE:
        SKIP_POINTERS(ap, 3);
        return va_arg(ap, size_t);
    case GASP_UPC_ALL_REDUCE:
    case GASP_UPC_ALL_PREFIX_REDUCE:
        return reduction_bytes(ap);
    case GASP_UPC_GLOBAL_ALLOC:
    case GASP_UPC_ALL_ALLOC: {
        size_t nblocks = va_arg(ap, size_t);
        return nblocks * va_arg(ap, size_t);
    }
    case GASP_UPC_ALLOC:
    case GASP_UPC_CACHE_HIT:
    case GASP_C_MALLOC:
        return va_arg(ap, size_t);
    case GASP_UPC_CACHE_MISS:
        (void)va_arg(ap, size_t);
        return va_arg(ap, size_t); /* bytes fetched */
    case GASP_C_REALLOC:
        SKIP_POINTERS(ap, 1);
        return va_arg(ap, size_t);
    default:
        return 0;
    }
}

size_t mupc_gasp_event_bytes(unsigned int evttag, va_list varargs)
{
    va_list ap;
    va_copy(ap, varargs);
    size_t n = bytes_of(evttag, ap);
    va_end(ap);
    return n;
}

/* ---------------------------------------------------------------- */
/* Gathering a tool's per-thread results on thread 0                 */
/* ---------------------------------------------------------------- */

enum { GATHER_ROUND = 64 * 1024 }; /* bytes per thread per round */

/* Every thread's byte count, read by every thread (they all need the
 * number of rounds). */
static void gather_sizes(size_t mine, size_t *sizes)
{
    mupc_ptr_t counts = mupc_all_alloc((size_t)mupc_threads, sizeof(uint64_t), __FILE__, __LINE__);
    mupc_ptr_t own = mupc_ptr_index(counts, (size_t)mupc_mythread, sizeof(uint64_t), 1);
    *(uint64_t *)mupc_local_addr(own) = mine;
    mupc_barrier(0, 0, __FILE__, __LINE__);
    for (int t = 0; t < mupc_threads; t++) {
        uint64_t n;
        mupc_memget(&n, mupc_ptr_index(counts, (size_t)t, sizeof(uint64_t), 1), sizeof n,
                    __FILE__, __LINE__);
        sizes[t] = (size_t)n;
    }
    mupc_all_free(counts, __FILE__, __LINE__);
}

/* The bytes move through the shared heap in rounds of GATHER_ROUND per
 * thread, so a table of any size fits in any heap. */
void *mupc_gasp_gather(const void *mine, size_t nbytes, size_t *sizes)
{
    int was = mupci_gasp_upcall_begin(); /* our own upcalls raise no events */
    size_t *all = malloc((size_t)mupc_threads * sizeof *all);
    if (!all)
        mupci_fatal_plain("mupc_gasp_gather: out of memory for %d sizes", mupc_threads);
    gather_sizes(nbytes, all);
    size_t largest = 0, total = 0;
    for (int t = 0; t < mupc_threads; t++) {
        largest = all[t] > largest ? all[t] : largest;
        total += all[t];
    }
    char *out = NULL;
    if (mupc_mythread == 0 && !(out = malloc(total ? total : 1)))
        mupci_fatal_plain("mupc_gasp_gather: out of memory for %zu bytes", total);
    mupc_ptr_t stage = mupc_all_alloc((size_t)mupc_threads, GATHER_ROUND, __FILE__, __LINE__);
    char *own_stage = mupc_local_addr(mupc_ptr_index(stage, (size_t)mupc_mythread, GATHER_ROUND, 1));
    for (size_t done = 0; done < largest; done += GATHER_ROUND) {
        if (done < nbytes)
            memcpy(own_stage, (const char *)mine + done,
                   nbytes - done < GATHER_ROUND ? nbytes - done : GATHER_ROUND);
        mupc_barrier(0, 0, __FILE__, __LINE__);
        size_t offset = 0;
        for (int t = 0; mupc_mythread == 0 && t < mupc_threads; offset += all[t++])
            if (done < all[t])
                mupc_memget(out + offset + done, mupc_ptr_index(stage, (size_t)t, GATHER_ROUND, 1),
                            all[t] - done < GATHER_ROUND ? all[t] - done : GATHER_ROUND,
                            __FILE__, __LINE__);
        mupc_barrier(0, 0, __FILE__, __LINE__);
    }
    mupc_all_free(stage, __FILE__, __LINE__);
    if (mupc_mythread == 0 && sizes)
        memcpy(sizes, all, (size_t)mupc_threads * sizeof *all);
    free(all);
    mupci_gasp_upcall_end(was);
    return out;
}
