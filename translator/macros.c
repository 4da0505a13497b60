/* SPDX-License-Identifier: MIT */
/* macros.c -- the C compiler's own macros kept as invocations (macros.h). */
#define _GNU_SOURCE /* memmem */
#include "macros.h"
#include "regions.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum marker { NOT_MARKER, BEGIN, EXPANSION, END, ARG, ARG_END };

static int id_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Which marker the identifier s[0..n) is; *arg gets N of __mupc_aN_. */
static enum marker marker_of(const char *s, size_t n, int *arg)
{
    if (n < 10 || memcmp(s, "__mupc_", 7) || s[n - 1] != '_')
        return NOT_MARKER;
    if (n == 10 && !memcmp(s + 7, "mb", 2))
        return BEGIN;
    if (n == 10 && !memcmp(s + 7, "mx", 2))
        return EXPANSION;
    if (n == 10 && !memcmp(s + 7, "me", 2))
        return END;
    if (n == 10 && !memcmp(s + 7, "ae", 2))
        return ARG_END;
    if (s[7] != 'a' || !isdigit((unsigned char)s[8]))
        return NOT_MARKER;
    char *end;
    *arg = (int)strtol(s + 8, &end, 10);
    return end == s + n - 1 ? ARG : NOT_MARKER;
}

/* The end of the token at p: an identifier, a literal, or one byte. */
static size_t token_end(const char *s, size_t n, size_t p)
{
    if (id_char(s[p])) {
        while (p < n && id_char(s[p]))
            p++;
        return p;
    }
    if (s[p] == '"' || s[p] == '\'') {
        char q = s[p];
        for (p++; p < n && s[p] != q && s[p] != '\n'; p++)
            if (s[p] == '\\')
                p++;
        return p < n ? p + 1 : n;
    }
    return p + 1;
}

/* ---- the invocation copy: NAME ( a , b ) ---- */

static void split_invocation(const char *s, size_t n, macro_use_t *u)
{
    size_t p = 0;
    while (p < n && isspace((unsigned char)s[p]))
        p++;
    size_t name = p;
    while (p < n && id_char(s[p]))
        p++;
    u->name = xstrndup(s + name, p - name);
    u->args = NULL;
    u->nargs = 0;
    while (p < n && s[p] != '(')
        p++;
    if (p >= n) { /* an alias: no arguments, no parentheses */
        u->nargs = -1;
        return;
    }
    size_t start = ++p;
    for (int depth = 0; p < n; p = token_end(s, n, p)) {
        char c = s[p];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if ((c == ')' || c == ']' || c == '}') && depth > 0)
            depth--;
        else if ((c == ',' && depth == 0) || c == ')') {
            u->args = xrealloc(u->args, (size_t)(u->nargs + 1) * sizeof *u->args);
            u->args[u->nargs++] = xstrndup(s + start, p - start);
            start = p + 1;
            if (c == ')')
                break;
        }
    }
    if (u->nargs == 1 && !u->args[0][strspn(u->args[0], " \t")]) /* NAME() */
        free(u->args[0]), u->nargs = 0;
}

/* The first str in s[from..n), or n. */
static size_t find_str(const char *s, size_t n, size_t from, const char *str)
{
    const char *f = from < n ? memmem(s + from, n - from, str, strlen(str)) : NULL;
    return f ? (size_t)(f - s) : n;
}

/* by start; at one start, a whole expansion (arg -1) before an argument,
 * as it encloses it */
/* The close that matches an open ending at from, the same markers nested
 * between counted (a marker both in the text and around a translation
 * appears twice), or n. */
static size_t matching(const char *s, size_t n, size_t from, const char *open, const char *close)
{
    for (int depth = 0;;) {
        size_t o = find_str(s, n, from, open), c = find_str(s, n, from, close);
        if (c >= n)
            return n;
        if (o < c) {
            depth++;
            from = o + strlen(open);
        } else if (depth--) {
            from = c + strlen(close);
        } else
            return c;
    }
}

static int by_start(const void *a, const void *b)
{
    const macro_arg_t *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->arg > y->arg) - (x->arg < y->arg);
}

/* ---- taking the markers out ---- */

typedef struct frame {
    enum marker kind; /* BEGIN (in the copy), EXPANSION or ARG */
    size_t id, start;
    int arg;
} frame_t;

