/* SPDX-License-Identifier: MIT */
/* rewrite_forall.c -- upc_forall loops whose owned iterations are known
 * from the loop header: run only those, and make the accesses they own by
 * construction plain loads and stores.
 *
 * A canonical loop `upc_forall (i = lo; i < hi; i++; AFF)` (also `<=`,
 * `++i`, `i += 1`; i a local int, long, long long or unsigned variable
 * whose address is not taken and that the body does not assign; hi
 * invariant in the body) with AFF `i`, `&a[i]` or `a + i` (a a
 * one-dimensional shared array or a local pointer-to-shared variable with
 * a block size, not []) has the owned iterations
 * of a blocked layout: element x = i + s0 (s0 the place of a's element 0,
 * thread * B + phase) lies on thread (x / B) % THREADS.  The loop starts
 * at the first owned i and steps over the other threads' blocks; at run
 * time, nested in another upc_forall (every iteration runs, UPC 1.3
 * §6.6.2) or outside the cases the arithmetic covers (a negative element,
 * hi too near the type's maximum), it runs every i with the usual test.
 *
 * Within the own-iteration loop, a[i] (and b[i] for an array with a's
 * layout and length, or any cyclic array under integer affinity) is in
 * this thread's part, and consecutive owned elements are consecutive
 * there: the body is emitted a second time with those accesses as
 * p[n] (p the element's local address at the first owned i, n the
 * iterations done), chosen when the runtime allows inline local accesses
 * (mupc_local_thread is MYTHREAD: no bounds checks, no GASP local
 * events).  Part of the rewriter (see rewrite.h). */
#include "rewrite_forall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- privatized accesses ---- */

/* Whether shared array d has the loop's layout: element i on the thread
 * owning iteration i, at the same place in its part as the affinity's. */
static int same_layout(rewriter_t *w, const canonical_t *l, CXCursor d, size_t at)
{
    if (!shared_vector(w, d))
        return 0;
    CXType t = clang_getCursorType(d);
    char *block = block_text(w, t, at);
    int same = !strcmp(block, l->block);
    free(block);
    if (!same || l->kind == AFF_INTEGER)
        return same;
    CXType a = clang_getCursorType(l->object);
    CXString n1 = clang_getCursorSpelling(d), n2 = clang_getCursorSpelling(l->object);
    same = clang_getArraySize(canon(t)) == clang_getArraySize(canon(a)) &&
           prelex_threads_dim(w->prelex, clang_getCString(n1)) ==
               prelex_threads_dim(w->prelex, clang_getCString(n2));
    clang_disposeString(n1);
    clang_disposeString(n2);
    return same;
}

/* Whether d is another local pointer-to-shared the body leaves alone,
 * whose layout's block size is the affinity pointer's: d[i] is then on
 * the thread owning iteration i, at the same place in its part, whenever
 * d starts at the affinity pointer's thread and phase, which the
 * privatized loop checks before it runs (emit_private_bases). */
static int same_pointer_layout(rewriter_t *w, const struct forall_priv *p, CXCursor d, size_t at)
{
    CXType t = clang_getCursorType(d);
    size_t from, to, decl = start_of(d);
    extent(p->body, &from, &to);
    if (!unchanged_pointer(w, d, p->body) || (decl >= from && decl < to))
        return 0; /* declared in the body, d does not exist before the loop */
    CXType pointee = clang_getPointeeType(canon(t));
    if (is_array(pointee) || canon(pointee).kind == CXType_Void)
        return 0;
    char *block = block_text(w, pointee, at);
    int same = !strcmp(block, p->loop->block);
    free(block);
    return same;
}

/* The private lvalue for shared lvalue c inside the own-iteration copy of
 * a canonical upc_forall's body, or NULL: c is x[i] for the affinity's
 * pointer, or an array of the same layout, relaxed and scalar. */
