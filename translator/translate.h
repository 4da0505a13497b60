/* SPDX-License-Identifier: MIT */
/* translate.h -- what mupc-translate's driver (main.c), its front end
 * (parse.c: preprocessing, prelexing checks, parsing) and its output
 * (output.c) share: the options, the configured paths and the functions
 * one calls in another. */
#ifndef MUPC_XLATE_TRANSLATE_H
#define MUPC_XLATE_TRANSLATE_H

#include "prelex.h"
#include "regions.h"
#include "text.h"

#include <clang-c/Index.h>
#include <stddef.h>

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

/* parse.c */
char *preprocess(const options_t *o, size_t *len);
void append_block_sizes(prelex_t *p, char **text);
CXTranslationUnit parse(CXIndex index, const char *name, const char *text, size_t len);
int uses_undeclared(CXTranslationUnit tu, int *assert_used);
void apply_fix(edits_t *fix, char **text, size_t *len, prelex_t *p);
int diagnose(CXTranslationUnit tu, char **text, size_t *len, const regions_t *r, prelex_t *p,
             int *casts);

/* output.c */
/* macros: the #define / #undef lines the prelexer kept for the system
 * headers (prelex_t.feature_macros), written first */
char *assemble(const char *text, const regions_t *r, const options_t *o, const char *macros);

#endif
