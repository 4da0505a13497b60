/* SPDX-License-Identifier: MIT */
/*
 * atomic.c -- UPC 1.3 atomics and the MuPC-style compare-and-swap family
 * (the MuPC report §4.4.10).
 *
 * The target thread applies every atomic operation on its data under its
 * progress lock: requests from other threads in its ATOMIC handler, its
 * own directly.  One request, one reply carrying the old value (up to the
 * 16 bytes of a pointer-to-shared in the reply's two words).
 *
 * With every thread of the job on one node and sharing memory (shm), an
 * operation on a value of at most 8 bytes is instead a processor atomic
 * (compare-and-swap) on the mapping, by the calling thread.  The choice is
 * made once for the job and the type size, so the two paths never meet on
 * one domain: every domain spans all threads, and so do the MuPC calls.
 */
#include "base/job.h"
#include "base/atomic_ops.h"
#include "mem/bounds.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "base/gasp_hooks.h"
#include "transport/node.h"
#include "cache/rcache.h"
#include "transport/rendezvous.h"
#include "transport/request.h"
#include "transport/segment.h"
#include "upc_atomic.h"

#include <stdlib.h>
#include <string.h>

#define DOMAIN_MAGIC 0x41544f4du /* "ATOM" */

struct mupc_atomicdomain {
    unsigned magic;
    upc_type_t type;
    upc_op_t ops;
};

/* Flags of an ATOMIC message: type in the low byte, operation bit above. */
static uint16_t pack_flags(int type, int op)
{
    return (uint16_t)(type | (__builtin_ctz((unsigned)op) << 8));
}

static void mupci_handle_ATOMIC(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    int type = m->flags & 0xff, op = 1 << (m->flags >> 8);
    size_t n = mupci_atomic_type_size(type);
    if (!n || !mupci_atomic_op_allowed(type, op) || len != 2 * n ||
        !mupci_segment_range_ok(m->offset, n))
        mupci_fatal("internal error: malformed atomic request from thread %d", src);
    uint64_t old[2] = {0, 0};
    const char *operands = payload;
    mupci_atomic_apply(type, op, mupci_segment_addr(m->offset), operands, operands + n, old);
    mupci_reply(src, m->op, 0, old[0], old[1]);
}

static int processor_atomics(size_t n)
{
    return mupci_node_sharing && n <= 8 && mupci_node_all_mapped();
}

/* One compare-and-swap loop per word size: the new value is the one the
 * target thread would compute (mupci_atomic_apply), so both paths give the
 * same results for every type and operation, floats included.  A failed
 * UPC_CSWAP stores the value it read: still one atomic read. */
#define PROCESSOR_ATOMIC(U)                                                                \
    do {                                                                                   \
        U *word = (U *)addr, old = __atomic_load_n(word, __ATOMIC_SEQ_CST), value;         \
        if (op != UPC_GET)                                                                 \
            do {                                                                           \
                U was;                                                                     \
                value = old;                                                               \
                mupci_atomic_apply(type, op, &value, op1, op2, &was);                      \
            } while (!__atomic_compare_exchange_n(word, &old, value, 0, __ATOMIC_SEQ_CST,  \
                                                  __ATOMIC_SEQ_CST));                      \
        if (fetch)                                                                         \
            memcpy(fetch, &old, sizeof old);                                               \
    } while (0)

static void processor_atomic(int type, int op, char *addr, size_t n, const void *op1,
                             const void *op2, void *fetch)
{
    if (n == 4)
        PROCESSOR_ATOMIC(uint32_t);
    else
        PROCESSOR_ATOMIC(uint64_t);
}

/* The operation itself; arguments already checked. */
static void send_atomic(int type, int op, mupc_ptr_t target, const void *op1, const void *op2,
                        void *fetch)
{
    size_t n = mupci_atomic_type_size(type);
    if (processor_atomics(n)) {
        processor_atomic(type, op, mupci_node_segment((int)target.thread) + target.addr, n, op1,
                         op2, fetch);
        return;
    }
    char operands[32] = {0}; /* two values of at most 16 bytes */
    if (op1)
        memcpy(operands, op1, n);
    if (op2)
        memcpy(operands + n, op2, n);
    mupci_msg_t m = {MUPCI_MSG_ATOMIC, pack_flags(type, op), 0, target.addr, 2 * n};
    mupci_reply_t r;
    /* In order with this thread's cached accesses to the same bytes. */
    mupci_rcache_before_write((int)target.thread, target.addr, n);
    mupci_request((int)target.thread, &m, operands, 2 * n, &r);
    if (fetch)
        memcpy(fetch, r.word, n);
}

