/* SPDX-License-Identifier: MIT */
/* rewrite_expr.c -- expressions: gen(), the hub every rewrite recurses through, and the
 * operators, conversions, casts and calls it translates.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "macros.h"
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expressions                                                       */
/* ================================================================ */

/* c's text with each child expression replaced by its translation. */
char *splice(rewriter_t *w, CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    kids_t ks = children(c, 1);
    strbuf_t out;
    sb_init(&out);
    size_t pos = s;
    for (int i = 0; i < ks.n; i++) {
        size_t ks_, ke;
        extent(ks.v[i], &ks_, &ke);
        if (ks_ < pos || ke > e)
            continue; /* not nested in c's text */
        sb_add(&out, w->text + pos, ks_ - pos);
        char *g = gen(w, ks.v[i]);
        sb_puts(&out, g);
        free(g);
        pos = ke;
    }
    if (e > pos)
        sb_add(&out, w->text + pos, e - pos);
    free(ks.v);
    return sb_take(&out);
}

/* A pointer-to-shared used as a truth value. */
char *truth(rewriter_t *w, CXCursor c)
{
    char *g = gen(w, c);
    if (!is_pts(w, clang_getCursorType(c)))
        return g;
    char *s = xasprintf("(!__mupc_is_null(%s))", g);
    free(g);
    return s;
}

static int is_null_constant(rewriter_t *w, CXCursor c)
{
    CXEvalResult r = clang_Cursor_Evaluate(c);
    int null = r && clang_EvalResult_getKind(r) == CXEval_Int && clang_EvalResult_getAsLongLong(r) == 0;
    if (r)
        clang_EvalResult_dispose(r);
    /* NULL: ((void *)0), with any spaces and parentheses */
    char *text = source(w, c), *o = text;
    for (const char *i = text; *i; i++)
        if (*i != ' ' && *i != '(' && *i != ')' && *i != '\t' && *i != '\n')
            *o++ = *i;
    *o = 0;
    null = null || !strcmp(text, "void*0");
    free(text);
    return null;
}

/* Shared lvalue c as a private lvalue, in a loop's copy that makes it
 * one: owned by construction in a upc_forall (rewrite_forall.c), or in a
 * segment mapped here in a versioned loop (rewrite_version.c); else NULL. */
static char *local_copy_access(rewriter_t *w, CXCursor c)
{
    char *own = forall_private(w, c);
    return own ? own : versioned_access(w, c);
}

/* `va_arg(ap, T)` (clang's __builtin_va_arg, an unexposed expression with
 * one child, ap, that is no conversion of it): T spelled for C, a
 * pointer-to-shared as mupc_ptr_t, as the caller passed it. */
static int va_arg_expression(rewriter_t *w, CXCursor c)
{
    static const char word[] = "__builtin_va_arg";
    size_t s = start_of(c);
    if (s + sizeof word - 1 > w->len || strncmp(w->text + s, word, sizeof word - 1))
        return 0;
    kids_t ks = children(c, 1); /* ap, after the word; a conversion around va_arg starts with it */
    int va = ks.n == 1 && start_of(ks.v[0]) > s;
    free(ks.v);
    return va;
}

static char *va_arg_text(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    char *ap = ks.n ? gen(w, ks.v[0]) : xstrdup("");
    char *t = spell(w, clang_getCursorType(c));
    char *s = xasprintf("__builtin_va_arg(%s, %s)", ap, t);
    free(ks.v);
    free(ap);
    free(t);
    return s;
}

/* Implicit conversions: reads of shared lvalues, array decay, null
 * pointers, pointers-to-shared as truth values. */
