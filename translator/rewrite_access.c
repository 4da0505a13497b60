/* SPDX-License-Identifier: MIT */
/* rewrite_access.c -- reads, writes and updates of shared lvalues, whose
 * addresses rewrite_lvalue.c computes: a relaxed access tests this
 * thread's segment first, then the segments mapped on the node, and is a
 * plain load or store; the runtime's mupc_get_<T> / mupc_put_<T> when
 * both fail.  Part of the rewriter (see rewrite.h); the parts call each
 * other through rewrite_internal.h. */
#include "rewrite_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A relaxed read of a scalar of type t at pointer-to-shared text a, inline
 * for data on this node. */
static char *inline_read(rewriter_t *w, CXType t, const char *a, const char *suffix)
{
    char *ts = spell(w, t);
    int n = next_temp(w);
    /* this thread's data first: its test and load need no null check */
    char *s = xasprintf("({ mupc_ptr_t __mupc_p%d = %s; char *__mupc_m%d; __mupc_local(__mupc_p%d, sizeof(%s)) ? "
                        "*(%s *)(mupc_local_base + __mupc_p%d.addr) : (__mupc_m%d = __mupc_node_at(__mupc_p%d, "
                        "sizeof(%s))) ? *(%s *)__mupc_m%d : mupc_get_%s(__mupc_p%d, 0, __FILE__, __LINE__); })",
                        n, a, n, n, ts, ts, n, n, n, ts, ts, n, suffix, n);
    free(ts);
    return s;
}

/* The test that element __mupc_xM lies in view N's part, for type t. */
static char *in_view(rewriter_t *w, int view, int m, CXType t)
{
    char *ts = spell(w, t);
    char *s = xasprintf("(uint64_t)__mupc_x%d < __mupc_w%d.bytes / sizeof(%s)", m, view, ts);
    free(ts);
    return s;
}

/* A relaxed scalar read of shared lvalue c through an own-element view
 * (own_view_of), or NULL. */
static char *read_own_view(rewriter_t *w, CXCursor c, CXType t, const char *suffix)
{
    char *x = NULL, *p = NULL;
    int view = own_view_of(w, c, &x, &p);
    if (view < 0)
        return NULL;
    int m = next_temp(w);
    char *a = own_view_pointer(w, p, m, t), *slow = inline_read(w, t, a, suffix);
    char *test = in_view(w, view, m, t), *ts = spell(w, t);
    char *s = xasprintf("({ ptrdiff_t __mupc_x%d = (%s); %s ? ((%s *)__mupc_w%d.base)[__mupc_x%d] : %s; })",
                        m, x, test, ts, view, m, slow);
    free(x);
    free(p);
    free(a);
    free(slow);
    free(test);
    free(ts);
    return s;
}

/* Read shared lvalue c. */
char *read_shared(rewriter_t *w, CXCursor c)
{
    CXType t = clang_getCursorType(c);
    size_t at = start_of(c);
    int strict = strict_of(w, t, at);
    const char *suffix = access_suffix(w, t);
    char *s;
    if (suffix && !strict && (s = read_own_view(w, c, t, suffix)))
        return s;
    char *a = addr(w, c);
    if (suffix && !strict) { /* data on this node: a load, inline */
        s = inline_read(w, t, a, suffix);
    } else if (suffix) {
        s = xasprintf("mupc_get_%s(%s, %d, __FILE__, __LINE__)", suffix, a, strict);
    } else if (!strict) { /* a structure on this node: a copy, inline */
        char *ts = spell(w, t);
        int n = next_temp(w);
        s = xasprintf("({ %s __mupc_v%d; mupc_ptr_t __mupc_p%d = %s; char *__mupc_m%d = __mupc_at(__mupc_p%d, "
                      "sizeof __mupc_v%d); if (__mupc_m%d) __mupc_v%d = *(%s *)__mupc_m%d; else "
                      "mupc_get_block(&__mupc_v%d, __mupc_p%d, sizeof __mupc_v%d, 0, __FILE__, __LINE__); "
                      "__mupc_v%d; })",
                      ts, n, n, a, n, n, n, n, n, ts, n, n, n, n, n);
        free(ts);
    } else {
        char *ts = spell(w, t);
        int n = next_temp(w);
        s = xasprintf("({ %s __mupc_v%d; mupc_get_block(&__mupc_v%d, %s, sizeof __mupc_v%d, %d, "
                      "__FILE__, __LINE__); __mupc_v%d; })",
                      ts, n, n, a, n, strict, n);
        free(ts);
    }
    free(a);
    return s;
}

/* Write `value` to the shared location at pointer text `a`, of type t;
 * the result is the value written. */
