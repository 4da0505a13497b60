/* SPDX-License-Identifier: MIT */
/* prelex.c -- the token pass from UPC to parseable C (see prelex.h). */
#include "prelex.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static tok_t lex(lexer_t *x)
{
    const char *t = x->text;
    size_t p = x->pos, n = x->len;
    tok_t k = {TOK_END, p, p};
    if (p >= n)
        return k;
    char c = t[p];
    if (c == '#' && x->at_line_start) { /* a directive: the whole line */
        while (p < n && t[p] != '\n')
            p++;
        k.kind = TOK_DIRECTIVE;
    } else if (isspace((unsigned char)c)) {
        while (p < n && isspace((unsigned char)t[p]))
            p++;
        k.kind = TOK_SPACE;
    } else if (isalpha((unsigned char)c) || c == '_' || c == '$') {
        while (p < n && (isalnum((unsigned char)t[p]) || t[p] == '_' || t[p] == '$'))
            p++;
        k.kind = TOK_ID;
    } else if (isdigit((unsigned char)c) || (c == '.' && p + 1 < n && isdigit((unsigned char)t[p + 1]))) {
        while (p < n && (isalnum((unsigned char)t[p]) || t[p] == '.' || t[p] == '_' ||
                         ((t[p] == '+' || t[p] == '-') && strchr("eEpP", t[p - 1]))))
            p++;
        k.kind = TOK_NUMBER;
    } else if (c == '"' || c == '\'') {
        for (p++; p < n && t[p] != c && t[p] != '\n'; p++)
            if (t[p] == '\\')
                p++;
        p = p < n ? p + 1 : n;
        k.kind = TOK_STRING;
    } else {
        p++;
        k.kind = TOK_PUNCT;
    }
    k.end = p;
    if (k.kind == TOK_SPACE)
        x->at_line_start = memchr(t + k.start, '\n', p - k.start) != NULL || x->at_line_start;
    else
        x->at_line_start = 0;
    if (k.kind == TOK_DIRECTIVE)
        x->at_line_start = 0;
    x->pos = p;
    return k;
}

static int tok_is(const lexer_t *x, tok_t k, const char *s)
{
    size_t n = strlen(s);
    return k.end - k.start == n && !memcmp(x->text + k.start, s, n);
}

/* The next token that is not white space, without consuming it. */
static tok_t peek(lexer_t *x)
{
    lexer_t copy = *x;
    tok_t k;
    do
        k = lex(&copy);
    while (k.kind == TOK_SPACE);
    return k;
}

/* Only the newlines of [start, end): what a removed stretch leaves behind. */
static void add_newlines(strbuf_t *out, const char *text, size_t start, size_t end)
{
    for (size_t i = start; i < end; i++)
        if (text[i] == '\n')
            sb_add(out, "\n", 1);
}

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

/* Whether the word starting a parenthesized operand makes it a type name
 * (typedef names are not told apart: they are taken as expressions). */
static const char *const type_words[] = {"shared", "strict", "relaxed", "void", "char", "short", "int",
                                         "long", "float", "double", "signed", "unsigned", "_Bool",
                                         "struct", "union", "enum", "const", "volatile", NULL};

static int starts_type_name(const lexer_t *x, tok_t k)
{
    for (int i = 0; type_words[i]; i++)
        if (tok_is(x, k, type_words[i]))
            return 1;
    return 0;
}

static int starts_type_name_word(const char *w)
{
    for (int i = 0; type_words[i]; i++)
        if (!strcmp(w, type_words[i]))
            return 1;
    return 0;
}

static void error_at(state_t *s, size_t offset, char *message)
{
    prelex_t *p = s->p;
    p->errors = xrealloc(p->errors, (p->nerrors + 1) * sizeof *p->errors);
    p->errors[p->nerrors++] = (prelex_error_t){offset, message};
}

static void warning_at(state_t *s, size_t offset, char *message)
{
    prelex_t *p = s->p;
    p->warnings = xrealloc(p->warnings, (p->nwarnings + 1) * sizeof *p->warnings);
    p->warnings[p->nwarnings++] = (prelex_error_t){offset, message};
}

