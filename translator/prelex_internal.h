/* SPDX-License-Identifier: MIT */
/* prelex_internal.h -- what the parts of the prelexer share (prelex.c,
 * prelex_lex.c, prelex_scan.c): the lexer, the pass's state and the
 * functions one calls in another.  The rest of the translator uses
 * prelex.h. */
#ifndef MUPC_XLATE_PRELEX_INTERNAL_H
#define MUPC_XLATE_PRELEX_INTERNAL_H

#include "prelex.h"
#include "text.h"

#include <stddef.h>

typedef enum { TOK_END, TOK_SPACE, TOK_ID, TOK_NUMBER, TOK_STRING, TOK_PUNCT, TOK_DIRECTIVE } tok_kind_t;

typedef struct tok {
    tok_kind_t kind;
    size_t start, end;
} tok_t;

typedef struct lexer {
    const char *text;
    size_t len, pos;
    int at_line_start;
} lexer_t;

/* ---- the pass's state ---- */

#define CV_CONST 1
#define CV_VOLATILE 2

/* A typedef name in scope (prelex_typedefs.c). */
typedef struct typedef_info {
    char *name;
    int depth;  /* the brace depth of its declaration; -1: the prelude's */
    int layout; /* its type's top-level layout (an index), or -1: not shared */
    int cv;     /* CV_CONST | CV_VOLATILE at its type's top level */
} typedef_info_t;

/* The layout a qualifier run of the typedef declaration being read got. */
typedef struct run_mark {
    size_t offset; /* of the run's first token, in the input */
    int layout;
} run_mark_t;

typedef struct state {
    prelex_t *p;
    lexer_t x;
    const regions_t *regions;
    strbuf_t out;
    int depth;              /* braces */
    int strict[256];        /* strictness in effect at each depth */
    int begun[256];         /* a declaration or statement seen at each depth */
    size_t *threads_at;     /* input offsets of mupc_threads tokens to write as 1 */
    size_t nthreads_at;
    int forall;             /* inside a upc_forall header: its paren depth + 1 */
    int forall_semis;
    size_t scanned_to; /* the end of the last declaration scanned for THREADS */
    int in_typedef;    /* a file-scope typedef declaration is being read */
    int in_extern;     /* an extern or static declaration is being read (at any depth) */
    typedef_info_t *typedefs; /* in scope, innermost last */
    size_t ntypedefs;
    size_t typedef_from; /* a typedef declaration being read: its start + 1, or 0 */
    int typedef_depth;   /* the brace depth it is at */
    run_mark_t *runs;    /* the qualifier runs read in it */
    size_t nruns;
    /* the last tokens written were a typedef name of a shared type (and
     * maybe const / volatile): `T shared x` merges with it */
    size_t just_named;    /* its index in typedefs + 1, or 0 */
    size_t just_named_at; /* where that name starts in the output */
    tok_t last;           /* the last token read that is not white space */
    int in_group;         /* prelex_group() is reading a block size */
    int parens;        /* parenthesis depth */
    unsigned char type_group[256]; /* the group at each depth opened a type name (a cast's) */
    int type_operand;  /* a upc_*sizeof(type-name) closes at this depth + 1 */
    int local_type;    /* that operand is upc_localsizeof's (dynamic THREADS) */
    int affinity;      /* a upc_forall's affinity expression closes at this depth */
} state_t;

/* prelex_lex.c */
tok_t lex(lexer_t *x);
int tok_is(const lexer_t *x, tok_t k, const char *s);
tok_t peek(lexer_t *x);
void add_newlines(strbuf_t *out, const char *text, size_t start, size_t end);

/* prelex.c */
int starts_type_name(const lexer_t *x, tok_t k);
int starts_type_name_word(const char *w);
void error_at(state_t *s, size_t offset, char *message);
unsigned layout_index(prelex_t *p, block_kind_t kind, const char *block, access_t access,
                      size_t offset);
size_t bracket_group(state_t *s, tok_t open, size_t *inner_start, size_t *inner_end);
char *prelex_group(state_t *s, size_t end, marked_t **sizeofs, size_t *nsizeofs);

/* prelex_typedefs.c */
void typedefs_init(state_t *s);
void typedefs_free(state_t *s);
void typedef_add(state_t *s, char *name, int layout, int depth, int cv);
const typedef_info_t *typedef_named(const state_t *s, const lexer_t *x, tok_t k);
void typedefs_leave_block(state_t *s, int depth);
void typedef_begin(state_t *s, tok_t k);
void typedef_end(state_t *s, size_t to);
void run_given(state_t *s, size_t offset, int layout);

/* prelex_scan.c */
char *trimmed(const char *text, size_t start, size_t end);
void scan_threads_dims(state_t *s);
void qualifier_run(state_t *s, tok_t first);

#endif
