/* SPDX-License-Identifier: MIT */
/*
 * test_coll.c -- every collective of upc_collective.h against a sequential
 * reference computed on every thread: broadcast, scatter, gather,
 * gather_all, exchange and permute for several sizes (1 byte to several
 * batch-sized chunks), every root, arrays starting on thread 0 and on
 * thread 1, and all nine sync-flag combinations; exchanges back to back
 * under MYSYNC with threads arriving late; reduce and prefix reduce
 * for all eleven types and every operation (UPC_NONCOMM_FUNC with an
 * associative but order-sensitive function), with block sizes 1, 4, 7,
 * indefinite, and arrays starting mid-block on another thread.
 */
#include "check.h"

#include <string.h>
#include <upc_collective.h>
#include <unistd.h>

static const upc_flag_t flag_combos[9] = {
    UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC, UPC_IN_ALLSYNC | UPC_OUT_MYSYNC,
    UPC_IN_ALLSYNC | UPC_OUT_NOSYNC,  UPC_IN_MYSYNC | UPC_OUT_ALLSYNC,
    UPC_IN_MYSYNC | UPC_OUT_MYSYNC,   UPC_IN_MYSYNC | UPC_OUT_NOSYNC,
    UPC_IN_NOSYNC | UPC_OUT_ALLSYNC,  UPC_IN_NOSYNC | UPC_OUT_MYSYNC,
    UPC_IN_NOSYNC | UPC_OUT_NOSYNC};
static int call_count;

/* A portable program using NOSYNC/MYSYNC brackets the call with its own
 * barriers (data is written before and read after). */
static upc_flag_t next_flags(void) { return flag_combos[call_count++ % 9]; }

static unsigned char pattern(int a, int b, size_t i)
{
    return (unsigned char)(a * 31 + b * 7 + (int)(i * 13) + 1);
}

static char *local(mupc_ptr_t p)
{
    char *a = mupc_local_addr(p);
    CHECK(a != NULL, "pointer (thread %u) is not local", p.thread);
    return a;
}

/* Block of thread t in `shared [block] char[]` starting at p. */
static mupc_ptr_t block_of(mupc_ptr_t p, int t, size_t block)
{
    return mupc_ptr_add(p, (ptrdiff_t)((size_t)((t - (int)p.thread + THREADS) % THREADS) * block),
                        1, block);
}

static void check_block(const char *what, const char *got, int a, int b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        CHECK(got[i] == (char)pattern(a, b, i), "%s: byte %zu of block (%d,%d) is %d, not %d",
              what, i, a, b, got[i], (char)pattern(a, b, i));
}

/* ---- data movement ---- */

static void broadcast(size_t n, int root, int first)
{
    mupc_ptr_t s = upc_all_alloc(2 * (size_t)THREADS, n), d = upc_all_alloc(2 * (size_t)THREADS, n);
    mupc_ptr_t src = block_of(s, root, n), dst = block_of(d, first, n);
    if (MYTHREAD == root)
        for (size_t i = 0; i < n; i++)
            local(src)[i] = (char)pattern(root, 0, i);
    upc_barrier();
    upc_all_broadcast(dst, src, n, next_flags());
    upc_barrier();
    check_block("broadcast", local(block_of(dst, MYTHREAD, n)), root, 0, n);
    upc_all_free(s);
    upc_all_free(d);
}

