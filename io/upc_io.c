/* SPDX-License-Identifier: MIT */
/*
 * upc_io.c -- UPC-IO (<upc_io.h>, UPC Optional Library Specifications 1.3
 * §7.8) over MPI-IO; io/README.md has the design.  In short:
 *
 * - One MPI file per upc_file_t, opened on all threads (mupci_comm).  The
 *   file pointers are ours: each thread keeps its individual pointer and
 *   a copy of the common one (every call that moves it is collective and
 *   its arguments single-valued, so the copies agree); every transfer is
 *   an explicit-offset MPI call.
 * - Every call first meets the other threads at thread 0 (a gathered
 *   rendezvous): the single-valued arguments are compared there and a
 *   mismatch ends the job naming both calls and where they were made.
 *   Once a thread has the answer, every thread is inside the call, so it
 *   may make blocking MPI collective calls (MPI-IO's) holding the
 *   progress lock (MPI is initialized MPI_THREAD_SERIALIZED) without
 *   another thread waiting for a service only this thread's pthreads give.
 * - Contiguous transfers (the _local forms, and _shared with individual
 *   pointers, staged through a private buffer) are one
 *   MPI_File_{read,write}_at_all; scattered ones (_shared with the common
 *   pointer, list I/O) set a file view built from the thread's pieces and
 *   make one collective call with an hindexed memory type.
 * - The asynchronous forms run the transfer at once and keep its result
 *   for upc_all_fwait_async / upc_all_ftest_async (the completion's
 *   synchronization flags apply there).
 */
#include "upc_io.h"

#include "upc/barrier.h"
#include "transport/engine.h"
#include "base/fatal.h"
#include "transport/rendezvous.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define IO_MAGIC 0x75706369u /* "upci" */
#define NAME_MAX_CHECKED 1024 /* bytes of fname compared between threads */
#define PIECE_MAX (1 << 30)   /* bytes one hindexed entry describes */

/* Which function, for the rendezvous (its hidden first argument). */
enum {
    CALL_OPEN = 1, CALL_CLOSE, CALL_SYNC, CALL_SEEK, CALL_SET_SIZE, CALL_GET_SIZE,
    CALL_PREALLOCATE, CALL_FCNTL, CALL_READ_LOCAL, CALL_WRITE_LOCAL, CALL_READ_SHARED,
    CALL_WRITE_SHARED, CALL_READ_LIST_LOCAL, CALL_WRITE_LIST_LOCAL, CALL_READ_LIST_SHARED,
    CALL_WRITE_LIST_SHARED, CALL_WAIT, CALL_TEST
};

struct mupc_io_file {
    uint32_t magic;
    uint64_t id;   /* the how-manieth open: the same number on every thread */
    MPI_File fh;
    int flags;     /* as opened, with the file-pointer kind and CA as now */
    upc_off_t ind_fp, common_fp;
    char *name;
    size_t nhints;
    upc_hint_t *hints; /* owned copies */
    int async_pending;
    upc_off_t async_result;
    int async_errno;
    upc_flag_t async_flags; /* its OUT_ flags, applied at completion */
};

static uint64_t opens; /* files opened so far (every thread counts alike) */

/* ---------------------------------------------------------------- */
/* Helpers                                                           */
/* ---------------------------------------------------------------- */

static uint64_t hash_str(uint64_t h, const char *s)
{
    if (!s)
        return h * 1099511628211ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (h ^ 0xff) * 1099511628211ull; /* end of string */
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        mupci_fatal("out of memory for %zu bytes of UPC-IO state", n);
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

static int fp_common(const upc_file_t *fd) { return (fd->flags & UPC_COMMON_FP) != 0; }

static void check_fd(const upc_file_t *fd, const char *what, const char *file, int line)
{
    if (!fd || fd->magic != IO_MAGIC)
        mupci_fatal_at(file, line,
                       "%s: the file handle %p is not an open UPC-IO file (closed already, "
                       "or upc_all_fopen returned NULL)",
                       what, (const void *)fd);
}

static void check_sync_flags(upc_flag_t flags, const char *what, const char *file, int line)
{
    const int in_flags = UPC_IN_NOSYNC | UPC_IN_MYSYNC | UPC_IN_ALLSYNC;
    const int out_flags = UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC;
    int in = flags & in_flags, out = flags & out_flags;
    if ((in & (in - 1)) != 0 || (out & (out - 1)) != 0 || (flags & ~(in_flags | out_flags)) != 0)
        mupci_fatal_at(file, line,
                       "%s: synchronization flags %#x: give at most one of UPC_IN_NOSYNC, "
                       "UPC_IN_MYSYNC, UPC_IN_ALLSYNC and at most one of UPC_OUT_NOSYNC, "
                       "UPC_OUT_MYSYNC, UPC_OUT_ALLSYNC, OR-ed together",
                       what, (unsigned)flags);
}

/* Meet the other threads (every UPC-IO call starts here). */
static void meet(mupci_rv_kind_t kind, uint64_t call, uint64_t a1, uint64_t a2, uint64_t a3,
                 uint64_t a4, uint64_t a5, const char *what, const char *file, int line)
{
    uint64_t args[MUPCI_RV_NARGS] = {call, a1, a2, a3, a4, a5};
    mupci_reply_t r;
    mupci_rendezvous(kind, args, what, file, line, &r);
}

/* UPC_IN_MYSYNC and UPC_IN_ALLSYNC: a barrier (with its fence), so every
 * earlier write to the data is in place; MYSYNC gets the same. */
static void sync_in(upc_flag_t flags, const char *what, const char *file, int line)
{
    if ((flags & UPC_IN_NOSYNC) == 0)
        mupci_barrier_internal(what, file, line);
}

static void sync_out(upc_flag_t flags, const char *what, const char *file, int line)
{
    if ((flags & UPC_OUT_NOSYNC) == 0)
        mupci_barrier_internal(what, file, line);
}

/* MPI calls: with the progress lock, after every queued message left. */
static void mpi_enter(void)
{
    mupci_engine_lock();
    mupci_engine_flush_all();
}

static void mpi_leave(void) { mupci_engine_unlock(); }

static int errno_of(int rc)
{
    int cls = MPI_ERR_OTHER;
    MPI_Error_class(rc, &cls);
    switch (cls) {
    case MPI_SUCCESS: return 0;
    case MPI_ERR_NO_SUCH_FILE: return ENOENT;
    case MPI_ERR_FILE_EXISTS: return EEXIST;
    case MPI_ERR_ACCESS: return EACCES;
    case MPI_ERR_NO_SPACE: return ENOSPC;
    case MPI_ERR_QUOTA: return EDQUOT;
    case MPI_ERR_READ_ONLY: return EROFS;
    case MPI_ERR_AMODE: return EINVAL;
    case MPI_ERR_BAD_FILE: return ENOENT;
    case MPI_ERR_FILE_IN_USE: return EBUSY;
    case MPI_ERR_UNSUPPORTED_OPERATION: return ENOTSUP;
    case MPI_ERR_ARG: return EINVAL;
    default: return EIO;
    }
}

/* A failure of the file system in the middle of a collective transfer:
 * the threads no longer agree on what happened, so the job ends. */
static void io_failed(const upc_file_t *fd, int rc, const char *mpi_call, const char *what,
                      const char *file, int line) __attribute__((noreturn));
static void io_failed(const upc_file_t *fd, int rc, const char *mpi_call, const char *what,
                      const char *file, int line)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int n = 0;
    MPI_Error_string(rc, text, &n);
    mpi_leave();
    mupci_fatal_at(file, line, "%s: %s on \"%s\" failed: %s", what, mpi_call,
                   fd ? fd->name : "?", text);
}

