/* SPDX-License-Identifier: MIT */
/* rewrite_forall_loop.c -- a canonical upc_forall, recognized: its header
 * (`i = lo; i < hi; i++; AFF`, see rewrite_forall.c), what its body
 * changes, and the counted for loops rewrite_version.c asks about.  Part of
 * the rewriter (see rewrite.h). */
#include "rewrite_forall.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what the body does ---- */

/* Whether assignment or update c stores to private memory that a global
 * variable may be: not a local variable, not shared data. */
static int private_store(rewriter_t *w, CXCursor c)
{
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf)
        return 0;
    kids_t ks = children(c, 1);
    CXCursor target = ks.n >= 1 ? strip(ks.v[0]) : clang_getNullCursor();
    free(ks.v);
    if (clang_Cursor_isNull(target))
        return 1;
    if (clang_getCursorKind(target) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(target);
        return clang_getCursorKind(d) != CXCursor_ParmDecl &&
               (clang_getCursorKind(d) != CXCursor_VarDecl || clang_Cursor_hasVarDeclGlobalStorage(d));
    }
    return !is_shared(w, clang_getCursorType(target));
}

static enum CXChildVisitResult scan_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    scan_t *s = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (writes_operand(c) && first_operand_is(c, s->var))
        s->modified = 1;
    if (k == CXCursor_CallExpr)
        s->calls = 1;
    if (writes_operand(c) && private_store(s->w, c))
        s->stores = 1;
    /* a case label may belong to a switch around the loop: one copy only */
    if (k == CXCursor_LabelStmt || k == CXCursor_CaseStmt || k == CXCursor_DefaultStmt || k == CXCursor_AsmStmt ||
        is_tag_definition(c) || (k == CXCursor_VarDecl && clang_Cursor_getStorageClass(c) == CX_SC_Static))
        s->unsafe_copy = 1;
    return CXChildVisit_Recurse;
}

scan_t scan(rewriter_t *w, CXCursor body, CXCursor var)
{
    scan_t s = {w, var, 0, 0, 0, 0};
    clang_visitChildren(body, scan_visit, &s);
    return s;
}

/* Whether the body changes local variable var, directly or (its address
 * taken anywhere in its function) through a pointer. */
static int modified_in(rewriter_t *w, CXCursor body, CXCursor var)
{
    CXCursor f = clang_getCursorSemanticParent(var);
    return scan(w, body, var).modified || (clang_getCursorKind(f) == CXCursor_FunctionDecl && address_taken(w, var));
}

/* ---- the header ---- */

static int integer_index_type(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return !clang_isVolatileQualifiedType(t) &&
           (k == CXType_Int || k == CXType_Long || k == CXType_LongLong || k == CXType_UInt ||
            k == CXType_ULong || k == CXType_ULongLong);
}

int is_signed_kind(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return k == CXType_Int || k == CXType_Long || k == CXType_LongLong;
}

/* The largest value of index type t, as C text. */
const char *type_max(CXType t)
{
    switch (canon(t).kind) {
    case CXType_Int: return "__INT_MAX__";
    case CXType_Long: return "__LONG_MAX__";
    case CXType_LongLong: return "__LONG_LONG_MAX__";
    case CXType_UInt: return "(~0U)";
    case CXType_ULong: return "(~0UL)";
    default: return "(~0ULL)";
    }
}

static int same_type(CXType a, CXType b) { return clang_equalTypes(canon(a), canon(b)); }

/* A local variable (or parameter) of integer type the loop may count with. */
static int local_variable(CXCursor d)
{
    enum CXCursorKind k = clang_getCursorKind(d);
    return k == CXCursor_ParmDecl ||
           (k == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(d));
}