/* One atomic operation between its GASP_MUPC_ATOMIC start and end. */
static void run_atomic(int type, int op, mupc_ptr_t target, const void *op1, const void *op2,
                       void *fetch, int is_relaxed, const char *file, int line)
{
    MUPCI_GASP_EVENT(GASP_MUPC_ATOMIC, GASP_START, 0, file, line, &target, op, type, is_relaxed);
    send_atomic(type, op, target, op1, op2, fetch);
    MUPCI_GASP_EVENT(GASP_MUPC_ATOMIC, GASP_END, 0, file, line, &target, op, type, is_relaxed);
}

static void check_target(const char *what, int type, mupc_ptr_t p, const char *file, int line)
{
    mupci_upc_thread_only(what, file, line);
    size_t n = mupci_atomic_type_size(type);
    if (p.thread >= (uint32_t)mupc_threads || !mupci_segment_range_ok(p.addr, n))
        mupci_fatal_at(file, line,
                       "%s: target pointer-to-shared out of range (thread %u, offset %llu); it "
                       "must point to a %s object in shared memory",
                       what, p.thread, (unsigned long long)p.addr, mupci_atomic_type_name(type));
    size_t align = n > 8 ? 8 : n;
    if (p.addr % align != 0)
        mupci_fatal_at(file, line, "%s: target offset %llu is not aligned to %zu bytes for %s",
                       what, (unsigned long long)p.addr, align, mupci_atomic_type_name(type));
    mupci_bounds_check(what, p, n, file, line);
}

/* ---- UPC 1.3 ---- */

static void check_domain(const char *what, const upc_atomicdomain_t *d, int op,
                         const void *op1, const void *op2, const char *file, int line)
{
    if (!d || d->magic != DOMAIN_MAGIC)
        mupci_fatal_at(file, line,
                       "%s: not an atomic domain (freed, or never returned by "
                       "upc_all_atomicdomain_alloc)",
                       what);
    if ((op & (op - 1)) != 0 || !(op & d->ops))
        mupci_fatal_at(file, line,
                       "%s: operation %#x (%s) is not one of the operations this domain was "
                       "created with (%#x); add it to upc_all_atomicdomain_alloc's set",
                       what, (unsigned)op, mupci_atomic_op_name(op), (unsigned)d->ops);
    int need = mupci_atomic_operands(op);
    if ((need >= 1 && !op1) || (need >= 2 && !op2))
        mupci_fatal_at(file, line, "%s: %s needs %d operand%s, but operand%d is NULL", what,
                       mupci_atomic_op_name(op), need, need > 1 ? "s" : "", op1 ? 2 : 1);
}

upc_atomicdomain_t *mupc_all_atomicdomain_alloc(upc_type_t type, upc_op_t ops,
                                                upc_atomichint_t hints, const char *file,
                                                int line)
{
    const char *what = "upc_all_atomicdomain_alloc";
    if (!mupci_atomic_type_size(type))
        mupci_fatal_at(file, line, "%s: %d is not a UPC atomic type (UPC_INT ... UPC_PTS)", what,
                       type);
    for (int bit = 1; bit <= UPC_DEC; bit <<= 1)
        if ((ops & bit) && !mupci_atomic_op_allowed(type, bit))
            mupci_fatal_at(file, line, "%s: operation %s is not defined for %s", what,
                           mupci_atomic_op_name(bit), mupci_atomic_type_name(type));
    if (ops == 0 || (ops & ~((UPC_DEC << 1) - 1)))
        mupci_fatal_at(file, line, "%s: operation set %#x is empty or has unknown bits", what,
                       (unsigned)ops);
    (void)hints; /* every operation takes the same path here */
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)type, (uint64_t)ops};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_DOMAIN_ALLOC, args, "upc_all_atomicdomain_alloc", file, line, &r);
    upc_atomicdomain_t *d = malloc(sizeof *d);
    if (!d)
        mupci_fatal_at(file, line, "%s: out of memory", what);
    *d = (upc_atomicdomain_t){DOMAIN_MAGIC, type, ops};
    return d;
}

