/* SPDX-License-Identifier: MIT */
/*
 * barrier.h -- tree barrier with split phases and named-barrier checks
 * (the MuPC report §4.4.7).
 */
#ifndef MUPCI_BARRIER_H
#define MUPCI_BARRIER_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

void mupci_barrier_init(int mythread, int threads);

/* Progress lock held, from every progress pass: a node leader notices its
 * members' arrivals (shm).  Returns 1 if that moved the barrier on. */
int mupci_barrier_progress(void);

/* The runtime's own barriers (start-up, collective exit): no GASP events. */
void mupci_barrier_internal(const char *what, const char *file, int line);

/* The barrier of the collective exit, when main has returned.  A thread
 * that meets it in another barrier (one thread skipped a barrier, or made
 * an extra one) stops the job naming the barrier it waits in.  file and
 * line are the runtime's (for the fence's GASP events). */
void mupci_barrier_exit(const char *file, int line);

#endif
