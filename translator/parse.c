/* SPDX-License-Identifier: MIT */
/* parse.c -- steps 1 to 3 of mupc-translate (see main.c): clang -E with the
 * prelude, the prelexer's checks, libclang's parse with casts for
 * conversions from shared void * and a second parse, its diagnostics. */
#define _GNU_SOURCE /* memmem */
#include "translate.h"
#include "macros.h"
#include "prelex.h"
#include "regions.h"
#include "rewrite.h"
#include "text.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- 1. preprocessing ---- */

static char *run_capture(char **argv, size_t *len)
{
    int fd[2];
    if (pipe(fd) != 0) {
        perror("mupc-translate: pipe");
        exit(1);
    }
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        close(fd[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "mupc-translate: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    strbuf_t out;
    sb_init(&out);
    char buf[65536];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) > 0)
        sb_add(&out, buf, (size_t)n);
    close(fd[0]);
    int status;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        exit(1); /* clang said why, file:line first */
    *len = out.len;
    return sb_take(&out);
}

/* The headers of the C compiler's own directories that clang's lack
 * (gcc's <omp.h>, <quadmath.h>), as links in one temporary directory,
 * searched last: a header both have stays clang's (whose #include_next
 * would otherwise reach gcc's copy).  Removed at exit. */
static char *links_dir;

static void remove_links(void)
{
    DIR *d = links_dir ? opendir(links_dir) : NULL;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.') {
            char *path = xasprintf("%s/%s", links_dir, e->d_name);
            unlink(path);
            free(path);
        }
    if (d)
        closedir(d);
    if (links_dir)
        rmdir(links_dir);
}

static void link_backend_headers(options_t *o)
{
    if (!o->nbackend)
        return;
    const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    links_dir = xasprintf("%s/mupc-cc-include.XXXXXX", tmp);
    if (!mkdtemp(links_dir)) {
        fprintf(stderr, "mupc-translate: cannot make a directory in %s: %s\n", tmp, strerror(errno));
        exit(1);
    }
    atexit(remove_links);
    for (int i = 0; i < o->nbackend; i++) {
        DIR *d = opendir(o->backend[i]);
        for (struct dirent *e; d && (e = readdir(d));) {
            char *ours = xasprintf("%s/%s", o->resource_include, e->d_name);
            char *from = xasprintf("%s/%s", o->backend[i], e->d_name);
            char *to = xasprintf("%s/%s", links_dir, e->d_name);
            if (e->d_name[0] != '.' && access(ours, F_OK) != 0)
                (void)symlink(from, to); /* the first directory's wins */
            free(ours);
            free(from);
            free(to);
        }
        if (d)
            closedir(d);
    }
    o->backend_links = links_dir;
}

int backend_header(const options_t *o, const regions_t *r, size_t offset)
{
    const region_t *g = regions_at(r, offset);
    size_t n = o->backend_links ? strlen(o->backend_links) : 0;
    return g && n && !strncmp(g->file, o->backend_links, n) && g->file[n] == '/';
}

