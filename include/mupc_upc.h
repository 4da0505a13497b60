/* SPDX-License-Identifier: MIT */
/*
 * mupc_upc.h -- a thin macro layer for C written by hand against libmupc
 * (UPC programs use <upc.h>, the standard header that mupcc's translator
 * provides; this one is for C source compiled by mupcc or mpicc).  It
 * supplies UPC's names, fills in __FILE__/__LINE__ for every runtime call,
 * and declares static shared arrays.  Translated code uses it too, for the
 * library calls it leaves by name (upc_memget and the like).
 *
 *   #include <mupc_upc.h>
 *   MUPC_SHARED_ARRAY(counts, int, 4, 1, MUPC_PER_THREAD);  // shared int counts[4*THREADS]
 *   int main(int argc, char **argv) {
 *       MUPC_PUT(int, MUPC_ELEM(counts, MYTHREAD), 42);
 *       upc_barrier();
 *       int v = MUPC_GET(int, MUPC_ELEM(counts, (MYTHREAD + 1) % THREADS));
 *       ...
 *   }
 */
#ifndef MUPC_UPC_H
#define MUPC_UPC_H

#include <mupc.h>

#define THREADS mupc_threads
#define MYTHREAD mupc_mythread

/* The runtime owns the process's main(): the program's main becomes
 * mupc_user_main.  Define MUPC_NO_MAIN_RENAME in files that must not. */
#ifndef MUPC_NO_MAIN_RENAME
#define main mupc_user_main
/* main is exempt from -Wmissing-prototypes; keep the renamed one exempt. */
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#endif

/* ---- statically declared shared arrays ---- */

#define MUPC_TOTAL 0      /* nelems is the array's total size */
#define MUPC_PER_THREAD 1 /* nelems is per thread: `T name[nelems*THREADS]` */

/* Defines shared array `name` of `nelems` elements of `type` with block
 * size `blocksize` (0 = indefinite, all on thread 0), registered before
 * main on every thread in the same order, so it has the same offset
 * everywhere.  Use at file scope. */
