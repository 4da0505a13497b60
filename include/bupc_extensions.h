/* SPDX-License-Identifier: MIT */
/*
 * bupc_extensions.h -- the Berkeley UPC extensions that public UPC
 * programs use, as libmupc provides them (doc/extensions.md lists what is
 * provided and what is not).  Names, arguments and meaning follow the
 * Berkeley UPC User's Guide; libmupc is not Berkeley UPC and defines none
 * of its __BERKELEY_UPC_* macros.  MUPC_BUPC_EXTENSIONS tells a program
 * this header is present.
 *
 * In translated UPC (mupcc) pointers-to-shared are passed as they are;
 * in C written by hand against <mupc_upc.h> they are mupc_ptr_t values.
 * Anything of the Berkeley header left out here is not declared, so a
 * program that uses it fails to compile.
 */
#ifndef MUPC_BUPC_EXTENSIONS_H
#define MUPC_BUPC_EXTENSIONS_H

#include <mupc_upc.h>
#include <upc_atomic.h>
#include <upc_castable.h>
#include <upc_nb.h>
#include <upc_tick.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUPC_BUPC_EXTENSIONS 1

/* ---- timers: upc_tick.h's ticks (nanoseconds) ---- */
typedef upc_tick_t bupc_tick_t;
#define BUPC_TICK_MAX ((bupc_tick_t)UINT64_MAX)
#define BUPC_TICK_MIN ((bupc_tick_t)0)
#define bupc_ticks_now() upc_ticks_now()
#define bupc_ticks_to_ns(ticks) upc_ticks_to_ns(ticks)
#define bupc_ticks_to_us(ticks) (upc_ticks_to_ns(ticks) / 1000u)
/* the clock's resolution, and the measured cost of one reading (the
 * timer of <pupc.h>, the same clock) */
double pupc_tick_granularityus(void);
double pupc_tick_overheadus(void);
#define bupc_tick_granularityus() pupc_tick_granularityus()
#define bupc_tick_overheadus() pupc_tick_overheadus()

/* ---- job layout ---- */
/* SAME: one thread; VERYNEAR: another thread of its node, whose memory
 * it maps (shm); NEAR: another thread of its node reached by messages;
 * VERYFAR: a thread of another node (mupc_node_of, pretend nodes too). */
#define BUPC_THREADS_SAME 0
#define BUPC_THREADS_VERYNEAR 100
#define BUPC_THREADS_NEAR 200
#define BUPC_THREADS_FAR 300
#define BUPC_THREADS_VERYFAR 400
unsigned int mupc_bupc_thread_distance(int x, int y, const char *file, int line);
#define bupc_thread_distance(x, y) mupc_bupc_thread_distance((x), (y), __FILE__, __LINE__)

/* ---- progress: a fence (earlier puts applied, cached remote data
 * dropped), so that a loop polling a relaxed flag sees it change ---- */
#define bupc_poll() mupc_fence(__FILE__, __LINE__)

#define bupc_getenv(name) getenv(name)

/* ---- pointers-to-shared ---- */
/* A pointer into this thread's shared segment as a pointer-to-shared
 * with the given thread and phase (the same offset on that thread). */
mupc_ptr_t mupc_bupc_local_to_shared(void *ptr, int thread, int phase, const char *file,
                                     int line);
#define bupc_local_to_shared(ptr, thread, phase) \
    mupc_bupc_local_to_shared((ptr), (thread), (phase), __FILE__, __LINE__)
/* The inverse of upc_cast: the pointer-to-shared (phase 0) of an address
 * in a segment this thread maps, or the null pointer-to-shared. */
mupc_ptr_t mupc_bupc_inverse_cast(const void *ptr);
#define bupc_inverse_cast(ptr) mupc_bupc_inverse_cast(ptr)
/* p + elemincr for elements of elemsz bytes in blocks of blockelems
 * (0: indefinite), a block size known only at run time. */
#define bupc_ptradd(p, blockelems, elemsz, elemincr) \
    mupc_ptr_add((p), (ptrdiff_t)(elemincr), (size_t)(elemsz), (size_t)(blockelems))
#define bupc_cast(p) upc_cast(p)
#define bupc_castable(p) mupc_bupc_castable(p)
static inline int mupc_bupc_castable(mupc_ptr_t p)
{
    return mupc_ptr_is_null(p) || upc_cast(p) != NULL;
}
#define bupc_thread_castable(thread) (upc_thread_info(thread).guaranteedCastable != 0)

