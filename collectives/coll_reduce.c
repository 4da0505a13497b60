/* SPDX-License-Identifier: MIT */
/*
 * coll_reduce.c -- upc_all_reduceT and upc_all_prefix_reduceT.
 *
 * Element k of `shared [bs] T[nelems]` starting at src (thread t0, phase
 * p0) has the global position g = p0 + t0*bs + k: block b = g / bs lies
 * on thread b % THREADS, in "row" b / THREADS, and every thread's block of
 * row r sits at the same segment offset A + r*bs*sizeof(T), A being src's
 * offset minus its phase.  So in element order the array is row by row,
 * and within a row thread 0, 1, ... THREADS-1.
 *
 * Reduce: each thread folds its own elements (one value, or one per row
 * when the operation does not commute), the partial results meet over a
 * binomial tree (combined in thread order for UPC_NONCOMM_FUNC, whose
 * tree is rooted at thread 0), and the owner of dst stores the result.
 * Prefix reduce: each thread folds its block of every row; an exclusive
 * scan over threads by recursive doubling (log2 THREADS steps) gives each
 * block the combination of the earlier blocks of its row; thread
 * THREADS-1's inclusive scan, broadcast, gives the row totals; then each
 * thread scans its own blocks into dst (when dst and src start at other
 * threads or phases, thread 0 does it all instead).  Partial results travel as
 * vectors of (value, present) pairs, since UPC_FUNC has no identity.
 */
#include "collectives/coll.h"
#include "collectives/coll_net.h"
#include "collectives/coll_ops.h"
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "transport/segment.h"
#include "transport/xfer.h"

#include <stdlib.h>
#include <string.h>

_Static_assert((int)MUPCI_RED_C == (int)GASP_UPC_REDUCTION_C &&
                   (int)MUPCI_RED_LD == (int)GASP_UPC_REDUCTION_LD,
               "coll_ops.h types follow gasp_upc_reduction_t");

enum { ROUND_REDUCE = 1, ROUND_RESULT = 2, ROUND_TOTALS = 3, ROUND_SCAN = 16 };

/* Where this thread's elements are. */
typedef struct layout {
    uint64_t row0;   /* segment offset A of every thread's row-0 block */
    size_t elem;     /* sizeof(T) */
    size_t bs;       /* elements per block (nelems for an indefinite block size) */
    size_t g0, gend; /* global positions of element 0 and one past the last */
    size_t rows;
} layout_t;

static layout_t layout_of(mupc_ptr_t src, size_t nelems, size_t blk, size_t elem)
{
    layout_t L = {0};
    L.elem = elem;
    L.bs = blk ? blk : nelems;
    size_t phase = blk ? src.phase : 0;
    L.row0 = src.addr - phase * elem;
    L.g0 = phase + src.thread * L.bs;
    L.gend = L.g0 + nelems;
    size_t row_len = L.bs * (size_t)mupc_threads;
    L.rows = (L.gend + row_len - 1) / row_len;
    return L;
}

/* This thread's run in row r: first element (as a segment offset and as
 * an element index k) and length; 0 elements when it has none there. */
typedef struct run {
    uint64_t offset;
    size_t k, count;
} run_t;

static run_t my_run(const layout_t *L, size_t r)
{
    run_t run = {0, 0, 0};
    size_t lo = (r * (size_t)mupc_threads + (size_t)mupc_mythread) * L->bs, hi = lo + L->bs;
    if (lo < L->g0)
        lo = L->g0;
    if (hi > L->gend)
        hi = L->gend;
    if (lo >= hi)
        return run;
    run.offset = L->row0 + (r * L->bs + lo % L->bs) * L->elem;
    run.k = lo - L->g0;
    run.count = hi - lo;
    return run;
}

/* A vector of optional values: `n` values, then `n` presence bytes, so it
 * travels as one message. */
typedef struct partial {
    size_t n, elem;
    unsigned char *buf;
} partial_t;

static partial_t partial_new(size_t n, size_t elem)
{
    partial_t p = {n, elem, calloc(n ? n * (elem + 1) : 1, 1)};
    if (!p.buf)
        mupci_fatal("out of memory for %zu partial results of a reduction", n);
    return p;
}
static size_t partial_bytes(const partial_t *p) { return p->n * (p->elem + 1); }
static void *value_at(const partial_t *p, size_t i) { return p->buf + i * p->elem; }
static unsigned char *present(const partial_t *p) { return p->buf + p->n * p->elem; }

