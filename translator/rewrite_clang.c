/* SPDX-License-Identifier: MIT */
/* rewrite_clang.c -- libclang plumbing: source offsets and extents, the text under a cursor,
 * error messages, whether a cursor was already translated, a cursor's children.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ */
/* Positions, text and messages                                     */
/* ================================================================ */

size_t offset_of(CXSourceLocation loc)
{
    CXFile file;
    unsigned line, column, offset;
    clang_getFileLocation(loc, &file, &line, &column, &offset);
    return offset;
}

void extent(CXCursor c, size_t *start, size_t *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    *start = offset_of(clang_getRangeStart(r));
    *end = offset_of(clang_getRangeEnd(r));
}

size_t start_of(CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    return s;
}

char *source(rewriter_t *w, CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    return xstrndup(w->text + s, e > s ? e - s : 0);
}

static void diagnostic(rewriter_t *w, size_t offset, const char *what, const char *fmt, va_list ap)
{
    const char *file = "<translation>";
    int line = 0, column = 0;
    regions_where(w->regions, w->text, offset, &file, &line, &column);
    fprintf(stderr, "%s:%d:%d: %s: ", file, line, column, what);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

/* An expression translated twice (a copied loop, a hoisted read) reports
 * once: a diagnostic at the offset reported last of its kind is dropped. */
static int again(size_t *last, size_t offset)
{
    if (offset == *last)
        return 1;
    *last = offset;
    return 0;
}

void report(rewriter_t *w, size_t offset, const char *fmt, ...)
{
    static size_t last = (size_t)-1;
    if (again(&last, offset))
        return;
    va_list ap;
    va_start(ap, fmt);
    diagnostic(w, offset, "error", fmt, ap);
    va_end(ap);
    w->errors++;
}

void warn(rewriter_t *w, size_t offset, const char *fmt, ...)
{
    static size_t last = (size_t)-1;
    if (again(&last, offset))
        return;
    va_list ap;
    va_start(ap, fmt);
    diagnostic(w, offset, "warning", fmt, ap);
    va_end(ap);
}

int translated(rewriter_t *w, CXCursor c)
{
    const region_t *g = regions_at(w->regions, start_of(c));
    return g && g->translated;
}

/* ---- children ---- */


static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    kids_t *k = data;
    k->v = xrealloc(k->v, (size_t)(k->n + 1) * sizeof *k->v);
    k->v[k->n++] = c;
    return CXChildVisit_Continue;
}

/* The children of c; with exprs_only, only its expressions. */
kids_t children(CXCursor c, int exprs_only)
{
    kids_t all = {NULL, 0}, k = {NULL, 0};
    clang_visitChildren(c, collect, &all);
    if (!exprs_only)
        return all;
    for (int i = 0; i < all.n; i++)
        if (clang_isExpression(clang_getCursorKind(all.v[i])))
            collect(all.v[i], c, &k);
    free(all.v);
    return k;
}
