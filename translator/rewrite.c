/* SPDX-License-Identifier: MIT */
/* rewrite.c -- shared accesses, pointers-to-shared and UPC declarations
 * become <mupc.h> calls (see rewrite.h).
 *
 * gen() returns the translated text of an expression, built bottom-up from
 * its children; statements queue one edit per top-level expression and
 * declarations are replaced whole.  Every generated runtime call passes
 * __FILE__ and __LINE__, which the output's #line directives make the
 * user's own position. */
#include "rewrite.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UPC_MAX_BLOCK 4194304ULL /* UPC_MAX_BLOCK_SIZE, as the prelude defines it */

/* ================================================================ */
/* Positions, text and messages                                     */
/* ================================================================ */

static size_t offset_of(CXSourceLocation loc)
{
    CXFile file;
    unsigned line, column, offset;
    clang_getFileLocation(loc, &file, &line, &column, &offset);
    return offset;
}

static void extent(CXCursor c, size_t *start, size_t *end)
{
    CXSourceRange r = clang_getCursorExtent(c);
    *start = offset_of(clang_getRangeStart(r));
    *end = offset_of(clang_getRangeEnd(r));
}

static size_t start_of(CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    return s;
}

static char *source(rewriter_t *w, CXCursor c)
{
    size_t s, e;
    extent(c, &s, &e);
    return xstrndup(w->text + s, e > s ? e - s : 0);
}

static void report(rewriter_t *w, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(rewriter_t *w, size_t offset, const char *fmt, ...)
{
    static size_t last = (size_t)-1; /* an expression translated twice reports once */
    if (offset == last)
        return;
    last = offset;
    const char *file = "<translation>";
    int line = 0, column = 0;
    regions_where(w->regions, w->text, offset, &file, &line, &column);
    fprintf(stderr, "%s:%d:%d: error: ", file, line, column);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    w->errors++;
}

static int translated(rewriter_t *w, CXCursor c)
{
    const region_t *g = regions_at(w->regions, start_of(c));
    return g && g->translated;
}

/* ---- children ---- */

typedef struct kids {
    CXCursor *v;
    int n;
} kids_t;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData data)
{
    kids_t *k = data;
    k->v = xrealloc(k->v, (size_t)(k->n + 1) * sizeof *k->v);
    k->v[k->n++] = c;
    return CXChildVisit_Continue;
}

/* The children of c; with exprs_only, only its expressions. */
static kids_t children(CXCursor c, int exprs_only)
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

/* ================================================================ */
/* Types                                                             */
/* ================================================================ */

static CXType canon(CXType t) { return clang_getCanonicalType(t); }

static int is_array(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

/* The element type of array type t, also when t names the array through a
 * typedef (`typedef int S[10]; shared [3] S T[...]`), keeping the
 * element's own spelling where t spells it. */
static CXType element_type(CXType t)
{
    CXType e = clang_getArrayElementType(t);
    return e.kind != CXType_Invalid ? e : clang_getArrayElementType(canon(t));
}

/* The address space of t's layout, looking through array levels (libclang
 * reports an array's address space on the array, not its element). */
static unsigned layout_space(rewriter_t *w, CXType t)
{
    for (t = canon(t);;) {
        unsigned a = clang_getAddressSpace(t);
        if (prelex_layout(w->prelex, a))
            return a;
        if (!is_array(t))
            return 0;
        t = canon(clang_getArrayElementType(t));
    }
}

static int is_shared(rewriter_t *w, CXType t) { return layout_space(w, t) != 0; }

static int is_pts(rewriter_t *w, CXType t)
{
    t = canon(t);
    return t.kind == CXType_Pointer && is_shared(w, clang_getPointeeType(t));
}

static int contains_pts(rewriter_t *w, CXType t)
{
    t = canon(t);
    if (t.kind == CXType_Pointer)
        return is_pts(w, t) || contains_pts(w, clang_getPointeeType(t));
    if (is_array(t))
        return contains_pts(w, element_type(t));
    if (t.kind == CXType_FunctionProto || t.kind == CXType_FunctionNoProto) {
        if (contains_pts(w, clang_getResultType(t)))
            return 1;
        for (int i = 0; i < clang_getNumArgTypes(t); i++)
            if (contains_pts(w, clang_getArgType(t, (unsigned)i)))
                return 1;
    }
    return 0;
}

static layout_t *layout_of(rewriter_t *w, CXType t)
{
    return (layout_t *)prelex_layout(w->prelex, layout_space(w, t));
}

/* The innermost element type of an array type (t itself otherwise). */
static CXType leaf_type(CXType t)
{
    while (is_array(t))
        t = element_type(t);
    return t;
}

/* Whether t has a variable-length dimension (THREADS in a type name's
 * dimension, in the dynamic THREADS environment). */
static int contains_vla(CXType t)
{
    for (t = canon(t); is_array(t); t = canon(element_type(t)))
        if (t.kind == CXType_VariableArray)
            return 1;
    return 0;
}

/* The name given to an unnamed struct, union or enum defined in a shared
 * declaration (`shared struct { int x; } q;`), whose translation must
 * name its type: "struct __mupc_tag_OFFSET", or NULL for any other type. */
static char *tag_name(rewriter_t *w, CXType t)
{
    CXCursor d = clang_getTypeDeclaration(t);
    size_t at = start_of(d);
    for (size_t i = 0; i < w->nnamed_tags; i++)
        if (w->named_tags[i] == at) {
            enum CXCursorKind k = clang_getCursorKind(d);
            return xasprintf("%s __mupc_tag_%zu",
                             k == CXCursor_UnionDecl ? "union" : k == CXCursor_EnumDecl ? "enum" : "struct", at);
        }
    return NULL;
}

/* C spelling of a declaration of `inner` with type t, without UPC:
 * pointers-to-shared become mupc_ptr_t and shared qualifiers vanish. */
static char *spell_decl(rewriter_t *w, CXType t, const char *inner);

/* A function type around inner (`int (*cmp)(shared void *, shared void *)`
 * as a parameter): the result, then the parameters, each spelled again. */
static char *spell_function(rewriter_t *w, CXType f, const char *inner)
{
    strbuf_t params;
    sb_init(&params);
    int n = clang_getNumArgTypes(f);
    for (int i = 0; i < n; i++) {
        char *p = spell_decl(w, clang_getArgType(f, (unsigned)i), "");
        sb_printf(&params, "%s%s", i ? ", " : "", p);
        free(p);
    }
    if (f.kind == CXType_FunctionProto && clang_isFunctionTypeVariadic(f))
        sb_puts(&params, n ? ", ..." : "...");
    else if (f.kind == CXType_FunctionProto && !n)
        sb_puts(&params, "void");
    char *list = sb_take(&params);
    char *in = xasprintf("%s(%s)", inner, list);
    char *s = spell_decl(w, clang_getResultType(f), in);
    free(in);
    free(list);
    return s;
}

static char *spell_decl(rewriter_t *w, CXType t, const char *inner)
{
    const char *sep = *inner ? " " : "";
    CXType c = canon(t);
    if (c.kind == CXType_Pointer && is_pts(w, c) && t.kind != CXType_Typedef &&
        t.kind != CXType_Elaborated)
        return xasprintf("%smupc_ptr_t%s%s", clang_isConstQualifiedType(t) ? "const " : "", sep, inner);
    if (t.kind == CXType_Pointer) {
        CXType p = clang_getPointeeType(t);
        int wrap = is_array(p) || canon(p).kind == CXType_FunctionProto;
        char *in = xasprintf("%s*%s%s%s", wrap ? "(" : "", clang_isConstQualifiedType(t) ? "const " : "",
                             inner, wrap ? ")" : "");
        char *s = spell_decl(w, p, in);
        free(in);
        return s;
    }
    if (t.kind != CXType_Typedef && t.kind != CXType_Elaborated &&
        (c.kind == CXType_FunctionProto || c.kind == CXType_FunctionNoProto))
        return spell_function(w, c, inner);
    if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
        char *in = t.kind == CXType_ConstantArray
                       ? xasprintf("%s[%lld]", inner, clang_getArraySize(t))
                       : xasprintf("%s[]", inner);
        char *s = spell_decl(w, clang_getArrayElementType(t), in);
        free(in);
        return s;
    }
    /* a typedef keeps its name: the typedef itself is output without UPC's
     * qualifiers, and the name is all an unnamed structure has */
    CXType named = t.kind == CXType_Elaborated ? clang_Type_getNamedType(t) : t;
    CXString name = named.kind == CXType_Typedef ? clang_getTypedefName(named)
                                                 : clang_getTypeSpelling(clang_getUnqualifiedType(t));
    char *tag = tag_name(w, t);
    char *s = xasprintf("%s%s%s%s%s", clang_isConstQualifiedType(t) ? "const " : "",
                        clang_isVolatileQualifiedType(t) ? "volatile " : "",
                        tag ? tag : clang_getCString(name), sep, inner);
    free(tag);
    clang_disposeString(name);
    return s;
}

static char *spell(rewriter_t *w, CXType t) { return spell_decl(w, t, ""); }

