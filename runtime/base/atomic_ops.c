/* SPDX-License-Identifier: MIT */
/*
 * atomic_ops.c -- the arithmetic of UPC 1.3 atomics (atomic_ops.h).
 * Signed integers are computed in their unsigned type so overflow wraps
 * instead of being undefined.
 */
#include "base/atomic_ops.h"
#include "mupc.h"
#include "upc_types.h"

#include <stdint.h>
#include <string.h>

#define INTEGER_OPS (UPC_GET | UPC_SET | UPC_CSWAP | UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | \
                     UPC_DEC | UPC_AND | UPC_OR | UPC_XOR | UPC_MIN | UPC_MAX)
#define FLOAT_OPS (UPC_GET | UPC_SET | UPC_CSWAP | UPC_ADD | UPC_SUB | UPC_MULT | UPC_INC | \
                   UPC_DEC | UPC_MIN | UPC_MAX)
#define PTS_OPS (UPC_GET | UPC_SET | UPC_CSWAP)

/* X(code, C type, unsigned twin, ops) */
#define ATOMIC_TYPES(X)                                                                   \
    X(UPC_INT, int, unsigned int, INTEGER_OPS)                                            \
    X(UPC_UINT, unsigned int, unsigned int, INTEGER_OPS)                                  \
    X(UPC_LONG, long, unsigned long, INTEGER_OPS)                                         \
    X(UPC_ULONG, unsigned long, unsigned long, INTEGER_OPS)                               \
    X(UPC_INT32, int32_t, uint32_t, INTEGER_OPS)                                          \
    X(UPC_UINT32, uint32_t, uint32_t, INTEGER_OPS)                                        \
    X(UPC_INT64, int64_t, uint64_t, INTEGER_OPS)                                          \
    X(UPC_UINT64, uint64_t, uint64_t, INTEGER_OPS)                                        \
    X(UPC_FLOAT, float, float, FLOAT_OPS)                                                 \
    X(UPC_DOUBLE, double, double, FLOAT_OPS)                                              \
    X(UPC_PTS, mupc_ptr_t, mupc_ptr_t, PTS_OPS)

size_t mupci_atomic_type_size(int type)
{
    switch (type) {
#define SIZE_CASE(code, T, U, ops)                                                        \
    case code:                                                                            \
        return sizeof(T);
        ATOMIC_TYPES(SIZE_CASE)
#undef SIZE_CASE
    }
    return 0;
}

int mupci_atomic_op_allowed(int type, int op)
{
    switch (type) {
#define OPS_CASE(code, T, U, ops)                                                         \
    case code:                                                                            \
        return (op & (ops)) != 0 && (op & (op - 1)) == 0;
        ATOMIC_TYPES(OPS_CASE)
#undef OPS_CASE
    }
    return 0;
}

int mupci_atomic_operands(int op)
{
    if (op == UPC_CSWAP)
        return 2;
    return op == UPC_GET || op == UPC_INC || op == UPC_DEC ? 0 : 1;
}

const char *mupci_atomic_type_name(int type)
{
    switch (type) {
#define NAME_CASE(code, T, U, ops)                                                        \
    case code:                                                                            \
        return #code;
        ATOMIC_TYPES(NAME_CASE)
#undef NAME_CASE
    }
    return "(not a UPC type)";
}

const char *mupci_atomic_op_name(int op)
{
    static const char *const names[] = {"UPC_ADD", "UPC_MULT", "UPC_AND",   "UPC_OR",
                                        "UPC_XOR", "UPC_LOGAND", "UPC_LOGOR", "UPC_MIN",
                                        "UPC_MAX", "UPC_GET", "UPC_SET",   "UPC_CSWAP",
                                        "UPC_SUB", "UPC_INC", "UPC_DEC"};
    if (op <= 0 || (op & (op - 1)) != 0 || op > UPC_DEC)
        return "(not one UPC operation)";
    return names[__builtin_ctz((unsigned)op)];
}

/* One function per type: old = *target; *target = op(*target, a, b). */
#define LOAD_OPERANDS(T)                                                                  \
    T v, a = 0, b = 0;                                                                    \
    memcpy(&v, target, sizeof v);                                                         \
    memcpy(old, &v, sizeof v);                                                            \
    if (op1)                                                                              \
        memcpy(&a, op1, sizeof a);                                                        \
    if (op2)                                                                              \
        memcpy(&b, op2, sizeof b)

