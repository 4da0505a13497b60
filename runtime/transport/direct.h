/* SPDX-License-Identifier: MIT */
/*
 * direct.h -- on-node single-copy reads: a bypass beside the message
 * path.
 *
 * A large get from a thread on the same node copies straight out of the
 * target's segment with Linux cross-memory attach (process_vm_readv), so
 * the target's pthreads take no part: a target asleep in a barrier no
 * longer delays the transfer, and a non-blocking get is copied by the
 * requester's communication pthread while the computation pthread
 * computes (the overlap upc_nb.h promises).
 *
 * Why not an MPI-3 shared window (MPI_Win_allocate_shared)?  The segment
 * would have to live in /dev/shm (often 64 MiB in containers) instead of
 * a private NORESERVE mapping, and every other path would change with it.
 * Cross-memory attach is the single-copy mechanism MPICH and UCX use for
 * large on-node messages; the runtime's probe at start-up falls back to the
 * message path wherever the kernel refuses it (ptrace restrictions).
 *
 * With shm = on, threads whose segments are mapped (transport/node.h) need no
 * kernel call at all: this path serves the node's threads only when shm is
 * off or the node fell back to messages.
 *
 * Only reads take this path, and only when this thread has no unfenced
 * puts to the target (xfer.c checks): the message path orders a thread's
 * own put before its later get, and a direct read would overtake it.
 */
#ifndef MUPCI_DIRECT_H
#define MUPCI_DIRECT_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stddef.h>
#include <stdint.h>

/* Collective, after the segment is mapped: exchange pids and segment
 * addresses with the threads on this node and probe each one.  With
 * `enabled` 0 (direct_gets = off) every read takes the message path. */
void mupci_direct_init(int enabled, int mythread, int threads);
void mupci_direct_finalize(void);
/* How many threads this one reads directly; *refused: how many on this
 * node the kernel would not let it read (they take the message path). */
int mupci_direct_peers(int *refused);

/* True when reads of `thread`'s segment may be direct. */
int mupci_direct_usable(int thread);

/* Copy now (the range is checked by the caller).  A refusal after a
 * successful probe is an internal error and ends the job. */
void mupci_direct_read(void *dst, int thread, uint64_t offset, size_t n);

/* Queue a copy for whoever makes progress next; a finished copy counts
 * one part of op done (mupci_op_part_done: the copier need not hold the
 * progress lock). */
struct mupci_op;
void mupci_direct_read_async(void *dst, int thread, uint64_t offset, size_t n,
                             struct mupci_op *op);
/* Any pthread, with or without the progress lock: copy the next piece (at
 * most `piece` bytes) of the oldest queued read.  Returns 1 if it copied
 * something.  The communication pthread calls it outside the progress
 * lock with no size limit, so a whole transfer is one kernel call and the
 * computation pthread is never kept from the lock meanwhile. */
int mupci_direct_progress(size_t piece);

#endif