char *forall_private(rewriter_t *w, CXCursor c)
{
    struct forall_priv *p = w->priv;
    c = strip(c);
    if (!p || clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
        return NULL;
    const canonical_t *l = p->loop;
    CXType t = clang_getCursorType(c);
    size_t at = start_of(c);
    if (is_array(t) || is_pts(w, t) || !access_suffix(w, t) || strict_of(w, t, at))
        return NULL; /* an arithmetic type (a pointer-to-shared's += is not C's) */
    kids_t ks = children(c, 1);
    CXCursor base = ks.n == 2 ? strip(ks.v[0]) : clang_getNullCursor();
    int ok = ks.n == 2 && refers_to(ks.v[1], l->index) && clang_getCursorKind(base) == CXCursor_DeclRefExpr;
    free(ks.v);
    if (!ok)
        return NULL;
    CXCursor d = clang_getCursorReferenced(base);
    if (l->kind == AFF_POINTER ? !clang_equalCursors(d, l->object) && !same_pointer_layout(w, p, d, at)
                               : !same_layout(w, l, d, at))
        return NULL;
    int k = 0;
    while (k < p->narrays && !clang_equalCursors(p->arrays[k], d))
        k++;
    if (k == p->narrays) {
        if (k == (int)(sizeof p->arrays / sizeof *p->arrays))
            return NULL;
        p->arrays[p->narrays++] = d;
    }
    return xasprintf("(__mupc_pv%d_%d[__mupc_n%d])", p->n, k, p->n);
}

/* ---- emitting ---- */

/* Source range [from, to) with the edits of e that lie inside it applied;
 * the edits outside it are moved to keep (or dropped when keep is NULL). */
static char *apply_range(rewriter_t *w, edits_t *e, size_t from, size_t to, edits_t *keep)
{
    edits_t in = {0};
    for (size_t i = 0; i < e->n; i++) {
        edit_t *x = &e->v[i];
        if (x->start >= from && x->end <= to)
            edits_add(&in, x->start - from, x->end - from, x->text);
        else if (keep)
            edits_add(keep, x->start, x->end, x->text);
        else
            free(x->text);
    }
    free(e->v);
    *e = (edits_t){0};
    char *s = edits_apply(&in, w->text + from, to - from);
    edits_free(&in);
    return s;
}

/* The `break`s of a loop body that leave the loop itself (not one of its
 * inner loops or switches): in a two-level loop they become a goto. */
typedef struct breaks {
    size_t at[64];
    int n;
    int unsafe; /* too many, or one inside a statement expression */
    int loop;   /* the loop's temporaries' number */
} breaks_t;

static void find_breaks(CXCursor c, int in_expression, breaks_t *b)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_ForStmt || k == CXCursor_WhileStmt || k == CXCursor_DoStmt || k == CXCursor_SwitchStmt)
        return;
    if (k == CXCursor_BreakStmt) {
        if (in_expression || b->n == (int)(sizeof b->at / sizeof *b->at))
            b->unsafe = 1;
        else
            b->at[b->n++] = start_of(c);
        return;
    }
    kids_t ks = children(c, 0);
    for (int i = 0; i < ks.n; i++)
        find_breaks(ks.v[i], in_expression || k == CXCursor_StmtExpr, b);
    free(ks.v);
}

/* The body S, translated with the current context, as text; the edits
 * its declarations make elsewhere (a static's descriptor before the
 * function) are kept when keep_outside; b's breaks become gotos. */
char *body_text(rewriter_t *w, CXCursor s, size_t end, int keep_outside, const breaks_t *b)
{
    edits_t saved = w->edits, mine;
    w->edits = (edits_t){0};
    walk(w, s);
    for (int k = 0; b && k < b->n; k++)
        edits_add(&w->edits, b->at[k], b->at[k] + 5, xasprintf("goto __mupc_break%d", b->loop));
    mine = w->edits;
    w->edits = saved;
    return apply_range(w, &mine, start_of(s), end, keep_outside ? &w->edits : NULL);
}

/* `\n#line N "file"\n`: the text that follows is the user's line N again
 * (the body is emitted twice; the rest of the file keeps its lines). */
void emit_line(strbuf_t *o, CXCursor s)
{
    CXString file;
    unsigned line, column;
    clang_getPresumedLocation(clang_getCursorLocation(s), &file, &line, &column);
    sb_printf(o, "\n#line %u \"%s\"\n", line, clang_getCString(file));
    clang_disposeString(file);
}

/* Declarations before the loops: the bounds (evaluated once: lo as the
 * init does, hi is invariant), the layout (B, s0) and whether this run
 * skips the other threads' iterations. */
