/* SPDX-License-Identifier: MIT */
/* <bupc_extensions.h> at translation time (see mupc_xlate.h): the Berkeley
 * UPC extensions libmupc provides, declared so that clang can type a
 * program (a pointer-to-shared parameter is shared void *, see
 * mupc_xlate.h).  The output includes the runtime's
 * real <bupc_extensions.h> where the program includes this one (main.c),
 * and that gives the true definitions. */
#include "mupc_xlate.h"
#ifndef MUPC_XLATE_BUPC_EXTENSIONS_H
#define MUPC_XLATE_BUPC_EXTENSIONS_H

#define MUPC_BUPC_EXTENSIONS 1

typedef uint64_t bupc_tick_t;
#define BUPC_TICK_MAX ((bupc_tick_t)UINT64_MAX)
#define BUPC_TICK_MIN ((bupc_tick_t)0)
bupc_tick_t bupc_ticks_now(void);
uint64_t bupc_ticks_to_us(bupc_tick_t ticks);
uint64_t bupc_ticks_to_ns(bupc_tick_t ticks);
double bupc_tick_granularityus(void);
double bupc_tick_overheadus(void);

#define BUPC_THREADS_SAME 0
#define BUPC_THREADS_VERYNEAR 100
#define BUPC_THREADS_NEAR 200
#define BUPC_THREADS_FAR 300
#define BUPC_THREADS_VERYFAR 400
unsigned int bupc_thread_distance(int x, int y);

void bupc_poll(void);
char *bupc_getenv(const char *name);

__MUPC_SHARED void *bupc_local_to_shared(void *ptr, int thread, int phase);
__MUPC_SHARED void *bupc_inverse_cast(const void *ptr);
__MUPC_SHARED void *bupc_ptradd(__MUPC_SHARED void *p, size_t blockelems, size_t elemsz,
                                ptrdiff_t elemincr);
void *bupc_cast(__MUPC_SHARED const void *p);
int bupc_castable(__MUPC_SHARED const void *p);
int bupc_thread_castable(unsigned int thread);
#define BUPC_DUMP_MIN_LENGTH 100
int bupc_dump_shared(__MUPC_SHARED const void *p, char *buf, int maxlen);

typedef struct mupc_bupc_handle *bupc_handle_t;
#define BUPC_COMPLETE_HANDLE ((bupc_handle_t)0)
bupc_handle_t bupc_memcpy_async(__MUPC_SHARED void *dst, __MUPC_SHARED const void *src, size_t n);
bupc_handle_t bupc_memget_async(void *dst, __MUPC_SHARED const void *src, size_t n);
bupc_handle_t bupc_memput_async(__MUPC_SHARED void *dst, const void *src, size_t n);
bupc_handle_t bupc_memset_async(__MUPC_SHARED void *dst, int c, size_t n);
void bupc_waitsync(bupc_handle_t h);
int bupc_trysync(bupc_handle_t h);
void bupc_waitsync_all(bupc_handle_t *ph, size_t n);
int bupc_trysync_all(bupc_handle_t *ph, size_t n);
void bupc_waitsync_some(bupc_handle_t *ph, size_t n);
int bupc_trysync_some(bupc_handle_t *ph, size_t n);
void bupc_memcpy_asynci(__MUPC_SHARED void *dst, __MUPC_SHARED const void *src, size_t n);
void bupc_memget_asynci(void *dst, __MUPC_SHARED const void *src, size_t n);
void bupc_memput_asynci(__MUPC_SHARED void *dst, const void *src, size_t n);
void bupc_memset_asynci(__MUPC_SHARED void *dst, int c, size_t n);
void bupc_waitsynci(void);
int bupc_trysynci(void);

#define __MUPC_BUPC_ATOMIC2(T, C, S)                                                       \
    T bupc_atomic##C##_read_##S(__MUPC_SHARED void *ptr);                                 \
    void bupc_atomic##C##_set_##S(__MUPC_SHARED void *ptr, T val);                         \
    T bupc_atomic##C##_swap_##S(__MUPC_SHARED void *ptr, T val);                           \
    T bupc_atomic##C##_cswap_##S(__MUPC_SHARED void *ptr, T oldval, T newval);             \
    T bupc_atomic##C##_fetchadd_##S(__MUPC_SHARED void *ptr, T op);                        \
    T bupc_atomic##C##_fetchand_##S(__MUPC_SHARED void *ptr, T op);                        \
    T bupc_atomic##C##_fetchor_##S(__MUPC_SHARED void *ptr, T op);                         \
    T bupc_atomic##C##_fetchxor_##S(__MUPC_SHARED void *ptr, T op);                        \
    T bupc_atomic##C##_fetchnot_##S(__MUPC_SHARED void *ptr);
#define __MUPC_BUPC_ATOMIC(T, C) __MUPC_BUPC_ATOMIC2(T, C, relaxed) __MUPC_BUPC_ATOMIC2(T, C, strict)
__MUPC_BUPC_ATOMIC(int, I)
__MUPC_BUPC_ATOMIC(unsigned int, UI)
__MUPC_BUPC_ATOMIC(long, L)
__MUPC_BUPC_ATOMIC(unsigned long, UL)
__MUPC_BUPC_ATOMIC(int32_t, I32)
__MUPC_BUPC_ATOMIC(uint32_t, U32)
__MUPC_BUPC_ATOMIC(int64_t, I64)
__MUPC_BUPC_ATOMIC(uint64_t, U64)
#undef __MUPC_BUPC_ATOMIC
#undef __MUPC_BUPC_ATOMIC2

void bupc_exit(int status) __attribute__((noreturn));
/* GASNet trace and statistics masks: accepted, no effect */
void bupc_trace_setmask(const char *newmask);
const char *bupc_trace_getmask(void);
void bupc_trace_settracelocal(int val);
int bupc_trace_gettracelocal(void);
void bupc_stats_setmask(const char *newmask);
const char *bupc_stats_getmask(void);
void bupc_stats_settracelocal(int val);
int bupc_stats_gettracelocal(void);
#define bupc_trace_printf(parenthesized_args) ((void)0)

#endif
