/* SPDX-License-Identifier: MIT */
/*
 * gasp_upc.h -- the UPC events libmupc raises (the GASP 1.4 specification §5.4-5.5).
 *
 * Only supported events are defined here (the spec requires it), so a tool
 * can use `#ifdef GASP_UPC_LOCK` to learn what this runtime reports.
 * Identifiers are in the system range 0x00000000-0x5FFFFFFF; user events
 * from pupc_create_event are in GASP_UPC_USEREVT_START..END.
 *
 * Varargs per event, in order (START and END alike unless noted):
 *   GASP_UPC_COLLECTIVE_EXIT     int status                      (start, end)
 *   GASP_UPC_NONCOLLECTIVE_EXIT  int status                      (atomic)
 *   GASP_UPC_NOTIFY, _WAIT, _BARRIER   int named, int expr
 *   GASP_UPC_FENCE               (none)
 *   GASP_UPC_FORALL              (none)     (marked by the translator)
 *   GASP_C_FUNC                  const char *funcsig   (marked by the translator)
 *   GASP_C_MALLOC     START size_t nbytes; END size_t nbytes, void *returnptr
 *   GASP_C_REALLOC    START void *ptr, size_t size; END adds void *returnptr
 *   GASP_C_FREE       void *ptr
 *   (the last four and FORALL come from mupc_forall_start/end, mupc_func_start/end
 *   and mupc_c_malloc/realloc/free in <mupc.h>, which a translator or upc.h's
 *   MUPC_FORALL, MUPC_FUNC_START/END and MUPC_TRACK_MALLOC call)
 *   GASP_UPC_MEMCPY   gasp_upc_PTS_t *dst, gasp_upc_PTS_t *src, size_t n
 *   GASP_UPC_MEMGET   void *dst, gasp_upc_PTS_t *src, size_t n
 *   GASP_UPC_MEMPUT   gasp_upc_PTS_t *dst, void *src, size_t n
 *   GASP_UPC_MEMSET   gasp_upc_PTS_t *dst, int c, size_t n
 *   GASP_UPC_GET      int is_relaxed, void *dst, gasp_upc_PTS_t *src, size_t n
 *   GASP_UPC_PUT      int is_relaxed, gasp_upc_PTS_t *dst, void *src, size_t n
 *   GASP_UPC_NB_GET_INIT  as GET; END adds gasp_upc_nb_handle_t handle
 *   GASP_UPC_NB_PUT_INIT  as PUT; END adds gasp_upc_nb_handle_t handle
 *   GASP_UPC_NB_SYNC      gasp_upc_nb_handle_t handle
 *   (every non-blocking call of <upc_nb.h>, _nbi included, raises one INIT
 *   pair whose END carries the handle it returns, is_relaxed 1: memget_nb
 *   a GET; memput_nb a PUT; memcpy_nb a GET into the local destination
 *   or a PUT from the local source, and a copy it completes at once (both
 *   sides local, or both on other threads) a PUT with src NULL and handle
 *   GASP_NB_TRIVIAL; memset_nb a PUT with src NULL, n bytes of c.  Every
 *   handle in a SYNC came from an INIT.  upc_sync and the upc_sync_attempt
 *   that finds the transfer complete raise the SYNC pair; an attempt that
 *   finds it unfinished raises none, see GASP_MUPC_NB_SYNC_ATTEMPT.)
 *   GASP_UPC_GLOBAL_ALLOC, _ALL_ALLOC  size_t nblocks, size_t nbytes;
 *                         END adds gasp_upc_PTS_t *newshrd_ptr
 *   GASP_UPC_ALLOC        size_t nbytes; END adds gasp_upc_PTS_t *newshrd_ptr
 *   GASP_UPC_FREE         gasp_upc_PTS_t *shrd_ptr (also for upc_all_free)
 *   GASP_UPC_GLOBAL_LOCK_ALLOC, _ALL_LOCK_ALLOC   START none; END gasp_upc_lock_t *lck
 *   GASP_UPC_LOCK_FREE, _LOCK, _UNLOCK  gasp_upc_lock_t *lck
 *   GASP_UPC_LOCK_ATTEMPT  gasp_upc_lock_t *lck; END adds int result
 *   GASP_UPC_CACHE_MISS    size_t n, size_t n_lines (atomic; n_lines = bytes fetched)
 *   GASP_UPC_CACHE_HIT     size_t n (atomic)
 *   GASP_UPC_CACHE_INVALIDATE  size_t n_dirty (atomic)
 *   GASP_UPC_ALL_BROADCAST, _SCATTER, _GATHER, _GATHER_ALL, _EXCHANGE
 *       gasp_upc_PTS_t *dst, gasp_upc_PTS_t *src, size_t nbytes, int upc_flags
 *   GASP_UPC_ALL_PERMUTE   gasp_upc_PTS_t *dst, gasp_upc_PTS_t *src,
 *                          gasp_upc_PTS_t *perm, size_t nbytes, int upc_flags
 *   GASP_UPC_ALL_REDUCE, _ALL_PREFIX_REDUCE  gasp_upc_PTS_t *dst,
 *       gasp_upc_PTS_t *src, int upc_op, size_t nelems, size_t blk_size,
 *       void *func, int upc_flags, gasp_upc_reduction_t type
 *
 * Implementation-specific events (range 0x60000000-0xBFFFFFFF):
 *   GASP_MUPC_ATOMIC  gasp_upc_PTS_t *target, int upc_op, int upc_type, int is_relaxed
 *       one upc_atomic_strict/relaxed, mupc_cswap_T or mupc_fetch_add_T call
 *       (the GASP 1.4 specification has none); upc_op and upc_type are upc_types.h codes
 *   GASP_MUPC_NB_SYNC_ATTEMPT  START gasp_upc_nb_handle_t handle; END adds
 *       int result: one upc_sync_attempt / upc_synci_attempt test of a
 *       non-trivial handle; result 1 means complete, and the GASP_UPC_NB_SYNC
 *       pair of that handle came just before this END
 *
 * A gasp_upc_PTS_t * points at a mupc_ptr_t (see <mupc.h>) valid for the
 * duration of the callback.  Accesses to data with local affinity are
 * reported only when the program was built with `mupcc --profile-local`.
 */