char *preprocess(options_t *o, size_t *len)
{
    char *marked_stddef = xasprintf("%s/stddef.h", o->resource_include);
    if (access(marked_stddef, R_OK) != 0) {
        fprintf(stderr, "mupc-translate: no marked copy of clang's headers in %s (make writes it, "
                        "translator/clang-include in the build tree; give --resource-include DIR)\n",
                o->resource_include);
        exit(1);
    }
    free(marked_stddef);
    if (!o->backend_links)
        link_backend_headers(o);
    char **argv = xmalloc((size_t)(o->ncpp + 40 + 2 * strlen(MUPC_MPI_INCLUDE_DIRS)) * sizeof *argv);
    int n = 0;
    char *threads = o->static_threads ? xasprintf("-D__MUPC_STATIC_THREADS=%d", o->static_threads) : NULL;
    char *prelude_h = xasprintf("%s/mupc_xlate.h", o->prelude);
    char *bupc_h = xasprintf("%s/bupc_extensions.h", o->prelude);
    argv[n++] = (char *)o->clang;
    argv[n++] = "-E";
    argv[n++] = "-dD"; /* the program's feature macros: see prelex.c, feature_macro() */
    argv[n++] = "-x";
    argv[n++] = "c";
    argv[n++] = "-std=gnu17";
    /* clang's headers deprecate some macros (ATOMIC_VAR_INIT) where the C
     * compiler's may not; the invocation reaches the C compiler, which
     * warns as its own header says (clang before 14 has no such warning) */
    argv[n++] = "-Wno-unknown-warning-option";
    argv[n++] = "-Wno-deprecated-pragma";
    /* clang's resource headers, marked (macros.h), in their place */
    argv[n++] = "-nobuiltininc";
    /* what the C compiler's flags define (-fopenmp: _OPENMP), as mupcc
     * asked the C compiler; a -std flag may redefine __STDC_VERSION__ */
    argv[n++] = "-Wno-builtin-macro-redefined";
    if (o->cc_macros) {
        argv[n++] = "-imacros";
        argv[n++] = (char *)o->cc_macros;
    }
    /* the program's own -I directories first, as a C compiler searches
     * them: a program's header named like a library header (a reference
     * implementation's upc_collective.h) is the program's */
    for (int i = 0; i < o->ncpp; i++)
        if (!strncmp(o->cpp[i], "-I", 2)) {
            argv[n++] = (char *)o->cpp[i];
            if (!o->cpp[i][2])
                argv[n++] = (char *)o->cpp[++i];
        }
    argv[n++] = "-I";
    argv[n++] = (char *)o->prelude;
    argv[n++] = "-idirafter";
    argv[n++] = (char *)o->runtime_include;
    char *mpi_dirs = xstrdup(MUPC_MPI_INCLUDE_DIRS);
    for (char *save = NULL, *d = strtok_r(mpi_dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        argv[n++] = "-idirafter";
        argv[n++] = d;
    }
    if (threads)
        argv[n++] = threads;
    argv[n++] = "-include";
    argv[n++] = prelude_h;
    if (o->implicit_bupc) {
        argv[n++] = "-include";
        argv[n++] = bupc_h;
    }
    for (int i = 0; i < o->ncpp; i++) {
        if (!strncmp(o->cpp[i], "-I", 2)) { /* given above */
            i += !o->cpp[i][2];
            continue;
        }
        argv[n++] = (char *)o->cpp[i];
    }
    argv[n++] = "-isystem"; /* after the program's own -isystem, as a compiler's */
    argv[n++] = (char *)o->resource_include;
    if (o->backend_links) {
        argv[n++] = "-idirafter";
        argv[n++] = (char *)o->backend_links;
    }
    argv[n++] = (char *)o->input;
    argv[n] = NULL;
    char *text = run_capture(argv, len);
    free(argv);
    free(mpi_dirs);
    free(threads);
    free(prelude_h);
    free(bupc_h);
    return text;
}

/* Every numbered layout's block size, for clang to evaluate (checked in
 * rewrite_decl.c against UPC_MAX_BLOCK_SIZE); valid C, so it stays. */
void append_block_sizes(prelex_t *p, char **text)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, *text);
    for (size_t i = 1; i < p->nlayouts; i++) {
        const layout_t *l = &p->layouts[i];
        if (l->kind != BLOCK_NUMBER)
            continue;
        sb_printf(&b, "enum { __mupc_block_%zu = (", LAYOUT_BASE + i);
        /* a upc_*sizeof in the block size: its mark, at its place here */
        p->sizeofs = xrealloc(p->sizeofs, (p->nsizeofs + l->nblock_sizeofs + 1) * sizeof *p->sizeofs);
        for (size_t k = 0; k < l->nblock_sizeofs; k++)
            p->sizeofs[p->nsizeofs++] = (marked_t){b.len + l->block_sizeofs[k].offset, l->block_sizeofs[k].value};
        sb_printf(&b, "%s) };", l->block_c ? l->block_c : l->block);
    }
    free(*text);
    *text = sb_take(&b);
}