/* mupc_get_<suffix> / mupc_put_<suffix> for a scalar type, NULL otherwise. */
static const char *access_suffix(rewriter_t *w, CXType t)
{
    if (is_pts(w, t))
        return "pts";
    switch (canon(t).kind) {
    case CXType_Char_S: return "char";
    case CXType_Char_U: return "char";
    case CXType_SChar: return "schar";
    case CXType_UChar: return "uchar";
    case CXType_Bool: return "uchar";
    case CXType_Short: return "short";
    case CXType_UShort: return "ushort";
    case CXType_Int: return "int";
    case CXType_Enum: return "int";
    case CXType_UInt: return "uint";
    case CXType_Long: return "long";
    case CXType_ULong: return "ulong";
    case CXType_LongLong: return "llong";
    case CXType_ULongLong: return "ullong";
    case CXType_Float: return "float";
    case CXType_Double: return "double";
    case CXType_LongDouble: return "ldouble";
    default: return NULL;
    }
}

static int strict_of(rewriter_t *w, CXType t, size_t offset)
{
    const layout_t *l = layout_of(w, t);
    if (l && l->access != ACCESS_DEFAULT)
        return l->access == ACCESS_STRICT;
    return prelex_strict_at(w->prelex, offset);
}

/* The block size of a shared type, as C text (elements; 0 = indefinite). */
static char *block_text(rewriter_t *w, CXType t, size_t offset)
{
    const layout_t *l = layout_of(w, t);
    if (!l)
        return xstrdup("1");
    if (l->kind == BLOCK_INDEFINITE)
        return xstrdup("0");
    if (l->kind == BLOCK_STAR && !*l->block) {
        report(w, offset, "'shared [*]' here has no block size yet: use it in the declaration "
                          "of an array with THREADS in a dimension");
        return xstrdup("1");
    }
    return xasprintf("(%s)", l->block);
}

static int next_temp(rewriter_t *w) { return ++w->temps; }

/* ================================================================ */
/* Shared lvalues: their address, reads and writes                  */
/* ================================================================ */

static char *gen(rewriter_t *w, CXCursor c);
static char *splice(rewriter_t *w, CXCursor c);

/* An implicit conversion or parentheses around exactly one expression. */
static int is_wrapper(CXCursor c, CXCursor *inner)
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

