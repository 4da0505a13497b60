/* SPDX-License-Identifier: MIT */
/* rewrite_lvalue.c -- shared lvalues: the address of a shared object, element or member
 * (pointer-to-shared arithmetic); their reads, writes and updates are
 * rewrite_access.c's.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ */
/* Shared lvalues: their address                                    */
/* ================================================================ */


/* An implicit conversion or parentheses around exactly one expression. */
int is_wrapper(CXCursor c, CXCursor *inner)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k != CXCursor_UnexposedExpr && k != CXCursor_ParenExpr)
        return 0;
    kids_t ks = children(c, 1);
    int one = ks.n == 1;
    if (one)
        *inner = ks.v[0];
    free(ks.v);
    return one;
}

CXCursor strip(CXCursor c)
{
    CXCursor in;
    while (is_wrapper(c, &in))
        c = in;
    return c;
}

/* Whether c (through wrappers) names variable var. */
int refers_to(CXCursor c, CXCursor var)
{
    c = strip(c);
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr &&
           clang_equalCursors(clang_getCursorReferenced(c), var);
}

/* Whether c's first operand names var. */
int first_operand_is(CXCursor c, CXCursor var)
{
    kids_t ks = children(c, 1);
    int is = ks.n >= 1 && refers_to(ks.v[0], var);
    free(ks.v);
    return is;
}

/* Whether c writes its first operand: an assignment, a compound
 * assignment, ++ or --, or takes its address (&). */
int writes_operand(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_CompoundAssignOperator)
        return 1;
    if (k == CXCursor_BinaryOperator)
        return clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign;
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        return op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc || op == CXUnaryOperator_PostDec ||
               op == CXUnaryOperator_PreDec || op == CXUnaryOperator_AddrOf;
    }
    return 0;
}

/* A file-scope shared object named by c (through wrappers), or a null cursor. */
static int shared_object(rewriter_t *w, CXCursor c, CXCursor *decl)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(c);
    if (clang_getCursorKind(d) != CXCursor_VarDecl || !is_shared(w, clang_getCursorType(d)))
        return 0;
    *decl = d;
    return 1;
}

/* The mupc_static_t of a shared object: NAME__mupc at file scope; a static
 * in a function gets its declaration's offset too (names may repeat). */
char *descriptor_name(CXCursor decl)
{
    CXString name = clang_getCursorSpelling(decl);
    int local = clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl &&
                clang_Cursor_getStorageClass(decl) != CX_SC_Extern; /* a block-scope extern is the global */
    /* numbered by where its name is: each declarator of `static shared
     * double a, b;` has its own place, and every reference finds the same
     * one (the extent's start differs between the declaration and a
     * reference's view of it) */
    char *s = local ? xasprintf("%s__mupc_%zu", clang_getCString(name), offset_of(clang_getCursorLocation(decl)))
                    : xasprintf("%s__mupc", clang_getCString(name));
    clang_disposeString(name);
    return s;
}

/* A parameter declared as a shared array with THREADS in a dimension
 * after the first (`shared int a[2][10*THREADS]`): a pointer to rows whose
 * length the prelexer recorded under its name, like a file-scope array's. */
static int threads_row_parameter(rewriter_t *w, CXCursor c, CXCursor *decl)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(c);
    CXType t = clang_getCursorType(d);
    if (clang_getCursorKind(d) != CXCursor_ParmDecl || canon(t).kind != CXType_Pointer ||
        !is_array(clang_getPointeeType(canon(t))) || !is_pts(w, t))
        return 0;
    CXString name = clang_getCursorSpelling(d);
    int dim = prelex_threads_dim(w->prelex, clang_getCString(name));
    clang_disposeString(name);
    if (dim < 1)
        return 0;
    *decl = d;
    return 1;
}

/* For a[i][j]...: the shared object at the root and how many subscripts
 * lie between it and c (0 for the object itself). */
