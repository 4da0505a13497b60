/* SPDX-License-Identifier: MIT */
/* rewrite_stmt.c -- statements: the edit per top-level expression, declaration
 * statements, upc_forall and the walk over a function body.
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Statements                                                        */
/* ================================================================ */

void queue_expr(rewriter_t *w, CXCursor c, int as_truth)
{
    size_t s, e;
    extent(c, &s, &e);
    char *g = as_truth ? truth(w, c) : gen(w, c);
    if (strlen(g) != e - s || memcmp(g, w->text + s, e - s))
        edits_add(&w->edits, s, e, g);
    else
        free(g);
}


/* The offset just past the ';' that ends a statement or declaration
 * whose extent ends at end (clang's extents stop before it). */
size_t past_semicolon(rewriter_t *w, size_t end)
{
    size_t p = end;
    for (;;) {
        for (;;) { /* white space, and the comments of macros.c */
            while (p < w->len && (w->text[p] == ' ' || w->text[p] == '\t' || w->text[p] == '\n'))
                p++;
            const char *close = p + 1 < w->len && w->text[p] == '/' && w->text[p + 1] == '*'
                                    ? strstr(w->text + p + 2, "*/") : NULL;
            if (!close)
                break;
            p = (size_t)(close - w->text) + 2;
        }
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

int is_tag_definition(CXCursor c)
{
    enum CXCursorKind k = clang_getCursorKind(c);
    return (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl) &&
           clang_isCursorDefinition(c);
}

/* An unnamed struct, union or enum definition gets a name, which the
 * translation uses wherever it must spell the type (see tag_name): clang
 * does not always keep the typedef that names it on a shared object. */
void name_unnamed_tag(rewriter_t *w, CXCursor tag)
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
size_t keep_tag_definition(rewriter_t *w, CXCursor tag, size_t s, size_t end)
{
    size_t ts, te;
    extent(tag, &ts, &te);
    if (!is_tag_definition(tag) || ts < s || te > end)
        return s;
    edits_add(&w->edits, s, ts, xstrdup(""));
    name_unnamed_tag(w, tag);
    return te;
}

/* A block-scope typedef declaration (`typedef shared int *sip;` in a
 * function), with the structures it defines. */
static int typedef_statement(rewriter_t *w, kids_t *ks)
{
    int typedefs = 0;
    for (int i = 0; i < ks->n; i++)
        typedefs |= clang_getCursorKind(ks->v[i]) == CXCursor_TypedefDecl;
    if (!typedefs)
        return 0;
    for (int i = 0; i < ks->n;) {
        enum CXCursorKind k = clang_getCursorKind(ks->v[i]);
        if (k == CXCursor_TypedefDecl) {
            int j = typedef_run(w, ks, i);
            for (; i < j; i++) /* one kept as written: its VLA bounds are expressions */
                if (!contains_pts(w, clang_getTypedefDeclUnderlyingType(ks->v[i])))
                    walk(w, ks->v[i]);
            continue;
        }
        if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl)
            record_fields(w, ks->v[i]);
        else
            walk(w, ks->v[i]); /* an enum's constants */
        i++;
    }
    return 1;
}

static void declaration_statement(rewriter_t *w, CXCursor c)
{
    kids_t ks = children(c, 0);
    if (typedef_statement(w, &ks)) {
        free(ks.v);
        return;
    }
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
char *affinity_test(rewriter_t *w, CXCursor call, int depth_var)
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
            s = xasprintf("!(__mupc_fa%d > 1 || (%s).thread == (uint32_t)mupc_mythread)", depth_var, g);
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
    int forall = forall_marker(w, body, &call);
    if (!forall) {
        hoist_loop(w, c);      /* before the header: its reads may be hoisted too */
        version_loop(w, c, ks); /* its local copy, if any, inside the hoisting's block */
    }
    for (int i = 0; i < ks.n - 1; i++) {
        size_t at = start_of(ks.v[i]);
        if (clang_isExpression(clang_getCursorKind(ks.v[i])))
            queue_expr(w, ks.v[i], at > semi[0] && at < semi[1]); /* the condition: a truth value */
        else
            walk(w, ks.v[i]);
    }
    if (!forall) {
        walk(w, body);
        free(ks.v);
        return;
    }
    /* a canonical loop runs its owned iterations only (rewrite_forall.c) */
    if (forall_owned_iterations(w, c, ks, body, call)) {
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
void walk(rewriter_t *w, CXCursor c)
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
    if (k == CXCursor_WhileStmt || k == CXCursor_DoStmt)
        hoist_loop(w, c);
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
