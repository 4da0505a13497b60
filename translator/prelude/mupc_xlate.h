/* SPDX-License-Identifier: MIT */
/* mupc_xlate.h -- the translation-time prelude of mupc-translate.
 *
 * Seen only by the translator's own parse, before any line of the user's:
 * the predefined macros of UPC 1.3, and declarations that let clang type a
 * UPC program.  Its text never reaches the output, which includes the
 * runtime's real headers instead.
 *
 * The UPC library functions have the specifications' prototypes, each
 * pointer-to-shared parameter `shared void *` (__MUPC_SHARED): clang
 * checks every call, and converts a null pointer constant given to one
 * (upc_free(NULL)) as it converts any.  A typed pointer-to-shared argument
 * is another address space to clang (the translator's layouts are address
 * spaces), so clang reports the conversion and parse.c's diagnose()
 * writes the cast UPC makes implicit, with the other casts of the same
 * parse round: a program that has no other such conversion costs one
 * more libclang parse (about 15 ms of a 230 ms translation here). */
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

size_t upc_threadof(__MUPC_SHARED const void *ptr);
size_t upc_phaseof(__MUPC_SHARED const void *ptr);
size_t upc_addrfield(__MUPC_SHARED const void *ptr);
__MUPC_SHARED void *upc_resetphase(__MUPC_SHARED const void *ptr);
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);

__MUPC_SHARED void *upc_global_alloc(size_t nblocks, size_t nbytes);
__MUPC_SHARED void *upc_all_alloc(size_t nblocks, size_t nbytes);
__MUPC_SHARED void *upc_alloc(size_t nbytes);
/* UPC 1.2's upc_local_alloc (removed in 1.3, still in Berkeley and GCC
 * UPC): upc_alloc(nblocks * nbytes) */
__MUPC_SHARED void *upc_local_alloc(size_t nblocks, size_t nbytes);
/* Berkeley and GCC UPC's upc_poll: let progress happen (a fence) */
void upc_poll(void);
void upc_free(__MUPC_SHARED void *ptr);
void upc_all_free(__MUPC_SHARED void *ptr);
void upc_global_exit(int status);

void upc_memcpy(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
void upc_memget(void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
void upc_memput(__MUPC_SHARED void *restrict dst, const void *restrict src, size_t n);
void upc_memset(__MUPC_SHARED void *dst, int c, size_t n);

upc_lock_t *upc_global_lock_alloc(void);
upc_lock_t *upc_all_lock_alloc(void);
void upc_lock_free(upc_lock_t *ptr);
void upc_all_lock_free(upc_lock_t *ptr);
void upc_lock(upc_lock_t *ptr);
int upc_lock_attempt(upc_lock_t *ptr);
void upc_unlock(upc_lock_t *ptr);

upc_handle_t upc_memcpy_nb(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
upc_handle_t upc_memget_nb(void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
upc_handle_t upc_memput_nb(__MUPC_SHARED void *restrict dst, const void *restrict src, size_t n);
upc_handle_t upc_memset_nb(__MUPC_SHARED void *dst, int c, size_t n);
void upc_memcpy_nbi(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
void upc_memget_nbi(void *restrict dst, __MUPC_SHARED const void *restrict src, size_t n);
void upc_memput_nbi(__MUPC_SHARED void *restrict dst, const void *restrict src, size_t n);
void upc_memset_nbi(__MUPC_SHARED void *dst, int c, size_t n);
void upc_sync(upc_handle_t h);
int upc_sync_attempt(upc_handle_t h);
void upc_synci(void);
int upc_synci_attempt(void);
#define UPC_COMPLETE_HANDLE ((upc_handle_t)0)

upc_tick_t upc_ticks_now(void);
uint64_t upc_ticks_to_ns(upc_tick_t ticks);
#define UPC_TICK_MAX UINT64_MAX
#define UPC_TICK_MIN 0

void *upc_cast(__MUPC_SHARED const void *ptr);
upc_thread_info_t upc_thread_info(size_t thread);
#define UPC_CASTABLE_ALL_ALLOC (1 << 0)
#define UPC_CASTABLE_GLOBAL_ALLOC (1 << 1)
#define UPC_CASTABLE_ALLOC (1 << 2)
#define UPC_CASTABLE_STATIC (1 << 3)
#define UPC_CASTABLE_ALL (UPC_CASTABLE_ALL_ALLOC | UPC_CASTABLE_GLOBAL_ALLOC | UPC_CASTABLE_ALLOC | UPC_CASTABLE_STATIC)

upc_atomicdomain_t *upc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops, upc_atomichint_t hints);
void upc_all_atomicdomain_free(upc_atomicdomain_t *ptr);
void upc_atomic_strict(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                       __MUPC_SHARED void *restrict target, const void *restrict operand1,
                       const void *restrict operand2);
void upc_atomic_relaxed(upc_atomicdomain_t *domain, void *restrict fetch_ptr, upc_op_t op,
                        __MUPC_SHARED void *restrict target, const void *restrict operand1,
                        const void *restrict operand2);
int upc_atomic_isfast(upc_type_t type, upc_op_t ops, __MUPC_SHARED void *addr);

#define __MUPC_RELOCALIZE(name)                                                                \
    void name(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src,        \
              size_t nbytes, upc_flag_t flags);
__MUPC_RELOCALIZE(upc_all_broadcast) __MUPC_RELOCALIZE(upc_all_scatter)
__MUPC_RELOCALIZE(upc_all_gather) __MUPC_RELOCALIZE(upc_all_gather_all)
__MUPC_RELOCALIZE(upc_all_exchange)
#undef __MUPC_RELOCALIZE
void upc_all_permute(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src,
                     __MUPC_SHARED const int *restrict perm, size_t nbytes, upc_flag_t flags);
#define __MUPC_REDUCE(S, T)                                                                    \
    void upc_all_reduce##S(__MUPC_SHARED void *restrict dst, __MUPC_SHARED const void *restrict src, \
                           upc_op_t op, size_t nelems, size_t blk_size, T (*func)(T, T),       \
                           upc_flag_t flags);                                                  \
    void upc_all_prefix_reduce##S(__MUPC_SHARED void *restrict dst,                           \
                                  __MUPC_SHARED const void *restrict src, upc_op_t op,         \
                                  size_t nelems, size_t blk_size, T (*func)(T, T),             \
                                  upc_flag_t flags);
__MUPC_REDUCE(C, signed char) __MUPC_REDUCE(UC, unsigned char) __MUPC_REDUCE(S, signed short)
__MUPC_REDUCE(US, unsigned short) __MUPC_REDUCE(I, signed int) __MUPC_REDUCE(UI, unsigned int)
__MUPC_REDUCE(L, signed long) __MUPC_REDUCE(UL, unsigned long) __MUPC_REDUCE(F, float)
__MUPC_REDUCE(D, double) __MUPC_REDUCE(LD, long double)
#undef __MUPC_REDUCE

/* What the prelexer writes for UPC statements (see prelex.h). */
void mupc_barrier(int named, int value, const char *file, int line);
void mupc_notify(int named, int value, const char *file, int line);
void mupc_wait(int named, int value, const char *file, int line);
void mupc_fence(const char *file, int line);
int __mupc_forall_skip();
int __mupc_forall_any(void);

#endif