#define IO_MPI(fd, call, what, file, line)                                     \
    do {                                                                       \
        int io_rc_ = (call);                                                   \
        if (io_rc_ != MPI_SUCCESS)                                             \
            io_failed((fd), io_rc_, #call, (what), (file), (line));            \
    } while (0)

/* ---------------------------------------------------------------- */
/* Transfers: pieces (file offset, memory address, length)           */
/* ---------------------------------------------------------------- */

typedef struct piece {
    upc_off_t off;
    char *mem;
    size_t len;
} piece_t;

typedef struct pieces {
    piece_t *v;
    size_t n, cap;
    size_t bytes;
} pieces_t;

static void pieces_add(pieces_t *p, upc_off_t off, char *mem, size_t len)
{
    if (len == 0)
        return;
    if (p->n && p->v[p->n - 1].off + (upc_off_t)p->v[p->n - 1].len == off &&
        p->v[p->n - 1].mem + p->v[p->n - 1].len == mem) {
        p->v[p->n - 1].len += len;
    } else {
        if (p->n == p->cap) {
            p->cap = p->cap ? 2 * p->cap : 16;
            p->v = realloc(p->v, p->cap * sizeof *p->v);
            if (!p->v)
                mupci_fatal("out of memory for a UPC-IO transfer list");
        }
        p->v[p->n++] = (piece_t){off, mem, len};
    }
    p->bytes += len;
}

static int by_offset(const void *a, const void *b)
{
    upc_off_t x = ((const piece_t *)a)->off, y = ((const piece_t *)b)->off;
    return x < y ? -1 : x > y;
}

/* Sorted by file offset; 0 if two pieces overlap in the file. */
static int pieces_sort(pieces_t *p)
{
    if (p->n > 1) /* none when this thread holds no block: qsort wants a real array */
        qsort(p->v, p->n, sizeof *p->v, by_offset);
    for (size_t i = 1; i < p->n; i++)
        if (p->v[i - 1].off + (upc_off_t)p->v[i - 1].len > p->v[i].off)
            return 0;
    return 1;
}

/* Reads: ROMIO's status of a collective read through a file view counts
 * the bytes asked for, not those read, and the bytes past the end of the
 * file would land in memory as whatever it fills them with.  So a read
 * asks only for what lies before the end: every thread looks at the size
 * (the same for all: no thread writes inside a collective read). */
static void pieces_clip(pieces_t *p, upc_off_t size)
{
    size_t keep = 0;
    p->bytes = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].off >= size)
            break;
        if (p->v[i].off + (upc_off_t)p->v[i].len > size)
            p->v[i].len = (size_t)(size - p->v[i].off);
        p->bytes += p->v[i].len;
        keep = i + 1;
    }
    p->n = keep;
}

/* An hindexed type over the pieces: of memory addresses (absolute, for
 * MPI_BOTTOM) or of file offsets; entries of at most PIECE_MAX bytes. */
static MPI_Datatype pieces_type(const pieces_t *p, int file_side)
{
    size_t n = 0;
    for (size_t i = 0; i < p->n; i++)
        n += (p->v[i].len + PIECE_MAX - 1) / PIECE_MAX;
    int *lens = xmalloc(n * sizeof *lens);
    MPI_Aint *disps = xmalloc(n * sizeof *disps);
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++)
        for (size_t done = 0; done < p->v[i].len; done += PIECE_MAX, k++) {
            size_t len = p->v[i].len - done < PIECE_MAX ? p->v[i].len - done : PIECE_MAX;
            lens[k] = (int)len;
            if (file_side)
                disps[k] = (MPI_Aint)(p->v[i].off + (upc_off_t)done);
            else
                MPI_Get_address(p->v[i].mem + done, &disps[k]);
        }
    MPI_Datatype t, r;
    MUPCI_MPI(MPI_Type_create_hindexed((int)n, lens, disps, MPI_BYTE, &t));
    if (file_side) { /* lower bound 0: the view starts at the file's start */
        MPI_Aint end = n ? disps[n - 1] + lens[n - 1] : 0;
        MUPCI_MPI(MPI_Type_create_resized(t, 0, end, &r));
        MPI_Type_free(&t);
        t = r;
    }
    MUPCI_MPI(MPI_Type_commit(&t));
    free(lens);
    free(disps);
    return t;
}