/* init: `T i = lo` or `i = lo`. */
static int canonical_init(CXCursor init, canonical_t *l)
{
    enum CXCursorKind k = clang_getCursorKind(init);
    if (k == CXCursor_DeclStmt) {
        kids_t ks = children(init, 0);
        int ok = ks.n == 1 && clang_getCursorKind(ks.v[0]) == CXCursor_VarDecl;
        if (ok) {
            l->index = ks.v[0];
            kids_t in = children(ks.v[0], 1);
            ok = in.n == 1;
            if (ok)
                l->lo = in.v[0];
            free(in.v);
        }
        free(ks.v);
        l->declared = 1;
        return ok;
    }
    if (k != CXCursor_BinaryOperator || clang_getCursorBinaryOperatorKind(init) != CXBinaryOperator_Assign)
        return 0;
    kids_t ks = children(init, 1);
    int ok = ks.n == 2 && clang_getCursorKind(strip(ks.v[0])) == CXCursor_DeclRefExpr;
    if (ok) {
        l->index = clang_getCursorReferenced(strip(ks.v[0]));
        l->lo = ks.v[1];
        ok = local_variable(l->index);
    }
    free(ks.v);
    return ok;
}

/* cond: `i < hi` or `i <= hi`, compared in i's type. */
static int canonical_cond(CXCursor cond, canonical_t *l)
{
    cond = strip(cond);
    if (clang_getCursorKind(cond) != CXCursor_BinaryOperator)
        return 0;
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(cond);
    if (op != CXBinaryOperator_LT && op != CXBinaryOperator_LE)
        return 0;
    l->inclusive = op == CXBinaryOperator_LE;
    kids_t ks = children(cond, 1);
    int ok = ks.n == 2 && refers_to(ks.v[0], l->index) && same_type(clang_getCursorType(ks.v[0]), l->itype) &&
             same_type(clang_getCursorType(ks.v[1]), l->itype);
    if (ok)
        l->hi = ks.v[1];
    free(ks.v);
    return ok;
}

static int is_one(rewriter_t *w, CXCursor c)
{
    c = strip(c);
    if (clang_getCursorKind(c) != CXCursor_IntegerLiteral)
        return 0;
    char *s = source(w, c);
    int one = !strcmp(s, "1");
    free(s);
    return one;
}

/* inc: `i++`, `++i` or `i += 1`. */
static int canonical_inc(rewriter_t *w, CXCursor inc, const canonical_t *l)
{
    inc = strip(inc);
    enum CXCursorKind k = clang_getCursorKind(inc);
    if (k == CXCursor_UnaryOperator) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(inc);
        return (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc) && first_operand_is(inc, l->index);
    }
    if (k != CXCursor_CompoundAssignOperator || clang_getCursorBinaryOperatorKind(inc) != CXBinaryOperator_AddAssign)
        return 0;
    kids_t ks = children(inc, 1);
    int ok = ks.n == 2 && refers_to(ks.v[0], l->index) && is_one(w, ks.v[1]);
    free(ks.v);
    return ok;
}

/* A one-dimensional shared array variable (file scope or block-scope static). */
int shared_vector(rewriter_t *w, CXCursor d)
{
    CXType t = clang_getCursorType(d);
    return clang_getCursorKind(d) == CXCursor_VarDecl && is_shared(w, t) && is_array(t) &&
           !is_array(element_type(canon(t)));
}

/* The array or pointer p of `&p[i]`, `p + i` or `i + p`, through its
 * (decayed) pointer-to-shared expression; *ptr is that expression. */
