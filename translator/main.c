/* SPDX-License-Identifier: MIT */
/* main.c -- mupc-translate: UPC source to C that calls <mupc.h>.
 *
 *   mupc-translate [--prelude DIR] [--runtime-include DIR] [--clang PATH]
 *                  [-T N] [-D..] [-U..] [-I..] [-include F] -o OUT.c FILE.upc
 *
 * The pipeline (see prelex.h, regions.h, rewrite.h):
 *   1. clang -E with the translation-time prelude first on the include path;
 *   2. the prelexer turns UPC syntax into C with layouts in address spaces;
 *   3. libclang parses it (conversions from `shared void *`, legal in UPC but
 *      not in C across address spaces, get explicit casts and a second parse);
 *   4. the rewriter turns shared accesses and declarations into runtime calls;
 *   5. the output includes the runtime's headers, re-includes every system
 *      header the user included (never its expansion) and keeps the user's
 *      file and line with #line.
 * Errors are compiler-style, `file:line:col: error: ...`, exit status 1. */
#define _GNU_SOURCE /* memmem */
#include "prelex.h"
#include "regions.h"
#include "rewrite.h"
#include "text.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef MUPC_CLANG
#define MUPC_CLANG "clang"
#endif
#ifndef MUPC_PRELUDE_DIR
#define MUPC_PRELUDE_DIR "/usr/local/share/libmupc/prelude"
#endif
#ifndef MUPC_RUNTIME_INCLUDE_DIR
#define MUPC_RUNTIME_INCLUDE_DIR "/usr/local/include"
#endif
/* mpicc's include directories (configure), colon-separated: a UPC source
 * may include <mpi.h>, and the output is compiled by mpicc, which finds it */
#ifndef MUPC_MPI_INCLUDE_DIRS
#define MUPC_MPI_INCLUDE_DIRS ""
#endif

typedef struct options {
    const char *prelude, *runtime_include, *clang, *output, *input;
    int static_threads;
    int gasp; /* --gasp: the compiler's GASP events (mupcc --profile*) */
    int implicit_bupc;   /* the program uses bupc_ names it did not declare */
    int implicit_assert; /* ... or assert without <assert.h> */
    const char **cpp; /* preprocessor arguments, in order */
    int ncpp;
} options_t;

static void usage(void)
{
    fprintf(stderr, "usage: mupc-translate [--prelude DIR] [--runtime-include DIR] [--clang PATH] "
                    "[--gasp] [-T N] [-DNAME[=V]] [-UNAME] [-IDIR] [-include FILE] -o OUT.c FILE.upc\n");
    exit(2);
}

static void parse_options(int argc, char **argv, options_t *o)
{
    *o = (options_t){.prelude = getenv("MUPC_PRELUDE_DIR") ? getenv("MUPC_PRELUDE_DIR") : MUPC_PRELUDE_DIR,
                     .runtime_include = MUPC_RUNTIME_INCLUDE_DIR,
                     .clang = MUPC_CLANG};
    o->cpp = xmalloc((size_t)argc * 2 * sizeof *o->cpp);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--prelude") && more)
            o->prelude = argv[++i];
        else if (!strcmp(a, "--runtime-include") && more)
            o->runtime_include = argv[++i];
        else if (!strcmp(a, "--clang") && more)
            o->clang = argv[++i];
        else if (!strcmp(a, "--gasp"))
            o->gasp = 1;
        else if (!strcmp(a, "-o") && more)
            o->output = argv[++i];
        else if (!strcmp(a, "-T") && more) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 1000000) {
                fprintf(stderr, "mupc-translate: -T %s: THREADS must be a positive integer\n", argv[i]);
                exit(2);
            }
            o->static_threads = (int)n;
        } else if ((!strncmp(a, "-D", 2) || !strncmp(a, "-U", 2) || !strncmp(a, "-I", 2)) && a[2])
            o->cpp[o->ncpp++] = a;
        else if ((!strcmp(a, "-D") || !strcmp(a, "-U") || !strcmp(a, "-I") || !strcmp(a, "-include")) && more) {
            o->cpp[o->ncpp++] = a;
            o->cpp[o->ncpp++] = argv[++i];
        } else if (a[0] != '-' && !o->input)
            o->input = a;
        else
            usage();
    }
    if (!o->input || !o->output)
        usage();
}

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

