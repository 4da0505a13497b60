/* SPDX-License-Identifier: MIT */
/*
 * upc_collective.h -- the UPC collectives for hand-written programs (the
 * thin layer over mupc.h, which documents the semantics, algorithms and
 * GASP events).  Arguments as in the UPC specification, with
 * pointers-to-shared as mupc_ptr_t values:
 *
 *   upc_all_broadcast(MUPC_BASE(dst), MUPC_BASE(src), nbytes,
 *                     UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
 *   upc_all_reduceD(MUPC_BASE(sum), MUPC_BASE(a), UPC_ADD, n, blk, NULL, 0);
 */
#ifndef MUPC_UPC_COLLECTIVE_H
#define MUPC_UPC_COLLECTIVE_H

#include <mupc_upc.h>
#include <upc_types.h>

#define upc_all_broadcast(dst, src, nbytes, flags) \
    mupc_all_broadcast((dst), (src), (nbytes), (flags), __FILE__, __LINE__)
#define upc_all_scatter(dst, src, nbytes, flags) \
    mupc_all_scatter((dst), (src), (nbytes), (flags), __FILE__, __LINE__)
#define upc_all_gather(dst, src, nbytes, flags) \
    mupc_all_gather((dst), (src), (nbytes), (flags), __FILE__, __LINE__)
#define upc_all_gather_all(dst, src, nbytes, flags) \
    mupc_all_gather_all((dst), (src), (nbytes), (flags), __FILE__, __LINE__)
#define upc_all_exchange(dst, src, nbytes, flags) \
    mupc_all_exchange((dst), (src), (nbytes), (flags), __FILE__, __LINE__)
#define upc_all_permute(dst, src, perm, nbytes, flags) \
    mupc_all_permute((dst), (src), (perm), (nbytes), (flags), __FILE__, __LINE__)

#define upc_all_reduceC(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceC((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceC(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceC((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceUC(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceUC((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceUC(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceUC((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceS(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceS((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceS(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceS((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceUS(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceUS((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceUS(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceUS((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceI(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceI((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceI(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceI((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceUI(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceUI((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceUI(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceUI((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceL(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceL((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceL(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceL((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceUL(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceUL((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceUL(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceUL((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceF(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceF((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceF(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceF((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceD(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceD((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceD(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceD((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)
#define upc_all_reduceLD(dst, src, op, nelems, blk, func, flags) \
    mupc_all_reduceLD((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, __LINE__)
#define upc_all_prefix_reduceLD(dst, src, op, nelems, blk, func, flags) \
    mupc_all_prefix_reduceLD((dst), (src), (op), (nelems), (blk), (func), (flags), __FILE__, \
                            __LINE__)

#endif