/* clang's words for UPC constraint violations it finds first. */
static const char *upc_words(const char *msg)
{
    static const struct { const char *clang, *upc; } map[] = {
        {"arithmetic on a pointer to void is a GNU extension",
         "arithmetic on a pointer to void, an incomplete type: C needs a pointer to a complete "
         "object type (C99 §6.5.6, UPC 1.3 §6.4.2; UPC compilers refuse GNU C's extension); convert "
         "it to a pointer to the data's type (char * for bytes) first"},
        {"invalid application of 'sizeof' to a void type",
         "sizeof applied to void, an incomplete type with no size (C99 §6.5.3.4; UPC compilers refuse "
         "GNU C's extension)"},
        {"invalid application of '__alignof' to a void type",
         "_Alignof applied to void, which has no alignment (C11 §6.5.3.4)"},
        {"variable length array declaration not allowed at file scope",
         "a private array whose size is not a constant at file scope: THREADS is not a constant in "
         "the dynamic THREADS environment, and only a shared array may have it in a dimension (UPC "
         "1.3 §6.5.2.1); compile with -T N, or allocate the array at run time"},
        {"automatic variable qualified with an address space",
         "a shared automatic variable: shared objects must have static storage duration; declare it "
         "at file scope or static (UPC 1.3 §6.5.1.1)"},
        {"field may not be qualified with an address space",
         "a structure member cannot be shared-qualified; make the whole structure shared (UPC 1.3 "
         "§6.5.1.1)"},
        {"parameter may not be qualified with an address space",
         "a function parameter cannot be shared-qualified; pass a pointer-to-shared"},
        {"multiple address spaces specified for type",
         "two different layouts on one type (a block size, or strict and relaxed, given twice, "
         "perhaps through a typedef or __typeof__): a shared type has one block size and one "
         "strictness (UPC 1.3 §6.5.1.1); give them once"},
        {"function type may not be qualified with an address space",
         "a function cannot return a shared-qualified type; return a pointer-to-shared"},
        {"return type cannot be qualified with address space",
         "a function cannot return a shared-qualified type; return a pointer-to-shared"},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strstr(msg, map[i].clang))
            return map[i].upc;
    return msg;
}

/* ---- 3. parsing, with casts for conversions from shared void * ---- */

CXTranslationUnit parse(CXIndex index, const char *name, const char *text, size_t len)
{
    struct CXUnsavedFile file = {name, text, (unsigned long)len};
    /* no error limit: each implicit conversion from shared void * is an
     * error clang reports and diagnose() turns into a cast, so a file with
     * twenty of them would otherwise stop clang before the rest */
    const char *args[] = {"-x", "c", "-std=gnu17", "-Wno-everything", "-ferror-limit=0",
                          /* seen by uses_undeclared, left to the C compiler otherwise */
                          "-Wimplicit-function-declaration", "-Wno-error=implicit-function-declaration",
                          /* sizeof(void) and arithmetic on void *: GNU C's, not C's nor UPC's */
                          "-Werror=pointer-arith"};
    CXTranslationUnit tu = NULL;
    if (clang_parseTranslationUnit2(index, name, args, sizeof args / sizeof *args, &file, 1,
                                    CXTranslationUnit_None, &tu) !=
        CXError_Success) {
        fprintf(stderr, "mupc-translate: libclang could not parse the translation of %s\n", name);
        exit(1);
    }
    return tu;
}

