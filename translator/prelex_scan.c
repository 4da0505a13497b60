/* SPDX-License-Identifier: MIT */
/* prelex_scan.c -- the prelexer's declaration scans: THREADS in array
 * dimensions, typedefs of shared types, and runs of UPC qualifiers
 * (shared [B], strict, relaxed) turned into layouts. */
#include "prelex_internal.h"
#include "prelex.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *trimmed(const char *text, size_t start, size_t end)
{
    while (start < end && isspace((unsigned char)text[start]))
        start++;
    while (end > start && isspace((unsigned char)text[end - 1]))
        end--;
    return xstrndup(text + start, end - start);
}

/* THREADS at k stands alone in its dimension or is multiplied by a
 * constant: no operator but '*' (and parentheses) in its brackets. */
static int threads_multiplied(const lexer_t *at, tok_t k)
{
    size_t open = k.start, close = k.end;
    int level = 0;
    while (open > 0 && !(at->text[open - 1] == '[' && level == 0)) {
        open--;
        level += at->text[open] == ']' ? 1 : at->text[open] == '[' ? -1 : 0;
    }
    for (level = 0; close < at->len && !(at->text[close] == ']' && level == 0); close++)
        level += at->text[close] == '[' ? 1 : at->text[close] == ']' ? -1 : 0;
    int depth = 0; /* of THREADS, in parentheses within the brackets */
    for (size_t i = open; i < k.start; i++)
        depth += at->text[i] == '(' ? 1 : at->text[i] == ')' ? -1 : 0;
    int here = 0;
    for (size_t i = open; i < close; i++) {
        here += at->text[i] == '(' ? 1 : at->text[i] == ')' ? -1 : 0;
        if (here <= depth && strchr("+-/%<>&|^?:,", at->text[i]))
            return 0;
    }
    return 1;
}

/* After a file-scope `shared` qualifier run: find THREADS in the array
 * dimensions of each declarator up to the ';' (lookahead only; the main
 * loop writes the remembered tokens as 1). */
void scan_threads_dims(state_t *s)
{
    lexer_t x = s->x;
    int parens = 0, braces = 0, dim = -1, in_dim = 0, after_init = 0, after_paren = 0;
    int threads_seen = 0; /* THREADS already found in this declarator */
    int pointer = 0;      /* this declarator declares pointers (`T *name[THREADS]`): private */
    int attribute = 0, attribute_group = 0; /* __attribute__((...)) is no declarator */
    char *name = NULL;
    tok_t k;
    while ((k = lex(&x)).kind != TOK_END) {
        if (k.kind == TOK_SPACE)
            continue;
        if ((tok_is(&x, k, ";") || (tok_is(&x, k, "{") && after_paren)) && parens == 0 && braces == 0) {
            s->scanned_to = k.end; /* the end of the declaration, or a function's body */
            break;
        }
        if (tok_is(&x, k, "(") && parens == 0 && !in_dim)
            attribute_group = attribute;
        attribute = tok_is(&x, k, "__attribute__") || tok_is(&x, k, "__attribute");
        after_paren = tok_is(&x, k, ")") && parens == 1 && !in_dim && !attribute_group;
        if (tok_is(&x, k, ")") && !in_dim && parens == 0 && braces == 0) {
            s->scanned_to = k.end; /* the end of the parameter list the run is in */
            break;
        }
        /* parentheses inside a dimension, `[(4 * THREADS)]`, do not hide it */
        if (tok_is(&x, k, "(") && !in_dim) parens++;
        if (tok_is(&x, k, ")") && !in_dim) parens--;
        if (tok_is(&x, k, "{")) braces++;
        if (tok_is(&x, k, "}")) braces--;
        if (parens || braces)
            continue;
        if (tok_is(&x, k, ",")) {
            dim = -1; after_init = 0; threads_seen = 0; pointer = 0; free(name); name = NULL;
            continue;
        }
        if (tok_is(&x, k, "*") && !in_dim && dim < 0)
            pointer = 1;
        if (tok_is(&x, k, "shared") && !in_dim && dim < 0)
            pointer = 0; /* `T *shared name[THREADS]`: shared pointers */
        if (tok_is(&x, k, "=")) after_init = 1;
        if (after_init)
            continue;
        if (tok_is(&x, k, "[")) { in_dim++; if (in_dim == 1) dim++; continue; }
        if (tok_is(&x, k, "]")) { in_dim--; continue; }
        if (k.kind != TOK_ID)
            continue;
        if (!in_dim && dim < 0 && !starts_type_name(&x, k)) { /* not in a type name's `int [4*THREADS]` */
            free(name);
            name = xstrndup(x.text + k.start, k.end - k.start);
        } else if (in_dim && tok_is(&x, k, "mupc_threads") && name && !pointer) {
            if (!threads_multiplied(&x, k))
                error_at(s, k.start, xasprintf("THREADS in a dimension of '%s' must stand alone or be "
                                               "multiplied by an integer constant (UPC 1.3 §6.5.2.1)",
                                               name));
            if (threads_seen++)
                error_at(s, k.start, xasprintf("THREADS appears in more than one dimension of '%s' "
                                               "(UPC 1.3 §6.5.2.1: at most one, in the dynamic "
                                               "THREADS environment)", name));
            prelex_t *p = s->p;
            if (prelex_threads_dim(p, name) < 0) { /* once: `extern` and the definition agree */
                p->threads_dims = xrealloc(p->threads_dims, (p->nthreads_dims + 1) * sizeof *p->threads_dims);
                p->threads_dims[p->nthreads_dims++] = (threads_dim_t){xstrdup(name), dim};
            }
            s->threads_at = xrealloc(s->threads_at, (s->nthreads_at + 1) * sizeof *s->threads_at);
            s->threads_at[s->nthreads_at++] = k.start;
        }
    }
    free(name);
}


