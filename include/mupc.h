/* SPDX-License-Identifier: MIT */
/*
 * mupc.h -- the translator-facing runtime API of libmupc.
 *
 * A UPC-to-C translator turns every shared access into a call declared
 * here; hand-written programs use the thin layer in <mupc_upc.h>, which fills in
 * the caller's file and line.  Every entry point that a GASP tool can see
 * takes (file, line) of the user's source so events name the right place.
 *
 * Memory model, as implemented:
 *  - Gets are synchronous: the value is in place when the call returns.
 *  - Relaxed puts are asynchronous: the call returns once the source value
 *    has been copied; the write is applied at the target later, in issue
 *    order with respect to later accesses from this thread to that target.
 *  - A fence (mupc_fence, any strict access, barrier, notify/wait) waits
 *    until every earlier put from this thread has been applied at its target.
 *  - After mupc_barrier (or mupc_wait) every thread sees every put that any
 *    thread issued before it entered the barrier.
 *  - Accesses to data with local affinity are plain loads and stores.
 */
#ifndef MUPC_H
#define MUPC_H

#include <upc_types.h>

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MUPC_VERSION_STRING "0.1.0"

/* UPC 1.3 feature macros: the optional libraries this runtime provides
 * (upc_collective.h, upc_nb.h, upc_tick.h, upc_atomic.h, upc_castable.h,
 * upc_io.h, pupc.h). */
#define __UPC_COLLECTIVE__ 1
#define __UPC_NB__ 1
#define __UPC_TICK__ 1
#define __UPC_ATOMIC__ 1
#define __UPC_CASTABLE__ 1
#define __UPC_IO__ 1
#define __UPC_PUPC__ 1

/* ---------------------------------------------------------------- */
/* Runtime constants                                                 */
/* ---------------------------------------------------------------- */

/* Set before the user's main runs; never change afterwards. */
extern int mupc_threads; /* THREADS  */
extern int mupc_mythread; /* MYTHREAD */

/* The translated program's entry point is `mupc_user_main`, defined like
 * main (with (void) or (int argc, char **argv)): the runtime owns the
 * process's main(), starts MPI and the two pthreads, and calls it on the
 * computation pthread after an implicit barrier.  Its return value is the
 * thread's exit status (collective exit).  It is not declared here so
 * that both forms of main compile. */

/* ---------------------------------------------------------------- */
/* Pointers-to-shared                                                */
/* ---------------------------------------------------------------- */

/* A pointer-to-shared: the owning thread, the phase within the current
 * block, and the byte offset into the owner's shared segment (offsets, not
 * virtual addresses, so the value means the same on every thread).
 * Offset 0 is never allocated: the all-zero value is the null pointer. */
typedef struct mupc_ptr {
    uint64_t addr;   /* byte offset into the owner's segment */
    uint32_t thread; /* owning thread */
    uint32_t phase;  /* element index within the current block */
} mupc_ptr_t;

#define MUPC_NULL_PTR ((mupc_ptr_t){0, 0, 0})

/* Arithmetic as the UPC spec defines it for a pointer to elements of
 * `elemsize` bytes in an array with block size `blocksize` (0 means the
 * indefinite block size `[]`: everything on one thread). */
mupc_ptr_t mupc_ptr_add(mupc_ptr_t p, ptrdiff_t n, size_t elemsize, size_t blocksize);
/* a - b in elements; both must point into the same shared array, with
 * phases that agree with their positions in it (UPC 1.3 §6.4.2: the
 * difference is undefined otherwise, e.g. after upc_resetphase). */
ptrdiff_t mupc_ptr_diff(mupc_ptr_t a, mupc_ptr_t b, size_t elemsize, size_t blocksize);
/* Element `index` of a shared array whose element 0 is `base` (phase 0). */
mupc_ptr_t mupc_ptr_index(mupc_ptr_t base, size_t index, size_t elemsize, size_t blocksize);
int mupc_ptr_is_null(mupc_ptr_t p);
/* UPC's == on pointers-to-shared (UPC 1.3 §6.4.2): nonzero when both point
 * to the same location (same thread and address), whatever their phases;
 * upc_resetphase(p) equals p.  Compare upc_phaseof as well to tell two
 * such pointers apart. */
int mupc_ptr_equal(mupc_ptr_t a, mupc_ptr_t b);