static void scatter_gather(size_t n, int root)
{
    size_t all = (size_t)THREADS * n;
    mupc_ptr_t a = upc_all_alloc((size_t)THREADS, all), b = upc_all_alloc((size_t)THREADS, n);
    mupc_ptr_t on_root = block_of(a, root, all);
    if (MYTHREAD == root)
        for (int t = 0; t < THREADS; t++)
            for (size_t i = 0; i < n; i++)
                local(on_root)[(size_t)t * n + i] = (char)pattern(root, t, i);
    upc_barrier();
    upc_all_scatter(b, on_root, n, next_flags());
    upc_barrier();
    check_block("scatter", local(block_of(b, MYTHREAD, n)), root, MYTHREAD, n);
    /* now gather them back, changed, to the next root */
    int groot = (root + 1) % THREADS;
    for (size_t i = 0; i < n; i++)
        local(block_of(b, MYTHREAD, n))[i] = (char)pattern(groot, MYTHREAD, i);
    upc_barrier();
    upc_all_gather(block_of(a, groot, all), b, n, next_flags());
    upc_barrier();
    if (MYTHREAD == groot)
        for (int t = 0; t < THREADS; t++)
            check_block("gather", local(block_of(a, groot, all)) + (size_t)t * n, groot, t, n);
    upc_all_free(a);
    upc_all_free(b);
}

static void gather_all(size_t n)
{
    size_t all = (size_t)THREADS * n;
    mupc_ptr_t src = upc_all_alloc((size_t)THREADS, n), dst = upc_all_alloc((size_t)THREADS, all);
    for (size_t i = 0; i < n; i++)
        local(block_of(src, MYTHREAD, n))[i] = (char)pattern(MYTHREAD, 9, i);
    upc_barrier();
    upc_all_gather_all(dst, src, n, next_flags());
    upc_barrier();
    for (int t = 0; t < THREADS; t++)
        check_block("gather_all", local(block_of(dst, MYTHREAD, all)) + (size_t)t * n, t, 9, n);
    upc_all_free(src);
    upc_all_free(dst);
}

static void exchange(size_t n)
{
    size_t all = (size_t)THREADS * n;
    mupc_ptr_t src = upc_all_alloc((size_t)THREADS, all), dst = upc_all_alloc((size_t)THREADS, all);
    for (int j = 0; j < THREADS; j++)
        for (size_t i = 0; i < n; i++)
            local(block_of(src, MYTHREAD, all))[(size_t)j * n + i] = (char)pattern(MYTHREAD, j, i);
    upc_barrier();
    upc_all_exchange(dst, src, n, next_flags());
    upc_barrier();
    for (int i = 0; i < THREADS; i++) /* block i here came from thread i's block MYTHREAD */
        check_block("exchange", local(block_of(dst, MYTHREAD, all)) + (size_t)i * n, i, MYTHREAD,
                    n);
    upc_all_free(src);
    upc_all_free(dst);
}

/* Back-to-back exchanges under UPC_IN_MYSYNC | UPC_OUT_MYSYNC with no
 * barrier between them, reusing dst and src, one thread at a time made
 * late: each thread reads its dst and rewrites its src between calls,
 * which MYSYNC allows (nobody touches a thread's data before it enters
 * nor after it leaves).  A block written into a thread that has not yet
 * entered, or counted to the wrong call, shows up as a wrong round. */
static void exchange_pipeline(size_t n, int rounds)
{
    size_t all = (size_t)THREADS * n;
    mupc_ptr_t src = upc_all_alloc((size_t)THREADS, all), dst = upc_all_alloc((size_t)THREADS, all);
    char *in = local(block_of(src, MYTHREAD, all)), *out = local(block_of(dst, MYTHREAD, all));
    for (int r = 0; r < rounds; r++) {
        for (int j = 0; j < THREADS; j++)
            for (size_t i = 0; i < n; i++)
                in[(size_t)j * n + i] = (char)pattern(MYTHREAD + r, j, i);
        if (r % THREADS == MYTHREAD && r % 3 == 0)
            usleep(200); /* this thread comes late to the call */
        upc_all_exchange(dst, src, n, UPC_IN_MYSYNC | UPC_OUT_MYSYNC);
        for (int t = 0; t < THREADS; t++)
            for (size_t i = 0; i < n; i++)
                CHECK(out[(size_t)t * n + i] == (char)pattern(t + r, MYTHREAD, i),
                      "exchange round %d: byte %zu of the block from thread %d is %d, not %d",
                      r, i, t, out[(size_t)t * n + i], (char)pattern(t + r, MYTHREAD, i));
        memset(out, 0, all);
    }
    upc_barrier();
    upc_all_free(src);
    upc_all_free(dst);
}