/* out = left op right, element by element, absent values being neutral;
 * out may be left or right. */
static void partial_combine(const mupci_redop_t *op, partial_t *out, const partial_t *left,
                            const partial_t *right)
{
    for (size_t i = 0; i < out->n; i++) {
        int l = present(left)[i], r = present(right)[i];
        if (l && r)
            mupci_redop_apply(op, value_at(out, i), value_at(left, i), value_at(right, i), 1);
        else if (l || r)
            memmove(value_at(out, i), value_at(l ? left : right, i), out->elem);
        present(out)[i] = (unsigned char)(l || r);
    }
}

/* Fold this thread's run of row r into slot `slot` of p. */
static void fold_run(const mupci_redop_t *op, partial_t *p, size_t slot, const run_t *run,
                     const char *what, const char *file, int line)
{
    mupc_ptr_t at = {run->offset, (uint32_t)mupc_mythread, 0};
    const void *x = mupci_coll_local(at, run->count * p->elem, what, "src", file, line);
    mupci_redop_fold(op, value_at(p, slot), present(p)[slot], x, run->count);
    present(p)[slot] = 1;
}

/* Combine every thread's p over the binomial tree rooted at `root`, in
 * virtual-rank order; the root ends with the total in p. */
static void tree_reduce(const mupci_redop_t *op, int root, partial_t *p)
{
    int N = mupc_threads, v = mupci_tree_vrank(mupc_mythread, root, N);
    partial_t child = partial_new(p->n, p->elem);
    for (int k = 1; k < mupci_tree_lowbit(v, N) && v + k < N; k <<= 1) {
        mupci_coll_recv(mupci_tree_thread(v + k, root, N), ROUND_REDUCE, child.buf,
                        partial_bytes(&child));
        partial_combine(op, p, p, &child);
    }
    if (v != 0)
        mupci_coll_send(mupci_tree_thread(mupci_tree_parent(v), root, N), ROUND_REDUCE, p->buf,
                        partial_bytes(p));
    free(child.buf);
}

static void check_args(const mupci_redop_t *op, mupc_ptr_t dst, mupc_ptr_t src,
                       const char *what, const char *file, int line)
{
    const char *why = mupci_redop_invalid(op);
    if (MUPCI_CHECKS && mupci_unlikely(why != NULL)) {
        const char *name = mupci_red_op_name(op->op);
        mupci_fatal_at(file, line, "%s: operation %s (%#x): %s", what, name ? name : "?",
                       (unsigned)op->op, why);
    }
    if (MUPCI_CHECKS && mupci_unlikely(src.thread >= (uint32_t)mupc_threads || src.addr == 0 ||
                                       dst.thread >= (uint32_t)mupc_threads || dst.addr == 0))
        mupci_fatal_at(file, line,
                       "%s: src (thread %u, offset %llu) or dst (thread %u, offset %llu) is "
                       "null or out of range (THREADS is %d); pass pointers into the shared "
                       "arrays the call works on",
                       what, src.thread, (unsigned long long)src.addr, dst.thread,
                       (unsigned long long)dst.addr, mupc_threads);
}

/* ---------------------------------------------------------------- */

static void reduce(const mupci_redop_t *op, mupc_ptr_t dst, mupc_ptr_t src, size_t nelems,
                   size_t blk, upc_flag_t flags, const char *what, const char *file, int line)
{
    check_args(op, dst, src, what, file, line);
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)op->type, (uint64_t)op->op, nelems, blk,
                                     dst.thread, flags};
    mupci_coll_enter(MUPCI_RV_REDUCE, args, flags, what, file, line);
    if (nelems > 0) {
        size_t elem = mupci_red_type_size(op->type);
        layout_t L = layout_of(src, nelems, blk, elem);
        int commutes = mupci_redop_commutes(op);
        /* In order, a non-commuting operation needs one partial per row
         * and a tree in thread order (rooted at 0). */
        partial_t p = partial_new(commutes ? 1 : L.rows, elem);
        for (size_t r = 0; r < L.rows; r++) {
            run_t run = my_run(&L, r);
            if (run.count)
                fold_run(op, &p, commutes ? 0 : r, &run, what, file, line);
        }
        int root = commutes ? (int)dst.thread : 0;
        tree_reduce(op, root, &p);
        partial_t result = partial_new(1, elem);
        if (mupc_mythread == root) /* the rows, in order */
            for (size_t r = 0; r < p.n; r++)
                if (present(&p)[r]) {
                    mupci_redop_fold(op, value_at(&result, 0), present(&result)[0],
                                     value_at(&p, r), 1);
                    present(&result)[0] = 1;
                }
        if (root != (int)dst.thread) {
            if (mupc_mythread == root)
                mupci_coll_send((int)dst.thread, ROUND_RESULT, result.buf, partial_bytes(&result));
            else if (mupc_mythread == (int)dst.thread)
                mupci_coll_recv(root, ROUND_RESULT, result.buf, partial_bytes(&result));
        }
        if (mupc_mythread == (int)dst.thread)
            memcpy(mupci_coll_local(dst, elem, what, "dst", file, line), value_at(&result, 0),
                   elem);
        free(result.buf);
        free(p.buf);
    }
    mupci_coll_leave(flags, what, file, line);
}

