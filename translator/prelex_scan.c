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

/* A file-scope typedef of a shared type declares `name` (NULL, or a
 * keyword when the declarator was not a plain name: nothing). */
static void remember_shared_typedef(state_t *s, const char *name)
{
    if (!name || starts_type_name_word(name))
        return;
    s->shared_typedefs = xrealloc(s->shared_typedefs, (s->nshared_typedefs + 1) * sizeof(char *));
    s->shared_typedefs[s->nshared_typedefs++] = xstrdup(name);
}

/* After a file-scope `shared` qualifier run: find THREADS in the array
 * dimensions of each declarator up to the ';' (lookahead only; the main
 * loop writes the remembered tokens as 1). */
void scan_threads_dims(state_t *s)
{
    lexer_t x = s->x;
    int parens = 0, braces = 0, dim = -1, in_dim = 0, after_init = 0, after_paren = 0;
    int threads_seen = 0; /* THREADS already found in this declarator */
    int attribute = 0, attribute_group = 0; /* __attribute__((...)) is no declarator */
    char *name = NULL;
    tok_t k;
    while ((k = lex(&x)).kind != TOK_END) {
        if (k.kind == TOK_SPACE)
            continue;
        if ((tok_is(&x, k, ";") || (tok_is(&x, k, "{") && after_paren)) && parens == 0 && braces == 0) {
            s->scanned_to = k.end; /* the end of the declaration, or a function's body */
            if (s->in_typedef && tok_is(&x, k, ";"))
                remember_shared_typedef(s, name);
            break;
        }
        if (tok_is(&x, k, "(") && parens == 0 && !in_dim)
            attribute_group = attribute;
        attribute = tok_is(&x, k, "__attribute__") || tok_is(&x, k, "__attribute");
        after_paren = tok_is(&x, k, ")") && parens == 1 && !in_dim && !attribute_group;
        if ((tok_is(&x, k, ";") || tok_is(&x, k, ",")) && parens == 0 && braces == 0 && s->in_typedef)
            remember_shared_typedef(s, name); /* the name this typedef declares */
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
        if (tok_is(&x, k, ",")) { dim = -1; after_init = 0; threads_seen = 0; free(name); name = NULL; continue; }
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
        } else if (in_dim && tok_is(&x, k, "mupc_threads") && name) {
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


/* Whether the next identifier, past const / volatile / restrict, names a
 * file-scope typedef of a shared type. */
static int names_shared_typedef(state_t *s)
{
    lexer_t ahead = s->x;
    for (;;) {
        tok_t k;
        while ((k = lex(&ahead)).kind == TOK_SPACE)
            ;
        if (k.kind != TOK_ID)
            return 0;
        if (!tok_is(&ahead, k, "const") && !tok_is(&ahead, k, "volatile") && !tok_is(&ahead, k, "restrict") &&
            !tok_is(&ahead, k, "__restrict"))
            return shared_typedef(s, k);
    }
}

/* A run of strict / relaxed / shared [layout] starting at token first. */
void qualifier_run(state_t *s, tok_t first)
{
    lexer_t *x = &s->x;
    access_t access = ACCESS_DEFAULT;
    int both = 0;
    block_kind_t kind = BLOCK_NUMBER;
    char *block = xstrdup("1");
    int shared = 0;
    size_t newlines_from = first.start;
    tok_t k = first;
    int bracket = 0; /* a layout qualifier [B] was written */
    for (;;) {
        if (tok_is(x, k, "strict"))
            both |= access == ACCESS_RELAXED, access = ACCESS_STRICT;
        else if (tok_is(x, k, "relaxed"))
            both |= access == ACCESS_STRICT, access = ACCESS_RELAXED;
        else if (tok_is(x, k, "shared")) {
            shared = 1;
            tok_t n = peek(x);
            if (tok_is(x, n, "[")) {
                while (lex(x).kind == TOK_SPACE)
                    ;
                size_t a, b;
                bracket_group(s, n, &a, &b);
                char *given = trimmed(x->text, a, b);
                if (bracket && strcmp(given, block) != 0)
                    error_at(s, n.start, xasprintf("two layout qualifiers, [%s] and [%s], on one type: "
                                                   "a shared type has one block size (UPC 1.3 §6.5.1.1)",
                                                   block, given));
                bracket = 1;
                free(block);
                block = given;
                kind = !*block ? BLOCK_INDEFINITE : !strcmp(block, "*") ? BLOCK_STAR : BLOCK_NUMBER;
            }
        }
        tok_t n = peek(x);
        if (!(tok_is(x, n, "strict") || tok_is(x, n, "relaxed") || tok_is(x, n, "shared")))
            break;
        while ((k = lex(x)).kind == TOK_SPACE)
            ;
    }
    add_newlines(&s->out, x->text, newlines_from, x->pos);
    if (both)
        error_at(s, first.start, xstrdup("'strict' and 'relaxed' both qualify one type; give one of "
                                         "them (UPC 1.3 §6.5.1.1)"));
    int on_typedef = !bracket && names_shared_typedef(s);
    if (on_typedef && access != ACCESS_DEFAULT) {
        error_at(s, first.start, xasprintf("'%s' applied to a typedef of a shared type is not "
                                           "supported yet; write '%s' in the typedef, or declare "
                                           "with the shared type written out",
                                           access == ACCESS_STRICT ? "strict" : "relaxed",
                                           access == ACCESS_STRICT ? "strict" : "relaxed"));
    } else if (on_typedef) {
        /* `shared T` with T a typedef of a shared type: T's layout stands
         * (repeating a qualifier is allowed, C99 §6.7.3) */
        if ((s->depth == 0 || s->in_extern) && !s->p->static_threads && s->x.pos >= s->scanned_to)
            scan_threads_dims(s);
    } else if (!shared) {
        error_at(s, first.start, xasprintf("'%s' qualifies only shared types; add 'shared'",
                                           access == ACCESS_STRICT ? "strict" : "relaxed"));
    } else {
        unsigned i = layout_index(s->p, kind, block, access, s->out.len);
        sb_printf(&s->out, " __attribute__((address_space(%u))) ", LAYOUT_BASE + i);
        /* file scope, or `extern` or `static` in a block: a file-scope object */
        if ((s->depth == 0 || s->in_extern) && !s->p->static_threads && s->x.pos >= s->scanned_to)
            scan_threads_dims(s);
    }
    free(block);
}
