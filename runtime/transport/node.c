/* SPDX-License-Identifier: MIT */
/*
 * node.c -- the node layout and the mappings of on-node segments (node.h).
 */
#define _GNU_SOURCE
#include "transport/node.h"
#include "base/wake.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "mupc_ext.h"
#include "transport/segment.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What each thread tells the others at start-up. */
typedef struct {
    int64_t pid;
    uint64_t bytes; /* segment size */
    int32_t fd;     /* its memfd, or -1 */
    int32_t real;   /* lowest rank on its real node */
    int32_t shm, simulate_nodes; /* its settings */
    int32_t unused;
} card_t;

char **mupci_node_segments;
int mupci_node_sharing;
#ifdef MUPCI_NODE_TSAN
_Atomic int mupci_node_fence_word;
#endif
static int nthreads, me, nnodes;
static int *node_of;      /* [thread] */
static int *mapped_count; /* [thread]: the size of that thread's group */
static int *group, group_size;
static int *leader_of; /* [thread]: the lowest thread of its group */
static char *fallback; /* why this node uses messages after all, or NULL */

/* A machine is named by its host name and its boot id: the boot id tells
 * apart two machines given the same host name (cloned images), the host
 * name two containers of one kernel.  The real key of a thread is the
 * lowest thread of its machine. */
typedef struct {
    char host[64];
    char boot[40];
} machine_t;

static int real_key = -1;

static void my_machine(machine_t *m)
{
    memset(m, 0, sizeof *m);
    if (gethostname(m->host, sizeof m->host - 1) != 0)
        strcpy(m->host, "?");
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(m->boot, sizeof m->boot, f))
            m->boot[0] = 0;
        fclose(f);
    }
}

int mupci_node_discover(void)
{
    int threads = 0, mythread = 0, local = 0;
    MUPCI_MPI(MPI_Comm_size(mupci_comm, &threads));
    MUPCI_MPI(MPI_Comm_rank(mupci_comm, &mythread));
    machine_t mine, *all = calloc((size_t)threads, sizeof *all);
    if (!all)
        mupci_fatal("out of memory");
    my_machine(&mine);
    mupci_job_allgather(&mine, all, (int)sizeof mine);
    real_key = -1;
    for (int t = 0; t < threads; t++)
        if (memcmp(&all[t], &mine, sizeof mine) == 0) {
            if (real_key < 0)
                real_key = t;
            local++;
        }
    free(all);
    return local;
}

static int real_node_key(void)
{
    if (real_key < 0)
        mupci_node_discover();
    return real_key;
}

/* Settings every thread must share: the layout is computed by each. */
static void check_same_settings(const card_t *cards)
{
    for (int t = 1; t < nthreads; t++) {
        if (cards[t].shm != cards[0].shm || cards[t].simulate_nodes != cards[0].simulate_nodes)
            mupci_fatal_plain("the node settings differ between threads: thread 0 has shm = %s, "
                              "simulate_nodes = %d, thread %d shm = %s, simulate_nodes = %d; "
                              "give every thread the same mupc.conf and MUPC_SHM, "
                              "MUPC_SIMULATE_NODES",
                              cards[0].shm ? "on" : "off", cards[0].simulate_nodes, t,
                              cards[t].shm ? "on" : "off", cards[t].simulate_nodes);
        if (cards[t].bytes != cards[0].bytes)
            mupci_fatal_plain("segment_size differs between threads: thread 0 has %llu bytes, "
                              "thread %d %llu; give every thread the same mupc.conf and "
                              "MUPC_SEGMENT_SIZE",
                              (unsigned long long)cards[0].bytes, t,
                              (unsigned long long)cards[t].bytes);
    }
}

static void note_fallback(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note_fallback(const char *fmt, ...)
{
    if (fallback)
        return;
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&fallback, fmt, ap) < 0)
        fallback = NULL;
    va_end(ap);
}

/* Map thread t's memfd through /proc (same user, no ptrace attach needed,
 * so Yama's ptrace_scope does not matter) and check its pid word. */
static char *map_peer(int t, const card_t *c)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%lld/fd/%d", (long long)c->pid, c->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        note_fallback("cannot open thread %d's segment (%s): %s", t, path, strerror(errno));
        return NULL;
    }
    size_t len = (size_t)c->bytes + MUPCI_NODE_CTL_BYTES;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        note_fallback("cannot map thread %d's segment: %s", t, strerror(errno));
        return NULL;
    }
    if (*(volatile int64_t *)((char *)p + c->bytes) != c->pid) {
        munmap(p, len);
        note_fallback("thread %d's segment is not the one it announced (pid namespaces?)", t);
        return NULL;
    }
    return p;
}