static int subscript_root(rewriter_t *w, CXCursor c, CXCursor *decl, int *depth)
{
    c = strip(c);
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) { /* *&a is a */
        kids_t ks = children(c, 1);
        CXCursor in = ks.n == 1 ? strip(ks.v[0]) : clang_getNullCursor();
        free(ks.v);
        if (!clang_Cursor_isNull(in) && clang_getCursorKind(in) == CXCursor_UnaryOperator &&
            clang_getCursorUnaryOperatorKind(in) == CXUnaryOperator_AddrOf) {
            kids_t inner = children(in, 1);
            int found = inner.n == 1 && subscript_root(w, inner.v[0], decl, depth);
            free(inner.v);
            return found;
        }
    }
    if (threads_row_parameter(w, c, decl)) {
        *depth = 0; /* a[i] of `shared int a[][10*THREADS]`: as for the array passed */
        return 1;
    }
    if (!is_array(clang_getCursorType(c)))
        return 0; /* a pointer read from shared memory starts afresh */
    if (clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr) {
        kids_t ks = children(c, 1);
        int found = ks.n == 2 && subscript_root(w, ks.v[0], decl, depth);
        free(ks.v);
        if (found)
            ++*depth;
        return found;
    }
    *depth = 0;
    return shared_object(w, c, decl);
}

/* Which dimension of the file-scope shared array under subscript chain c
 * held THREADS (-1: none, or c is no such chain); *depth as subscript_root. */
int root_threads_dim(rewriter_t *w, CXCursor c, int *depth)
{
    CXCursor decl;
    if (!subscript_root(w, c, &decl, depth))
        return -1;
    CXString name = clang_getCursorSpelling(decl);
    int dim = prelex_threads_dim(w->prelex, clang_getCString(name));
    clang_disposeString(name);
    return dim;
}

/* Number of innermost elements in one element of type t (1 for a scalar),
 * as C text; `threads` multiplies the THREADS dimension in. */
char *leaf_count(CXType t, int threads_dim_below)
{
    long long n = 1;
    while (is_array(t)) {
        n *= clang_getArraySize(canon(t)) > 0 ? clang_getArraySize(canon(t)) : 1;
        t = element_type(t);
    }
    return threads_dim_below ? xasprintf("(%lldLL * mupc_threads)", n) : xasprintf("%lldLL", n);
}


/* Whether lvalue x lies inside a member of a shared structure: the member
 * (s.m, p->m), an element of an array member (s.v[1], s.v[0][1]), or *p
 * for such a p. */
int member_lvalue(rewriter_t *w, CXCursor x)
{
    x = strip(x);
    switch (clang_getCursorKind(x)) {
    case CXCursor_MemberRefExpr:
        return is_shared(w, clang_getCursorType(x));
    case CXCursor_ArraySubscriptExpr: { /* an array's element, not a pointer's */
        kids_t ks = children(x, 1);
        int r = ks.n == 2 && is_array(clang_getCursorType(strip(ks.v[0]))) && member_lvalue(w, ks.v[0]);
        free(ks.v);
        return r;
    }
    case CXCursor_UnaryOperator: {
        if (clang_getCursorUnaryOperatorKind(x) != CXUnaryOperator_Deref)
            return 0;
        kids_t ks = children(x, 1);
        int r = ks.n == 1 && member_derived(w, ks.v[0]);
        free(ks.v);
        return r;
    }
    default:
        return 0;
    }
}

/* Whether pointer expression c (or an array that decays to one) points
 * inside a member of a shared structure (s[i].arr, &s[i].v[0][1], p->arr):
 * UPC 1.3 §6.4.4 gives such an address the type shared [] T *, so
 * arithmetic on it stays on the structure's thread, whatever the
 * structure's block size.  A pointer-to-shared stored in a member (s.next,
 * s.p[0]) is only a value: no. */
int member_derived(rewriter_t *w, CXCursor c)
{
    c = strip(c);
    if (is_array(clang_getCursorType(c))) /* decays to the address of its first element */
        return member_lvalue(w, c);
    if (clang_getCursorKind(c) != CXCursor_UnaryOperator ||
        clang_getCursorUnaryOperatorKind(c) != CXUnaryOperator_AddrOf)
        return 0;
    kids_t ks = children(c, 1);
    int r = ks.n == 1 && member_lvalue(w, ks.v[0]);
    free(ks.v);
    return r;
}

/* The address of a member of a shared structure (`&s->next`) stored in a
 * pointer-to-shared of a definite block size: UPC 1.3 §6.4.4 gives it
 * the type shared [] T *, incompatible with shared [B] T * (clang types
 * it with the structure's block size and sees nothing); a warning, as
 * other UPC compilers give, and the value is stored as it is. */