/* "<thread T, phase P, offset 0xA>"; -1 with errno EINVAL when maxlen is
 * below BUPC_DUMP_MIN_LENGTH. */
#define BUPC_DUMP_MIN_LENGTH 100
static inline int mupc_bupc_dump_shared(mupc_ptr_t p, char *buf, int maxlen)
{
    if (!buf || maxlen < BUPC_DUMP_MIN_LENGTH) {
        errno = EINVAL;
        return -1;
    }
    snprintf(buf, (size_t)maxlen, "<thread %u, phase %u, offset 0x%llx>%s", p.thread, p.phase,
             (unsigned long long)p.addr, mupc_ptr_is_null(p) ? " (null)" : "");
    return 0;
}
#define bupc_dump_shared(p, buf, maxlen) mupc_bupc_dump_shared((p), (buf), (maxlen))

/* ---- non-blocking transfers: upc_nb.h's, with Berkeley's names ---- */
/* A handle is a pointer type, as in Berkeley UPC (the runtime's handle
 * number in it); BUPC_COMPLETE_HANDLE is the null one. */
typedef struct mupc_bupc_handle *bupc_handle_t;
#define BUPC_COMPLETE_HANDLE ((bupc_handle_t)0)
_Static_assert(sizeof(bupc_handle_t) >= sizeof(mupc_handle_t), "a handle fits a pointer");
#define MUPC_BUPC_HANDLE(h) ((bupc_handle_t)(uintptr_t)(h))
#define MUPC_NB_HANDLE(h) ((mupc_handle_t)(uintptr_t)(h))

#define bupc_memcpy_async(dst, src, n) \
    MUPC_BUPC_HANDLE(mupc_memcpy_nb((dst), (src), (n), __FILE__, __LINE__))
#define bupc_memget_async(dst, src, n) \
    MUPC_BUPC_HANDLE(mupc_get_nb((dst), (src), (n), __FILE__, __LINE__))
#define bupc_memput_async(dst, src, n) \
    MUPC_BUPC_HANDLE(mupc_put_nb((dst), (src), (n), __FILE__, __LINE__))
#define bupc_memset_async(dst, c, n) \
    MUPC_BUPC_HANDLE(mupc_memset_nb((dst), (c), (n), __FILE__, __LINE__))
#define bupc_waitsync(h) mupc_sync(MUPC_NB_HANDLE(h), __FILE__, __LINE__)
#define bupc_trysync(h) mupc_sync_attempt(MUPC_NB_HANDLE(h), __FILE__, __LINE__)

/* On arrays of handles: each complete one becomes BUPC_COMPLETE_HANDLE.
 * _all: every one (trysync_all returns 1 when all are complete);
 * _some: at least one, unless all were already BUPC_COMPLETE_HANDLE
 * (trysync_some returns 1 when it completed at least one). */
static inline int mupc_bupc_try_each(bupc_handle_t *ph, size_t n, const char *file, int line)
{
    int done = 0;
    for (size_t i = 0; i < n; i++)
        if (ph[i] != BUPC_COMPLETE_HANDLE && mupc_sync_attempt(MUPC_NB_HANDLE(ph[i]), file, line)) {
            ph[i] = BUPC_COMPLETE_HANDLE;
            done++;
        }
    return done;
}
static inline int mupc_bupc_pending(const bupc_handle_t *ph, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += ph[i] != BUPC_COMPLETE_HANDLE;
    return (int)k;
}
static inline void mupc_bupc_waitsync_all(bupc_handle_t *ph, size_t n, const char *file, int line)
{
    for (size_t i = 0; i < n; i++) {
        mupc_sync(MUPC_NB_HANDLE(ph[i]), file, line);
        ph[i] = BUPC_COMPLETE_HANDLE;
    }
}
static inline int mupc_bupc_trysync_all(bupc_handle_t *ph, size_t n, const char *file, int line)
{
    mupc_bupc_try_each(ph, n, file, line);
    return mupc_bupc_pending(ph, n) == 0;
}
static inline void mupc_bupc_waitsync_some(bupc_handle_t *ph, size_t n, const char *file, int line)
{
    if (mupc_bupc_pending(ph, n) == 0)
        return;
    while (mupc_bupc_try_each(ph, n, file, line) == 0)
        ;
}
static inline int mupc_bupc_trysync_some(bupc_handle_t *ph, size_t n, const char *file, int line)
{
    return mupc_bupc_try_each(ph, n, file, line) > 0;
}
#define bupc_waitsync_all(ph, n) mupc_bupc_waitsync_all((ph), (n), __FILE__, __LINE__)
#define bupc_trysync_all(ph, n) mupc_bupc_trysync_all((ph), (n), __FILE__, __LINE__)
#define bupc_waitsync_some(ph, n) mupc_bupc_waitsync_some((ph), (n), __FILE__, __LINE__)
#define bupc_trysync_some(ph, n) mupc_bupc_trysync_some((ph), (n), __FILE__, __LINE__)

