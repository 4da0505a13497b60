/* SPDX-License-Identifier: MIT */
/*
 * coll_value.c -- the value collectives of <bupc_collectivev.h>: each
 * thread's private value travels as collective messages (coll_net.h)
 * over the binomial trees the array collectives use (coll.c).  Nothing
 * touches shared memory, so no call needs a barrier; every call is
 * checked at thread 0 like the others (same call, TYPE size, root, op).
 */
#include <bupc_collectivev.h>

#include "collectives/coll.h"
#include "collectives/coll_net.h"
#include "collectives/coll_ops.h"
#include "base/fatal.h"
#include "transport/rendezvous.h"

#include <stdlib.h>
#include <string.h>

enum { ROUND_UP = 1, ROUND_DOWN = 2 };
enum { CALL_REDUCE = 1, CALL_PREFIX, CALL_BROADCAST, CALL_SCATTER, CALL_GATHER, CALL_PERMUTE };

static void enter(int call, size_t size, int root, upc_op_t op, int root_may_be_all,
                  const char *what, const char *file, int line)
{
    if (root < (root_may_be_all ? -1 : 0) || root >= mupc_threads)
        mupci_fatal_at(file, line, "%s: root thread %d is out of range (0 to THREADS-1 = %d%s)",
                       what, root, mupc_threads - 1, root_may_be_all ? ", or -1 for all" : "");
    mupci_coll_begin(what, file, line);
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)call, size, (uint64_t)(root + 1), (uint64_t)op};
    mupci_rv_check(MUPCI_RV_ALLV, args, what, file, line);
}

static void *scratch(size_t n, const char *what, const char *file, int line)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        mupci_fatal_at(file, line, "%s: out of memory for %zu bytes", what, n);
    return p;
}

/* The reduction type of a scalar of `size` bytes and kind (see
 * MUPC_ALLV_KIND), or MUPCI_RED_NTYPES when there is none. */
static mupci_red_type_t red_type(int kind, size_t size)
{
    if (kind == 2)
        return size == sizeof(float)         ? MUPCI_RED_F
               : size == sizeof(double)      ? MUPCI_RED_D
               : size == sizeof(long double) ? MUPCI_RED_LD
                                             : MUPCI_RED_NTYPES;
    int s = kind == 1;
    return size == 1                   ? (s ? MUPCI_RED_C : MUPCI_RED_UC)
           : size == sizeof(short)     ? (s ? MUPCI_RED_S : MUPCI_RED_US)
           : size == sizeof(int)       ? (s ? MUPCI_RED_I : MUPCI_RED_UI)
           : size == sizeof(long)      ? (s ? MUPCI_RED_L : MUPCI_RED_UL)
                                       : MUPCI_RED_NTYPES;
}