static void mark(marked_t **v, size_t *n, size_t offset, int value)
{
    *v = xrealloc(*v, (*n + 1) * sizeof **v);
    (*v)[(*n)++] = (marked_t){offset, value};
}

static unsigned layout_index(prelex_t *p, block_kind_t kind, const char *block, access_t access,
                             size_t offset)
{
    for (size_t i = 0; i < p->nlayouts; i++) {
        const layout_t *l = &p->layouts[i];
        if (l->kind == kind && l->access == access &&
            (kind != BLOCK_NUMBER || !strcmp(l->block, block)) && kind != BLOCK_STAR)
            return (unsigned)i;
    }
    p->layouts = xrealloc(p->layouts, (p->nlayouts + 1) * sizeof *p->layouts);
    /* a [*] layout's block size is set by its array's declaration */
    p->layouts[p->nlayouts] = (layout_t){kind, xstrdup(kind == BLOCK_NUMBER ? block : ""), access, offset};
    return (unsigned)p->nlayouts++;
}

/* Copy the text of [start, end) raw: for stretches the pass leaves alone. */
static void copy(state_t *s, size_t start, size_t end) { sb_add(&s->out, s->x.text + start, end - start); }

/* The text of a bracketed group starting at the '[' token open; returns the
 * offset after the matching ']'. */
static size_t bracket_group(state_t *s, tok_t open, size_t *inner_start, size_t *inner_end)
{
    lexer_t *x = &s->x;
    int level = 1;
    *inner_start = open.end;
    tok_t k;
    while ((k = lex(x)).kind != TOK_END) {
        if (tok_is(x, k, "["))
            level++;
        else if (tok_is(x, k, "]") && --level == 0)
            break;
    }
    *inner_end = k.start;
    return k.end;
}

static char *trimmed(const char *text, size_t start, size_t end)
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
static void scan_threads_dims(state_t *s)
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

static int shared_typedef(const state_t *s, tok_t k);

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
static void qualifier_run(state_t *s, tok_t first)
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

/* upc_barrier / upc_notify / upc_wait [expr] ; */
static void sync_statement(state_t *s, tok_t word)
{
    lexer_t *x = &s->x;
    const char *call = tok_is(x, word, "upc_barrier") ? "mupc_barrier"
                       : tok_is(x, word, "upc_notify") ? "mupc_notify" : "mupc_wait";
    size_t start = x->pos;
    int parens = 0;
    tok_t k;
    while ((k = lex(x)).kind != TOK_END) {
        if (tok_is(x, k, "(")) parens++;
        if (tok_is(x, k, ")")) parens--;
        if (tok_is(x, k, ";") && parens <= 0)
            break;
    }
    char *expr = trimmed(x->text, start, k.start);
    if (*expr)
        sb_printf(&s->out, "%s(1, (int)(", call), copy(s, start, k.start),
            sb_puts(&s->out, "), __FILE__, __LINE__);");
    else
        sb_printf(&s->out, "%s(0, 0, __FILE__, __LINE__);", call), add_newlines(&s->out, x->text, start, k.start);
    free(expr);
}

/* The affinity of a upc_forall: from after its third ';' to its ')'.  An
 * empty or `continue` affinity is dropped here; any other goes through the
 * token pass like all code (it may hold UPC: `(shared void *)&a[i]`, often
 * from a macro), and punctuation() closes the test at the header's ')'. */
static void forall_affinity(state_t *s)
{
    lexer_t *x = &s->x, ahead = *x;
    size_t start = x->pos;
    int parens = 1;
    tok_t k;
    while ((k = lex(&ahead)).kind != TOK_END) {
        if (tok_is(x, k, "(")) parens++;
        if (tok_is(x, k, ")") && --parens == 0)
            break;
    }
    char *aff = trimmed(x->text, start, k.start);
    if (!*aff || !strcmp(aff, "continue")) {
        *x = ahead;
        s->parens--; /* the header's ')' is consumed here */
        sb_puts(&s->out, ") if (__mupc_forall_any()) ; else ");
        add_newlines(&s->out, x->text, start, k.start);
    } else {
        sb_puts(&s->out, ") if (__mupc_forall_skip(");
        s->affinity = s->parens;
    }
    free(aff);
    s->forall = 0;
}

