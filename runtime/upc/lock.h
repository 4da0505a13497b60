/* SPDX-License-Identifier: MIT */
/*
 * lock.h -- UPC locks hosted per thread, with FIFO request queues
 * (the MuPC report §4.4.7).
 */
#ifndef MUPCI_LOCK_H
#define MUPCI_LOCK_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

void mupci_lock_init(void);
void mupci_lock_finalize(void);

#endif
