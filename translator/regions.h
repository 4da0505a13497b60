/* SPDX-License-Identifier: MIT */
/* regions.h -- the preprocessed text split at its line markers.
 *
 * clang -E marks every change of file with `# LINE "FILE" FLAGS`.  Each
 * stretch of text between markers is a region: code of the user's own
 * files (translated and kept), of system headers (re-included in the output,
 * never expanded), of the translation-time prelude (dropped: the output
 * includes the runtime's real headers), or clang's built-in lines. */
#ifndef MUPC_XLATE_REGIONS_H
#define MUPC_XLATE_REGIONS_H

#include <stddef.h>

typedef enum { REGION_USER, REGION_SYSTEM, REGION_PRELUDE, REGION_BUILTIN } region_kind_t;

typedef struct region {
    size_t start, end;     /* the text after one marker, up to the next */
    size_t marker_start;   /* where that marker begins */
    const char *file;      /* interned in the regions_t */
    int line;              /* line number of the first line at start */
    region_kind_t kind;    /* of this file */
    int translated;        /* user code entered only through user code */
    int enters;            /* the marker enters a new file (flag 1) */
    int system_entry;      /* translated code includes a system header here */
    int prelude_entry;     /* translated code includes a prelude header here */
} region_t;

typedef struct regions {
    region_t *v;
    size_t n;
    char **files;
    size_t nfiles;
} regions_t;

/* Split text; files under prelude_dir are the prelude. */
void regions_build(regions_t *r, const char *text, size_t len, const char *prelude_dir);
void regions_free(regions_t *r);
/* The region holding offset, or NULL. */
const region_t *regions_at(const regions_t *r, size_t offset);
/* The user's file and line of offset; 0 when it is not translated code. */
int regions_where(const regions_t *r, const char *text, size_t offset, const char **file,
                  int *line, int *column);

#endif