/* One contiguous transfer of n bytes at off (n may be 0, and may differ
 * between threads), part of a collective call every thread has met in
 * (meet), so each thread's share goes by independent I/O: an MPI
 * collective here would make every call wait for the slowest process
 * once more, which costs milliseconds when processes outnumber cores
 * (GWU's NPB BT-IO reads 5 doubles per call).  Returns the bytes moved. */
static upc_off_t xfer_contig(upc_file_t *fd, int writing, upc_off_t off, void *buf, size_t n,
                             const char *what, const char *file, int line)
{
    MPI_Status st;
    MPI_Count got = 0;
    mpi_enter();
    if (!writing) {
        MPI_Offset size = 0;
        IO_MPI(fd, MPI_File_get_size(fd->fh, &size), what, file, line);
        upc_off_t before_end = (upc_off_t)size > off ? (upc_off_t)size - off : 0;
        if ((upc_off_t)n > before_end)
            n = (size_t)before_end;
    }
    pieces_t p = {0};
    pieces_add(&p, off, buf, n);
    if (p.n == 0) {
        /* nothing to move */
    } else if (n <= INT_MAX) {
        if (writing)
            IO_MPI(fd, MPI_File_write_at(fd->fh, off, buf, (int)n, MPI_BYTE, &st), what, file, line);
        else
            IO_MPI(fd, MPI_File_read_at(fd->fh, off, buf, (int)n, MPI_BYTE, &st), what, file, line);
        MPI_Get_elements_x(&st, MPI_BYTE, &got);
    } else {
        MPI_Datatype mt = pieces_type(&p, 0);
        if (writing)
            IO_MPI(fd, MPI_File_write_at(fd->fh, off, MPI_BOTTOM, 1, mt, &st), what, file, line);
        else
            IO_MPI(fd, MPI_File_read_at(fd->fh, off, MPI_BOTTOM, 1, mt, &st), what, file, line);
        MPI_Get_elements_x(&st, MPI_BYTE, &got);
        MPI_Type_free(&mt);
    }
    mpi_leave();
    free(p.v);
    /* a read asked only for bytes before the end of the file */
    return got < (MPI_Count)n ? (upc_off_t)got : (upc_off_t)n;
}

/* A scattered collective transfer: this thread's pieces (sorted, not
 * overlapping) through a file view.  Returns the bytes moved. */
static upc_off_t xfer_pieces(upc_file_t *fd, int writing, pieces_t *p, const char *what,
                             const char *file, int line)
{
    MPI_Status st;
    MPI_Count got = 0;
    mpi_enter();
    if (!writing) {
        MPI_Offset size = 0;
        IO_MPI(fd, MPI_File_get_size(fd->fh, &size), what, file, line);
        pieces_clip(p, (upc_off_t)size);
    }
    if (p->n == 0) {
        IO_MPI(fd, MPI_File_set_view(fd->fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL),
               what, file, line);
        if (writing)
            IO_MPI(fd, MPI_File_write_at_all(fd->fh, 0, NULL, 0, MPI_BYTE, &st), what, file, line);
        else
            IO_MPI(fd, MPI_File_read_at_all(fd->fh, 0, NULL, 0, MPI_BYTE, &st), what, file, line);
    } else {
        MPI_Datatype ft = pieces_type(p, 1), mt = pieces_type(p, 0);
        IO_MPI(fd, MPI_File_set_view(fd->fh, 0, MPI_BYTE, ft, "native", MPI_INFO_NULL), what,
               file, line);
        if (writing)
            IO_MPI(fd, MPI_File_write_at_all(fd->fh, 0, MPI_BOTTOM, 1, mt, &st), what, file, line);
        else
            IO_MPI(fd, MPI_File_read_at_all(fd->fh, 0, MPI_BOTTOM, 1, mt, &st), what, file, line);
        MPI_Get_elements_x(&st, MPI_BYTE, &got);
        MPI_Type_free(&ft);
        MPI_Type_free(&mt);
    }
    IO_MPI(fd, MPI_File_set_view(fd->fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), what,
           file, line);
    mpi_leave();
    (void)got;
    return (upc_off_t)p->bytes;
}

static upc_off_t sum_all(upc_off_t mine)
{
    long long in = (long long)mine, out = 0;
    mpi_enter();
    MUPCI_MPI(MPI_Allreduce(&in, &out, 1, MPI_LONG_LONG, MPI_SUM, mupci_comm));
    mpi_leave();
    return (upc_off_t)out;
}

/* ---------------------------------------------------------------- */
/* Shared layouts                                                    */
/* ---------------------------------------------------------------- */

/* Visit the runs of elements [0, nmemb) of a `shared [blocksize]` array
 * of `size`-byte elements starting at buf (its phase counts): for each
 * run within one block, fn(ptr to its first element, index of that
 * element, elements in the run).  mine_only: only this thread's runs. */
typedef void (*run_fn)(mupc_ptr_t at, size_t first, size_t count, void *arg);

static void visit_runs(mupc_ptr_t buf, size_t blocksize, size_t size, size_t nmemb,
                       int mine_only, run_fn fn, void *arg)
{
    if (nmemb == 0)
        return;
    if (blocksize == 0) { /* indefinite: all on buf's thread */
        if (!mine_only || buf.thread == (uint32_t)mupc_mythread)
            fn(buf, 0, nmemb, arg);
        return;
    }
    size_t phase = buf.phase < blocksize ? buf.phase : 0;
    size_t first = 0, count = blocksize - phase;
    mupc_ptr_t at = buf;
    size_t T = (size_t)mupc_threads;
    while (first < nmemb) {
        if (count > nmemb - first)
            count = nmemb - first;
        if (!mine_only || at.thread == (uint32_t)mupc_mythread) {
            fn(at, first, count, arg);
        }
        first += count;
        if (first >= nmemb)
            break;
        if (mine_only && T > 1) {
            /* jump to this thread's next block: k blocks ahead */
            size_t k = ((size_t)mupc_mythread + T - at.thread) % T;
            if (k == 0)
                k = T;
            size_t skip = count + (k - 1) * blocksize; /* elements to its start */
            at = mupc_ptr_add(at, (ptrdiff_t)skip, size, blocksize);
            first += skip - count;
        } else {
            at = mupc_ptr_add(at, (ptrdiff_t)count, size, blocksize);
        }
        count = blocksize;
    }
}