static char *implicit(rewriter_t *w, CXCursor c, CXCursor in)
{
    CXType to = clang_getCursorType(c), from = clang_getCursorType(in);
    if (is_shared(w, from) && is_array(from) && !is_array(to))
        return addr(w, in); /* the address of element 0 */
    if (is_shared(w, from) && !is_shared(w, to)) {
        char *own = local_copy_access(w, in);
        if (!own)
            own = hoisted_read(w, in); /* read once in a loop */
        return own ? own : read_shared(w, in);
    }
    if (is_pts(w, to) && !is_pts(w, from)) {
        if (is_null_constant(w, in))
            return xstrdup("MUPC_NULL_PTR");
        report(w, start_of(c), "a local pointer or integer cannot become a pointer-to-shared (only a "
                               "null pointer constant can); use a pointer-to-shared here");
        return xstrdup("MUPC_NULL_PTR");
    }
    if (is_pts(w, from) && canon(to).kind == CXType_Bool)
        return truth(w, in);
    if (is_pts(w, from) && !is_pts(w, to)) {
        report(w, start_of(c), "a pointer-to-shared cannot be converted implicitly to a local pointer "
                               "or integer; cast it");
        return gen(w, in);
    }
    if (is_pts(w, from) && !is_shared(w, from) && clang_getCursorKind(in) == CXCursor_DeclRefExpr) {
        char *once = hoisted_read(w, in); /* a global pointer-to-shared, read once in a loop */
        if (once)
            return once;
    }
    if (is_pts(w, from) && is_pts(w, to)) {
        /* shared void * to a pointer with block size 1 (the same address
         * space as shared void *, so clang saw no conversion): phase 0, as
         * for a cast (UPC 1.3 §6.4.3) */
        CXType fp = clang_getPointeeType(canon(from)), tp = clang_getPointeeType(canon(to));
        if (canon(fp).kind == CXType_Void && canon(tp).kind != CXType_Void) {
            char *block = block_text(w, tp, start_of(c));
            int reset = !strcmp(block, "(1)") || !strcmp(block, "0");
            free(block);
            if (reset) {
                char *g = gen(w, in), *r = xasprintf("upc_resetphase(%s)", g);
                free(g);
                return r;
            }
        }
    }
    return splice(w, c);
}

/* A pointer to void or to an incomplete type (`struct foo` declared only). */
static int incomplete_pointee(CXType p)
{
    CXType t = canon(clang_getPointeeType(canon(p)));
    return t.kind == CXType_Void || clang_Type_getSizeOf(t) < 0;
}

static const char *without_cv(const char *spelled)
{
    for (;;) {
        if (!strncmp(spelled, "const ", 6))
            spelled += 6;
        else if (!strncmp(spelled, "volatile ", 9))
            spelled += 9;
        else
            return spelled;
    }
}

/* Two pointers-to-shared point to the same type, qualifiers and layout
 * aside (the layouts are compared apart). */
static int same_pointee(rewriter_t *w, CXType a, CXType b)
{
    char *x = spell(w, canon(clang_getPointeeType(canon(a))));
    char *y = spell(w, canon(clang_getPointeeType(canon(b))));
    int same = !strcmp(without_cv(x), without_cv(y));
    free(x);
    free(y);
    return same;
}

/* The type of operand c before clang's implicit conversions (a relational
 * operator converts `shared void *` to the other operand's type). */
static CXType as_written(CXCursor c)
{
    CXType t = clang_getCursorType(strip(c));
    return is_array(t) ? clang_getCursorType(c) : t; /* an array: as it decays */
}

/* Whether pointers-to-shared l and r point to types with different block
 * sizes, both written as numbers (or indefinite); shared void * and the
 * address of a structure's member (typed with the structure's layout,
 * UPC 1.3 §6.4.4) compare with any. */
static int block_sizes_differ(rewriter_t *w, CXCursor l, CXCursor r)
{
    /* the operands as written: clang converts one to the other's type */
    CXType lt = clang_getPointeeType(canon(as_written(l)));
    CXType rt = clang_getPointeeType(canon(as_written(r)));
    if (canon(lt).kind == CXType_Void || canon(rt).kind == CXType_Void || member_derived(w, l) ||
        member_derived(w, r))
        return 0;
    const layout_t *a = layout_of(w, lt), *b = layout_of(w, rt);
    if (!a || !b || a->kind == BLOCK_STAR || b->kind == BLOCK_STAR)
        return 0;
    char *end_a = "", *end_b = "";
    long long na = a->kind == BLOCK_INDEFINITE ? 0 : strtoll(a->block, &end_a, 0);
    long long nb = b->kind == BLOCK_INDEFINITE ? 0 : strtoll(b->block, &end_b, 0);
    return !*end_a && !*end_b && na != nb;
}

