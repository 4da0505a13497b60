/* SPDX-License-Identifier: MIT */
/*
 * pts.c -- pointer-to-shared arithmetic (UPC 1.3 §6.4.2) for any block size.
 *
 * A pointer to element i of an array with block size B (elements of E
 * bytes) on T threads has thread (i/B) mod T, phase i mod B and offset
 * base + ((i/(B*T))*B + i mod B)*E.  Adding n moves whole blocks across
 * threads and wraps to the next block cycle after the last thread.
 */
#include "base/pts.h"

/* Division rounding towards minus infinity (n may be negative). */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

mupc_ptr_t mupci_pts_add(mupc_ptr_t p, ptrdiff_t n, size_t elemsize, size_t blocksize,
                         int threads)
{
    if (blocksize == 0) { /* indefinite block size: all on one thread */
        p.addr += (int64_t)n * (int64_t)elemsize;
        return p;
    }
    int64_t b = (int64_t)blocksize, e = (int64_t)elemsize;
    int64_t pos = (int64_t)p.phase + n;
    int64_t blocks = floor_div(pos, b);
    int64_t phase = pos - blocks * b;
    int64_t t = (int64_t)p.thread + blocks;
    int64_t cycles = floor_div(t, threads);
    mupc_ptr_t r;
    r.thread = (uint32_t)(t - cycles * threads);
    r.phase = (uint32_t)phase;
    r.addr = (uint64_t)((int64_t)p.addr + (phase - (int64_t)p.phase) * e + cycles * b * e);
    return r;
}

ptrdiff_t mupci_pts_diff(mupc_ptr_t a, mupc_ptr_t b, size_t elemsize, size_t blocksize,
                         int threads)
{
    int64_t e = (int64_t)elemsize;
    if (blocksize == 0)
        return (ptrdiff_t)(((int64_t)a.addr - (int64_t)b.addr) / e);
    int64_t bs = (int64_t)blocksize;
    /* offset of each pointer's block start, relative to each other */
    int64_t a_block = (int64_t)a.addr - (int64_t)a.phase * e;
    int64_t b_block = (int64_t)b.addr - (int64_t)b.phase * e;
    int64_t cycles = (a_block - b_block) / (bs * e);
    int64_t threads_apart = (int64_t)a.thread - (int64_t)b.thread;
    return (ptrdiff_t)((cycles * threads + threads_apart) * bs +
                       ((int64_t)a.phase - (int64_t)b.phase));
}

size_t mupci_pts_affinitysize(size_t totalsize, size_t nbytes, size_t threadid, int threads)
{
    if (nbytes == 0 || totalsize == 0)
        return threadid == 0 ? totalsize : 0;
    size_t full_blocks = totalsize / nbytes;
    size_t last_thread = full_blocks % (size_t)threads; /* owner of the partial block */
    size_t size = (full_blocks / (size_t)threads) * nbytes;
    if (threadid < last_thread)
        size += nbytes;
    else if (threadid == last_thread)
        size += totalsize % nbytes;
    return size;
}

size_t mupci_pts_local_bytes(size_t nelems, size_t elemsize, size_t blocksize, int threads)
{
    if (blocksize == 0)
        return nelems * elemsize;
    size_t blocks = (nelems + blocksize - 1) / blocksize;
    size_t per_thread = (blocks + (size_t)threads - 1) / (size_t)threads;
    return per_thread * blocksize * elemsize;
}

/* ---- public wrappers (mupc.h) ---- */

mupc_ptr_t mupc_ptr_add(mupc_ptr_t p, ptrdiff_t n, size_t elemsize, size_t blocksize)
{
    return mupci_pts_add(p, n, elemsize, blocksize, mupc_threads);
}

ptrdiff_t mupc_ptr_diff(mupc_ptr_t a, mupc_ptr_t b, size_t elemsize, size_t blocksize)
{
    return mupci_pts_diff(a, b, elemsize, blocksize, mupc_threads);
}

mupc_ptr_t mupc_ptr_index(mupc_ptr_t base, size_t index, size_t elemsize, size_t blocksize)
{
    return mupci_pts_add(base, (ptrdiff_t)index, elemsize, blocksize, mupc_threads);
}

int mupc_ptr_is_null(mupc_ptr_t p) { return p.addr == 0 && p.thread == 0 && p.phase == 0; }

/* UPC 1.3 §6.4.2: pointers-to-shared to the same object (same thread and
 * address) compare equal whatever their phases, so that, e.g.,
 * upc_resetphase(p) == p. */
int mupc_ptr_equal(mupc_ptr_t a, mupc_ptr_t b)
{
    return a.addr == b.addr && a.thread == b.thread;
}

size_t upc_threadof(mupc_ptr_t p) { return p.thread; }
size_t upc_phaseof(mupc_ptr_t p) { return p.phase; }
size_t upc_addrfield(mupc_ptr_t p) { return (size_t)p.addr; }

mupc_ptr_t upc_resetphase(mupc_ptr_t p)
{
    p.phase = 0;
    return p;
}

size_t upc_affinitysize(size_t totalsize, size_t nbytes, size_t threadid)
{
    return mupci_pts_affinitysize(totalsize, nbytes, threadid, mupc_threads);
}