/* Map every other thread of this node; 1 if all of them could be. */
static int map_node(const card_t *cards)
{
    int ok = 1;
    for (int t = 0; t < nthreads; t++) {
        if (t == me || node_of[t] != node_of[me])
            continue;
        if (cards[t].fd < 0 || cards[me].fd < 0) {
            note_fallback("thread %d's segment could not be made shareable (memfd_create)",
                          cards[t].fd < 0 ? t : me);
            ok = 0;
            continue;
        }
        mupci_node_segments[t] = map_peer(t, &cards[t]);
        ok &= mupci_node_segments[t] != NULL;
    }
    return ok;
}

static void unmap_peers(void)
{
    for (int t = 0; t < nthreads; t++)
        if (t != me && mupci_node_segments[t]) {
            munmap(mupci_node_segments[t], mupci_segment_bytes + MUPCI_NODE_CTL_BYTES);
            mupci_node_segments[t] = NULL;
        }
}

/* Every thread of the node keeps its mappings only if all of them could
 * map all the others: the group is the same seen from each member. */
static int node_agrees(int ok)
{
    int *oks = calloc((size_t)nthreads, sizeof *oks), all = ok;
    if (!oks)
        mupci_fatal("out of memory");
    mupci_job_allgather(&ok, oks, (int)sizeof ok);
    for (int t = 0; t < nthreads; t++)
        if (node_of[t] == node_of[me] && !oks[t])
            all = 0;
    free(oks);
    return all;
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        mupci_fatal("out of memory");
    return p;
}

/* A group is a whole node or a single thread (node_agrees), so a thread
 * leads its group when it is alone in it or the first of its node. */
static void find_leaders(void)
{
    int *first = xcalloc((size_t)nnodes, sizeof *first);
    for (int n = 0; n < nnodes; n++)
        first[n] = -1;
    leader_of = xcalloc((size_t)nthreads, sizeof *leader_of);
    for (int t = 0; t < nthreads; t++) {
        if (first[node_of[t]] < 0)
            first[node_of[t]] = t;
        leader_of[t] = mapped_count[t] > 1 ? first[node_of[t]] : t;
    }
    free(first);
}

static int first_of_node(int n)
{
    int t = 0;
    while (node_of[t] != n)
        t++;
    return t;
}

void mupci_node_init(int shm, int simulate_nodes, int mythread, int threads)
{
    me = mythread;
    nthreads = threads;
    card_t mine = {(int64_t)getpid(), (uint64_t)mupci_segment_bytes, mupci_segment_fd,
                   real_node_key(), shm, simulate_nodes, 0};
    card_t *cards = xcalloc((size_t)threads, sizeof *cards);
    mupci_job_allgather(&mine, cards, (int)sizeof mine);
    check_same_settings(cards);
    int *real = xcalloc((size_t)threads, sizeof *real);
    for (int t = 0; t < threads; t++)
        real[t] = cards[t].real;
    node_of = xcalloc((size_t)threads, sizeof *node_of);
    nnodes = mupci_node_layout(real, threads, simulate_nodes, node_of);
    free(real);

    mupci_node_segments = xcalloc((size_t)threads, sizeof *mupci_node_segments);
    mupci_node_segments[me] = mupci_segment_base;
    int ok = shm ? map_node(cards) : 1;
    if (shm && !node_agrees(ok)) {
        unmap_peers();
        note_fallback("another thread of this node could not map the others' segments");
    }
    free(cards);

    group = xcalloc((size_t)threads, sizeof *group);
    group_size = 0;
    for (int t = 0; t < threads; t++)
        if (mupci_node_segments[t])
            group[group_size++] = t;
    mupci_node_sharing = group_size > 1;
    mapped_count = xcalloc((size_t)threads, sizeof *mapped_count);
    mupci_job_allgather(&group_size, mapped_count, (int)sizeof group_size);
    find_leaders();
    if (fallback && first_of_node(node_of[me]) == me) /* one report per node */
        fprintf(stderr, "mupc: thread %d: node %d: its threads reach each other by messages, "
                "not shared memory: %s (shm = off silences this)\n",
                me, node_of[me], fallback);
}

void mupci_node_finalize(void)
{
    if (mupci_node_segments)
        unmap_peers();
    free(mupci_node_segments);
    free(node_of);
    free(mapped_count);
    free(group);
    free(leader_of);
    free(fallback);
    mupci_node_segments = NULL;
    node_of = mapped_count = group = leader_of = NULL;
    mupci_node_sharing = 0;
    fallback = NULL;
}

