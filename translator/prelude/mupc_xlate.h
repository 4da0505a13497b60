/* SPDX-License-Identifier: MIT */
/* mupc_xlate.h -- the translation-time prelude of mupc-translate.
 *
 * Seen only by the translator's own parse, before any line of the user's:
 * the predefined macros of UPC 1.3, and declarations that let clang type a
 * UPC program.  Its text never reaches the output, which includes the
 * runtime's real headers instead.  The UPC library functions are declared
 * without prototypes, so that any pointer-to-shared (any layout) passes to
 * them; the output's real headers give the true prototypes. */
#ifndef MUPC_XLATE_PRELUDE_H
#define MUPC_XLATE_PRELUDE_H

#define __UPC__ 1
#define __UPC_VERSION__ 201311L
#define UPC_MAX_BLOCK_SIZE 4194304
#ifdef __MUPC_STATIC_THREADS
#define THREADS (__MUPC_STATIC_THREADS)
#define __UPC_STATIC_THREADS__ 1
#else
#define THREADS mupc_threads
#define __UPC_DYNAMIC_THREADS__ 1
#endif
#define MYTHREAD mupc_mythread
#define UPC_MAX_BLOCKSIZE UPC_MAX_BLOCK_SIZE
#define __UPC_COLLECTIVE__ 1
#define __UPC_NB__ 1
#define __UPC_TICK__ 1
#define __UPC_ATOMIC__ 1
#define __UPC_CASTABLE__ 1
#define __UPC_IO__ 1
#define __UPC_PUPC__ 1

#include <stddef.h>
#include <stdint.h>

/* `shared void`, in the translator's first layout (block 1, strictness as
 * the pragmas say): what UPC's library returns. */
#define __MUPC_SHARED __attribute__((address_space(16384)))

extern int mupc_threads, mupc_mythread;

/* the size of a pointer-to-shared, as the runtime has it (mupc_ptr_t):
 * sizeof of one is written sizeof(__mupc_pts_size_t) (rewrite_sizeof.c) */
typedef struct { unsigned long long __mupc_addr; unsigned int __mupc_thread, __mupc_phase; } __mupc_pts_size_t;
typedef __MUPC_SHARED struct __mupc_lock upc_lock_t;
#include <upc_types.h> /* the runtime's own codes: see upc_types.h here */
typedef uint64_t upc_handle_t;
typedef uint64_t upc_tick_t;
typedef __MUPC_SHARED struct __mupc_atomicdomain upc_atomicdomain_t;
typedef int upc_atomichint_t; /* as the runtime's <upc_atomic.h> */
#define UPC_ATOMIC_HINT_DEFAULT 0
#define UPC_ATOMIC_HINT_LATENCY 1
#define UPC_ATOMIC_HINT_THROUGHPUT 2
typedef struct upc_thread_info {
    int guaranteedCastable;
    int probablyCastable;
} upc_thread_info_t;

size_t upc_threadof();
size_t upc_phaseof();
size_t upc_addrfield();
__MUPC_SHARED void *upc_resetphase();
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);

__MUPC_SHARED void *upc_global_alloc(size_t nblocks, size_t nbytes);
__MUPC_SHARED void *upc_all_alloc(size_t nblocks, size_t nbytes);
__MUPC_SHARED void *upc_alloc(size_t nbytes);
/* UPC 1.2's upc_local_alloc (removed in 1.3, still in Berkeley and GCC
 * UPC): upc_alloc(nblocks * nbytes) */
__MUPC_SHARED void *upc_local_alloc(size_t nblocks, size_t nbytes);
/* Berkeley and GCC UPC's upc_poll: let progress happen (a fence) */
void upc_poll(void);
void upc_free();
void upc_all_free();
void upc_global_exit(int status);

void upc_memcpy();
void upc_memget();
void upc_memput();
void upc_memset();

upc_lock_t *upc_global_lock_alloc(void);
upc_lock_t *upc_all_lock_alloc(void);
void upc_lock_free();
void upc_all_lock_free();
void upc_lock();
int upc_lock_attempt();
void upc_unlock();

upc_handle_t upc_memcpy_nb();
upc_handle_t upc_memget_nb();
upc_handle_t upc_memput_nb();
upc_handle_t upc_memset_nb();
void upc_memcpy_nbi();
void upc_memget_nbi();
void upc_memput_nbi();
void upc_memset_nbi();
void upc_sync(upc_handle_t h);
int upc_sync_attempt(upc_handle_t h);
void upc_synci(void);
int upc_synci_attempt(void);
#define UPC_COMPLETE_HANDLE ((upc_handle_t)0)

upc_tick_t upc_ticks_now(void);
uint64_t upc_ticks_to_ns(upc_tick_t ticks);
#define UPC_TICK_MAX UINT64_MAX
#define UPC_TICK_MIN 0

void *upc_cast();
upc_thread_info_t upc_thread_info(size_t thread);
#define UPC_CASTABLE_ALL_ALLOC (1 << 0)
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1)
#define UPC_CASTABLE_ALLOC (1 << 2)
#define UPC_CASTABLE_STATIC (1 << 3)
#define UPC_CASTABLE_ALL (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC | UPC_CASTABLE_STATIC)

upc_atomicdomain_t *upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints);
void upc_all_atomicdomain_free();
void upc_atomic_strict();
void upc_atomic_relaxed();
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, __MUPC_SHARED void *addr);

void upc_all_broadcast();
void upc_all_scatter();
void upc_all_gather();
void upc_all_gather_all();
void upc_all_exchange();
void upc_all_permute();
#define __MUPC_REDUCE(T) void upc_all_reduce##T(); void upc_all_prefix_reduce##T();
__MUPC_REDUCE(C) __MUPC_REDUCE(UC) __MUPC_REDUCE(S) __MUPC_REDUCE(US) __MUPC_REDUCE(I)
__MUPC_REDUCE(UI) __MUPC_REDUCE(L) __MUPC_REDUCE(UL) __MUPC_REDUCE(F) __MUPC_REDUCE(D)
__MUPC_REDUCE(LD)
#undef __MUPC_REDUCE

/* What the prelexer writes for UPC statements (see prelex.h). */
void mupc_barrier(int named, int value, const char *file, int line);
void mupc_notify(int named, int value, const char *file, int line);
void mupc_wait(int named, int value, const char *file, int line);
void mupc_fence(const char *file, int line);
int __mupc_forall_skip();
int __mupc_forall_any(void);

#endif