/* The typedef name of a shared type that the qualifier run just read
 * qualifies, written after it past const / volatile / restrict (`shared
 * T`), or NULL; *name_at is its token.  After a '*' or a type's name the
 * identifier is the declarator's (`int *shared T;`). */
static const typedef_info_t *typedef_after(state_t *s, tok_t *name_at)
{
    const lexer_t *x = &s->x;
    if (tok_is(x, s->last, "*") ||
        (s->last.kind == TOK_ID && !tok_is(x, s->last, "shared") && !tok_is(x, s->last, "strict") &&
         !tok_is(x, s->last, "relaxed") && !tok_is(x, s->last, "const") && !tok_is(x, s->last, "volatile") &&
         (starts_type_name(x, s->last) || typedef_named(s, x, s->last))))
        return NULL;
    lexer_t ahead = s->x;
    for (;;) {
        tok_t k;
        while ((k = lex(&ahead)).kind == TOK_SPACE)
            ;
        if (k.kind != TOK_ID)
            return NULL;
        if (!tok_is(&ahead, k, "const") && !tok_is(&ahead, k, "volatile") && !tok_is(&ahead, k, "restrict") &&
            !tok_is(&ahead, k, "__restrict")) {
            const typedef_info_t *t = typedef_named(s, &ahead, k);
            *name_at = k;
            return t && t->layout >= 0 ? t : NULL;
        }
    }
}

static const char *access_word(access_t a) { return a == ACCESS_STRICT ? "strict" : "relaxed"; }

/* The block sizes of two layouts are the same: the same kind, and the
 * same integer (or, for an expression, the same text). */
static int same_block(const layout_t *a, block_kind_t kind, const char *block)
{
    if (a->kind != kind || kind != BLOCK_NUMBER)
        return a->kind == kind && kind != BLOCK_STAR;
    char *end_a, *end_b;
    long long na = strtoll(a->block, &end_a, 0), nb = strtoll(block, &end_b, 0);
    return !*end_a && !*end_b ? na == nb : !strcmp(a->block, block);
}

static const char *block_text(block_kind_t kind, const char *block)
{
    return kind == BLOCK_INDEFINITE ? "" : kind == BLOCK_STAR ? "*" : block;
}

/* The run's qualifiers merged with those of typedef t, which they qualify
 * again (UPC 1.3 §6.5.1.1: no more than one block size, directly or
 * through typedefs; C99 §6.7.3p4: a repeated qualifier is allowed).
 * Returns the merged layout's index; a conflict is reported at offset. */