/* ---------------------------------------------------------------- */

/* Exclusive and inclusive scan of every thread's p over threads 0..N-1
 * (recursive doubling); p becomes the inclusive one. */
static void scan_threads(const mupci_redop_t *op, partial_t *p, partial_t *excl)
{
    int N = mupc_threads, me = mupc_mythread;
    partial_t in = partial_new(p->n, p->elem);
    for (int d = 1, step = 0; d < N; d <<= 1, step++) {
        if (me + d < N)
            mupci_coll_send(me + d, ROUND_SCAN + step, p->buf, partial_bytes(p));
        if (me - d >= 0) {
            mupci_coll_recv(me - d, ROUND_SCAN + step, in.buf, partial_bytes(&in));
            partial_combine(op, excl, &in, excl); /* what came from the left goes first */
            partial_combine(op, p, &in, p);
        }
    }
    free(in.buf);
}

/* Copy n elements between a private buffer and `shared [blk]` elements
 * from p on, a block's run at a time (to_shared: into the shared ones). */
static void move_elements(mupc_ptr_t p, unsigned char *buf, size_t n, size_t elem, size_t blk,
                          int to_shared)
{
    for (size_t i = 0; i < n;) {
        mupc_ptr_t at = mupc_ptr_add(p, (ptrdiff_t)i, elem, blk);
        size_t run = blk ? blk - at.phase : n - i;
        run = run < n - i ? run : n - i;
        if (to_shared)
            mupci_xfer_put((int)at.thread, at.addr, buf + i * elem, run * elem);
        else
            mupci_xfer_get(buf + i * elem, (int)at.thread, at.addr, run * elem);
        i += run;
    }
}

/* dst and src start at different threads or phases, so their blocks do
 * not pair up: thread 0 reads all of src, scans, and writes dst (a
 * message per block; the common case, same start, is the parallel path). */
static void prefix_reduce_through_one(const mupci_redop_t *op, mupc_ptr_t dst, mupc_ptr_t src,
                                      size_t nelems, size_t blk)
{
    if (mupc_mythread != 0 || nelems == 0)
        return;
    size_t elem = mupci_red_type_size(op->type);
    unsigned char *x = malloc(nelems * elem), *acc = malloc(elem);
    if (!x || !acc)
        mupci_fatal("out of memory for the %zu elements of a prefix reduction", nelems);
    move_elements(src, x, nelems, elem, blk, 0);
    mupci_redop_scan(op, acc, 0, x, x, nelems);
    move_elements(dst, x, nelems, elem, blk, 1);
    mupci_xfer_fence(1); /* the puts complete before the collective ends */
    free(x);
    free(acc);
}

