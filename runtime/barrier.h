/*
 * barrier.h -- tree barrier with split phases and named-barrier checks
 * (the MuPC report §4.4.7).
 */
#ifndef MUPCI_BARRIER_H
#define MUPCI_BARRIER_H

void mupci_barrier_init(int mythread, int threads);

/* The runtime's own barriers (start-up, collective exit): no GASP events. */
void mupci_barrier_internal(const char *what, const char *file, int line);

#endif