typedef struct run_ctx {
    pieces_t *p;
    size_t size;
    upc_off_t base; /* file offset of element 0 */
    char *tmp;      /* staging: element i at tmp + i * size */
    size_t limit;   /* staging: bytes valid in tmp */
    int writing;
    const char *file;
    int line;
} run_ctx_t;

static void run_to_piece(mupc_ptr_t at, size_t first, size_t count, void *arg)
{
    run_ctx_t *c = arg;
    char *mem = mupc_local_addr(at);
    if (!mem)
        mupci_fatal("internal error: a block of this thread is not local");
    pieces_add(c->p, c->base + (upc_off_t)(first * c->size), mem, count * c->size);
}

static void run_stage(mupc_ptr_t at, size_t first, size_t count, void *arg)
{
    run_ctx_t *c = arg;
    size_t from = first * c->size, n = count * c->size;
    if (from >= c->limit)
        return;
    if (n > c->limit - from)
        n = c->limit - from;
    if (c->writing)
        mupc_memget(c->tmp + from, at, n, c->file, c->line);
    else
        mupc_memput(at, c->tmp + from, n, c->file, c->line);
}

/* ---------------------------------------------------------------- */
/* Opening and closing                                               */
/* ---------------------------------------------------------------- */

static int amode_of(int flags, int *amode)
{
    const int known = UPC_RDONLY | UPC_WRONLY | UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_COMMON_FP |
                      UPC_APPEND | UPC_CREATE | UPC_EXCL | UPC_STRONG_CA | UPC_TRUNC |
                      UPC_DELETE_ON_CLOSE;
    int access = flags & (UPC_RDONLY | UPC_WRONLY | UPC_RDWR);
    int fp = flags & (UPC_INDIVIDUAL_FP | UPC_COMMON_FP);
    if ((flags & ~known) || !access || (access & (access - 1)) || !fp || (fp & (fp - 1)))
        return 0;
    if ((flags & UPC_RDONLY) && (flags & (UPC_CREATE | UPC_EXCL | UPC_TRUNC)))
        return 0;
    if ((flags & UPC_EXCL) && !(flags & UPC_CREATE))
        return 0;
    int m = access == UPC_RDONLY ? MPI_MODE_RDONLY
            : access == UPC_WRONLY ? MPI_MODE_WRONLY
                                   : MPI_MODE_RDWR;
    if (flags & UPC_CREATE)
        m |= MPI_MODE_CREATE;
    if (flags & UPC_EXCL)
        m |= MPI_MODE_EXCL;
    if (flags & UPC_APPEND)
        m |= MPI_MODE_APPEND;
    if (flags & UPC_DELETE_ON_CLOSE)
        m |= MPI_MODE_DELETE_ON_CLOSE;
    *amode = m;
    return 1;
}

/* fname must be single-valued: thread 0 compares every thread's. */
static void check_names(const char *fname, const char *what, const char *file, int line)
{
    char mine[NAME_MAX_CHECKED] = "";
    snprintf(mine, sizeof mine, "%s", fname ? fname : "(null)");
    char *all = mupc_mythread == 0 ? xmalloc(sizeof mine * (size_t)mupc_threads) : NULL;
    int differs = -1;
    mpi_enter();
    MUPCI_MPI(MPI_Gather(mine, (int)sizeof mine, MPI_CHAR, all, (int)sizeof mine, MPI_CHAR, 0,
                         mupci_comm));
    if (mupc_mythread == 0)
        for (int t = 1; t < mupc_threads && differs < 0; t++)
            if (strncmp(all, all + (size_t)t * sizeof mine, sizeof mine) != 0)
                differs = t;
    MUPCI_MPI(MPI_Bcast(&differs, 1, MPI_INT, 0, mupci_comm));
    mpi_leave();
    if (differs < 0) {
        free(all);
        return;
    }
    if (mupc_mythread != 0)
        sleep(5); /* thread 0 speaks and ends the job */
    mupci_fatal_at(file, line,
                   "%s: fname must be the same on every thread (single-valued), but thread 0 "
                   "passed \"%s\" and thread %d passed \"%s\"",
                   what, all ? all : mine, differs,
                   all ? all + (size_t)differs * sizeof mine : "?");
}

upc_file_t *mupc_all_fopen(const char *fname, int flags, size_t numhints,
                           const struct upc_hint *hints, const char *file, int line)
{
    static const char what[] = "upc_all_fopen";
    uint64_t hh = 14695981039346656037ull;
    for (size_t i = 0; hints && i < numhints; i++)
        hh = hash_str(hash_str(hh, hints[i].key), hints[i].value);
    meet(MUPCI_RV_IO_OPEN, CALL_OPEN, (uint64_t)(unsigned)flags, numhints, hh, 0, 0, what, file,
         line);
    check_names(fname, what, file, line);
    uint64_t id = ++opens;
    int amode = 0;
    if (!fname || !amode_of(flags, &amode) || (numhints && !hints)) {
        errno = EINVAL;
        return NULL;
    }
    MPI_Info info = MPI_INFO_NULL;
    mpi_enter();
    if (numhints) {
        MUPCI_MPI(MPI_Info_create(&info));
        for (size_t i = 0; i < numhints; i++)
            if (hints[i].key && hints[i].value && *hints[i].key)
                MPI_Info_set(info, hints[i].key, hints[i].value);
    }
    MPI_File fh = MPI_FILE_NULL;
    int rc = MPI_File_open(mupci_comm, fname, amode, info, &fh);
    if (rc == MPI_SUCCESS && (flags & UPC_TRUNC))
        rc = MPI_File_set_size(fh, 0);
    if (rc == MPI_SUCCESS && (flags & UPC_STRONG_CA))
        rc = MPI_File_set_atomicity(fh, 1);
    MPI_Offset size = 0;
    if (rc == MPI_SUCCESS && (flags & UPC_APPEND))
        rc = MPI_File_get_size(fh, &size);
    /* Every thread gets the same outcome. */
    int err = rc == MPI_SUCCESS ? 0 : errno_of(rc), worst = 0;
    MUPCI_MPI(MPI_Allreduce(&err, &worst, 1, MPI_INT, MPI_MAX, mupci_comm));
    if (info != MPI_INFO_NULL)
        MPI_Info_free(&info);
    if (worst != 0) {
        /* a thread whose open succeeded keeps its handle: closing it is
         * collective among threads that did not all open it */
        mpi_leave();
        errno = worst;
        return NULL;
    }
    mpi_leave();
    upc_file_t *fd = xmalloc(sizeof *fd);
    memset(fd, 0, sizeof *fd);
    fd->magic = IO_MAGIC;
    fd->id = id;
    fd->fh = fh;
    fd->flags = flags;
    fd->ind_fp = fd->common_fp = (upc_off_t)size;
    fd->name = xstrdup(fname);
    fd->nhints = numhints;
    fd->hints = xmalloc(numhints * sizeof *fd->hints);
    for (size_t i = 0; i < numhints; i++) {
        fd->hints[i].key = xstrdup(hints[i].key ? hints[i].key : "");
        fd->hints[i].value = xstrdup(hints[i].value ? hints[i].value : "");
    }
    return fd;
}

