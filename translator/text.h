/* SPDX-License-Identifier: MIT */
/* text.h -- growable strings and a list of text edits, for the translator.
 * An edit replaces bytes [start, end) of a source text; edits are applied
 * outermost-first, so nested edits never clash; an insertion (start ==
 * end) goes before a replacement that starts at the same place. */
#ifndef MUPC_XLATE_TEXT_H
#define MUPC_XLATE_TEXT_H

#include <stdarg.h>
#include <stddef.h>

typedef struct strbuf {
    char *s;
    size_t len, cap;
} strbuf_t;

void sb_init(strbuf_t *b);
void sb_free(strbuf_t *b);
void sb_add(strbuf_t *b, const char *s, size_t n);
void sb_puts(strbuf_t *b, const char *s);
void sb_printf(strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string, owned by the caller; b is empty afterwards. */
char *sb_take(strbuf_t *b);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

typedef struct edit {
    size_t start, end;
    char *text;
    size_t seq; /* the order of edits_add: insertions at one place keep it */
} edit_t;

typedef struct edits {
    edit_t *v;
    size_t n, cap;
} edits_t;

void edits_add(edits_t *e, size_t start, size_t end, char *text); /* takes text */
/* The text with every edit applied; an edit nested in an earlier, wider
 * one is dropped (the wider one already contains its result). */
char *edits_apply(edits_t *e, const char *text, size_t len);
void edits_free(edits_t *e);

#endif
