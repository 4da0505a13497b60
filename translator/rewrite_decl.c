/* SPDX-License-Identifier: MIT */
/* rewrite_decl.c -- declarations: shared objects and their initializers, typedefs,
 * records, function signatures, and rewrite_translation_unit().
 * Part of the rewriter (see rewrite.h); the parts call each other through
 * rewrite_internal.h. */
#include "rewrite_internal.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UPC_MAX_BLOCK 4194304ULL /* UPC_MAX_BLOCK_SIZE, as the prelude defines it */

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

/* The initializer of a shared array: its values in a private table of the
 * parsed shape (a THREADS dimension counted once, or as long as its
 * longest list; outermost, it takes as many rows as the list has), each
 * element written by the thread it has
 * affinity to, at its place in the run-time shape (that dimension times
 * THREADS); C lays out both row-major.  A list longer than the run-time
 * array (more THREADS assumed than the job has) is a run-time error. */
static char *array_initializer_text(rewriter_t *w, CXCursor d, const char *desc, const char *leaf,
                                    const char *block, const char *values)
{
    CXString name_s = clang_getCursorSpelling(d);
    const char *name = clang_getCString(name_s);
    int threads_dim = prelex_threads_dim(w->prelex, name);
    /* an inner THREADS dimension whose lists hold more values than one
     * THREADS' worth (`[4*THREADS] = {{1, 2, 3, 4, 5}}`): the table's
     * dimension is the longest list, and each value lands at its place
     * for the job's THREADS (one past the array stops the job) */
    long long listed = threads_dim > 0 ? longest_list(values, threads_dim + 1) : 0;
    strbuf_t dims = {0}, parsed = {0}, shape = {0};
    int rank = 0;
    for (CXType a = canon(clang_getCursorType(d)); is_array(a); a = canon(clang_getArrayElementType(a))) {
        long long n = clang_getArraySize(a) > 0 ? clang_getArraySize(a) : 1;
        long long table = rank == threads_dim && listed > n ? listed : n;
        if (rank == 0 && threads_dim == 0)
            sb_printf(&dims, "[]"), sb_printf(&parsed, "sizeof v / sizeof v[0]");
        else
            sb_printf(&dims, "[%lld]", table), sb_printf(&parsed, "%s%lld", rank ? ", " : "", table);
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

/* The number of elements of shared array d as C for the registration:
 * clang's count n, or, when a dimension's expression holds a UPC type or
 * a sizeof (`[MAX(sizeof(T), sizeof(shared void *))]`, `[sizeof(struct
 * s)]` with a pointer-to-shared member: clang takes such a pointer for a
 * private one), the product of the dimensions translated, for the C
 * compiler to evaluate.  The dimensions are d's expression children
 * written between brackets. */
static char *element_count(rewriter_t *w, CXCursor d, long long n, int in_function)
{
    kids_t ks = children(d, 1);
    int upc = 0;
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "(1LL");
    for (int i = 0; i < ks.n; i++) {
        size_t s, e;
        extent(ks.v[i], &s, &e);
        size_t before = s, after = e;
        while (before > 0 && isspace((unsigned char)w->text[before - 1]))
            before--;
        while (after < w->len && isspace((unsigned char)w->text[after]))
            after++;
        if (before == 0 || w->text[before - 1] != '[' || after >= w->len || w->text[after] != ']')
            continue; /* an initializer */
        char *dim = source(w, ks.v[i]);
        /* a UPC type, or any sizeof: a structure's size differs where it
         * holds a pointer-to-shared (clang counts 8 bytes for it) */
        upc |= strstr(dim, "address_space(") != NULL ||
               (!in_function && strstr(dim, "sizeof") != NULL); /* a function's typedefs are not */
                                                                 /* seen where its statics' are */
        free(dim);
        char *g = gen(w, ks.v[i]);
        sb_printf(&b, " * (long long)(%s)", g);
        free(g);
    }
    sb_puts(&b, ")");
    free(ks.v);
    char *text = sb_take(&b);
    if (upc)
        return text;
    free(text);
    return xasprintf("%lld", n);
}

/* A file-scope shared object: its descriptor and registration. */
char *shared_object_text(rewriter_t *w, CXCursor d)
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
        if (is_array(canon(t))) { /* its dimensions, not its initializer */
            kids_t dims = children(d, 1);
            for (int i = 0; i < dims.n; i++) {
                enum CXCursorKind k = clang_getCursorKind(dims.v[i]);
                if (k != CXCursor_InitListExpr && k != CXCursor_StringLiteral && refuse_pts_sizes(w, dims.v[i], at))
                    break;
            }
            free(dims.v);
        }
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
        int in_function = clang_getCursorKind(clang_getCursorSemanticParent(d)) == CXCursor_FunctionDecl;
        /* a static in a function has its descriptor at file scope, where
         * the function's own typedefs are not seen: its canonical type */
        char *leaf = spell(w, in_function ? canon(leaf_type(t)) : leaf_type(t));
        char *block = block_text(w, t, at);
        int is_static = clang_Cursor_getStorageClass(d) == CX_SC_Static || in_function;
        char *init = initializer_text(w, d, desc, leaf, block);
        char *call = *init ? xasprintf(" mupc_static_init(%s_init);", desc) : xstrdup("");
        /* a tentative definition (no initializer) in a header that several
         * translation units include is one object, in C's common-symbol
         * tradition: a weak descriptor, which an initialized definition
         * elsewhere overrides; each unit registers it (the runtime keeps one) */
        int tentative = !is_static && clang_Cursor_isNull(initializer(d));
        char *count = element_count(w, d, n, in_function);
        s = xasprintf("%s%smupc_static_t %s = {\"%s\", sizeof(%s), %s, %s, %d, {0, 0, 0}, 0}; %s"
                      "__attribute__((constructor)) static void %s_register(void) "
                      "{ mupc_static_register(&%s);%s }",
                      is_static ? "static " : "", tentative ? "__attribute__((weak)) " : "", desc, name,
                      leaf, block, count, per_thread, init, desc, desc, call);
        free(count);
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
char *declaration_text(rewriter_t *w, CXCursor d, int file_scope)
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
    if (!clang_Cursor_isNull(init))
        check_member_address(w, t, init);
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
    CXType returned = clang_getCursorResultType(f);
    if (is_shared(w, returned) && !is_pts(w, returned)) {
        CXString name = clang_getCursorSpelling(f);
        report(w, start_of(f), "function '%s' returns a shared-qualified type: a function's value is "
               "not an object and cannot be shared (UPC 1.3 §6.5.1.1); return the private type, or a "
               "pointer-to-shared", clang_getCString(name));
        clang_disposeString(name);
    }
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

/* The type a member or typedef declares. */
static CXType declared_type(CXCursor d)
{
    return clang_getCursorKind(d) == CXCursor_TypedefDecl ? clang_getTypedefDeclUnderlyingType(d)
                                                            : clang_getCursorType(d);
}

/* Declarations of one kind that share one declaration (`sip a, b;`,
 * `typedef shared int *A, *B;`: each extent starts at the type): the run
 * starting at index i of ks, [i, *j), its text [*s, *e); whether one of
 * them holds a pointer-to-shared. */
static int declaration_run(rewriter_t *w, kids_t *ks, int i, int *j, size_t *s, size_t *e)
{
    size_t s2, e2;
    extent(ks->v[i], s, e);
    enum CXCursorKind kind = clang_getCursorKind(ks->v[i]);
    int pts = contains_pts(w, declared_type(ks->v[i]));
    for (*j = i + 1; *j < ks->n && clang_getCursorKind(ks->v[*j]) == kind &&
                     (extent(ks->v[*j], &s2, &e2), s2 == *s);
         ++*j) {
        pts |= contains_pts(w, declared_type(ks->v[*j]));
        *e = e2 > *e ? e2 : *e;
    }
    return pts;
}

/* The run [i, j) written again as one declaration each, `prefix` before
 * each (`typedef `), joined by "; ". */
static void each_declared(rewriter_t *w, kids_t *ks, int i, int j, const char *prefix, strbuf_t *b)
{
    for (int k = i; k < j; k++) {
        CXString name = clang_getCursorSpelling(ks->v[k]);
        char *decl = spell_decl(w, declared_type(ks->v[k]), clang_getCString(name));
        sb_printf(b, "%s%s%s", k > i ? "; " : "", prefix, decl);
        free(decl);
        clang_disposeString(name);
    }
}

/* Members that share one declaration: the run starting at index i,
 * written again as one declaration each when one of them holds a
 * pointer-to-shared.  Returns the index after the run. */
static int field_run(rewriter_t *w, kids_t *ks, int i)
{
    int j;
    size_t s, e;
    if (!declaration_run(w, ks, i, &j, &s, &e))
        return j;
    strbuf_t b;
    sb_init(&b);
    each_declared(w, ks, i, j, "", &b);
    edits_add(&w->edits, s, e, sb_take(&b));
    return j;
}

void record_fields(rewriter_t *w, CXCursor r)
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
        if (is_shared(w, t) && !is_pts(w, t))
            report(w, start_of(ks.v[i]), "a structure member cannot be shared-qualified "
                   "(UPC 1.3 §6.5.1.1); make the whole structure shared");
        else
            i = field_run(w, &ks, i) - 1;
    }
    free(ks.v);
}

/* Typedefs that share one declaration (`typedef shared int *A, *B;`,
 * each extent from `typedef` on), at file or block scope: the run starting
 * at index i of ks, written again as one typedef each when one of them
 * holds a pointer-to-shared (`typedef shared int x;` keeps its text; the
 * qualifier is removed on output).  A structure defined in the
 * declaration (`typedef shared struct node { ... } *node_p;`) stays.
 * Returns the index after the run. */
int typedef_run(rewriter_t *w, kids_t *ks, int i)
{
    int j;
    size_t s, e;
    if (!declaration_run(w, ks, i, &j, &s, &e))
        return j;
    size_t from = i > 0 ? keep_tag_definition(w, ks->v[i - 1], s, e) : s;
    strbuf_t b;
    sb_init(&b);
    if (from != s)
        sb_puts(&b, "; ");
    each_declared(w, ks, i, j, "typedef ", &b);
    edits_add(&w->edits, from, e, sb_take(&b));
    return j;
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
            refuse_pts_sizes(w, ks.v[i], l->offset);
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
            i = typedef_run(w, &top, i);
            continue;
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
