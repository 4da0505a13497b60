/* SPDX-License-Identifier: MIT */
/* rewrite_version.c -- an innermost counted loop whose shared accesses
 * stay in one segment, run a second time with those accesses as plain
 * loads and stores when the segment is mapped here.
 *
 * `for (i = lo; i < hi; i++) ... p[E] ...` with p a pointer-to-shared of
 * indefinite layout (`shared [] T *`, or an array member of a shared
 * structure: UPC 1.3 §6.4.4 keeps it on one thread) reaches elements of
 * one thread's segment only.  When E is affine in i (built from i,
 * invariants and local variables that an earlier statement of the body
 * sets or declares from i, by sums, differences, products by an invariant
 * and conversions that do not narrow), the elements the loop touches lie
 * between E at i = lo and E at the last i (E's byte offsets computed
 * without overflow; an unsigned E with i's coefficient 1 or -1, over fewer
 * than 2^62 iterations, so that it cannot wrap between the two ends), so
 * two range checks before the loop cover every iteration: if both ends
 * are in a segment mapped on this node (the output's __mupc_at), the loop
 * runs a copy of itself in which p[E] (p[E].m, or a whole structure) is
 * v[E], v a private pointer to p's element 0, and the C compiler may
 * vectorize it; otherwise it runs as written.
 *
 *   { T *__mupc_vN_0;
 *     if (lo < hi && (__mupc_vN_0 = (T *)__mupc_span_at(p, E(lo), E(hi - 1), sizeof(T))) && ...)
 *     { for (...) COPY } else
 *     for (...) BODY }
 *
 * The loop must be one the read hoisting (rewrite_hoist.c) may change: no
 * call, no strict or volatile access, no label, no store that may change a
 * pointer-to-shared; p and E's invariant part have one value throughout
 * it.  Only accesses every iteration makes (not under if, ?:, && or ||)
 * are copied, and the body has no break, continue, return or goto, so the
 * reads made before the loop to compute p and E are reads the first
 * iteration makes anyway.  Nothing is versioned with GASP events on
 * (--gasp), in a upc_forall's privatized copy, around another loop, or
 * with a case label in it (its switch may be outside). */
#include "rewrite_internal.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_ACCESSES = 32, MAX_DERIVED = 8 };

typedef struct vaccess {
    CXCursor lvalue; /* the shared lvalue accessed: p[E] or p[E].m... */
    CXCursor base;   /* p */
    CXCursor index;  /* E */
    char *members;   /* ".m..." after p[E] */
    CXType elem;     /* p[E]'s type */
    int place;       /* the statement of the body it is in */
    int group;       /* accesses through one p share one private pointer */
} vaccess_t;

typedef struct derived {
    CXCursor var, value; /* `var = value;`, a statement of the body */
    int statement;       /* its place among the body's statements */
} derived_t;

struct version {
    int n; /* the loop's temporaries' number */
    counted_t loop;
    loop_scan_t *scan;
    derived_t derived[MAX_DERIVED];
    int nderived;
    vaccess_t acc[MAX_ACCESSES];
    int nacc;
    int groups;
};

/* ---- the body ---- */

typedef struct body_check {
    int nested, jumps, copy_unsafe;
} body_check_t;

static enum CXChildVisitResult check_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    body_check_t *b = data;
    switch (clang_getCursorKind(c)) {
    case CXCursor_ForStmt:
    case CXCursor_WhileStmt:
    case CXCursor_DoStmt:
        b->nested = 1;
        break;
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
    case CXCursor_ReturnStmt:
    case CXCursor_GotoStmt:
    case CXCursor_IndirectGotoStmt:
        b->jumps = 1;
        break;
    case CXCursor_StructDecl:
    case CXCursor_UnionDecl:
    case CXCursor_EnumDecl:
    case CXCursor_TypedefDecl: /* a definition: not to be made twice */
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt: /* maybe of a switch around the loop */
        b->copy_unsafe = 1;
        break;
    case CXCursor_VarDecl:
        if (clang_Cursor_hasVarDeclGlobalStorage(c))
            b->copy_unsafe = 1;
        break;
    default:
        break;
    }
    return CXChildVisit_Recurse;
}