static CXCursor strip(CXCursor c)
{
    CXCursor in;
    while (is_wrapper(c, &in))
        c = in;
    return c;
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
static char *descriptor_name(CXCursor decl)
{
    CXString name = clang_getCursorSpelling(decl);
    int local = clang_getCursorKind(clang_getCursorSemanticParent(decl)) == CXCursor_FunctionDecl &&
                clang_Cursor_getStorageClass(decl) != CX_SC_Extern; /* a block-scope extern is the global */
    char *s = local ? xasprintf("%s__mupc_%zu", clang_getCString(name), start_of(decl))
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
static int root_threads_dim(rewriter_t *w, CXCursor c, int *depth)
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
static char *leaf_count(CXType t, int threads_dim_below)
{
    long long n = 1;
    while (is_array(t)) {
        n *= clang_getArraySize(canon(t)) > 0 ? clang_getArraySize(canon(t)) : 1;
        t = element_type(t);
    }
    return threads_dim_below ? xasprintf("(%lldLL * mupc_threads)", n) : xasprintf("%lldLL", n);
}

static int member_derived(rewriter_t *w, CXCursor c);

/* Whether lvalue x lies inside a member of a shared structure: the member
 * (s.m, p->m), an element of an array member (s.v[1], s.v[0][1]), or *p
 * for such a p. */
static int member_lvalue(rewriter_t *w, CXCursor x)
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
static int member_derived(rewriter_t *w, CXCursor c)
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

/* p + n for a pointer-to-shared p of type ptype. */
/* Whether pointer p points to rows with THREADS in their length: a
 * file-scope array `shared int a[2][10*THREADS]` decayed (a + 1), or a
 * parameter declared so. */
static int threads_rows(rewriter_t *w, CXCursor p)
{
    int depth = 0;
    return root_threads_dim(w, p, &depth) > depth;
}

static char *ptr_add_in(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate,
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
    char *s = xasprintf("mupc_ptr_add(%s, %s(ptrdiff_t)(%s) * %s, sizeof(%s), %s)", p, negate ? "-" : "",
                        n, count, leaf_s, block);
    free(leaf_s);
    free(count);
    free(block);
    return s;
}

static char *ptr_add(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate,
                     size_t offset, int threads_scaled)
{
    return ptr_add_in(w, ptype, p, n, negate, offset, threads_scaled, 0);
}

static char *addr(rewriter_t *w, CXCursor c);

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

/* The X of an index written X * THREADS + MYTHREAD (either order of each
 * operation), the idiom for this thread's X-th element of a cyclic array,
 * or a null cursor. */
static CXCursor own_element_index(CXCursor index)
{
    CXCursor none = clang_getNullCursor(), c = strip(index);
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
        x = names_variable(ks.v[1], "mupc_threads") ? ks.v[0]
            : names_variable(ks.v[0], "mupc_threads") ? ks.v[1] : none;
    free(ks.v);
    return x;
}

static char *addr_subscript(rewriter_t *w, CXCursor c)
{
    CXCursor root;
    int levels = 0;
    char *linear = rooted_index(w, c, &root, &levels);
    kids_t sub = children(c, 1);
    CXCursor own = sub.n == 2 && levels == 0 ? own_element_index(sub.v[1]) : clang_getNullCursor();
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
        char *desc = descriptor_name(root), *leaf = spell(w, leaf_type(t)), *x = gen(w, own);
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
    char *b = gen(w, base), *i = gen(w, index);
    int in_struct = member_derived(w, base);
    char *s = ptr_add_in(w, clang_getCursorType(base), b, i, 0, start_of(c), scaled, in_struct);
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
static char *addr(rewriter_t *w, CXCursor c)
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

/* Read shared lvalue c. */
static char *read_shared(rewriter_t *w, CXCursor c)
{
    CXType t = clang_getCursorType(c);
    size_t at = start_of(c);
    char *a = addr(w, c);
    int strict = strict_of(w, t, at);
    const char *suffix = access_suffix(w, t);
    char *s;
    if (suffix && !strict) { /* data with local affinity: a load, inline */
        char *ts = spell(w, t);
        int n = next_temp(w);
        s = xasprintf("({ mupc_ptr_t __mupc_p%d = %s; __mupc_local(__mupc_p%d, sizeof(%s)) ? "
                      "*(%s *)(mupc_local_base + __mupc_p%d.addr) : mupc_get_%s(__mupc_p%d, 0, __FILE__, "
                      "__LINE__); })",
                      n, a, n, ts, ts, n, suffix, n);
        free(ts);
    } else if (suffix) {
        s = xasprintf("mupc_get_%s(%s, %d, __FILE__, __LINE__)", suffix, a, strict);
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
static char *write_at(rewriter_t *w, CXType t, const char *a, const char *value, size_t at)
{
    int strict = strict_of(w, t, at);
    const char *suffix = access_suffix(w, t);
    char *ts = spell(w, t);
    int n = next_temp(w);
    char *s;
    if (suffix && !strict) /* data with local affinity: a store, inline */
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_ptr_t __mupc_p%d = %s; if (__mupc_local(__mupc_p%d, "
                      "sizeof __mupc_v%d)) *(%s *)(mupc_local_base + __mupc_p%d.addr) = __mupc_v%d; else "
                      "mupc_put_%s(__mupc_p%d, __mupc_v%d, 0, __FILE__, __LINE__); __mupc_v%d; })",
                      ts, n, value, n, a, n, n, ts, n, n, suffix, n, n, n);
    else if (suffix)
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_put_%s(%s, __mupc_v%d, %d, __FILE__, __LINE__); "
                      "__mupc_v%d; })",
                      ts, n, value, suffix, a, n, strict, n);
    else
        s = xasprintf("({ %s __mupc_v%d = (%s); mupc_put_block(%s, &__mupc_v%d, sizeof __mupc_v%d, %d, "
                      "__FILE__, __LINE__); __mupc_v%d; })",
                      ts, n, value, a, n, n, strict, n);
    free(ts);
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

/* x OP= v, ++x, x++ ... on lvalue c: read, update, write once, with the
 * location's address computed once.  post: the result is the old value. */
static char *update(rewriter_t *w, CXCursor c, const char *op, const char *operand, int post)
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
        char *a = addr(w, c);
        int strict = strict_of(w, t, at);
        char *old = xasprintf("__mupc_o%d", n);
        char *nv = updated(w, t, old, op, operand, at);
        s = xasprintf("({ mupc_ptr_t __mupc_a%d = %s; %s __mupc_o%d = mupc_get_%s(__mupc_a%d, %d, __FILE__, "
                      "__LINE__); %s __mupc_v%d = %s; mupc_put_%s(__mupc_a%d, __mupc_v%d, %d, __FILE__, "
                      "__LINE__); %s%d; })",
                      n, a, ts, n, suffix, n, strict, ts, n, nv, suffix, n, n, strict,
                      post ? "__mupc_o" : "__mupc_v", n);
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
/* Expressions                                                       */
/* ================================================================ */

/* c's text with each child expression replaced by its translation. */
static char *splice(rewriter_t *w, CXCursor c)
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
static char *truth(rewriter_t *w, CXCursor c)
{
    char *g = gen(w, c);
    if (!is_pts(w, clang_getCursorType(c)))
        return g;
    char *s = xasprintf("(!mupc_ptr_is_null(%s))", g);
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

/* Implicit conversions: reads of shared lvalues, array decay, null
 * pointers, pointers-to-shared as truth values. */
static char *implicit(rewriter_t *w, CXCursor c, CXCursor in)
{
    CXType to = clang_getCursorType(c), from = clang_getCursorType(in);
    if (is_shared(w, from) && is_array(from) && !is_array(to))
        return addr(w, in); /* the address of element 0 */
    if (is_shared(w, from) && !is_shared(w, to))
        return read_shared(w, in);
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

/* Whether pointers-to-shared l and r point to types with different block
 * sizes, both written as numbers (or indefinite); shared void * and the
 * address of a structure's member (typed with the structure's layout,
 * UPC 1.3 §6.4.4) compare with any. */
static int block_sizes_differ(rewriter_t *w, CXCursor l, CXCursor r)
{
    /* the operands as written: clang converts one to the other's type */
    CXType lt = clang_getPointeeType(canon(clang_getCursorType(strip(l))));
    CXType rt = clang_getPointeeType(canon(clang_getCursorType(strip(r))));
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
    if (op == CXBinaryOperator_Assign && is_shared(w, lt)) {
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
            s = xasprintf("(%smupc_ptr_is_null(%s))", op == CXBinaryOperator_NE ? "!" : "",
                          !strcmp(a, "MUPC_NULL_PTR") ? b : a);
        } else if (lp && rp && op >= CXBinaryOperator_LT && op <= CXBinaryOperator_NE &&
                   block_sizes_differ(w, l, r)) {
            report(w, at, "comparison of pointers-to-shared with different block sizes: the "
                          "pointed-to types are incompatible (UPC 1.3 §6.4.2); cast one of them, "
                          "or both to shared void * for == and !=");
        } else if (op == CXBinaryOperator_EQ || op == CXBinaryOperator_NE) {
            s = xasprintf("(%smupc_ptr_equal(%s, %s))", op == CXBinaryOperator_NE ? "!" : "", a, b);
        } else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE &&
                   canon(clang_getPointeeType(canon(lt))).kind == CXType_Void) {
            report(w, at, "relational operators do not apply to shared void * (UPC 1.3 §6.4.2: the "
                          "pointed-to type must be complete); cast both to a pointer to the data's type");
        } else if (op >= CXBinaryOperator_LT && op <= CXBinaryOperator_GE) {
            static const char *rel[] = {"<", ">", "<=", ">="};
            CXType pointee = clang_getPointeeType(canon(lt));
            char *leaf = spell(w, leaf_type(pointee));
            char *block = member_derived(w, l) && member_derived(w, r) ? xstrdup("0")
                                                                       : block_text(w, pointee, at);
            s = xasprintf("(mupc_ptr_diff(%s, %s, sizeof(%s), %s) %s 0)", a, b, leaf, block,
                          rel[op - CXBinaryOperator_LT]);
            free(leaf);
            free(block);
        } else if (op == CXBinaryOperator_Sub && lp && rp) {
            CXType pointee = clang_getPointeeType(canon(lt));
            char *leaf = spell(w, leaf_type(pointee));
            char *block = member_derived(w, l) && member_derived(w, r) ? xstrdup("0")
                                                                       : block_text(w, pointee, at);
            char *count = leaf_count(pointee, 0);
            s = xasprintf("(mupc_ptr_diff(%s, %s, sizeof(%s), %s) / %s)", a, b, leaf, block, count);
            free(leaf);
            free(block);
            free(count);
        } else if (op == CXBinaryOperator_Assign || op == CXBinaryOperator_Comma) {
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
    char *operand = gen(w, r);
    char *s = update(w, l, compound_op(clang_getCursorBinaryOperatorKind(c)), operand, 0);
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
            return update(w, x, inc ? "+" : "-", "1", post);
        }
        break;
    case CXUnaryOperator_LNot:
        if (pts) {
            char *g = gen(w, x);
            char *s = xasprintf("mupc_ptr_is_null(%s)", g);
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
            s = xasprintf("(!mupc_ptr_is_null(%s))", g);
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

/* ---- sizeof and the upc_*sizeof operators ---- */

/* Elements of a shared array (or 1), as C text, honouring THREADS. */
static char *total_elements(rewriter_t *w, CXCursor operand, CXType t)
{
    int depth = 0, dim = root_threads_dim(w, operand, &depth);
    return leaf_count(t, dim >= 0 && dim >= depth);
}

/* upc_localsizeof: an integer constant (UPC 1.3 §6.4.1.1), the most bytes
 * any thread holds, ceil(ceil(n / B) / THREADS) blocks.  With THREADS in a
 * dimension, n = c * THREADS and that is ceil(c / B) blocks whatever
 * THREADS is; otherwise in the dynamic environment the object is a scalar
 * (one block) or has an indefinite block size (all on one thread). */
static char *local_size(rewriter_t *w, CXCursor operand, CXType t, const char *block, const char *leaf)
{
    int depth = 0, dim = root_threads_dim(w, operand, &depth), scaled = dim >= 0 && dim >= depth;
    char *n = leaf_count(t, 0), *s;
    int threads = w->prelex->static_threads;
    if (!strcmp(block, "0"))
        s = xasprintf("((size_t)%s * sizeof(%s))", n, leaf);
    else if (scaled)
        s = xasprintf("((size_t)((%s + %s - 1) / %s) * %s * sizeof(%s))", n, block, block, block, leaf);
    else if (threads)
        s = xasprintf("((size_t)(((%s + %s - 1) / %s + %d - 1) / %d) * %s * sizeof(%s))", n, block, block,
                      threads, threads, block, leaf);
    else if (strcmp(n, "1LL") != 0) /* a row of a larger array: THREADS decides, at run time */
        s = xasprintf("((size_t)(((%s + %s - 1) / %s + mupc_threads - 1) / mupc_threads) * %s * sizeof(%s))",
                      n, block, block, block, leaf);
    else
        s = xasprintf("((size_t)%s * sizeof(%s))", block, leaf);
    free(n);
    return s;
}

static char *shared_sizeof(rewriter_t *w, CXCursor c, CXCursor operand, int kind)
{
    CXType t = clang_getCursorType(operand);
    size_t at = start_of(c);
    char *leaf = spell(w, leaf_type(t));
    char *total = total_elements(w, operand, t);
    char *block = block_text(w, t, at);
    char *s;
    switch (kind) {
    case SIZEOF_ELEM:
        s = xasprintf("sizeof(%s)", leaf);
        break;
    case SIZEOF_BLOCK: /* *&s.member: through a shared [] T * (UPC 1.3 §6.4.4) */
        s = xasprintf("((size_t)%s)", clang_getCursorKind(strip(operand)) == CXCursor_UnaryOperator &&
                                              member_lvalue(w, operand) ? "0" : block);
        break;
    case SIZEOF_LOCAL:
        s = local_size(w, operand, t, block, leaf);
        break;
    default:
        s = xasprintf("((size_t)%s * sizeof(%s))", total, leaf);
    }
    free(leaf);
    free(total);
    free(block);
    return s;
}

/* ---- type names as operands of sizeof and _Alignof ---- */

/* libclang gives no type for the type name in `sizeof (T)`, so a type name
 * that may involve UPC (it is written with `shared`, or names a typedef or
 * tag that does) is first rewritten as an expression of that type,
 * `sizeof (*(__typeof__(T) *)0)`, and the text is parsed again; sizeof of
 * a type then follows the same rules as sizeof of an object of the type
 * (`sizeof(upc_lock_t *)` is the size of a pointer-to-shared, 16 bytes,
 * not of a C pointer).  The operand is not evaluated, as before. */
#define TYPE_OPERAND_OPEN "*(__typeof__("
#define TYPE_OPERAND_CLOSE ") *)0"

/* The operator's keyword as written (sizeof, _Alignof, __alignof__), and
 * where the text after it starts. */
static char *operator_word(rewriter_t *w, size_t s, size_t *after)
{
    size_t p = s;
    while (p < w->len && (isalnum((unsigned char)w->text[p]) || w->text[p] == '_'))
        p++;
    *after = p;
    return xstrndup(w->text + s, p - s);
}

static size_t skip_space(rewriter_t *w, size_t p)
{
    while (p < w->len && isspace((unsigned char)w->text[p]))
        p++;
    return p;
}

/* Whether sizeof-like c has a type name for operand (C11 §6.5.3.4),
 * `sizeof (T)`; its children are then at most the expressions of T's
 * variable-length dimensions.  *paren: the operand's opening parenthesis. */
static int has_type_operand(rewriter_t *w, CXCursor c, size_t *paren)
{
    size_t s, e, after;
    extent(c, &s, &e);
    free(operator_word(w, s, &after));
    size_t p = skip_space(w, after);
    if (p >= e || w->text[p] != '(')
        return 0; /* sizeof x */
    *paren = p;
    kids_t ks = children(c, 1);
    int expression = 0;
    if (ks.n == 1) { /* sizeof (x): the parenthesized expression spans the rest */
        size_t ks_s, ks_e;
        extent(ks.v[0], &ks_s, &ks_e);
        expression = ks_s == p && ks_e == e;
    }
    free(ks.v);
    return !expression;
}

typedef struct upc_refs {
    rewriter_t *w;
    int found;
} upc_refs_t;

static enum CXChildVisitResult find_upc_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    upc_refs_t *u = data;
    if (clang_getCursorKind(c) == CXCursor_TypeRef) {
        CXType t = clang_getCursorType(c);
        if (is_shared(u->w, t) || contains_pts(u->w, t)) {
            u->found = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether type name operand of c may involve UPC: written with `shared`
 * (an address space, after the prelexer) or naming a type that is shared
 * or holds a pointer-to-shared.  A structure with pointer-to-shared members
 * needs nothing: its translated definition already has their size. */
static int type_operand_is_upc(rewriter_t *w, CXCursor c)
{
    char *text = source(w, c);
    int upc = strstr(text, "address_space") != NULL;
    free(text);
    if (upc)
        return 1;
    upc_refs_t u = {w, 0};
    clang_visitChildren(c, find_upc_ref, &u);
    return u.found;
}

typedef struct type_operands {
    rewriter_t *w;
    edits_t *fix;
    int n;
} type_operands_t;

static enum CXChildVisitResult wrap_type_operand(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    type_operands_t *t = data;
    size_t paren, s, e;
    if (clang_getCursorKind(c) != CXCursor_UnaryExpr || !translated(t->w, c) ||
        !has_type_operand(t->w, c, &paren) || !type_operand_is_upc(t->w, c))
        return CXChildVisit_Recurse;
    extent(c, &s, &e);
    if (e <= paren + 1 || t->w->text[e - 1] != ')')
        return CXChildVisit_Recurse;
    edits_add(t->fix, paren + 1, paren + 1, xstrdup(TYPE_OPERAND_OPEN));
    edits_add(t->fix, e - 1, e - 1, xstrdup(TYPE_OPERAND_CLOSE));
    t->n++;
    return CXChildVisit_Continue;
}

int rewrite_type_operands(rewriter_t *w, edits_t *fix)
{
    type_operands_t t = {w, fix, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(w->tu), wrap_type_operand, &t);
    return t.n;
}

/* The type name T of a wrapped operand `(*(__typeof__(T) *)0)`, or NULL. */
static char *wrapped_type_name(rewriter_t *w, CXCursor operand)
{
    char *text = source(w, operand);
    const char *open = "(" TYPE_OPERAND_OPEN, *close = TYPE_OPERAND_CLOSE ")";
    size_t n = strlen(text), no = strlen(open), nc = strlen(close);
    char *name = NULL;
    if (n > no + nc && !strncmp(text, open, no) && !strcmp(text + n - nc, close))
        name = xstrndup(text + no, n - no - nc);
    free(text);
    return name;
}

/* sizeof or _Alignof of type name `name` of type t (wrapped above). */
static char *type_name_size(rewriter_t *w, CXCursor c, CXCursor operand, const char *word, int kind,
                            const char *name)
{
    size_t at = start_of(c);
    CXType t = clang_getCursorType(operand);
    if (kind && !is_shared(w, t)) {
        report(w, at, "upc_localsizeof, upc_blocksizeof and upc_elemsizeof need a shared operand");
        return xstrdup("0");
    }
    if (kind == SIZEOF_LOCAL_THREADS) {
        /* `shared int [8][4*THREADS]` written with THREADS = 1 (prelex.c):
         * c elements per THREADS, ceil(c / B) blocks on every thread
         * whatever THREADS is, as for an object (local_size) */
        char *leaf = spell(w, leaf_type(t)), *block = block_text(w, t, at), *n = leaf_count(t, 0), *s;
        if (!strcmp(block, "0"))
            report(w, at, "upc_localsizeof of a type name with THREADS in a dimension and an "
                          "indefinite block size depends on THREADS; apply it to an object of the "
                          "type, or compile with -T N");
        s = xasprintf("((size_t)((%s + %s - 1) / %s) * %s * sizeof(%s))", n, block, block, block, leaf);
        free(leaf);
        free(block);
        free(n);
        return s;
    }
    if (kind == SIZEOF_LOCAL && contains_vla(t)) {
        report(w, at, "upc_localsizeof of a type name with THREADS in a dimension is not supported "
                      "in the dynamic THREADS environment; apply it to an object of the type, or "
                      "compile with -T N");
        return xstrdup("0");
    }
    if (kind)
        return shared_sizeof(w, c, operand, kind);
    if (is_pts(w, t))
        return xasprintf("%s(mupc_ptr_t)", word);
    if (contains_pts(w, t)) {
        if (contains_vla(t)) {
            report(w, at, "%s of a variable-length array of pointers-to-shared is not supported; "
                          "multiply the length by sizeof(shared void *)", word);
            return xstrdup("0");
        }
        char *ts = spell(w, canon(t)), *s = xasprintf("%s(%s)", word, ts);
        free(ts);
        return s;
    }
    /* a shared type: the size of its C type (UPC 1.3 §6.4.2: the whole
     * array, THREADS included), as written once the qualifiers go */
    return xasprintf("%s(%s)", word, name);
}

static char *size_of(rewriter_t *w, CXCursor c)
{
    size_t s, e, after, paren;
    extent(c, &s, &e);
    int kind = prelex_sizeof_at(w->prelex, s);
    char *word = operator_word(w, s, &after);
    int align = strcmp(word, "sizeof") != 0;
    if (has_type_operand(w, c, &paren)) { /* not wrapped: no UPC in it */
        free(word);
        if (kind) {
            report(w, s, "upc_localsizeof, upc_blocksizeof and upc_elemsizeof need a shared operand");
            return xstrdup("0");
        }
        return splice(w, c);
    }
    kids_t ks = children(c, 1);
    CXCursor operand = ks.n == 1 ? ks.v[0] : clang_getNullCursor();
    free(ks.v);
    char *name = clang_Cursor_isNull(operand) ? NULL : wrapped_type_name(w, operand), *r = NULL;
    CXType t = clang_Cursor_isNull(operand) ? (CXType){0} : clang_getCursorType(operand);
    if (!clang_Cursor_isNull(operand) && canon(t).kind == CXType_Void && !align) {
        report(w, s, "%s of void or shared void: an incomplete type has no size (C99 §6.5.3.4, "
                     "UPC 1.3 §6.4.1)", kind ? "upc_*sizeof" : "sizeof");
        r = xstrdup("0");
    } else if (name)
        r = type_name_size(w, c, operand, word, kind, name);
    else if (clang_Cursor_isNull(operand))
        r = splice(w, c);
    else if (is_shared(w, t) && !align)
        r = shared_sizeof(w, c, operand, kind);
    else if (is_shared(w, t) && !kind) { /* _Alignof of shared data: of its elements */
        char *leaf = spell(w, leaf_type(t));
        r = xasprintf("%s(%s)", word, leaf);
        free(leaf);
    }
    else if (kind) {
        report(w, s, "upc_localsizeof, upc_blocksizeof and upc_elemsizeof need a shared operand");
        r = xstrdup("0");
    } else if (is_pts(w, t))
        r = xasprintf("%s(mupc_ptr_t)", word);
    else if (contains_pts(w, t) && canon(t).kind != CXType_VariableArray) { /* shared int *[3] */
        char *ts = spell(w, canon(t));
        r = xasprintf("%s(%s)", word, ts);
        free(ts);
    } else
        r = splice(w, c);
    free(name);
    free(word);
    return r;
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

/* A null pointer constant given to a UPC library function for a
 * pointer-to-shared parameter (upc_free(NULL), upc_threadof(NULL)): the
 * prelude declares those functions without prototypes, so nothing
 * converted it; it becomes the null pointer-to-shared.  NULL otherwise. */
static char *library_null_arguments(rewriter_t *w, CXCursor c)
{
    static const struct { const char *name; unsigned shared_args; } fns[] = {
        {"upc_threadof", 1}, {"upc_phaseof", 1}, {"upc_addrfield", 1}, {"upc_resetphase", 1},
        {"upc_free", 1}, {"upc_all_free", 1}, {"upc_lock_free", 1}, {"upc_all_lock_free", 1},
        {"upc_lock", 1}, {"upc_lock_attempt", 1}, {"upc_unlock", 1}, {"upc_memcpy", 3},
        {"upc_memget", 2}, {"upc_memput", 1}, {"upc_memset", 1}, {"upc_all_atomicdomain_free", 1},
        {"upc_castable", 1}, {"upc_cast", 1},
        /* <upc_io.h>: the shared buffer is the second argument */
        {"upc_all_fread_shared", 2}, {"upc_all_fwrite_shared", 2}, {"upc_all_fread_shared_async", 2},
        {"upc_all_fwrite_shared_async", 2},
        /* <bupc_extensions.h> */
        {"bupc_castable", 1}, {"bupc_cast", 1}, {"bupc_dump_shared", 1}, {"bupc_ptradd", 1},
        {"bupc_memcpy_async", 3}, {"bupc_memget_async", 2}, {"bupc_memput_async", 1},
        {"bupc_memset_async", 1}, {"bupc_memcpy_asynci", 3}, {"bupc_memget_asynci", 2},
        {"bupc_memput_asynci", 1}, {"bupc_memset_asynci", 1}, {NULL, 0}};
    CXCursor callee = clang_getCursorReferenced(c);
    if (clang_getCursorKind(callee) != CXCursor_FunctionDecl || translated(w, callee))
        return NULL; /* only the prelude's declarations */
    CXString name = clang_getCursorSpelling(callee);
    unsigned mask = 0;
    for (int i = 0; fns[i].name; i++)
        if (!strcmp(clang_getCString(name), fns[i].name))
            mask = fns[i].shared_args;
    int n = clang_Cursor_getNumArguments(c), any = 0;
    for (int i = 0; i < n && i < 8; i++)
        any |= (mask >> i & 1) && is_null_constant(w, clang_Cursor_getArgument(c, (unsigned)i));
    if (!any) {
        clang_disposeString(name);
        return NULL;
    }
    strbuf_t out;
    sb_init(&out);
    sb_printf(&out, "%s(", clang_getCString(name));
    for (int i = 0; i < n; i++) {
        CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
        char *g = (mask >> i & 1) && is_null_constant(w, a) ? xstrdup("MUPC_NULL_PTR") : gen(w, a);
        sb_printf(&out, "%s%s", i ? ", " : "", g);
        free(g);
    }
    sb_puts(&out, ")");
    clang_disposeString(name);
    return sb_take(&out);
}

static void walk(rewriter_t *w, CXCursor c);

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

static char *gen(rewriter_t *w, CXCursor c)
{
    CXCursor in;
    switch (clang_getCursorKind(c)) {
    case CXCursor_UnexposedExpr:
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
        char *s = library_null_arguments(w, c);
        if (s)
            return s;
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
/* Statements                                                        */
/* ================================================================ */

static void queue_expr(rewriter_t *w, CXCursor c, int as_truth)
{
    size_t s, e;
    extent(c, &s, &e);
    char *g = as_truth ? truth(w, c) : gen(w, c);
    if (strlen(g) != e - s || memcmp(g, w->text + s, e - s))
        edits_add(&w->edits, s, e, g);
    else
        free(g);
}

static void walk(rewriter_t *w, CXCursor c);
static char *declaration_text(rewriter_t *w, CXCursor d, int file_scope);
static char *shared_object_text(rewriter_t *w, CXCursor d);
static void record_fields(rewriter_t *w, CXCursor r);

/* The offset just past the ';' that ends a statement or declaration
 * whose extent ends at end (clang's extents stop before it). */
static size_t past_semicolon(rewriter_t *w, size_t end)
{
    size_t p = end;
    for (;;) {
        while (p < w->len && (w->text[p] == ' ' || w->text[p] == '\t' || w->text[p] == '\n'))
            p++;
        /* `shared int x __attribute__((unused));`: the attribute goes with
         * the declaration it followed (the translation drops it) */
        static const char attribute[] = "__attribute__";
        if (strncmp(w->text + p, attribute, sizeof attribute - 1) != 0)
            break;
        p += sizeof attribute - 1;
        while (p < w->len && w->text[p] == ' ')
            p++;
        if (p >= w->len || w->text[p] != '(')
            return end;
        for (int depth = 0; p < w->len; p++) {
            depth += w->text[p] == '(' ? 1 : w->text[p] == ')' ? -1 : 0;
            if (depth == 0) {
                p++;
                break;
            }
        }
    }
    return p < w->len && w->text[p] == ';' ? p + 1 : end;
}

static int is_tag_definition(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl) &&
           clang_isCursorDefinition(c);
}

/* An unnamed struct, union or enum definition gets a name, which the
 * translation uses wherever it must spell the type (see tag_name): clang
 * does not always keep the typedef that names it on a shared object. */
static void name_unnamed_tag(rewriter_t *w, CXCursor tag)
{
    CXString name = clang_getCursorSpelling(tag);
    const char *n = clang_getCString(name);
    if (clang_Cursor_isAnonymous(tag) || strstr(n, "(unnamed") || strstr(n, "(anonymous") || !*n) {
        size_t ts, te, brace;
        extent(tag, &ts, &te);
        for (brace = ts; brace < te && w->text[brace] != '{'; brace++)
            ; /* the name goes just before the body, after any __attribute__ */
        w->named_tags = xrealloc(w->named_tags, (w->nnamed_tags + 1) * sizeof *w->named_tags);
        w->named_tags[w->nnamed_tags++] = ts;
        edits_add(&w->edits, brace, brace, xasprintf("__mupc_tag_%zu ", ts));
    }
    clang_disposeString(name);
}

/* A declaration [s, end) of variables that also defines a struct, union or
 * enum (`shared struct pt { int x, y; } p;`): C needs that definition, so
 * it stays, as a declaration of its own (an unnamed one gets a name), and
 * only the text around it is replaced: what precedes it (storage class and
 * UPC qualifiers) goes, and what follows it becomes `; translation`.
 * Returns where the replaced text starts: s, or the end of the definition. */
static size_t keep_tag_definition(rewriter_t *w, CXCursor tag, size_t s, size_t end)
{
    size_t ts, te;
    extent(tag, &ts, &te);
    if (!is_tag_definition(tag) || ts < s || te > end)
        return s;
    edits_add(&w->edits, s, ts, xstrdup(""));
    name_unnamed_tag(w, tag);
    return te;
}

static void declaration_statement(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 0);
    int rewrite = 0;
    for (int i = 0; i < ks.n; i++) {
        CXType t = clang_getCursorType(ks.v[i]);
        if (clang_getCursorKind(ks.v[i]) != CXCursor_VarDecl)
            continue;
        if (is_shared(w, t)) {
            CXString name = clang_getCursorSpelling(ks.v[i]);
            if (clang_Cursor_getStorageClass(ks.v[i]) == CX_SC_Extern)
                ; /* the file-scope object, declared here: see declaration_text */
            else if (clang_Cursor_getStorageClass(ks.v[i]) == CX_SC_Static && i > 0 && is_tag_definition(ks.v[0]))
                report(w, start_of(ks.v[0]), "the type of static shared object '%s' is defined in its "
                       "declaration, inside a function: not supported; define the type before the "
                       "function", clang_getCString(name));
            else if (clang_Cursor_getStorageClass(ks.v[i]) == CX_SC_Static)
                /* its descriptor goes before the function, at file scope */
                edits_add(&w->edits, w->function_start, w->function_start,
                          shared_object_text(w, ks.v[i]));
            else
                report(w, start_of(ks.v[i]), "shared object '%s' must have static storage "
                       "duration: declare it at file scope (UPC 1.3 §6.5.1.1)", clang_getCString(name));
            clang_disposeString(name);
        }
        rewrite |= is_shared(w, t) || contains_pts(w, t);
    }
    if (!rewrite) {
        for (int i = 0; i < ks.n; i++)
            walk(w, ks.v[i]);
        free(ks.v);
        return;
    }
    size_t s, e;
    extent(c, &s, &e);
    strbuf_t out;
    sb_init(&out);
    for (int i = 0; i < ks.n; i++) {
        if (is_tag_definition(ks.v[i])) {
            record_fields(w, ks.v[i]);
            size_t from = keep_tag_definition(w, ks.v[i], s, e);
            if (from != s)
                s = from, sb_puts(&out, "; ");
        }
        if (clang_getCursorKind(ks.v[i]) != CXCursor_VarDecl)
            continue;
        char *d = declaration_text(w, ks.v[i], 0);
        sb_puts(&out, d);
        sb_puts(&out, " ");
        free(d);
    }
    edits_add(&w->edits, s, e, sb_take(&out));
    free(ks.v);
}

/* The affinity test of a upc_forall: the marker call in its body's if. */
static char *affinity_test(rewriter_t *w, CXCursor call, int depth_var)
{
    kids_t ks = children(call, 1);
    char *callee = ks.n ? source(w, ks.v[0]) : xstrdup("");
    char *s = NULL;
    if (!strcmp(callee, "__mupc_forall_any"))
        s = xstrdup("0");
    else if (ks.n == 2) {
        CXCursor aff = strip(ks.v[1]);
        CXType t = clang_getCursorType(aff);
        char *g = gen(w, aff);
        enum CXTypeKind k = canon(t).kind;
        if (is_pts(w, t))
            s = xasprintf("!(__mupc_fa%d > 1 || upc_threadof((%s)) == (size_t)mupc_mythread)", depth_var, g);
        else if (k >= CXType_Bool && k <= CXType_Int128 && k != CXType_WChar)
            s = xasprintf("!(__mupc_fa%d > 1 || __mupc_affinity((long long)(%s)))", depth_var, g);
        else if (k == CXType_Enum)
            s = xasprintf("!(__mupc_fa%d > 1 || __mupc_affinity((long long)(%s)))", depth_var, g);
        else {
            CXString ts = clang_getTypeSpelling(t);
            report(w, start_of(aff), "the affinity of upc_forall must be an integer or a "
                   "pointer-to-shared expression, not '%s' (UPC 1.3 §6.6.2)", clang_getCString(ts));
            clang_disposeString(ts);
        }
        free(g);
    }
    free(callee);
    free(ks.v);
    return s ? s : xstrdup("0");
}

/* A for whose body is `if (__mupc_forall_*(...)) ; else S`: a upc_forall. */
static int forall_marker(rewriter_t *w, CXCursor body, CXCursor *call)
{
    if (clang_getCursorKind(body) != CXCursor_IfStmt)
        return 0;
    kids_t ks = children(body, 0);
    int found = 0;
    if (ks.n >= 1) {
        CXCursor cond = strip(ks.v[0]);
        if (clang_getCursorKind(cond) == CXCursor_CallExpr) {
            CXString name = clang_getCursorSpelling(cond);
            found = !strncmp(clang_getCString(name), "__mupc_forall_", 14);
            clang_disposeString(name);
            *call = cond;
        }
    }
    free(ks.v);
    return found;
}

/* The offsets of the two ';' in a for statement's header [s, e). */
static void header_semicolons(rewriter_t *w, size_t s, size_t e, size_t semi[2])
{
    int parens = 0, found = 0;
    semi[0] = semi[1] = e;
    for (size_t p = s; p < e && found < 2; p++) {
        char ch = w->text[p];
        if (ch == '"' || ch == '\'') { /* a literal's ';' or parenthesis counts for nothing */
            for (p++; p < e && w->text[p] != ch; p++)
                p += w->text[p] == '\\';
            continue;
        }
        parens += ch == '(' ? 1 : ch == ')' ? -1 : 0;
        if (ch == ';' && parens == 1)
            semi[found++] = p;
    }
}

static void for_statement(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 0);
    CXCursor body = ks.v[ks.n - 1], call;
    size_t s, e, semi[2];
    extent(c, &s, &e);
    header_semicolons(w, s, e, semi);
    for (int i = 0; i < ks.n - 1; i++) {
        size_t at = start_of(ks.v[i]);
        if (clang_isExpression(clang_getCursorKind(ks.v[i])))
            queue_expr(w, ks.v[i], at > semi[0] && at < semi[1]); /* the condition: a truth value */
        else
            walk(w, ks.v[i]);
    }
    if (!forall_marker(w, body, &call)) {
        walk(w, body);
        free(ks.v);
        return;
    }
    int n = next_temp(w);
    size_t cs, ce;
    extent(call, &cs, &ce);
    char *test = affinity_test(w, call, n);
    int controlling = strcmp(test, "0") != 0;
    edits_add(&w->edits, cs, ce, test);
    kids_t bk = children(body, 0);
    for (int i = 1; i < bk.n; i++)
        walk(w, bk.v[i]);
    free(bk.v);
    /* Only a upc_forall with an affinity expression controls which thread
     * runs an iteration; within it, nested ones run every iteration (UPC
     * 1.3 §6.6.2), which the depth count tells at run time. */
    if (!controlling && !w->gasp) {
        free(ks.v);
        return;
    }
    size_t end = clang_getCursorKind(body) == CXCursor_CompoundStmt ? e : past_semicolon(w, e);
    char *depth = controlling ? xasprintf("__attribute__((cleanup(__mupc_forall_leave))) int __mupc_fa%d = "
                                          "__mupc_forall_enter(); ", n)
                              : xstrdup("");
    char *gasp = w->gasp ? xasprintf("__attribute__((cleanup(__mupc_forall_gasp_leave))) struct __mupc_site "
                                     "__mupc_fg%d = __mupc_forall_gasp_enter((struct __mupc_site){0, __FILE__, "
                                     "__LINE__}); ", n)
                         : xstrdup("");
    edits_add(&w->edits, s, s, xasprintf("{ %s%s", gasp, depth));
    free(gasp);
    free(depth);
    edits_add(&w->edits, end, end, xstrdup(" }"));
    free(ks.v);
}

/* Walk a statement (or declaration) queueing edits. */
static void walk(rewriter_t *w, CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    if (clang_isExpression(k)) {
        queue_expr(w, c, 0);
        return;
    }
    if (k == CXCursor_DeclStmt) {
        declaration_statement(w, c);
        return;
    }
    if (k == CXCursor_ForStmt) {
        for_statement(w, c);
        return;
    }
    kids_t ks = children(c, 0);
    for (int i = 0; i < ks.n; i++) {
        int cond = clang_isExpression(clang_getCursorKind(ks.v[i])) &&
                   (((k == CXCursor_IfStmt || k == CXCursor_WhileStmt) && i == 0) ||
                    (k == CXCursor_DoStmt && i == ks.n - 1));
        if (cond)
            queue_expr(w, ks.v[i], 1);
        else
            walk(w, ks.v[i]);
    }
    free(ks.v);
}

/* ================================================================ */
/* Declarations                                                      */
/* ================================================================ */

static const char *storage(CXCursor d)
{
    switch (clang_Cursor_getStorageClass(d)) {
    case CX_SC_Static: return "static ";
    case CX_SC_Extern: return "extern ";
    default: return "";
    }
}

/* The initializer expression of a variable, or a null cursor. */
static CXCursor initializer(CXCursor d)
{
    CXCursor init = clang_Cursor_getVarDeclInitializer(d);
    return clang_Cursor_isNull(init) || clang_isInvalid(clang_getCursorKind(init)) ? clang_getNullCursor() : init;
}

/* The most values in one brace-enclosed list at brace depth `depth` of an
 * initializer's text (1 = the outermost list's own values). */
static long longest_list(const char *values, int depth)
{
    long most = 0, here = 0;
    int level = 0, nonempty = 0, parens = 0;
    for (const char *p = values; *p; p++) {
        if (*p == '"' || *p == '\'') { /* skip a literal */
            char q = *p;
            for (p++; *p && *p != q; p++)
                if (*p == '\\' && p[1])
                    p++;
            if (!*p)
                break;
            nonempty = 1;
            continue;
        }
        if (*p == '(') parens++;
        if (*p == ')') parens--;
        if (*p == '{') {
            if (++level == depth)
                here = 0, nonempty = 0;
            else if (level == depth + 1)
                nonempty = 1;
        } else if (*p == '}') {
            if (level == depth && (here + nonempty) > most)
                most = here + nonempty;
            level--;
        } else if (*p == ',' && level == depth && !parens) {
            here += nonempty;
            nonempty = 0;
        } else if (level == depth && !isspace((unsigned char)*p)) {
            nonempty = 1;
        }
    }
    return most;
}

/* The parsed length of dimension `dim` of array variable d. */
static long long row_length(CXCursor d, int dim)
{
    CXType a = canon(clang_getCursorType(d));
    for (int k = 0; k < dim && is_array(a); k++)
        a = canon(clang_getArrayElementType(a));
    return is_array(a) ? clang_getArraySize(a) : 0;
}

/* The initializer of a shared array: its values in a private table of the
 * parsed shape (a THREADS dimension counted once; outermost, it takes as
 * many rows as the list has), each element written by the thread it has
 * affinity to, at its place in the run-time shape (that dimension times
 * THREADS); C lays out both row-major.  A list longer than the run-time
 * array (more THREADS assumed than the job has) is a run-time error. */
static char *array_initializer_text(rewriter_t *w, CXCursor d, const char *desc, const char *leaf,
                                    const char *block, const char *values)
{
    CXString name_s = clang_getCursorSpelling(d);
    const char *name = clang_getCString(name_s);
    int threads_dim = prelex_threads_dim(w->prelex, name);
    if (threads_dim > 0 && longest_list(values, threads_dim + 1) > row_length(d, threads_dim))
        report(w, start_of(d), "the initializer of '%s' gives more values in its THREADS dimension than "
               "one thread's share: not supported in the dynamic THREADS environment; compile with "
               "-T N or assign those elements in main", name);
    strbuf_t dims = {0}, parsed = {0}, shape = {0};
    int rank = 0;
    for (CXType a = canon(clang_getCursorType(d)); is_array(a); a = canon(clang_getArrayElementType(a))) {
        long long n = clang_getArraySize(a) > 0 ? clang_getArraySize(a) : 1;
        if (rank == 0 && threads_dim == 0)
            sb_printf(&dims, "[]"), sb_printf(&parsed, "sizeof v / sizeof v[0]");
        else
            sb_printf(&dims, "[%lld]", n), sb_printf(&parsed, "%s%lld", rank ? ", " : "", n);
        sb_printf(&shape, "%s%lld%s", rank ? ", " : "", n, rank == threads_dim ? " * (size_t)mupc_threads" : "");
        rank++;
    }
    char *s = xasprintf(
        "static void %s_init(void) { static const %s v%s = %s; "
        "const size_t parsed[] = {%s}, shape[] = {%s}; "
        "for (size_t k = 0; k < sizeof v / sizeof(%s); k++) { "
        "size_t at = 0, inner = sizeof v / sizeof(%s); "
        "for (int j = 0; j < %d; j++) { inner /= parsed[j]; size_t i = k / inner %% parsed[j]; "
        "if (i >= shape[j]) { fprintf(stderr, \"%%s:%%d: the initializer of shared array '%s' has more "
        "elements than it holds with THREADS = %%d: run it with more threads or shorten the "
        "list\\n\", __FILE__, __LINE__, mupc_threads); "
        "mupc_global_exit(1, __FILE__, __LINE__); } at = at * shape[j] + i; } "
        "mupc_ptr_t p = __mupc_index(%s.base, (ptrdiff_t)at, sizeof(%s), %s); "
        "if (p.thread == (uint32_t)mupc_mythread) *(%s *)mupc_local_addr(p) = ((const %s *)v)[k]; } } ",
        desc, leaf, dims.s, values, parsed.s, shape.s, leaf, leaf, rank, name, desc, leaf, block, leaf, leaf);
    clang_disposeString(name_s);
    free(dims.s);
    free(parsed.s);
    free(shape.s);
    return s;
}

/* The initializer of a shared object, as a function every thread runs
 * before main (mupc_static_init): each writes its own elements.  A scalar
 * or a one-dimensional array (its values in a private table); "" when d
 * has none. */
static char *initializer_text(rewriter_t *w, CXCursor d, const char *desc, const char *leaf,
                              const char *block)
{
    CXCursor init = initializer(d);
    if (clang_Cursor_isNull(init))
        return xstrdup("");
    CXType t = clang_getCursorType(d);
    char *values = gen(w, init), *s;
    if (!is_array(t)) { /* a brace-enclosed value becomes a compound literal */
        char *value = values[0] == '{' ? xasprintf("(%s)%s", leaf, values) : xasprintf("(%s)", values);
        s = xasprintf("static void %s_init(void) { mupc_ptr_t p = %s.base; "
                      "if (p.thread == (uint32_t)mupc_mythread) *(%s *)mupc_local_addr(p) = %s; } ",
                      desc, desc, leaf, value);
        free(value);
    } else if (clang_getCursorKind(init) == CXCursor_InitListExpr ||
               clang_getCursorKind(strip(init)) == CXCursor_StringLiteral) { /* {...} or "text" */
        s = array_initializer_text(w, d, desc, leaf, block, values);
    } else {
        CXString name = clang_getCursorSpelling(d);
        report(w, start_of(init), "initializer of the shared array '%s' is neither a brace-enclosed list "
               "nor a string literal",
               clang_getCString(name));
        clang_disposeString(name);
        s = xstrdup("");
    }
    free(values);
    return s;
}

/* Whether declaration d of a shared object is the one that defines its
 * descriptor: a block-scope static always; at file scope, C allows
 * `shared int y; shared int y = 5;` (tentative definitions, C99 §6.9.2),
 * and the descriptor is defined once, where the initializer is, else at
 * the first (find_definitions); the others declare it extern. */
static int defines(rewriter_t *w, CXCursor d)
{
    if (clang_getCursorKind(clang_getCursorSemanticParent(d)) != CXCursor_TranslationUnit)
        return 1;
    for (size_t i = 0; i < w->ndefinitions; i++)
        if (clang_equalCursors(w->definitions[i], d))
            return 1;
    return 0;
}

static void find_definitions(rewriter_t *w, const kids_t *top)
{
    for (int i = 0; i < top->n; i++) {
        CXCursor d = top->v[i];
        if (clang_getCursorKind(d) != CXCursor_VarDecl || !translated(w, d) ||
            clang_Cursor_getStorageClass(d) == CX_SC_Extern || !is_shared(w, clang_getCursorType(d)))
            continue;
        char *name = descriptor_name(d);
        int chosen = -1; /* among the declarations of the same object */
        for (int j = 0; j < top->n; j++) {
            CXCursor e = top->v[j];
            if (clang_getCursorKind(e) != CXCursor_VarDecl || !translated(w, e) ||
                clang_Cursor_getStorageClass(e) == CX_SC_Extern)
                continue;
            char *other = descriptor_name(e);
            int same = !strcmp(name, other);
            free(other);
            if (same && (chosen < 0 || (clang_Cursor_isNull(initializer(top->v[chosen])) &&
                                        !clang_Cursor_isNull(initializer(e)))))
                chosen = j;
        }
        free(name);
        if (chosen == i) {
            w->definitions = xrealloc(w->definitions, (w->ndefinitions + 1) * sizeof *w->definitions);
            w->definitions[w->ndefinitions++] = d;
        }
    }
}

/* A file-scope shared object: its descriptor and registration. */
static char *shared_object_text(rewriter_t *w, CXCursor d)
{
    CXType t = clang_getCursorType(d);
    CXString name_s = clang_getCursorSpelling(d);
    const char *name = clang_getCString(name_s);
    char *desc = descriptor_name(d);
    size_t at = start_of(d);
    char *s = NULL;
    if (clang_Cursor_getStorageClass(d) == CX_SC_Extern || !defines(w, d)) {
        /* a static object's other declarations are static too (C99 §6.2.2) */
        s = xasprintf("%s mupc_static_t %s;", clang_Cursor_getStorageClass(d) == CX_SC_Static ? "static" : "extern",
                      desc);
    } else {
        layout_t *l = layout_of(w, t);
        long long n = 1;
        for (CXType a = canon(t); is_array(a); a = canon(clang_getArrayElementType(a)))
            n *= clang_getArraySize(a) > 0 ? clang_getArraySize(a) : 1;
        int per_thread = prelex_threads_dim(w->prelex, name) >= 0;
        if (is_array(t) && !per_thread && !w->prelex->static_threads && l && l->kind != BLOCK_INDEFINITE)
            report(w, at, "shared array '%s' needs THREADS in one dimension in the dynamic THREADS "
                   "environment (UPC 1.3 §6.5.2.1), or an indefinite block size 'shared []', or "
                   "compile with -T N", name);
        if (per_thread && l && l->kind == BLOCK_INDEFINITE)
            report(w, at, "THREADS in a dimension of '%s', whose block size is indefinite ('shared []'): "
                   "not allowed in the dynamic THREADS environment (UPC 1.3 §6.5.2.1); compile "
                   "with -T N or give a block size", name);
        if (l && l->kind == BLOCK_STAR && !*l->block) {
            free(l->block);
            long long b = per_thread ? n
                          : w->prelex->static_threads
                              ? (n + w->prelex->static_threads - 1) / w->prelex->static_threads
                              : 1;
            l->block = xasprintf("%lld", b);
            if ((unsigned long long)b > UPC_MAX_BLOCK)
                report(w, at, "shared [*] gives '%s' a block size of %lld, above UPC_MAX_BLOCK_SIZE "
                       "(%llu) (UPC 1.3 §6.5.1.1); give a block size or make the array smaller",
                       name, b, UPC_MAX_BLOCK);
        }
        char *leaf = spell(w, leaf_type(t));
        char *block = block_text(w, t, at);
        int is_static = clang_Cursor_getStorageClass(d) == CX_SC_Static ||
                        clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_FunctionDecl;
        char *init = initializer_text(w, d, desc, leaf, block);
        char *call = *init ? xasprintf(" mupc_static_init(%s_init);", desc) : xstrdup("");
        /* a tentative definition (no initializer) in a header that several
         * translation units include is one object, in C's common-symbol
         * tradition: a weak descriptor, which an initialized definition
         * elsewhere overrides; each unit registers it (the runtime keeps one) */
        int tentative = !is_static && clang_Cursor_isNull(initializer(d));
        s = xasprintf("%s%smupc_static_t %s = {\"%s\", sizeof(%s), %s, %lld, %d, {0, 0, 0}, 0}; %s"
                      "__attribute__((constructor)) static void %s_register(void) "
                      "{ mupc_static_register(&%s);%s }",
                      is_static ? "static " : "", tentative ? "__attribute__((weak)) " : "", desc, name,
                      leaf, block, n, per_thread, init, desc, desc, call);
        free(call);
        free(init);
        free(leaf);
        free(block);
    }
    free(desc);
    clang_disposeString(name_s);
    return s ? s : xstrdup("");
}

/* One declaration of d, translated: `storage type name [= init];`. */
static char *declaration_text(rewriter_t *w, CXCursor d, int file_scope)
{
    CXType t = clang_getCursorType(d);
    if (is_shared(w, t) && !file_scope && clang_Cursor_getStorageClass(d) == CX_SC_Extern) {
        char *desc = descriptor_name(d), *s = xasprintf("extern mupc_static_t %s;", desc);
        free(desc);
        return s;
    }
    if (is_shared(w, t)) /* a static in a function went before the function */
        return file_scope ? shared_object_text(w, d) : xstrdup("");
    CXString name = clang_getCursorSpelling(d);
    char *decl = spell_decl(w, t, clang_getCString(name));
    clang_disposeString(name);
    CXCursor init = initializer(d);
    char *init_s = clang_Cursor_isNull(init) ? xstrdup("") : gen(w, init);
    char *s;
    if (!file_scope && *init_s && contains_pts(w, t) && clang_Cursor_getStorageClass(d) == CX_SC_Static) {
        /* a static in a function: set once, the first time through (the
         * address is the same whenever that is) */
        CXString n = clang_getCursorSpelling(d);
        const char *v = clang_getCString(n);
        size_t at = start_of(d);
        s = xasprintf("static %s; static int %s__mupc_set_%zu; if (!%s__mupc_set_%zu) { __typeof__(%s) "
                      "__mupc_v = %s; __builtin_memcpy(&%s, &__mupc_v, sizeof %s); %s__mupc_set_%zu = 1; }",
                      decl, v, at, v, at, v, init_s, v, v, v, at);
        clang_disposeString(n);
    } else if (file_scope && *init_s && contains_pts(w, t)) {
        /* `shared int *p = &a[1];`: an address constant in UPC, a run-time
         * value here (the array's base is known at start-up), so each
         * thread sets its copy before main, as shared initializers run;
         * a const one is written then, so it is not const in C */
        CXString n = clang_getCursorSpelling(d);
        const char *v = clang_getCString(n);
        if (clang_isConstQualifiedType(t)) {
            free(decl);
            decl = spell_decl(w, clang_getUnqualifiedType(t), v);
        }
        s = xasprintf("%s%s; static void %s__mupc_pinit(void) { __typeof__(%s) __mupc_v = %s; "
                      "__builtin_memcpy(&%s, &__mupc_v, sizeof %s); } __attribute__((constructor)) "
                      "static void %s__mupc_pinit_register(void) { mupc_static_init(%s__mupc_pinit); }",
                      storage(d), decl, v, v, init_s, v, v, v, v);
        clang_disposeString(n);
    } else {
        s = xasprintf("%s%s%s%s;", storage(d), decl, *init_s ? " = " : "", init_s);
    }
    free(decl);
    free(init_s);
    return s;
}

/* A function's parameters and result of pointer-to-shared type. */
static void function_signature(rewriter_t *w, CXCursor f)
{
    kids_t ks = children(f, 0);
    for (int i = 0; i < ks.n; i++) {
        if (clang_getCursorKind(ks.v[i]) != CXCursor_ParmDecl)
            continue;
        CXType t = clang_getCursorType(ks.v[i]);
        if (!contains_pts(w, t))
            continue;
        CXString name = clang_getCursorSpelling(ks.v[i]);
        size_t s, e;
        extent(ks.v[i], &s, &e);
        edits_add(&w->edits, s, e, spell_decl(w, t, clang_getCString(name)));
        clang_disposeString(name);
    }
    free(ks.v);
    CXType result = clang_getCursorResultType(f);
    if (contains_pts(w, result)) {
        /* the text from the declaration's start to its name */
        size_t s, e;
        extent(f, &s, &e);
        CXSourceLocation loc = clang_getCursorLocation(f);
        size_t name_at = offset_of(loc);
        edits_add(&w->edits, s, name_at, xasprintf("%s%s ", storage(f), spell(w, result)));
    }
}

static void record_fields(rewriter_t *w, CXCursor r)
{
    kids_t ks = children(r, 0);
    for (int i = 0; i < ks.n; i++) {
        enum CXCursorKind k = clang_getCursorKind(ks.v[i]);
        if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl) {
            /* `struct { int b; } in;`: the translation names its type in
             * offsetof; a C11 anonymous member must stay unnamed */
            if (is_tag_definition(ks.v[i]) && !clang_Cursor_isAnonymousRecordDecl(ks.v[i]))
                name_unnamed_tag(w, ks.v[i]);
            record_fields(w, ks.v[i]);
        }
        if (k != CXCursor_FieldDecl)
            continue;
        CXType t = clang_getCursorType(ks.v[i]);
        if (is_shared(w, t) && !is_pts(w, t)) {
            report(w, start_of(ks.v[i]), "a structure member cannot be shared-qualified "
                   "(UPC 1.3 §6.5.1.1); make the whole structure shared");
            continue;
        }
        if (!contains_pts(w, t))
            continue;
        CXString name = clang_getCursorSpelling(ks.v[i]);
        size_t s, e;
        extent(ks.v[i], &s, &e);
        edits_add(&w->edits, s, e, spell_decl(w, t, clang_getCString(name)));
        clang_disposeString(name);
    }
    free(ks.v);
}

static void typedef_decl(rewriter_t *w, CXCursor d, CXCursor before)
{
    CXType u = clang_getTypedefDeclUnderlyingType(d);
    if (!contains_pts(w, u))
        return; /* `typedef shared int x;` keeps its text; the qualifier is removed on output */
    CXString name = clang_getCursorSpelling(d);
    size_t s, e;
    extent(d, &s, &e);
    /* typedef shared struct node { ... } *node_p; keeps struct node */
    size_t from = clang_Cursor_isNull(before) ? s : keep_tag_definition(w, before, s, e);
    char *decl = spell_decl(w, u, clang_getCString(name));
    edits_add(&w->edits, from, e, xasprintf("%stypedef %s", from != s ? "; " : "", decl));
    free(decl);
    clang_disposeString(name);
}

/* File-scope variables that share one declaration (`shared int a, *p;`):
 * the run starting at index i; returns the index after it. */
static int variables(rewriter_t *w, kids_t *top, int i)
{
    size_t s, e, s2, e2;
    extent(top->v[i], &s, &e);
    int j = i + 1;
    while (j < top->n && clang_getCursorKind(top->v[j]) == CXCursor_VarDecl &&
           (extent(top->v[j], &s2, &e2), s2 == s))
        e = e2 > e ? e2 : e, j++;
    int rewrite = 0;
    for (int k = i; k < j; k++) {
        CXType t = clang_getCursorType(top->v[k]);
        rewrite |= is_shared(w, t) || contains_pts(w, t);
    }
    if (!rewrite) { /* private: its array sizes and initializer may still name shared objects */
        for (int k = i; k < j; k++) {
            kids_t ks = children(top->v[k], 1);
            for (int x = 0; x < ks.n; x++)
                queue_expr(w, ks.v[x], 0);
            free(ks.v);
        }
        return j;
    }
    strbuf_t out;
    sb_init(&out);
    size_t from = i > 0 ? keep_tag_definition(w, top->v[i - 1], s, e) : s;
    if (from != s)
        sb_puts(&out, "; ");
    for (int k = i; k < j; k++) {
        char *d = declaration_text(w, top->v[k], 1);
        sb_puts(&out, d);
        sb_puts(&out, " ");
        free(d);
    }
    edits_add(&w->edits, from, past_semicolon(w, e), sb_take(&out));
    return j;
}

/* GASP_C_FUNC around a user function's body: start at its '{', end from
 * a cleanup when the body is left (by return too). */
static void function_events(rewriter_t *w, CXCursor f, CXCursor body)
{
    CXString name = clang_getCursorSpelling(f);
    size_t at = start_of(body) + 1;
    edits_add(&w->edits, at, at,
              xasprintf(" __attribute__((cleanup(__mupc_func_leave))) struct __mupc_site __mupc_fn = "
                        "__mupc_func_enter((struct __mupc_site){\"%s\", __FILE__, __LINE__});",
                        clang_getCString(name)));
    clang_disposeString(name);
}

/* Reaching the } that ends main returns 0 (C99 §5.1.2.2.3), but the
 * runtime calls the program's main under another name, which would lose
 * that: say it explicitly. */
static void main_returns_zero(rewriter_t *w, CXCursor f, CXCursor body)
{
    CXString name = clang_getCursorSpelling(f);
    int is_main = !strcmp(clang_getCString(name), "main") &&
                  canon(clang_getResultType(clang_getCursorType(f))).kind == CXType_Int;
    clang_disposeString(name);
    size_t s, e;
    extent(body, &s, &e);
    if (is_main && e > s && w->text[e - 1] == '}')
        edits_add(&w->edits, e - 1, e - 1, xstrdup(" return 0; "));
}

/* The block sizes, evaluated by clang: main.c appends an enum constant
 * __mupc_block_K = (B) for every numbered layout K. */
static void check_block_sizes(rewriter_t *w, CXCursor e)
{
    kids_t ks = children(e, 0);
    for (int i = 0; i < ks.n; i++) {
        CXString name = clang_getCursorSpelling(ks.v[i]);
        unsigned k;
        if (sscanf(clang_getCString(name), "__mupc_block_%u", &k) == 1 && prelex_layout(w->prelex, k)) {
            long long v = clang_getEnumConstantDeclValue(ks.v[i]);
            const layout_t *l = prelex_layout(w->prelex, k);
            if (v < 0 || (unsigned long long)v > UPC_MAX_BLOCK)
                report(w, l->offset, "block size %s = %lld is outside 0..UPC_MAX_BLOCK_SIZE (%llu) "
                       "(UPC 1.3 §6.5.1.1)", l->block, v, UPC_MAX_BLOCK);
        }
        clang_disposeString(name);
    }
    free(ks.v);
}

/* A [*] layout that no array declaration sized: it was written on a pointer. */
static void check_star_layouts(rewriter_t *w)
{
    for (size_t i = 0; i < w->prelex->nlayouts; i++) {
        const layout_t *l = &w->prelex->layouts[i];
        if (l->kind == BLOCK_STAR && !*l->block)
            report(w, l->offset, "'shared [*]' applies only to the declaration of an array, not to "
                   "a pointer or other type (UPC 1.3 §6.5.1.1)");
    }
}

int rewrite_translation_unit(rewriter_t *w)
{
    kids_t top = children(clang_getTranslationUnitCursor(w->tu), 0);
    find_definitions(w, &top);
    for (int i = 0; i < top.n;) {
        CXCursor c = top.v[i];
        if (!translated(w, c)) {
            i++;
            continue;
        }
        switch (clang_getCursorKind(c)) {
        case CXCursor_VarDecl:
            i = variables(w, &top, i);
            continue;
        case CXCursor_FunctionDecl: {
            w->function_start = start_of(c);
            function_signature(w, c);
            kids_t ks = children(c, 0);
            for (int k = 0; k < ks.n; k++)
                if (clang_getCursorKind(ks.v[k]) == CXCursor_CompoundStmt) {
                    if (w->gasp)
                        function_events(w, c, ks.v[k]);
                    walk(w, ks.v[k]);
                    main_returns_zero(w, c, ks.v[k]);
                }
            free(ks.v);
            break;
        }
        case CXCursor_TypedefDecl:
            typedef_decl(w, c, i > 0 ? top.v[i - 1] : clang_getNullCursor());
            break;
        case CXCursor_StructDecl:
        case CXCursor_UnionDecl:
            if (is_tag_definition(c) && i + 1 < top.n &&
                clang_getCursorKind(top.v[i + 1]) == CXCursor_TypedefDecl &&
                is_shared(w, clang_getTypedefDeclUnderlyingType(top.v[i + 1])))
                name_unnamed_tag(w, c); /* typedef shared struct { ... } T; */
            record_fields(w, c);
            break;
        case CXCursor_EnumDecl:
            walk(w, c); /* the constants' values */
            check_block_sizes(w, c);
            break;
        default:
            break;
        }
        i++;
    }
    free(top.v);
    check_star_layouts(w);
    return w->errors;
}