/* Berkeley UPC declares its bupc_ extensions in <upc.h>.  libmupc keeps
 * them behind <bupc_extensions.h>, so that a program's own fallback
 * definitions of those names stand, and translates again with the header
 * for a program that uses one it never declared.  Its <upc.h> also brings
 * assert: a program that calls it undeclared gets <assert.h> in the output
 * (*assert_used; the parse takes it as a function and needs nothing). */
int uses_undeclared(CXTranslationUnit tu, int *assert_used)
{
    static const char *const forms[] = {"undeclared identifier '", "unknown type name '",
                                        "undeclared function '", "implicit declaration of function '"};
    int found = 0;
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        CXString msg_s = clang_getDiagnosticSpelling(d);
        const char *msg = clang_getCString(msg_s);
        for (size_t f = 0; f < sizeof forms / sizeof *forms && !found; f++) {
            const char *at = strstr(msg, forms[f]);
            at = at ? at + strlen(forms[f]) : NULL;
            found |= at && (!strncmp(at, "bupc_", 5) || !strncmp(at, "BUPC_", 5));
            if (at && f >= 2 && !strncmp(at, "assert'", 7))
                *assert_used = 1; /* Berkeley UPC's headers bring <assert.h> */
        }
        clang_disposeString(msg_s);
        clang_disposeDiagnostic(d);
    }
    return found;
}

/* The i-th (0 or 1) type quoted in a diagnostic, each `'T'` or `'T'
 * (aka 'C')`: as written (a typedef name) or, canonical, what it stands
 * for; NULL when there is none. */
static char *quoted_type(const char *msg, int i, int canonical)
{
    const char *q = msg;
    for (int k = 0;; k++) {
        const char *open = strchr(q, '\''), *close = open ? strchr(open + 1, '\'') : NULL;
        if (!close)
            return NULL;
        const char *from = open + 1, *to = close;
        q = close + 1;
        if (!strncmp(q, " (aka '", 7)) { /* the canonical type follows */
            const char *aka_close = strchr(q + 7, '\'');
            if (!aka_close)
                return NULL;
            if (canonical)
                from = q + 7, to = aka_close;
            q = aka_close + 1;
        }
        if (k == i)
            return xstrndup(from, (size_t)(to - from));
    }
}

/* Which quoted type is the destination: clang 19 writes "initializing
 * 'DEST' with an expression of type 'SRC'", and "assigning / passing /
 * returning / converting 'SRC' to ... 'DEST'". */
static int destination_index(const char *msg) { return strncmp(msg, "initializing", 12) != 0; }

/* The destination type of an address-space diagnostic, as written (a
 * typedef name), with clang's `typeof_unqual(T)` spelled back as the
 * prelexer's `__typeof_unqual__(T)` (gnu17 knows only that spelling). */
static char *destination_type(const char *msg)
{
    char *t = quoted_type(msg, destination_index(msg), 0);
    strbuf_t b;
    sb_init(&b);
    for (const char *p = t, *u; p && *p; p = u + 13) {
        if (!(u = strstr(p, "typeof_unqual(")) || (u > t && (isalnum((unsigned char)u[-1]) || u[-1] == '_'))) {
            if (!u) {
                sb_puts(&b, p);
                break;
            }
            sb_add(&b, p, (size_t)(u - p) + 13); /* part of another word */
            continue;
        }
        sb_add(&b, p, (size_t)(u - p));
        sb_puts(&b, "__typeof_unqual__");
    }
    free(t);
    return b.len ? sb_take(&b) : NULL;
}

/* The address space of the i-th quoted type, or 0. */
static unsigned quoted_space(const char *msg, int i)
{
    char *t = quoted_type(msg, i, 1);
    const char *a = t ? strstr(t, "address_space(") : NULL;
    unsigned k = a ? (unsigned)strtoul(a + 14, NULL, 10) : 0;
    free(t);
    return k;
}

/* Whether the i-th quoted type points to shared void
 * (`__attribute__((address_space(K))) void *`, maybe const or volatile,
 * which clang writes first, and maybe itself qualified). */
