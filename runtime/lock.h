/*
 * lock.h -- UPC locks hosted per thread, with FIFO request queues
 * (seed 004 §4.4.7, DESIGN.md §6).
 */
#ifndef MUPCI_LOCK_H
#define MUPCI_LOCK_H

void mupci_lock_init(void);
void mupci_lock_finalize(void);

#endif