static void free_hints(upc_file_t *fd)
{
    for (size_t i = 0; i < fd->nhints; i++) {
        free((char *)fd->hints[i].key);
        free((char *)fd->hints[i].value);
    }
    free(fd->hints);
    fd->hints = NULL;
    fd->nhints = 0;
}

int mupc_all_fclose(upc_file_t *fd, const char *file, int line)
{
    static const char what[] = "upc_all_fclose";
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_FILE, CALL_CLOSE, fd->id, 0, 0, 0, 0, what, file, line);
    if (fd->async_pending) {
        /* the program must complete it first (upc_all_fwait_async or
         * upc_all_ftest_async): the file stays open, as GWU's UPC-IO
         * suite expects (test_async_close_wait) */
        errno = EBUSY;
        return -1;
    }
    mpi_enter();
    IO_MPI(fd, MPI_File_close(&fd->fh), what, file, line);
    mpi_leave();
    /* The handle's few bytes stay allocated, marked closed, so a later
     * call through it is reported instead of reading freed memory. */
    fd->magic = 0;
    free(fd->name);
    fd->name = NULL;
    free_hints(fd);
    return 0;
}

int mupc_all_fsync(upc_file_t *fd, const char *file, int line)
{
    static const char what[] = "upc_all_fsync";
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_FILE, CALL_SYNC, fd->id, 0, 0, 0, 0, what, file, line);
    mpi_enter();
    int rc = MPI_File_sync(fd->fh);
    mpi_leave();
    if (rc != MPI_SUCCESS) {
        errno = errno_of(rc);
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- */
/* Positions and sizes                                               */
/* ---------------------------------------------------------------- */

static upc_off_t file_size(upc_file_t *fd, const char *what, const char *file, int line)
{
    MPI_Offset size = 0;
    mpi_enter();
    IO_MPI(fd, MPI_File_get_size(fd->fh, &size), what, file, line);
    mpi_leave();
    return (upc_off_t)size;
}

upc_off_t mupc_all_fseek(upc_file_t *fd, upc_off_t offset, int origin, const char *file,
                         int line)
{
    static const char what[] = "upc_all_fseek";
    check_fd(fd, what, file, line);
    /* offset and origin are single-valued with the common pointer only */
    int common = fp_common(fd);
    meet(MUPCI_RV_IO_SEEK, CALL_SEEK, fd->id, common ? (uint64_t)offset : 0,
         common ? (uint64_t)(unsigned)origin : 0, 0, 0, what, file, line);
    upc_off_t *fp = common ? &fd->common_fp : &fd->ind_fp, base;
    switch (origin) {
    case UPC_SEEK_SET: base = 0; break;
    case UPC_SEEK_CUR: base = *fp; break;
    case UPC_SEEK_END: base = file_size(fd, what, file, line); break;
    default: errno = EINVAL; return -1;
    }
    if ((offset > 0 && base > INT64_MAX - offset) || base + offset < 0) {
        errno = EINVAL;
        return -1;
    }
    return *fp = base + offset;
}

int mupc_all_fset_size(upc_file_t *fd, upc_off_t size, const char *file, int line)
{
    static const char what[] = "upc_all_fset_size";
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_SIZE, CALL_SET_SIZE, fd->id, (uint64_t)size, 0, 0, 0, what, file, line);
    if (size < 0) {
        errno = EINVAL;
        return -1;
    }
    if ((fd->flags & UPC_RDONLY)) {
        errno = EBADF;
        return -1;
    }
    mpi_enter();
    int rc = MPI_File_set_size(fd->fh, (MPI_Offset)size);
    mpi_leave();
    if (rc != MPI_SUCCESS) {
        errno = errno_of(rc);
        return -1;
    }
    return 0;
}

upc_off_t mupc_all_fget_size(upc_file_t *fd, const char *file, int line)
{
    static const char what[] = "upc_all_fget_size";
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_FILE, CALL_GET_SIZE, fd->id, 0, 0, 0, 0, what, file, line);
    return file_size(fd, what, file, line);
}

int mupc_all_fpreallocate(upc_file_t *fd, upc_off_t size, const char *file, int line)
{
    static const char what[] = "upc_all_fpreallocate";
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_SIZE, CALL_PREALLOCATE, fd->id, (uint64_t)size, 0, 0, 0, what, file, line);
    if (size < 0) {
        errno = EINVAL;
        return -1;
    }
    if ((fd->flags & UPC_RDONLY)) {
        errno = EBADF;
        return -1;
    }
    mpi_enter();
    int rc = MPI_File_preallocate(fd->fh, (MPI_Offset)size);
    mpi_leave();
    if (rc != MPI_SUCCESS) {
        errno = errno_of(rc);
        return -1;
    }
    return 0;
}