int mupci_node_of(int thread) { return node_of[thread]; }

int mupci_node_count(void) { return nnodes; }

const int *mupci_node_group(int *count)
{
    *count = group_size;
    return group;
}

int mupci_node_leader(int thread) { return leader_of[thread]; }

int mupci_node_all_mapped(void) { return group_size == nthreads; }

void *mupci_node_ctl(int thread)
{
    char *segment = mupci_node_segments[thread];
    return segment ? segment + mupci_segment_bytes + MUPCI_NODE_CTL_USER : NULL;
}

_Static_assert(MUPCI_NODE_CTL_BELL >= sizeof(int64_t) &&
                   MUPCI_NODE_CTL_BELL + sizeof(mupci_bell_t) <= MUPCI_NODE_CTL_USER,
               "the message bell sits between the pid word and mupci_node_ctl's part");

struct mupci_bell *mupci_node_message_bell(int thread)
{
    char *segment = mupci_node_sharing ? mupci_node_segments[thread] : NULL;
    return segment ? (struct mupci_bell *)(segment + mupci_segment_bytes + MUPCI_NODE_CTL_BELL)
                   : NULL;
}

_Static_assert(MUPCI_NODE_CTL_WAKE_PROBE >= MUPCI_NODE_CTL_BELL + sizeof(mupci_bell_t) &&
                   MUPCI_NODE_CTL_WAKE_PROBE % 8 == 0 &&
                   MUPCI_NODE_CTL_WAKE_PROBE + 2 * sizeof(int64_t) <= MUPCI_NODE_CTL_USER,
               "the wake-up probe sits between the message bell and mupci_node_ctl's part");

/* The members of the node's group pair up in order (0-1, 2-3, ...) and
 * wake each other on the probe words of the pair's first thread: what a
 * waiter on this node pays for a wake-up by another process.  A thread
 * without a partner (an odd group, or a node of one) measures two of its
 * own pthreads, which is cheaper: no change of address space. */
int64_t mupci_node_measure_wake_ns(int rounds, int *across)
{
    *across = 0;
    int at = 0;
    while (at < group_size && group[at] != me)
        at++;
    int partner = at ^ 1;
    if (!mupci_node_sharing || at == group_size || partner >= group_size)
        return mupci_measure_wake_ns(rounds);
    int first = at < partner ? group[at] : group[partner];
    char *probe = mupci_node_segments[first] + mupci_segment_bytes + MUPCI_NODE_CTL_WAKE_PROBE;
    int64_t ns = mupci_wake_pingpong((_Atomic uint32_t *)probe,
                                     (_Atomic int64_t *)(probe + sizeof(int64_t)), me == first,
                                     rounds);
    if (ns <= 0)
        return mupci_measure_wake_ns(rounds);
    *across = 1;
    return ns;
}

void *mupci_node_lock_records(int thread)
{
    char *segment = mupci_node_segments[thread];
    return segment ? segment + mupci_segment_bytes + MUPCI_NODE_CTL_PAGE : NULL;
}

/* "0-3" or "0,2,5" for the threads of node n. */
static void print_threads(FILE *out, int n)
{
    const char *sep = "";
    for (int t = 0; t < nthreads; t++) {
        if (node_of[t] != n)
            continue;
        int last = t;
        while (last + 1 < nthreads && node_of[last + 1] == n)
            last++;
        if (last > t + 1)
            fprintf(out, "%s%d-%d", sep, t, last);
        else if (last == t + 1)
            fprintf(out, "%s%d,%d", sep, t, last);
        else
            fprintf(out, "%s%d", sep, t);
        sep = ",";
        t = last;
    }
}

void mupci_node_describe(FILE *out)
{
    for (int n = 0; n < nnodes; n++) {
        int first = first_of_node(n), size = 0;
        for (int t = 0; t < nthreads; t++)
            size += node_of[t] == n;
        fprintf(out, "mupc: node %d: thread%s ", n, size > 1 ? "s" : "");
        print_threads(out, n);
        if (size == 1)
            fprintf(out, "\n");
        else if (mapped_count[first] == size)
            fprintf(out, " (shared memory)\n");
        else
            fprintf(out, " (messages)\n");
    }
}

/* ---- public (mupc_ext.h) ---- */

int mupc_node_count(void) { return nnodes; }

int mupc_node_of(int thread) { return thread >= 0 && thread < nthreads ? node_of[thread] : -1; }

void mupc_describe_nodes(void *out) { mupci_node_describe(out); }
