/* SPDX-License-Identifier: MIT */
/* tag_definitions.upc -- a declaration of shared data that also defines
 * its structure, union or enumeration type (UPC 1.3 §6.5.1.1 makes shared a
 * type qualifier; C99 §6.7.2.3 declares the tag in the enclosing scope):
 * named and unnamed structures, several declarators, a blocked union array,
 * an enumeration whose constants are used after it, a private
 * pointer-to-shared to a self-referencing structure, a typedef of an unnamed
 * shared structure, members of unnamed types and a C11 anonymous union in a
 * shared structure, a function returning a
 * pointer-to-shared to a structure it defines, and the same at block scope.
 * Each defined type is usable afterwards as an ordinary C type. */
#include <upc.h>
#include <stdio.h>

#define CHECK(cond, what)                                                                    \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            errors++;                                                                        \
            printf("Error: tag_definitions: %s (thread %d, %s:%d)\n", what, MYTHREAD, __FILE__, \
                   __LINE__);                                                                \
        }                                                                                    \
    } while (0)

shared struct point { int x, y; } origin, points[THREADS];
shared [2] union word { int i; float f; } words[2 * THREADS];
shared enum level { LOW, MID = 5, HIGH } level_now;
static shared struct { double weight; shared int *owner; } slots[THREADS];
shared struct node { int value; shared struct node *next; } *list_head;
shared struct node nodes[THREADS];
shared int owners[THREADS];
typedef shared struct { int a; double b; } spair_t; /* an unnamed shared type through a typedef */
struct outer { struct { int a, b; } in; union { int u; float f; }; }; /* unnamed member types */
shared struct outer outers[THREADS];
typedef shared struct link { int v; shared struct link *next; } *link_p; /* the typedef defines it */
shared struct link links[THREADS];
shared struct __attribute__((aligned(16))) { int x; } aligned_cells[THREADS];
spair_t pairs[THREADS];
shared int errs[THREADS];

shared struct result { int code; } *no_result(void) { return NULL; }

int main(void)
{
    int errors = 0, next = (MYTHREAD + 1) % THREADS;
    struct point here = {MYTHREAD, -MYTHREAD}; /* the tag is an ordinary C type */
    shared struct local_pair { short a, b; } *pair = 0;
    struct local_pair lp = {3, 4};
    if (MYTHREAD == 0) {
        origin = here;
        level_now = HIGH;
    }
    list_head = &nodes[0]; /* a private pointer: each thread sets its own */
    points[MYTHREAD] = here;
    words[MYTHREAD].f = 2.5f;
    slots[MYTHREAD].weight = 0.5 * MYTHREAD;
    slots[MYTHREAD].owner = &owners[MYTHREAD];
    pairs[MYTHREAD].b = 1.5 * MYTHREAD;
    outers[MYTHREAD].in.b = 6 + MYTHREAD;
    links[MYTHREAD].v = MYTHREAD;
    aligned_cells[MYTHREAD].x = 2 * MYTHREAD;
    outers[MYTHREAD].u = 3 * MYTHREAD; /* a C11 anonymous union's member */
    nodes[MYTHREAD].value = 10 * MYTHREAD;
    nodes[MYTHREAD].next = next ? &nodes[next] : NULL;
    upc_barrier;
    CHECK(origin.x == 0 && origin.y == 0, "shared struct point { ... } origin");
    CHECK(points[next].x == next && points[next].y == -next, "points[THREADS] of the same declaration");
    CHECK(words[next].f == 2.5f && upc_blocksizeof(words) == 2, "shared [2] union word { ... } words[]");
    CHECK(level_now == HIGH && HIGH == 6 && MID == 5, "shared enum level { ... } and its constants");
    CHECK(slots[next].weight == 0.5 * next && slots[next].owner == &owners[next],
          "an unnamed structure with a pointer-to-shared member");
    int sum = 0, seen = 0;
    for (shared struct node *n = list_head; n && seen <= THREADS; n = n->next, seen++)
        sum += n->value;
    CHECK(seen == THREADS && sum == 10 * THREADS * (THREADS - 1) / 2, "the list through list_head");
    CHECK(pairs[next].b == 1.5 * next && upc_threadof(&pairs[next]) == (size_t)next,
          "typedef shared struct { ... } spair_t; spair_t pairs[THREADS]");
    CHECK(outers[next].in.b == 6 + next && outers[next].u == 3 * next,
          "members of unnamed structure and union types inside a shared structure");
    link_p lp_next = &links[next];
    CHECK(lp_next->v == next && aligned_cells[next].x == 2 * next,
          "typedef shared struct link { ... } *link_p; an attribute before an unnamed body");
    CHECK(no_result() == NULL, "a function returning shared struct result { ... } *");
    CHECK(pair == NULL && lp.a == 3 && lp.b == 4 && sizeof(struct local_pair) == 2 * sizeof(short),
          "a block-scope pointer-to-shared defining its structure");
    errs[MYTHREAD] = errors;
    upc_barrier;
    if (MYTHREAD == 0) {
        int total = 0;
        for (int t = 0; t < THREADS; t++)
            total += errs[t];
        if (total == 0)
            printf("Success: tag_definitions\n");
    }
    return errors != 0;
}