static char *binary(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    if (ks.n != 2) {
        free(ks.v);
        return splice(w, c);
    }
    CXCursor l = ks.v[0], r = ks.v[1];
    free(ks.v);
    CXType lt = clang_getCursorType(l), rt = clang_getCursorType(r);
    enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
    int lp = is_pts(w, lt), rp = is_pts(w, rt);
    size_t at = start_of(c);
    char *s = NULL, *a, *b;
    if (op == CXBinaryOperator_Assign && is_shared(w, lt) && (a = local_copy_access(w, l))) {
        b = gen(w, r);
        s = xasprintf("(%s = (%s))", a, b);
    } else if (op == CXBinaryOperator_Assign && is_shared(w, lt) && (s = write_own_view(w, l, r))) {
        return s;
    } else if (op == CXBinaryOperator_Assign && is_shared(w, lt)) {
        a = addr(w, l);
        b = gen(w, r);
        s = write_at(w, lt, a, b, at);
    } else if ((op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub) && lp && !rp) {
        a = gen(w, l);
        b = gen(w, r);
        s = ptr_add_in(w, lt, a, b, op == CXBinaryOperator_Sub, at, threads_rows(w, l),
                       member_derived(w, l));
    } else if (op == CXBinaryOperator_Add && rp && !lp) {
        a = gen(w, r);
        b = gen(w, l);
        s = ptr_add_in(w, rt, a, b, 0, at, threads_rows(w, r), member_derived(w, r));
    } else if ((lp || rp) && (op == CXBinaryOperator_LAnd || op == CXBinaryOperator_LOr)) {
        a = truth(w, l); /* each operand generated once: gen may queue edits */
        b = truth(w, r);
        s = xasprintf("(%s %s %s)", a, op == CXBinaryOperator_LAnd ? "&&" : "||", b);
    } else if (lp || rp) {
        a = lp || !is_null_constant(w, l) ? gen(w, l) : xstrdup("MUPC_NULL_PTR");
        b = rp || !is_null_constant(w, r) ? gen(w, r) : xstrdup("MUPC_NULL_PTR");
        if ((op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) &&
                   (!strcmp(a, "MUPC_NULL_PTR") || !strcmp(b, "MUPC_NULL_PTR"))) {
            /* against null: every field, phase included, is zero */
            s = xasprintf("(%s__mupc_is_null(%s))", op == CXBinaryOperator_NE ? "!" : "",
                          !strcmp(a, "MUPC_NULL_PTR") ? b : a);
        } else if (lp && rp && op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE &&
                   block_sizes_differ(w, l, r)) {
            report(w, at, "comparison of pointers-to-shared with different block sizes: the "
                          "pointed-to types are incompatible (UPC 1.3 §6.4.2); cast one of them, "
                          "or both to shared void * for == and !=");
        } else if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
            s = xasprintf("(%s__mupc_equal(%s, %s))", op == CXBinaryOperator_NE ? "!" : "", a, b);
        } else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE && lp && rp &&
                   (incomplete_pointee(as_written(l)) || incomplete_pointee(as_written(r)))) {
            report(w, at, "relational operators do not apply to a pointer-to-shared to void or to an "
                          "incomplete type (UPC 1.3 §6.4.2: the pointed-to type must be complete); cast "
                          "both to a pointer to the data's type");
        } else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE && lp && rp &&
                   !same_pointee(w, as_written(l), as_written(r))) {
            report(w, at, "relational comparison of pointers-to-shared to different types: the "
                          "pointed-to types must be compatible (UPC 1.3 §6.4.2, C99 §6.5.8); cast one "
                          "of them");
        } else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE) {
            static const char *rel[] = {"<", ">", "<=", ">="};
            CXType pointee = clang_getPointeeType(canon(lt));
            char *leaf = spell(w, leaf_type(pointee));
            char *block = member_derived(w, l) && member_derived(w, r) ? xstrdup("0")
                                                                       : block_text(w, pointee, at);
            s = xasprintf("(__mupc_diff(%s, %s, sizeof(%s), %s) %s 0)", a, b, leaf, block,
                          rel[op - CXBinaryOperator_LT]);
            free(leaf);
            free(block);
        } else if (op == CXBinaryOperator_Sub && lp && rp) {
            CXType pointee = clang_getPointeeType(canon(lt));
            char *leaf = spell(w, leaf_type(pointee));
            char *block = member_derived(w, l) && member_derived(w, r) ? xstrdup("0")
                                                                       : block_text(w, pointee, at);
            char *count = leaf_count(pointee, 0);
            s = xasprintf("(__mupc_diff(%s, %s, sizeof(%s), %s) / %s)", a, b, leaf, block, count);
            free(leaf);
            free(block);
            free(count);
        } else if (op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma) {
            if (op == CXBinaryOperator_Assign)
                check_member_address(w, lt, r);
            s = NULL; /* plain C on mupc_ptr_t values */
        } else {
            report(w, at, "this operator does not apply to a pointer-to-shared");
        }
    } else {
        return splice(w, c);
    }
    if (!s) {
        free(a);
        free(b);
        return splice(w, c);
    }
    free(a);
    free(b);
    return s;
}

