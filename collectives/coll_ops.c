/* SPDX-License-Identifier: MIT */
/*
 * coll_ops.c -- typed reduction operations (see coll_ops.h).
 *
 * One scalar combiner per type, a switch on the operation; the loops call
 * it with a loop-invariant `op`, so the branch predicts perfectly.
 */
#include "collectives/coll_ops.h"

#include <string.h>

static const size_t type_sizes[] = {
#define MUPCI_REDTYPE_SIZE(suffix, type) sizeof(type),
    MUPC_REDUCE_TYPES(MUPCI_REDTYPE_SIZE)
#undef MUPCI_REDTYPE_SIZE
};

static const char *const type_names[] = {
#define MUPCI_REDTYPE_NAME(suffix, type) #suffix,
    MUPC_REDUCE_TYPES(MUPCI_REDTYPE_NAME)
#undef MUPCI_REDTYPE_NAME
};

size_t mupci_red_type_size(mupci_red_type_t type) { return type_sizes[type]; }
const char *mupci_red_type_name(mupci_red_type_t type) { return type_names[type]; }

const char *mupci_red_op_name(upc_op_t op)
{
    switch (op) {
    case UPC_ADD: return "UPC_ADD";
    case UPC_MULT: return "UPC_MULT";
    case UPC_AND: return "UPC_AND";
    case UPC_OR: return "UPC_OR";
    case UPC_XOR: return "UPC_XOR";
    case UPC_LOGAND: return "UPC_LOGAND";
    case UPC_LOGOR: return "UPC_LOGOR";
    case UPC_MIN: return "UPC_MIN";
    case UPC_MAX: return "UPC_MAX";
    case UPC_FUNC: return "UPC_FUNC";
    case UPC_NONCOMM_FUNC: return "UPC_NONCOMM_FUNC";
    default: return NULL;
    }
}

static int is_floating(mupci_red_type_t type)
{
    return type == MUPCI_RED_F || type == MUPCI_RED_D || type == MUPCI_RED_LD;
}

const char *mupci_redop_invalid(const mupci_redop_t *r)
{
    if ((unsigned)r->type >= MUPCI_RED_NTYPES)
        return "unknown element type";
    if (!mupci_red_op_name(r->op))
        return "not a reduction operation (use one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, "
               "UPC_XOR, UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, UPC_FUNC, UPC_NONCOMM_FUNC)";
    if (is_floating(r->type) && (r->op == UPC_AND || r->op == UPC_OR || r->op == UPC_XOR))
        return "bitwise operations (UPC_AND, UPC_OR, UPC_XOR) need an integer type";
    if ((r->op == UPC_FUNC || r->op == UPC_NONCOMM_FUNC) && !r->func)
        return "UPC_FUNC and UPC_NONCOMM_FUNC need a function (func is NULL)";
    return NULL;
}

int mupci_redop_commutes(const mupci_redop_t *r) { return r->op != UPC_NONCOMM_FUNC; }

/* ---- the scalar combiners ---- */

#define MUPCI_COMMON_CASES(T)                                                              \
    case UPC_ADD: return (T)(a + b);                                                       \
    case UPC_MULT: return (T)(a * b);                                                      \
    case UPC_LOGAND: return (T)(a && b);                                                   \
    case UPC_LOGOR: return (T)(a || b);                                                    \
    case UPC_MIN: return a < b ? a : b;                                                    \
    case UPC_MAX: return a > b ? a : b;                                                    \
    default: return ((T(*)(T, T))func)(a, b); /* UPC_FUNC, UPC_NONCOMM_FUNC */

#define MUPCI_INTEGER_COMBINER(suffix, T)                                                  \
    static inline T combine_##suffix(upc_op_t op, void (*func)(void), T a, T b)           \
    {                                                                                      \
        switch (op) {                                                                      \
        case UPC_AND: return (T)(a & b);                                                   \
        case UPC_OR: return (T)(a | b);                                                    \
        case UPC_XOR: return (T)(a ^ b);                                                   \
            MUPCI_COMMON_CASES(T)                                                          \
        }                                                                                  \
    }