void check_member_address(rewriter_t *w, CXType to, CXCursor from)
{
    if (!is_pts(w, to) || !member_derived(w, from) || is_array(clang_getCursorType(strip(from))))
        return;
    CXType pointee = clang_getPointeeType(canon(to));
    const layout_t *l = layout_of(w, pointee);
    if (canon(pointee).kind == CXType_Void || !l || l->kind == BLOCK_INDEFINITE)
        return;
    warn(w, start_of(from), "the address of a member of a shared structure is a 'shared []' pointer "
         "(UPC 1.3 §6.4.4), here converted to block size %s: write 'shared []' in the pointer's type, "
         "or a cast", l->kind == BLOCK_STAR ? "[*]" : l->block);
}

/* p + n for a pointer-to-shared p of type ptype. */
/* Whether pointer p points to rows with THREADS in their length: a
 * file-scope array `shared int a[2][10*THREADS]` decayed (a + 1), or a
 * parameter declared so. */
int threads_rows(rewriter_t *w, CXCursor p)
{
    int depth = 0;
    return root_threads_dim(w, p, &depth) > depth;
}

char *ptr_add_in(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate,
                 size_t offset, int threads_scaled, int in_struct)
{
    CXType pointee = clang_getPointeeType(canon(ptype));
    if (canon(pointee).kind == CXType_Void) {
        report(w, offset, "arithmetic on a pointer to shared void: the pointed-to type must be "
                          "complete (UPC 1.3 §6.4.2); cast it to a pointer to the data's type first");
        return xstrdup(p);
    }
    CXType leaf = leaf_type(pointee);
    char *leaf_s = spell(w, leaf);
    char *count = leaf_count(pointee, threads_scaled);
    /* an array inside a shared structure lies on the structure's thread */
    char *block = in_struct ? xstrdup("0") : block_text(w, pointee, offset);
    char *s = xasprintf("__mupc_add(%s, %s(ptrdiff_t)(%s) * %s, sizeof(%s), %s)", p, negate ? "-" : "",
                        n, count, leaf_s, block);
    free(leaf_s);
    free(count);
    free(block);
    return s;
}

char *ptr_add(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate,
                     size_t offset, int threads_scaled)
{
    return ptr_add_in(w, ptype, p, n, negate, offset, threads_scaled, 0);
}


/* For a[i][j]... on a file-scope shared array: the index of the element
 * (or row) in the array's innermost elements, as C text; NULL when c is
 * not such a subscript chain.  *root is the array. */
static char *rooted_index(rewriter_t *w, CXCursor c, CXCursor *root, int *depth)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
        return NULL;
    kids_t ks = children(c, 1);
    if (ks.n != 2 || !is_pts(w, clang_getCursorType(ks.v[0]))) {
        free(ks.v);
        return NULL;
    }
    CXCursor base = strip(ks.v[0]), index = ks.v[1];
    free(ks.v);
    char *outer = NULL;
    /* only through array decay: a pointer-to-shared read from a shared
     * array (p = a[i]; p[j]) starts a new chain */
    if (!is_array(clang_getCursorType(base)))
        return NULL;
    if (clang_getCursorKind(base) == CXCursor_ArraySubscriptExpr) {
        outer = rooted_index(w, base, root, depth);
        if (!outer)
            return NULL;
        ++*depth;
    } else if (shared_object(w, base, root)) {
        *depth = 0;
    } else {
        return NULL;
    }
    CXString name = clang_getCursorSpelling(*root);
    int scaled = prelex_threads_dim(w->prelex, clang_getCString(name)) > *depth;
    clang_disposeString(name);
    char *count = leaf_count(clang_getCursorType(c), scaled);
    char *i = gen(w, index);
    char *s = outer ? xasprintf("%s + (ptrdiff_t)(%s) * %s", outer, i, count)
                    : xasprintf("(ptrdiff_t)(%s) * %s", i, count);
    free(outer);
    free(count);
    free(i);
    return s;
}

/* Whether c (through wrappers) names the variable `name` (the prelude's
 * mupc_threads / mupc_mythread: THREADS and MYTHREAD). */
static int names_variable(CXCursor c, const char *name)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXString n = clang_getCursorSpelling(c);
    int is = !strcmp(clang_getCString(n), name);
    clang_disposeString(n);
    return is;
}

/* Whether clang evaluates c to an integer constant; its value in *v. */
static int int_constant(CXCursor c, long long *v)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    int is = r && clang_EvalResult_getKind(r) == CXEval_Int;
    if (is)
        *v = clang_EvalResult_getAsLongLong(r);
    if (r)
        clang_EvalResult_dispose(r);
    return is;
}

