/* SPDX-License-Identifier: MIT */
/*
 * bupc_collectivev.h -- the value-based collectives of Berkeley UPC
 * (interface version 1.2, as the Berkeley UPC User's Guide describes
 * it): one scalar (or structure) per thread in, a value out, with the C
 * type named in the call.  Every thread makes the same calls in the same
 * order, with the same TYPE and root; like every collective, not between
 * upc_notify and upc_wait.  'value' may be any expression of the type.
 *
 *   double s = bupc_allv_reduce_all(double, mine, UPC_ADD);
 *
 * TYPE bupc_allv_reduce(TYPE, value, rootthread, op)
 *     op over every thread's value, returned on rootthread (other threads
 *     get 0); rootthread -1 is bupc_allv_reduce_all.
 * TYPE bupc_allv_reduce_all(TYPE, value, op)       returned everywhere
 * TYPE bupc_allv_prefix_reduce(TYPE, value, op)    thread i gets value0 op .. op valuei
 *     op: UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR (integer types),
 *     UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX; TYPE an integer or
 *     floating type (UPC_FUNC and UPC_NONCOMM_FUNC are not supported).
 * TYPE bupc_allv_broadcast(TYPE, value, rootthread)   rootthread's value
 * TYPE bupc_allv_scatter(TYPE, rootthread, rootsrcarray)
 *     element MYTHREAD of rootthread's private array of THREADS values
 * TYPE *bupc_allv_gather(TYPE, value, rootthread, rootdestarray)
 *     every value, in thread order, into rootthread's private array of
 *     THREADS (which is returned); rootthread -1 is bupc_allv_gather_all
 * TYPE *bupc_allv_gather_all(TYPE, value, destarray)
 *     into every thread's array; a thread that passes NULL discards them
 * TYPE bupc_allv_permute(TYPE, value, tothread)
 *     value goes to tothread (the tothreads of all threads must be a
 *     permutation of 0..THREADS-1); returns the value sent to this thread
 *
 * This header is self-contained (no pointer-to-shared is involved), so
 * mupc-translate's prelude reads it as it is.
 */
#ifndef MUPC_BUPC_COLLECTIVEV_H
#define MUPC_BUPC_COLLECTIVEV_H

#include <upc_types.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BUPC_COLLECTIVEV_VERSION_MAJOR 1
#define BUPC_COLLECTIVEV_VERSION_MINOR 2

/* The arithmetic kind of a scalar type: 2 floating, 1 signed integer,
 * 0 unsigned integer (the runtime picks the C type by kind and size). */
#define MUPC_ALLV_KIND(T) \
    ((T)0.5 != (T)0 && (T)1.5 != (T)1 ? 2 : (T)-1 < (T)1 ? 1 : 0)

void mupc_allv_reduce(void *result, const void *value, size_t size, int kind, int root,
                      upc_op_t op, int prefix, const char *file, int line);
void mupc_allv_broadcast(void *result, const void *value, size_t size, int root,
                         const char *file, int line);
void mupc_allv_scatter(void *result, const void *rootsrc, size_t size, int root,
                       const char *file, int line);
void *mupc_allv_gather(void *dest, const void *value, size_t size, int root, const char *file,
                       int line);
void mupc_allv_permute(void *result, const void *value, size_t size, int tothread,
                       const char *file, int line);

#define MUPC_ALLV_REDUCE(T, value, root, op, prefix)                                       \
    __extension__({                                                                        \
        T mupc_allv_in_ = (value), mupc_allv_out_;                                         \
        mupc_allv_reduce(&mupc_allv_out_, &mupc_allv_in_, sizeof(T), MUPC_ALLV_KIND(T),    \
                         (root), (op), (prefix), __FILE__, __LINE__);                      \
        mupc_allv_out_;                                                                    \
    })
#define bupc_allv_reduce(T, value, rootthread, op) MUPC_ALLV_REDUCE(T, value, rootthread, op, 0)
#define bupc_allv_reduce_all(T, value, op) MUPC_ALLV_REDUCE(T, value, -1, op, 0)
#define bupc_allv_prefix_reduce(T, value, op) MUPC_ALLV_REDUCE(T, value, -1, op, 1)

#define bupc_allv_broadcast(T, value, rootthread)                                          \
    __extension__({                                                                        \
        T mupc_allv_in_ = (value), mupc_allv_out_;                                         \
        mupc_allv_broadcast(&mupc_allv_out_, &mupc_allv_in_, sizeof(T), (rootthread),      \
                            __FILE__, __LINE__);                                           \
        mupc_allv_out_;                                                                    \
    })
#define bupc_allv_scatter(T, rootthread, rootsrcarray)                                     \
    __extension__({                                                                        \
        T mupc_allv_out_;                                                                  \
        mupc_allv_scatter(&mupc_allv_out_, (rootsrcarray), sizeof(T), (rootthread),        \
                          __FILE__, __LINE__);                                             \
        mupc_allv_out_;                                                                    \
    })
#define bupc_allv_gather(T, value, rootthread, rootdestarray)                              \
    __extension__({                                                                        \
        T mupc_allv_in_ = (value);                                                         \
        (T *)mupc_allv_gather((rootdestarray), &mupc_allv_in_, sizeof(T), (rootthread),    \
                              __FILE__, __LINE__);                                         \
    })
#define bupc_allv_gather_all(T, value, destarray) bupc_allv_gather(T, value, -1, destarray)
#define bupc_allv_permute(T, value, tothread)                                              \
    __extension__({                                                                        \
        T mupc_allv_in_ = (value), mupc_allv_out_;                                         \
        mupc_allv_permute(&mupc_allv_out_, &mupc_allv_in_, sizeof(T), (tothread),          \
                          __FILE__, __LINE__);                                             \
        mupc_allv_out_;                                                                    \
    })

#ifdef __cplusplus
}
#endif

#endif
