/* SPDX-License-Identifier: MIT */
/* prelex.h -- the token pass that turns UPC syntax into C that clang parses.
 *
 * On translated regions only (see regions.h), keeping every newline so
 * line numbers hold:
 *   [strict|relaxed] shared [B] / [*] / []   -> __attribute__((address_space(K)))
 *       K = LAYOUT_BASE + an index into the layout table below, so block
 *       size and strictness live in the type through typedefs, pointers,
 *       members and arithmetic;
 *   upc_forall (a; b; c; aff) S     -> for (a; b; c) if (__mupc_forall_skip(aff)) ; else S
 *   upc_barrier/notify/wait [e];    -> mupc_barrier(named, value, __FILE__, __LINE__);
 *   upc_fence;                      -> mupc_fence(__FILE__, __LINE__);
 *   upc_localsizeof/blocksizeof/elemsizeof -> sizeof, remembered by offset;
 *   #pragma upc strict|relaxed      -> a blank line, remembered by offset;
 *   mupc_threads in a dimension of a file-scope shared array -> 1, the
 *       dimension remembered (the dynamic THREADS environment);
 *   #define / #undef (clang -E -dD)   -> a blank line (the text is
 *       expanded already), the feature macros among them kept aside. */
#ifndef MUPC_XLATE_PRELEX_H
#define MUPC_XLATE_PRELEX_H

#include "regions.h"

#include <stddef.h>

#define LAYOUT_BASE 0x4000

typedef enum { BLOCK_NUMBER, BLOCK_STAR, BLOCK_INDEFINITE } block_kind_t;
typedef enum { ACCESS_DEFAULT, ACCESS_STRICT, ACCESS_RELAXED } access_t;

typedef struct layout {
    block_kind_t kind;
    char *block;     /* the block size expression (BLOCK_NUMBER), as written */
    char *block_c;   /* the same prelexed, for clang (`sizeof(shared void *)`
                      * in it), or NULL when it is the same text */
    struct marked *block_sizeofs; /* its upc_*sizeof marks, offsets in block_c */
    size_t nblock_sizeofs;
    access_t access; /* strict, relaxed, or as the pragma in effect says */
    size_t offset;   /* where it was written (for messages) */
} layout_t;

/* SIZEOF_LOCAL_THREADS: upc_localsizeof of a type name with THREADS in a
 * dimension, in the dynamic environment, written with THREADS = 1 */
typedef enum { SIZEOF_LOCAL = 1, SIZEOF_BLOCK, SIZEOF_ELEM, SIZEOF_LOCAL_THREADS } sizeof_kind_t;

typedef struct marked {
    size_t offset; /* in the prelexed text */
    int value;     /* sizeof_kind_t, or 1 = strict / 0 = relaxed for pragmas */
} marked_t;

typedef struct threads_dim {
    char *name; /* a file-scope shared array */
    int dim;    /* which dimension held THREADS (0 = outermost) */
} threads_dim_t;

typedef struct prelex_error {
    size_t offset; /* in the input text */
    char *message;
} prelex_error_t;

typedef struct prelex {
    struct macro_uses *macro_uses; /* the C compiler's macros kept (macros.h), for apply_fix() */
    layout_t *layouts;
    size_t nlayouts;
    marked_t *sizeofs;
    size_t nsizeofs;
    marked_t *pragmas; /* strictness in effect from offset on */
    size_t npragmas;
    threads_dim_t *threads_dims;
    size_t nthreads_dims;
    prelex_error_t *errors;
    size_t nerrors;
    prelex_error_t *warnings; /* reported, translation goes on */
    size_t nwarnings;
    int static_threads; /* -T N, or 0 */
    /* #define / #undef lines of the program's own files (and -include /
     * -imacros files) for names the C implementation reads (_GNU_SOURCE,
     * _POSIX_C_SOURCE, NDEBUG, ...), in order: the output re-includes the
     * system headers, which must see them; owned, never NULL after a run */
    char *feature_macros;
} prelex_t;

/* An empty pass; layout 0 is the prelude's `shared void` (block 1). */
void prelex_init(prelex_t *p, int static_threads);
/* The prelexed text of text (regions r), owned by the caller. */
char *prelex_run(prelex_t *p, const char *text, size_t len, const regions_t *r);
/* The layout of address space K, or NULL when K is not one of ours. */
const layout_t *prelex_layout(const prelex_t *p, unsigned k);
/* Strict (1) or relaxed (0) by the pragmas in effect at offset. */
int prelex_strict_at(const prelex_t *p, size_t offset);
/* SIZEOF_* if the sizeof at offset was written as a upc_*sizeof, else 0. */
int prelex_sizeof_at(const prelex_t *p, size_t offset);
/* Which dimension of file-scope shared array `name` held THREADS, or -1. */
int prelex_threads_dim(const prelex_t *p, const char *name);

#endif