static void permute(size_t n, int shift, int reverse)
{
    mupc_ptr_t perm = upc_all_alloc((size_t)THREADS, sizeof(int));
    mupc_ptr_t src = upc_all_alloc((size_t)THREADS, n), dst = upc_all_alloc((size_t)THREADS, n);
    int target = reverse ? THREADS - 1 - MYTHREAD : (MYTHREAD + shift) % THREADS;
    memcpy(local(mupc_ptr_index(perm, (size_t)MYTHREAD, sizeof(int), 1)), &target, sizeof target);
    for (size_t i = 0; i < n; i++)
        local(block_of(src, MYTHREAD, n))[i] = (char)pattern(MYTHREAD, 5, i);
    upc_barrier();
    upc_all_permute(dst, src, perm, n, next_flags());
    upc_barrier();
    int from = reverse ? THREADS - 1 - MYTHREAD : (MYTHREAD - shift % THREADS + THREADS) % THREADS;
    check_block("permute", local(block_of(dst, MYTHREAD, n)), from, 5, n);
    upc_all_free(perm);
    upc_all_free(src);
    upc_all_free(dst);
}

static void data_movement(void)
{
    static const size_t sizes[] = {1, 7, 64, 40000}; /* the last spans several messages */
    /* Past 16 threads, the sampled roots, and no 40000: gather_all and
     * exchange move THREADS x size to every thread (40 MB at 1,024). */
    size_t nsizes = THREADS <= 16 ? sizeof sizes / sizeof sizes[0] : 3;
    int roots[SAMPLED_THREADS_MAX], nroots = sampled_threads(roots);
    for (size_t s = 0; s < nsizes; s++) {
        for (int r = 0; r < nroots; r++) {
            broadcast(sizes[s], roots[r], 0);
            broadcast(sizes[s], roots[r], THREADS > 1 ? 1 : 0);
            scatter_gather(sizes[s], roots[r]);
        }
        gather_all(sizes[s]);
        exchange(sizes[s]);
        permute(sizes[s], 1, 0);
        permute(sizes[s], 0, 1);
    }
    exchange_pipeline(64, THREADS <= 16 ? 200 : 10);
    exchange_pipeline(40000, THREADS <= 16 ? 20 : 2);
}

/* ---- reductions ---- */

/* Values by element index, per operation: small enough that sums and
 * products are exact in float, with zeros for the logical operations. */
static long value_of(upc_op_t op, size_t k)
{
    switch (op) {
    case UPC_MULT: return k % 5 == 0 ? 2 : (k % 11 == 3 ? -1 : 1);
    case UPC_LOGAND: return k % 17 == 16 ? 0 : (long)(k % 3) + 1;
    case UPC_LOGOR: return k % 13 == 12 ? 3 : 0;
    case UPC_AND: return ~(1L << (k % 6));
    case UPC_OR: case UPC_XOR: return (long)((k * 37 + 11) % 64);
    case UPC_NONCOMM_FUNC: return k % 3 == 1 ? (long)(k % 50) + 1 : 0;
    default: return (long)(k % 23) - 9;
    }
}

static const upc_op_t all_ops[] = {UPC_ADD, UPC_MULT,  UPC_AND,  UPC_OR,          UPC_XOR,
                                   UPC_LOGAND, UPC_LOGOR, UPC_MIN, UPC_MAX, UPC_FUNC,
                                   UPC_NONCOMM_FUNC};

/* Past 16 threads (make check-scale) three operations stand for the
 * eleven: an arithmetic one, a comparison and the non-commutative
 * function, whose order of combination is the one the others could get
 * wrong unseen.  Each reduction costs several collective calls, and at
 * 512 threads the full set took most of test_coll's 633 s. */
