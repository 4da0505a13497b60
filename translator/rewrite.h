/* SPDX-License-Identifier: MIT */
/* rewrite.h -- from the parsed, prelexed text to C that calls <mupc.h>.
 *
 * libclang types every expression; the rewriter replaces each one that
 * involves shared data (an access, a pointer-to-shared's arithmetic,
 * comparison, conversion or declaration, a upc_forall's affinity) by runtime
 * calls, as text edits on the prelexed text (see text.h). */
#ifndef MUPC_XLATE_REWRITE_H
#define MUPC_XLATE_REWRITE_H

#include "prelex.h"
#include "regions.h"
#include "text.h"

#include <clang-c/Index.h>

typedef struct rewriter {
    CXTranslationUnit tu;
    const char *text; /* the prelexed text clang parsed */
    size_t len;
    const regions_t *regions;
    prelex_t *prelex;
    edits_t edits;
    int errors;
    int temps; /* numbering of generated temporaries */
    size_t function_start; /* of the function being rewritten */
    int gasp;              /* raise the compiler's GASP events (FORALL, C_FUNC) */
    size_t *named_tags;    /* offsets of unnamed struct/union/enum definitions given a name */
    size_t nnamed_tags;
    CXCursor *definitions; /* the declaration defining each file-scope shared object (rewrite_decl.c) */
    size_t ndefinitions;
    struct forall_priv *priv; /* the privatized copy of a upc_forall body being generated (rewrite_forall.c) */
    struct hoist_state *hoist; /* reads hoisted out of loops (rewrite_hoist.c) */
    struct version *ver;       /* the local copy of a loop being generated (rewrite_version.c) */
} rewriter_t;

/* Edits into fix that rewrite each type name operand of sizeof or
 * _Alignof that may involve UPC as an expression of that type, for a
 * second parse (rewrite_sizeof.c says why); returns how many. */
int rewrite_type_operands(rewriter_t *w, edits_t *fix);

/* Queue the edits for every translated top-level declaration; returns the
 * number of errors reported (file:line:col: error: ... on stderr). */
int rewrite_translation_unit(rewriter_t *w);

#endif