static unsigned merged_layout(state_t *s, const typedef_info_t *t, int bracket, block_kind_t kind,
                              const char *block, access_t access, size_t offset)
{
    const layout_t *l = &s->p->layouts[t->layout];
    if (bracket && !same_block(l, kind, block))
        error_at(s, offset, xasprintf("two layout qualifiers on one type: [%s] here and [%s] from "
                                      "typedef '%s'; a shared type has one block size, given "
                                      "directly or through typedefs (UPC 1.3 §6.5.1.1): drop one",
                                      block_text(kind, block), block_text(l->kind, l->block), t->name));
    if (access != ACCESS_DEFAULT && l->access != ACCESS_DEFAULT && access != l->access)
        error_at(s, offset, xasprintf("'%s' applied to typedef '%s', which is '%s': a shared type is "
                                      "strict or relaxed, not both (UPC 1.3 §6.5.1.1)",
                                      access_word(access), t->name, access_word(l->access)));
    if (access == ACCESS_DEFAULT || access == l->access)
        return (unsigned)t->layout;
    if (l->kind == BLOCK_STAR)
        error_at(s, offset, xasprintf("'%s' applied to typedef '%s' of a [*] layout is not supported; "
                                      "write '%s' in the typedef", access_word(access), t->name,
                                      access_word(access)));
    char *written = xstrdup(l->block); /* l moves if the table grows */
    unsigned k = layout_index(s->p, l->kind, written, access, s->out.len);
    free(written);
    /* the new layout's block size is the typedef's, UPC in it too (the
     * table may have moved) */
    const layout_t *from = &s->p->layouts[t->layout];
    layout_t *to = &s->p->layouts[k];
    if (from->block_c && !to->block_c) {
        to->block_c = xstrdup(from->block_c);
        to->nblock_sizeofs = from->nblock_sizeofs;
        to->block_sizeofs = xmalloc((from->nblock_sizeofs + 1) * sizeof *to->block_sizeofs);
        memcpy(to->block_sizeofs, from->block_sizeofs, from->nblock_sizeofs * sizeof *to->block_sizeofs);
    }
    return k;
}

/* The typedef's own const / volatile, written again where its type is
 * named through __typeof_unqual__ (which drops them with the layout). */
static void add_cv(strbuf_t *out, int cv)
{
    if (cv & CV_CONST)
        sb_puts(out, " const");
    if (cv & CV_VOLATILE)
        sb_puts(out, " volatile");
}

/* The typedef name t gets a strictness of the run's, not its own: clang
 * takes no second address space on it, so it is named as
 * `__typeof_unqual__(T)` with its const / volatile again (output.c writes
 * `__typeof__(T)` for the C compiler, where T has no address space).
 * name: its token still ahead (`strict T`), or NULL when it was just
 * written (`T strict`). */
static void retype_typedef_name(state_t *s, const typedef_info_t *t, const tok_t *name)
{
    if (name) {
        sb_add(&s->out, s->x.text + s->x.pos, name->start - s->x.pos); /* const, volatile between */
        s->x.pos = name->end;
        sb_printf(&s->out, " __typeof_unqual__(%s)", t->name);
        add_cv(&s->out, t->cv);
        return;
    }
    size_t from = s->just_named_at, to = from + strlen(t->name);
    char *tail = xstrdup(s->out.s + to);
    s->out.len = from;
    sb_printf(&s->out, "__typeof_unqual__(%s)", t->name);
    add_cv(&s->out, t->cv);
    sb_puts(&s->out, tail);
    free(tail);
}

/* A run of qualifiers as written: strict / relaxed / shared [B]. */
typedef struct run {
    access_t access;
    int both;             /* strict and relaxed both */
    int shared;           /* `shared` in it */
    int bracket;          /* a layout qualifier [B] was written */
    block_kind_t kind;
    char *block;          /* as written, trimmed */
    char *block_c;        /* through the pass (prelex_group), or NULL */
    marked_t *block_marks; /* upc_*sizeof in the block size */
    size_t nblock_marks;
} run_t;

/* `[B]` after `shared`, the lexer at its '[' token n. */
static void layout_qualifier(state_t *s, tok_t n, run_t *r)
{
    lexer_t *x = &s->x;
    while (lex(x).kind == TOK_SPACE)
        ;
    size_t a, b;
    lexer_t at = *x;
    bracket_group(s, n, &a, &b);
    char *given = trimmed(x->text, a, b);
    *x = at; /* again through the pass, for clang: */
    free(r->block_c);
    free(r->block_marks);
    char *c = prelex_group(s, b, &r->block_marks, &r->nblock_marks);
    size_t lead = strspn(c, " \t\n\r\f\v");
    for (size_t i = 0; i < r->nblock_marks; i++) /* they count from the untrimmed start */
        r->block_marks[i].offset -= lead;
    r->block_c = trimmed(c, 0, strlen(c));
    free(c);
    lex(x); /* the ']' */
    if (r->bracket && strcmp(given, r->block) != 0)
        error_at(s, n.start, xasprintf("two layout qualifiers, [%s] and [%s], on one type: a shared "
                                       "type has one block size (UPC 1.3 §6.5.1.1)", r->block, given));
    r->bracket = 1;
    free(r->block);
    r->block = given;
    r->kind = !*given ? BLOCK_INDEFINITE : !strcmp(given, "*") ? BLOCK_STAR : BLOCK_NUMBER;
}