#ifndef GASP_UPC_H
#define GASP_UPC_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Incremented when implementation-specific events are added. */
#define GASP_UPC_VERSION 3

/* Opaque to tools (the GASP 1.4 specification §5.4): pointer-to-shared and upc_lock_t. */
typedef void gasp_upc_PTS_t;
typedef void gasp_upc_pts_t;
typedef void gasp_upc_lock_t;

/* Handle of a non-blocking access; GASP_NB_TRIVIAL marks one that
 * completed inside its INIT interval (the tool ignores its SYNC). */
typedef uint64_t gasp_upc_nb_handle_t;
#define GASP_NB_TRIVIAL ((gasp_upc_nb_handle_t)0)

typedef enum {
    GASP_UPC_REDUCTION_C,
    GASP_UPC_REDUCTION_UC,
    GASP_UPC_REDUCTION_S,
    GASP_UPC_REDUCTION_US,
    GASP_UPC_REDUCTION_I,
    GASP_UPC_REDUCTION_UI,
    GASP_UPC_REDUCTION_L,
    GASP_UPC_REDUCTION_UL,
    GASP_UPC_REDUCTION_F,
    GASP_UPC_REDUCTION_D,
    GASP_UPC_REDUCTION_LD
} gasp_upc_reduction_t;

/* User events (pupc_create_event) are numbered in this range. */
#define GASP_UPC_USEREVT_START 0xC0000000u
#define GASP_UPC_USEREVT_END 0xFFFFFFFFu

/* The supported system events, as 32-bit identifiers (macros, so that
 * `#ifdef` tells a tool what this runtime reports).  Numbers are stable. */
#define GASP_UPC_COLLECTIVE_EXIT     0x00100001u
#define GASP_UPC_NONCOLLECTIVE_EXIT  0x00100002u
#define GASP_UPC_NOTIFY              0x00100010u
#define GASP_UPC_WAIT                0x00100011u
#define GASP_UPC_BARRIER             0x00100012u
#define GASP_UPC_FENCE               0x00100013u
#define GASP_UPC_FORALL              0x00100014u
#define GASP_C_FUNC                  0x00100020u
#define GASP_C_MALLOC                0x00100021u
#define GASP_C_REALLOC               0x00100022u
#define GASP_C_FREE                  0x00100023u
#define GASP_UPC_MEMCPY              0x00100040u
#define GASP_UPC_MEMGET              0x00100041u
#define GASP_UPC_MEMPUT              0x00100042u
#define GASP_UPC_MEMSET              0x00100043u
#define GASP_UPC_GET                 0x00100050u
#define GASP_UPC_PUT                 0x00100051u
#define GASP_UPC_NB_GET_INIT         0x00100060u
#define GASP_UPC_NB_PUT_INIT         0x00100062u
#define GASP_UPC_NB_SYNC             0x00100064u
#define GASP_UPC_GLOBAL_ALLOC        0x00100070u
#define GASP_UPC_ALL_ALLOC           0x00100071u
#define GASP_UPC_ALLOC               0x00100072u
#define GASP_UPC_FREE                0x00100073u
#define GASP_UPC_GLOBAL_LOCK_ALLOC   0x00100080u
#define GASP_UPC_ALL_LOCK_ALLOC      0x00100081u
#define GASP_UPC_LOCK_FREE           0x00100082u
#define GASP_UPC_LOCK                0x00100083u
#define GASP_UPC_LOCK_ATTEMPT        0x00100084u
#define GASP_UPC_UNLOCK              0x00100085u
#define GASP_UPC_CACHE_MISS          0x00100090u
#define GASP_UPC_CACHE_HIT           0x00100091u
#define GASP_UPC_CACHE_INVALIDATE    0x00100092u
#define GASP_UPC_ALL_BROADCAST       0x001000A0u
#define GASP_UPC_ALL_SCATTER         0x001000A1u
#define GASP_UPC_ALL_GATHER          0x001000A2u
#define GASP_UPC_ALL_GATHER_ALL      0x001000A3u
#define GASP_UPC_ALL_EXCHANGE        0x001000A4u
#define GASP_UPC_ALL_PERMUTE         0x001000A5u
#define GASP_UPC_ALL_REDUCE          0x001000A6u
#define GASP_UPC_ALL_PREFIX_REDUCE   0x001000A7u

