/* SPDX-License-Identifier: MIT */
/*
 * upc_types.h -- UPC 1.3 operation and type codes, shared by the atomics
 * (<upc_atomic.h>) and the collectives.
 */
#ifndef MUPC_UPC_TYPES_H
#define MUPC_UPC_TYPES_H

/* Operations: one bit each, so a set of them is an OR. */
typedef int upc_op_t;
#define UPC_ADD (1 << 0)
#define UPC_MULT (1 << 1)
#define UPC_AND (1 << 2)
#define UPC_OR (1 << 3)
#define UPC_XOR (1 << 4)
#define UPC_LOGAND (1 << 5)
#define UPC_LOGOR (1 << 6)
#define UPC_MIN (1 << 7)
#define UPC_MAX (1 << 8)
#define UPC_GET (1 << 9)
#define UPC_SET (1 << 10)
#define UPC_CSWAP (1 << 11)
#define UPC_SUB (1 << 12)
#define UPC_INC (1 << 13)
#define UPC_DEC (1 << 14)
/* Collectives only: a user function given as `func`; UPC_FUNC must be
 * commutative and associative, UPC_NONCOMM_FUNC only associative (the
 * runtime applies it in element order). */
#define UPC_FUNC (1 << 15)
#define UPC_NONCOMM_FUNC (1 << 16)

/* Types an operation works on. */
typedef int upc_type_t;
#define UPC_INT 1
#define UPC_UINT 2
#define UPC_LONG 3
#define UPC_ULONG 4
#define UPC_INT32 5
#define UPC_UINT32 6
#define UPC_INT64 7
#define UPC_UINT64 8
#define UPC_FLOAT 9
#define UPC_DOUBLE 10
#define UPC_PTS 11
#define UPC_CHAR 12
#define UPC_UCHAR 13
#define UPC_SHORT 14
#define UPC_USHORT 15
#define UPC_LLONG 16
#define UPC_ULLONG 17
#define UPC_INT8 18
#define UPC_UINT8 19
#define UPC_INT16 20
#define UPC_UINT16 21
#define UPC_LDOUBLE 22

/* Synchronization flags of the collectives (upc_collective.h).  At most
 * one IN and one OUT flag; an omitted one means ALLSYNC:
 *   IN_NOSYNC   data may be read or written as soon as any thread enters
 *   IN_MYSYNC   only data of threads that have entered
 *   IN_ALLSYNC  only once every thread has entered
 *   OUT_NOSYNC  data may still be accessed until the last thread returns
 *   OUT_MYSYNC  a thread returns once all accesses to its own data are done
 *   OUT_ALLSYNC a thread returns once all accesses to all data are done
 * Each is a distinct positive integer constant, usable in #if (UPC 1.3
 * required library §7.3.1), so ALLSYNC has a bit of its own that means
 * the same as leaving the flag out. */
typedef int upc_flag_t;
#define UPC_IN_NOSYNC (1 << 0)
#define UPC_IN_MYSYNC (1 << 1)
#define UPC_OUT_NOSYNC (1 << 2)
#define UPC_OUT_MYSYNC (1 << 3)
#define UPC_IN_ALLSYNC (1 << 4)
#define UPC_OUT_ALLSYNC (1 << 5)

#endif