size_t upc_threadof(mupc_ptr_t p);
size_t upc_phaseof(mupc_ptr_t p);
size_t upc_addrfield(mupc_ptr_t p);
mupc_ptr_t upc_resetphase(mupc_ptr_t p);
/* Bytes of a `totalsize`-byte array with block size `nbytes` (in bytes)
 * that have affinity to thread `threadid`. */
size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid);

/* Address of the object in this process's memory, or NULL when `p` does
 * not have affinity to the calling thread (only its own segment is
 * directly addressable in this implementation). */
void *mupc_local_addr(mupc_ptr_t p);

/* Inline local accesses, for translated code: a relaxed access of n bytes
 * through p with p.thread == mupc_local_thread and p.addr - mupc_local_low
 * <= mupc_local_span - n (unsigned) may be a plain load or store at
 * mupc_local_base + p.addr: exactly what mupc_get_<T>/mupc_put_<T> would
 * do, without the call.  mupc_local_thread is MYTHREAD, or UINT32_MAX (no
 * thread) when every access must go through the runtime: a GASP tool
 * asked for events on local data, or `checks = bounds` is on.  Set before
 * the user's main runs; never change afterwards. */
extern char *mupc_local_base;
extern uint64_t mupc_local_low, mupc_local_span;
extern uint32_t mupc_local_thread;
/* n / THREADS without a division, for THREADS > 1: (n * mupc_threads_magic)
 * >> 64 (a 128-bit product), exact for n < 2^32 and off by at most one
 * above. */
extern uint64_t mupc_threads_magic;
/* The same for any thread of this node: mupc_thread_base[t] is thread t's
 * segment as mapped in this process, so a relaxed access of n bytes
 * through p with p.thread < THREADS, mupc_thread_base[p.thread] != NULL
 * and p.addr - mupc_local_low <= mupc_local_span - n (every segment has
 * the same size) may be a plain load or store at
 * mupc_thread_base[p.thread] + p.addr.  NULL for a thread of another node
 * (or every other thread with shm = off), for every other thread when a
 * GASP tool is linked (its events on shared data must be raised) and for
 * every thread, this one included, when mupc_local_thread is UINT32_MAX.
 * Set before the user's main runs; never changes afterwards. */
extern char **mupc_thread_base;

/* ---------------------------------------------------------------- */
/* Static shared objects                                             */
/* ---------------------------------------------------------------- */

/* One statically declared shared object.  The translator (or the
 * MUPC_SHARED_ARRAY macro of <mupc_upc.h>) defines one of these per object and
 * registers it from a constructor, i.e. before main.  Every process runs the
 * same executable, so registration order -- and thus every object's offset
 * -- is the same on all threads.  After start-up `base` points to element 0
 * (thread 0, phase 0). */
typedef struct mupc_static {
    const char *name;          /* for error messages */
    size_t elemsize;           /* bytes per element */
    size_t blocksize;          /* elements per block; 0 = indefinite */
    size_t nelems;             /* elements (per thread when per_thread is set) */
    int per_thread;            /* nonzero for UPC's `T a[N*THREADS]`: N*THREADS elements */
    mupc_ptr_t base;           /* filled in at start-up */
    struct mupc_static *next;  /* runtime's registration list */
} mupc_static_t;

void mupc_static_register(mupc_static_t *obj);
/* An initializer of static shared data (`shared int x = 5;`), registered
 * from a constructor: every thread runs each one, in registration order,
 * before the user's main and its implicit barrier; it writes the elements
 * with affinity to the calling thread (through mupc_local_addr). */
void mupc_static_init(void (*init)(void));
/* A translation unit compiled for a fixed THREADS (mupcc -T N) says so
 * from a constructor; start-up then refuses a job of any other size. */
void mupc_static_threads(int threads, const char *file);
/* A program that calls MPI itself says so before main (from a
 * constructor; mupc-translate does for a UPC source that includes
 * <mpi.h>): libmupc then starts MPI with MPI_THREAD_MULTIPLE, and the
 * program's MPI_Init, MPI_Init_thread and MPI_Finalize leave MPI to
 * libmupc.  MPI_COMM_WORLD has rank MYTHREAD. */
void mupc_mpi_hybrid(void);

/* ---------------------------------------------------------------- */
/* Shared accesses                                                   */
/* ---------------------------------------------------------------- */

#define MUPC_RELAXED 0
#define MUPC_STRICT 1