char *write_at(rewriter_t *w, CXType t, const char *a, const char *value, size_t at)
{
    int strict = strict_of(w, t, at);
    const char *suffix = access_suffix(w, t);
    char *ts = spell(w, t);
    int n = next_temp(w);
    char *s;
    if (suffix && !strict) /* data on this node: a store, inline */
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_ptr_t __mupc_p%d = %s; char *__mupc_m%d; "
                      "if (__mupc_local(__mupc_p%d, sizeof __mupc_v%d)) *(%s *)(mupc_local_base + __mupc_p%d.addr) = "
                      "__mupc_v%d; else if ((__mupc_m%d = __mupc_node_at(__mupc_p%d, sizeof __mupc_v%d))) "
                      "*(%s *)__mupc_m%d = __mupc_v%d; else mupc_put_%s(__mupc_p%d, __mupc_v%d, 0, __FILE__, "
                      "__LINE__); __mupc_v%d; })",
                      ts, n, value, n, a, n, n, n, ts, n, n, n, n, n, ts, n, n, suffix, n, n, n);
    else if (suffix)
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_put_%s(%s, __mupc_v%d, %d, __FILE__, __LINE__); "
                      "__mupc_v%d; })",
                      ts, n, value, suffix, a, n, strict, n);
    else if (!strict) /* a structure on this node: a copy, inline */
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_ptr_t __mupc_p%d = %s; char *__mupc_m%d = "
                      "__mupc_at(__mupc_p%d, sizeof __mupc_v%d); if (__mupc_m%d) *(%s *)__mupc_m%d = __mupc_v%d; "
                      "else mupc_put_block(__mupc_p%d, &__mupc_v%d, sizeof __mupc_v%d, 0, __FILE__, __LINE__); "
                      "__mupc_v%d; })",
                      ts, n, value, n, a, n, n, n, n, ts, n, n, n, n, n, n);
    else
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_put_block(%s, &__mupc_v%d, sizeof __mupc_v%d, %d, "
                      "__FILE__, __LINE__); __mupc_v%d; })",
                      ts, n, value, a, n, n, strict, n);
    free(ts);
    return s;
}

/* l = r for a relaxed scalar l through an own-element view (own_view_of),
 * or NULL (then nothing was generated). */
char *write_own_view(rewriter_t *w, CXCursor l, CXCursor r)
{
    CXType t = clang_getCursorType(l);
    size_t at = start_of(l);
    if (!access_suffix(w, t) || strict_of(w, t, at))
        return NULL;
    char *x = NULL, *p = NULL;
    int view = own_view_of(w, l, &x, &p);
    if (view < 0)
        return NULL;
    char *value = gen(w, r);
    int m = next_temp(w);
    char *a = own_view_pointer(w, p, m, t), *test = in_view(w, view, m, t), *ts = spell(w, t);
    char *v = xasprintf("__mupc_v%d", m), *slow = write_at(w, t, a, v, at);
    char *s = xasprintf("({ %s __mupc_v%d = (%s); ptrdiff_t __mupc_x%d = (%s); if (%s) "
                        "((%s *)__mupc_w%d.base)[__mupc_x%d] = __mupc_v%d; else %s; __mupc_v%d; })",
                        ts, m, value, m, x, test, ts, view, m, m, slow, m);
    free(x);
    free(p);
    free(value);
    free(a);
    free(test);
    free(ts);
    free(v);
    free(slow);
    return s;
}

/* The new value of an update `old OP operand` of a location of type t. */
static char *updated(rewriter_t *w, CXType t, const char *old, const char *op, const char *operand,
                     size_t at)
{
    if (is_pts(w, t) && (!strcmp(op, "+") || !strcmp(op, "-")))
        return ptr_add(w, t, old, operand, op[0] == '-', at, 0);
    return xasprintf("%s %s (%s)", old, op, operand);
}

/* The inline update of a scalar of type t at pointer-to-shared text a
 * (update's form for data on this node). */
static char *inline_update(rewriter_t *w, CXType t, const char *a, const char *op,
                           const char *operand, int post, size_t at)
{
    const char *suffix = access_suffix(w, t);
    char *ts = spell(w, t);
    int n = next_temp(w);
    char *old = xasprintf("__mupc_o%d", n);
    char *nv = updated(w, t, old, op, operand, at);
    char *s = xasprintf("({ mupc_ptr_t __mupc_a%d = %s; char *__mupc_m%d = __mupc_at(__mupc_a%d, sizeof(%s)); "
                        "%s __mupc_o%d = __mupc_m%d ? *(%s *)__mupc_m%d : mupc_get_%s(__mupc_a%d, 0, __FILE__, "
                        "__LINE__); %s __mupc_v%d = %s; if (__mupc_m%d) *(%s *)__mupc_m%d = __mupc_v%d; else "
                        "mupc_put_%s(__mupc_a%d, __mupc_v%d, 0, __FILE__, __LINE__); %s%d; })",
                        n, a, n, n, ts, ts, n, n, ts, n, suffix, n, ts, n, nv, n, ts, n, n, suffix, n,
                        n, post ? "__mupc_o" : "__mupc_v", n);
    free(ts);
    free(old);
    free(nv);
    return s;
}

