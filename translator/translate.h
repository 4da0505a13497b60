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
/* clang's resource headers with their function-like macros marked
 * (mark_headers.c, macros.h), in place of clang's own */
#ifndef MUPC_RESOURCE_INCLUDE_DIR
#define MUPC_RESOURCE_INCLUDE_DIR "/usr/local/share/libmupc/clang-include"
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
    const char *resource_include; /* --resource-include: the marked headers */
    const char **backend;         /* --backend-include: the C compiler's own directories */
    int nbackend;
    const char *backend_links;    /* their headers clang lacks (omp.h), as links */
    const char *cc_macros;        /* --cc-macros: what the C compiler's flags define */
    int static_threads;
    int gasp; /* --gasp: the compiler's GASP events (mupcc --profile*) */
    int implicit_bupc;   /* the program uses bupc_ names it did not declare */
    int implicit_assert; /* ... or assert without <assert.h> */
    const char **cpp; /* preprocessor arguments, in order */
    int ncpp;
} options_t;

/* parse.c */
char *preprocess(options_t *o, size_t *len);
/* Whether offset of text lies in a header of the C compiler's own (an
 * error there is the C compiler's business: gcc's <omp.h> uses attributes
 * clang refuses). */
int backend_header(const options_t *o, const regions_t *r, size_t offset);
void append_block_sizes(prelex_t *p, char **text);
CXTranslationUnit parse(CXIndex index, const char *name, const char *text, size_t len);
int uses_undeclared(CXTranslationUnit tu, int *assert_used);
void apply_fix(edits_t *fix, char **text, size_t *len, prelex_t *p);
int diagnose(const options_t *o, CXTranslationUnit tu, char **text, size_t *len, const regions_t *r,
             prelex_t *p, int *casts);

/* output.c */
/* macros: the #define / #undef lines the prelexer kept for the system
 * headers (prelex_t.feature_macros), written first */
char *assemble(const char *text, const regions_t *r, const options_t *o, const char *macros);
/* How the output names a system header the program included. */
char *system_include(const options_t *o, const char *path);

#endif