static int is_int_constant(CXCursor c)
{
    long long v;
    return int_constant(c, &v);
}

/* Whether c is THREADS: the variable, or with static THREADS (-T N) the
 * constant N it expands to (an index X * N + MYTHREAD is then the idiom
 * whoever wrote the N). */
static int names_threads(rewriter_t *w, CXCursor c)
{
    long long v;
    return names_variable(c, "mupc_threads") ||
           (w->prelex->static_threads && int_constant(c, &v) && v == w->prelex->static_threads);
}

/* The X of an index written X * THREADS + MYTHREAD (either order of each
 * operation), the idiom for this thread's X-th element of a cyclic array;
 * the index itself when it is MYTHREAD alone (X = 0, see own_x); or a
 * null cursor. */
static CXCursor own_element_index(rewriter_t *w, CXCursor index)
{
    CXCursor none = clang_getNullCursor(), c = strip(index);
    if (names_variable(c, "mupc_mythread"))
        return c;
    if (clang_getCursorKind(c) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(c) != CXBinaryOperator_Add)
        return none;
    kids_t ks = children(c, 1);
    CXCursor product = none, x = none;
    if (ks.n == 2)
        product = names_variable(ks.v[1], "mupc_mythread") ? strip(ks.v[0])
                  : names_variable(ks.v[0], "mupc_mythread") ? strip(ks.v[1]) : none;
    free(ks.v);
    if (clang_Cursor_isNull(product) || clang_getCursorKind(product) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(product) != CXBinaryOperator_Mul)
        return none;
    ks = children(product, 1);
    if (ks.n == 2)
        x = names_threads(w, ks.v[1]) ? ks.v[0] : names_threads(w, ks.v[0]) ? ks.v[1] : none;
    free(ks.v);
    return x;
}

/* The text of X from own_element_index(index). */
static char *own_x(rewriter_t *w, CXCursor x, CXCursor index)
{
    return clang_equalCursors(x, strip(index)) ? xstrdup("0") : gen(w, x);
}

/* p[X * THREADS + MYTHREAD] through a pointer to a cyclic array of
 * scalars or structures: this thread's X-th element when p points to
 * thread 0 (as upc_all_alloc's result does), without dividing by THREADS;
 * NULL when the subscript is not that idiom. */
static char *pointer_own_element(rewriter_t *w, CXCursor c, CXCursor base, CXCursor index)
{
    CXCursor x = own_element_index(w, index);
    if (clang_Cursor_isNull(x))
        return NULL;
    CXType pointee = clang_getPointeeType(canon(clang_getCursorType(base)));
    char *block = block_text(w, pointee, start_of(c));
    int cyclic = !strcmp(block, "(1)") && !is_array(canon(pointee));
    free(block);
    if (!cyclic)
        return NULL;
    char *b = gen(w, base), *xs = own_x(w, x, index), *leaf = spell(w, pointee);
    char *s = xasprintf("__mupc_add_own(%s, (ptrdiff_t)(%s), sizeof(%s))", b, xs, leaf);
    free(b);
    free(xs);
    free(leaf);
    return s;
}

/* p[X * THREADS + MYTHREAD] where p is a pointer-to-shared to a cyclic
 * array that a loop cannot change, with a view of this thread's part
 * declared before the loop (rewrite_hoist.c): the view's number N
 * (__mupc_wN), with *x the text of X and *p that of the pointer; else -1. */
int own_view_of(rewriter_t *w, CXCursor c, char **x, char **p)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_ArraySubscriptExpr)
        return -1;
    kids_t ks = children(c, 1);
    int two = ks.n == 2;
    CXCursor base = two ? ks.v[0] : c, index = two ? ks.v[1] : c;
    if (two && !is_pts(w, clang_getCursorType(base))) { /* i[p] */
        base = ks.v[1];
        index = ks.v[0];
    }
    free(ks.v);
    if (!two || !is_pts(w, clang_getCursorType(base)))
        return -1;
    int view = hoisted_view(w, base);
    CXCursor own = view < 0 ? clang_getNullCursor() : own_element_index(w, index);
    if (clang_Cursor_isNull(own))
        return -1;
    *p = gen(w, base);
    *x = own_x(w, own, index);
    return view;
}

/* The pointer-to-shared text of p[X * THREADS + MYTHREAD], X in temporary
 * __mupc_xM (the runtime's path when X is outside the view). */