/* How many times c writes var (or takes its address). */
typedef struct writes {
    CXCursor var;
    int n;
} writes_t;

static enum CXChildVisitResult writes_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    writes_t *x = data;
    x->n += writes_operand(c) && first_operand_is(c, x->var);
    return CXChildVisit_Recurse;
}

static int writes_in(CXCursor c, CXCursor var)
{
    writes_t x = {var, 0};
    clang_visitChildren(c, writes_visit, &x);
    return x.n;
}

/* The statements of the body, in order. */
static kids_t statements(CXCursor body)
{
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
        return children(body, 0);
    kids_t one = {xmalloc(sizeof *one.v), 1};
    one.v[0] = body;
    return one;
}

/* ---- affine indexes ---- */

static const derived_t *derived_var(const struct version *v, CXCursor ref, int before)
{
    for (int i = 0; i < v->nderived; i++)
        if (v->derived[i].statement < before && refers_to(ref, v->derived[i].var))
            return &v->derived[i];
    return NULL;
}

/* An integer type whose arithmetic cannot wrap within a segment's reach
 * between the two ends the range checks look at: signed (overflow is
 * undefined), or 64 bits wide with the index's coefficient 1 or -1 (no
 * product with i: affine) over fewer than 2^62 iterations (local_copy), so
 * that E, taken as a ptrdiff_t as the access takes it, cannot cross 2^63
 * between two ends that lie in a segment. */
static int is_unsigned(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return k == CXType_UInt || k == CXType_ULong || k == CXType_ULongLong || k == CXType_UShort ||
           k == CXType_UChar || k == CXType_Bool;
}

static int index_type(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    if (k == CXType_Int || k == CXType_Long || k == CXType_LongLong || k == CXType_Short ||
        k == CXType_SChar)
        return 1;
    return (k == CXType_UInt || k == CXType_ULong || k == CXType_ULongLong) && clang_Type_getSizeOf(t) == 8;
}

/* Whether converting a value of type from to type to may wrap it. */
static int narrows(CXType from, CXType to)
{
    return clang_Type_getSizeOf(canon(from)) > clang_Type_getSizeOf(canon(to));
}

/* Whether integer expression c is affine in the loop's index, using the
 * derived variables set by statements before statement `before`. */
static int affine(struct version *v, CXCursor c, int before)
{
    if (!index_type(clang_getCursorType(c)))
        return 0;
    if (loop_scan_invariant(v->scan, c))
        return 1;
    CXCursor in;
    if (is_wrapper(c, &in) || clang_getCursorKind(c) == CXCursor_CStyleCastExpr) {
        kids_t ks = children(c, 1); /* a conversion that does not narrow */
        int ok = ks.n == 1 && !narrows(clang_getCursorType(ks.v[0]), clang_getCursorType(c)) &&
                 affine(v, ks.v[0], before);
        free(ks.v);
        return ok;
    }
    if (refers_to(c, v->loop.index) || derived_var(v, c, before))
        return 1;
    kids_t ks = children(c, 1);
    int ok = 0;
    if (clang_getCursorKind(c) == CXCursor_BinaryOperator && ks.n == 2) {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
        if (op == CXBinaryOperator_Add || op == CXBinaryOperator_Sub)
            ok = affine(v, ks.v[0], before) && affine(v, ks.v[1], before);
        else if (op == CXBinaryOperator_Mul && !is_unsigned(clang_getCursorType(c))) /* unsigned: see index_type */
            ok = (loop_scan_invariant(v->scan, ks.v[0]) && affine(v, ks.v[1], before)) ||
                 (loop_scan_invariant(v->scan, ks.v[1]) && affine(v, ks.v[0], before));
    } else if (clang_getCursorKind(c) == CXCursor_UnaryOperator && ks.n == 1) {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        ok = (op == CXUnaryOperator_Plus || op == CXUnaryOperator_Minus) && affine(v, ks.v[0], before);
    }
    free(ks.v);
    return ok;
}