static int quoted_void_pointer(const char *msg, int i)
{
    char *t = quoted_type(msg, i, 1);
    const char *q = t ? t : "";
    int shared = 0, is_void;
    for (;;) {
        const char *close;
        if (!strncmp(q, "const ", 6))
            q += 6;
        else if (!strncmp(q, "volatile ", 9))
            q += 9;
        else if (!strncmp(q, "__attribute__((address_space(", 29) && (close = strstr(q, "))) ")))
            q = close + 4, shared = 1;
        else
            break;
    }
    is_void = shared && !strncmp(q, "void *", 6);
    free(t);
    return is_void;
}

/* A conversion clang reported between two of our address spaces that
 * changes the block size: pointers-to-shared with different block sizes
 * point to incompatible types, and C's constraints on assignment want a
 * cast (UPC 1.3 §6.4.3, C99 §6.5.16.1); refused, as Berkeley UPC refuses
 * it.  Conversions to or from shared void * are implicit in UPC; block
 * sizes that are not plain numbers are not compared.  Returns 1 when it
 * reported the error. */
/* The address of a structure member, `&s[i].m` or `&p->m`: UPC 1.3
 * §6.4.4 types it `shared [] T *`, clang with the structure's block size. */
static int member_address(const char *src)
{
    while (*src == '(' || isspace((unsigned char)*src))
        src++;
    return *src == '&' && (strchr(src, '.') || strstr(src, "->"));
}

static int refuse_block_change(const prelex_t *p, const char *msg, const char *src, const char *file,
                               int line, int column)
{
    int dest = destination_index(msg);
    const layout_t *a = prelex_layout(p, quoted_space(msg, !dest)), /* from */
                   *b = prelex_layout(p, quoted_space(msg, dest));  /* to */
    if (!a || !b || quoted_void_pointer(msg, 0) || quoted_void_pointer(msg, 1) || b->kind == BLOCK_STAR)
        return 0;
    if (a->kind == BLOCK_STAR) { /* its size is set by its array's declaration, later */
        fprintf(stderr, "%s:%d:%d: warning: implicit conversion from a pointer into a 'shared [*]' "
                "array to a pointer-to-shared of block size %s: unless the array's block size is the "
                "same, the pointed-to types are incompatible (UPC 1.3 §6.4.3); write a cast if it is "
                "meant\n", file, line, column, b->kind == BLOCK_INDEFINITE ? "[] (indefinite)" : b->block);
        return 0;
    }
    if (b->kind == BLOCK_INDEFINITE) {
        /* to shared [] T *: allowed, as Berkeley UPC allows it, with a
         * warning, but for a member's address (typed so by UPC) */
        if (a->kind != BLOCK_INDEFINITE && !member_address(src))
            fprintf(stderr, "%s:%d:%d: warning: implicit conversion from a pointer-to-shared of block "
                    "size %s to an indefinite block size (shared []): the pointed-to types are "
                    "incompatible (UPC 1.3 §6.4.3); write a cast if it is meant (the result has "
                    "phase 0)\n", file, line, column, a->kind == BLOCK_NUMBER ? a->block : "[*]");
        return 0;
    }
    char *end_a, *end_b;
    long long na = a->kind == BLOCK_INDEFINITE ? 0 : strtoll(a->block, &end_a, 0);
    long long nb = b->kind == BLOCK_INDEFINITE ? 0 : strtoll(b->block, &end_b, 0);
    if ((a->kind == BLOCK_NUMBER && *end_a) || (b->kind == BLOCK_NUMBER && *end_b) || na == nb)
        return 0;
    fprintf(stderr, "%s:%d:%d: error: implicit conversion from a pointer-to-shared of block "
            "size %lld to block size %lld: the pointed-to types are incompatible (UPC 1.3 §6.4.3); "
            "write a cast if it is meant (the result has phase 0), or convert through "
            "shared void *\n", file, line, column, na, nb);
    return 1;
}

