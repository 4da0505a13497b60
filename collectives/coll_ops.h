/* SPDX-License-Identifier: MIT */
/*
 * coll_ops.h -- the reduction operations of upc_all_reduceT and
 * upc_all_prefix_reduceT on arrays of any of the eleven UPC types (pure
 * code, unit-tested in tests/unit/check_coll_ops.c).
 *
 * `left` is always the earlier operand in element order, which matters
 * for UPC_NONCOMM_FUNC (and for rounding of floating-point sums).
 */
#ifndef MUPCI_COLL_OPS_H
#define MUPCI_COLL_OPS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <mupc.h> /* MUPC_REDUCE_TYPES */
#include <upc_types.h>

#include <stddef.h>

typedef enum {
#define MUPCI_REDTYPE_ENUM(suffix, type) MUPCI_RED_##suffix,
    MUPC_REDUCE_TYPES(MUPCI_REDTYPE_ENUM)
#undef MUPCI_REDTYPE_ENUM
    MUPCI_RED_NTYPES
} mupci_red_type_t;

/* One reduction: element type, operation, and the user's function
 * (`T (*)(T, T)`, for UPC_FUNC and UPC_NONCOMM_FUNC). */
typedef struct mupci_redop {
    mupci_red_type_t type;
    upc_op_t op;
    void (*func)(void);
} mupci_redop_t;

size_t mupci_red_type_size(mupci_red_type_t type);
const char *mupci_red_type_name(mupci_red_type_t type); /* "I", "UL", ... */
const char *mupci_red_op_name(upc_op_t op);               /* "UPC_ADD", ... or NULL */

/* NULL when `op` applies to `type` (and func is given where needed);
 * otherwise why not, for an error message. */
const char *mupci_redop_invalid(const mupci_redop_t *r);
/* Whether elements may be combined in any order (not UPC_NONCOMM_FUNC). */
int mupci_redop_commutes(const mupci_redop_t *r);

/* out[i] = left[i] op right[i] for i < n; out may alias either. */
void mupci_redop_apply(const mupci_redop_t *r, void *out, const void *left, const void *right,
                       size_t n);
/* *acc = *acc op x[0] op ... op x[n-1]; with has_acc == 0, *acc starts as
 * x[0].  n > 0. */
void mupci_redop_fold(const mupci_redop_t *r, void *acc, int has_acc, const void *x, size_t n);
/* Inclusive scan: out[i] = acc op x[0] op ... op x[i] (without acc when
 * has_acc == 0); *acc ends as out[n-1].  out may alias x.  n > 0. */
void mupci_redop_scan(const mupci_redop_t *r, void *acc, int has_acc, const void *x, void *out,
                      size_t n);

#endif
