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
    char **shared_typedefs; /* names of file-scope typedefs of shared types */
    size_t nshared_typedefs;
    int parens;        /* parenthesis depth */
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
int shared_typedef(const state_t *s, tok_t k);

/* prelex_scan.c */
char *trimmed(const char *text, size_t start, size_t end);
void scan_threads_dims(state_t *s);
void qualifier_run(state_t *s, tok_t first);

#endif