char *own_view_pointer(rewriter_t *w, const char *p, int m, CXType t)
{
    char *leaf = spell(w, t);
    char *s = xasprintf("__mupc_add_own(%s, __mupc_x%d, sizeof(%s))", p, m, leaf);
    free(leaf);
    return s;
}

/* Splits an index written X * K + J (any order of either operation; J
 * absent means 0) with K an integer constant: the idiom for element J of
 * block X when K is the block size.  0 when the index is not so written. */
static int block_element_index(CXCursor index, CXCursor *x, CXCursor *k, CXCursor *j)
{
    CXCursor c = strip(index), product = c;
    *j = clang_getNullCursor();
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator &&
        clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Add) {
        kids_t ks = children(c, 1);
        int left = ks.n == 2 && clang_getCursorKind(strip(ks.v[0])) == CXCursor_BinaryOperator &&
                   clang_getCursorBinaryOperatorKind(strip(ks.v[0])) == CXBinaryOperator_Mul;
        if (ks.n == 2) {
            product = strip(ks.v[left ? 0 : 1]);
            *j = ks.v[left ? 1 : 0];
        }
        free(ks.v);
    }
    if (clang_getCursorKind(product) != CXCursor_BinaryOperator ||
        clang_getCursorBinaryOperatorKind(product) != CXBinaryOperator_Mul)
        return 0;
    kids_t ks = children(product, 1);
    int ok = ks.n == 2 && (is_int_constant(ks.v[1]) || is_int_constant(ks.v[0]));
    if (ok) {
        int k_right = is_int_constant(ks.v[1]);
        *k = ks.v[k_right ? 1 : 0];
        *x = ks.v[k_right ? 0 : 1];
    }
    free(ks.v);
    return ok;
}

/* p[X * B + J] through a pointer to a blocked array of scalars or
 * structures, B its block size: element J of the X-th block from p, on
 * the X-th thread after p's when p is at the start of a block and no
 * wrap-around happens, without dividing (the rows of a per-thread table,
 * `count[MYTHREAD * B + j]`, `count[t * B + j]`); NULL when the subscript
 * is not that idiom. */
static char *pointer_block_element(rewriter_t *w, CXCursor c, CXCursor base, CXCursor index)
{
    CXCursor x, k, j;
    if (!block_element_index(index, &x, &k, &j))
        return NULL;
    CXType pointee = clang_getPointeeType(canon(clang_getCursorType(base)));
    if (is_array(canon(pointee)))
        return NULL;
    char *block = block_text(w, pointee, start_of(c));
    char *b = gen(w, base), *xs = gen(w, x), *ks = gen(w, k), *leaf = spell(w, pointee);
    char *js = clang_Cursor_isNull(j) ? xstrdup("0") : gen(w, j);
    char *s = xasprintf("__mupc_add_block(%s, (ptrdiff_t)(%s), (ptrdiff_t)(%s), (ptrdiff_t)(%s), sizeof(%s), %s)",
                        b, xs, ks, js, leaf, block);
    free(block);
    free(b);
    free(xs);
    free(ks);
    free(js);
    free(leaf);
    return s;
}