static void emit_bounds(rewriter_t *w, strbuf_t *o, const canonical_t *l, int n)
{
    char *its = spell(w, l->itype), *lo = gen(w, l->lo), *hi = gen(w, l->hi);
    sb_printf(o, "%s __mupc_lo%d = (%s); %s __mupc_hi%d = (%s); ", its, n, lo, its, n, hi);
    if (l->kind == AFF_INTEGER) {
        sb_printf(o, "mupc_ptr_t __mupc_b%d = {0}; ", n);
    } else if (l->kind == AFF_ARRAY) {
        char *d = descriptor_name(l->object);
        sb_printf(o, "mupc_ptr_t __mupc_b%d = %s.base; ", n, d);
        free(d);
    } else {
        CXString name = clang_getCursorSpelling(l->object);
        sb_printf(o, "mupc_ptr_t __mupc_b%d = %s; ", n, clang_getCString(name));
        clang_disposeString(name);
    }
    /* s0: the place of the layout's element 0 from a thread-0, phase-0
     * origin, so that element x = i + s0 lies on thread (x / B) % THREADS */
    sb_printf(o, "size_t __mupc_B%d = %s, __mupc_s%d = (size_t)__mupc_b%d.thread * __mupc_B%d + "
                 "__mupc_b%d.phase; (void)__mupc_s%d; ",
              n, l->block, n, n, n, n, n);
    free(its);
    free(lo);
    free(hi);
}

/* Skipping needs: not nested (depth 1), a layout, a non-empty loop whose
 * steps cannot overflow i's type, and x >= 0 at lo (integer affinity
 * takes negative values as they come). */
static void emit_skip(strbuf_t *o, const canonical_t *l, int n)
{
    int sign = is_signed_kind(l->itype); /* an unsigned i is never negative */
    sb_printf(o, "int __mupc_skip%d = __mupc_fa%d == 1 && __mupc_B%d > 0 && __mupc_lo%d %s __mupc_hi%d && ", n, n, n,
              n, l->inclusive ? "<=" : "<", n);
    if (sign)
        sb_printf(o, "(__mupc_hi%d < 0 || ", n);
    sb_printf(o, "(unsigned long long)(%s - __mupc_hi%d) >= (unsigned long long)mupc_threads * __mupc_B%d%s",
              type_max(l->itype), n, n, sign ? ")" : "");
    if (l->kind != AFF_INTEGER && sign)
        sb_printf(o, " && (long long)__mupc_lo%d + (long long)__mupc_s%d >= 0", n, n);
    sb_puts(o, "; ");
}

/* The first i to run, the elements left in its block, the run of a block
 * and the step from a block's last element to the next own block's first
 * (all 1 when every i runs). */
static void emit_start(rewriter_t *w, strbuf_t *o, const canonical_t *l, int n)
{
    char *its = spell(w, l->itype);
    sb_printf(o, "size_t __mupc_left%d = 1, __mupc_run%d = 1, __mupc_jump%d = 1; %s __mupc_start%d = __mupc_lo%d; ",
              n, n, n, its, n, n);
    if (l->kind == AFF_INTEGER)
        sb_printf(o, "if (__mupc_skip%d) { __mupc_start%d += (%s)__mupc_forall_first_int((long long)__mupc_lo%d); "
                     "__mupc_jump%d = (size_t)mupc_threads; } ",
                  n, n, its, n, n);
    else
        sb_printf(o, "if (__mupc_skip%d) { __mupc_start%d += (%s)__mupc_forall_first((size_t)((long long)"
                     "__mupc_lo%d + (long long)__mupc_s%d), __mupc_B%d, &__mupc_left%d); __mupc_run%d = "
                     "__mupc_B%d; __mupc_jump%d = ((size_t)mupc_threads - 1) * __mupc_B%d + 1; } ",
                  n, n, its, n, n, n, n, n, n, n, n);
    sb_printf(o, "(void)__mupc_run%d; (void)__mupc_left%d; ", n, n);
    free(its);
}

