/* SPDX-License-Identifier: MIT */
/*
 * upc_atomic.h -- the UPC 1.3 atomic memory operations library.
 *
 * Every operation is carried out by the thread the target has affinity to,
 * one at a time with all other atomic operations there, so atomic updates
 * from many threads never lose one another (plain accesses to the same
 * object are not atomic with respect to them, as the spec says).
 *
 * The C spelling: a domain is `upc_atomicdomain_t *`, a private per-thread
 * descriptor returned by the collective upc_all_atomicdomain_alloc; the
 * target is a pointer-to-shared value (mupc_ptr_t).
 *   upc_atomic_relaxed(dom, &old, UPC_ADD, target, &one, NULL);
 * Operations: UPC_GET, UPC_SET, UPC_CSWAP (operand1: expected, operand2:
 * new), UPC_ADD, UPC_SUB, UPC_MULT, UPC_INC, UPC_DEC (no operand), UPC_AND,
 * UPC_OR, UPC_XOR (integer types), UPC_MIN, UPC_MAX.  UPC_PTS supports
 * GET, SET and CSWAP.  fetch_ptr (may be NULL) receives the old value.
 * upc_atomic_strict is a strict access (fenced on both sides).
 * Misuse (an operation outside the domain's set or not defined for its
 * type, a misaligned or out-of-range target) stops the job naming the
 * caller's file and line.
 */
#ifndef MUPC_UPC_ATOMIC_H
#define MUPC_UPC_ATOMIC_H

#include <mupc.h>
#include <upc_types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mupc_atomicdomain upc_atomicdomain_t;

typedef int upc_atomichint_t;
#define UPC_ATOMIC_HINT_DEFAULT 0
#define UPC_ATOMIC_HINT_LATENCY 1
#define UPC_ATOMIC_HINT_THROUGHPUT 2

upc_atomicdomain_t *mupc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops,
                                                upc_atomichint_t hints, const char *file,
                                                int line);
void mupc_all_atomicdomain_free(upc_atomicdomain_t *domain, const char *file, int line);
void mupc_atomic(upc_atomicdomain_t *domain, void *fetch_ptr, upc_op_t op, mupc_ptr_t target,
                 const void *operand1, const void *operand2, int strict, const char *file,
                 int line);
/* 1 when these operations on `addr` run without a message (the target has
 * affinity to the caller), else 0. */
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, mupc_ptr_t addr);

/* One operation on `target` (an object of `type`) without a domain: the
 * path of upc_atomic_relaxed/strict, for libmupc's extensions
 * (<bupc_extensions.h>).  op is one UPC_* operation defined for the type;
 * fetch (may be NULL) receives the old value. */
void mupc_atomic_op(upc_type_t type, upc_op_t op, mupc_ptr_t target, const void *op1,
                    const void *op2, void *fetch, int strict, const char *file, int line);

/* Translated UPC (mupc-translate defines MUPC_TRANSLATED_UPC): there
 * upc_atomicdomain_t * is a pointer-to-shared, the same on every thread;
 * these take and return it as a mupc_ptr_t. */
mupc_ptr_t mupc_all_atomicdomain_alloc_pts(upc_type_t type, upc_op_t ops, upc_atomichint_t hints,
                                           const char *file, int line);
void mupc_all_atomicdomain_free_pts(mupc_ptr_t domain, const char *file, int line);
void mupc_atomic_pts(mupc_ptr_t domain, void *fetch_ptr, upc_op_t op, mupc_ptr_t target,
                     const void *operand1, const void *operand2, int strict, const char *file,
                     int line);

#ifdef MUPC_TRANSLATED_UPC
#define MUPC_DOMAIN_ENTRY(name) name##_pts
#else
#define MUPC_DOMAIN_ENTRY(name) name
#endif
#define upc_all_atomicdomain_alloc(type, ops, hints) \
    MUPC_DOMAIN_ENTRY(mupc_all_atomicdomain_alloc)((type), (ops), (hints), __FILE__, __LINE__)
#define upc_all_atomicdomain_free(domain) \
    MUPC_DOMAIN_ENTRY(mupc_all_atomicdomain_free)((domain), __FILE__, __LINE__)
#define upc_atomic_relaxed(domain, fetch_ptr, op, target, operand1, operand2)                       \
    MUPC_DOMAIN_ENTRY(mupc_atomic)((domain), (fetch_ptr), (op), (target), (operand1), (operand2), \
                                   MUPC_RELAXED, __FILE__, __LINE__)
#define upc_atomic_strict(domain, fetch_ptr, op, target, operand1, operand2)                        \
    MUPC_DOMAIN_ENTRY(mupc_atomic)((domain), (fetch_ptr), (op), (target), (operand1), (operand2), \
                                   MUPC_STRICT, __FILE__, __LINE__)

#ifdef __cplusplus
}
#endif

#endif
