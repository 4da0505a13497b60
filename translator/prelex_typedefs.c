/* SPDX-License-Identifier: MIT */
/* prelex_typedefs.c -- what the prelexer knows of typedef names: for each
 * typedef the translated code declares (at file or block scope), whether
 * its type is shared-qualified at the top level and with which layout.
 *
 * Why the prelexer needs it: `shared T x;` with T a typedef qualifies T's
 * type, so its meaning depends on T.  When T is not shared (`typedef
 * shared int *sip;`, a pointer-to-shared, or any private type) the
 * qualifier is written as always; when T is already shared the two
 * qualifier lists merge (UPC 1.3 §6.5.1.1: one block size, given directly
 * or through typedefs; C99 §6.7.3: a repeated qualifier is allowed), and
 * a strictness that changes T's is written as T's layout with the new
 * access on `__typeof_unqual__(T)` (clang would refuse a second address
 * space on T).  The rule this module keeps: a qualifier is never dropped;
 * it is placed, merged, or refused with a message.  A typedef the
 * prelexer cannot see through (from a system header, or through
 * `__typeof__`) gets the qualifier as written, and a conflict is then
 * clang's "multiple address spaces" error, reworded by parse.c.
 *
 * The analysis reads a typedef declaration once it is complete, with the
 * layout each of its qualifier runs was given (recorded by qualifier_run),
 * and follows the declarator grammar of C99 §6.7.5 to the type the name
 * gets: an array's qualifiers are its elements' (C99 §6.7.3p8), a
 * pointer's those after its '*', a function is never shared. */
#include "prelex_internal.h"
#include "prelex.h"
#include "text.h"

#include <stdlib.h>
#include <string.h>

/* ---- the table ---- */

void typedefs_init(state_t *s)
{
    /* the prelude's opaque shared types (translator/prelude/mupc_xlate.h:
     * __MUPC_SHARED is layout 0) */
    static const char *const prelude[] = {"upc_lock_t", "upc_atomicdomain_t"};
    for (size_t i = 0; i < sizeof prelude / sizeof *prelude; i++)
        typedef_add(s, xstrdup(prelude[i]), 0, -1, 0);
}

void typedefs_free(state_t *s)
{
    for (size_t i = 0; i < s->ntypedefs; i++)
        free(s->typedefs[i].name);
    free(s->typedefs);
    free(s->runs);
}

void typedef_add(state_t *s, char *name, int layout, int depth, int cv)
{
    s->typedefs = xrealloc(s->typedefs, (s->ntypedefs + 1) * sizeof *s->typedefs);
    s->typedefs[s->ntypedefs++] = (typedef_info_t){name, depth, layout, cv};
}

/* The innermost typedef visible under the name at k, or NULL. */
const typedef_info_t *typedef_named(const state_t *s, const lexer_t *x, tok_t k)
{
    if (k.kind != TOK_ID)
        return NULL;
    for (size_t i = s->ntypedefs; i-- > 0;)
        if (tok_is(x, k, s->typedefs[i].name))
            return &s->typedefs[i];
    return NULL;
}

/* Leaving a block: its typedefs go out of scope. */
void typedefs_leave_block(state_t *s, int depth)
{
    while (s->ntypedefs > 0 && s->typedefs[s->ntypedefs - 1].depth > depth)
        free(s->typedefs[--s->ntypedefs].name);
}

void typedef_begin(state_t *s, tok_t k)
{
    s->typedef_from = k.start + 1;
    s->typedef_depth = s->depth;
    s->nruns = 0;
}

void run_given(state_t *s, size_t offset, int layout)
{
    if (!s->typedef_from)
        return;
    s->runs = xrealloc(s->runs, (s->nruns + 1) * sizeof *s->runs);
    s->runs[s->nruns++] = (run_mark_t){offset, layout};
}

/* ---- reading a typedef declaration ---- */

typedef struct reader {
    const state_t *s;
    lexer_t x;     /* over the input text, for tok_is */
    tok_t *t;      /* the declaration's tokens, no white space */
    size_t n, i;
} reader_t;

typedef struct top {
    int layout; /* the top-level layout, or -1 */
    int cv;
} top_t;

static int at(const reader_t *r, const char *word) { return r->i < r->n && tok_is(&r->x, r->t[r->i], word); }

static int at_any(const reader_t *r, const char *const *words)
{
    for (; *words; words++)
        if (at(r, *words))
            return 1;
    return 0;
}

/* Past a parenthesized or bracketed group opening at the current token. */
static void skip_group(reader_t *r)
{
    const char *open = at(r, "(") ? "(" : at(r, "[") ? "[" : "{";
    const char *close = *open == '(' ? ")" : *open == '[' ? "]" : "}";
    int level = 0;
    do {
        level += at(r, open) ? 1 : at(r, close) ? -1 : 0;
        r->i++;
    } while (r->i < r->n && level > 0);
}

static const char *const cv_words[] = {"const", "__const", "__const__", "volatile", "__volatile",
                                       "__volatile__", NULL};
static const char *const ignored_words[] = {"typedef", "extern", "static", "inline", "__inline", "__inline__",
                                            "register", "auto", "_Thread_local", "__thread",
                                            "__extension__", "restrict", "__restrict", "__restrict__",
                                            "_Noreturn", "_Nullable", "_Nonnull", "_Null_unspecified",
                                            NULL};
static const char *const with_group[] = {"__attribute__", "__attribute", "__declspec", "_Alignas",
                                         "alignas", "__asm__", "__asm", "asm", NULL};
static const char *const type_specifiers[] = {"void", "char", "short", "int", "long", "float", "double",
                                              "signed", "__signed", "__signed__", "unsigned", "_Bool",
                                              "bool", "_Complex", "__complex__", "_Imaginary", "__int128",
                                              "_Float128", "__float128", NULL};

