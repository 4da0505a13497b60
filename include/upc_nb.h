/* SPDX-License-Identifier: MIT */
/*
 * upc_nb.h -- UPC 1.3 non-blocking transfers for hand-written programs
 * (the thin layer over mupc.h; see mupc_get_nb and mupc_memcpy_nb there
 * for the semantics).  Handles are values: `upc_handle_t h =
 * upc_memget_nb(buf, p, n); ... upc_sync(h);`.
 */
#ifndef MUPC_UPC_NB_H
#define MUPC_UPC_NB_H

#include <mupc_upc.h>

typedef mupc_handle_t upc_handle_t;
#define UPC_COMPLETE_HANDLE MUPC_HANDLE_TRIVIAL

#define upc_memcpy_nb(dst, src, n) mupc_memcpy_nb((dst), (src), (n), __FILE__, __LINE__)
#define upc_memget_nb(dst, src, n) mupc_get_nb((dst), (src), (n), __FILE__, __LINE__)
#define upc_memput_nb(dst, src, n) mupc_put_nb((dst), (src), (n), __FILE__, __LINE__)
#define upc_memset_nb(dst, c, n) mupc_memset_nb((dst), (c), (n), __FILE__, __LINE__)
#define upc_sync(h) mupc_sync((h), __FILE__, __LINE__)
#define upc_sync_attempt(h) mupc_sync_attempt((h), __FILE__, __LINE__)

#define upc_memcpy_nbi(dst, src, n) mupc_memcpy_nbi((dst), (src), (n), __FILE__, __LINE__)
#define upc_memget_nbi(dst, src, n) mupc_memget_nbi((dst), (src), (n), __FILE__, __LINE__)
#define upc_memput_nbi(dst, src, n) mupc_memput_nbi((dst), (src), (n), __FILE__, __LINE__)
#define upc_memset_nbi(dst, c, n) mupc_memset_nbi((dst), (c), (n), __FILE__, __LINE__)
#define upc_synci() mupc_synci(__FILE__, __LINE__)
#define upc_synci_attempt() mupc_synci_attempt(__FILE__, __LINE__)

#endif