static size_t location_offset(CXSourceLocation loc)
{
    CXFile f;
    unsigned line, col, off;
    clang_getFileLocation(loc, &f, &line, &col, &off);
    return off;
}

static void shift_marks(marked_t *v, size_t n, size_t at, ptrdiff_t by)
{
    for (size_t i = 0; i < n; i++)
        if (v[i].offset >= at)
            v[i].offset = (size_t)((ptrdiff_t)v[i].offset + by);
}

/* Apply fix to *text; every mark at or after an insertion, or after a
 * replacement (array parameters), moves by the change in length.  The
 * fix's edits begin and end with punctuation (`(T)(`, `)`, `(*`), so
 * edits_apply() adds no space between tokens that would move a mark
 * further (an edit that began or ended with a word would need it counted). */
void apply_fix(edits_t *fix, char **text, size_t *len, prelex_t *p)
{
    char *fixed = edits_apply(fix, *text, *len); /* sorts fix by offset */
    /* from the last edit back, so each compares original offsets */
    for (size_t i = fix->n; i-- > 0;) {
        size_t at = fix->v[i].end;
        ptrdiff_t by = (ptrdiff_t)strlen(fix->v[i].text) - (ptrdiff_t)(fix->v[i].end - fix->v[i].start);
        shift_marks(p->sizeofs, p->nsizeofs, at, by);
        shift_marks(p->pragmas, p->npragmas, at, by);
        if (p->macro_uses)
            macro_args_shift(p->macro_uses, at, by);
        for (size_t k = 0; k < p->nlayouts; k++)
            if (p->layouts[k].offset >= at)
                p->layouts[k].offset = (size_t)((ptrdiff_t)p->layouts[k].offset + by);
    }
    free(*text);
    *text = fixed;
    *len = strlen(fixed);
}

/* `void f(shared int a[])`: C adjusts an array parameter to a pointer
 * (C99 §6.7.5.3), here a pointer-to-shared, but clang objects to the
 * address space on the array before adjusting it.  If the parameter named
 * at `at` is an array, write it as that pointer, `(*a)` (`(*a)[N]` for
 * `a[][N]`), and return 1; a shared scalar parameter stays an error. */
static int array_parameter(const char *text, size_t len, size_t at, edits_t *fix)
{
    size_t p = at;
    while (p < len && (isalnum((unsigned char)text[p]) || text[p] == '_'))
        p++;
    size_t name_end = p;
    while (p < len && (text[p] == ' ' || text[p] == '\t'))
        p++;
    if (name_end == at || p >= len || text[p] != '[')
        return 0;
    size_t close = p;
    while (close < len && text[close] != ']')
        close++;
    if (close >= len)
        return 0;
    edits_add(fix, at, at, xstrdup("(*"));
    edits_add(fix, name_end, close + 1, xstrdup(")"));
    return 1;
}

/* A diagnostic at offset `at` inside the enums append_block_sizes wrote
 * after the program: the layout whose block size it is about, or NULL. */
static const layout_t *appended_block_size(const prelex_t *p, const char *text, size_t at)
{
    static const char head[] = "enum { __mupc_block_";
    for (size_t i = at; i-- > 0 && text[i] != '}' && text[i] != ';';)
        if (!strncmp(text + i, head, sizeof head - 1))
            return prelex_layout(p, (unsigned)strtoul(text + i + sizeof head - 1, NULL, 10));
    return NULL;
}

/* clang's error about a block size: reported where the layout qualifier
 * was written, not at the enum that asked clang to evaluate it. */
static void block_size_error(const layout_t *l, const char *msg, const regions_t *r, const char *text)
{
    const char *file = "<translation>";
    int line = 0, column = 0;
    regions_where(r, text, l->offset, &file, &line, &column);
    fprintf(stderr, "%s:%d:%d: error: the block size in 'shared [%s]' is not an integer constant "
            "expression (%s); a layout qualifier's block size must be one (UPC 1.3 §6.5.1.1): write "
            "a constant, or a macro or enumeration constant that names one\n",
            file, line, column, l->block, msg);
}