static int op_sampled(upc_op_t op)
{
    return THREADS <= SAMPLED_THREADS_MAX || op == UPC_ADD || op == UPC_MIN ||
           op == UPC_NONCOMM_FUNC;
}

typedef struct shape {
    size_t nelems, blk, first; /* the array starts at element `first` of the allocation */
} shape_t;

/* "The last non-zero": associative, not commutative. */
#define DEFINE_REDUCE_TEST(suffix, T, floating)                                            \
    static T add_##suffix(T a, T b) { return (T)(a + b); }                                  \
    static T last_nonzero_##suffix(T a, T b) { return b != 0 ? b : a; }                     \
    static T ref_op_##suffix(upc_op_t op, T a, T b)                                        \
    {                                                                                      \
        switch (op) {                                                                      \
        case UPC_ADD: case UPC_FUNC: return (T)(a + b);                                    \
        case UPC_MULT: return (T)(a * b);                                                  \
        case UPC_LOGAND: return (T)(a && b);                                               \
        case UPC_LOGOR: return (T)(a || b);                                                \
        case UPC_MIN: return a < b ? a : b;                                                \
        case UPC_MAX: return a > b ? a : b;                                                \
        case UPC_NONCOMM_FUNC: return b != 0 ? b : a;                                      \
        default: return bitwise_##suffix(op, a, b);                                        \
        }                                                                                  \
    }                                                                                      \
    static void reduce_case_##suffix(upc_op_t op, shape_t sh)                              \
    {                                                                                      \
        size_t blk = sh.blk, total = sh.first + sh.nelems;                                 \
        size_t nblocks = blk ? (total + blk - 1) / blk : 1, bytes = (blk ? blk : total) * sizeof(T); \
        mupc_ptr_t base = upc_all_alloc(nblocks, bytes), out = upc_all_alloc(nblocks, bytes); \
        mupc_ptr_t res = upc_all_alloc((size_t)THREADS, sizeof(T));                        \
        mupc_ptr_t src = mupc_ptr_index(base, sh.first, sizeof(T), blk);                   \
        mupc_ptr_t dst = mupc_ptr_index(out, sh.first, sizeof(T), blk);                    \
        mupc_ptr_t r = mupc_ptr_index(res, (size_t)(THREADS - 1), sizeof(T), 1);           \
        T (*fn)(T, T) = op == UPC_FUNC ? add_##suffix                                       \
                        : op == UPC_NONCOMM_FUNC ? last_nonzero_##suffix : NULL;           \
        for (size_t k = 0; k < sh.nelems; k++) {                                           \
            mupc_ptr_t p = mupc_ptr_index(src, k, sizeof(T), blk);                         \
            T v = (T)value_of(op, k);                                                      \
            if (p.thread == (uint32_t)MYTHREAD)                                            \
                memcpy(local(p), &v, sizeof v);                                            \
        }                                                                                  \
        upc_barrier();                                                                     \
        upc_all_reduce##suffix(r, src, op, sh.nelems, blk, fn, next_flags());              \
        upc_all_prefix_reduce##suffix(dst, src, op, sh.nelems, blk, fn, next_flags());     \
        upc_barrier();                                                                     \
        T acc = (T)value_of(op, 0), got;                                                   \
        for (size_t k = 0; k < sh.nelems; k++) {                                           \
            if (k > 0)                                                                     \
                acc = ref_op_##suffix(op, acc, (T)value_of(op, k));                        \
            mupc_ptr_t p = mupc_ptr_index(dst, k, sizeof(T), blk);                         \
            if (p.thread == (uint32_t)MYTHREAD) {                                          \
                memcpy(&got, local(p), sizeof got);                                        \
                CHECK(got == acc, "prefix_reduce" #suffix " op %#x, %zu elements, block %zu, " \
                      "from %zu: element %zu is %Lg, expected %Lg", (unsigned)op, sh.nelems, blk, \
                      sh.first, k, (long double)got, (long double)acc);                    \
            }                                                                              \
        }                                                                                  \
        if (MYTHREAD == THREADS - 1) {                                                     \
            memcpy(&got, local(r), sizeof got);                                            \
            CHECK(got == acc, "reduce" #suffix " op %#x, %zu elements, block %zu, from %zu: " \
                  "%Lg, expected %Lg", (unsigned)op, sh.nelems, blk, sh.first,              \
                  (long double)got, (long double)acc);                                     \
        }                                                                                  \
        upc_all_free(base);                                                                \
        upc_all_free(out);                                                                 \
        upc_all_free(res);                                                                 \
    }                                                                                      \
    static void reduce_type_##suffix(void)                                                 \
    {                                                                                      \
        shape_t shapes[] = {{1, 1, 0}, {5 * (size_t)THREADS + 3, 1, 0}, {37, 4, 0},          \
                            {37, 0, 0}, {100, 7, 7 + 3}, {2, 3, 2}};                        \
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)                      \
            for (size_t o = 0; o < sizeof all_ops / sizeof all_ops[0]; o++)                \
                if ((!(floating) || (all_ops[o] != UPC_AND && all_ops[o] != UPC_OR &&      \
                                     all_ops[o] != UPC_XOR)) &&                            \
                    op_sampled(all_ops[o]))                                                \
                    reduce_case_##suffix(all_ops[o], shapes[s]);                           \
    }

