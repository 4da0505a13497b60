/* SPDX-License-Identifier: MIT */
/* prelex.c -- the token pass from UPC to parseable C (see prelex.h): its
 * state, statements (upc_barrier, upc_forall, pragmas), identifiers,
 * punctuation and the prelex_* entry points.  The lexer is in
 * prelex_lex.c, the declaration scans in prelex_scan.c; the three share
 * prelex_internal.h. */
#include "prelex_internal.h"
#include "prelex.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether the word starting a parenthesized operand makes it a type name
 * (typedef names are not told apart: they are taken as expressions). */
static const char *const type_words[] = {"shared", "strict", "relaxed", "void", "char", "short", "int",
                                         "long", "float", "double", "signed", "unsigned", "_Bool",
                                         "struct", "union", "enum", "const", "volatile", NULL};

int starts_type_name(const lexer_t *x, tok_t k)
{
    for (int i = 0; type_words[i]; i++)
        if (tok_is(x, k, type_words[i]))
            return 1;
    return 0;
}

int starts_type_name_word(const char *w)
{
    for (int i = 0; type_words[i]; i++)
        if (!strcmp(w, type_words[i]))
            return 1;
    return 0;
}

void error_at(state_t *s, size_t offset, char *message)
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

unsigned layout_index(prelex_t *p, block_kind_t kind, const char *block, access_t access,
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
    p->layouts[p->nlayouts] = (layout_t){kind, xstrdup(kind == BLOCK_NUMBER ? block : ""), NULL, NULL, 0, access,
                                         offset};
    return (unsigned)p->nlayouts++;
}

/* Copy the text of [start, end) raw: for stretches the pass leaves alone. */
static void copy(state_t *s, size_t start, size_t end) { sb_add(&s->out, s->x.text + start, end - start); }

/* The text of a bracketed group starting at the '[' token open; returns the
 * offset after the matching ']'. */
size_t bracket_group(state_t *s, tok_t open, size_t *inner_start, size_t *inner_end)
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

/* A type name in parentheses after a sizeof or upc_*sizeof just written
 * (starting with a type keyword or a typedef name the translated code
 * declared; `sizeof(x)` with x an object is left alone): it
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
    tok_t first = peek(&ahead);
    if (!starts_type_name(x, first) && !typedef_named(s, x, first))
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
    if (s->parens < 256)
        s->type_group[s->parens] = 1; /* `sizeof(int *shared)`: a qualifier before ')' */
}

/* Whether token k opens a parenthesized group (its '(' or the sizeof
 * word before it): a qualifier right after it is alone in the group,
 * `(shared)`, an identifier. */
static int opens_group(const lexer_t *x, tok_t k)
{
    return tok_is(x, k, "(") || tok_is(x, k, "sizeof") || tok_is(x, k, "upc_localsizeof") ||
           tok_is(x, k, "upc_blocksizeof") || tok_is(x, k, "upc_elemsizeof");
}

/* `shared`, `strict` or `relaxed` used as an ordinary identifier, as C
 * code included into a UPC program may (a parameter `struct state
 * *shared,`, a member `s.shared`): a qualifier is always followed by more
 * of a declaration, never by one of these, and never follows . or ->. */