int mupc_all_fcntl(upc_file_t *fd, int cmd, void *arg, const char *file, int line)
{
    static const char what[] = "upc_all_fcntl";
    check_fd(fd, what, file, line);
    uint64_t value = 0;
    const upc_hint_t *hint = arg;
    if (cmd == UPC_SET_HINT && hint)
        value = hash_str(hash_str(14695981039346656037ull, hint->key), hint->value);
    meet(MUPCI_RV_IO_FILE, CALL_FCNTL, fd->id, (uint64_t)(unsigned)cmd, value, 0, 0, what, file,
         line);
    int rc;
    switch (cmd) {
    case UPC_GET_CA_SEMANTICS:
        return fd->flags & UPC_STRONG_CA ? UPC_STRONG_CA : 0;
    case UPC_SET_WEAK_CA_SEMANTICS:
    case UPC_SET_STRONG_CA_SEMANTICS:
        mpi_enter();
        rc = MPI_File_set_atomicity(fd->fh, cmd == UPC_SET_STRONG_CA_SEMANTICS);
        mpi_leave();
        if (rc != MPI_SUCCESS) {
            errno = errno_of(rc);
            return -1;
        }
        fd->flags = cmd == UPC_SET_STRONG_CA_SEMANTICS ? fd->flags | UPC_STRONG_CA
                                                       : fd->flags & ~UPC_STRONG_CA;
        return 0;
    case UPC_GET_FP:
        return fp_common(fd) ? UPC_COMMON_FP : UPC_INDIVIDUAL_FP;
    case UPC_SET_COMMON_FP:
    case UPC_SET_INDIVIDUAL_FP:
        /* the new pointer(s) start at the beginning of the file */
        fd->flags &= ~(UPC_COMMON_FP | UPC_INDIVIDUAL_FP);
        fd->flags |= cmd == UPC_SET_COMMON_FP ? UPC_COMMON_FP : UPC_INDIVIDUAL_FP;
        fd->common_fp = fd->ind_fp = 0;
        return 0;
    case UPC_GET_FL:
        return fd->flags;
    case UPC_GET_FN:
        if (!arg) {
            errno = EINVAL;
            return -1;
        }
        *(const char **)arg = fd->name;
        return 0;
    case UPC_GET_HINTS:
        if (!arg) {
            errno = EINVAL;
            return -1;
        }
        *(const upc_hint_t **)arg = fd->hints;
        return (int)fd->nhints;
    case UPC_SET_HINT: {
        if (!hint || !hint->key || !hint->value || !*hint->key) {
            errno = EINVAL;
            return -1;
        }
        MPI_Info info;
        mpi_enter();
        MUPCI_MPI(MPI_Info_create(&info));
        MPI_Info_set(info, hint->key, hint->value);
        rc = MPI_File_set_info(fd->fh, info);
        MPI_Info_free(&info);
        mpi_leave();
        if (rc != MPI_SUCCESS) {
            errno = errno_of(rc);
            return -1;
        }
        size_t i = 0;
        while (i < fd->nhints && strcmp(fd->hints[i].key, hint->key) != 0)
            i++;
        if (i == fd->nhints) {
            upc_hint_t *h = realloc(fd->hints, (fd->nhints + 1) * sizeof *h);
            if (!h)
                mupci_fatal("out of memory for a UPC-IO hint");
            fd->hints = h;
            fd->hints[fd->nhints++].key = xstrdup(hint->key);
        } else {
            free((char *)fd->hints[i].value);
        }
        fd->hints[i].value = xstrdup(hint->value);
        return 0;
    }
    case UPC_ASYNC_OUTSTANDING:
        return fd->async_pending ? 1 : 0;
    default:
        errno = EINVAL;
        return -1;
    }
}

/* ---------------------------------------------------------------- */
/* Reading and writing                                               */
/* ---------------------------------------------------------------- */

/* Access-mode check: -1 and errno, the same on every thread. */
static int access_ok(const upc_file_t *fd, int writing)
{
    if (writing ? (fd->flags & UPC_RDONLY) : (fd->flags & UPC_WRONLY)) {
        errno = EBADF;
        return 0;
    }
    return 1;
}

static int size_ok(size_t size, size_t nmemb)
{
    if (size && nmemb > (size_t)INT64_MAX / size) {
        errno = EINVAL;
        return 0;
    }
    return 1;
}

static upc_off_t rw_local(upc_file_t *fd, int writing, void *buffer, size_t size, size_t nmemb,
                          upc_flag_t flags, const char *what, const char *file, int line)
{
    check_fd(fd, what, file, line);
    check_sync_flags(flags, what, file, line);
    meet(MUPCI_RV_IO_DATA, writing ? CALL_WRITE_LOCAL : CALL_READ_LOCAL, fd->id,
         (uint64_t)(unsigned)flags, 0, 0, 0, what, file, line);
    /* the local forms need individual file pointers (§7.8.4.1, §7.8.5.1) */
    if (fp_common(fd) || !access_ok(fd, writing)) {
        if (fp_common(fd))
            errno = EINVAL;
        return -1;
    }
    int ok = size_ok(size, nmemb);
    sync_in(flags, what, file, line);
    upc_off_t n = xfer_contig(fd, writing, fd->ind_fp, buffer, ok ? size * nmemb : 0, what, file,
                              line);
    fd->ind_fp += n;
    sync_out(flags, what, file, line);
    return ok ? n : -1;
}

upc_off_t mupc_all_fread_local(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                               upc_flag_t flags, const char *file, int line)
{
    return rw_local(fd, 0, buffer, size, nmemb, flags, "upc_all_fread_local", file, line);
}

upc_off_t mupc_all_fwrite_local(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                                upc_flag_t flags, const char *file, int line)
{
    return rw_local(fd, 1, (void *)buffer, size, nmemb, flags, "upc_all_fwrite_local", file,
                    line);
}