static const char *compound_op(enum CXBinaryOperatorKind k)
{
    switch (k) {
    case CXBinaryOperator_MulAssign: return "*";
    case CXBinaryOperator_DivAssign: return "/";
    case CXBinaryOperator_RemAssign: return "%";
    case CXBinaryOperator_AddAssign: return "+";
    case CXBinaryOperator_SubAssign: return "-";
    case CXBinaryOperator_ShlAssign: return "<<";
    case CXBinaryOperator_ShrAssign: return ">>";
    case CXBinaryOperator_AndAssign: return "&";
    case CXBinaryOperator_XorAssign: return "^";
    case CXBinaryOperator_OrAssign: return "|";
    default: return "?";
    }
}

static char *compound(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    if (ks.n != 2) {
        free(ks.v);
        return splice(w, c);
    }
    CXCursor l = ks.v[0], r = ks.v[1];
    free(ks.v);
    CXType lt = clang_getCursorType(l);
    if (!is_shared(w, lt) && !is_pts(w, lt))
        return splice(w, c);
    char *operand = gen(w, r), *own = local_copy_access(w, l);
    const char *op = compound_op(clang_getCursorBinaryOperatorKind(c));
    char *s = own ? xasprintf("(%s %s= (%s))", own, op, operand) : update(w, l, op, operand, 0);
    free(own);
    free(operand);
    return s;
}

static char *unary(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    if (ks.n != 1) {
        free(ks.v);
        return splice(w, c);
    }
    CXCursor x = ks.v[0];
    free(ks.v);
    CXType xt = clang_getCursorType(x);
    enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
    int shared = is_shared(w, xt), pts = is_pts(w, xt);
    switch (op) {
    case CXUnaryOperator_AddrOf:
        if (shared)
            return addr(w, x);
        break;
    case CXUnaryOperator_PostInc:
    case CXUnaryOperator_PreInc:
    case CXUnaryOperator_PostDec:
    case CXUnaryOperator_PreDec:
        if (shared || pts) {
            int inc = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc;
            int post = op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PostDec;
            char *own = local_copy_access(w, x), *s;
            if (own) {
                s = post ? xasprintf("(%s%s)", own, inc ? "++" : "--") : xasprintf("(%s%s)", inc ? "++" : "--", own);
                free(own);
                return s;
            }
            return update(w, x, inc ? "+" : "-", "1", post);
        }
        break;
    case CXUnaryOperator_LNot:
        if (pts) {
            char *g = gen(w, x);
            char *s = xasprintf("__mupc_is_null(%s)", g);
            free(g);
            return s;
        }
        break;
    default:
        break;
    }
    return splice(w, c);
}

