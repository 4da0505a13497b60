/* SPDX-License-Identifier: MIT */
/*
 * atomic_ops.h -- what each UPC 1.3 atomic operation does to a value, for
 * each type.  Pure (no MPI): the target thread applies it under its
 * progress lock; unit tests call it directly.
 */
#ifndef MUPCI_ATOMIC_OPS_H
#define MUPCI_ATOMIC_OPS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>

/* Bytes of a value of `type`, 0 if it is not a UPC atomic type. */
size_t mupci_atomic_type_size(int type);
/* Is `op` (one UPC_* bit) defined for `type`? */
int mupci_atomic_op_allowed(int type, int op);
/* How many operands `op` takes (0, 1 or 2). */
int mupci_atomic_operands(int op);
const char *mupci_atomic_type_name(int type);
const char *mupci_atomic_op_name(int op);

/* *old = *target; *target = op(*target, operands).  Buffers are
 * mupci_atomic_type_size(type) bytes, any alignment. */
void mupci_atomic_apply(int type, int op, void *target, const void *operand1,
                        const void *operand2, void *old);

#endif