char *macro_marks_take(const char *text, size_t len, const regions_t *r, macro_uses_t *uses)
{
    strbuf_t out;
    sb_init(&out);
    frame_t *stack = NULL;
    size_t depth = 0, cap = 0, copying = 0; /* copying: frames in an invocation copy */
    size_t last = 0;
    for (size_t p = 0; p < len;) {
        size_t e = token_end(text, len, p);
        int arg = 0;
        enum marker m = id_char(text[p]) ? marker_of(text + p, e - p, &arg) : NOT_MARKER;
        if (m == NOT_MARKER) {
            p = e;
            continue;
        }
        if (!copying)
            sb_add(&out, text + last, p - last);
        last = e;
        const region_t *g = regions_at(r, p);
        int user = g && g->kind == REGION_USER, keep = user && !copying;
        if (depth == cap)
            stack = xrealloc(stack, (cap = cap * 2 + 16) * sizeof *stack);
        if (m == BEGIN) {
            stack[depth++] = (frame_t){BEGIN, 0, e, 0};
            copying++;
        } else if (m == EXPANSION && depth && stack[depth - 1].kind == BEGIN) {
            frame_t *f = &stack[depth - 1];
            copying--;
            f->kind = EXPANSION;
            f->id = uses->n;
            uses->v = xrealloc(uses->v, (uses->n + 1) * sizeof *uses->v);
            split_invocation(text + f->start, p - f->start, &uses->v[uses->n++]);
            if (user && !copying)
                sb_printf(&out, "/*@%zu[*/", f->id);
        } else if (m == ARG) {
            size_t id = 0;
            for (size_t k = depth; k-- > 0;)
                if (stack[k].kind == EXPANSION) {
                    id = stack[k].id;
                    break;
                }
            stack[depth++] = (frame_t){ARG, id, 0, arg};
            if (keep)
                sb_printf(&out, "/*@%zu.%d{*/", id, arg);
        } else if ((m == END || m == ARG_END) && depth) {
            frame_t f = stack[--depth];
            if (keep)
                sb_printf(&out, f.kind == ARG ? "/*}@%zu.%d*/" : "/*]@%zu*/", f.id, f.arg);
        }
        p = e;
    }
    sb_add(&out, text + last, len - last);
    free(stack);
    return sb_take(&out);
}

/* ---- the parameters' uses in the parsed text ---- */

/* [*start, *end) of text without white space, comments and enclosing
 * parentheses */
static void strip(const char *text, size_t *start, size_t *end)
{
    for (;;) {
        for (;;) {
            while (*start < *end && isspace((unsigned char)text[*start]))
                (*start)++;
            const char *close;
            if (*end - *start < 4 || memcmp(text + *start, "/*", 2) || !(close = strstr(text + *start + 2, "*/")) ||
                (size_t)(close - text) + 2 > *end)
                break;
            *start = (size_t)(close - text) + 2;
        }
        for (;;) {
            while (*end > *start && isspace((unsigned char)text[*end - 1]))
                (*end)--;
            if (*end - *start < 4 || memcmp(text + *end - 2, "*/", 2))
                break;
            size_t open = *end - 2;
            while (open > *start && memcmp(text + open, "/*", 2))
                open--;
            if (memcmp(text + open, "/*", 2))
                break;
            *end = open;
        }
        if (*end - *start < 2 || text[*start] != '(' || text[*end - 1] != ')')
            return;
        int depth = 0; /* the first ( must close at the end */
        for (size_t p = *start; p < *end; p = token_end(text, *end, p)) {
            depth += text[p] == '(';
            depth -= text[p] == ')';
            if (depth == 0 && p + 1 < *end)
                return;
        }
        (*start)++, (*end)--;
    }
}

void macro_args_collect(char **text, macro_uses_t *uses)
{
    if (!uses->n)
        return;
    const char *s = *text;
    size_t n = strlen(s), last = 0;
    strbuf_t out;
    sb_init(&out);
    size_t *open = NULL, nopen = 0;
    for (size_t p; (p = find_str(s, n, last, "/*")) < n;) {
        size_t end = find_str(s, n, p + 2, "*/");
        end = end < n ? end + 2 : n;
        size_t id;
        int arg = -1, whole = 0, is_open, is_close;
        char brace = 0;
        if (sscanf(s + p, "/*@%zu%c", &id, &brace) == 2 && brace == '[') /* an expansion: kept */
            is_open = whole = 1;
        else
            is_open = sscanf(s + p, "/*@%zu.%d%c", &id, &arg, &brace) == 3 && brace == '{';
        if (!is_open && sscanf(s + p, "/*]@%zu", &id) == 1)
            is_close = whole = 1;
        else
            is_close = !is_open && sscanf(s + p, "/*}@%zu.%d", &id, &arg) == 2;
        sb_add(&out, s + last, (is_open || is_close) && !whole ? p - last : end - last);
        last = end;
        if (is_open) {
            open = xrealloc(open, (nopen + 1) * sizeof *open);
            open[nopen++] = out.len;
        } else if (is_close && nopen) {
            macro_arg_t a = {open[--nopen], whole ? out.len - (end - p) : out.len, id, arg, 0};
            strip(out.s, &a.start, &a.end);
            if (id < uses->n) {
                uses->occ = xrealloc(uses->occ, (uses->nocc + 1) * sizeof *uses->occ);
                uses->occ[uses->nocc++] = a;
            }
        }
    }
    sb_add(&out, s + last, n - last);
    free(open);
    free(*text);
    *text = sb_take(&out);
    qsort(uses->occ, uses->nocc, sizeof *uses->occ, by_start);
}