/* Whether local integer d, set to value by one statement of the body
 * (writes: how many times the body sets it; 1 for an assignment, 0 for a
 * declaration), stands for that value in the accesses after it. */
static int derivable(struct version *v, rewriter_t *w, CXCursor body, CXCursor d, CXCursor value, int writes,
                     int place)
{
    return clang_getCursorKind(d) == CXCursor_VarDecl && !clang_Cursor_hasVarDeclGlobalStorage(d) &&
           index_type(clang_getCursorType(d)) && !narrows(clang_getCursorType(value), clang_getCursorType(d)) &&
           writes_in(body, d) == writes && !address_taken(w, d) && affine(v, value, place);
}

static int same_name(CXCursor a, CXCursor b)
{
    CXString x = clang_getCursorSpelling(a), y = clang_getCursorSpelling(b);
    int same = !strcmp(clang_getCString(x), clang_getCString(y));
    clang_disposeString(x);
    clang_disposeString(y);
    return same;
}

/* Whether d's name is the index's or an earlier derived variable's: the
 * range checks declare them all in one block (index_at). */
static int name_taken(const struct version *v, CXCursor d)
{
    int taken = same_name(d, v->loop.index);
    for (int i = 0; i < v->nderived && !taken; i++)
        taken = same_name(d, v->derived[i].var);
    return taken;
}

/* `var = value;` or `T var = value;` with var a local integer the body
 * sets nowhere else and value affine: var stands for value after it. */
static void note_derived(struct version *v, rewriter_t *w, CXCursor body, CXCursor st, int place)
{
    st = strip(st);
    enum CXCursorKind k = clang_getCursorKind(st);
    if (v->nderived == MAX_DERIVED)
        return;
    kids_t ks = children(st, k == CXCursor_BinaryOperator);
    CXCursor d = clang_getNullCursor(), value = d;
    int writes = 0;
    if (k == CXCursor_BinaryOperator && clang_getCursorBinaryOperatorKind(st) == CXBinaryOperator_Assign &&
        ks.n == 2 && clang_getCursorKind(strip(ks.v[0])) == CXCursor_DeclRefExpr) {
        d = clang_getCursorReferenced(strip(ks.v[0]));
        value = ks.v[1];
        writes = 1;
    } else if (k == CXCursor_DeclStmt && ks.n == 1) {
        kids_t init = children(ks.v[0], 1);
        if (init.n == 1)
            d = ks.v[0], value = init.v[0];
        free(init.v);
    }
    if (!clang_Cursor_isNull(d) && !name_taken(v, d) && derivable(v, w, body, d, value, writes, place))
        v->derived[v->nderived++] = (derived_t){d, value, place};
    free(ks.v);
}

/* ---- the accesses ---- */

/* p[E] (with .m... after it) whose p is invariant and reaches one thread's
 * segment: the access is noted; returns 0 when c is not one. */