static int affinity_object(rewriter_t *w, CXCursor aff, const canonical_t *l, CXCursor *ptr)
{
    aff = strip(aff);
    kids_t ks = children(aff, 1);
    int ok = 0;
    if (ks.n == 1 && clang_getCursorKind(aff) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(aff) == CXUnaryOperator_AddrOf) {
        CXCursor sub = strip(ks.v[0]);
        kids_t ss = children(sub, 1);
        if (clang_getCursorKind(sub) == CXCursor_ArraySubscriptExpr && ss.n == 2 && refers_to(ss.v[1], l->index) &&
            is_pts(w, clang_getCursorType(ss.v[0])))
            *ptr = ss.v[0], ok = 1;
        free(ss.v);
    } else if (ks.n == 2 && clang_getCursorKind(aff) == CXCursor_BinaryOperator &&
               clang_getCursorBinaryOperatorKind(aff) == CXBinaryOperator_Add) {
        int left = refers_to(ks.v[1], l->index);
        if (left || refers_to(ks.v[0], l->index)) {
            *ptr = left ? ks.v[0] : ks.v[1];
            ok = is_pts(w, clang_getCursorType(*ptr));
        }
    }
    free(ks.v);
    return ok && clang_getCursorKind(strip(*ptr)) == CXCursor_DeclRefExpr;
}

/* A local pointer-to-shared variable that the body leaves alone. */
int unchanged_pointer(rewriter_t *w, CXCursor d, CXCursor body)
{
    return local_variable(d) && is_pts(w, clang_getCursorType(d)) && !modified_in(w, body, d);
}

/* AFF: `i`, or an element i of an array or pointer variable. */
static int canonical_affinity(rewriter_t *w, CXCursor aff, CXCursor body, canonical_t *l)
{
    if (refers_to(aff, l->index)) {
        l->kind = AFF_INTEGER;
        l->block = xstrdup("(1)");
        return 1;
    }
    CXCursor ptr;
    if (!affinity_object(w, aff, l, &ptr))
        return 0;
    CXCursor d = clang_getCursorReferenced(strip(ptr));
    l->ptype = clang_getCursorType(ptr);
    CXType pointee = clang_getPointeeType(canon(l->ptype));
    if (is_array(pointee) || canon(pointee).kind == CXType_Void)
        return 0;
    if (shared_vector(w, d))
        l->kind = AFF_ARRAY;
    else if (unchanged_pointer(w, d, body))
        l->kind = AFF_POINTER;
    else
        return 0;
    l->object = d;
    l->block = block_text(w, pointee, start_of(aff));
    return strcmp(l->block, "0") != 0;
}

/* Whether for statement c (children ks) with forall marker call is canonical. */
/* Whether hi has the same value at every iteration: the rewriter's one
 * loop-invariance analysis, rewrite_hoist.c's, over the whole loop. */
static int invariant_bound(rewriter_t *w, CXCursor loop, CXCursor hi)
{
    loop_scan_t *scan = loop_scan_new(w, loop);
    int ok = loop_scan_invariant(scan, hi);
    loop_scan_free(scan);
    return ok;
}

int canonical(rewriter_t *w, CXCursor loop, kids_t ks, CXCursor call, CXCursor body, canonical_t *l)
{
    memset(l, 0, sizeof *l);
    kids_t args = children(call, 1);
    CXCursor aff = args.n == 2 ? args.v[1] : clang_getNullCursor();
    free(args.v);
    if (ks.n != 4 || clang_Cursor_isNull(aff) || !canonical_init(ks.v[0], l))
        return 0;
    l->itype = clang_getCursorType(l->index);
    return integer_index_type(l->itype) && canonical_cond(ks.v[1], l) && canonical_inc(w, ks.v[2], l) &&
           !modified_in(w, body, l->index) && invariant_bound(w, loop, l->hi) && canonical_affinity(w, aff, body, l);
}

/* For statement children ks (rewrite_version.c): a counted loop (the
 * caller checks that the body leaves its index alone, and the bounds). */
int counted_for(rewriter_t *w, kids_t ks, counted_t *c)
{
    canonical_t l;
    memset(&l, 0, sizeof l);
    if (ks.n != 4 || !canonical_init(ks.v[0], &l))
        return 0;
    l.itype = clang_getCursorType(l.index);
    if (!integer_index_type(l.itype) || !canonical_cond(ks.v[1], &l) || !canonical_inc(w, ks.v[2], &l))
        return 0;
    *c = (counted_t){l.index, l.lo, l.hi, l.inclusive, l.declared, l.itype};
    return 1;
}