#define DEFINE_APPLY_INT(fn, T, U)                                                        \
    static void fn(int op, void *target, const void *op1, const void *op2, void *old)     \
    {                                                                                     \
        LOAD_OPERANDS(T);                                                                 \
        switch (op) {                                                                     \
        case UPC_SET: v = a; break;                                                       \
        case UPC_CSWAP: v = v == a ? b : v; break;                                        \
        case UPC_ADD: v = (T)((U)v + (U)a); break;                                        \
        case UPC_SUB: v = (T)((U)v - (U)a); break;                                        \
        case UPC_MULT: v = (T)((U)v * (U)a); break;                                       \
        case UPC_INC: v = (T)((U)v + 1u); break;                                          \
        case UPC_DEC: v = (T)((U)v - 1u); break;                                          \
        case UPC_AND: v = (T)((U)v & (U)a); break;                                        \
        case UPC_OR: v = (T)((U)v | (U)a); break;                                         \
        case UPC_XOR: v = (T)((U)v ^ (U)a); break;                                        \
        case UPC_MIN: v = a < v ? a : v; break;                                           \
        case UPC_MAX: v = a > v ? a : v; break;                                           \
        }                                                                                 \
        memcpy(target, &v, sizeof v);                                                     \
    }

#define DEFINE_APPLY_FLOAT(fn, T)                                                         \
    static void fn(int op, void *target, const void *op1, const void *op2, void *old)     \
    {                                                                                     \
        LOAD_OPERANDS(T);                                                                 \
        switch (op) {                                                                     \
        case UPC_SET: v = a; break;                                                       \
        case UPC_CSWAP: v = v == a ? b : v; break;                                        \
        case UPC_ADD: v = v + a; break;                                                   \
        case UPC_SUB: v = v - a; break;                                                   \
        case UPC_MULT: v = v * a; break;                                                  \
        case UPC_INC: v = v + 1; break;                                                   \
        case UPC_DEC: v = v - 1; break;                                                   \
        case UPC_MIN: v = a < v ? a : v; break;                                           \
        case UPC_MAX: v = a > v ? a : v; break;                                           \
        }                                                                                 \
        memcpy(target, &v, sizeof v);                                                     \
    }

DEFINE_APPLY_INT(apply_int, int, unsigned int)
DEFINE_APPLY_INT(apply_uint, unsigned int, unsigned int)
DEFINE_APPLY_INT(apply_long, long, unsigned long)
DEFINE_APPLY_INT(apply_ulong, unsigned long, unsigned long)
DEFINE_APPLY_INT(apply_int32, int32_t, uint32_t)
DEFINE_APPLY_INT(apply_uint32, uint32_t, uint32_t)
DEFINE_APPLY_INT(apply_int64, int64_t, uint64_t)
DEFINE_APPLY_INT(apply_uint64, uint64_t, uint64_t)
DEFINE_APPLY_FLOAT(apply_float, float)
DEFINE_APPLY_FLOAT(apply_double, double)

/* Pointers-to-shared compare as whole values (thread, phase and address). */
static void apply_pts(int op, void *target, const void *op1, const void *op2, void *old)
{
    mupc_ptr_t v;
    memcpy(&v, target, sizeof v);
    memcpy(old, &v, sizeof v);
    if (op == UPC_SET)
        memcpy(target, op1, sizeof v);
    else if (op == UPC_CSWAP && memcmp(&v, op1, sizeof v) == 0)
        memcpy(target, op2, sizeof v);
}

void mupci_atomic_apply(int type, int op, void *target, const void *op1, const void *op2,
                        void *old)
{
    typedef void (*apply_fn)(int, void *, const void *, const void *, void *);
    static const apply_fn by_type[] = {
        [UPC_INT] = apply_int,       [UPC_UINT] = apply_uint,     [UPC_LONG] = apply_long,
        [UPC_ULONG] = apply_ulong,   [UPC_INT32] = apply_int32,   [UPC_UINT32] = apply_uint32,
        [UPC_INT64] = apply_int64,   [UPC_UINT64] = apply_uint64, [UPC_FLOAT] = apply_float,
        [UPC_DOUBLE] = apply_double, [UPC_PTS] = apply_pts,
    };
    by_type[type](op, target, op1, op2, old);
}