static char *cast(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 1);
    if (ks.n != 1) {
        free(ks.v);
        return splice(w, c);
    }
    CXCursor x = ks.v[0];
    free(ks.v);
    CXType to = clang_getCursorType(c), from = clang_getCursorType(x);
    size_t at = start_of(c);
    if (is_pts(w, to)) {
        if (is_pts(w, from)) {
            char *g = gen(w, x);
            CXType tp = clang_getPointeeType(canon(to)), fp = clang_getPointeeType(canon(from));
            char *tb = block_text(w, tp, at), *fb = block_text(w, fp, at);
            /* UPC 1.3 §6.4.3: a cast to another block size or element size
             * gives phase 0, as does any pointer to block size 1 or
             * indefinite; from or to `shared void *` the phase is kept
             * otherwise */
            int to_void = canon(tp).kind == CXType_Void, from_void = canon(fp).kind == CXType_Void;
            int resized = !from_void && clang_Type_getSizeOf(tp) != clang_Type_getSizeOf(fp);
            int reset = !to_void && (!strcmp(tb, "0") || !strcmp(tb, "(1)") || resized ||
                                     (!from_void && strcmp(tb, fb)));
            char *s = reset ? xasprintf("upc_resetphase(%s)", g) : xstrdup(g);
            free(g);
            free(tb);
            free(fb);
            return s;
        }
        if (is_null_constant(w, x))
            return xstrdup("MUPC_NULL_PTR");
        report(w, at, "a local pointer or integer cannot be converted to a pointer-to-shared, by a "
                      "cast or by assignment (only a null pointer constant can; UPC 1.3 §6.4.3); "
                      "take the address of shared data instead");
        return xstrdup("MUPC_NULL_PTR");
    }
    if (is_pts(w, from)) {
        char *g = gen(w, x);
        char *ts = spell(w, to);
        char *s = NULL;
        if (canon(to).kind == CXType_Pointer)
            s = xasprintf("((%s)mupc_local_addr(%s))", ts, g);
        else if (canon(to).kind == CXType_Bool)
            s = xasprintf("(!__mupc_is_null(%s))", g);
        else if (canon(to).kind == CXType_Void) /* (void)p: evaluated, value discarded */
            s = xasprintf("((void)(%s))", g);
        else if (canon(to).kind >= CXType_Char_U && canon(to).kind <= CXType_Int128)
            /* implementation-defined (C99 §6.3.2.3): __mupc_ptr_bits */
            s = xasprintf("((%s)__mupc_ptr_bits(%s))", ts, g);
        else
            report(w, at, "a pointer-to-shared cannot be cast to '%s' (only to a local pointer or an "
                          "integer)", ts);
        free(g);
        free(ts);
        return s ? s : xstrdup("0");
    }
    if (contains_pts(w, to)) {
        char *g = gen(w, x), *ts = spell(w, to);
        char *s = xasprintf("((%s)%s)", ts, g);
        free(g);
        free(ts);
        return s;
    }
    return splice(w, c);
}

/* With --gasp, C's malloc, realloc and free go through the runtime's
 * GASP_C_MALLOC / REALLOC / FREE wrappers, at the user's line. */