/* `for (INIT; COND; STEP`, without the ')'; extra is added to the step. */
static void emit_header(rewriter_t *w, strbuf_t *o, const canonical_t *l, int n, const char *extra)
{
    CXString name = clang_getCursorSpelling(l->index);
    const char *i = clang_getCString(name);
    char *its = spell(w, l->itype);
    const char *op = l->inclusive ? "<=" : "<";
    if (l->declared)
        sb_printf(o, "for (%s %s = __mupc_start%d; %s %s __mupc_hi%d; ", its, i, n, i, op, n);
    else /* i lives on: at a normal end it holds what every-iteration would leave */
        sb_printf(o, "for (%s = __mupc_start%d; %s %s __mupc_hi%d || (__mupc_skip%d ? (void)(%s = __mupc_hi%d + %d) "
                     ": (void)0, 0); ",
                  i, n, i, op, n, n, i, n, l->inclusive);
    if (!strcmp(l->block, "(1)"))
        sb_printf(o, "%s += (%s)__mupc_jump%d%s", i, its, n, extra);
    else
        sb_printf(o, "--__mupc_left%d ? (void)(%s += 1) : (void)(%s += (%s)__mupc_jump%d, __mupc_left%d = "
                     "__mupc_run%d)%s",
                  n, i, i, its, n, n, n, extra);
    clang_disposeString(name);
    free(its);
}

/* A cyclic privatized loop counts its iterations (a trip count the C
 * compiler can vectorize with) and derives i from the count:
 * `for (...) { T i = ...; ` */
static void emit_counted_header(rewriter_t *w, strbuf_t *o, const canonical_t *l, int n)
{
    CXString name = clang_getCursorSpelling(l->index);
    const char *i = clang_getCString(name);
    char *its = spell(w, l->itype);
    sb_printf(o, "size_t __mupc_cnt%d = __mupc_start%d %s __mupc_hi%d ? (size_t)(((unsigned long long)__mupc_hi%d - "
                 "(unsigned long long)__mupc_start%d - %d) / __mupc_jump%d) + 1 : 0; ",
              n, n, l->inclusive ? "<=" : "<", n, n, n, !l->inclusive, n);
    if (l->declared)
        sb_printf(o, "for (; __mupc_n%d < __mupc_cnt%d; __mupc_n%d++) { %s ", n, n, n, its);
    else /* i lives on: at a normal end it holds what every-iteration would leave */
        sb_printf(o, "for (; __mupc_n%d < __mupc_cnt%d || (%s = (%s)(__mupc_hi%d + %d), 0); __mupc_n%d++) { ", n, n, i,
                  its, n, l->inclusive, n);
    sb_printf(o, "%s = (%s)((unsigned long long)__mupc_start%d + __mupc_n%d * __mupc_jump%d); (void)%s; ", i, its, n,
              n, n, i);
    clang_disposeString(name);
    free(its);
}

/* A blocked privatized loop walks its own blocks, an inner loop over
 * each block's elements in [lo, hi) (a loop the C compiler can vectorize):
 * `for (blocks) { T end = ...; for (i over the block) `.  From a block's
 * first element in range, left elements end it and jump - 1 more reach
 * the next own block. */
static void emit_blocks_header(rewriter_t *w, strbuf_t *o, const canonical_t *l, int n)
{
    CXString name = clang_getCursorSpelling(l->index);
    const char *i = clang_getCString(name);
    char *its = spell(w, l->itype);
    sb_printf(o, "for (%s __mupc_blk%d = __mupc_start%d; __mupc_blk%d %s __mupc_hi%d; "
                 "__mupc_blk%d += (%s)(__mupc_left%d + __mupc_jump%d - 1), __mupc_left%d = __mupc_run%d) { ",
              its, n, n, n, l->inclusive ? "<=" : "<", n, n, its, n, n, n, n);
    /* in i's type, which lets the C compiler bound the inner loop: no
     * overflow, as the loop starts at lo >= 0 */
    sb_printf(o, "%s __mupc_end%d = __mupc_hi%d - __mupc_blk%d < (%s)__mupc_left%d - %d ? __mupc_hi%d + %d : "
                 "__mupc_blk%d + (%s)__mupc_left%d; ",
              its, n, n, n, its, n, l->inclusive, n, l->inclusive, n, its, n);
    sb_printf(o, "for (%s%s%s = __mupc_blk%d; %s < __mupc_end%d; %s++, __mupc_n%d++)", l->declared ? its : "",
              l->declared ? " " : "", i, n, i, n, i, n);
    clang_disposeString(name);
    free(its);
}