#define MUPC_SHARED_ARRAY(name, type, nelems, blocksize, scale)                         \
    static mupc_static_t name##_mupc_desc = {#name, sizeof(type), (blocksize), (nelems),  \
                                            (scale), {0, 0, 0}, 0};                      \
    __attribute__((constructor)) static void name##_mupc_register(void)                 \
    {                                                                                   \
        mupc_static_register(&name##_mupc_desc);                                        \
    }

/* Pointer to element 0 / element i of a MUPC_SHARED_ARRAY. */
#define MUPC_BASE(name) (name##_mupc_desc.base)
#define MUPC_ELEM(name, i)                                                              \
    mupc_ptr_index(name##_mupc_desc.base, (size_t)(i), name##_mupc_desc.elemsize,        \
                   name##_mupc_desc.blocksize)

/* ---- typed accesses; `name` is a suffix from MUPC_SCALAR_TYPES ---- */

#define MUPC_GET(name, p) mupc_get_##name((p), MUPC_RELAXED, __FILE__, __LINE__)
#define MUPC_PUT(name, p, v) mupc_put_##name((p), (v), MUPC_RELAXED, __FILE__, __LINE__)
#define MUPC_GET_STRICT(name, p) mupc_get_##name((p), MUPC_STRICT, __FILE__, __LINE__)
#define MUPC_PUT_STRICT(name, p, v) mupc_put_##name((p), (v), MUPC_STRICT, __FILE__, __LINE__)

/* ---- UPC statements and library calls ---- */

/* upc_barrier() is anonymous, upc_barrier(expr) is named; same for
 * upc_notify and upc_wait.  `upc_fence;` works as in UPC. */
#define upc_barrier(...)                                                                \
    mupc_barrier(0 __VA_OPT__(+1), (0 __VA_OPT__(+(__VA_ARGS__))), __FILE__, __LINE__)
#define upc_notify(...)                                                                 \
    mupc_notify(0 __VA_OPT__(+1), (0 __VA_OPT__(+(__VA_ARGS__))), __FILE__, __LINE__)
#define upc_wait(...)                                                                   \
    mupc_wait(0 __VA_OPT__(+1), (0 __VA_OPT__(+(__VA_ARGS__))), __FILE__, __LINE__)
#define upc_fence mupc_fence(__FILE__, __LINE__)

#define upc_memcpy(dst, src, n) mupc_memcpy((dst), (src), (n), __FILE__, __LINE__)
#define upc_memget(dst, src, n) mupc_memget((dst), (src), (n), __FILE__, __LINE__)
#define upc_memput(dst, src, n) mupc_memput((dst), (src), (n), __FILE__, __LINE__)
#define upc_memset(dst, c, n) mupc_memset((dst), (c), (n), __FILE__, __LINE__)
#define upc_global_exit(status) mupc_global_exit((status), __FILE__, __LINE__)

#define upc_global_alloc(nblocks, nbytes) \
    mupc_global_alloc((nblocks), (nbytes), __FILE__, __LINE__)
#define upc_all_alloc(nblocks, nbytes) mupc_all_alloc((nblocks), (nbytes), __FILE__, __LINE__)
#define upc_alloc(nbytes) mupc_alloc((nbytes), __FILE__, __LINE__)
/* UPC 1.2's upc_local_alloc, removed in UPC 1.3 but still offered by
 * Berkeley UPC and GCC UPC, which older programs call */
#define upc_local_alloc(nblocks, nbytes) \
    mupc_alloc((size_t)(nblocks) * (size_t)(nbytes), __FILE__, __LINE__)
/* Berkeley UPC and GCC UPC's upc_poll: lets communication progress; here
 * a fence, so a loop polling a relaxed flag sees it change */
#define upc_poll() mupc_fence(__FILE__, __LINE__)
#define upc_free(p) mupc_free((p), __FILE__, __LINE__)
#define upc_all_free(p) mupc_all_free((p), __FILE__, __LINE__)

/* upc_lock_t * is a value here: declare handles as `upc_lock_t` (or
 * mupc_lock_t), not as pointers. */
typedef mupc_lock_t upc_lock_t;
#define upc_global_lock_alloc() mupc_global_lock_alloc(__FILE__, __LINE__)
#define upc_all_lock_alloc() mupc_all_lock_alloc(__FILE__, __LINE__)
#define upc_lock_free(l) mupc_lock_free((l), __FILE__, __LINE__)
#define upc_all_lock_free(l) mupc_all_lock_free((l), __FILE__, __LINE__)
#define upc_lock(l) mupc_lock((l), __FILE__, __LINE__)
#define upc_lock_attempt(l) mupc_lock_attempt((l), __FILE__, __LINE__)
#define upc_unlock(l) mupc_unlock((l), __FILE__, __LINE__)

#define MUPC_CSWAP(name, p, expected, desired) \
    mupc_cswap_##name((p), (expected), (desired), __FILE__, __LINE__)
#define MUPC_FETCH_ADD(name, p, addend) mupc_fetch_add_##name((p), (addend), __FILE__, __LINE__)

#define MUPC_GET_NB(dst, src, n) mupc_get_nb((dst), (src), (n), __FILE__, __LINE__)
#define MUPC_PUT_NB(dst, src, n) mupc_put_nb((dst), (src), (n), __FILE__, __LINE__)
#define MUPC_SYNC(h) mupc_sync((h), __FILE__, __LINE__)
#define MUPC_SYNC_ATTEMPT(h) mupc_sync_attempt((h), __FILE__, __LINE__)

/* upc_forall with integer affinity: iterations where i % THREADS == MYTHREAD,
 * between GASP_UPC_FORALL start and end events (a `break` in the body
 * still ends the construct).  Not for nesting inside another MUPC_FORALL
 * on the same line. */
#define MUPC_FORALL_CAT2(a, b) a##b
#define MUPC_FORALL_CAT(a, b) MUPC_FORALL_CAT2(a, b)
#define MUPC_FORALL_ONCE MUPC_FORALL_CAT(mupc_forall_once_, __LINE__)
#define MUPC_FORALL(i, lo, hi)                                                          \
    for (int MUPC_FORALL_ONCE = (mupc_forall_start(__FILE__, __LINE__), 1);            \
         MUPC_FORALL_ONCE; MUPC_FORALL_ONCE = 0, mupc_forall_end(__FILE__, __LINE__))   \
        for ((i) = (lo); (i) < (hi); (i)++)                                              \
            if ((i) % THREADS == MYTHREAD)

/* GASP_C_FUNC around a function body: MUPC_FUNC_START() first thing,
 * MUPC_FUNC_END() before each return. */
#define MUPC_FUNC_START() mupc_func_start(__func__, __FILE__, __LINE__)
#define MUPC_FUNC_END() mupc_func_end(__func__, __FILE__, __LINE__)

/* Define MUPC_TRACK_MALLOC before including mupc_upc.h to report malloc,
 * realloc and free (GASP_C_MALLOC/REALLOC/FREE) with their call sites. */
#ifdef MUPC_TRACK_MALLOC
#include <stdlib.h>
#define malloc(n) mupc_c_malloc((n), __FILE__, __LINE__)
#define realloc(p, n) mupc_c_realloc((p), (n), __FILE__, __LINE__)
#define free(p) mupc_c_free((p), __FILE__, __LINE__)
#endif

#endif
