/* SPDX-License-Identifier: MIT */
/*
 * pts.h -- pointer-to-shared arithmetic as pure functions of THREADS, so
 * the unit tests can check them without MPI.  include/mupc.h's public
 * functions are thin wrappers that pass the runtime's THREADS.
 */
#ifndef MUPCI_PTS_H
#define MUPCI_PTS_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include "mupc.h"

mupc_ptr_t mupci_pts_add(mupc_ptr_t p, ptrdiff_t n, size_t elemsize, size_t blocksize,
                         int threads);
ptrdiff_t mupci_pts_diff(mupc_ptr_t a, mupc_ptr_t b, size_t elemsize, size_t blocksize,
                         int threads);
size_t mupci_pts_affinitysize(size_t totalsize, size_t nbytes, size_t threadid, int threads);

/* Bytes each thread must reserve for a shared array of `nelems` elements
 * (the largest share any thread gets; the same offset on every thread). */
size_t mupci_pts_local_bytes(size_t nelems, size_t elemsize, size_t blocksize, int threads);

#endif
