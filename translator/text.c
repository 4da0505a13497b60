/* SPDX-License-Identifier: MIT */
/* text.c -- growable strings and text edits (see text.h). */
#include "text.h"

#include <ctype.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "mupc-translate: out of memory\n");
        exit(1);
    }
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "mupc-translate: out of memory\n");
        exit(1);
    }
    return p;
}

char *xstrndup(const char *s, size_t n)
{
    char *d = xmalloc(n + 1);
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

void sb_init(strbuf_t *b) { *b = (strbuf_t){NULL, 0, 0}; }

void sb_free(strbuf_t *b)
{
    free(b->s);
    sb_init(b);
}

void sb_add(strbuf_t *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = 2 * (b->len + n + 1) + 64;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void sb_puts(strbuf_t *b, const char *s) { sb_add(b, s, strlen(s)); }

static void sb_vprintf(strbuf_t *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    char *tmp = xmalloc((size_t)n + 1);
    vsnprintf(tmp, (size_t)n + 1, fmt, ap);
    sb_add(b, tmp, (size_t)n);
    free(tmp);
}

void sb_printf(strbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(b, fmt, ap);
    va_end(ap);
}

char *sb_take(strbuf_t *b)
{
    char *s = b->s ? b->s : xstrdup("");
    sb_init(b);
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    strbuf_t b;
    sb_init(&b);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&b, fmt, ap);
    va_end(ap);
    return sb_take(&b);
}

void edits_add(edits_t *e, size_t start, size_t end, char *text)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 64;
        e->v = xrealloc(e->v, e->cap * sizeof *e->v);
    }
    e->v[e->n] = (edit_t){start, end, text, e->n};
    e->n++;
}

static int by_start_then_widest(const void *a, const void *b)
{
    const edit_t *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    int xi = x->end == x->start, yi = y->end == y->start; /* insertions go first */
    if (xi != yi)
        return xi ? -1 : 1;
    if (x->end != y->end)
        return x->end > y->end ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq; /* qsort is not stable */
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '$'; }

/* Append n bytes of s to out, apart from what out ends with when both
 * sides are a word's characters: a replacement never glues two tokens
 * into one (`return(NULL)` -> `return MUPC_NULL_PTR`, not
 * `returnMUPC_NULL_PTR`).  contiguous: s continues the original text
 * out ends with (then the two were one token, or apart already). */
static void add_apart(strbuf_t *out, const char *s, size_t n, int contiguous)
{
    if (n && !contiguous && out->len && word_char(out->s[out->len - 1]) && word_char(s[0]))
        sb_add(out, " ", 1);
    sb_add(out, s, n);
}

char *edits_apply(edits_t *e, const char *text, size_t len)
{
    if (e->n) /* qsort's array must not be null, even when empty */
        qsort(e->v, e->n, sizeof *e->v, by_start_then_widest);
    strbuf_t out;
    sb_init(&out);
    size_t pos = 0;
    int original = 1; /* out ends with the original text up to pos */
    for (size_t i = 0; i < e->n; i++) {
        const edit_t *d = &e->v[i];
        if (d->start < pos)
            continue; /* inside an edit already applied */
        if (d->start > pos)
            add_apart(&out, text + pos, d->start - pos, original), original = 1;
        if (*d->text)
            add_apart(&out, d->text, strlen(d->text), 0), original = 0;
        original = original && d->end == d->start;
        pos = d->end;
    }
    add_apart(&out, text + pos, len - pos, original);
    return sb_take(&out);
}

void edits_free(edits_t *e)
{
    for (size_t i = 0; i < e->n; i++)
        free(e->v[i].text);
    free(e->v);
    *e = (edits_t){NULL, 0, 0};
}