static int keyword_as_identifier(const state_t *s)
{
    lexer_t ahead = s->x;
    tok_t n = peek(&ahead);
    /* at the end of a sizeof's type name, after a type's name, it
     * qualifies that type: `upc_blocksizeof(T shared)` (a parameter
     * `int shared)` is C's identifier) */
    const lexer_t *x = &s->x;
    if (s->type_operand && tok_is(x, n, ")") && s->last.kind == TOK_ID && !tok_is(x, s->last, "struct") &&
        !tok_is(x, s->last, "union") && !tok_is(x, s->last, "enum") &&
        (starts_type_name(x, s->last) || typedef_named(s, x, s->last)))
        return 0;
    /* and at the end of a cast's type name: `(shared T *shared) p` (C
     * ignores a cast type's qualifiers; a parameter `T *shared)` is C's
     * identifier) */
    if (tok_is(x, n, ")") && s->parens > 0 && s->parens < 256 && s->type_group[s->parens] &&
        !opens_group(x, s->last))
        return 0;
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
    if (s->parens == 0 && tok_is(x, k, "typedef"))
        typedef_begin(s, k);
    if (s->parens == 0 && (tok_is(x, k, "extern") || tok_is(x, k, "static")))
        s->in_extern = 1; /* a block-scope static shared array is at file scope in the translation */
    if ((tok_is(x, k, "shared") || tok_is(x, k, "strict") || tok_is(x, k, "relaxed")) &&
        keyword_as_identifier(s))
        copy(s, k.start, k.end);
    else if (tok_is(x, k, "shared") || tok_is(x, k, "strict") || tok_is(x, k, "relaxed"))
        qualifier_run(s, k);
    else if (s->depth == 0 && s->parens == 0 && !s->p->static_threads && x->pos >= s->scanned_to &&
             typedef_named(s, x, k) && typedef_named(s, x, k)->layout >= 0) {
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

/* The '(' just read opens a type name (a cast's, or a compound
 * literal's): not a call or a parameter list (after a name, ')' or ']'),
 * and a type's word, a UPC qualifier or a typedef name comes first. */
static int opens_type_name(const state_t *s)
{
    const lexer_t *x = &s->x;
    tok_t l = s->last;
    int after_name = l.kind == TOK_ID && !tok_is(x, l, "return") && !tok_is(x, l, "case");
    if (after_name || tok_is(x, l, ")") || tok_is(x, l, "]"))
        return 0;
    lexer_t ahead = *x;
    tok_t first = peek(&ahead);
    return starts_type_name(x, first) || typedef_named(s, x, first);
}

static void punctuation(state_t *s, tok_t k);

/* The tokens from the lexer's position up to offset end (a block size
 * inside `shared [...]`) through the pass, into a text of their own: UPC
 * in a block size (`shared [sizeof(shared void *)]`, a macro's
 * expansion) becomes C for clang too.  No declaration scan runs inside. */
char *prelex_group(state_t *s, size_t end, marked_t **sizeofs, size_t *nsizeofs)
{
    size_t marks = s->p->nsizeofs; /* those made inside are the group's */
    size_t just_named = s->just_named; /* the outer run's, not for runs inside */
    tok_t last = s->last;
    s->just_named = 0;
    strbuf_t outer = s->out;
    size_t len = s->x.len;
    int nested = s->in_group;
    sb_init(&s->out);
    s->x.len = end;
    s->in_group = 1;
    tok_t k;
    while ((k = lex(&s->x)).kind != TOK_END) {
        if (k.kind == TOK_ID)
            identifier(s, k);
        else if (k.kind == TOK_PUNCT)
            punctuation(s, k);
        else
            copy(s, k.start, k.end);
        if (k.kind != TOK_SPACE)
            s->last = k;
    }
    s->x.len = len;
    s->in_group = nested;
    s->just_named = just_named;
    s->last = last;
    *nsizeofs = s->p->nsizeofs - marks;
    *sizeofs = xmalloc((*nsizeofs + 1) * sizeof **sizeofs);
    if (*nsizeofs) /* none yet: the table may be NULL, which memcpy may not take */
        memcpy(*sizeofs, s->p->sizeofs + marks, *nsizeofs * sizeof **sizeofs);
    s->p->nsizeofs = marks;
    char *text = sb_take(&s->out);
    s->out = outer;
    return text;
}

static void punctuation(state_t *s, tok_t k)
{
    lexer_t *x = &s->x;
    if (tok_is(x, k, ";") && s->depth == 0 && s->parens == 0)
        s->in_typedef = 0;
    if (tok_is(x, k, ";") && s->typedef_from && s->depth == s->typedef_depth && s->parens == 0)
        typedef_end(s, k.start);
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
        typedefs_leave_block(s, s->depth);
        if (s->typedef_from && s->depth < s->typedef_depth)
            s->typedef_from = 0; /* not a declaration after all */
    }
    if (tok_is(x, k, "(")) {
        s->parens++;
        if (s->parens < 256)
            s->type_group[s->parens] = opens_type_name(s);
    } else if (tok_is(x, k, ")")) {
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

/* A name the C implementation's headers test: reserved to it (C99
 * §7.1.3: an underscore and a capital letter, or two underscores: the
 * feature test macros _GNU_SOURCE, _POSIX_C_SOURCE, _FILE_OFFSET_BITS,
 * __STDC_FORMAT_MACROS ...), or NDEBUG (<assert.h>). */
static int feature_macro(const char *name, size_t n)
{
    if (n == 6 && !memcmp(name, "NDEBUG", 6))
        return 1;
    return n >= 2 && name[0] == '_' && (isupper((unsigned char)name[1]) || name[1] == '_');
}

/* Whether the program included a system header before offset: a feature
 * macro defined after it did not change that header (`#include <stdio.h>`
 * then `#define _POSIX_C_SOURCE 200809L`), and written first it would. */
static int system_header_before(const regions_t *r, size_t offset)
{
    for (size_t i = 0; i < r->n && r->v[i].start <= offset; i++)
        if (r->v[i].system_entry)
            return 1;
    return 0;
}

/* A #define or #undef line (clang -E -dD keeps them in place): the text
 * around it is expanded already, so it goes (libclang and the C compiler
 * would expand the expansion again); one of the program's own for a
 * feature macro, before the program's first system header, is kept aside
 * for the output's first lines, where the system headers it re-includes
 * see it. */
static int macro_line(state_t *s, tok_t k, strbuf_t *features)
{
    const char *t = s->x.text + k.start;
    size_t n = k.end - k.start, i = 1;
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
        i++;
    int define = n - i >= 6 && !memcmp(t + i, "define", 6), undef = n - i >= 5 && !memcmp(t + i, "undef", 5);
    if (!define && !undef)
        return 0;
    i += define ? 6 : 5;
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
        i++;
    size_t name = i;
    while (i < n && (isalnum((unsigned char)t[i]) || t[i] == '_'))
        i++;
    const region_t *g = regions_at(s->regions, k.start);
    if (g && g->kind == REGION_USER && feature_macro(t + name, i - name) &&
        !system_header_before(s->regions, k.start)) {
        sb_add(features, t, n);
        sb_puts(features, "\n");
    }
    return 1;
}

/* After token k, written at `at` of the output: whether the tokens just
 * written name a typedef of a shared type, which a qualifier run next
 * (`T shared x`, `T const strict x`) qualifies again. */
static void note_typedef_name(state_t *s, tok_t k, size_t at)
{
    if (k.kind == TOK_SPACE || tok_is(&s->x, k, "const") || tok_is(&s->x, k, "volatile"))
        return;
    const typedef_info_t *t = typedef_named(s, &s->x, k);
    s->just_named = t && t->layout >= 0 ? (size_t)(t - s->typedefs) + 1 : 0;
    s->just_named_at = at;
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
    typedefs_init(&s);
    tok_t k;
    strbuf_t features;
    sb_init(&features);
    while ((k = lex(&s.x)).kind != TOK_END) {
        if (k.kind == TOK_DIRECTIVE && macro_line(&s, k, &features))
            continue;
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
        size_t written_at = s.out.len;
        if (k.kind == TOK_ID)
            identifier(&s, k);
        else if (k.kind == TOK_PUNCT)
            punctuation(&s, k);
        else
            copy(&s, k.start, k.end);
        note_typedef_name(&s, k, written_at);
        if (k.kind != TOK_SPACE)
            s.last = k;
    }
    free(s.threads_at);
    typedefs_free(&s);
    free(p->feature_macros);
    p->feature_macros = sb_take(&features);
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