static int cv_of(const reader_t *r)
{
    return at(r, "const") || at(r, "__const") || at(r, "__const__") ? CV_CONST : CV_VOLATILE;
}

/* A qualifier run starting here (as the main pass read it): its layout,
 * and the reader past it. */
static int run_here(reader_t *r)
{
    size_t offset = r->t[r->i].start;
    int layout = -1;
    for (size_t k = 0; k < r->s->nruns; k++)
        if (r->s->runs[k].offset == offset)
            layout = r->s->runs[k].layout;
    while (at(r, "shared") || at(r, "strict") || at(r, "relaxed")) {
        int shared = at(r, "shared");
        r->i++;
        if (shared && at(r, "["))
            skip_group(r);
    }
    return layout;
}

/* Qualifiers after a '*' (or in the declaration specifiers: then also
 * storage classes and attributes); returns 0 at the first other token. */
static int qualifier(reader_t *r, top_t *q)
{
    if (at_any(r, cv_words)) {
        q->cv |= cv_of(r);
        r->i++;
    } else if (at_any(r, ignored_words)) {
        r->i++;
    } else if (at_any(r, with_group)) {
        r->i++;
        if (at(r, "("))
            skip_group(r);
    } else if (at(r, "shared") || at(r, "strict") || at(r, "relaxed")) {
        int layout = run_here(r);
        if (layout >= 0)
            q->layout = layout;
    } else {
        return 0;
    }
    return 1;
}

/* The declaration specifiers: the qualifiers of the base type. */
static top_t specifiers(reader_t *r)
{
    top_t q = {-1, 0};
    int type_seen = 0, run_layout = -1, name_layout = -1;
    for (;;) {
        top_t before = q;
        if (qualifier(r, &q)) {
            if (q.layout != before.layout)
                run_layout = q.layout;
        } else if (at(r, "struct") || at(r, "union") || at(r, "enum")) {
            type_seen = 1;
            r->i++;
            while (at_any(r, with_group))
                r->i++, skip_group(r);
            if (r->i < r->n && r->t[r->i].kind == TOK_ID)
                r->i++; /* the tag */
            if (at(r, "{"))
                skip_group(r);
        } else if (at(r, "__typeof__") || at(r, "__typeof") || at(r, "typeof") ||
                   at(r, "__typeof_unqual__") || at(r, "typeof_unqual") || at(r, "_Atomic")) {
            type_seen = 1;
            r->i++;
            if (at(r, "("))
                skip_group(r);
        } else if (at_any(r, type_specifiers)) {
            type_seen = 1;
            r->i++;
        } else if (!type_seen && r->i < r->n && r->t[r->i].kind == TOK_ID) {
            /* the first identifier before any type specifier names a type */
            const typedef_info_t *t = typedef_named(r->s, &r->x, r->t[r->i]);
            if (t) {
                name_layout = t->layout;
                q.cv |= t->cv;
            }
            type_seen = 1;
            r->i++;
        } else {
            break;
        }
    }
    /* a run's layout already holds a typedef's it merged with */
    q.layout = run_layout >= 0 ? run_layout : name_layout;
    return q;
}

/* One declarator (C99 §6.7.5) over a base type whose top-level
 * qualifiers are outer: the name it declares (or none) and its type's
 * top-level qualifiers. */
static top_t declarator(reader_t *r, top_t outer, tok_t *name)
{
    top_t here = outer;
    while (at(r, "*") || at(r, "^")) { /* the last pointer's qualifiers are the type's */
        r->i++;
        here = (top_t){-1, 0};
        while (qualifier(r, &here))
            ;
    }
    size_t inner = 0, inner_end = 0;
    if (at(r, "(")) { /* a typedef declares a name: '(' here opens a declarator */
        inner = r->i + 1;
        skip_group(r);
        inner_end = r->i - 1;
    } else if (r->i < r->n && r->t[r->i].kind == TOK_ID) {
        *name = r->t[r->i++];
    }
    while (at_any(r, with_group))
        r->i++, skip_group(r);
    /* an array is transparent (its qualifiers are its elements'), a
     * function type is never qualified */
    if (at(r, "("))
        here = (top_t){-1, 0};
    while (at(r, "[") || at(r, "("))
        skip_group(r);
    if (inner) {
        reader_t in = {r->s, r->x, r->t, inner_end, inner};
        return declarator(&in, here, name);
    }
    return here;
}

/* The typedef declaration just read, [from, to) of the input, ends: each
 * name it declares enters the table. */
void typedef_end(state_t *s, size_t to)
{
    size_t from = s->typedef_from - 1;
    s->typedef_from = 0;
    reader_t r = {s, s->x, NULL, 0, 0};
    lexer_t x = {s->x.text, to, from, 0};
    tok_t k;
    while ((k = lex(&x)).kind != TOK_END)
        if (k.kind != TOK_SPACE && k.kind != TOK_DIRECTIVE) {
            r.t = xrealloc(r.t, (r.n + 1) * sizeof *r.t);
            r.t[r.n++] = k;
        }
    top_t base = specifiers(&r);
    while (r.i < r.n) {
        tok_t name = {TOK_END, 0, 0};
        top_t q = declarator(&r, base, &name);
        if (name.kind == TOK_ID)
            typedef_add(s, xstrndup(s->x.text + name.start, name.end - name.start), q.layout, s->depth,
                        q.cv);
        while (r.i < r.n && !at(&r, ","))
            r.i++; /* what the declarator grammar above does not know */
        r.i++;
    }
    free(r.t);
    s->nruns = 0;
}