static void prefix_reduce(const mupci_redop_t *op, mupc_ptr_t dst, mupc_ptr_t src,
                          size_t nelems, size_t blk, upc_flag_t flags, const char *what,
                          const char *file, int line)
{
    check_args(op, dst, src, what, file, line);
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)op->type, (uint64_t)op->op, nelems, blk, flags};
    mupci_coll_enter(MUPCI_RV_PREFIX_REDUCE, args, flags, what, file, line);
    if (dst.thread != src.thread || (blk && dst.phase != src.phase))
        prefix_reduce_through_one(op, dst, src, nelems, blk);
    else if (nelems > 0) {
        size_t elem = mupci_red_type_size(op->type);
        layout_t L = layout_of(src, nelems, blk, elem);
        partial_t blocks = partial_new(L.rows, elem), excl = partial_new(L.rows, elem);
        for (size_t r = 0; r < L.rows; r++) {
            run_t run = my_run(&L, r);
            if (run.count)
                fold_run(op, &blocks, r, &run, what, file, line);
        }
        scan_threads(op, &blocks, &excl);
        /* Row totals: the last thread's inclusive scan. */
        mupci_coll_bcast(mupc_threads - 1, blocks.buf, partial_bytes(&blocks), ROUND_TOTALS);
        partial_t before = partial_new(1, elem); /* all rows before r */
        partial_t start = partial_new(1, elem), row_excl = partial_new(1, elem);
        size_t dst_row0 = dst.addr - (L.g0 % L.bs) * elem;
        for (size_t r = 0; r < L.rows; r++) {
            run_t run = my_run(&L, r);
            if (run.count) { /* start = rows before, then earlier blocks of this row */
                memcpy(value_at(&row_excl, 0), value_at(&excl, r), elem);
                present(&row_excl)[0] = present(&excl)[r];
                partial_combine(op, &start, &before, &row_excl);
                mupc_ptr_t from = {run.offset, (uint32_t)mupc_mythread, 0};
                mupc_ptr_t to = {dst_row0 + (run.offset - L.row0), (uint32_t)mupc_mythread, 0};
                const void *x = mupci_coll_local(from, run.count * elem, what, "src", file, line);
                void *y = mupci_coll_local(to, run.count * elem, what, "dst", file, line);
                mupci_redop_scan(op, value_at(&start, 0), present(&start)[0], x, y, run.count);
            }
            if (present(&blocks)[r]) {
                if (present(&before)[0])
                    mupci_redop_apply(op, value_at(&before, 0), value_at(&before, 0),
                                      value_at(&blocks, r), 1);
                else
                    memcpy(value_at(&before, 0), value_at(&blocks, r), elem);
                present(&before)[0] = 1;
            }
        }
        free(before.buf);
        free(start.buf);
        free(row_excl.buf);
        free(blocks.buf);
        free(excl.buf);
    }
    mupci_coll_leave(flags, what, file, line);
}

/* ---------------------------------------------------------------- */
/* Public entry points, one pair per type                            */
/* ---------------------------------------------------------------- */

#define MUPCI_REDUCE_EVENT(evt, type, suffix)                                             \
    MUPCI_GASP_EVENT(evt, type, 0, file, line, &dst, &src, (int)op, nelems, blk_size,      \
                     (void *)func, (int)flags, (gasp_upc_reduction_t)MUPCI_RED_##suffix)

#define MUPCI_DEFINE_REDUCE(suffix, T)                                                     \
    void mupc_all_reduce##suffix(mupc_ptr_t dst, mupc_ptr_t src, upc_op_t op, size_t nelems, \
                                 size_t blk_size, T (*func)(T, T), upc_flag_t flags,       \
                                 const char *file, int line)                               \
    {                                                                                      \
        mupci_redop_t r = {MUPCI_RED_##suffix, op, (void (*)(void))func};                  \
        MUPCI_REDUCE_EVENT(GASP_UPC_ALL_REDUCE, GASP_START, suffix);                       \
        reduce(&r, dst, src, nelems, blk_size, flags, "upc_all_reduce" #suffix, file, line); \
        MUPCI_REDUCE_EVENT(GASP_UPC_ALL_REDUCE, GASP_END, suffix);                         \
    }                                                                                      \
    void mupc_all_prefix_reduce##suffix(mupc_ptr_t dst, mupc_ptr_t src, upc_op_t op,       \
                                        size_t nelems, size_t blk_size, T (*func)(T, T),   \
                                        upc_flag_t flags, const char *file, int line)      \
    {                                                                                      \
        mupci_redop_t r = {MUPCI_RED_##suffix, op, (void (*)(void))func};                  \
        MUPCI_REDUCE_EVENT(GASP_UPC_ALL_PREFIX_REDUCE, GASP_START, suffix);                \
        prefix_reduce(&r, dst, src, nelems, blk_size, flags,                               \
                      "upc_all_prefix_reduce" #suffix, file, line);                        \
        MUPCI_REDUCE_EVENT(GASP_UPC_ALL_PREFIX_REDUCE, GASP_END, suffix);                  \
    }
MUPC_REDUCE_TYPES(MUPCI_DEFINE_REDUCE)
#undef MUPCI_DEFINE_REDUCE
