/* SPDX-License-Identifier: MIT */
/* rewrite_sizeof.c -- sizeof, _Alignof and the upc_*sizeof operators, and the type-name
 * operands rewritten as expressions for a second parse.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
 * THREADS is; otherwise in the dynamic environment the bound is the size
 * for THREADS = 1 (a scalar: one block; an indefinite block size: all). */
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
    else if (strcmp(n, "1LL") != 0) /* no THREADS in a dimension, THREADS dynamic: the size with
                                      * THREADS = 1, the largest, so that the value is a constant as
                                      * UPC wants (a block size may be written with it; Berkeley's
                                      * bug2960) and an upper bound for every thread */
        s = xasprintf("((size_t)((%s + %s - 1) / %s) * %s * sizeof(%s))", n, block, block, block, leaf);
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

/* ---- sizes clang evaluates itself ---- */

typedef struct {
    rewriter_t *w;
    size_t at;  /* where to report */
    int depth;  /* enumeration constants followed */
    int found;
} pts_size_scan_t;

/* A record (or array of them) holding a pointer-to-shared, in a member or
 * a member's member: clang lays it out with 8-byte pointers, the compiled
 * program with 16. */
static int pts_record(rewriter_t *w, CXType t);

typedef struct {
    rewriter_t *w;
    int found;
} fields_t;

static enum CXVisitorResult pts_field(CXCursor field, CXClientData data)
{
    fields_t *f = data;
    CXType t = clang_getCursorType(field);
    f->found = contains_pts(f->w, t) || pts_record(f->w, t);
    return f->found ? CXVisit_Break : CXVisit_Continue;
}

static int pts_record(rewriter_t *w, CXType t)
{
    t = canon(t);
    while (is_array(t))
        t = canon(clang_getArrayElementType(t));
    if (t.kind != CXType_Record)
        return 0;
    fields_t f = {w, 0};
    clang_Type_visitFields(t, pts_field, &f);
    return f.found;
}

static enum CXChildVisitResult pts_size_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pts_size_scan_t *scan = data;
    if (scan->found)
        return CXChildVisit_Break;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (k == CXCursor_UnaryExpr) { /* an operand expression, or the TypeRef of a type name */
        kids_t ks = children(c, 0);
        for (int i = 0; i < ks.n && !scan->found; i++)
            if (pts_record(scan->w, clang_getCursorType(ks.v[i]))) {
                CXString t = clang_getTypeSpelling(clang_getCursorType(ks.v[i]));
                report(scan->w, scan->at,
                       "the size of '%s', which holds a pointer-to-shared, in a constant the translation "
                       "evaluates itself (a shared array's dimension or a block size): clang's layout "
                       "gives a pointer-to-shared 8 bytes there, the compiled program 16, so the object "
                       "would have two sizes; write the dimension without it (a number, or a multiple "
                       "of sizeof(shared void *) per pointer), or allocate the array at run time",
                       clang_getCString(t));
                clang_disposeString(t);
                scan->found = 1;
            }
        free(ks.v);
    } else if (k == CXCursor_DeclRefExpr && scan->depth < 8) { /* enum { N = sizeof(struct s) } */
        CXCursor d = clang_getCursorReferenced(c);
        if (clang_getCursorKind(d) == CXCursor_EnumConstantDecl) {
            scan->depth++;
            clang_visitChildren(d, pts_size_visit, scan);
            scan->depth--;
        }
    }
    return CXChildVisit_Recurse;
}

int refuse_pts_sizes(rewriter_t *w, CXCursor c, size_t at)
{
    pts_size_scan_t scan = {w, at, 0, 0};
    if (pts_size_visit(c, c, &scan) == CXChildVisit_Recurse)
        clang_visitChildren(c, pts_size_visit, &scan);
    return scan.found;
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

/* sizeof of a pointer-to-shared (a type name, wrapped above, or an
 * expression) is written `sizeof(__mupc_pts_size_t)`: the runtime's
 * 16-byte pointer-to-shared, which clang otherwise takes for an 8-byte
 * private pointer where it evaluates a constant (an array dimension
 * `[MAX(sizeof(T), sizeof(shared void *))]`, an enumeration constant).
 * The operand is not evaluated either way. */
static enum CXChildVisitResult pts_size_operand(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    type_operands_t *t = data;
    rewriter_t *w = t->w;
    size_t s, e, after, paren;
    if (clang_getCursorKind(c) != CXCursor_UnaryExpr || !translated(w, c) || prelex_sizeof_at(w->prelex, start_of(c)))
        return CXChildVisit_Recurse;
    extent(c, &s, &e);
    char *word = operator_word(w, s, &after);
    int size = !strcmp(word, "sizeof");
    free(word);
    kids_t ks = children(c, 1);
    int pts = size && ks.n == 1 && !has_type_operand(w, c, &paren) && is_pts(w, clang_getCursorType(ks.v[0]));
    free(ks.v);
    if (!pts)
        return CXChildVisit_Recurse;
    edits_add(t->fix, after, e, xstrdup("(__mupc_pts_size_t)"));
    t->n++;
    return CXChildVisit_Continue;
}

int rewrite_type_operands(rewriter_t *w, edits_t *fix)
{
    type_operands_t t = {w, fix, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(w->tu), wrap_type_operand, &t);
    if (!t.n)
        clang_visitChildren(clang_getTranslationUnitCursor(w->tu), pts_size_operand, &t);
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
        layout_t *l = layout_of(w, t);
        if (l && l->kind == BLOCK_STAR && !*l->block) { /* `shared [*] int [2*THREADS]`: the */
            free(l->block);                             /* elements per THREADS (§6.5.1.1) */
            l->block = leaf_count(t, 0);
        }
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
    layout_t *l = kind ? layout_of(w, t) : NULL;
    int threads = w->prelex->static_threads;
    if (l && l->kind == BLOCK_STAR && !*l->block && threads && is_array(t)) {
        /* `shared [*] int [78]` with -T N: the block size an array declared
         * with the type gets, ceil(78 / N) (UPC 1.3 §6.5.1.1) */
        char *n = leaf_count(t, 0);
        free(l->block);
        l->block = xasprintf("((%s + %d - 1) / %d)", n, threads, threads);
        free(n);
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

char *size_of(rewriter_t *w, CXCursor c)
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
