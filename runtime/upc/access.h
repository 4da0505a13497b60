/* SPDX-License-Identifier: MIT */
/* access.h -- the shared-access entry points' own start-up (access.c). */
#ifndef MUPCI_ACCESS_H
#define MUPCI_ACCESS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

/* Computation pthread, before the user's main: publish this thread's
 * segment for inline local accesses (mupc_local_* in mupc.h). */
void mupci_access_init_local(void);

#endif