static upc_off_t rw_shared(upc_file_t *fd, int writing, mupc_ptr_t buffer, size_t blocksize,
                           size_t size, size_t nmemb, upc_flag_t flags, const char *what,
                           const char *file, int line)
{
    check_fd(fd, what, file, line);
    check_sync_flags(flags, what, file, line);
    int common = fp_common(fd);
    /* with the common pointer every argument is single-valued */
    meet(MUPCI_RV_IO_DATA, writing ? CALL_WRITE_SHARED : CALL_READ_SHARED, fd->id,
         (uint64_t)(unsigned)flags, common ? size : 0, common ? nmemb : 0,
         common ? blocksize : 0, what, file, line);
    if (!access_ok(fd, writing))
        return -1;
    if (nmemb && size && (buffer.addr == 0 || buffer.thread >= (uint32_t)mupc_threads))
        mupci_fatal_at(file, line, "%s: the buffer is %s", what,
                       buffer.addr == 0 ? "a null pointer-to-shared" : "not a valid pointer");
    int ok = size_ok(size, nmemb);
    if (!ok)
        nmemb = 0;
    sync_in(flags, what, file, line);
    upc_off_t n;
    if (common) {
        /* the file's bytes from the common pointer on are the array's
         * elements in order; each thread moves its own blocks */
        pieces_t p = {0};
        run_ctx_t c = {&p, size, fd->common_fp, NULL, 0, writing, file, line};
        if (size)
            visit_runs(buffer, blocksize, size, nmemb, 1, run_to_piece, &c);
        pieces_sort(&p); /* runs of one thread never overlap */
        n = sum_all(xfer_pieces(fd, writing, &p, what, file, line));
        free(p.v);
        fd->common_fp += n;
    } else {
        /* this thread's bytes at its own pointer, staged privately */
        size_t bytes = size * nmemb;
        char *tmp = xmalloc(bytes);
        run_ctx_t c = {NULL, size, 0, tmp, bytes, writing, file, line};
        if (writing && bytes)
            visit_runs(buffer, blocksize, size, nmemb, 0, run_stage, &c);
        n = xfer_contig(fd, writing, fd->ind_fp, tmp, bytes, what, file, line);
        if (!writing && n > 0) {
            c.limit = (size_t)n;
            visit_runs(buffer, blocksize, size, nmemb, 0, run_stage, &c);
        }
        free(tmp);
        fd->ind_fp += n;
    }
    sync_out(flags, what, file, line);
    return ok ? n : -1;
}

upc_off_t mupc_all_fread_shared(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                int line)
{
    return rw_shared(fd, 0, buffer, blocksize, size, nmemb, flags, "upc_all_fread_shared", file,
                     line);
}

upc_off_t mupc_all_fwrite_shared(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                 size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                 int line)
{
    return rw_shared(fd, 1, buffer, blocksize, size, nmemb, flags, "upc_all_fwrite_shared", file,
                     line);
}

/* ---------------------------------------------------------------- */
/* List I/O                                                          */
/* ---------------------------------------------------------------- */

/* Pair the memory stream (entries mem[i] of mlen[i] bytes, in order) with
 * the file stream (filevec, in order).  0 if the totals differ. */
static int pair_lists(pieces_t *p, size_t mn, char *const *mem, const size_t *mlen, size_t fn,
                      const struct upc_filevec *fv)
{
    size_t mi = 0, mdone = 0, fi = 0, fdone = 0;
    for (;;) {
        while (mi < mn && mdone == mlen[mi])
            mi++, mdone = 0;
        while (fi < fn && fdone == fv[fi].len)
            fi++, fdone = 0;
        if (mi == mn || fi == fn)
            return mi == mn && fi == fn;
        if (fv[fi].offset < 0)
            return 0;
        size_t n = mlen[mi] - mdone < fv[fi].len - fdone ? mlen[mi] - mdone : fv[fi].len - fdone;
        pieces_add(p, fv[fi].offset + (upc_off_t)fdone, mem[mi] + mdone, n);
        mdone += n;
        fdone += n;
    }
}

static upc_off_t rw_list(upc_file_t *fd, int writing, int shared, size_t mn,
                         const struct upc_local_memvec *lmv,
                         const struct upc_shared_memvec *smv, size_t fn,
                         const struct upc_filevec *fv, upc_flag_t flags, const char *what,
                         const char *file, int line)
{
    check_fd(fd, what, file, line);
    check_sync_flags(flags, what, file, line);
    int call = shared ? (writing ? CALL_WRITE_LIST_SHARED : CALL_READ_LIST_SHARED)
                      : (writing ? CALL_WRITE_LIST_LOCAL : CALL_READ_LIST_LOCAL);
    meet(MUPCI_RV_IO_LIST, (uint64_t)call, fd->id, (uint64_t)(unsigned)flags, 0, 0, 0, what,
         file, line);
    if (!access_ok(fd, writing))
        return -1;
    int ok = (mn == 0 || lmv || smv) && (fn == 0 || fv);
    size_t total = 0;
    char **mem = xmalloc(mn * sizeof *mem);
    size_t *mlen = xmalloc(mn * sizeof *mlen);
    for (size_t i = 0; ok && i < mn; i++)
        mlen[i] = shared ? smv[i].len : lmv[i].len, total += mlen[i];
    char *tmp = shared && ok ? xmalloc(total) : NULL;
    for (size_t i = 0, at = 0; ok && i < mn; at += mlen[i], i++)
        mem[i] = shared ? tmp + at : (char *)lmv[i].baseaddr;
    sync_in(flags, what, file, line);
    /* shared memory is staged in a private buffer; for a read too, so a
     * short read (end of file) leaves the rest of the memory as it was */
    if (ok && shared)
        for (size_t i = 0; i < mn; i++) {
            run_ctx_t c = {NULL, 1, 0, mem[i], mlen[i], 1, file, line};
            visit_runs(smv[i].baseaddr, smv[i].blocksize, 1, mlen[i], 0, run_stage, &c);
        }
    /* The staging's gets from other nodes are served by their threads'
     * message engines, which stop while those threads wait in MPI-IO's
     * collective calls (the progress lock is theirs): every thread stages
     * before any enters one.  (On one node the gets are loads: no wait.) */
    if (shared)
        mupci_barrier_internal(what, file, line);
    pieces_t p = {0};
    if (ok)
        ok = pair_lists(&p, mn, mem, mlen, fn, fv) && pieces_sort(&p);
    if (!ok) { /* take part with nothing, then report */
        p.n = 0;
        p.bytes = 0;
    }
    upc_off_t n = xfer_pieces(fd, writing, &p, what, file, line);
    if (ok && shared && !writing && n > 0)
        for (size_t i = 0; i < mn; i++) {
            run_ctx_t c = {NULL, 1, 0, mem[i], mlen[i], 0, file, line};
            visit_runs(smv[i].baseaddr, smv[i].blocksize, 1, mlen[i], 0, run_stage, &c);
        }
    free(p.v);
    free(tmp);
    free(mem);
    free(mlen);
    sync_out(flags, what, file, line);
    if (!ok) {
        errno = EINVAL;
        return -1;
    }
    return n;
}

