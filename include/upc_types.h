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

#endif