/* #pragma upc strict | relaxed (UPC 1.3 §6.7.1): at file scope, or before
 * every declaration and statement of a compound statement.  Anything else
 * after `#pragma upc` is reported and ignored, as C ignores a pragma it
 * does not know. */
static void pragma_line(state_t *s, tok_t k)
{
    const char *t = s->x.text + k.start;
    size_t n = k.end - k.start;
    char *line = xstrndup(t, n);
    char w1[32] = "", w2[32] = "", w3[32] = "";
    int words = sscanf(line, "# pragma %31s %31s %31s", w1, w2, w3);
    int known = words >= 2 && (!strcmp(w2, "strict") || !strcmp(w2, "relaxed"));
    if (!known)
        warning_at(s, k.start, words < 2 ? xstrdup("'#pragma upc' without 'strict' or 'relaxed' is "
                                                   "ignored (UPC 1.3 §6.7.1)")
                                         : xasprintf("'#pragma upc %s' is ignored: the UPC pragmas are "
                                                     "'#pragma upc strict' and '#pragma upc relaxed' "
                                                     "(UPC 1.3 §6.7.1)", w2));
    else if (words == 3)
        warning_at(s, k.start, xasprintf("'%s' after '#pragma upc %s' is ignored", w3, w2));
    if (known && s->depth > 0 && s->begun[s->depth]) {
        warning_at(s, k.start, xasprintf("'#pragma upc %s' after a declaration or statement of its "
                                         "block is ignored: put it first in the block, or at file scope "
                                         "(UPC 1.3 §6.7.1)", w2));
        known = 0;
    }
    if (known) {
        int strict = !strcmp(w2, "strict");
        s->strict[s->depth] = strict;
        mark(&s->p->pragmas, &s->p->npragmas, s->out.len, strict);
    } else {
        add_newlines(&s->out, s->x.text, k.start, k.end);
    }
    free(line);
}

static int translated(const state_t *s, size_t offset)
{
    const region_t *g = regions_at(s->regions, offset);
    return g && g->translated;
}

static int remembered_threads(const state_t *s, size_t offset)
{
    for (size_t i = 0; i < s->nthreads_at; i++)
        if (s->threads_at[i] == offset)
            return 1;
    return 0;
}

/* A type name in parentheses after a sizeof or upc_*sizeof just written: it
 * becomes the expression *(__typeof__(type) *)0, whose type libclang
 * reports to the rewriter (libclang shows no type operand of sizeof).  For
 * sizeof only when the type name is UPC's (shared, strict or relaxed in
 * it): sizeof(shared int *) is the size of a pointer-to-shared. */
static void type_operand(state_t *s, int only_shared)
{
    lexer_t *x = &s->x, ahead = *x;
    if (!tok_is(x, peek(&ahead), "("))
        return;
    while (lex(&ahead).kind == TOK_SPACE)
        ;
    if (!starts_type_name(x, peek(&ahead)))
        return;
    int upc = 0;
    tok_t t;
    for (int level = 1; level > 0 && (t = lex(&ahead)).kind != TOK_END;) {
        level += tok_is(x, t, "(") ? 1 : tok_is(x, t, ")") ? -1 : 0;
        upc |= tok_is(x, t, "shared") || tok_is(x, t, "strict") || tok_is(x, t, "relaxed");
    }
    if (only_shared && !upc)
        return;
    while (lex(x).kind == TOK_SPACE)
        ;
    sb_puts(&s->out, "(*(__typeof__(");
    s->type_operand = ++s->parens;
}