static char *addr_subscript(rewriter_t *w, CXCursor c)
{
    CXCursor root;
    int levels = 0;
    char *linear = rooted_index(w, c, &root, &levels);
    kids_t sub = children(c, 1);
    CXCursor subscript = sub.n == 2 ? sub.v[1] : clang_getNullCursor();
    CXCursor own = sub.n == 2 && levels == 0 ? own_element_index(w, subscript) : clang_getNullCursor();
    free(sub.v);
    if (linear && !clang_Cursor_isNull(own)) {
        CXType t = clang_getCursorType(root);
        char *block = block_text(w, t, start_of(c));
        /* the idiom is for one-dimensional cyclic arrays (of scalars or
         * structures: an element that is a row spans threads) */
        if (strcmp(block, "(1)") != 0 || is_array(element_type(canon(t))))
            own = clang_getNullCursor();
        free(block);
    }
    if (linear && !clang_Cursor_isNull(own)) {
        /* a[X * THREADS + MYTHREAD] of a cyclic array: this thread's
         * element X, without dividing by THREADS */
        CXType t = clang_getCursorType(root);
        char *desc = descriptor_name(root), *leaf = spell(w, leaf_type(t)), *x = own_x(w, own, subscript);
        char *s = xasprintf("__mupc_index_own(%s.base, (ptrdiff_t)(%s), sizeof(%s))", desc, x, leaf);
        free(desc);
        free(leaf);
        free(x);
        free(linear);
        return s;
    }
    if (linear) { /* element of a static array: inline arithmetic from its base */
        CXType t = clang_getCursorType(root);
        char *desc = descriptor_name(root), *leaf = spell(w, leaf_type(t));
        char *block = block_text(w, t, start_of(c));
        char *s = xasprintf("__mupc_index(%s.base, %s, sizeof(%s), %s)", desc, linear, leaf, block);
        free(desc);
        free(leaf);
        free(block);
        free(linear);
        return s;
    }
    kids_t ks = children(c, 1);
    if (ks.n != 2) {
        free(ks.v);
        return xstrdup("MUPC_NULL_PTR");
    }
    CXCursor base = ks.v[0], index = ks.v[1];
    if (!is_pts(w, clang_getCursorType(base))) { /* i[a] */
        base = ks.v[1];
        index = ks.v[0];
    }
    free(ks.v);
    /* THREADS scaling: a subscript of a file-scope array whose THREADS
     * dimension lies below this subscript's level. */
    int depth = 0, scaled = root_threads_dim(w, base, &depth) > depth;
    int in_struct = member_derived(w, base);
    char *s = !scaled && !in_struct ? pointer_own_element(w, c, base, index) : NULL;
    if (!s && !scaled && !in_struct)
        s = pointer_block_element(w, c, base, index);
    if (s)
        return s;
    char *b = gen(w, base), *i = gen(w, index);
    s = ptr_add_in(w, clang_getCursorType(base), b, i, 0, start_of(c), scaled, in_struct);
    free(b);
    free(i);
    return s;
}

static char *addr_member(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    if (ks.n != 1) {
        free(ks.v);
        report(w, start_of(c), "this member access of shared data is not supported by mupc-translate "
                               "yet; take the member through a pointer-to-shared to the structure");
        return xstrdup("MUPC_NULL_PTR");
    }
    CXCursor base = ks.v[0];
    free(ks.v);
    if (clang_Cursor_isBitField(clang_getCursorReferenced(c))) {
        CXString member = clang_getCursorSpelling(c);
        report(w, start_of(c), "bit-field '%s' of a shared structure: not supported by mupc-translate "
               "yet; copy the whole structure to a private one, use its bit-field, and copy it back",
               clang_getCString(member));
        clang_disposeString(member);
        return xstrdup("MUPC_NULL_PTR");
    }
    CXType bt = clang_getCursorType(base);
    int arrow = is_pts(w, bt);
    CXType record = arrow ? clang_getPointeeType(canon(bt)) : bt;
    char *p = arrow ? gen(w, base) : addr(w, base);
    char *rs = spell(w, record);
    CXString member = clang_getCursorSpelling(c);
    char *s = xasprintf("__mupc_member(%s, offsetof(%s, %s))", p, rs, clang_getCString(member));
    clang_disposeString(member);
    free(p);
    free(rs);
    return s;
}

/* The pointer-to-shared (mupc_ptr_t text) of shared lvalue c. */
char *addr(rewriter_t *w, CXCursor c)
{
    CXCursor in, decl;
    switch (clang_getCursorKind(c)) {
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
        if (is_wrapper(c, &in))
            return addr(w, in);
        break;
    case CXCursor_DeclRefExpr:
        if (shared_object(w, c, &decl)) {
            char *desc = descriptor_name(decl);
            char *s = xasprintf("%s.base", desc);
            free(desc);
            return s;
        }
        break;
    case CXCursor_ArraySubscriptExpr:
        return addr_subscript(w, c);
    case CXCursor_MemberRefExpr:
        return addr_member(w, c);
    case CXCursor_UnaryOperator:
        if (clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref) {
            kids_t ks = children(c, 1);
            char *s = ks.n == 1 ? gen(w, ks.v[0]) : xstrdup("MUPC_NULL_PTR");
            free(ks.v);
            return s;
        }
        break;
    default:
        break;
    }
    char *text = source(w, c);
    report(w, start_of(c), "the shared lvalue '%s' is not supported by mupc-translate yet; "
                           "write it as an array element or through a pointer-to-shared", text);
    free(text);
    return xstrdup("MUPC_NULL_PTR");
}