/* Every C scalar type has a typed get and put:
 *   T    mupc_get_<name>(mupc_ptr_t src, int strict, const char *file, int line);
 *   void mupc_put_<name>(mupc_ptr_t dst, T value, int strict, const char *file, int line);
 * GASP: GASP_UPC_GET / GASP_UPC_PUT start and end, with is_relaxed, the
 * private address, the pointer-to-shared (by address) and sizeof(T).
 * A strict access is preceded by a fence; a strict put is also complete at
 * its target when the call returns.
 *
 * Bounds checking (`checks = bounds` in mupc.conf, MUPC_CHECKS=bounds): every
 * access of this section and of the atomics is checked against the object it
 * falls in, a static shared array or a heap block; one outside every live
 * object, or crossing an object's end, stops the job with `file:line`, the
 * object and its extent.  Each static object is then followed by a gap of
 * one element, and each heap block by at least one spare byte, so the
 * element just past an end is caught.  Off (the default), it costs one
 * predictable branch per access. */
#define MUPC_SCALAR_TYPES(X)                                                   \
    X(char, char)                                                              \
    X(schar, signed char)                                                      \
    X(uchar, unsigned char)                                                    \
    X(short, short)                                                            \
    X(ushort, unsigned short)                                                  \
    X(int, int)                                                                \
    X(uint, unsigned int)                                                      \
    X(long, long)                                                              \
    X(ulong, unsigned long)                                                    \
    X(llong, long long)                                                        \
    X(ullong, unsigned long long)                                              \
    X(float, float)                                                            \
    X(double, double)                                                          \
    X(ldouble, long double)                                                    \
    X(pts, mupc_ptr_t)

#define MUPC_DECLARE_SCALAR_ACCESS(name, type)                                 \
    type mupc_get_##name(mupc_ptr_t src, int strict, const char *file, int line); \
    void mupc_put_##name(mupc_ptr_t dst, type value, int strict, const char *file, \
                         int line);
MUPC_SCALAR_TYPES(MUPC_DECLARE_SCALAR_ACCESS)
#undef MUPC_DECLARE_SCALAR_ACCESS

/* Non-scalar objects (structs, unions) as raw bytes; same events and
 * semantics as the scalar calls.  The bytes must lie within one thread's
 * segment. */
void mupc_get_block(void *dst, mupc_ptr_t src, size_t n, int strict, const char *file,
                    int line);
void mupc_put_block(mupc_ptr_t dst, const void *src, size_t n, int strict,
                    const char *file, int line);

/* upc_memcpy/memget/memput/memset: relaxed bulk transfers, synchronous on
 * the private side (the private buffer may be reused on return).  The
 * shared range must lie within one thread's segment (UPC's rule).
 * GASP_UPC_MEMCPY/MEMGET/MEMPUT/MEMSET start and end. */
void mupc_memcpy(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file, int line);
void mupc_memget(void *dst, mupc_ptr_t src, size_t n, const char *file, int line);
void mupc_memput(mupc_ptr_t dst, const void *src, size_t n, const char *file, int line);
void mupc_memset(mupc_ptr_t dst, int c, size_t n, const char *file, int line);

/* Non-blocking get/put.  The transfer progresses in the background (the
 * communication pthread keeps serving it) until mupc_sync; until then the
 * private buffer must not be touched.  mupc_sync returns when the data is
 * in place (get) or applied at the target (put); mupc_sync_attempt returns
 * 1 in that case and 0 (without waiting) otherwise.  A handle is synced
 * exactly once.  MUPC_HANDLE_TRIVIAL means "already complete".
 * GASP: GASP_UPC_NB_GET_INIT / NB_PUT_INIT start/end, GASP_UPC_NB_SYNC
 * (for mupc_sync_attempt only when it finds the transfer complete; each
 * attempt is a GASP_MUPC_NB_SYNC_ATTEMPT, see gasp_upc.h). */
typedef uint64_t mupc_handle_t;
#define MUPC_HANDLE_TRIVIAL ((mupc_handle_t)0)

mupc_handle_t mupc_get_nb(void *dst, mupc_ptr_t src, size_t n, const char *file, int line);
mupc_handle_t mupc_put_nb(mupc_ptr_t dst, const void *src, size_t n, const char *file,
                          int line);
void mupc_sync(mupc_handle_t h, const char *file, int line);
int mupc_sync_attempt(mupc_handle_t h, const char *file, int line);

