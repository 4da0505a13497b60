/* SPDX-License-Identifier: MIT */
/* <mupc_upc.h> in a UPC program, at translation time.  The real header is
 * libmupc's macro layer for C written by hand (MUPC_GET, upc_barrier() as
 * a call, shared arrays declared by macro); in a UPC program those names
 * clash with the language's own, and the translation used to fail on a
 * type of the runtime's ("unknown type name 'mupc_lock_t'") that said
 * nothing of the cause.  Say what to include instead. */
#error "<mupc_upc.h> is libmupc's macro layer for C written by hand, not for UPC source: a UPC program gets UPC's names from <upc.h> (or <upc_relaxed.h>, <upc_strict.h>) and libmupc's extensions from <mupc.h>; include those instead"
