/* SPDX-License-Identifier: MIT */
/*
 * segment.c -- mapping the shared segment and placing static shared data.
 */
#define _GNU_SOURCE
#include "transport/segment.h"
#include "base/fatal.h"
#include "mupc.h"
#include "transport/node.h"
#include "base/pts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

char *mupci_segment_base;
size_t mupci_segment_bytes;
size_t mupci_segment_static_end;
int mupci_segment_fd = -1;
void *mupci_segment_ctl;

static mupc_static_t *statics;      /* registration order, newest last */
static mupc_static_t **statics_tail = &statics;
static int started;
static int object_gaps; /* mupci_segment_set_object_gaps */

void mupci_segment_set_object_gaps(int on) { object_gaps = on; }

void mupc_static_register(mupc_static_t *obj)
{
    if (started)
        mupci_fatal_plain("static shared object '%s' registered after start-up; register it "
                          "from a constructor (MUPC_SHARED_ARRAY does this)",
                          obj->name ? obj->name : "?");
    /* a tentative definition shared by several translation units is
     * registered by each of them: one object, registered once */
    for (mupc_static_t *o = statics; o; o = o->next)
        if (o == obj)
            return;
    obj->next = NULL;
    *statics_tail = obj;
    statics_tail = &obj->next;
}

static void (**initializers)(void);
static size_t ninitializers;

void mupc_static_init(void (*init)(void))
{
    void (**grown)(void) = realloc(initializers, (ninitializers + 1) * sizeof *grown);
    if (!grown)
        mupci_fatal_plain("out of memory registering a static shared initializer");
    initializers = grown;
    initializers[ninitializers++] = init;
}

void mupci_segment_run_initializers(void)
{
    for (size_t i = 0; i < ninitializers; i++)
        initializers[i]();
}

static int required_threads; /* mupcc -T N, or 0 */
static const char *required_by;

void mupc_static_threads(int threads, const char *file)
{
    if (required_threads && required_threads != threads)
        mupci_fatal_plain("%s was compiled for THREADS = %d but %s for THREADS = %d (mupcc -T); "
                          "compile every file with the same -T",
                          required_by, required_threads, file, threads);
    required_threads = threads;
    required_by = file;
}

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

static void place_statics(int threads)
{
    size_t at = MUPCI_SEGMENT_RESERVED;
    for (mupc_static_t *s = statics; s; s = s->next) {
        at = align_up(at, 16);
        size_t nelems = s->per_thread ? s->nelems * (size_t)threads : s->nelems;
        size_t bytes = mupci_pts_local_bytes(nelems, s->elemsize, s->blocksize, threads);
        if (bytes > mupci_segment_bytes || at > mupci_segment_bytes - bytes)
            mupci_fatal_plain("static shared object '%s' needs %zu bytes per thread beyond "
                              "offset %zu, but segment_size is %zu; raise segment_size in "
                              "mupc.conf (or MUPC_SEGMENT_SIZE)",
                              s->name ? s->name : "?", bytes, at, mupci_segment_bytes);
        s->base = (mupc_ptr_t){at, 0, 0};
        at += bytes;
        /* checks = bounds: a gap of one element after each object, so the
         * element just past its end (a[N*THREADS]) is in no object */
        if (object_gaps)
            at += align_up(s->elemsize ? s->elemsize : 1, 16);
    }
    mupci_segment_static_end = align_up(at, 64);
}

/* The segment and its control block in one memfd, which the threads of
 * the node can open through /proc/PID/fd (node.c).  Why a memfd and not an
 * MPI-3 shared window or a /dev/shm file: a memfd is charged to memory,
 * not to /dev/shm (often 64 MiB in containers), its pages are only
 * allocated when touched, as with the private mapping, and each process
 * creates its own, so segments stay per thread and no collective is
 * needed before the statics are placed.  NULL when it cannot be made. */
static char *map_shareable(size_t size)
{
    int fd = memfd_create("mupc-segment", MFD_CLOEXEC);
    if (fd < 0)
        return NULL;
    if (ftruncate(fd, (off_t)(size + MUPCI_NODE_CTL_BYTES)) != 0) {
        close(fd);
        return NULL;
    }
    void *p = mmap(NULL, size + MUPCI_NODE_CTL_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        close(fd);
        return NULL;
    }
    mupci_segment_fd = fd;
    return p;
}

static char *map_private(size_t size)
{
    void *p = mmap(NULL, size + MUPCI_NODE_CTL_BYTES, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void mupci_segment_init(size_t size, int threads, int shareable)
{
    if (required_threads && required_threads != threads)
        mupci_fatal_plain("%s was compiled for THREADS = %d (mupcc -T %d) but the job has %d "
                          "threads: run it with mupcrun -n %d, or compile it without -T",
                          required_by, required_threads, required_threads, threads, required_threads);
    /* Whole pages: the mapping has them anyway, and cache lines (at most
     * 2K, aligned) then never straddle the segment's end. */
    size = align_up(size, 4096);
    mupci_segment_bytes = size;
    char *p = shareable ? map_shareable(size) : NULL;
    if (!p)
        p = map_private(size);
    if (!p)
        mupci_fatal_plain("cannot map a %zu-byte shared segment (%s); set a smaller "
                          "segment_size in mupc.conf (or MUPC_SEGMENT_SIZE)",
                          size, strerror(errno));
    mupci_segment_base = p;
    mupci_segment_ctl = p + size;
    /* The probe other processes of the node read after mapping it. */
    *(int64_t *)mupci_segment_ctl = (int64_t)getpid();
    place_statics(threads);
    started = 1;
}

void mupci_segment_finalize(void)
{
    if (mupci_segment_base)
        munmap(mupci_segment_base, mupci_segment_bytes + MUPCI_NODE_CTL_BYTES);
    if (mupci_segment_fd >= 0)
        close(mupci_segment_fd);
    mupci_segment_base = NULL;
    mupci_segment_fd = -1;
}

const mupc_static_t *mupci_segment_static_below(uint64_t offset)
{
    const mupc_static_t *below = NULL;
    for (const mupc_static_t *s = statics; s && s->base.addr <= offset; s = s->next)
        below = s;
    return below;
}

size_t mupc_segment_size(void) { return mupci_segment_bytes; }

void *mupc_local_addr(mupc_ptr_t p)
{
    if ((int)p.thread != mupc_mythread || !mupci_segment_range_ok(p.addr, 0))
        return NULL;
    return mupci_segment_addr(p.addr);
}