void mupc_all_atomicdomain_free(upc_atomicdomain_t *d, const char *file, int line)
{
    if (!d)
        return;
    if (d->magic != DOMAIN_MAGIC)
        mupci_fatal_at(file, line, "upc_all_atomicdomain_free: not a live atomic domain");
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)d->type, (uint64_t)d->ops};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_DOMAIN_FREE, args, "upc_all_atomicdomain_free", file, line, &r);
    d->magic = 0;
    free(d);
}

void mupc_atomic(upc_atomicdomain_t *d, void *fetch, upc_op_t op, mupc_ptr_t target,
                 const void *op1, const void *op2, int strict, const char *file, int line)
{
    const char *what = strict ? "upc_atomic_strict" : "upc_atomic_relaxed";
    check_domain(what, d, op, op1, op2, file, line);
    check_target(what, d->type, target, file, line);
    if (strict)
        mupci_fence(file, line);
    run_atomic(d->type, op, target, op1, op2, fetch, !strict, file, line);
    if (strict)
        mupci_fence(file, line);
}

/* One operation without a domain (the Berkeley UPC atomics of
 * <bupc_extensions.h>): the same checks a domain makes, for one operation,
 * then the same path. */
void mupc_atomic_op(upc_type_t type, upc_op_t op, mupc_ptr_t target, const void *op1,
                    const void *op2, void *fetch, int strict, const char *file, int line)
{
    const char *what = strict ? "bupc_atomic (strict)" : "bupc_atomic (relaxed)";
    if (!mupci_atomic_type_size(type) || (op & (op - 1)) != 0 ||
        !mupci_atomic_op_allowed(type, op))
        mupci_fatal_at(file, line, "%s: operation %#x is not defined for type %d", what,
                       (unsigned)op, type);
    check_target(what, type, target, file, line);
    if (strict)
        mupci_fence(file, line);
    run_atomic(type, op, target, op1, op2, fetch, !strict, file, line);
    if (strict)
        mupci_fence(file, line);
}

/* ---- UPC 1.3 in translated code ----
 * There upc_atomicdomain_t * is a pointer-to-shared that every thread holds
 * alike (UPC 1.3 §7.4.2: the collective returns the same pointer on every
 * thread).  The domain is small enough to be that value: thread 0, its
 * address field a tag, the allocation's number, the operation set and the
 * type.  Every thread numbers the collective allocations alike, so any
 * thread may use a domain another passed it through shared memory; each
 * keeps which numbers are live, so a freed domain is refused. */

#define HANDLE_TAG 0x4154u /* "AT" */
#define HANDLE_SEQ_MAX 0xffffffu

static unsigned char *live_domains; /* indexed by allocation number */
static uint32_t domains_allocated;

static mupc_ptr_t domain_handle(uint32_t seq, upc_type_t type, upc_op_t ops)
{
    return (mupc_ptr_t){.addr = (uint64_t)HANDLE_TAG << 48 | (uint64_t)seq << 24 |
                                (uint64_t)(ops & 0xffff) << 8 | (uint64_t)(type & 0xff),
                        .thread = 0, .phase = 0};
}

/* The domain behind handle h, with magic 0 when h is none or freed. */
static upc_atomicdomain_t domain_of(mupc_ptr_t h)
{
    uint32_t seq = (uint32_t)(h.addr >> 24 & HANDLE_SEQ_MAX);
    if (h.thread != 0 || h.phase != 0 || h.addr >> 48 != HANDLE_TAG || seq >= domains_allocated ||
        !live_domains[seq])
        return (upc_atomicdomain_t){0, 0, 0};
    return (upc_atomicdomain_t){DOMAIN_MAGIC, (upc_type_t)(h.addr & 0xff), (upc_op_t)(h.addr >> 8 & 0xffff)};
}

