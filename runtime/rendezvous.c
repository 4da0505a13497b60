/*
 * rendezvous.c -- collective calls gathered at thread 0 (rendezvous.h).
 */
#include "rendezvous.h"
#include "engine.h"
#include "fatal.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[MUPCI_RV_NKINDS] = {
    "upc_all_alloc",     "upc_all_free",     "upc_all_lock_alloc",
    "upc_all_lock_free", "upc_all_atomicdomain_alloc", "upc_all_atomicdomain_free",
};

typedef struct arrival {
    uint64_t kind, line, args[2];
} arrival_t;

/* Thread 0: one pending collective call, until every thread is in. */
typedef struct pending {
    uint64_t seq;
    arrival_t first; /* what the first thread to arrive passed */
    int first_thread;
    int arrived;
    uint32_t *ops; /* ops[t]: thread t's request, once arrived */
    struct pending *next;
} pending_t;

static mupci_rv_action_t actions[MUPCI_RV_NKINDS];
static pending_t *pendings; /* thread 0 only; rarely more than one */
static uint64_t calls_made;  /* this thread's collective calls so far */
static int nthreads;

void mupci_rv_init(int threads) { nthreads = threads; }

void mupci_rv_set_action(mupci_rv_kind_t kind, mupci_rv_action_t action)
{
    actions[kind] = action;
}

void mupci_rendezvous(mupci_rv_kind_t kind, const uint64_t args[2], int line,
                      mupci_reply_t *result)
{
    arrival_t a = {(uint64_t)kind, (uint64_t)line, {args[0], args[1]}};
    mupci_engine_lock();
    mupci_msg_t m = {MUPCI_MSG_RV_ARRIVE, 0, 0, calls_made++, sizeof a};
    mupci_request_locked(0, &m, &a, sizeof a, result);
    mupci_engine_unlock();
}

static pending_t *find_or_add(uint64_t seq, const arrival_t *a, int src)
{
    pending_t **at = &pendings;
    for (; *at; at = &(*at)->next)
        if ((*at)->seq == seq)
            return *at;
    pending_t *p = calloc(1, sizeof *p);
    uint32_t *ops = calloc((size_t)nthreads, sizeof *ops);
    if (!p || !ops)
        mupci_fatal("out of memory for a collective call");
    p->seq = seq;
    p->first = *a;
    p->first_thread = src;
    p->ops = ops;
    *at = p;
    return p;
}

static void remove_pending(pending_t *p)
{
    pending_t **at = &pendings;
    while (*at != p)
        at = &(*at)->next;
    *at = p->next;
    free(p->ops);
    free(p);
}

static void mismatch(const pending_t *p, const arrival_t *a, int src) __attribute__((noreturn));
static void mismatch(const pending_t *p, const arrival_t *a, int src)
{
    const arrival_t *f = &p->first;
    const char *fk = f->kind < MUPCI_RV_NKINDS ? kind_names[f->kind] : "?";
    const char *ak = a->kind < MUPCI_RV_NKINDS ? kind_names[a->kind] : "?";
    mupci_fatal_plain("collective call number %llu differs between threads: thread %d called "
                      "%s(%#llx, %#llx) at line %llu, thread %d called %s(%#llx, %#llx) at "
                      "line %llu; every thread must make the same collective calls, with the "
                      "same arguments, in the same order",
                      (unsigned long long)p->seq + 1, p->first_thread, fk,
                      (unsigned long long)f->args[0], (unsigned long long)f->args[1],
                      (unsigned long long)f->line, src, ak, (unsigned long long)a->args[0],
                      (unsigned long long)a->args[1], (unsigned long long)a->line);
}

void mupci_handle_RV_ARRIVE(int src, const mupci_msg_t *m, const void *payload, size_t len)
{
    arrival_t a;
    if (len != sizeof a || mupc_mythread != 0)
        mupci_fatal("internal error: malformed collective arrival from thread %d", src);
    memcpy(&a, payload, sizeof a);
    pending_t *p = find_or_add(m->offset, &a, src);
    if (a.kind != p->first.kind || a.args[0] != p->first.args[0] ||
        a.args[1] != p->first.args[1])
        mismatch(p, &a, src);
    p->ops[src] = m->op;
    if (++p->arrived < nthreads)
        return;
    mupci_reply_t out = {{0, 0}, 0};
    if (actions[a.kind])
        actions[a.kind](a.args, &out);
    for (int t = 0; t < nthreads; t++)
        mupci_reply(t, p->ops[t], out.status, out.word[0], out.word[1]);
    mupci_engine_flush_all();
    remove_pending(p);
}