void mupc_allv_reduce(void *result, const void *value, size_t size, int kind, int root,
                      upc_op_t op, int prefix, const char *file, int line)
{
    const char *what = prefix ? "bupc_allv_prefix_reduce"
                       : root < 0 ? "bupc_allv_reduce_all" : "bupc_allv_reduce";
    mupci_redop_t r = {red_type(kind, size), op, NULL};
    if (r.type == MUPCI_RED_NTYPES)
        mupci_fatal_at(file, line, "%s: TYPE must be an integer or floating type (%zu bytes)",
                       what, size);
    if (op == UPC_FUNC || op == UPC_NONCOMM_FUNC)
        mupci_fatal_at(file, line, "%s: UPC_FUNC and UPC_NONCOMM_FUNC are not supported by the "
                       "value collectives; use upc_all_reduce%s", what, mupci_red_type_name(r.type));
    const char *why = mupci_redop_invalid(&r);
    if (why)
        mupci_fatal_at(file, line, "%s: %s", what, why);
    enter(prefix ? CALL_PREFIX : CALL_REDUCE, size, root, op, 1, what, file, line);
    int N = mupc_threads;
    if (prefix) { /* every value to every thread, then each folds its prefix */
        char *all = scratch((size_t)N * size, what, file, line);
        mupci_coll_gather(0, value, mupc_mythread == 0 ? all : NULL, size);
        mupci_coll_bcast(0, all, (size_t)N * size, ROUND_DOWN);
        memcpy(result, all, size);
        if (mupc_mythread > 0)
            mupci_redop_fold(&r, result, 1, all + size, (size_t)mupc_mythread);
        free(all);
        return;
    }
    /* up the tree rooted at `top`: each thread combines its subtree, in
     * virtual-rank order, and passes it to its parent */
    int top = root < 0 ? 0 : root, v = mupci_tree_vrank(mupc_mythread, top, N);
    _Alignas(16) char acc[32], part[32]; /* long double at most */
    memcpy(acc, value, size);
    for (int k = 1; k < mupci_tree_lowbit(v, N) && v + k < N; k <<= 1) {
        mupci_coll_recv(mupci_tree_thread(v + k, top, N), ROUND_UP, part, size);
        mupci_redop_apply(&r, acc, acc, part, 1);
    }
    if (v != 0)
        mupci_coll_send(mupci_tree_thread(mupci_tree_parent(v), top, N), ROUND_UP, acc, size);
    if (root < 0)
        mupci_coll_bcast(0, acc, size, ROUND_DOWN);
    if (root < 0 || v == 0)
        memcpy(result, acc, size);
    else
        memset(result, 0, size);
}

void mupc_allv_broadcast(void *result, const void *value, size_t size, int root,
                         const char *file, int line)
{
    enter(CALL_BROADCAST, size, root, 0, 0, "bupc_allv_broadcast", file, line);
    if (mupc_mythread == root)
        memmove(result, value, size);
    mupci_coll_bcast(root, result, size, ROUND_DOWN);
}

void mupc_allv_scatter(void *result, const void *rootsrc, size_t size, int root,
                       const char *file, int line)
{
    const char *what = "bupc_allv_scatter";
    enter(CALL_SCATTER, size, root, 0, 0, what, file, line);
    int N = mupc_threads;
    char *all = NULL;
    if (mupc_mythread == root) {
        if (!rootsrc)
            mupci_fatal_at(file, line, "%s: the root's source array is NULL", what);
        all = scratch((size_t)N * size, what, file, line);
        for (int v = 0; v < N; v++) /* thread order to the tree's order */
            memcpy(all + (size_t)v * size,
                   (const char *)rootsrc + (size_t)mupci_tree_thread(v, root, N) * size, size);
    }
    mupci_coll_scatter(root, all, result, size);
    free(all);
}

void *mupc_allv_gather(void *dest, const void *value, size_t size, int root, const char *file,
                       int line)
{
    const char *what = root < 0 ? "bupc_allv_gather_all" : "bupc_allv_gather";
    enter(CALL_GATHER, size, root, 0, 1, what, file, line);
    int N = mupc_threads, top = root < 0 ? 0 : root;
    char *all = NULL;
    if (root < 0 || mupc_mythread == root)
        all = scratch((size_t)N * size, what, file, line);
    mupci_coll_gather(top, value, mupc_mythread == top ? all : NULL, size);
    if (root < 0)
        mupci_coll_bcast(0, all, (size_t)N * size, ROUND_DOWN);
    if (all && dest)
        for (int v = 0; v < N; v++) /* the tree's order to thread order */
            memcpy((char *)dest + (size_t)mupci_tree_thread(v, top, N) * size,
                   all + (size_t)v * size, size);
    free(all);
    return dest;
}

void mupc_allv_permute(void *result, const void *value, size_t size, int tothread,
                       const char *file, int line)
{
    const char *what = "bupc_allv_permute";
    if (tothread < 0 || tothread >= mupc_threads)
        mupci_fatal_at(file, line, "%s: destination thread %d is out of range (0 to %d)", what,
                       tothread, mupc_threads - 1);
    enter(CALL_PERMUTE, size, 0, 0, 0, what, file, line);
    mupci_coll_send(tothread, ROUND_UP, value, size);
    mupci_coll_recv(MUPCI_COLL_ANY, ROUND_UP, result, size);
}