/* The rest of UPC 1.3 <upc_nb.h>.  upc_memget_nb and upc_memput_nb are
 * mupc_get_nb and mupc_put_nb.  mupc_memcpy_nb with one side local to the
 * caller is a non-blocking get or put of the local bytes (same events); a
 * copy between two other threads is done before it returns (GASP_UPC_
 * NB_PUT_INIT with src NULL, handle MUPC_HANDLE_TRIVIAL).  mupc_memset_nb
 * completes at the target in the background (GASP_UPC_NB_PUT_INIT with
 * src NULL, its end carrying the handle).
 * Implicit-handle (_nbi) transfers are completed together by mupc_synci;
 * mupc_synci_attempt returns 1 once all of them are complete, else 0. */
mupc_handle_t mupc_memcpy_nb(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file,
                             int line);
mupc_handle_t mupc_memset_nb(mupc_ptr_t dst, int c, size_t n, const char *file, int line);
void mupc_memcpy_nbi(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file, int line);
void mupc_memget_nbi(void *dst, mupc_ptr_t src, size_t n, const char *file, int line);
void mupc_memput_nbi(mupc_ptr_t dst, const void *src, size_t n, const char *file, int line);
void mupc_memset_nbi(mupc_ptr_t dst, int c, size_t n, const char *file, int line);
void mupc_synci(const char *file, int line);
int mupc_synci_attempt(const char *file, int line);

/* ---------------------------------------------------------------- */
/* Synchronization                                                   */
/* ---------------------------------------------------------------- */

/* upc_fence: every earlier put of this thread is applied at its target. */
void mupc_fence(const char *file, int line);

/* upc_barrier / upc_notify / upc_wait.  `named` is nonzero when the
 * statement has an expression, `value` its value.  Named values must agree
 * across threads (anonymous ones match anything); a mismatch stops the job
 * with both values and the threads that passed them.  notify/wait must
 * alternate; a barrier between them is an error. */
void mupc_barrier(int named, int value, const char *file, int line);
void mupc_notify(int named, int value, const char *file, int line);
void mupc_wait(int named, int value, const char *file, int line);

/* ---------------------------------------------------------------- */
/* Dynamic shared memory                                             */
/* ---------------------------------------------------------------- */

/* upc_global_alloc (any thread) and upc_all_alloc (collective: every
 * thread gets the same pointer) allocate `nblocks` blocks of `nbytes`
 * bytes, dealt round robin over the threads (`shared [nbytes] char
 * [nblocks*nbytes]`), at the same offset on every thread.  upc_alloc
 * allocates `nbytes` with affinity to the caller (indefinite block size).
 * A size of zero gives the null pointer-to-shared.  Running out of heap
 * is not reported by a null pointer: it stops the job with the size asked,
 * what both heaps use and the mupc.conf key to raise (segment_size; the
 * symmetric heap grows up and the local heaps down in the same segment,
 * meeting anywhere; local_heap_percent can cap upc_alloc's share).
 * upc_free accepts only a pointer an allocation returned (or null), from
 * any thread; upc_all_free is its collective form.  A double free, or a
 * pointer that was never allocated, stops the job naming file and line.
 * upc_all_alloc and upc_all_free also synchronize: no thread returns
 * before every thread has called them.
 * GASP: GASP_UPC_GLOBAL_ALLOC / ALL_ALLOC / ALLOC / FREE. */
mupc_ptr_t mupc_global_alloc(size_t nblocks, size_t nbytes, const char *file, int line);
mupc_ptr_t mupc_all_alloc(size_t nblocks, size_t nbytes, const char *file, int line);
mupc_ptr_t mupc_alloc(size_t nbytes, const char *file, int line);
void mupc_free(mupc_ptr_t p, const char *file, int line);
void mupc_all_free(mupc_ptr_t p, const char *file, int line);

/* Heap figures, in bytes.  The symmetric heap is tracked on thread 0
 * only (zeros elsewhere); the local heap is the caller's. */
typedef struct mupc_heap_info {
    size_t symmetric_bytes, symmetric_free, symmetric_largest_free, symmetric_blocks;
    size_t local_bytes, local_free, local_largest_free, local_blocks;
} mupc_heap_info_t;
void mupc_heap_info(mupc_heap_info_t *info);

/* ---------------------------------------------------------------- */
/* Locks                                                             */
/* ---------------------------------------------------------------- */

