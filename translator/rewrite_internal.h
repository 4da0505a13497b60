/* SPDX-License-Identifier: MIT */
/* rewrite_internal.h -- what the parts of the rewriter share (not for the
 * translator's other files, which use rewrite.h).
 *
 * The rewriter is split by concern, as clang splits its code generation
 * (CGExpr, CGStmt, CGDecl around one CodeGenFunction): every part takes the
 * one rewriter_t (rewrite.h) and recurses through the functions declared
 * here, grouped by the file that defines them.  gen() returns the translated
 * text of an expression, built bottom-up from its children; statements
 * queue one edit per top-level expression and declarations are replaced
 * whole.  Every generated runtime call passes __FILE__ and __LINE__, which
 * the output's #line directives make the user's own position. */
#ifndef MUPC_XLATE_REWRITE_INTERNAL_H
#define MUPC_XLATE_REWRITE_INTERNAL_H

#include "rewrite.h"

/* The children of a cursor (rewrite_clang.c: children()). */
typedef struct kids {
    CXCursor *v;
    int n;
} kids_t;

/* rewrite_clang.c */
size_t offset_of(CXSourceLocation loc);
void extent(CXCursor c, size_t *start, size_t *end);
size_t start_of(CXCursor c);
char *source(rewriter_t *w, CXCursor c);
void report(rewriter_t *w, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same, a warning: the translation goes on. */
void warn(rewriter_t *w, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int translated(rewriter_t *w, CXCursor c);
kids_t children(CXCursor c, int exprs_only);

/* rewrite_types.c */
CXType canon(CXType t);
int is_array(CXType t);
CXType element_type(CXType t);
int is_shared(rewriter_t *w, CXType t);
int is_pts(rewriter_t *w, CXType t);
int contains_pts(rewriter_t *w, CXType t);
/* rewrite_sizeof.c: report (at `at`) a sizeof of a structure holding a
 * pointer-to-shared in c's dimensions or value, a constant clang
 * evaluates with its own layout; 1 when it did */
int refuse_pts_sizes(rewriter_t *w, CXCursor c, size_t at);
layout_t *layout_of(rewriter_t *w, CXType t);
CXType leaf_type(CXType t);
int contains_vla(CXType t);
char *spell_decl(rewriter_t *w, CXType t, const char *inner);
char *spell(rewriter_t *w, CXType t);
const char *access_suffix(rewriter_t *w, CXType t);
int strict_of(rewriter_t *w, CXType t, size_t offset);
char *block_text(rewriter_t *w, CXType t, size_t offset);
int next_temp(rewriter_t *w);

/* rewrite_lvalue.c */
int is_wrapper(CXCursor c, CXCursor *inner);
CXCursor strip(CXCursor c);
int refers_to(CXCursor c, CXCursor var);
int first_operand_is(CXCursor c, CXCursor var);
int writes_operand(CXCursor c);
char *descriptor_name(CXCursor decl);
int root_threads_dim(rewriter_t *w, CXCursor c, int *depth);
char *leaf_count(CXType t, int threads_dim_below);
int member_lvalue(rewriter_t *w, CXCursor x);
int member_derived(rewriter_t *w, CXCursor c);
void check_member_address(rewriter_t *w, CXType to, CXCursor from);
int threads_rows(rewriter_t *w, CXCursor p);
char *ptr_add_in(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate,
                 size_t offset, int threads_scaled, int in_struct);
/* ptr_add_in outside a structure */
char *ptr_add(rewriter_t *w, CXType ptype, const char *p, const char *n, int negate, size_t offset,
              int threads_scaled);
char *addr(rewriter_t *w, CXCursor c);
/* p[X * THREADS + MYTHREAD] through a view of this thread's part declared
 * before a loop: the view's number, *x and *p the texts of X and p; else -1 */
int own_view_of(rewriter_t *w, CXCursor c, char **x, char **p);
/* the pointer-to-shared text of p[X * THREADS + MYTHREAD], X in __mupc_xM */
char *own_view_pointer(rewriter_t *w, const char *p, int m, CXType t);

/* rewrite_access.c */
char *read_shared(rewriter_t *w, CXCursor c);
char *write_at(rewriter_t *w, CXType t, const char *a, const char *value, size_t at);
char *write_own_view(rewriter_t *w, CXCursor l, CXCursor r);
char *update(rewriter_t *w, CXCursor c, const char *op, const char *operand, int post);

/* rewrite_expr.c */
char *splice(rewriter_t *w, CXCursor c);
char *truth(rewriter_t *w, CXCursor c);
char *gen(rewriter_t *w, CXCursor c);

/* rewrite_sizeof.c */
char *size_of(rewriter_t *w, CXCursor c);

/* rewrite_stmt.c */
void queue_expr(rewriter_t *w, CXCursor c, int as_truth);
size_t past_semicolon(rewriter_t *w, size_t end);
int is_tag_definition(CXCursor c);
void name_unnamed_tag(rewriter_t *w, CXCursor tag);
size_t keep_tag_definition(rewriter_t *w, CXCursor tag, size_t s, size_t end);
void walk(rewriter_t *w, CXCursor c);
char *affinity_test(rewriter_t *w, CXCursor call, int depth_var);

/* rewrite_forall.c */
int forall_owned_iterations(rewriter_t *w, CXCursor c, kids_t ks, CXCursor body, CXCursor call);
char *forall_private(rewriter_t *w, CXCursor c);
typedef struct counted { /* for (i = lo; i < hi; i++), or <= */
    CXCursor index, lo, hi;
    int inclusive, declared; /* <=; `for (T i = lo; ...` */
    CXType itype;
} counted_t;
int counted_for(rewriter_t *w, kids_t ks, counted_t *c);
struct breaks;
char *body_text(rewriter_t *w, CXCursor s, size_t end, int keep_outside, const struct breaks *b);
void emit_line(strbuf_t *o, CXCursor s);

/* rewrite_hoist.c */
void hoist_loop(rewriter_t *w, CXCursor loop);
char *hoisted_read(rewriter_t *w, CXCursor c);
int hoisted_view(rewriter_t *w, CXCursor c);
/* what a loop does: whether it may change a pointer-to-shared or make an
 * access that must stay in order (a call, a strict access, a label...),
 * and whether an expression has one value throughout it */
typedef struct loop_scan loop_scan_t;
loop_scan_t *loop_scan_new(rewriter_t *w, CXCursor loop);
int loop_scan_safe(const loop_scan_t *l);
int loop_scan_invariant(loop_scan_t *l, CXCursor c);
void loop_scan_free(loop_scan_t *l);
int address_taken(rewriter_t *w, CXCursor decl); /* by its function, anywhere */

/* rewrite_version.c */
void version_loop(rewriter_t *w, CXCursor loop, kids_t ks);
char *versioned_access(rewriter_t *w, CXCursor c);

/* rewrite_decl.c */
char *shared_object_text(rewriter_t *w, CXCursor d);
char *declaration_text(rewriter_t *w, CXCursor d, int file_scope);
void record_fields(rewriter_t *w, CXCursor r);
int typedef_run(rewriter_t *w, kids_t *ks, int i);

#endif