#define MUPCI_FLOATING_COMBINER(suffix, T)                                                 \
    static inline T combine_##suffix(upc_op_t op, void (*func)(void), T a, T b)           \
    {                                                                                      \
        switch (op) {                                                                      \
            MUPCI_COMMON_CASES(T)                                                          \
        }                                                                                  \
    }

MUPCI_INTEGER_COMBINER(C, signed char)
MUPCI_INTEGER_COMBINER(UC, unsigned char)
MUPCI_INTEGER_COMBINER(S, short)
MUPCI_INTEGER_COMBINER(US, unsigned short)
MUPCI_INTEGER_COMBINER(I, int)
MUPCI_INTEGER_COMBINER(UI, unsigned int)
MUPCI_INTEGER_COMBINER(L, long)
MUPCI_INTEGER_COMBINER(UL, unsigned long)
MUPCI_FLOATING_COMBINER(F, float)
MUPCI_FLOATING_COMBINER(D, double)
MUPCI_FLOATING_COMBINER(LD, long double)

/* ---- the loops, one set per type ---- */

#define MUPCI_TYPED_LOOPS(suffix, T)                                                       \
    static void apply_##suffix(const mupci_redop_t *r, void *out, const void *left,         \
                               const void *right, size_t n)                                \
    {                                                                                      \
        for (size_t i = 0; i < n; i++) {                                                   \
            T a, b;                                                                        \
            memcpy(&a, (const T *)left + i, sizeof a);                                     \
            memcpy(&b, (const T *)right + i, sizeof b);                                    \
            a = combine_##suffix(r->op, r->func, a, b);                                    \
            memcpy((T *)out + i, &a, sizeof a);                                            \
        }                                                                                  \
    }                                                                                      \
    static void scan_##suffix(const mupci_redop_t *r, void *acc, int has_acc, const void *x, \
                              void *out, size_t n, int store)                              \
    {                                                                                      \
        T sum, v;                                                                          \
        size_t i = 0;                                                                      \
        if (has_acc) {                                                                     \
            memcpy(&sum, acc, sizeof sum);                                                 \
        } else {                                                                           \
            memcpy(&sum, x, sizeof sum);                                                   \
            if (store)                                                                     \
                memcpy(out, &sum, sizeof sum);                                             \
            i = 1;                                                                         \
        }                                                                                  \
        for (; i < n; i++) {                                                               \
            memcpy(&v, (const T *)x + i, sizeof v);                                        \
            sum = combine_##suffix(r->op, r->func, sum, v);                                \
            if (store)                                                                     \
                memcpy((T *)out + i, &sum, sizeof sum);                                    \
        }                                                                                  \
        memcpy(acc, &sum, sizeof sum);                                                     \
    }
MUPC_REDUCE_TYPES(MUPCI_TYPED_LOOPS)
#undef MUPCI_TYPED_LOOPS

typedef void (*apply_fn)(const mupci_redop_t *, void *, const void *, const void *, size_t);
typedef void (*scan_fn)(const mupci_redop_t *, void *, int, const void *, void *, size_t, int);

static const apply_fn apply_fns[] = {
#define MUPCI_APPLY_ENTRY(suffix, type) apply_##suffix,
    MUPC_REDUCE_TYPES(MUPCI_APPLY_ENTRY)
#undef MUPCI_APPLY_ENTRY
};
static const scan_fn scan_fns[] = {
#define MUPCI_SCAN_ENTRY(suffix, type) scan_##suffix,
    MUPC_REDUCE_TYPES(MUPCI_SCAN_ENTRY)
#undef MUPCI_SCAN_ENTRY
};

void mupci_redop_apply(const mupci_redop_t *r, void *out, const void *left, const void *right,
                       size_t n)
{
    apply_fns[r->type](r, out, left, right, n);
}

void mupci_redop_fold(const mupci_redop_t *r, void *acc, int has_acc, const void *x, size_t n)
{
    scan_fns[r->type](r, acc, has_acc, x, NULL, n, 0);
}

void mupci_redop_scan(const mupci_redop_t *r, void *acc, int has_acc, const void *x, void *out,
                      size_t n)
{
    scan_fns[r->type](r, acc, has_acc, x, out, n, 1);
}