/* x OP= v, ++x, x++ ... on a relaxed scalar c through an own-element view
 * (own_view_of), or NULL.  X and the operand are evaluated once, into
 * temporaries, before the location is read (C leaves the order of the two
 * operands' evaluations open); the operand keeps its type (__auto_type),
 * so `int += double` still converts after the addition. */
static char *update_own_view(rewriter_t *w, CXCursor c, CXType t, const char *op,
                             const char *operand, int post)
{
    char *x = NULL, *p = NULL;
    int view = own_view_of(w, c, &x, &p);
    if (view < 0)
        return NULL;
    size_t at = start_of(c);
    int m = next_temp(w);
    char *r = xasprintf("__mupc_r%d", m);
    char *a = own_view_pointer(w, p, m, t), *test = in_view(w, view, m, t), *ts = spell(w, t);
    char *slow = inline_update(w, t, a, op, r, post, at);
    char *old = xasprintf("__mupc_o%d", m), *nv = updated(w, t, old, op, r, at);
    char *result = post ? xstrdup(old) : xasprintf("*__mupc_q%d", m);
    char *s = xasprintf("({ ptrdiff_t __mupc_x%d = (%s); __auto_type %s = (%s); %s ? ({ %s *__mupc_q%d = "
                        "(%s *)__mupc_w%d.base + __mupc_x%d; %s __mupc_o%d = *__mupc_q%d; *__mupc_q%d = %s; "
                        "%s; }) : %s; })",
                        m, x, r, operand, test, ts, m, ts, view, m, ts, m, m, m, nv, result, slow);
    free(result);
    free(x);
    free(p);
    free(r);
    free(a);
    free(test);
    free(ts);
    free(slow);
    free(old);
    free(nv);
    return s;
}

/* x OP= v, ++x, x++ ... on lvalue c: read, update, write once, with the
 * location's address computed once.  post: the result is the old value. */
char *update(rewriter_t *w, CXCursor c, const char *op, const char *operand, int post)
{
    CXType t = clang_getCursorType(c);
    size_t at = start_of(c);
    char *ts = spell(w, t);
    int n = next_temp(w);
    char *s;
    if (is_shared(w, t)) {
        const char *suffix = access_suffix(w, t);
        if (!suffix) {
            report(w, at, "'%s=' on shared data of type '%s' (not a scalar)", op, ts);
            free(ts);
            return xstrdup("0");
        }
        if (!strict_of(w, t, at)) { /* data on this node: a load and a store, inline */
            s = !is_pts(w, t) ? update_own_view(w, c, t, op, operand, post) : NULL;
            if (!s) {
                char *a = addr(w, c);
                s = inline_update(w, t, a, op, operand, post, at);
                free(a);
            }
            free(ts);
            return s;
        }
        char *a = addr(w, c);
        char *old = xasprintf("__mupc_o%d", n);
        char *nv = updated(w, t, old, op, operand, at);
        s = xasprintf("({ mupc_ptr_t __mupc_a%d = %s; %s __mupc_o%d = mupc_get_%s(__mupc_a%d, 1, __FILE__, "
                      "__LINE__); %s __mupc_v%d = %s; mupc_put_%s(__mupc_a%d, __mupc_v%d, 1, __FILE__, "
                      "__LINE__); %s%d; })",
                      n, a, ts, n, suffix, n, ts, n, nv, suffix, n, n, post ? "__mupc_o" : "__mupc_v", n);
        free(a);
        free(old);
        free(nv);
    } else { /* a private pointer-to-shared */
        char *lv = gen(w, c);
        char *old = xasprintf("__mupc_o%d", n);
        char *nv = updated(w, t, old, op, operand, at);
        s = xasprintf("({ %s *__mupc_q%d = &(%s); %s __mupc_o%d = *__mupc_q%d; *__mupc_q%d = %s; %s%d; })", ts,
                      n, lv, ts, n, n, n, nv, post ? "__mupc_o" : "*__mupc_q", n);
        free(lv);
        free(old);
        free(nv);
    }
    free(ts);
    return s;
}

/* ================================================================ */