void macro_args_shift(macro_uses_t *uses, size_t at, ptrdiff_t by)
{
    for (size_t i = 0; i < uses->nocc; i++) {
        macro_arg_t *a = &uses->occ[i];
        if (a->start >= at) /* an insertion there goes before it */
            a->start = (size_t)((ptrdiff_t)a->start + by);
        if (a->end > at)
            a->end = (size_t)((ptrdiff_t)a->end + by);
    }
}

macro_arg_t *macro_arg_at(macro_uses_t *uses, const char *text, size_t start, size_t end)
{
    if (!uses || !uses->nocc)
        return NULL;
    strip(text, &start, &end);
    size_t lo = 0, hi = uses->nocc;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (uses->occ[mid].start < start)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < uses->nocc && uses->occ[lo].start == start; lo++)
        if (uses->occ[lo].end == end && !uses->occ[lo].active)
            return &uses->occ[lo];
    return NULL;
}

char *macro_arg_wrap(const macro_arg_t *a, char *translated)
{
    char *s = a->arg < 0 ? xasprintf("/*@%zu{*/%s/*}@%zu*/", a->use, translated, a->use)
                         : xasprintf("/*@%zu.%d{*/%s/*}@%zu.%d*/", a->use, a->arg, translated, a->use, a->arg);
    free(translated);
    return s;
}

/* ---- writing the invocations back ---- */

static void restore_into(strbuf_t *out, const char *s, size_t n, const macro_uses_t *uses);

/* An argument as preprocessed, s[0..n): each marked expansion in it as
 * its invocation copy (itself resolved the same way), other markers gone. */
static void raw_argument(strbuf_t *out, const char *s, size_t n)
{
    size_t last = 0;
    int arg;
    for (size_t p = 0; p < n;) {
        size_t e = token_end(s, n, p);
        enum marker m = id_char(s[p]) ? marker_of(s + p, e - p, &arg) : NOT_MARKER;
        if (m == NOT_MARKER) {
            p = e;
            continue;
        }
        sb_add(out, s + last, p - last);
        last = p = e;
        if (m != BEGIN)
            continue; /* a parameter's marker */
        size_t copy_end = n, end = n; /* the copy ends at this mark's __mupc_mx_, the mark at its __mupc_me_ */
        for (size_t q = e, depth = 0; q < n; q = token_end(s, n, q)) {
            enum marker k = id_char(s[q]) ? marker_of(s + q, token_end(s, n, q) - q, &arg) : NOT_MARKER;
            if (k == BEGIN)
                depth++;
            else if (k == EXPANSION && !depth && copy_end == n)
                copy_end = q;
            else if (k == END && !depth--) {
                end = token_end(s, n, q);
                break;
            }
        }
        raw_argument(out, s + e, (copy_end < end ? copy_end : end) - e);
        last = p = end;
    }
    sb_add(out, s + last, n - last);
}

/* s with runs of white space as one blank, trimmed. */
static char *normalized(const char *s)
{
    strbuf_t b;
    sb_init(&b);
    for (; *s; s++)
        if (!isspace((unsigned char)*s))
            sb_add(&b, s, 1);
        else if (b.len && !isspace((unsigned char)s[1]) && s[1])
            sb_add(&b, " ", 1);
    return b.s ? sb_take(&b) : xstrdup("");
}

/* Argument i of use id, from its wrapped occurrences in the translated
 * expansion s[0..n): one that translation changed (an occurrence in an
 * unevaluated operand, such as clang's <tgmath.h> __typeof__, may be left
 * as it was), else the argument as preprocessed. */
static char *argument(const char *s, size_t n, size_t id, int i, const macro_uses_t *uses, int *translated)
{
    strbuf_t raw;
    sb_init(&raw);
    const macro_use_t *u = &uses->v[id];
    if (i < u->nargs)
        raw_argument(&raw, u->args[i], strlen(u->args[i]));
    char *original = raw.s ? sb_take(&raw) : xstrdup(""), *plain = normalized(original), *best = NULL;
    char *open = xasprintf("/*@%zu.%d{*/", id, i), *close = xasprintf("/*}@%zu.%d*/", id, i);
    for (size_t at = find_str(s, n, 0, open), to; at < n; at = find_str(s, n, to + strlen(close), open)) {
        size_t from = at + strlen(open);
        if ((to = matching(s, n, from, open, close)) >= n)
            break;
        strbuf_t b;
        sb_init(&b);
        restore_into(&b, s + from, to - from, uses);
        char *text = b.s ? sb_take(&b) : xstrdup(""), *norm = normalized(text);
        int changed = strcmp(norm, plain) != 0;
        free(norm);
        if (!best || changed) {
            free(best);
            best = text;
            if (changed)
                break;
        } else
            free(text);
    }
    free(open);
    free(close);
    free(plain);
    *translated = best != NULL;
    if (!best)
        return original;
    free(original);
    return best;
}