/* Implementation-specific (GASP_UPC_VERSION 2 added it). */
#define GASP_MUPC_ATOMIC             0x60000001u /* an atomic operation (upc_atomic.h, mupc.h) */
/* GASP_UPC_VERSION 3 added it. */
#define GASP_MUPC_NB_SYNC_ATTEMPT    0x60000002u /* one upc_sync_attempt, with its result */

/* The same list as an X-macro, for tables of names. */
#define MUPC_GASP_UPC_EVENTS(X) \
    X(GASP_UPC_COLLECTIVE_EXIT) \
    X(GASP_UPC_NONCOLLECTIVE_EXIT) \
    X(GASP_UPC_NOTIFY) \
    X(GASP_UPC_WAIT) \
    X(GASP_UPC_BARRIER) \
    X(GASP_UPC_FENCE) \
    X(GASP_UPC_FORALL) \
    X(GASP_C_FUNC) \
    X(GASP_C_MALLOC) \
    X(GASP_C_REALLOC) \
    X(GASP_C_FREE) \
    X(GASP_UPC_MEMCPY) \
    X(GASP_UPC_MEMGET) \
    X(GASP_UPC_MEMPUT) \
    X(GASP_UPC_MEMSET) \
    X(GASP_UPC_GET) \
    X(GASP_UPC_PUT) \
    X(GASP_UPC_NB_GET_INIT) \
    X(GASP_UPC_NB_PUT_INIT) \
    X(GASP_UPC_NB_SYNC) \
    X(GASP_UPC_GLOBAL_ALLOC) \
    X(GASP_UPC_ALL_ALLOC) \
    X(GASP_UPC_ALLOC) \
    X(GASP_UPC_FREE) \
    X(GASP_UPC_GLOBAL_LOCK_ALLOC) \
    X(GASP_UPC_ALL_LOCK_ALLOC) \
    X(GASP_UPC_LOCK_FREE) \
    X(GASP_UPC_LOCK) \
    X(GASP_UPC_LOCK_ATTEMPT) \
    X(GASP_UPC_UNLOCK) \
    X(GASP_UPC_CACHE_MISS) \
    X(GASP_UPC_CACHE_HIT) \
    X(GASP_UPC_CACHE_INVALIDATE) \
    X(GASP_UPC_ALL_BROADCAST) \
    X(GASP_UPC_ALL_SCATTER) \
    X(GASP_UPC_ALL_GATHER) \
    X(GASP_UPC_ALL_GATHER_ALL) \
    X(GASP_UPC_ALL_EXCHANGE) \
    X(GASP_UPC_ALL_PERMUTE) \
    X(GASP_UPC_ALL_REDUCE) \
    X(GASP_UPC_ALL_PREFIX_REDUCE) \
    X(GASP_MUPC_ATOMIC) \
    X(GASP_MUPC_NB_SYNC_ATTEMPT)

/* The symbolic name of an event ("GASP_UPC_GET"), or NULL if it is not an
 * event this runtime raises (user events included).  A libmupc extension
 * for tools. */
const char *mupc_gasp_event_name(unsigned int evttag);

/* The bytes of shared (or, for the C events, private) data an event moves,
 * allocates or hits, decoded from its varargs (START, END or ATOMIC alike):
 * n for accesses and mem*, nbytes for data-movement collectives,
 * nelems x element size for reductions, nblocks x nbytes for allocations,
 * the bytes fetched for a cache miss.  0 for events without a size.  The
 * caller's `varargs` is not consumed (va_copy inside).  A libmupc extension. */
size_t mupc_gasp_event_bytes(unsigned int evttag, va_list varargs);

/* Collective upcall for a tool's results (a libmupc extension): every
 * thread passes its `nbytes` bytes at `mine`; thread 0 gets back a malloc'd
 * buffer holding every thread's bytes in thread order, and sizes[t] = the
 * count from thread t (`sizes` has THREADS entries; read on thread 0 only).
 * Other threads get NULL.  Meant for a tool's GASP_UPC_COLLECTIVE_EXIT
 * START callback, where every thread is present; it raises no events and
 * moves the bytes through the shared heap in 64 KiB rounds, so any size
 * fits.  Every thread must call it the same number of times. */
void *mupc_gasp_gather(const void *mine, size_t nbytes, size_t *sizes);

#ifdef __cplusplus
}
#endif

#endif
