/* SPDX-License-Identifier: MIT */
/*
 * coll.h -- what the collective modules share: entering and leaving a
 * call (flag checks, ALLSYNC barriers), locating this thread's part of a
 * shared array, and the tree broadcast (coll.c).
 */
#ifndef MUPCI_COLL_H
#define MUPCI_COLL_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "mupc.h"
#include "transport/rendezvous.h"

#include <stddef.h>

/* Check the flags, start a new collective call, have thread 0 check that
 * every thread makes the same call (kind and args: see rendezvous.c's
 * table), and wait for everyone under UPC_IN_ALLSYNC. */
void mupci_coll_enter(mupci_rv_kind_t kind, const uint64_t args[MUPCI_RV_NARGS],
                      upc_flag_t flags, const char *what, const char *file, int line);
/* The barrier of UPC_OUT_ALLSYNC. */
void mupci_coll_leave(upc_flag_t flags, const char *what, const char *file, int line);

/* This thread's address for n bytes at p, which must have affinity to it
 * and lie in its segment (else a fatal error naming `what` and `role`). */
void *mupci_coll_local(mupc_ptr_t p, size_t n, const char *what, const char *role,
                       const char *file, int line);

/* Broadcast n bytes of buf from `root` over the binomial tree (buf is the
 * data on the root, the destination elsewhere), as message `round`. */
void mupci_coll_bcast(int root, void *buf, size_t n, int round);
/* Scatter and gather of n-byte blocks over the binomial tree rooted at
 * `root`: `all` (on the root only) holds THREADS blocks in virtual-rank
 * order (block v belongs to thread (root + v) mod THREADS); `mine` is
 * the calling thread's block. */
void mupci_coll_scatter(int root, const void *all, void *mine, size_t n);
void mupci_coll_gather(int root, const void *mine, void *all, size_t n);

#endif