/* Whether the identifier at k names a file-scope typedef of a shared type. */
static int shared_typedef(const state_t *s, tok_t k)
{
    for (size_t i = 0; i < s->nshared_typedefs; i++)
        if (tok_is(&s->x, k, s->shared_typedefs[i]))
            return 1;
    return 0;
}

/* `shared`, `strict` or `relaxed` used as an ordinary identifier, as C
 * code included into a UPC program may (a parameter `struct state
 * *shared,`, a member `s.shared`): a qualifier is always followed by more
 * of a declaration, never by one of these, and never follows . or ->. */
static int keyword_as_identifier(const state_t *s)
{
    lexer_t ahead = s->x;
    tok_t n = peek(&ahead);
    if (n.kind != TOK_END && n.end > n.start && strchr(",);=+-/%.?:!<>&|^", s->x.text[n.start]))
        return 1;
    size_t i = s->out.len;
    while (i > 0 && isspace((unsigned char)s->out.s[i - 1]))
        i--;
    return i > 0 && (s->out.s[i - 1] == '.' || (i > 1 && s->out.s[i - 1] == '>' && s->out.s[i - 2] == '-'));
}

static void identifier(state_t *s, tok_t k)
{
    lexer_t *x = &s->x;
    if (s->depth == 0 && s->parens == 0 && tok_is(x, k, "typedef"))
        s->in_typedef = 1;
    if (s->parens == 0 && (tok_is(x, k, "extern") || tok_is(x, k, "static")))
        s->in_extern = 1; /* a block-scope static shared array is at file scope in the translation */
    if ((tok_is(x, k, "shared") || tok_is(x, k, "strict") || tok_is(x, k, "relaxed")) &&
        keyword_as_identifier(s))
        copy(s, k.start, k.end);
    else if (tok_is(x, k, "shared") || tok_is(x, k, "strict") || tok_is(x, k, "relaxed"))
        qualifier_run(s, k);
    else if (s->depth == 0 && s->parens == 0 && !s->p->static_threads && x->pos >= s->scanned_to &&
             shared_typedef(s, k)) {
        /* `blk_t A[2 * THREADS];` with typedef shared [2] int blk_t */
        copy(s, k.start, k.end);
        scan_threads_dims(s);
    }
    else if (tok_is(x, k, "upc_forall")) {
        sb_puts(&s->out, "for");
        s->forall = 1;
        s->forall_semis = 0;
    } else if (tok_is(x, k, "upc_barrier") || tok_is(x, k, "upc_notify") || tok_is(x, k, "upc_wait"))
        sync_statement(s, k);
    else if (tok_is(x, k, "upc_fence"))
        sb_puts(&s->out, "mupc_fence(__FILE__, __LINE__)");
    else if (tok_is(x, k, "upc_localsizeof") || tok_is(x, k, "upc_blocksizeof") ||
             tok_is(x, k, "upc_elemsizeof")) {
        int kind = tok_is(x, k, "upc_localsizeof") ? SIZEOF_LOCAL
                   : tok_is(x, k, "upc_blocksizeof") ? SIZEOF_BLOCK : SIZEOF_ELEM;
        mark(&s->p->sizeofs, &s->p->nsizeofs, s->out.len, kind);
        sb_puts(&s->out, "sizeof");
        type_operand(s, 0);
        s->local_type = kind == SIZEOF_LOCAL && s->type_operand && !s->p->static_threads;
    } else if (s->local_type && tok_is(x, k, "mupc_threads")) {
        sb_puts(&s->out, "1"); /* see SIZEOF_LOCAL_THREADS */
        s->p->sizeofs[s->p->nsizeofs - 1].value = SIZEOF_LOCAL_THREADS;
    } else if (tok_is(x, k, "sizeof")) {
        copy(s, k.start, k.end);
        type_operand(s, 1);
    } else if (remembered_threads(s, k.start))
        sb_puts(&s->out, "1");
    else
        copy(s, k.start, k.end);
}

