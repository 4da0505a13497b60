/* SPDX-License-Identifier: MIT */
/*
 * nb.c -- implicit-handle transfers of upc_nb.h (upc_mem*_nbi, upc_synci,
 * upc_synci_attempt): the explicit calls, with their handles kept here.
 */
#include "mupc.h"
#include "base/fatal.h"

#include <stdlib.h>

static mupc_handle_t *pending; /* outstanding implicit handles */
static size_t npending, capacity;

static void keep(mupc_handle_t h)
{
    if (h == MUPC_HANDLE_TRIVIAL)
        return;
    if (npending == capacity) {
        size_t cap = capacity ? 2 * capacity : 64;
        mupc_handle_t *grown = realloc(pending, cap * sizeof *grown);
        if (!grown)
            mupci_fatal("out of memory for %zu implicit-handle transfers", cap);
        pending = grown;
        capacity = cap;
    }
    pending[npending++] = h;
}

void mupc_memcpy_nbi(mupc_ptr_t dst, mupc_ptr_t src, size_t n, const char *file, int line)
{
    keep(mupc_memcpy_nb(dst, src, n, file, line));
}

void mupc_memget_nbi(void *dst, mupc_ptr_t src, size_t n, const char *file, int line)
{
    keep(mupc_get_nb(dst, src, n, file, line));
}

void mupc_memput_nbi(mupc_ptr_t dst, const void *src, size_t n, const char *file, int line)
{
    keep(mupc_put_nb(dst, src, n, file, line));
}

void mupc_memset_nbi(mupc_ptr_t dst, int c, size_t n, const char *file, int line)
{
    keep(mupc_memset_nb(dst, c, n, file, line));
}

void mupc_synci(const char *file, int line)
{
    for (size_t i = 0; i < npending; i++)
        mupc_sync(pending[i], file, line);
    npending = 0;
}

int mupc_synci_attempt(const char *file, int line)
{
    size_t kept = 0;
    for (size_t i = 0; i < npending; i++)
        if (!mupc_sync_attempt(pending[i], file, line))
            pending[kept++] = pending[i];
    npending = kept;
    return npending == 0;
}