mupc_ptr_t mupc_all_atomicdomain_alloc_pts(upc_type_t type, upc_op_t ops, upc_atomichint_t hints,
                                           const char *file, int line)
{
    upc_atomicdomain_t *d = mupc_all_atomicdomain_alloc(type, ops, hints, file, line);
    free(d); /* checked and agreed on by every thread: the handle carries it */
    if (domains_allocated >= HANDLE_SEQ_MAX)
        mupci_fatal_at(file, line, "upc_all_atomicdomain_alloc: more than %u domains allocated",
                       HANDLE_SEQ_MAX);
    unsigned char *grown = realloc(live_domains, domains_allocated + 1);
    if (!grown)
        mupci_fatal_at(file, line, "upc_all_atomicdomain_alloc: out of memory");
    live_domains = grown;
    live_domains[domains_allocated] = 1;
    return domain_handle(domains_allocated++, type, ops);
}

void mupc_all_atomicdomain_free_pts(mupc_ptr_t domain, const char *file, int line)
{
    if (mupc_ptr_is_null(domain))
        return;
    upc_atomicdomain_t d = domain_of(domain);
    if (d.magic != DOMAIN_MAGIC)
        mupci_fatal_at(file, line, "upc_all_atomicdomain_free: not a live atomic domain (freed twice, "
                                   "or never returned by upc_all_atomicdomain_alloc)");
    uint64_t args[MUPCI_RV_NARGS] = {(uint64_t)d.type, (uint64_t)d.ops};
    mupci_reply_t r;
    mupci_rendezvous(MUPCI_RV_DOMAIN_FREE, args, "upc_all_atomicdomain_free", file, line, &r);
    live_domains[domain.addr >> 24 & HANDLE_SEQ_MAX] = 0;
}

void mupc_atomic_pts(mupc_ptr_t domain, void *fetch, upc_op_t op, mupc_ptr_t target, const void *op1,
                     const void *op2, int strict, const char *file, int line)
{
    upc_atomicdomain_t d = domain_of(domain);
    mupc_atomic(&d, fetch, op, target, op1, op2, strict, file, line);
}

int upc_atomic_isfast(upc_type_t type, upc_op_t ops, mupc_ptr_t addr)
{
    (void)ops;
    size_t n = mupci_atomic_type_size(type);
    return n != 0 && (processor_atomics(n) || addr.thread == (uint32_t)mupc_mythread);
}

/* ---- MuPC style ---- */

/* The UPC type code of each C type of MUPC_ATOMIC_INT_TYPES. */
#define UPC_TYPE_OF(T)                                                                    \
    _Generic((T)0, int: UPC_INT, unsigned int: UPC_UINT, long: UPC_LONG,                  \
             unsigned long: UPC_ULONG, long long: UPC_INT64, unsigned long long: UPC_UINT64)

#define MUPCI_DEFINE_ATOMIC(name, T)                                                       \
    T mupc_cswap_##name(mupc_ptr_t p, T expected, T desired, const char *file, int line)   \
    {                                                                                      \
        T old;                                                                             \
        check_target("mupc_cswap_" #name, UPC_TYPE_OF(T), p, file, line);                  \
        run_atomic(UPC_TYPE_OF(T), UPC_CSWAP, p, &expected, &desired, &old, 1, file, line); \
        return old;                                                                        \
    }                                                                                      \
    T mupc_fetch_add_##name(mupc_ptr_t p, T addend, const char *file, int line)            \
    {                                                                                      \
        T old;                                                                             \
        check_target("mupc_fetch_add_" #name, UPC_TYPE_OF(T), p, file, line);              \
        run_atomic(UPC_TYPE_OF(T), UPC_ADD, p, &addend, NULL, &old, 1, file, line); \
        return old;                                                                        \
    }
MUPC_ATOMIC_INT_TYPES(MUPCI_DEFINE_ATOMIC)
#undef MUPCI_DEFINE_ATOMIC

/* This module's message types, given to the engine before main (engine.h). */
__attribute__((constructor)) static void register_handlers(void)
{
    static const mupci_handler_entry_t handlers[] = {
    {MUPCI_MSG_ATOMIC, mupci_handle_ATOMIC},
    };
    MUPCI_HANDLERS_REGISTER(handlers);
}