/* A lock handle (UPC's `upc_lock_t *`): an opaque pointer-to-shared value
 * naming the lock's host thread and its slot there.  Store it in shared
 * memory with mupc_put_pts and use it from any thread.
 * upc_global_lock_alloc hosts the lock on the caller; upc_all_lock_alloc
 * (collective, same handle everywhere) on thread 0.  The host queues
 * requests in arrival order, so every waiter gets the lock eventually.
 * mupc_lock_attempt never waits: 1 if acquired, 0 if not.  Acquire and
 * release are consistency points: a release waits until every remote
 * write of the critical section has been acknowledged by its target.
 * Freeing succeeds whether the lock is unlocked or held by any thread
 * (UPC 1.3); upc_all_lock_free frees it once every thread has called it.
 * Errors that stop the job: locking a lock the thread already holds,
 * unlocking one it does not hold, using a freed one (a release by its
 * holder after the free, or waiting for it when it is freed, included).
 * GASP: GASP_UPC_GLOBAL_LOCK_ALLOC, ALL_LOCK_ALLOC, LOCK_FREE, LOCK,
 * LOCK_ATTEMPT, UNLOCK. */
typedef mupc_ptr_t mupc_lock_t;

mupc_lock_t mupc_global_lock_alloc(const char *file, int line);
mupc_lock_t mupc_all_lock_alloc(const char *file, int line);
void mupc_lock_free(mupc_lock_t lock, const char *file, int line);
void mupc_all_lock_free(mupc_lock_t lock, const char *file, int line);
void mupc_lock(mupc_lock_t lock, const char *file, int line);
int mupc_lock_attempt(mupc_lock_t lock, const char *file, int line);
void mupc_unlock(mupc_lock_t lock, const char *file, int line);
/* For diagnosis, on the lock's host: requests waiting in its queue (-1 when
 * the caller does not host `lock` or it is not a live lock). */
int mupc_lock_waiters(mupc_lock_t lock);

/* ---------------------------------------------------------------- */
/* Atomics (MuPC-style; UPC 1.3 <upc_atomic.h> is built on the same    */
/* path).  Performed at the thread the target has affinity to, one at  */
/* a time with every other atomic operation there; relaxed (no fence). */
/* ---------------------------------------------------------------- */

/* Compare and swap: if *p == expected, *p = desired.  Returns the old
 * value (the swap happened iff it equals `expected`).  Fetch-and-add
 * returns the old value.  Names as in MUPC_SCALAR_TYPES. */
#define MUPC_ATOMIC_INT_TYPES(X)                                               \
    X(int, int)                                                                \
    X(uint, unsigned int)                                                      \
    X(long, long)                                                              \
    X(ulong, unsigned long)                                                    \
    X(llong, long long)                                                        \
    X(ullong, unsigned long long)

#define MUPC_DECLARE_ATOMIC(name, type)                                        \
    type mupc_cswap_##name(mupc_ptr_t p, type expected, type desired, const char *file, \
                           int line);                                          \
    type mupc_fetch_add_##name(mupc_ptr_t p, type addend, const char *file, int line);
MUPC_ATOMIC_INT_TYPES(MUPC_DECLARE_ATOMIC)
#undef MUPC_DECLARE_ATOMIC

/* The remote reference cache's counters and shape, and the segment size:
 * <mupc_ext.h>, which UPC programs may include too. */
#include <mupc_ext.h>

/* ---------------------------------------------------------------- */
/* Collectives (UPC 1.2 <upc_collective.h>; collectives/coll*.c)          */
/* ---------------------------------------------------------------- */

/* Every thread calls each collective with the same arguments, in the same
 * order.  Shared arrays are described as in the UPC specification; a
 * "block on thread t" is the part of the array with affinity to t.
 *  broadcast   src: nbytes on one thread       -> dst: shared [nbytes] char[nbytes*THREADS]
 *  scatter     src: shared [] char[nbytes*THREADS] on one thread, block t -> dst block on t
 *  gather      src: block on each thread t     -> dst: shared [] char[nbytes*THREADS], block t
 *  gather_all  as gather, into every thread's block of shared [nbytes*THREADS] char[...]
 *  exchange    block j of thread i's src (shared [nbytes*THREADS] char[...]) -> block i on j
 *  permute     thread i's src block -> dst block on thread perm[i] (perm: shared int[THREADS],
 *              a permutation of 0..THREADS-1, checked)
 * Each thread reads only its own src blocks and writes only its own dst
 * blocks, and only between entering and leaving the call; data travels
 * between the threads as messages over binomial trees (log2 THREADS
 * steps; exchange sends directly).  So UPC_IN_MYSYNC / UPC_OUT_MYSYNC
 * (and NOSYNC) cost nothing; UPC_IN_ALLSYNC and UPC_OUT_ALLSYNC (the
 * defaults) add a barrier at entry and at exit.
 * GASP: GASP_UPC_ALL_<NAME> start and end (the GASP 1.4 specification, Table 10). */