/* After the blocks: i's value at a normal end, where a break goes. */
static void emit_blocks_end(strbuf_t *o, const canonical_t *l, int n, int breaks)
{
    if (!l->declared) {
        CXString name = clang_getCursorSpelling(l->index);
        sb_printf(o, "%s = __mupc_hi%d + %d; ", clang_getCString(name), n, l->inclusive);
        clang_disposeString(name);
    }
    if (breaks)
        sb_printf(o, "__mupc_break%d: ; ", n);
    sb_puts(o, "} else ");
}

/* The element type of privatized array or pointer variable d. */
static CXType private_element(const canonical_t *l, CXCursor d)
{
    CXType t = clang_getCursorType(d);
    return l->kind == AFF_POINTER ? clang_getPointeeType(canon(t)) : element_type(canon(t));
}

/* The privatized loop's pointers: element i's local address at the first i. */
static void emit_private_bases(rewriter_t *w, strbuf_t *o, const struct forall_priv *p, size_t at)
{
    const canonical_t *l = p->loop;
    int n = p->n;
    for (int k = 0; k < p->narrays; k++) {
        CXType t = clang_getCursorType(p->arrays[k]);
        char *es = spell(w, private_element(l, p->arrays[k]));
        if (l->kind == AFF_POINTER) {
            /* the affinity pointer (copied before the loop), or another one */
            CXString name = clang_getCursorSpelling(p->arrays[k]);
            char *start = xasprintf("__mupc_start%d", n);
            char *b = clang_equalCursors(p->arrays[k], l->object) ? xasprintf("__mupc_b%d", n)
                                                                   : xstrdup(clang_getCString(name));
            clang_disposeString(name);
            char *first = ptr_add_in(w, t, b, start, 0, at, 0, 0);
            sb_printf(o, "%s *__mupc_pv%d_%d = (%s *)(mupc_local_base + (%s).addr); ", es, n, k, es, first);
            free(start);
            free(b);
            free(first);
        } else {
            char *d = descriptor_name(p->arrays[k]);
            sb_printf(o, "%s *__mupc_pv%d_%d = (%s *)(mupc_local_base + %s.base.addr) + "
                         "__mupc_forall_local_index((size_t)__mupc_start%d + __mupc_s%d, __mupc_B%d); ",
                      es, n, k, es, d, n, n, n);
            free(d);
        }
        free(es);
    }
}

/* The privatized loop's conditions on its arrays and pointers: another
 * pointer starts where the affinity's does, and every element the loop
 * may touch lies in the segment (its accesses are not checked one by one). */
static void emit_private_checks(rewriter_t *w, strbuf_t *o, const struct forall_priv *p)
{
    const canonical_t *l = p->loop;
    int n = p->n;
    for (int k = 0; k < p->narrays; k++) {
        char *es = spell(w, private_element(l, p->arrays[k])), *row0;
        if (l->kind == AFF_POINTER) {
            CXString name = clang_getCursorSpelling(p->arrays[k]);
            const char *v = clang_getCString(name);
            if (!clang_equalCursors(p->arrays[k], l->object))
                sb_printf(o, " && %s.thread == __mupc_b%d.thread && %s.phase == __mupc_b%d.phase", v, n, v, n);
            row0 = xasprintf("%s.addr - (uint64_t)%s.phase * sizeof(%s)", v, v, es);
            clang_disposeString(name);
        } else {
            char *d = descriptor_name(p->arrays[k]);
            row0 = xasprintf("%s.base.addr", d);
            free(d);
        }
        sb_printf(o, " && __mupc_forall_fits(%s, (size_t)__mupc_hi%d%s + __mupc_s%d, __mupc_B%d, sizeof(%s))",
                  row0, n, l->inclusive ? "" : " - 1", n, n, es);
        free(row0);
        free(es);
    }
}

