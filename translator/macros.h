/* SPDX-License-Identifier: MIT */
/* macros.h -- the C compiler's own macros, kept for the C compiler.
 *
 * The translation preprocesses with clang, whose resource headers
 * (<stdatomic.h>, <tgmath.h>, <stdarg.h>, the intrinsics) define their
 * macros with clang's builtins; the output is compiled by the C compiler
 * behind mpicc, gcc by default, which re-includes the same headers by name
 * and finds its own.  A macro of those headers invoked in the program
 * must therefore reach the output as the invocation, `atomic_fetch_add(&n,
 * 1)`, for the C compiler to expand as it would in a C program, while
 * libclang parses clang's expansion, `__c11_atomic_fetch_add(&n, 1, 5)`,
 * to know the types.  (The other way, showing clang the C compiler's own
 * headers, fails: gcc's <tgmath.h> is glibc's, which refuses clang, and
 * gcc's intrinsics and <omp.h> use builtins and attributes clang rejects.)
 *
 * How: mupc-mark-headers (mark_headers.c) writes a copy of clang's
 * resource headers in which each function-like macro expands to
 * `__mupc_mb_ NAME(args) __mupc_mx_ EXPANSION __mupc_me_`, each use of a
 * parameter in EXPANSION wrapped as `__mupc_aN_ arg __mupc_ae_`.  Before
 * prelexing, macro_marks_take() drops the invocation copy (kept in the
 * table) and turns the other markers into comments in the program's own
 * code: `/[*]@K{[*]/ EXPANSION /[*]}@K[*]/` and `/[*]@K.N{[*]/ arg
 * /[*]}@K.N[*]/`; in headers they just go.  The parse ignores comments,
 * and the rewriter copies them with the text around them, so after
 * rewriting macro_marks_restore() finds each expansion again and writes
 * `NAME(` its arguments' translated text `)` in its place: the argument's
 * wrapped occurrence in the translated expansion (a read of shared data
 * in it is translated there), or, for a parameter the macro never uses
 * as an expression, the argument as the program wrote it. */
#ifndef MUPC_XLATE_MACROS_H
#define MUPC_XLATE_MACROS_H

#include "regions.h"

#include <stddef.h>

typedef struct macro_use {
    char *name;  /* the macro */
    char **args; /* its arguments, as preprocessed (markers and all) */
    int nargs;
} macro_use_t;

/* One use of a parameter in an expansion, in the parsed text (without
 * enclosing parentheses); gen() (rewrite_expr.c) wraps the translation of
 * the expression there in the comments macro_marks_restore() looks for. */
typedef struct macro_arg {
    size_t start, end;
    size_t use;
    int arg;
    int active; /* being translated (an inner expression with the same text is not wrapped again) */
} macro_arg_t;

typedef struct macro_uses {
    macro_use_t *v;
    size_t n;
    macro_arg_t *occ; /* sorted by start */
    size_t nocc;
} macro_uses_t;

/* The preprocessed text with the markers taken out (see above); r is
 * text's regions (only the program's own code keeps comments). */
char *macro_marks_take(const char *text, size_t len, const regions_t *r, macro_uses_t *uses);
/* Take the parameter markers out of the prelexed text (they go through
 * prelexing as comments), into uses->occ. */
void macro_args_collect(char **text, macro_uses_t *uses);
/* Text at `at` grew by `by` bytes (parse.c, apply_fix()). */
void macro_args_shift(macro_uses_t *uses, size_t at, ptrdiff_t by);
/* The use of a parameter whose text [start, end) of text is, parentheses
 * aside, or NULL. */
macro_arg_t *macro_arg_at(macro_uses_t *uses, const char *text, size_t start, size_t end);
/* translated, the text of a's expression, in a's comments (takes it) */
char *macro_arg_wrap(const macro_arg_t *a, char *translated);
/* The translated text with each marked expansion written back as its
 * macro's invocation; returns text when there are none (else frees it). */
char *macro_marks_restore(char *text, const macro_uses_t *uses);
void macro_uses_free(macro_uses_t *uses);

#endif