/* implicit handles */
#define bupc_memcpy_asynci(dst, src, n) mupc_memcpy_nbi((dst), (src), (n), __FILE__, __LINE__)
#define bupc_memget_asynci(dst, src, n) mupc_memget_nbi((dst), (src), (n), __FILE__, __LINE__)
#define bupc_memput_asynci(dst, src, n) mupc_memput_nbi((dst), (src), (n), __FILE__, __LINE__)
#define bupc_memset_asynci(dst, c, n) mupc_memset_nbi((dst), (c), (n), __FILE__, __LINE__)
#define bupc_waitsynci() mupc_synci(__FILE__, __LINE__)
#define bupc_trysynci() mupc_synci_attempt(__FILE__, __LINE__)

/* ---- atomics: bupc_atomic<CODE>_<op>_<relaxed|strict> ----
 * read, set, swap, cswap (returns the old value; swapped iff it equals
 * oldval), fetchadd, fetchand, fetchor, fetchxor, fetchnot (~x); each
 * returns the value before the operation (set returns nothing).  Carried
 * out like upc_atomic_relaxed/strict (<upc_atomic.h>), so all of them
 * are atomic with respect to each other and to UPC 1.3 atomics on the
 * same object.  CODE and type: I int, UI unsigned int, L long,
 * UL unsigned long, I32 int32_t, U32 uint32_t, I64 int64_t, U64 uint64_t. */
#define MUPC_BUPC_ATOMIC_TYPES(X)                                                          \
    X(int, I, UPC_INT)                                                                     \
    X(unsigned int, UI, UPC_UINT)                                                          \
    X(long, L, UPC_LONG)                                                                   \
    X(unsigned long, UL, UPC_ULONG)                                                        \
    X(int32_t, I32, UPC_INT32)                                                             \
    X(uint32_t, U32, UPC_UINT32)                                                           \
    X(int64_t, I64, UPC_INT64)                                                             \
    X(uint64_t, U64, UPC_UINT64)

#define MUPC_BUPC_FETCHOP(T, C, U, name, op)                                               \
    static inline T mupc_bupc_atomic##C##_##name(mupc_ptr_t p, T v, int strict,            \
                                                  const char *file, int line)              \
    {                                                                                      \
        T old;                                                                             \
        mupc_atomic_op(U, op, p, &v, NULL, &old, strict, file, line);                      \
        return old;                                                                        \
    }
#define MUPC_BUPC_ATOMIC_DEFINE(T, C, U)                                                   \
    static inline T mupc_bupc_atomic##C##_read(mupc_ptr_t p, int strict, const char *file, \
                                               int line)                                   \
    {                                                                                      \
        T old;                                                                             \
        mupc_atomic_op(U, UPC_GET, p, NULL, NULL, &old, strict, file, line);               \
        return old;                                                                        \
    }                                                                                      \
    static inline void mupc_bupc_atomic##C##_set(mupc_ptr_t p, T v, int strict,            \
                                                 const char *file, int line)               \
    {                                                                                      \
        mupc_atomic_op(U, UPC_SET, p, &v, NULL, NULL, strict, file, line);                 \
    }                                                                                      \
    static inline T mupc_bupc_atomic##C##_cswap(mupc_ptr_t p, T oldval, T newval,          \
                                                int strict, const char *file, int line)    \
    {                                                                                      \
        T old;                                                                             \
        mupc_atomic_op(U, UPC_CSWAP, p, &oldval, &newval, &old, strict, file, line);       \
        return old;                                                                        \
    }                                                                                      \
    static inline T mupc_bupc_atomic##C##_fetchnot(mupc_ptr_t p, int strict,               \
                                                   const char *file, int line)             \
    {                                                                                      \
        T ones = (T) ~(T)0, old;                                                           \
        mupc_atomic_op(U, UPC_XOR, p, &ones, NULL, &old, strict, file, line);              \
        return old;                                                                        \
    }                                                                                      \
    MUPC_BUPC_FETCHOP(T, C, U, swap, UPC_SET)                                              \
    MUPC_BUPC_FETCHOP(T, C, U, fetchadd, UPC_ADD)                                          \
    MUPC_BUPC_FETCHOP(T, C, U, fetchand, UPC_AND)                                          \
    MUPC_BUPC_FETCHOP(T, C, U, fetchor, UPC_OR)                                            \
    MUPC_BUPC_FETCHOP(T, C, U, fetchxor, UPC_XOR)
