/* SPDX-License-Identifier: MIT */
/*
 * trend_ops.h -- the operations mupc-trend counts, shared by the
 * collecting tool (trend_collect.c) and the analysis (mupc-trend).
 */
#ifndef MUPC_TREND_OPS_H
#define MUPC_TREND_OPS_H

#include <gasp_upc.h>
#include <string.h>

/* Version of the profile file format (trend_profile.h). */
#define MUPC_TREND_FORMAT_VERSION 1

enum {
    MUPC_TREND_GET,
    MUPC_TREND_PUT,
    MUPC_TREND_MEMGET,
    MUPC_TREND_MEMPUT,
    MUPC_TREND_MEMCPY,
    MUPC_TREND_MEMSET,
    MUPC_TREND_LOCK,
    MUPC_TREND_BARRIER,
    MUPC_TREND_COLLECTIVE,
    MUPC_TREND_ATOMIC,
    MUPC_TREND_ALLOC,
    MUPC_TREND_NOPS
};

static const char *const mupc_trend_op_names[MUPC_TREND_NOPS] = {
    "get", "put", "memget", "memput", "memcpy", "memset",
    "lock", "barrier", "collective", "atomic", "alloc",
};

static inline const char *mupc_trend_op_name(int op)
{
    return op >= 0 && op < MUPC_TREND_NOPS ? mupc_trend_op_names[op] : "?";
}

/* The operation for a name, or -1. */
static inline int mupc_trend_op_lookup(const char *name)
{
    for (int op = 0; op < MUPC_TREND_NOPS; op++)
        if (strcmp(mupc_trend_op_names[op], name) == 0)
            return op;
    return -1;
}

/* The operation an event starts, or -1 for events that are not remote
 * communication (fences, cache events, local allocation, nb syncs, the
 * second half of a split barrier). */
static inline int mupc_trend_op_of_event(unsigned int tag)
{
    switch (tag) {
    case GASP_UPC_GET:
    case GASP_UPC_NB_GET_INIT:
        return MUPC_TREND_GET;
    case GASP_UPC_PUT:
    case GASP_UPC_NB_PUT_INIT:
        return MUPC_TREND_PUT;
    case GASP_UPC_MEMGET:
        return MUPC_TREND_MEMGET;
    case GASP_UPC_MEMPUT:
        return MUPC_TREND_MEMPUT;
    case GASP_UPC_MEMCPY:
        return MUPC_TREND_MEMCPY;
    case GASP_UPC_MEMSET:
        return MUPC_TREND_MEMSET;
    case GASP_UPC_LOCK:
    case GASP_UPC_LOCK_ATTEMPT:
    case GASP_UPC_UNLOCK:
        return MUPC_TREND_LOCK;
    case GASP_UPC_BARRIER:
    case GASP_UPC_NOTIFY:
        return MUPC_TREND_BARRIER;
    case GASP_UPC_ALL_BROADCAST:
    case GASP_UPC_ALL_SCATTER:
    case GASP_UPC_ALL_GATHER:
    case GASP_UPC_ALL_GATHER_ALL:
    case GASP_UPC_ALL_EXCHANGE:
    case GASP_UPC_ALL_PERMUTE:
    case GASP_UPC_ALL_REDUCE:
    case GASP_UPC_ALL_PREFIX_REDUCE:
        return MUPC_TREND_COLLECTIVE;
    case GASP_MUPC_ATOMIC:
        return MUPC_TREND_ATOMIC;
    case GASP_UPC_GLOBAL_ALLOC:
    case GASP_UPC_ALL_ALLOC:
        return MUPC_TREND_ALLOC;
    default:
        return -1;
    }
}

#endif