void mupc_all_broadcast(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                        const char *file, int line);
void mupc_all_scatter(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                      const char *file, int line);
void mupc_all_gather(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                     const char *file, int line);
void mupc_all_gather_all(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                         const char *file, int line);
void mupc_all_exchange(mupc_ptr_t dst, mupc_ptr_t src, size_t nbytes, upc_flag_t flags,
                       const char *file, int line);
void mupc_all_permute(mupc_ptr_t dst, mupc_ptr_t src, mupc_ptr_t perm, size_t nbytes,
                      upc_flag_t flags, const char *file, int line);

/* upc_all_reduceT: *dst = op over the nelems elements of src, a
 * `shared [blk_size] T[nelems]` array starting at src (any thread and
 * phase; blk_size 0 = indefinite).  upc_all_prefix_reduceT: dst[i] = op
 * over src[0..i]; dst must start at the same thread and phase as src.
 * op is one of UPC_ADD, UPC_MULT, UPC_AND, UPC_OR, UPC_XOR (integer types),
 * UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, or UPC_FUNC / UPC_NONCOMM_FUNC
 * with `func`.  Every thread combines its own elements first; partial
 * results meet over a binomial tree.  UPC_NONCOMM_FUNC is applied strictly
 * in element order; the other operations in any order.
 * T suffixes: C (signed char), UC, S, US, I, UI, L, UL, F, D, LD.
 * GASP: GASP_UPC_ALL_REDUCE / ALL_PREFIX_REDUCE with gasp_upc_reduction_t. */
/* Suffix and C type, in the order of gasp_upc_reduction_t. */
#define MUPC_REDUCE_TYPES(X)                                                   \
    X(C, signed char)                                                          \
    X(UC, unsigned char)                                                       \
    X(S, short)                                                                \
    X(US, unsigned short)                                                      \
    X(I, int)                                                                  \
    X(UI, unsigned int)                                                        \
    X(L, long)                                                                 \
    X(UL, unsigned long)                                                       \
    X(F, float)                                                                \
    X(D, double)                                                               \
    X(LD, long double)

#define MUPC_DECLARE_REDUCE(suffix, type)                                      \
    void mupc_all_reduce##suffix(mupc_ptr_t dst, mupc_ptr_t src, upc_op_t op, size_t nelems, \
                                 size_t blk_size, type (*func)(type, type), upc_flag_t flags, \
                                 const char *file, int line);                  \
    void mupc_all_prefix_reduce##suffix(mupc_ptr_t dst, mupc_ptr_t src, upc_op_t op,     \
                                        size_t nelems, size_t blk_size,         \
                                        type (*func)(type, type), upc_flag_t flags, \
                                        const char *file, int line);
MUPC_REDUCE_TYPES(MUPC_DECLARE_REDUCE)
#undef MUPC_DECLARE_REDUCE

/* ---------------------------------------------------------------- */
/* Exit                                                              */
/* ---------------------------------------------------------------- */

/* upc_global_exit: ends every thread promptly; the job's exit status is
 * `status`.  Non-collective; GASP_UPC_NONCOLLECTIVE_EXIT. */
void mupc_global_exit(int status, const char *file, int line) __attribute__((noreturn));

/* ---------------------------------------------------------------- */
/* Events only a compiler sees (GASP_UPC_FORALL, GASP_C_FUNC,         */
/* GASP_C_MALLOC/REALLOC/FREE; GASP 1.4 specification Tables 1, 2, 5) */
/* ---------------------------------------------------------------- */

/* A translator calls these around each upc_forall, at each user
 * function's entry and exit, and in place of malloc/realloc/free;
 * hand-written code gets them from mupc_upc.h (MUPC_FORALL, MUPC_FUNC_START/END,
 * MUPC_TRACK_MALLOC).  Without mupcc --profile* they only do the work. */
void mupc_forall_start(const char *file, int line);
void mupc_forall_end(const char *file, int line);
void mupc_func_start(const char *funcsig, const char *file, int line);
void mupc_func_end(const char *funcsig, const char *file, int line);
void *mupc_c_malloc(size_t nbytes, const char *file, int line);
void *mupc_c_realloc(void *ptr, size_t size, const char *file, int line);
void mupc_c_free(void *ptr, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif /* MUPC_H */
