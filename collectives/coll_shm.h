/* SPDX-License-Identifier: MIT */
/*
 * coll_shm.h -- collective data moved between threads of one node by
 * plain copies into each other's mapped segments (transport/node.h),
 * instead of as collective messages (coll_net.h).
 *
 * Why: a collective message between two processes of one node goes
 * through MPI, which for a batch of 16 KiB is a rendezvous (request, a
 * cross-memory read, an acknowledgement) needing both processes'
 * progress.  With more UPC threads than cores those processes are often
 * off the core, so upc_all_exchange of 64 KiB blocks moved at 130-170
 * MB/s at 3-4 threads on 2 cores (bench/waits), where a copy moves
 * gigabytes a second.
 *
 * The protocol, for the k-th call of this thread that pushes (every
 * thread of the node makes the same calls, so the k-th ones belong
 * together):
 *   - entering, a thread counts the call (entered = k) and rings its bell;
 *   - a pusher waits until its target has entered call k, so the
 *     target is done with the previous call's destination and, under
 *     UPC_IN_MYSYNC, has entered this one; then it copies into the
 *     target's segment, counts one arrival there and rings its bell;
 *   - a target waits until its arrivals reach k times the pushers.
 * Waiting for entry also under UPC_IN_NOSYNC keeps every arrival of the
 * (k+1)-th call out of the k-th call's count.
 *
 * Computation pthread only, progress lock not held.
 */
#ifndef MUPCI_COLL_SHM_H
#define MUPCI_COLL_SHM_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

/* 1 when `thread` is another thread of this node whose segment this
 * process maps (and which maps this thread's): data to it is pushed. */
int mupci_coll_shm_peer(int thread);

/* Enter this thread's next pushing call; returns its number. */
uint32_t mupci_coll_shm_enter(void);

/* Once `to` has entered call `call`: copy n bytes from `src` to offset
 * `addr` of `to`'s segment, then count the arrival there. */
void mupci_coll_shm_push(int to, uint32_t call, uint64_t addr, const void *src, size_t n);

/* Wait until `pushers` threads have pushed to this thread in each of its
 * calls up to `call`. */
void mupci_coll_shm_await(uint32_t call, int pushers);

#endif