#define DEFINE_BITWISE(suffix, T)                                                          \
    static T bitwise_##suffix(upc_op_t op, T a, T b)                                       \
    {                                                                                      \
        return (T)(op == UPC_AND ? (a & b) : op == UPC_OR ? (a | b) : (a ^ b));            \
    }
#define DEFINE_NO_BITWISE(suffix, T)                                                       \
    static T bitwise_##suffix(upc_op_t op, T a, T b) { return a; }

DEFINE_BITWISE(C, signed char)
DEFINE_BITWISE(UC, unsigned char)
DEFINE_BITWISE(S, short)
DEFINE_BITWISE(US, unsigned short)
DEFINE_BITWISE(I, int)
DEFINE_BITWISE(UI, unsigned int)
DEFINE_BITWISE(L, long)
DEFINE_BITWISE(UL, unsigned long)
DEFINE_NO_BITWISE(F, float)
DEFINE_NO_BITWISE(D, double)
DEFINE_NO_BITWISE(LD, long double)

DEFINE_REDUCE_TEST(C, signed char, 0)
DEFINE_REDUCE_TEST(UC, unsigned char, 0)
DEFINE_REDUCE_TEST(S, short, 0)
DEFINE_REDUCE_TEST(US, unsigned short, 0)
DEFINE_REDUCE_TEST(I, int, 0)
DEFINE_REDUCE_TEST(UI, unsigned int, 0)
DEFINE_REDUCE_TEST(L, long, 0)
DEFINE_REDUCE_TEST(UL, unsigned long, 0)
DEFINE_REDUCE_TEST(F, float, 1)
DEFINE_REDUCE_TEST(D, double, 1)
DEFINE_REDUCE_TEST(LD, long double, 1)

int main(void)
{
    data_movement();
    reduce_type_L();
    reduce_type_D();
    if (THREADS > SAMPLED_THREADS_MAX) { /* make check-scale: one integer and one floating type */
        if (MYTHREAD == 0)
            printf("test_coll: %d collective calls checked with %d threads (reductions of long "
                   "and double by +, min and a non-commutative function only)\n",
                   call_count, THREADS);
        return 0;
    }
    reduce_type_C();
    reduce_type_UC();
    reduce_type_S();
    reduce_type_US();
    reduce_type_I();
    reduce_type_UI();
    reduce_type_UL();
    reduce_type_F();
    reduce_type_LD();
    if (MYTHREAD == 0)
        printf("test_coll: %d collective calls checked with %d threads\n", call_count, THREADS);
    return 0;
}