MUPC_BUPC_ATOMIC_TYPES(MUPC_BUPC_ATOMIC_DEFINE)
#undef MUPC_BUPC_ATOMIC_DEFINE
#undef MUPC_BUPC_FETCHOP

/* The names, relaxed (0) and strict (1); generated from the list above. */
#define bupc_atomicI_read_relaxed(p) mupc_bupc_atomicI_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicI_set_relaxed(p, v) mupc_bupc_atomicI_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_swap_relaxed(p, v) mupc_bupc_atomicI_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_cswap_relaxed(p, o, n) mupc_bupc_atomicI_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicI_fetchadd_relaxed(p, v) mupc_bupc_atomicI_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_fetchand_relaxed(p, v) mupc_bupc_atomicI_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_fetchor_relaxed(p, v) mupc_bupc_atomicI_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_fetchxor_relaxed(p, v) mupc_bupc_atomicI_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI_fetchnot_relaxed(p) mupc_bupc_atomicI_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicI_read_strict(p) mupc_bupc_atomicI_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicI_set_strict(p, v) mupc_bupc_atomicI_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_swap_strict(p, v) mupc_bupc_atomicI_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_cswap_strict(p, o, n) mupc_bupc_atomicI_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicI_fetchadd_strict(p, v) mupc_bupc_atomicI_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_fetchand_strict(p, v) mupc_bupc_atomicI_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_fetchor_strict(p, v) mupc_bupc_atomicI_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_fetchxor_strict(p, v) mupc_bupc_atomicI_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI_fetchnot_strict(p) mupc_bupc_atomicI_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicUI_read_relaxed(p) mupc_bupc_atomicUI_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicUI_set_relaxed(p, v) mupc_bupc_atomicUI_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_swap_relaxed(p, v) mupc_bupc_atomicUI_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_cswap_relaxed(p, o, n) mupc_bupc_atomicUI_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicUI_fetchadd_relaxed(p, v) mupc_bupc_atomicUI_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_fetchand_relaxed(p, v) mupc_bupc_atomicUI_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_fetchor_relaxed(p, v) mupc_bupc_atomicUI_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_fetchxor_relaxed(p, v) mupc_bupc_atomicUI_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUI_fetchnot_relaxed(p) mupc_bupc_atomicUI_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicUI_read_strict(p) mupc_bupc_atomicUI_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicUI_set_strict(p, v) mupc_bupc_atomicUI_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_swap_strict(p, v) mupc_bupc_atomicUI_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_cswap_strict(p, o, n) mupc_bupc_atomicUI_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicUI_fetchadd_strict(p, v) mupc_bupc_atomicUI_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_fetchand_strict(p, v) mupc_bupc_atomicUI_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_fetchor_strict(p, v) mupc_bupc_atomicUI_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_fetchxor_strict(p, v) mupc_bupc_atomicUI_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUI_fetchnot_strict(p) mupc_bupc_atomicUI_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicL_read_relaxed(p) mupc_bupc_atomicL_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicL_set_relaxed(p, v) mupc_bupc_atomicL_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_swap_relaxed(p, v) mupc_bupc_atomicL_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_cswap_relaxed(p, o, n) mupc_bupc_atomicL_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicL_fetchadd_relaxed(p, v) mupc_bupc_atomicL_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_fetchand_relaxed(p, v) mupc_bupc_atomicL_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_fetchor_relaxed(p, v) mupc_bupc_atomicL_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_fetchxor_relaxed(p, v) mupc_bupc_atomicL_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicL_fetchnot_relaxed(p) mupc_bupc_atomicL_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicL_read_strict(p) mupc_bupc_atomicL_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicL_set_strict(p, v) mupc_bupc_atomicL_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_swap_strict(p, v) mupc_bupc_atomicL_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_cswap_strict(p, o, n) mupc_bupc_atomicL_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicL_fetchadd_strict(p, v) mupc_bupc_atomicL_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_fetchand_strict(p, v) mupc_bupc_atomicL_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_fetchor_strict(p, v) mupc_bupc_atomicL_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_fetchxor_strict(p, v) mupc_bupc_atomicL_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicL_fetchnot_strict(p) mupc_bupc_atomicL_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicUL_read_relaxed(p) mupc_bupc_atomicUL_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicUL_set_relaxed(p, v) mupc_bupc_atomicUL_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_swap_relaxed(p, v) mupc_bupc_atomicUL_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_cswap_relaxed(p, o, n) mupc_bupc_atomicUL_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicUL_fetchadd_relaxed(p, v) mupc_bupc_atomicUL_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_fetchand_relaxed(p, v) mupc_bupc_atomicUL_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_fetchor_relaxed(p, v) mupc_bupc_atomicUL_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_fetchxor_relaxed(p, v) mupc_bupc_atomicUL_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicUL_fetchnot_relaxed(p) mupc_bupc_atomicUL_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicUL_read_strict(p) mupc_bupc_atomicUL_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicUL_set_strict(p, v) mupc_bupc_atomicUL_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_swap_strict(p, v) mupc_bupc_atomicUL_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_cswap_strict(p, o, n) mupc_bupc_atomicUL_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicUL_fetchadd_strict(p, v) mupc_bupc_atomicUL_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_fetchand_strict(p, v) mupc_bupc_atomicUL_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_fetchor_strict(p, v) mupc_bupc_atomicUL_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_fetchxor_strict(p, v) mupc_bupc_atomicUL_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicUL_fetchnot_strict(p) mupc_bupc_atomicUL_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicI32_read_relaxed(p) mupc_bupc_atomicI32_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicI32_set_relaxed(p, v) mupc_bupc_atomicI32_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_swap_relaxed(p, v) mupc_bupc_atomicI32_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_cswap_relaxed(p, o, n) mupc_bupc_atomicI32_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicI32_fetchadd_relaxed(p, v) mupc_bupc_atomicI32_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_fetchand_relaxed(p, v) mupc_bupc_atomicI32_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_fetchor_relaxed(p, v) mupc_bupc_atomicI32_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_fetchxor_relaxed(p, v) mupc_bupc_atomicI32_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI32_fetchnot_relaxed(p) mupc_bupc_atomicI32_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicI32_read_strict(p) mupc_bupc_atomicI32_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicI32_set_strict(p, v) mupc_bupc_atomicI32_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_swap_strict(p, v) mupc_bupc_atomicI32_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_cswap_strict(p, o, n) mupc_bupc_atomicI32_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicI32_fetchadd_strict(p, v) mupc_bupc_atomicI32_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_fetchand_strict(p, v) mupc_bupc_atomicI32_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_fetchor_strict(p, v) mupc_bupc_atomicI32_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_fetchxor_strict(p, v) mupc_bupc_atomicI32_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI32_fetchnot_strict(p) mupc_bupc_atomicI32_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicU32_read_relaxed(p) mupc_bupc_atomicU32_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicU32_set_relaxed(p, v) mupc_bupc_atomicU32_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_swap_relaxed(p, v) mupc_bupc_atomicU32_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_cswap_relaxed(p, o, n) mupc_bupc_atomicU32_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicU32_fetchadd_relaxed(p, v) mupc_bupc_atomicU32_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_fetchand_relaxed(p, v) mupc_bupc_atomicU32_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_fetchor_relaxed(p, v) mupc_bupc_atomicU32_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_fetchxor_relaxed(p, v) mupc_bupc_atomicU32_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU32_fetchnot_relaxed(p) mupc_bupc_atomicU32_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicU32_read_strict(p) mupc_bupc_atomicU32_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicU32_set_strict(p, v) mupc_bupc_atomicU32_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_swap_strict(p, v) mupc_bupc_atomicU32_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_cswap_strict(p, o, n) mupc_bupc_atomicU32_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicU32_fetchadd_strict(p, v) mupc_bupc_atomicU32_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_fetchand_strict(p, v) mupc_bupc_atomicU32_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_fetchor_strict(p, v) mupc_bupc_atomicU32_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_fetchxor_strict(p, v) mupc_bupc_atomicU32_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU32_fetchnot_strict(p) mupc_bupc_atomicU32_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicI64_read_relaxed(p) mupc_bupc_atomicI64_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicI64_set_relaxed(p, v) mupc_bupc_atomicI64_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_swap_relaxed(p, v) mupc_bupc_atomicI64_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_cswap_relaxed(p, o, n) mupc_bupc_atomicI64_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicI64_fetchadd_relaxed(p, v) mupc_bupc_atomicI64_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_fetchand_relaxed(p, v) mupc_bupc_atomicI64_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_fetchor_relaxed(p, v) mupc_bupc_atomicI64_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_fetchxor_relaxed(p, v) mupc_bupc_atomicI64_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicI64_fetchnot_relaxed(p) mupc_bupc_atomicI64_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicI64_read_strict(p) mupc_bupc_atomicI64_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicI64_set_strict(p, v) mupc_bupc_atomicI64_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_swap_strict(p, v) mupc_bupc_atomicI64_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_cswap_strict(p, o, n) mupc_bupc_atomicI64_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicI64_fetchadd_strict(p, v) mupc_bupc_atomicI64_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_fetchand_strict(p, v) mupc_bupc_atomicI64_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_fetchor_strict(p, v) mupc_bupc_atomicI64_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_fetchxor_strict(p, v) mupc_bupc_atomicI64_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicI64_fetchnot_strict(p) mupc_bupc_atomicI64_fetchnot((p), 1, __FILE__, __LINE__)
#define bupc_atomicU64_read_relaxed(p) mupc_bupc_atomicU64_read((p), 0, __FILE__, __LINE__)
#define bupc_atomicU64_set_relaxed(p, v) mupc_bupc_atomicU64_set((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_swap_relaxed(p, v) mupc_bupc_atomicU64_swap((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_cswap_relaxed(p, o, n) mupc_bupc_atomicU64_cswap((p), (o), (n), 0, __FILE__, __LINE__)
#define bupc_atomicU64_fetchadd_relaxed(p, v) mupc_bupc_atomicU64_fetchadd((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_fetchand_relaxed(p, v) mupc_bupc_atomicU64_fetchand((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_fetchor_relaxed(p, v) mupc_bupc_atomicU64_fetchor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_fetchxor_relaxed(p, v) mupc_bupc_atomicU64_fetchxor((p), (v), 0, __FILE__, __LINE__)
#define bupc_atomicU64_fetchnot_relaxed(p) mupc_bupc_atomicU64_fetchnot((p), 0, __FILE__, __LINE__)
#define bupc_atomicU64_read_strict(p) mupc_bupc_atomicU64_read((p), 1, __FILE__, __LINE__)
#define bupc_atomicU64_set_strict(p, v) mupc_bupc_atomicU64_set((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_swap_strict(p, v) mupc_bupc_atomicU64_swap((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_cswap_strict(p, o, n) mupc_bupc_atomicU64_cswap((p), (o), (n), 1, __FILE__, __LINE__)
#define bupc_atomicU64_fetchadd_strict(p, v) mupc_bupc_atomicU64_fetchadd((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_fetchand_strict(p, v) mupc_bupc_atomicU64_fetchand((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_fetchor_strict(p, v) mupc_bupc_atomicU64_fetchor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_fetchxor_strict(p, v) mupc_bupc_atomicU64_fetchxor((p), (v), 1, __FILE__, __LINE__)
#define bupc_atomicU64_fetchnot_strict(p) mupc_bupc_atomicU64_fetchnot((p), 1, __FILE__, __LINE__)

/* ---- GASNet trace and statistics masks: accepted and ignored, as in a
 * Berkeley UPC build without tracing (its default); libmupc traces
 * through GASP (mupcc --profile --tool gasp-trace) ---- */
#define bupc_trace_setmask(newmask) ((void)(newmask))
#define bupc_trace_getmask() ""
#define bupc_trace_settracelocal(val) ((void)(val))
#define bupc_trace_gettracelocal() 0
#define bupc_stats_setmask(newmask) ((void)(newmask))
#define bupc_stats_getmask() ""
#define bupc_stats_settracelocal(val) ((void)(val))
#define bupc_stats_gettracelocal() 0
#define bupc_trace_printf(parenthesized_args) ((void)0)

#ifdef __cplusplus
}
#endif

#endif