static char *preprocess(const options_t *o, size_t *len)
{
    char **argv = xmalloc((size_t)(o->ncpp + 24 + 2 * strlen(MUPC_MPI_INCLUDE_DIRS)) * sizeof *argv);
    int n = 0;
    char *threads = o->static_threads ? xasprintf("-D__MUPC_STATIC_THREADS=%d", o->static_threads) : NULL;
    char *prelude_h = xasprintf("%s/mupc_xlate.h", o->prelude);
    char *bupc_h = xasprintf("%s/bupc_extensions.h", o->prelude);
    argv[n++] = (char *)o->clang;
    argv[n++] = "-E";
    argv[n++] = "-x";
    argv[n++] = "c";
    argv[n++] = "-std=gnu17";
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
 * rewrite.c against UPC_MAX_BLOCK_SIZE); valid C, so it stays. */
static void append_block_sizes(const prelex_t *p, char **text)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, *text);
    for (size_t i = 1; i < p->nlayouts; i++)
        if (p->layouts[i].kind == BLOCK_NUMBER)
            sb_printf(&b, "enum { __mupc_block_%zu = (%s) };", LAYOUT_BASE + i, p->layouts[i].block);
    free(*text);
    *text = sb_take(&b);
}

/* clang's words for UPC constraint violations it finds first. */
static const char *upc_words(const char *msg)
{
    static const struct { const char *clang, *upc; } map[] = {
        {"automatic variable qualified with an address space",
         "a shared automatic variable: shared objects must have static storage duration; declare it "
         "at file scope or static (UPC 1.3 §6.5.1.1)"},
        {"field may not be qualified with an address space",
         "a structure member cannot be shared-qualified; make the whole structure shared (UPC 1.3 "
         "§6.5.1.1)"},
        {"parameter may not be qualified with an address space",
         "a function parameter cannot be shared-qualified; pass a pointer-to-shared"},
        {"multiple address spaces specified for type",
         "two layout qualifiers on one type (a block size given twice, perhaps through a typedef): a "
         "shared type has one block size (UPC 1.3 §6.5.1.1)"},
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

static CXTranslationUnit parse(CXIndex index, const char *name, const char *text, size_t len)
{
    struct CXUnsavedFile file = {name, text, (unsigned long)len};
    /* no error limit: each implicit conversion from shared void * is an
     * error clang reports and diagnose() turns into a cast, so a file with
     * twenty of them would otherwise stop clang before the rest */
    const char *args[] = {"-x", "c", "-std=gnu17", "-Wno-everything", "-ferror-limit=0",
                          /* seen by uses_undeclared, left to the C compiler otherwise */
                          "-Wimplicit-function-declaration", "-Wno-error=implicit-function-declaration"};
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
static int uses_undeclared(CXTranslationUnit tu, int *assert_used)
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

/* The destination type quoted in an address-space diagnostic. */
static char *destination_type(const char *msg)
{
    const char *q1 = strchr(msg, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
    const char *q3 = q2 ? strchr(q2 + 1, '\'') : NULL, *q4 = q3 ? strchr(q3 + 1, '\'') : NULL;
    if (!q4)
        return NULL;
    /* clang 19: "initializing 'DEST' with an expression of type 'SRC'";
     * "assigning / passing / returning / converting 'SRC' to ... 'DEST'" */
    int dest_first = !strncmp(msg, "initializing", 12);
    return dest_first ? xstrndup(q1 + 1, (size_t)(q2 - q1 - 1)) : xstrndup(q3 + 1, (size_t)(q4 - q3 - 1));
}

/* The address space named in the i-th (0 or 1) quoted type of msg, or 0. */
static unsigned quoted_space(const char *msg, int i)
{
    const char *q = msg;
    for (int k = 0; k <= 2 * i; k++)
        if (!(q = strchr(q, '\'')) || !*++q)
            return 0;
    const char *end = strchr(q, '\''), *a = strstr(q, "address_space(");
    return a && end && a < end ? (unsigned)strtoul(a + 14, NULL, 10) : 0;
}

/* A conversion clang reported between two of our address spaces that
 * changes the block size: pointers-to-shared with different block sizes
 * point to incompatible types, and C's constraints on assignment want a
 * cast (UPC 1.3 §6.4.3, C99 §6.5.16.1); refused, as Berkeley UPC refuses
 * it.  Conversions to or from shared void * are implicit in UPC; block
 * sizes that are not plain numbers are not compared.  Returns 1 when it
 * reported the error. */
static int refuse_block_change(const prelex_t *p, const char *msg, const char *file, int line, int column)
{
    int dest_first = !strncmp(msg, "initializing", 12); /* see destination_type */
    const layout_t *a = prelex_layout(p, quoted_space(msg, dest_first)),
                   *b = prelex_layout(p, quoted_space(msg, !dest_first));
    /* to shared [] T *: also how &s[i].member must be typed (UPC 1.3 §6.4.4),
     * which clang types with the structure's block size */
    if (!a || !b || strstr(msg, " void *'") || a->kind == BLOCK_STAR || b->kind == BLOCK_STAR ||
        b->kind == BLOCK_INDEFINITE)
        return 0;
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
 * replacement (array parameters), moves by the change in length. */
static void apply_fix(edits_t *fix, char **text, size_t *len, prelex_t *p)
{
    char *fixed = edits_apply(fix, *text, *len); /* sorts fix by offset */
    /* from the last edit back, so each compares original offsets */
    for (size_t i = fix->n; i-- > 0;) {
        size_t at = fix->v[i].end;
        ptrdiff_t by = (ptrdiff_t)strlen(fix->v[i].text) - (ptrdiff_t)(fix->v[i].end - fix->v[i].start);
        shift_marks(p->sizeofs, p->nsizeofs, at, by);
        shift_marks(p->pragmas, p->npragmas, at, by);
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

/* Print clang's errors at the user's positions; insert the casts that
 * UPC's implicit conversions need into *text.  Returns the number of other
 * errors, and sets *casts to the number of casts inserted. */
static int diagnose(CXTranslationUnit tu, char **text, size_t *len, const regions_t *r, prelex_t *p,
                    int *casts)
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
            errors += refuse_block_change(p, msg, file, line, column);
            if (!strstr(dest, "address_space(") && strstr(msg, "address_space("))
                fprintf(stderr, "%s:%d:%d: warning: implicit conversion from a pointer-to-shared to "
                        "a local pointer; write a cast, (T *)p, which is valid only when the data has "
                        "affinity to this thread or a castable one (UPC 1.3 §6.4.3)\n",
                        file, line, column);
            CXSourceRange range = clang_getDiagnosticRange(d, clang_getDiagnosticNumRanges(d) - 1);
            size_t s = location_offset(clang_getRangeStart(range)), e = location_offset(clang_getRangeEnd(range));
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

/* ---- 5. output ---- */

static const char prologue[] =
    "/* the runtime's C layer: UPC's library names over mupc.h */\n#define MUPC_TRANSLATED_UPC 1\n#include <mupc_upc.h>\n#include <upc_types.h>\n#include <stddef.h>\n#include <stdio.h>\n"
    "/* THREADS, MYTHREAD and the inline-access window are set once by the\n"
    " * runtime before main and never change: read-only views of the same\n"
    " * symbols let the compiler keep them in registers across the runtime's\n"
    " * calls (a loop with a remote path would reload them every iteration) */\n"
    "extern const int __mupc_ro_threads __asm__(\"mupc_threads\");\n"
    "extern const int __mupc_ro_mythread __asm__(\"mupc_mythread\");\n"
    "extern char *const __mupc_ro_local_base __asm__(\"mupc_local_base\");\n"
    "extern const uint64_t __mupc_ro_local_low __asm__(\"mupc_local_low\");\n"
    "extern const uint64_t __mupc_ro_local_span __asm__(\"mupc_local_span\");\n"
    "extern const uint32_t __mupc_ro_local_thread __asm__(\"mupc_local_thread\");\n"
    "extern const uint64_t __mupc_ro_threads_magic __asm__(\"mupc_threads_magic\");\n"
    "#define mupc_threads __mupc_ro_threads\n"
    "#define mupc_mythread __mupc_ro_mythread\n"
    "#define mupc_local_base __mupc_ro_local_base\n"
    "#define mupc_local_low __mupc_ro_local_low\n"
    "#define mupc_local_span __mupc_ro_local_span\n"
    "#define mupc_local_thread __mupc_ro_local_thread\n"
    "#define mupc_threads_magic __mupc_ro_threads_magic\n"
    "/* upc_forall nesting: an inner upc_forall runs every iteration (UPC 1.3 §6.6.2) */\n"
    "__attribute__((weak)) int mupc_xlate_forall_depth;\n"
    "static inline int __mupc_forall_enter(void) { return ++mupc_xlate_forall_depth; }\n"
    "static inline void __mupc_forall_leave(int *depth) { (void)depth; --mupc_xlate_forall_depth; }\n"
    "static inline int __mupc_affinity(long long i)\n"
    "{ long long t = mupc_threads; return (int)(((i % t) + t) % t) == mupc_mythread; }\n"
    "/* a relaxed access that may be a plain load or store (mupc.h) */\n"
    "/* GASP_UPC_FORALL and GASP_C_FUNC (mupc-translate --gasp): the end event\n"
    " * from a cleanup, so a return or break out of the statement raises it too */\n"
    "struct __mupc_site { const char *name, *file; int line; };\n"
    "static inline struct __mupc_site __mupc_func_enter(struct __mupc_site s)\n"
    "{ mupc_func_start(s.name, s.file, s.line); return s; }\n"
    "static inline void __mupc_func_leave(struct __mupc_site *s) { mupc_func_end(s->name, s->file, s->line); }\n"
    "static inline struct __mupc_site __mupc_forall_gasp_enter(struct __mupc_site s)\n"
    "{ mupc_forall_start(s.file, s.line); return s; }\n"
    "static inline void __mupc_forall_gasp_leave(struct __mupc_site *s) { mupc_forall_end(s->file, s->line); }\n"
    "static inline __attribute__((always_inline)) int __mupc_local(mupc_ptr_t p, size_t n)\n"
    "{ return __builtin_expect(p.thread == mupc_local_thread &&\n"
    "                          p.addr - mupc_local_low <= mupc_local_span - n, 1); }\n"
    "/* element i of a shared array whose element 0 is base (thread 0, phase 0):\n"
    " * mupc_ptr_index inline, dividing by THREADS with a multiplication (exact\n"
    " * below 2^32 blocks; beyond, off by at most one, and such an element lies\n"
    " * outside every segment, which the runtime's range check reports) */\n"
    "static inline __attribute__((always_inline)) size_t __mupc_div_threads(size_t n)\n"
    "{ return mupc_threads == 1 ? n : (size_t)(((unsigned __int128)n * mupc_threads_magic) >> 64); }\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_index(mupc_ptr_t base, ptrdiff_t i, size_t elem, size_t block)\n"
    "{ if (i < 0) return mupc_ptr_add(base, i, elem, block);\n"
    "  if (!block) { base.addr += (size_t)i * elem; return base; }\n"
    "  size_t blk = (size_t)i / block, phase = (size_t)i % block, row = __mupc_div_threads(blk);\n"
    "  base.thread = (uint32_t)(blk - row * (size_t)mupc_threads);\n"
    "  base.addr += (row * block + phase) * elem; base.phase = (uint32_t)phase; return base; }\n"
    "/* element X * THREADS + MYTHREAD of a cyclic array: this thread's X-th */\n"
    "static inline __attribute__((always_inline)) mupc_ptr_t\n"
    "__mupc_index_own(mupc_ptr_t base, ptrdiff_t x, size_t elem)\n"
    "{ if (x < 0) return mupc_ptr_add(base, x * mupc_threads + mupc_mythread, elem, 1);\n"
    "  base.addr += (size_t)x * elem; base.thread = (uint32_t)mupc_mythread; base.phase = 0; return base; }\n"
    "/* a pointer-to-shared converted to an integer: its thread above bit 40,\n"
    " * its byte offset in that thread's segment below (page-aligned, so the\n"
    " * low bits keep the address's alignment); null gives 0; the phase is not\n"
    " * part of it, as it is not part of pointer equality */\n"
    "static inline uint64_t __mupc_ptr_bits(mupc_ptr_t p)\n"
    "{ return ((uint64_t)p.thread << 40) | p.addr; }\n"
    "static inline mupc_ptr_t __mupc_member(mupc_ptr_t p, size_t offset)\n"
    "{ p.addr += offset; p.phase = 0; return p; }\n";

/* Remove the address-space attributes the prelexer wrote (what is left of
 * them qualifies types whose objects were rewritten, e.g. typedefs). */
static void strip_spaces(strbuf_t *out, const char *s, size_t n)
{
    static const char attr[] = " __attribute__((address_space(";
    for (size_t i = 0; i < n;) {
        if (n - i >= sizeof attr - 1 && !memcmp(s + i, attr, sizeof attr - 1)) {
            const char *close = strstr(s + i, "))) ");
            if (close && (size_t)(close - s) < n) {
                i = (size_t)(close - s) + 4;
                continue;
            }
        }
        sb_add(out, s + i, 1);
        i++;
    }
}

/* How the output names a system header the user included: by its name in
 * the system include directories (<stdio.h>, <sys/types.h>), so that the
 * C compiler finds its own copy (clang's built-in headers are not gcc's);
 * by its path when it lies elsewhere. */
static char *system_include(const char *path)
{
    const char *name = NULL, *p;
    char *mpi_dirs = xstrdup(MUPC_MPI_INCLUDE_DIRS);
    for (char *save = NULL, *d = strtok_r(mpi_dirs, ":", &save); d && !name; d = strtok_r(NULL, ":", &save))
        if (!strncmp(path, d, strlen(d)) && path[strlen(d)] == '/')
            name = path + strlen(d) + 1; /* <mpi.h>, found again by mpicc */
    free(mpi_dirs);
    if (name)
        ;
    else if ((p = strstr(path, "/lib/clang/")) && (p = strstr(p, "/include/")))
        name = p + 9;
    else if (!strncmp(path, "/usr/local/include/", 19))
        name = path + 19;
    else if (!strncmp(path, "/usr/include/", 13)) {
        name = path + 13;
        const char *slash = strchr(name, '/');
        if (slash && memmem(name, (size_t)(slash - name), "-linux-", 7))
            name = slash + 1; /* the multiarch directory */
    }
    return name ? xasprintf("<%s>", name) : xasprintf("\"%s\"", path);
}

/* The UPC library headers: the prologue includes the runtime's, as the
 * prelude declares them all at translation time (programs written for
 * Berkeley UPC use upc_handle_t or upc_all_broadcast with <upc.h> alone),
 * except one the program has a header of its own for (a reference
 * implementation of the collectives defines upc_all_broadcast in its own
 * upc_collective.h, which the runtime's would make a macro). */
static const char *const upc_libraries[] = {
    "upc_collective.h", "upc_nb.h", "upc_atomic.h", "upc_castable.h", "upc_io.h", "upc_tick.h",
};

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void include_upc_libraries(strbuf_t *out, const regions_t *r)
{
    for (size_t i = 0; i < sizeof upc_libraries / sizeof *upc_libraries; i++) {
        int own = 0;
        for (size_t j = 0; j < r->n && !own; j++)
            own = r->v[j].kind == REGION_USER && !strcmp(base_name(r->v[j].file), upc_libraries[i]);
        if (!own)
            sb_printf(out, "#include <%s>\n", upc_libraries[i]);
    }
}

/* The prelude headers whose real counterparts the prologue leaves out:
 * the output includes them where the program does, so that a program
 * that does not include them keeps their names to itself. */
static const char *const prelude_libraries[] = {"bupc_extensions.h", "bupc_collectivev.h"};

static const char *prelude_library(const char *path)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    for (size_t i = 0; i < sizeof prelude_libraries / sizeof *prelude_libraries; i++)
        if (!strcmp(name, prelude_libraries[i]))
            return name;
    return NULL;
}

static char *assemble(const char *text, const regions_t *r, const options_t *o)
{
    strbuf_t out;
    sb_init(&out);
    sb_printf(&out, "/* Translated from %s by mupc-translate (libmupc); do not edit. */\n", o->input);
    sb_puts(&out, prologue);
    include_upc_libraries(&out, r);
    if (o->implicit_bupc)
        sb_puts(&out, "#include <bupc_extensions.h>\n");
    if (o->implicit_assert)
        sb_puts(&out, "#include <assert.h>\n");
    if (o->static_threads) /* the runtime refuses a job of another size */
        sb_printf(&out, "__attribute__((constructor)) static void __mupc_static_threads(void)\n"
                        "{ mupc_static_threads(%d, \"%s\"); }\n",
                  o->static_threads, o->input);
    int hybrid = 0;
    for (size_t i = 0; i < r->n; i++) {
        const region_t *g = &r->v[i];
        if (g->system_entry) {
            char *inc = system_include(g->file);
            sb_printf(&out, "#include %s\n", inc);
            /* the program calls MPI (runtime/hybrid.c), however it names mpi.h */
            const char *base = strrchr(g->file, '/');
            if (!strcmp(base ? base + 1 : g->file, "mpi.h") && !hybrid++)
                sb_puts(&out, "__attribute__((constructor)) static void __mupc_mpi_hybrid(void) "
                              "{ mupc_mpi_hybrid(); }\n");
            free(inc);
        }
        if (g->prelude_entry && prelude_library(g->file))
            sb_printf(&out, "#include <%s>\n", prelude_library(g->file));
        if (!g->translated || g->end <= g->start)
            continue;
        sb_printf(&out, "#line %d \"%s\"\n", g->line, g->file);
        strip_spaces(&out, text + g->start, g->end - g->start);
    }
    return sb_take(&out);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "mupc-translate: cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
}

static void prelex_report(const prelex_error_t *v, size_t n, const char *what, const regions_t *r,
                          const char *text)
{
    for (size_t i = 0; i < n; i++) {
        const char *file = "<translation>";
        int line = 0, column = 0;
        regions_where(r, text, v[i].offset, &file, &line, &column);
        fprintf(stderr, "%s:%d:%d: %s: %s\n", file, line, column, what, v[i].message);
    }
}

int main(int argc, char **argv)
{
    options_t o;
    parse_options(argc, argv, &o);
    size_t len;
again:;
    char *pp = preprocess(&o, &len);
    regions_t r;
    regions_build(&r, pp, len, o.prelude);
    prelex_t p;
    prelex_init(&p, o.static_threads);
    char *text = prelex_run(&p, pp, len, &r);
    prelex_report(p.warnings, p.nwarnings, "warning", &r, pp);
    if (p.nerrors) {
        prelex_report(p.errors, p.nerrors, "error", &r, pp);
        return 1;
    }
    regions_free(&r);
    free(pp);
    append_block_sizes(&p, &text);
    len = strlen(text);
    regions_build(&r, text, len, o.prelude);

    char *name = xasprintf("%s.mupc.c", o.input);
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    int type_operands_done = 0;
    for (int round = 0;; round++) {
        tu = parse(index, name, text, len);
        if (round == 0 && uses_undeclared(tu, &o.implicit_assert) && !o.implicit_bupc) {
            o.implicit_bupc = 1;
            clang_disposeTranslationUnit(tu);
            clang_disposeIndex(index);
            regions_free(&r);
            free(text);
            free(name);
            goto again;
        }
        int casts = 0;
        if (diagnose(tu, &text, &len, &r, &p, &casts))
            return 1;
        if (!casts && !type_operands_done) { /* once the conversions settle */
            type_operands_done = 1;
            rewriter_t probe = {tu, text, len, &r, &p, {0}, 0, 0, 0, o.gasp, NULL, 0, NULL, 0};
            if (rewrite_type_operands(&probe, &probe.edits))
                apply_fix(&probe.edits, &text, &len, &p), casts = 1;
            edits_free(&probe.edits);
        }
        if (!casts)
            break;
        clang_disposeTranslationUnit(tu);
        regions_free(&r);
        regions_build(&r, text, len, o.prelude);
        if (round == 4) {
            fprintf(stderr, "mupc-translate: %s: conversions between pointers-to-shared did not settle\n",
                    o.input);
            return 1;
        }
    }
    rewriter_t w = {tu, text, len, &r, &p, {0}, 0, 0, 0, o.gasp, NULL, 0, NULL, 0};
    if (rewrite_translation_unit(&w))
        return 1;
    char *rewritten = edits_apply(&w.edits, text, len);
    regions_free(&r);
    regions_build(&r, rewritten, strlen(rewritten), o.prelude);
    char *out = assemble(rewritten, &r, &o);
    write_file(o.output, out);
    if (getenv("MUPC_XLATE_KEEP")) /* for debugging the translator */
        write_file(name, text);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return 0;
}