static int note_access(struct version *v, rewriter_t *w, CXCursor lvalue, int place)
{
    CXType t = clang_getCursorType(lvalue); /* a scalar, or a structure copied whole */
    if (v->nacc == MAX_ACCESSES || is_array(t) || (canon(t).kind != CXType_Record && !access_suffix(w, t)) ||
        strict_of(w, t, start_of(lvalue)))
        return 0;
    char *members = xstrdup("");
    CXCursor c = strip(lvalue);
    while (clang_getCursorKind(c) == CXCursor_MemberRefExpr) { /* s.m with s shared, not p->m */
        kids_t ks = children(c, 1);
        CXCursor s = ks.n == 1 ? strip(ks.v[0]) : clang_getNullCursor();
        free(ks.v);
        if (clang_Cursor_isNull(s) || !is_shared(w, clang_getCursorType(s)) || is_pts(w, clang_getCursorType(s)))
            break;
        CXString name = clang_getCursorSpelling(c);
        char *m = xasprintf(".%s%s", clang_getCString(name), members);
        clang_disposeString(name);
        free(members);
        members = m;
        c = s;
    }
    kids_t ks = children(c, 1);
    int ok = clang_getCursorKind(c) == CXCursor_ArraySubscriptExpr && ks.n == 2;
    CXCursor base = ok ? ks.v[0] : clang_getNullCursor(), index = ok ? ks.v[1] : base, inner;
    free(ks.v);
    if (ok) {
        CXType bt = clang_getCursorType(base), elem = clang_getCursorType(c);
        char *block = is_pts(w, bt) ? block_text(w, clang_getPointeeType(canon(bt)), start_of(c)) : NULL;
        ok = block && (!strcmp(block, "0") || member_derived(w, base)) && !is_array(elem) &&
             canon(elem).kind != CXType_Void && affine(v, index, place);
        free(block);
        /* p: an invariant pointer, or one read from shared memory at an
         * invariant address (the loop stores no pointer-to-shared) */
        if (ok && !loop_scan_invariant(v->scan, base))
            ok = is_wrapper(base, &inner) && is_shared(w, clang_getCursorType(inner)) &&
                 loop_scan_invariant(v->scan, inner);
    }
    if (!ok) {
        free(members);
        return 0;
    }
    char *key = source(w, base);
    int group = -1;
    for (int i = 0; i < v->nacc && group < 0; i++) {
        char *k = source(w, v->acc[i].base);
        if (!strcmp(k, key) && clang_equalTypes(canon(clang_getCursorType(v->acc[i].base)),
                                                canon(clang_getCursorType(base))))
            group = v->acc[i].group;
        free(k);
    }
    free(key);
    v->acc[v->nacc++] =
        (vaccess_t){lvalue, base, index, members, clang_getCursorType(c), place, group < 0 ? v->groups++ : group};
    return 1;
}

/* The accesses of statement c, made at every iteration unless `cond`. */
static void find_accesses(struct version *v, rewriter_t *w, CXCursor c, int place, int cond)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (!cond && (k == CXCursor_MemberRefExpr || k == CXCursor_ArraySubscriptExpr) &&
        is_shared(w, clang_getCursorType(c)) && note_access(v, w, c, place))
        return;
    int branches = k == CXCursor_IfStmt || k == CXCursor_SwitchStmt || k == CXCursor_ConditionalOperator ||
                   (k == CXCursor_BinaryOperator && (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_LAnd ||
                                                     clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_LOr));
    kids_t ks = children(c, 0);
    for (int i = 0; i < ks.n; i++)
        find_accesses(v, w, ks.v[i], place, cond || (branches && i > 0));
    free(ks.v);
}

/* ---- emitting ---- */

/* E at the loop's first (last) iteration: the index and the derived
 * variables before the access bound to their values there, as the body
 * would compute them (a statement expression, so E is translated as in
 * the body) */
static char *index_at(struct version *v, rewriter_t *w, const vaccess_t *a, int last)
{
    strbuf_t o;
    sb_init(&o);
    char *its = spell(w, v->loop.itype), *bound = gen(w, last ? v->loop.hi : v->loop.lo);
    CXString name = clang_getCursorSpelling(v->loop.index);
    sb_printf(&o, "({ __attribute__((unused)) %s %s = (%s)(%s)%s; ", its, clang_getCString(name), its, bound,
              last && !v->loop.inclusive ? " - 1" : "");
    clang_disposeString(name);
    free(its);
    free(bound);
    for (int i = 0; i < v->nderived && v->derived[i].statement < a->place; i++) {
        char *ts = spell(w, clang_getCursorType(v->derived[i].var)), *value = gen(w, v->derived[i].value);
        CXString dn = clang_getCursorSpelling(v->derived[i].var);
        sb_printf(&o, "__attribute__((unused)) %s %s = (%s); ", ts, clang_getCString(dn), value);
        clang_disposeString(dn);
        free(ts);
        free(value);
    }
    char *e = gen(w, a->index);
    sb_printf(&o, "(ptrdiff_t)(%s); })", e);
    free(e);
    return sb_take(&o);
}