/* Read the run starting at token first; the lexer ends past it. */
static void read_run(state_t *s, tok_t first, run_t *r)
{
    lexer_t *x = &s->x;
    *r = (run_t){.access = ACCESS_DEFAULT, .kind = BLOCK_NUMBER, .block = xstrdup("1")};
    tok_t k = first;
    for (;;) {
        if (tok_is(x, k, "strict"))
            r->both |= r->access == ACCESS_RELAXED, r->access = ACCESS_STRICT;
        else if (tok_is(x, k, "relaxed"))
            r->both |= r->access == ACCESS_STRICT, r->access = ACCESS_RELAXED;
        else if (tok_is(x, k, "shared")) {
            r->shared = 1;
            tok_t n = peek(x);
            if (tok_is(x, n, "["))
                layout_qualifier(s, n, r);
        }
        tok_t n = peek(x);
        if (!(tok_is(x, n, "strict") || tok_is(x, n, "relaxed") || tok_is(x, n, "shared")))
            break;
        while ((k = lex(x)).kind == TOK_SPACE)
            ;
    }
    add_newlines(&s->out, x->text, first.start, x->pos);
}

/* What the run may not say: both strictnesses, a layout on void, [*] in
 * a typedef. */
static void check_run(state_t *s, tok_t first, const run_t *r)
{
    if (r->both)
        error_at(s, first.start, xstrdup("'strict' and 'relaxed' both qualify one type; give one of "
                                         "them (UPC 1.3 §6.5.1.1)"));
    if (r->bracket && tok_is(&s->x, peek(&s->x), "void"))
        error_at(s, first.start, xasprintf("a layout qualifier, [%s], on void: shared void has no "
                                           "block size (UPC 1.3 §6.5.1.1); write 'shared void'",
                                           block_text(r->kind, r->block)));
    if (r->kind == BLOCK_STAR && s->typedef_from)
        error_at(s, first.start, xstrdup("'shared [*]' in a typedef: [*] sizes the blocks of one array "
                                         "declaration (UPC 1.3 §6.5.1.1); give the typedef a block "
                                         "size, or write [*] in the array's declaration"));
}

/* The layout of a run that qualifies no typedef of a shared type; a block
 * size with UPC in it keeps its prelexed text for clang. */
static int own_layout(state_t *s, run_t *r)
{
    int layout = (int)layout_index(s->p, r->kind, r->block, r->access, s->out.len);
    layout_t *l = &s->p->layouts[layout];
    if (r->block_c && !l->block_c && (strcmp(r->block_c, r->block) != 0 || r->nblock_marks)) {
        l->block_c = r->block_c, r->block_c = NULL;
        l->block_sizeofs = r->block_marks, r->block_marks = NULL;
        l->nblock_sizeofs = r->nblock_marks;
    }
    return layout;
}

/* A run of strict / relaxed / shared [layout] starting at token first:
 * written as the address space of its layout, merged with the layout of a
 * typedef of a shared type it qualifies again.  A qualifier is never
 * dropped: it is written, merged, or refused with a message. */
void qualifier_run(state_t *s, tok_t first)
{
    run_t r;
    read_run(s, first, &r);
    check_run(s, first, &r);
    tok_t name = {TOK_END, 0, 0};
    const typedef_info_t *after = typedef_after(s, &name);
    const typedef_info_t *before = s->just_named ? &s->typedefs[s->just_named - 1] : NULL;
    const typedef_info_t *on = after ? after : before; /* `shared T` or `T shared` */
    int layout = -1;
    if (on)
        layout = (int)merged_layout(s, on, r.bracket, r.kind, r.block, r.access, first.start);
    else if (!r.shared)
        error_at(s, first.start, xasprintf("'%s' qualifies only shared types; add 'shared'",
                                           access_word(r.access)));
    else
        layout = own_layout(s, &r);
    if (layout >= 0)
        sb_printf(&s->out, " __attribute__((address_space(%u))) ", LAYOUT_BASE + (unsigned)layout);
    run_given(s, first.start, layout);
    if (on && layout != on->layout) /* a new strictness for the typedef's type */
        retype_typedef_name(s, on, after ? &name : NULL);
    /* file scope, or `extern` or `static` in a block: a file-scope object */
    if ((s->depth == 0 || s->in_extern) && !s->p->static_threads && s->x.pos >= s->scanned_to &&
        !s->in_group)
        scan_threads_dims(s);
    free(r.block);
    free(r.block_c);
    free(r.block_marks);
}
