/* SPDX-License-Identifier: MIT */
/*
 * direct.c -- on-node single-copy reads with process_vm_readv (direct.h).
 */
#define _GNU_SOURCE
#include "transport/direct.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "transport/node.h"
#include "transport/segment.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <unistd.h>

typedef struct {
    int64_t pid;
    uint64_t base;    /* the segment's address in that process */
    int64_t readable; /* the probe read succeeded (set locally) */
} peer_t;

/* A queued non-blocking read.  Pieces are claimed under queue_lock and
 * copied without it, so the communication pthread can copy a whole
 * transfer in one kernel call while a waiting computation pthread claims
 * what is left. */
typedef struct {
    char *dst;
    int thread;
    uint64_t offset;
    size_t n;
    size_t claimed; /* bytes handed out to copiers */
    size_t copied;  /* bytes copied */
    mupci_op_t *op; /* counted down once the whole job is copied */
} job_t;

static peer_t *peers;
static int nthreads, refused;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static job_t **jobs; /* oldest first; a job stays until it is copied */
static size_t job_count, job_cap;

/* One kernel call; the count of bytes copied, or -1 with errno. */
static ssize_t read_from(int thread, void *dst, uint64_t offset, size_t n)
{
    struct iovec local = {dst, n};
    struct iovec remote = {(void *)(uintptr_t)(peers[thread].base + offset), n};
    return process_vm_readv((pid_t)peers[thread].pid, &local, 1, &remote, 1, 0);
}

static int probe(int thread)
{
    char byte[MUPCI_SEGMENT_RESERVED];
    return read_from(thread, byte, 0, sizeof byte) == (ssize_t)sizeof byte;
}

void mupci_direct_init(int enabled, int mythread, int threads)
{
    peers = calloc((size_t)threads, sizeof *peers);
    if (!peers)
        mupci_fatal("out of memory");
    /* Let the other ranks of the job read this process even under Yama's
     * ptrace_scope 1, where only ancestors may (MPICH and Open MPI do the
     * same for their single-copy transfers). */
    if (enabled)
        (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    peer_t me = {(int64_t)getpid(), (uint64_t)(uintptr_t)mupci_segment_base, 0};
    mupci_job_allgather(&me, peers, (int)sizeof me);
    nthreads = threads;
    for (int t = 0; t < threads; t++) {
        /* a thread whose segment is mapped here (shm) needs no kernel call */
        int neighbour = t != mythread && mupci_node_of(t) == mupci_node_of(mythread) &&
                        !mupci_node_segment(t);
        peers[t].readable = enabled && neighbour && probe(t);
        refused += enabled && neighbour && !peers[t].readable;
    }
}

int mupci_direct_peers(int *refused_out)
{
    int readable = 0;
    for (int t = 0; t < nthreads; t++)
        readable += peers[t].readable;
    *refused_out = refused;
    return readable;
}

void mupci_direct_finalize(void)
{
    free(peers);
    for (size_t i = 0; i < job_count; i++)
        free(jobs[i]);
    free(jobs);
    peers = NULL;
    jobs = NULL;
    job_count = job_cap = 0;
}

int mupci_direct_usable(int thread) { return peers[thread].readable; }

static size_t copy_piece(char *dst, int thread, uint64_t offset, size_t n)
{
    ssize_t got = read_from(thread, dst, offset, n);
    if (got <= 0)
        mupci_fatal("internal error: reading %zu bytes of thread %d's segment at offset %llu "
                    "failed (%s), though the start-up probe could; set direct_gets = off in "
                    "mupc.conf to use messages",
                    n, thread, (unsigned long long)offset, got < 0 ? strerror(errno) : "no bytes");
    return (size_t)got;
}

void mupci_direct_read(void *dst, int thread, uint64_t offset, size_t n)
{
    for (size_t done = 0; done < n;)
        done += copy_piece((char *)dst + done, thread, offset + done, n - done);
}

void mupci_direct_read_async(void *dst, int thread, uint64_t offset, size_t n, mupci_op_t *op)
{
    job_t *j = malloc(sizeof *j);
    if (!j)
        mupci_fatal("out of memory");
    *j = (job_t){dst, thread, offset, n, 0, 0, op};
    MUPCI_PT(pthread_mutex_lock(&queue_lock));
    if (job_count == job_cap) {
        job_cap = job_cap ? 2 * job_cap : 16;
        jobs = realloc(jobs, job_cap * sizeof *jobs);
        if (!jobs)
            mupci_fatal("out of memory");
    }
    jobs[job_count] = j;
    __atomic_store_n(&job_count, job_count + 1, __ATOMIC_RELAXED); /* read unlocked below */
    MUPCI_PT(pthread_mutex_unlock(&queue_lock));
}

/* Queue lock held: the oldest job with bytes left to claim. */
static job_t *unclaimed(void)
{
    for (size_t i = 0; i < job_count; i++)
        if (jobs[i]->claimed < jobs[i]->n)
            return jobs[i];
    return NULL;
}

/* Queue lock held: a job whose last piece was copied leaves the queue. */
static void retire(job_t *j)
{
    for (size_t i = 0; i < job_count; i++)
        if (jobs[i] == j) {
            memmove(jobs + i, jobs + i + 1, (job_count - i - 1) * sizeof *jobs);
            __atomic_store_n(&job_count, job_count - 1, __ATOMIC_RELAXED);
            break;
        }
    mupci_op_part_done(j->op);
    free(j);
}

int mupci_direct_progress(size_t piece)
{
    if (__atomic_load_n(&job_count, __ATOMIC_RELAXED) == 0)
        return 0;
    MUPCI_PT(pthread_mutex_lock(&queue_lock));
    job_t *j = unclaimed();
    size_t at = 0, len = 0;
    if (j) {
        at = j->claimed;
        len = j->n - at < piece ? j->n - at : piece;
        j->claimed += len;
    }
    MUPCI_PT(pthread_mutex_unlock(&queue_lock));
    if (!j)
        return 0;
    mupci_direct_read(j->dst + at, j->thread, j->offset + at, len);
    MUPCI_PT(pthread_mutex_lock(&queue_lock));
    j->copied += len;
    if (j->copied == j->n)
        retire(j);
    MUPCI_PT(pthread_mutex_unlock(&queue_lock));
    return 1;
}
