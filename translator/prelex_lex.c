/* SPDX-License-Identifier: MIT */
/* prelex_lex.c -- the prelexer's lexer: tokens of the preprocessed text. */
#include "prelex_internal.h"
#include "prelex.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tok_t lex(lexer_t *x)
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
    } else if (isspace((unsigned char)c) || (c == '/' && p + 1 < n && t[p + 1] == '*')) {
        /* white space, and comments: the only ones left after clang -E
         * are the markers of macros.c */
        while (p < n && (isspace((unsigned char)t[p]) || (t[p] == '/' && p + 1 < n && t[p + 1] == '*'))) {
            if (t[p] != '/') {
                p++;
                continue;
            }
            const char *close = strstr(t + p + 2, "*/");
            p = close && (size_t)(close - t) + 2 <= n ? (size_t)(close - t) + 2 : n;
        }
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

int tok_is(const lexer_t *x, tok_t k, const char *s)
{
    size_t n = strlen(s);
    return k.end - k.start == n && !memcmp(x->text + k.start, s, n);
}

/* The next token that is not white space, without consuming it. */
tok_t peek(lexer_t *x)
{
    lexer_t copy = *x;
    tok_t k;
    do
        k = lex(&copy);
    while (k.kind == TOK_SPACE);
    return k;
}

/* Only the newlines of [start, end): what a removed stretch leaves behind. */
void add_newlines(strbuf_t *out, const char *text, size_t start, size_t end)
{
    for (size_t i = start; i < end; i++)
        if (text[i] == '\n')
            sb_add(out, "\n", 1);
}