/* Whether s holds one of UPC's type qualifiers as a word. */
static int has_upc_qualifier(const char *s)
{
    static const char *const words[] = {"shared", "strict", "relaxed"};
    for (size_t n = strlen(s), p = 0; p < n; p = token_end(s, n, p))
        for (size_t k = 0; k < sizeof words / sizeof *words; k++)
            if (id_char(s[p]) && token_end(s, n, p) - p == strlen(words[k]) && !memcmp(s + p, words[k], strlen(words[k])))
                return 1;
    return 0;
}

/* use id's invocation, its arguments from the translated expansion
 * s[0..n); 0 when an argument the translation never generated names a
 * UPC type (`va_arg(ap, shared int *)`: the translated expansion, which
 * spells it as C, stays). */
static int invocation(strbuf_t *out, const char *s, size_t n, size_t id, const macro_uses_t *uses)
{
    const macro_use_t *u = &uses->v[id];
    strbuf_t b;
    sb_init(&b);
    sb_printf(&b, u->nargs < 0 ? "%s" : "%s(", u->name);
    for (int i = 0; i < u->nargs; i++) {
        int translated;
        char *a = argument(s, n, id, i, uses, &translated);
        int upc = !translated && has_upc_qualifier(a);
        sb_printf(&b, "%s%s", i ? ", " : "", a);
        free(a);
        if (upc) {
            sb_free(&b);
            return 0;
        }
    }
    sb_puts(&b, u->nargs < 0 ? "" : ")");
    sb_add(out, b.s, b.len);
    sb_free(&b);
    return 1;
}

/* s[0..n) with each marked expansion as its invocation and the markers
 * gone.  An expansion is marked in the text, `[`, and again around its
 * translation, `{`, when the rewriter generated it: one pair may then
 * enclose the other (the inner one is the expansion's own text, and is
 * used), or have lost a marker (the pair is dropped).  An argument is
 * marked only around its translation (one never translated is as the
 * program wrote it). */
static void restore_into(strbuf_t *out, const char *s, size_t n, const macro_uses_t *uses)
{
    size_t last = 0;
    for (size_t p; (p = find_str(s, n, last, "/*")) < n;) {
        size_t end = find_str(s, n, p + 2, "*/");
        end = end < n ? end + 2 : n;
        size_t id;
        char b = 0;
        int opens = sscanf(s + p, "/*@%zu%c", &id, &b) == 2 && (b == '[' || b == '{') && id < uses->n;
        int ours = s[p + 3] != '*' && (s[p + 2] == '@' || ((s[p + 2] == '}' || s[p + 2] == ']') && s[p + 3] == '@'));
        sb_add(out, s + last, (ours ? p : end) - last);
        last = end;
        if (!opens)
            continue; /* not ours, or a marker dropped */
        char *open = xasprintf("/*@%zu%c*/", id, b), *close = xasprintf("/*%c@%zu*/", b == '[' ? ']' : '}', id);
        char *other = xasprintf("/*@%zu%c*/", id, b == '[' ? '{' : '[');
        size_t to = matching(s, n, end, open, close);
        if (to < n && find_str(s, to, end, other) >= to) {
            size_t mark = out->len;
            if (out->len && id_char(out->s[out->len - 1])) /* never glued to a word */
                sb_puts(out, " ");
            if (invocation(out, s + end, to - end, id, uses)) {
                last = to + strlen(close);
                if (last < n && id_char(s[last]))
                    sb_puts(out, " ");
            } else
                out->len = mark;
        }
        free(open);
        free(close);
        free(other);
    }
    sb_add(out, s + last, n - last);
}

char *macro_marks_restore(char *text, const macro_uses_t *uses)
{
    if (!uses->n)
        return text;
    strbuf_t out;
    sb_init(&out);
    restore_into(&out, text, strlen(text), uses);
    free(text);
    return sb_take(&out);
}

void macro_uses_free(macro_uses_t *uses)
{
    for (size_t i = 0; i < uses->n; i++) {
        free(uses->v[i].name);
        for (int k = 0; k < uses->v[i].nargs; k++)
            free(uses->v[i].args[k]);
        free(uses->v[i].args);
    }
    free(uses->v);
    free(uses->occ);
    *uses = (macro_uses_t){0};
}
