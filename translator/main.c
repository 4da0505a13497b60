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
 * Errors are compiler-style, `file:line:col: error: ...`, exit status 1.
 * This file has the options and main(); steps 1-3 are in parse.c, step 5
 * in output.c, and the three share translate.h. */
#define _GNU_SOURCE /* memmem */
#include "translate.h"
#include "macros.h"
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

static void usage(void)
{
    fprintf(stderr, "usage: mupc-translate [--prelude DIR] [--runtime-include DIR] [--resource-include DIR] "
                    "[--backend-include DIR]... [--cc-macros FILE] [--clang PATH] "
                    "[--gasp] [-T N] [-DNAME[=V]] [-UNAME] [-IDIR] [-include FILE] [-imacros FILE] "
                    "[-isystem DIR] [-iquote DIR] [-idirafter DIR] -o OUT.c FILE.upc\n");
    exit(2);
}

static void parse_options(int argc, char **argv, options_t *o)
{
    *o = (options_t){.prelude = getenv("MUPC_PRELUDE_DIR") ? getenv("MUPC_PRELUDE_DIR") : MUPC_PRELUDE_DIR,
                     .runtime_include = MUPC_RUNTIME_INCLUDE_DIR,
                     .resource_include = getenv("MUPC_RESOURCE_INCLUDE_DIR") ? getenv("MUPC_RESOURCE_INCLUDE_DIR")
                                                                             : MUPC_RESOURCE_INCLUDE_DIR,
                     .clang = MUPC_CLANG};
    o->cpp = xmalloc((size_t)argc * 2 * sizeof *o->cpp);
    o->backend = xmalloc((size_t)argc * sizeof *o->backend);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--prelude") && more)
            o->prelude = argv[++i];
        else if (!strcmp(a, "--runtime-include") && more)
            o->runtime_include = argv[++i];
        else if (!strcmp(a, "--resource-include") && more)
            o->resource_include = argv[++i];
        else if (!strcmp(a, "--backend-include") && more)
            o->backend[o->nbackend++] = argv[++i];
        else if (!strcmp(a, "--cc-macros") && more)
            o->cc_macros = argv[++i];
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
        else if ((!strcmp(a, "-D") || !strcmp(a, "-U") || !strcmp(a, "-I") || !strcmp(a, "-include") ||
                  !strcmp(a, "-imacros") || !strcmp(a, "-isystem") || !strcmp(a, "-iquote") ||
                  !strcmp(a, "-idirafter")) && more) {
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
    char *marked = preprocess(&o, &len);
    regions_t r;
    regions_build(&r, marked, len, o.prelude);
    macro_uses_t uses = {0};
    char *pp = macro_marks_take(marked, len, &r, &uses);
    free(marked);
    regions_free(&r);
    len = strlen(pp);
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
    macro_args_collect(&text, &uses);
    p.macro_uses = &uses;
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
            macro_uses_free(&uses);
            goto again;
        }
        int casts = 0;
        if (diagnose(&o, tu, &text, &len, &r, &p, &casts)) {
            if (getenv("MUPC_XLATE_KEEP"))
                write_file(name, text);
            return 1;
        }
        if (!casts && type_operands_done < 2) { /* once the conversions settle: type
                                                    * names wrapped, then pointer-to-shared sizes */
            type_operands_done++;
            rewriter_t probe = {tu, text, len, &r, &p, {0}, 0, 0, 0, o.gasp, NULL, 0, NULL, 0, NULL, NULL, NULL};
            if (rewrite_type_operands(&probe, &probe.edits))
                apply_fix(&probe.edits, &text, &len, &p), casts = 1;
            edits_free(&probe.edits);
        }
        if (!casts)
            break;
        clang_disposeTranslationUnit(tu);
        regions_free(&r);
        regions_build(&r, text, len, o.prelude);
        if (round == 6) {
            fprintf(stderr, "mupc-translate: %s: conversions between pointers-to-shared did not settle\n",
                    o.input);
            return 1;
        }
    }
    rewriter_t w = {tu, text, len, &r, &p, {0}, 0, 0, 0, o.gasp, NULL, 0, NULL, 0, NULL, NULL, NULL};
    if (rewrite_translation_unit(&w))
        return 1;
    char *rewritten = edits_apply(&w.edits, text, len);
    if (!getenv("MUPC_XLATE_MARKS")) /* for debugging the translator: keep the markers */
        rewritten = macro_marks_restore(rewritten, &uses);
    regions_free(&r);
    regions_build(&r, rewritten, strlen(rewritten), o.prelude);
    char *out = assemble(rewritten, &r, &o, p.feature_macros);
    write_file(o.output, out);
    if (getenv("MUPC_XLATE_KEEP")) /* for debugging the translator */
        write_file(name, text);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return 0;
}