/* `__mupc_span_at(p, E(first), E(last), sizeof(T))`: where access a's
 * element 0 is here, as a char *, when all it reaches is mapped here. */
static char *span_of(struct version *v, rewriter_t *w, const vaccess_t *a)
{
    char *base = gen(w, a->base), *lo = index_at(v, w, a, 0), *hi = index_at(v, w, a, 1);
    char *ts = spell(w, a->elem);
    char *s = xasprintf("__mupc_span_at(%s, %s, %s, sizeof(%s))", base, lo, hi, ts);
    free(ts);
    free(base);
    free(lo);
    free(hi);
    return s;
}

/* The declarations an expression names, in order. */
typedef struct names_list {
    CXCursor v[16];
    int n, overflow;
} names_list_t;

static enum CXChildVisitResult list_names(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    names_list_t *l = data;
    if (clang_getCursorKind(c) == CXCursor_DeclRefExpr) {
        if (l->n == (int)(sizeof l->v / sizeof *l->v))
            l->overflow = 1;
        else
            l->v[l->n++] = clang_getCursorReferenced(c);
    }
    return CXChildVisit_Recurse;
}

/* Whether indexes a and b are the same text naming the same variables (a
 * variable the body declares may hide another between two statements). */
static int same_index(rewriter_t *w, CXCursor a, CXCursor b)
{
    char *ta = source(w, a), *tb = source(w, b);
    int same = !strcmp(ta, tb);
    free(ta);
    free(tb);
    names_list_t la = {{{0}}, 0, 0}, lb = {{{0}}, 0, 0};
    clang_visitChildren(a, list_names, &la);
    clang_visitChildren(b, list_names, &lb);
    same = same && !la.overflow && !lb.overflow && la.n == lb.n;
    for (int i = 0; same && i < la.n; i++)
        same = clang_equalCursors(la.v[i], lb.v[i]);
    return same;
}

/* Whether an earlier access has access i's pointer and index: its range
 * is checked already. */
static int checked_before(struct version *v, rewriter_t *w, int i)
{
    int seen = 0;
    for (int j = 0; j < i && !seen; j++)
        seen = v->acc[j].group == v->acc[i].group && clang_equalTypes(canon(v->acc[j].elem), canon(v->acc[i].elem)) &&
               same_index(w, v->acc[j].index, v->acc[i].index);
    return seen;
}

/* Whether access i is its group's first: the one whose check also sets
 * the group's private pointer. */
static int first_of_group(const struct version *v, int i)
{
    for (int j = 0; j < i; j++)
        if (v->acc[j].group == v->acc[i].group)
            return 0;
    return 1;
}

/* `{ T *__mupc_vN_G; if (lo < hi && every span is here, the first of each
 * group setting __mupc_vN_G) { for (...) COPY } else `, to go before the
 * loop (and ` }` after it). */