/* The loop with the privatized body: `if (...) { ... for ... } else `. */
static char *private_loop(rewriter_t *w, const canonical_t *l, int n, CXCursor s, size_t end)
{
    struct forall_priv p = {l, n, s, {{0}}, 0}, *outer = w->priv;
    w->priv = &p; /* only this loop's accesses, in its body; an enclosing loop's again after it */
    int cyclic = !strcmp(l->block, "(1)");
    breaks_t b = {{0}, 0, 0, n};
    if (!cyclic)
        find_breaks(s, 0, &b);
    char *body = body_text(w, s, end, 0, cyclic || b.unsafe ? NULL : &b);
    w->priv = outer;
    if (!p.narrays) {
        free(body);
        return xstrdup("");
    }
    strbuf_t o;
    sb_init(&o);
    /* the runtime allows plain local accesses; an integer affinity's
     * arrays start at element 0; blocks are walked from lo >= 0 */
    sb_printf(&o, "if (__mupc_skip%d && mupc_local_thread == (uint32_t)mupc_mythread", n);
    if ((l->kind == AFF_INTEGER || !cyclic) && is_signed_kind(l->itype))
        sb_printf(&o, " && __mupc_lo%d >= 0", n);
    emit_private_checks(w, &o, &p);
    sb_puts(&o, ") { ");
    emit_private_bases(w, &o, &p, start_of(s));
    sb_printf(&o, "size_t __mupc_n%d = 0; ", n);
    if (cyclic) {
        emit_counted_header(w, &o, l, n);
        emit_line(&o, s);
        sb_printf(&o, "%s } } else ", body);
    } else if (!b.unsafe) {
        emit_blocks_header(w, &o, l, n);
        emit_line(&o, s);
        sb_printf(&o, "%s } ", body);
        emit_blocks_end(&o, l, n, b.n);
    } else {
        char *extra = xasprintf(", __mupc_n%d++", n);
        emit_header(w, &o, l, n, extra);
        free(extra);
        sb_puts(&o, ")");
        emit_line(&o, s);
        sb_printf(&o, "%s } else ", body);
    }
    free(body);
    return sb_take(&o);
}

/* Rewrite upc_forall c (children ks, body `if (marker) ; else S`) whole
 * when it is canonical; returns 0 (nothing done) otherwise. */
int forall_owned_iterations(rewriter_t *w, CXCursor c, kids_t ks, CXCursor body, CXCursor call)
{
    canonical_t l;
    kids_t bk = children(body, 0);
    CXCursor s = bk.v[bk.n - 1];
    free(bk.v);
    if (!canonical(w, c, ks, call, s, &l)) {
        free(l.block);
        return 0;
    }
    size_t cs, e;
    extent(c, &cs, &e);
    size_t end = clang_getCursorKind(s) == CXCursor_CompoundStmt ? e : past_semicolon(w, e);
    int n = next_temp(w);
    strbuf_t o;
    sb_init(&o);
    sb_puts(&o, "{ ");
    if (w->gasp)
        sb_printf(&o, "__attribute__((cleanup(__mupc_forall_gasp_leave))) struct __mupc_site __mupc_fg%d = "
                      "__mupc_forall_gasp_enter((struct __mupc_site){0, __FILE__, __LINE__}); ",
                  n);
    sb_printf(&o, "__attribute__((cleanup(__mupc_forall_leave))) int __mupc_fa%d = __mupc_forall_enter(); ", n);
    emit_bounds(w, &o, &l, n);
    emit_skip(&o, &l, n);
    emit_start(w, &o, &l, n);
    int errors = w->errors;
    char *general = body_text(w, s, end, 1, NULL);
    /* a body that is wrong is reported once; one that cannot be copied
     * (a label, a static) runs the general copy */
    int copy = w->errors == errors && !scan(w, s, l.index).unsafe_copy;
    char *priv = copy ? private_loop(w, &l, n, s, end) : xstrdup("");
    char *test = affinity_test(w, call, n);
    sb_puts(&o, priv);
    emit_header(w, &o, &l, n, "");
    sb_printf(&o, ") if (!__mupc_skip%d && %s) ; else", n, test);
    emit_line(&o, s);
    sb_printf(&o, "%s }", general);
    edits_add(&w->edits, cs, end, sb_take(&o));
    free(general);
    free(priv);
    free(test);
    free(l.block);
    return 1;
}
