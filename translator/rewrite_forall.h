/* SPDX-License-Identifier: MIT */
/* rewrite_forall.h -- what the two files of the upc_forall translation
 * share: rewrite_forall_loop.c recognizes a canonical loop (its header,
 * what its body changes), rewrite_forall.c emits its owned iterations and
 * the privatized copy.  Only those two include it. */
#ifndef MUPC_XLATE_REWRITE_FORALL_H
#define MUPC_XLATE_REWRITE_FORALL_H

#include "rewrite_internal.h"

enum affinity_kind { AFF_INTEGER, AFF_ARRAY, AFF_POINTER };

/* What the header of a canonical upc_forall says. */
typedef struct canonical {
    CXCursor index;     /* the VarDecl of i */
    int declared;       /* i is declared in the init */
    CXCursor lo, hi;    /* expressions */
    int inclusive;      /* `<=` */
    CXType itype;
    enum affinity_kind kind;
    CXCursor object;    /* the array or pointer variable (not AFF_INTEGER) */
    CXType ptype;       /* the affinity's pointer type (not AFF_INTEGER) */
    char *block;        /* the layout's block size, C text */
} canonical_t;

/* The privatized copy of a body being generated: see forall_private. */
struct forall_priv {
    const canonical_t *loop;
    int n; /* the loop's temporaries' number */
    CXCursor body;
    CXCursor arrays[32];
    int narrays;
};


typedef struct scan {
    rewriter_t *w;
    CXCursor var;    /* the variable looked for */
    int modified;    /* assigned, incremented or address-taken */
    int calls;       /* the body calls a function */
    int stores;      /* the body stores to private memory other than its local variables */
    int unsafe_copy; /* a label, static or tag definition: not to be emitted twice */
} scan_t;


/* rewrite_forall_loop.c */
/* What the body does with local variable var (and to memory). */
scan_t scan(rewriter_t *w, CXCursor body, CXCursor var);
int is_signed_kind(CXType t);
/* The largest value of integer type t, as C text. */
const char *type_max(CXType t);
/* Whether d is a one-dimensional shared array variable. */
int shared_vector(rewriter_t *w, CXCursor d);
/* Whether d is a local pointer-to-shared variable the body leaves alone. */
int unchanged_pointer(rewriter_t *w, CXCursor d, CXCursor body);
/* Whether upc_forall loop (ks its header's parts, call the affinity's
 * marker, body its statement) is canonical; *l gets what its header says. */
int canonical(rewriter_t *w, CXCursor loop, kids_t ks, CXCursor call, CXCursor body, canonical_t *l);

#endif