static void punctuation(state_t *s, tok_t k)
{
    lexer_t *x = &s->x;
    if (tok_is(x, k, ";") && s->depth == 0 && s->parens == 0)
        s->in_typedef = 0;
    if ((tok_is(x, k, ";") || tok_is(x, k, "{")) && s->parens == 0)
        s->in_extern = 0; /* the end of the declaration, or the body of an extern function */
    if (tok_is(x, k, "{") && s->depth < 255) {
        s->depth++;
        s->begun[s->depth] = 0;
        s->strict[s->depth] = s->strict[s->depth - 1];
    } else if (tok_is(x, k, "}") && s->depth > 0) {
        if (s->strict[s->depth] != s->strict[s->depth - 1])
            mark(&s->p->pragmas, &s->p->npragmas, s->out.len + 1, s->strict[s->depth - 1]);
        s->depth--;
    }
    if (tok_is(x, k, "("))
        s->parens++;
    else if (tok_is(x, k, ")")) {
        if (s->type_operand && s->parens == s->type_operand) {
            s->type_operand = 0;
            s->local_type = 0;
            s->parens--;
            sb_puts(&s->out, ") *)0)");
            return;
        }
        if (s->affinity && s->parens == s->affinity) {
            s->affinity = 0;
            s->parens--;
            sb_puts(&s->out, ")) ; else ");
            return;
        }
        s->parens--;
    }
    if (s->forall) {
        if (tok_is(x, k, "("))
            s->forall++;
        else if (tok_is(x, k, ")"))
            s->forall--;
        else if (tok_is(x, k, ";") && s->forall == 2 && ++s->forall_semis == 3) {
            forall_affinity(s);
            return;
        }
    }
    copy(s, k.start, k.end);
}

void prelex_init(prelex_t *p, int static_threads)
{
    *p = (prelex_t){0};
    p->static_threads = static_threads;
    mark(&p->pragmas, &p->npragmas, 0, 0); /* relaxed unless a pragma says otherwise */
    layout_index(p, BLOCK_NUMBER, "1", ACCESS_DEFAULT, 0);
}

char *prelex_run(prelex_t *p, const char *text, size_t len, const regions_t *r)
{
    state_t s = {.p = p, .x = {text, len, 0, 1}, .regions = r};
    sb_init(&s.out);
    tok_t k;
    while ((k = lex(&s.x)).kind != TOK_END) {
        if (k.kind == TOK_DIRECTIVE && !strncmp(text + k.start, "#pragma upc", 11)) {
            pragma_line(&s, k);
            continue;
        }
        if (!translated(&s, k.start) || k.kind == TOK_DIRECTIVE) {
            copy(&s, k.start, k.end);
            continue;
        }
        if (k.kind != TOK_SPACE)
            s.begun[s.depth] = 1;
        if (k.kind == TOK_ID)
            identifier(&s, k);
        else if (k.kind == TOK_PUNCT)
            punctuation(&s, k);
        else
            copy(&s, k.start, k.end);
    }
    free(s.threads_at);
    for (size_t i = 0; i < s.nshared_typedefs; i++)
        free(s.shared_typedefs[i]);
    free(s.shared_typedefs);
    return sb_take(&s.out);
}

const layout_t *prelex_layout(const prelex_t *p, unsigned k)
{
    if (k < LAYOUT_BASE || k - LAYOUT_BASE >= p->nlayouts)
        return NULL;
    return &p->layouts[k - LAYOUT_BASE];
}

int prelex_strict_at(const prelex_t *p, size_t offset)
{
    int strict = 0;
    for (size_t i = 0; i < p->npragmas && p->pragmas[i].offset <= offset; i++)
        strict = p->pragmas[i].value;
    return strict;
}

int prelex_sizeof_at(const prelex_t *p, size_t offset)
{
    for (size_t i = 0; i < p->nsizeofs; i++)
        if (p->sizeofs[i].offset == offset)
            return p->sizeofs[i].value;
    return 0;
}

int prelex_threads_dim(const prelex_t *p, const char *name)
{
    for (size_t i = 0; i < p->nthreads_dims; i++)
        if (!strcmp(p->threads_dims[i].name, name))
            return p->threads_dims[i].dim;
    return -1;
}