upc_off_t mupc_all_fread_list_local(upc_file_t *fd, size_t memvec_entries,
                                    const struct upc_local_memvec *memvec,
                                    size_t filevec_entries, const struct upc_filevec *filevec,
                                    upc_flag_t flags, const char *file, int line)
{
    return rw_list(fd, 0, 0, memvec_entries, memvec, NULL, filevec_entries, filevec, flags,
                   "upc_all_fread_list_local", file, line);
}

upc_off_t mupc_all_fwrite_list_local(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_local_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line)
{
    return rw_list(fd, 1, 0, memvec_entries, memvec, NULL, filevec_entries, filevec, flags,
                   "upc_all_fwrite_list_local", file, line);
}

upc_off_t mupc_all_fread_list_shared(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_shared_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line)
{
    return rw_list(fd, 0, 1, memvec_entries, NULL, memvec, filevec_entries, filevec, flags,
                   "upc_all_fread_list_shared", file, line);
}

upc_off_t mupc_all_fwrite_list_shared(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_shared_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line)
{
    return rw_list(fd, 1, 1, memvec_entries, NULL, memvec, filevec_entries, filevec, flags,
                   "upc_all_fwrite_list_shared", file, line);
}

/* ---------------------------------------------------------------- */
/* Asynchronous I/O: done at once, completed by wait or test         */
/* ---------------------------------------------------------------- */

/* The synchronous call runs with the OUT_ flags turned into
 * UPC_OUT_NOSYNC; the caller's OUT_ flags apply at completion. */
static upc_flag_t async_begin(upc_file_t *fd, upc_flag_t flags, const char *what,
                              const char *file, int line)
{
    check_fd(fd, what, file, line);
    check_sync_flags(flags, what, file, line);
    if (fd->async_pending)
        mupci_fatal_at(file, line,
                       "%s: an asynchronous operation on \"%s\" is still outstanding; complete "
                       "it with upc_all_fwait_async or upc_all_ftest_async first",
                       what, fd->name);
    fd->async_flags = flags & (UPC_OUT_NOSYNC | UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC);
    return (flags & ~(UPC_OUT_MYSYNC | UPC_OUT_ALLSYNC)) | UPC_OUT_NOSYNC;
}

static void async_end(upc_file_t *fd, upc_off_t result)
{
    fd->async_pending = 1;
    fd->async_result = result;
    fd->async_errno = result < 0 ? errno : 0;
}

void mupc_all_fread_local_async(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                                upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fread_local_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_local(fd, 0, buffer, size, nmemb, flags, what, file, line));
}

void mupc_all_fwrite_local_async(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                                 upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fwrite_local_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_local(fd, 1, (void *)buffer, size, nmemb, flags, what, file, line));
}

void mupc_all_fread_shared_async(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                 size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                 int line)
{
    static const char what[] = "upc_all_fread_shared_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_shared(fd, 0, buffer, blocksize, size, nmemb, flags, what, file, line));
}

void mupc_all_fwrite_shared_async(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                  size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                  int line)
{
    static const char what[] = "upc_all_fwrite_shared_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_shared(fd, 1, buffer, blocksize, size, nmemb, flags, what, file, line));
}

void mupc_all_fread_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_local_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fread_list_local_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_list(fd, 0, 0, memvec_entries, memvec, NULL, filevec_entries, filevec,
                          flags, what, file, line));
}

void mupc_all_fwrite_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_local_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fwrite_list_local_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_list(fd, 1, 0, memvec_entries, memvec, NULL, filevec_entries, filevec,
                          flags, what, file, line));
}

void mupc_all_fread_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_shared_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fread_list_shared_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_list(fd, 0, 1, memvec_entries, NULL, memvec, filevec_entries, filevec,
                          flags, what, file, line));
}

void mupc_all_fwrite_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                       const struct upc_shared_memvec *memvec,
                                       size_t filevec_entries, const struct upc_filevec *filevec,
                                       upc_flag_t flags, const char *file, int line)
{
    static const char what[] = "upc_all_fwrite_list_shared_async";
    flags = async_begin(fd, flags, what, file, line);
    async_end(fd, rw_list(fd, 1, 1, memvec_entries, NULL, memvec, filevec_entries, filevec,
                          flags, what, file, line));
}

static upc_off_t complete(upc_file_t *fd, int call, int *flag, const char *what,
                          const char *file, int line)
{
    check_fd(fd, what, file, line);
    meet(MUPCI_RV_IO_FILE, (uint64_t)call, fd->id, 0, 0, 0, 0, what, file, line);
    if (!fd->async_pending) {
        errno = EINVAL;
        return -1;
    }
    if (flag)
        *flag = 1;
    fd->async_pending = 0;
    sync_out(fd->async_flags, what, file, line);
    if (fd->async_result < 0)
        errno = fd->async_errno;
    return fd->async_result;
}

upc_off_t mupc_all_fwait_async(upc_file_t *fd, const char *file, int line)
{
    return complete(fd, CALL_WAIT, NULL, "upc_all_fwait_async", file, line);
}

upc_off_t mupc_all_ftest_async(upc_file_t *fd, int *flag, const char *file, int line)
{
    if (flag)
        *flag = 0;
    return complete(fd, CALL_TEST, flag, "upc_all_ftest_async", file, line);
}