static char *local_copy(struct version *v, rewriter_t *w, CXCursor loop, CXCursor body, size_t end)
{
    strbuf_t o;
    sb_init(&o);
    sb_puts(&o, "{ ");
    for (int i = 0; i < v->nacc; i++)
        if (first_of_group(v, i)) {
            char *ts = spell(w, v->acc[i].elem);
            sb_printf(&o, "%s *__mupc_v%d_%d; ", ts, v->n, v->acc[i].group);
            free(ts);
        }
    char *its = spell(w, v->loop.itype), *lo = gen(w, v->loop.lo), *hi = gen(w, v->loop.hi);
    const char *cmp = v->loop.inclusive ? "<=" : "<";
    sb_printf(&o, "if ((%s)(%s) %s (%s)(%s) && (unsigned long long)(%s)(%s) - (unsigned long long)(%s)(%s) < 1ULL << 62",
              its, lo, cmp, its, hi, its, hi, its, lo);
    for (int i = 0; i < v->nacc; i++) {
        if (checked_before(v, w, i))
            continue;
        char *span = span_of(v, w, &v->acc[i]);
        if (first_of_group(v, i)) {
            char *ts = spell(w, v->acc[i].elem);
            sb_printf(&o, " && (__mupc_v%d_%d = (%s *)%s)", v->n, v->acc[i].group, ts, span);
            free(ts);
        } else {
            sb_printf(&o, " && %s", span);
        }
        free(span);
    }
    CXString name = clang_getCursorSpelling(v->loop.index);
    const char *iv = clang_getCString(name);
    sb_printf(&o, ") { for (%s%s%s = (%s); %s %s (%s); %s++)", v->loop.declared ? its : "",
              v->loop.declared ? " " : "", iv, lo, iv, cmp, hi, iv);
    struct version *outer = w->ver;
    w->ver = v;
    char *copy = body_text(w, body, end, 0, NULL);
    w->ver = outer;
    emit_line(&o, body);
    sb_printf(&o, "%s } else ", copy);
    emit_line(&o, loop);
    clang_disposeString(name);
    free(copy);
    free(its);
    free(lo);
    free(hi);
    return sb_take(&o);
}

static void version_free(struct version *v)
{
    for (int i = 0; i < v->nacc; i++)
        free(v->acc[i].members);
    if (v->scan)
        loop_scan_free(v->scan);
}

/* For statement loop (children ks), about to be walked: when versioned,
 * its local copy goes before it (the loop itself is walked as usual). */
void version_loop(rewriter_t *w, CXCursor loop, kids_t ks)
{
    struct version v = {0};
    if (w->gasp || w->priv || w->ver || !counted_for(w, ks, &v.loop))
        return;
    CXCursor body = ks.v[3];
    body_check_t b = {0, 0, 0};
    clang_visitChildren(body, check_visit, &b);
    if (b.nested || b.jumps || b.copy_unsafe || writes_in(body, v.loop.index) || address_taken(w, v.loop.index))
        return;
    v.scan = loop_scan_new(w, loop);
    if (!loop_scan_safe(v.scan) || !loop_scan_invariant(v.scan, v.loop.lo) ||
        !loop_scan_invariant(v.scan, v.loop.hi)) {
        version_free(&v);
        return;
    }
    kids_t sts = statements(body);
    for (int i = 0; i < sts.n; i++) {
        find_accesses(&v, w, sts.v[i], i, 0);
        note_derived(&v, w, body, sts.v[i], i);
    }
    free(sts.v);
    if (v.nacc) {
        size_t s, e;
        extent(loop, &s, &e);
        size_t end = clang_getCursorKind(body) == CXCursor_CompoundStmt ? e : past_semicolon(w, e);
        v.n = next_temp(w);
        edits_add(&w->edits, s, s, local_copy(&v, w, loop, body, end));
        edits_add(&w->edits, end, end, xstrdup(" }"));
    }
    version_free(&v);
}

/* The local copy's text for shared lvalue c when it is a versioned access
 * of the loop being copied, else NULL. */
char *versioned_access(rewriter_t *w, CXCursor c)
{
    struct version *v = w->ver;
    if (!v)
        return NULL;
    size_t s, e;
    extent(strip(c), &s, &e);
    for (int i = 0; i < v->nacc; i++) {
        size_t as, ae;
        extent(strip(v->acc[i].lvalue), &as, &ae);
        if (as == s && ae == e) {
            char *index = gen(w, v->acc[i].index);
            char *t = xasprintf("(__mupc_v%d_%d[(ptrdiff_t)(%s)]%s)", v->n, v->acc[i].group, index,
                                v->acc[i].members);
            free(index);
            return t;
        }
    }
    return NULL;
}
