/* SPDX-License-Identifier: MIT */
/* rewrite_types.c -- type questions: is a type shared or a pointer-to-shared, its layout
 * (block size, strictness), its leaf type, spelling a type as C text.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ================================================================ */
/* Types                                                             */
/* ================================================================ */

CXType canon(CXType t) { return clang_getCanonicalType(t); }

int is_array(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return k == CXType_ConstantArray || k == CXType_IncompleteArray || k == CXType_VariableArray;
}

/* The element type of array type t, also when t names the array through a
 * typedef (`typedef int S[10]; shared [3] S T[...]`), keeping the
 * element's own spelling where t spells it. */
CXType element_type(CXType t)
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

int is_shared(rewriter_t *w, CXType t) { return layout_space(w, t) != 0; }

int is_pts(rewriter_t *w, CXType t)
{
    t = canon(t);
    return t.kind == CXType_Pointer && is_shared(w, clang_getPointeeType(t));
}

int contains_pts(rewriter_t *w, CXType t)
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

layout_t *layout_of(rewriter_t *w, CXType t)
{
    return (layout_t *)prelex_layout(w->prelex, layout_space(w, t));
}

/* The innermost element type of an array type (t itself otherwise). */
CXType leaf_type(CXType t)
{
    while (is_array(t))
        t = element_type(t);
    return t;
}

/* Whether t has a variable-length dimension (THREADS in a type name's
 * dimension, in the dynamic THREADS environment). */
int contains_vla(CXType t)
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

char *spell_decl(rewriter_t *w, CXType t, const char *inner)
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
    const char *spelled = clang_getCString(name);
    /* the prelexer's `__typeof_unqual__(T)` (a typedef given another
     * strictness, prelex_scan.c): in the output T has no address space,
     * and the C compiler may not know typeof_unqual */
    int unqual = !strncmp(spelled, "typeof_unqual(", 14);
    char *s = xasprintf("%s%s%s%s%s%s", clang_isConstQualifiedType(t) ? "const " : "",
                        clang_isVolatileQualifiedType(t) ? "volatile " : "", unqual ? "__typeof__(" : "",
                        tag ? tag : spelled + (unqual ? 14 : 0), sep, inner);
    free(tag);
    clang_disposeString(name);
    return s;
}

/* A type as a C type name that also declares when a name follows it: a
 * pointer to a function or to an array is written `int (*)(int)`, where
 * `T __mupc_v1;` would not declare, so it is wrapped as
 * `__typeof__(int (*)(int))`. */
char *spell(rewriter_t *w, CXType t)
{
    char *s = spell_decl(w, t, "");
    if (!strpbrk(s, "(["))
        return s;
    char *wrapped = xasprintf("__typeof__(%s)", s);
    free(s);
    return wrapped;
}

/* mupc_get_<suffix> / mupc_put_<suffix> for a scalar type, NULL otherwise. */
const char *access_suffix(rewriter_t *w, CXType t)
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

int strict_of(rewriter_t *w, CXType t, size_t offset)
{
    const layout_t *l = layout_of(w, t);
    if (l && l->access != ACCESS_DEFAULT)
        return l->access == ACCESS_STRICT;
    return prelex_strict_at(w->prelex, offset);
}

/* A block size written with UPC in it (`shared [sizeof(shared void *)]`):
 * the C of the enum constant __mupc_block_K that main.c appended for
 * clang (its expression translated like any other), or NULL. */
static char *translated_block(rewriter_t *w, const layout_t *l)
{
    char *want = xasprintf("__mupc_block_%u", LAYOUT_BASE + (unsigned)(l - w->prelex->layouts));
    char *text = NULL;
    kids_t top = children(clang_getTranslationUnitCursor(w->tu), 0);
    for (int i = top.n; i-- > 0 && !text;) { /* appended last */
        if (clang_getCursorKind(top.v[i]) != CXCursor_EnumDecl)
            continue;
        kids_t ks = children(top.v[i], 0);
        for (int k = 0; k < ks.n && !text; k++) {
            CXString name = clang_getCursorSpelling(ks.v[k]);
            if (!strcmp(clang_getCString(name), want)) {
                kids_t init = children(ks.v[k], 1);
                if (init.n)
                    text = gen(w, init.v[0]);
                free(init.v);
            }
            clang_disposeString(name);
        }
        free(ks.v);
    }
    free(top.v);
    free(want);
    return text;
}

/* The block size of a shared type, as C text (elements; 0 = indefinite). */
char *block_text(rewriter_t *w, CXType t, size_t offset)
{
    const layout_t *l = layout_of(w, t);
    if (!l)
        return xstrdup("1");
    char *c = l->block_c && l->kind == BLOCK_NUMBER ? translated_block(w, l) : NULL;
    if (c) {
        char *s = xasprintf("(%s)", c);
        free(c);
        return s;
    }
    if (l->kind == BLOCK_INDEFINITE)
        return xstrdup("0");
    if (l->kind == BLOCK_STAR && !*l->block) {
        report(w, offset, "'shared [*]' here has no block size yet: use it in the declaration "
                          "of an array with THREADS in a dimension");
        return xstrdup("1");
    }
    return xasprintf("(%s)", l->block);
}

int next_temp(rewriter_t *w) { return ++w->temps; }