/* Print clang's errors at the user's positions; insert the casts that
 * UPC's implicit conversions need into *text.  Returns the number of other
 * errors, and sets *casts to the number of casts inserted. */
int diagnose(const options_t *o, CXTranslationUnit tu, char **text, size_t *len, const regions_t *r,
             prelex_t *p, int *casts)
{
    int errors = 0;
    edits_t fix = {0};
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        CXString msg_s = clang_getDiagnosticSpelling(d);
        const char *msg = clang_getCString(msg_s);
        size_t at = location_offset(clang_getDiagnosticLocation(d));
        if (backend_header(o, r, at)) {
            clang_disposeString(msg_s);
            clang_disposeDiagnostic(d);
            continue;
        }
        char *dest = strstr(msg, "changes address space of pointer") ? destination_type(msg) : NULL;
        if (strstr(msg, "parameter may not be qualified with an address space") &&
            array_parameter(*text, *len, at, &fix)) {
            clang_disposeString(msg_s);
            clang_disposeDiagnostic(d);
            continue;
        }
        if (dest && getenv("MUPC_XLATE_DEBUG"))
            fprintf(stderr, "mupc-translate: cast to '%s' at offset %zu: %s\n", dest, at, msg);
        if (dest && clang_getDiagnosticNumRanges(d) > 0) {
            const char *file = "<translation>";
            int line = 0, column = 0;
            regions_where(r, *text, at, &file, &line, &column);
            CXSourceRange range = clang_getDiagnosticRange(d, clang_getDiagnosticNumRanges(d) - 1);
            size_t s = location_offset(clang_getRangeStart(range)), e = location_offset(clang_getRangeEnd(range));
            char *src = xstrndup(*text + s, e > s ? e - s : 0);
            errors += refuse_block_change(p, msg, src, file, line, column);
            free(src);
            char *canonical = quoted_type(msg, destination_index(msg), 1);
            int to_local = canonical && !strstr(canonical, "address_space(");
            free(canonical);
            if (to_local)
                fprintf(stderr, "%s:%d:%d: warning: implicit conversion from a pointer-to-shared to "
                        "a local pointer; write a cast, (T *)p, which is valid only when the data has "
                        "affinity to this thread or a castable one (UPC 1.3 §6.4.3)\n",
                        file, line, column);
            edits_add(&fix, s, s, xasprintf("(%s)(", dest));
            edits_add(&fix, e, e, xstrdup(")"));
            free(dest);
        } else if (sev >= CXDiagnostic_Error && strstr(msg, " parameter of 'main'")) {
            /* C99 §5.1.2.2.1 leaves other forms of main to the
             * implementation; gcc warns, and so do we */
            const char *file = "<translation>";
            int line = 0, column = 0;
            regions_where(r, *text, at, &file, &line, &column);
            fprintf(stderr, "%s:%d:%d: warning: %s\n", file, line, column, msg);
        } else if (sev >= CXDiagnostic_Error && appended_block_size(p, *text, at)) {
            block_size_error(appended_block_size(p, *text, at), msg, r, *text);
            errors++;
        } else if (dest || sev >= CXDiagnostic_Error) {
            const char *file = "<translation>";
            int line = 0, column = 0;
            regions_where(r, *text, at, &file, &line, &column);
            fprintf(stderr, "%s:%d:%d: error: %s\n", file, line, column, upc_words(msg));
            errors++;
            free(dest);
        }
        clang_disposeString(msg_s);
        clang_disposeDiagnostic(d);
    }
    *casts = (int)fix.n / 2;
    if (fix.n && !errors)
        apply_fix(&fix, text, len, p);
    edits_free(&fix);
    return errors;
}