static char *c_allocation(rewriter_t *w, CXCursor c)
{
    static const char *const names[] = {"malloc", "realloc", "free", NULL};
    CXCursor callee = clang_getCursorReferenced(c);
    CXString name = clang_getCursorSpelling(callee);
    const char *n = clang_getCString(name);
    int which = -1;
    for (int i = 0; names[i]; i++)
        if (!strcmp(n, names[i]))
            which = i;
    int from_c_library = which >= 0 && clang_getCursorKind(callee) == CXCursor_FunctionDecl &&
                         !clang_isCursorDefinition(callee);
    clang_disposeString(name);
    if (!from_c_library)
        return splice(w, c);
    kids_t ks = children(c, 1);
    strbuf_t out;
    sb_init(&out);
    sb_printf(&out, "mupc_c_%s(", names[which]);
    for (int i = 1; i < ks.n; i++) { /* child 0 is the callee */
        char *g = gen(w, ks.v[i]);
        sb_printf(&out, "%s, ", g);
        free(g);
    }
    sb_puts(&out, "__FILE__, __LINE__)");
    free(ks.v);
    return sb_take(&out);
}

/* A GNU statement expression ({ ... }) (glibc's assert is one): its
 * statements are rewritten like a function body's, into their own edits,
 * applied to its text.  An edit outside it (a static shared object's
 * descriptor, placed before the function) stays in the main list. */
static char *statement_expression(rewriter_t *w, CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    edits_t outer = w->edits;
    w->edits = (edits_t){NULL, 0, 0};
    kids_t ks = children(c, 0);
    for (int i = 0; i < ks.n; i++)
        walk(w, ks.v[i]);
    free(ks.v);
    edits_t inner = w->edits, mine = {NULL, 0, 0};
    w->edits = outer;
    for (size_t i = 0; i < inner.n; i++) {
        edit_t d = inner.v[i];
        if (d.start >= s && d.end <= e)
            edits_add(&mine, d.start - s, d.end - s, d.text);
        else
            edits_add(&w->edits, d.start, d.end, d.text);
    }
    free(inner.v);
    char *text = edits_apply(&mine, w->text + s, e - s);
    edits_free(&mine);
    return text;
}

static char *gen_expression(rewriter_t *w, CXCursor c);

/* The hub.  The expansion of a macro the C compiler expands itself, and
 * each argument in it (macros.h), is marked around its translation,
 * wherever that text goes (an expansion first, when both have this text). */
char *gen(rewriter_t *w, CXCursor c)
{
    const macro_uses_t *uses = w->prelex->macro_uses;
    if (!uses || !uses->nocc)
        return gen_expression(w, c);
    size_t s, e;
    extent(c, &s, &e);
    macro_arg_t *a = macro_arg_at(w->prelex->macro_uses, w->text, s, e);
    if (!a)
        return gen_expression(w, c);
    a->active = 1;
    char *text = gen(w, c);
    a->active = 0;
    return macro_arg_wrap(a, text);
}

static char *gen_expression(rewriter_t *w, CXCursor c)
{
    CXCursor in;
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnexposedExpr:
        if (va_arg_expression(w, c))
            return va_arg_text(w, c);
        if (is_wrapper(c, &in))
            return implicit(w, c, in);
        break;
    case CXCursor_BinaryOperator:
        return binary(w, c);
    case CXCursor_CompoundAssignOperator:
        return compound(w, c);
    case CXCursor_UnaryOperator:
        return unary(w, c);
    case CXCursor_CStyleCastExpr:
        return cast(w, c);
    case CXCursor_UnaryExpr:
        return size_of(w, c);
    case CXCursor_CallExpr: {
        if (w->gasp)
            return c_allocation(w, c);
        break;
    }
    case CXCursor_StmtExpr:
        return statement_expression(w, c);
    case CXCursor_ConditionalOperator: {
        kids_t ks = children(c, 1);
        char *s = NULL;
        if (ks.n == 3 && is_pts(w, clang_getCursorType(ks.v[0]))) {
            char *a = truth(w, ks.v[0]), *b = gen(w, ks.v[1]), *d = gen(w, ks.v[2]);
            s = xasprintf("(%s ? %s : %s)", a, b, d);
            free(a);
            free(b);
            free(d);
        }
        free(ks.v);
        if (s)
            return s;
        break;
    }
    default:
        break;
    }
    return splice(w, c);
}

/* ================================================================ */
