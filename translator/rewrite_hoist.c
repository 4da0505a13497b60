/* SPDX-License-Identifier: MIT */
/* rewrite_hoist.c -- pointers-to-shared read from shared memory, read once
 * per loop instead of once per iteration.
 *
 * A distributed array is often reached through a pointer stored in shared
 * memory: `u[MYTHREAD].arr[i]` (NAS MG), `dir[MYTHREAD][k]` for a
 * `shared [] double *shared dir[THREADS]`.  Each access first reads that
 * pointer, and the C compiler cannot keep it in a register across
 * iterations: the loop's other accesses may call into the runtime (their
 * path for other nodes), and a call may write anything.  The rewriter
 * knows more: a loop with no calls, no strict or volatile access, no label
 * and no store that could change a pointer-to-shared (a store of that
 * type, of a character type or of a structure holding one) cannot change
 * one, so the relaxed read of a pointer-to-shared at an address invariant
 * in the loop may return the same value every time (UPC 1.3 §5.1.2.3 lets
 * relaxed reads be served from an earlier read when no strict access or
 * fence intervenes; the runtime's cache does the same).  Such a read
 * becomes
 *
 *   (__mupc_hN_ok ? __mupc_hN : (__mupc_hN_ok = 1, __mupc_hN = READ))
 *
 * with the two variables declared in a block put around the loop: the read
 * happens at its first use, inside the loop as before (a loop that runs no
 * iteration reads nothing, so no read is made that the program did not
 * make), and once.  An address is invariant when it is built from integer
 * constants, MYTHREAD, THREADS, shared objects, local scalars declared
 * before the loop that the loop does not assign and whose address the
 * function never takes, global scalars the loop does not assign, and
 * private memory of a type the loop stores no value of (C11 6.5p7: a store
 * of a double cannot change an int; a character read, which may alias
 * anything, only when the loop stores nothing; a union member's store
 * counts for every member), through [], ., ->, arithmetic and casts.  The
 * hoisting goes to the outermost loop that qualifies.  A private
 * pointer-to-shared variable of static storage that the loop cannot change
 * is read the same way, but before the loop (reading it cannot fail).
 * When it points to a cyclic array (block size 1), this thread's part of
 * the array from it is looked up once too (__mupc_own_view): the loop's
 * p[X * THREADS + MYTHREAD] is then one bounds test and a plain load or
 * store (rewrite_lvalue.c), where each access would otherwise reload the
 * runtime's variables after the loop's stores (NAS IS: its naive variant
 * took 0.14-0.15 s against the optimized variant's 0.10, and takes 0.10).
 * A parameter or an initialized local pointer-to-shared that the loop
 * does not assign and whose address is never taken gets the view alone.
 * A loop that a case label of a switch outside it jumps into keeps
 * nothing: the jump would skip the block's declarations.
 * With GASP events on (--gasp) nothing is hoisted: every access keeps its
 * event.
 */
#include "rewrite_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct hoisted_read {
    size_t start, end; /* the extent of the shared lvalue read */
    int id;            /* __mupc_h<id> */
    int eager;         /* a private variable: copied before the loop */
    int view;          /* and a pointer to a cyclic array: __mupc_w<id> too */
    int view_only;     /* a local variable: only the view, no copy */
} hoisted_read_t;

typedef struct hoist_loop {
    size_t start, end; /* where the block opens and closes */
    char *open;        /* "{ T __mupc_hN = {0}; int __mupc_hN_ok = 0; ..." */
} hoist_loop_t;

struct hoist_state {
    hoisted_read_t *reads;
    size_t nreads, cap_reads;
    hoist_loop_t *loops;
    size_t nloops, cap_loops;
    CXCursor function;    /* the function whose addressed variables are: */
    CXCursor *addressed;  /* (&v anywhere in it) */
    size_t naddressed, cap_addressed;
};

static struct hoist_state *state(rewriter_t *w);

/* Calls that write no memory a loop could read (errno aside). */
static const char *const harmless_calls[] = {
    "sqrt", "fabs", "exp", "log", "pow", "sin", "cos", "tan", "floor", "ceil", "fmin", "fmax",
    "abs", "labs", "llabs", "sqrtf", "fabsf", "expf", "logf", "powf", "sinf", "cosf", NULL,
};

static int harmless_call(CXCursor call)
{
    CXString name = clang_getCursorSpelling(call);
    const char *n = clang_getCString(name);
    int ok = 0;
    for (int i = 0; harmless_calls[i] && !ok; i++)
        ok = !strcmp(n, harmless_calls[i]);
    clang_disposeString(name);
    return ok;
}

static int within(CXCursor c, size_t s, size_t e)
{
    size_t cs, ce;
    extent(c, &cs, &ce);
    return cs >= s && ce <= e;
}

/* ---- what a loop does ---- */

struct loop_scan {
    rewriter_t *w;
    size_t s, e;       /* the loop's extent */
    int unsafe;        /* a call, a strict access, a label, asm, or a store that may change a pts */
    CXCursor *assigned; /* private variables the loop assigns */
    int nassigned;
    size_t cap;
    CXCursor *reads; /* candidate reads: shared pts lvalues read */
    int nreads;
    size_t cap_reads;
    CXCursor *locals; /* local pts variables and parameters read */
    int nlocals;
    size_t cap_locals;
    int switches; /* switch statements the scan is inside (in the loop) */
    long long stored[16]; /* the type classes of the private memory it stores to */
    int nstored;
};

/* v with room for one more element past n (of `size` bytes), doubling *cap. */
static void *room(void *v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? 2 * *cap : 16;
    return xrealloc(v, *cap * size);
}

static void push(CXCursor **v, int *n, size_t *cap, CXCursor c)
{
    *v = room(*v, (size_t)*n, cap, sizeof **v);
    (*v)[(*n)++] = c;
}

/* The class of the values of type t that may alias each other (C11
 * 6.5p7): a signed and an unsigned integer of one size share one; every
 * object pointer is in one class. */
static long long type_class(CXType t)
{
    t = canon(t);
    enum CXTypeKind k = t.kind;
    if (k == CXType_Pointer)
        return -1;
    int floating = k == CXType_Float || k == CXType_Double || k == CXType_LongDouble;
    return (floating ? 1000 : 0) + clang_Type_getSizeOf(t);
}

static int stores_class(const loop_scan_t *l, long long c)
{
    for (int i = 0; i < l->nstored; i++)
        if (l->stored[i] == c)
            return 1;
    return 0;
}

/* A store to private memory that a pointer may reach: its type's class is
 * noted (too many classes: the loop is not analysed further). */
static void note_memory_store(loop_scan_t *l, CXType ty)
{
    long long c = type_class(ty);
    if (stores_class(l, c))
        return;
    if (l->nstored == (int)(sizeof l->stored / sizeof *l->stored))
        l->unsafe = 1;
    else
        l->stored[l->nstored++] = c;
}

static void note_stored_type(loop_scan_t *l, CXType ty);

static enum CXVisitorResult stored_field(CXCursor field, CXClientData data)
{
    note_stored_type(data, clang_getCursorType(field));
    return CXVisit_Continue;
}

/* A store of a value of type ty, to memory: unsafe when it could change a
 * pointer-to-shared (C11 6.5p7: through a pointer-to-shared, a character
 * type, or a structure or union with one among its members); otherwise
 * the classes of the scalars it writes are noted (private memory or
 * shared, which a local pointer cast from a pointer-to-shared reaches). */
static int character_type(CXType t)
{
    enum CXTypeKind k = canon(t).kind;
    return k == CXType_Char_S || k == CXType_Char_U || k == CXType_SChar || k == CXType_UChar;
}

static void note_stored_type(loop_scan_t *l, CXType ty)
{
    ty = canon(leaf_type(ty));
    if (is_pts(l->w, ty) || character_type(ty))
        l->unsafe = 1;
    else if (ty.kind == CXType_Record)
        clang_Type_visitFields(ty, stored_field, l);
    else
        note_memory_store(l, ty);
}

/* The union whose member c names (u.m, p->m), or a null cursor. */
static CXCursor union_of_member(CXCursor c)
{
    if (clang_getCursorKind(c) == CXCursor_MemberRefExpr) {
        CXCursor owner = clang_getCursorSemanticParent(clang_getCursorReferenced(c));
        if (clang_getCursorKind(owner) == CXCursor_UnionDecl)
            return owner;
    }
    return clang_getNullCursor();
}

/* A store's target: a private variable is noted; a strict access is
 * unsafe; the type stored to memory is noted (for a union's member, every
 * member's: a read of another member sees the store). */
static void note_store(loop_scan_t *l, CXCursor target)
{
    CXCursor t = strip(target), u = union_of_member(t);
    CXType ty = canon(clang_getCursorType(t));
    int shared = is_shared(l->w, ty);
    if (clang_getCursorKind(t) == CXCursor_DeclRefExpr && !shared)
        push(&l->assigned, &l->nassigned, &l->cap, clang_getCursorReferenced(t));
    else if (shared && strict_of(l->w, ty, start_of(t)))
        l->unsafe = 1;
    else
        note_stored_type(l, clang_Cursor_isNull(u) ? ty : clang_getCursorType(u));
}

/* An assignment, compound assignment or ++/-- with `operands` operands:
 * its first is the store's target. */
static void note_target(loop_scan_t *l, CXCursor c, int operands)
{
    kids_t ks = children(c, 1);
    if (ks.n == operands)
        note_store(l, ks.v[0]);
    free(ks.v);
}

/* A private pointer-to-shared variable of static storage, named by c:
 * its reads are candidates too (the C compiler reloads it after every
 * call on the accesses' runtime path, as a shared one). */
static int global_pts_variable(rewriter_t *w, CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(c);
    CXType t = clang_getCursorType(d);
    return clang_getCursorKind(d) == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d) == 1 &&
           is_pts(w, t) && !is_shared(w, t);
}

/* A private pointer-to-shared variable of the function, named by c: a
 * parameter, or a local variable that is initialized where declared. */
static int local_pts_variable(rewriter_t *w, CXCursor c)
{
    if (clang_getCursorKind(c) != CXCursor_DeclRefExpr)
        return 0;
    CXCursor d = clang_getCursorReferenced(c);
    CXType t = clang_getCursorType(d);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (!is_pts(w, t) || is_shared(w, t))
        return 0;
    return dk == CXCursor_ParmDecl ||
           (dk == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d) == 0 &&
            !clang_Cursor_isNull(clang_Cursor_getVarDeclInitializer(d)));
}

static void scan(loop_scan_t *l, CXCursor c)
{
    if (l->unsafe)
        return;
    enum CXCursorKind k = clang_getCursorKind(c);
    CXCursor in;
    if (clang_isExpression(k) && clang_isVolatileQualifiedType(clang_getCursorType(c))) {
        l->unsafe = 1; /* a volatile access: every access is made, none is moved */
        return;
    }
    switch (k) {
    case CXCursor_CallExpr:
        if (!harmless_call(c))
            l->unsafe = 1;
        break;
    case CXCursor_LabelStmt:
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt:
        l->unsafe = 1;
        break;
    case CXCursor_CaseStmt:
    case CXCursor_DefaultStmt:
        if (l->switches == 0) /* a jump into the loop from a switch outside it */
            l->unsafe = 1;
        break;
    case CXCursor_SwitchStmt: {
        kids_t ks = children(c, 0);
        l->switches++;
        for (int i = 0; i < ks.n; i++)
            scan(l, ks.v[i]);
        l->switches--;
        free(ks.v);
        return;
    }
    case CXCursor_BinaryOperator:
        if (clang_getCursorBinaryOperatorKind(c) == CXBinaryOperator_Assign)
            note_target(l, c, 2);
        break;
    case CXCursor_CompoundAssignOperator:
        note_target(l, c, 2);
        break;
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if (op == CXUnaryOperator_PostInc || op == CXUnaryOperator_PreInc ||
            op == CXUnaryOperator_PostDec || op == CXUnaryOperator_PreDec)
            note_target(l, c, 1);
        break;
    }
    case CXCursor_UnexposedExpr:
        if (is_wrapper(c, &in)) {
            CXType from = clang_getCursorType(in), to = clang_getCursorType(c);
            if (is_shared(l->w, from) && !is_shared(l->w, to) && !is_array(from)) {
                if (strict_of(l->w, from, start_of(in)))
                    l->unsafe = 1;
                else if (is_pts(l->w, from))
                    push(&l->reads, &l->nreads, &l->cap_reads, in);
            } else if (global_pts_variable(l->w, in)) {
                push(&l->reads, &l->nreads, &l->cap_reads, in);
            } else if (local_pts_variable(l->w, in)) {
                push(&l->locals, &l->nlocals, &l->cap_locals, in);
            }
        }
        break;
    default:
        break;
    }
    kids_t ks = children(c, 0);
    for (int i = 0; i < ks.n; i++)
        scan(l, ks.v[i]);
    free(ks.v);
}

/* ---- invariant addresses ---- */

static enum CXChildVisitResult collect_addressed(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct hoist_state *h = data;
    if (clang_getCursorKind(c) == CXCursor_UnaryOperator &&
        clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_AddrOf) {
        kids_t ks = children(c, 1);
        CXCursor x = ks.n == 1 ? strip(ks.v[0]) : clang_getNullCursor();
        free(ks.v);
        if (!clang_Cursor_isNull(x) && clang_getCursorKind(x) == CXCursor_DeclRefExpr) {
            if (h->naddressed == h->cap_addressed) {
                h->cap_addressed = h->cap_addressed ? 2 * h->cap_addressed : 64;
                h->addressed = xrealloc(h->addressed, h->cap_addressed * sizeof *h->addressed);
            }
            h->addressed[h->naddressed++] = clang_getCursorReferenced(x);
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether the function around local variable decl takes its address
 * (&v): the function's addressed variables are collected once. */
int address_taken(rewriter_t *w, CXCursor decl)
{
    struct hoist_state *h = state(w);
    CXCursor fn = clang_getCursorSemanticParent(decl);
    if (clang_getCursorKind(fn) != CXCursor_FunctionDecl)
        return 1;
    if (!clang_equalCursors(fn, h->function)) {
        h->function = fn;
        h->naddressed = 0;
        clang_visitChildren(fn, collect_addressed, h);
    }
    for (size_t i = 0; i < h->naddressed; i++)
        if (clang_equalCursors(h->addressed[i], decl))
            return 1;
    return 0;
}

static int named(CXCursor c, const char *name)
{
    CXString n = clang_getCursorSpelling(c);
    int is = !strcmp(clang_getCString(n), name);
    clang_disposeString(n);
    return is;
}

static int may_store_type_of(loop_scan_t *l, CXCursor c);

/* A name whose value the loop cannot change: an enumeration constant, a
 * shared object (its address is what is used), MYTHREAD or THREADS, a
 * local scalar of the function declared before the loop, not static, not
 * assigned in the loop, its address never taken, or a private scalar of
 * static storage that the loop does not assign nor store a value of its
 * type anywhere (it calls nothing that could). */
static int invariant_variable(loop_scan_t *l, CXCursor ref)
{
    if (named(ref, "mupc_mythread") || named(ref, "mupc_threads"))
        return 1;
    CXCursor d = clang_getCursorReferenced(ref);
    enum CXCursorKind dk = clang_getCursorKind(d);
    if (dk == CXCursor_EnumConstantDecl)
        return 1;
    if (dk != CXCursor_VarDecl && dk != CXCursor_ParmDecl)
        return 0;
    CXType t = clang_getCursorType(d);
    if (is_shared(l->w, t))
        return 1;
    /* an array parameter is a pointer (C11 6.7.6.3p7) */
    if ((is_array(t) && dk != CXCursor_ParmDecl) || canon(t).kind == CXType_Record ||
        clang_isVolatileQualifiedType(t) || within(d, l->s, l->e))
        return 0;
    for (int i = 0; i < l->nassigned; i++)
        if (clang_equalCursors(l->assigned[i], d))
            return 0;
    if (dk == CXCursor_VarDecl && clang_Cursor_hasVarDeclGlobalStorage(d))
        return !l->unsafe && !may_store_type_of(l, ref);
    return !address_taken(l->w, d);
}

/* Whether the loop may store to private memory of c's type (a variable it
 * assigns counts when a pointer may reach it: a global one, or one whose
 * address the function takes). */
static int may_store_type_of(loop_scan_t *l, CXCursor c)
{
    long long cls = type_class(clang_getCursorType(c));
    int any = character_type(clang_getCursorType(c)); /* a character lvalue reads any object */
    if (stores_class(l, cls) || (any && l->nstored))
        return 1;
    for (int i = 0; i < l->nassigned; i++) {
        CXCursor d = l->assigned[i];
        CXType dt = canon(clang_getCursorType(d));
        if (!any && type_class(dt) != cls && dt.kind != CXType_Record && !is_array(dt)) /* a structure holds any */
            continue;
        if (clang_Cursor_hasVarDeclGlobalStorage(d) == 1 || address_taken(l->w, d))
            return 1;
    }
    return 0;
}

/* An array variable, private: its address does not change. */
static int private_array(loop_scan_t *l, CXCursor c)
{
    CXCursor d = clang_getCursorReferenced(c);
    CXType t = clang_getCursorType(d);
    return clang_getCursorKind(c) == CXCursor_DeclRefExpr && clang_getCursorKind(d) == CXCursor_VarDecl &&
           is_array(t) && !is_shared(l->w, t);
}

static int invariant(loop_scan_t *l, CXCursor c)
{
    CXCursor in;
    enum CXCursorKind k = clang_getCursorKind(c);
    if (is_wrapper(c, &in)) {
        CXType from = clang_getCursorType(in), to = clang_getCursorType(c);
        if (is_shared(l->w, from) && !is_shared(l->w, to) && !is_array(from))
            return 0; /* a shared read inside: not hoisted with it */
        return invariant(l, in);
    }
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_UnaryExpr: /* sizeof, _Alignof */
        return 1;
    case CXCursor_DeclRefExpr:
        return invariant_variable(l, c) || private_array(l, c);
    case CXCursor_BinaryOperator: {
        enum CXBinaryOperatorKind op = clang_getCursorBinaryOperatorKind(c);
        if (op < CXBinaryOperator_Mul || op > CXBinaryOperator_Or)
            return 0; /* assignments, comma, pointer-to-member */
        break;
    }
    case CXCursor_UnaryOperator: {
        enum CXUnaryOperatorKind op = clang_getCursorUnaryOperatorKind(c);
        if (op != CXUnaryOperator_Plus && op != CXUnaryOperator_Minus && op != CXUnaryOperator_Not &&
            op != CXUnaryOperator_LNot && op != CXUnaryOperator_Deref)
            return 0;
        break;
    }
    case CXCursor_MemberRefExpr:
    case CXCursor_ArraySubscriptExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_ConditionalOperator: /* of invariant operands (a upc_forall's bound) */
        break;
    default:
        return 0;
    }
    /* [], . and unary * on private memory: only of a type the loop does
     * not store (a private array's element as a whole array is its address) */
    int deref = k == CXCursor_UnaryOperator &&
                clang_getCursorUnaryOperatorKind(c) == CXUnaryOperator_Deref;
    CXType ct = clang_getCursorType(c);
    if ((k == CXCursor_ArraySubscriptExpr || k == CXCursor_MemberRefExpr || deref) && !is_shared(l->w, ct) &&
        !is_array(ct) && (canon(ct).kind == CXType_Record || may_store_type_of(l, c)))
        return 0;
    kids_t ks = children(c, 1);
    int ok = ks.n > 0;
    for (int i = 0; i < ks.n && ok; i++)
        ok = invariant(l, ks.v[i]);
    free(ks.v);
    return ok;
}

/* ---- for rewrite_version.c ---- */

loop_scan_t *loop_scan_new(rewriter_t *w, CXCursor loop)
{
    loop_scan_t *l = xmalloc(sizeof *l);
    *l = (loop_scan_t){.w = w};
    extent(loop, &l->s, &l->e);
    scan(l, loop);
    return l;
}

int loop_scan_safe(const loop_scan_t *l) { return !l->unsafe; }

int loop_scan_invariant(loop_scan_t *l, CXCursor c) { return invariant(l, c); }

void loop_scan_free(loop_scan_t *l)
{
    free(l->assigned);
    free(l->reads);
    free(l->locals);
    free(l);
}

/* ---- the rewriter's side ---- */

static struct hoist_state *state(rewriter_t *w)
{
    if (!w->hoist) {
        w->hoist = xrealloc(NULL, sizeof *w->hoist);
        *w->hoist = (struct hoist_state){0};
    }
    return w->hoist;
}

static int registered(struct hoist_state *h, size_t s, size_t e)
{
    for (size_t i = 0; i < h->nreads; i++)
        if (h->reads[i].start == s && h->reads[i].end == e)
            return 1;
    return 0;
}

/* The text of c without white space: reads with equal text in one loop
 * name the same variables (all declared outside it) and are one read. */
static char *key_of(rewriter_t *w, CXCursor c)
{
    char *t = source(w, c), *o = t;
    for (const char *i = t; *i; i++)
        if (*i != ' ' && *i != '\t' && *i != '\n')
            *o++ = *i;
    *o = 0;
    return t;
}

static void add_read(struct hoist_state *h, size_t s, size_t e, int id, int eager, int view)
{
    h->reads = room(h->reads, h->nreads, &h->cap_reads, sizeof *h->reads);
    h->reads[h->nreads++] = (hoisted_read_t){s, e, id, eager, view, 0};
}

/* Whether a pointer-to-shared of type t points to a cyclic array of
 * scalars or structures (the own-element idiom's arrays). */
static int points_cyclic(rewriter_t *w, CXType t, size_t at)
{
    CXType pointee = clang_getPointeeType(canon(t));
    if (canon(pointee).kind == CXType_Void || is_array(canon(pointee)))
        return 0;
    char *block = block_text(w, pointee, at);
    int cyclic = !strcmp(block, "(1)");
    free(block);
    return cyclic;
}

/* The block around the loop [s, e), its declarations in `open`. */
static void add_loop(struct hoist_state *h, size_t s, size_t e, char *open)
{
    h->loops = room(h->loops, h->nloops, &h->cap_loops, sizeof *h->loops);
    h->loops[h->nloops++] = (hoist_loop_t){s, e, open};
}

static void emit_block(rewriter_t *w, const hoist_loop_t *lp)
{
    edits_add(&w->edits, lp->start, lp->start, xstrdup(lp->open));
    edits_add(&w->edits, lp->end, lp->end, xstrdup(" }"));
}

/* Where a loop statement ends: past its ';' unless it ends with a '}'. */
static size_t loop_end(rewriter_t *w, CXCursor loop)
{
    size_t s, e;
    extent(loop, &s, &e);
    return e > s && w->text[e - 1] == '}' ? e : past_semicolon(w, e);
}

/* Scan a for, while or do loop about to be walked; mark its hoistable reads. */
void hoist_loop(rewriter_t *w, CXCursor loop)
{
    if (w->gasp)
        return;
    struct hoist_state *h = state(w);
    size_t s, e;
    extent(loop, &s, &e);
    for (size_t i = 0; i < h->nloops; i++)
        if (h->loops[i].start == s) { /* walked again (a upc_forall body emitted twice) */
            emit_block(w, &h->loops[i]);
            return;
        }
    loop_scan_t l = {.w = w, .s = s, .e = e};
    scan(&l, loop);
    strbuf_t open;
    sb_init(&open);
    char **keys = NULL;
    int *ids = NULL, *views = NULL, nkeys = 0;
    for (int i = 0; i < l.nreads && !l.unsafe; i++) {
        size_t rs, re;
        extent(l.reads[i], &rs, &re);
        if (registered(h, rs, re) || !invariant(&l, l.reads[i]))
            continue;
        char *key = key_of(w, l.reads[i]);
        int id = -1, view = 0, eager = global_pts_variable(w, l.reads[i]);
        for (int k = 0; k < nkeys && id < 0; k++)
            if (!strcmp(keys[k], key)) {
                id = ids[k];
                view = views[k];
            }
        if (id < 0) {
            id = next_temp(w);
            view = eager && points_cyclic(w, clang_getCursorType(l.reads[i]), rs);
            keys = xrealloc(keys, (size_t)(nkeys + 1) * sizeof *keys);
            ids = xrealloc(ids, (size_t)(nkeys + 1) * sizeof *ids);
            views = xrealloc(views, (size_t)(nkeys + 1) * sizeof *views);
            ids[nkeys] = id;
            views[nkeys] = view;
            keys[nkeys++] = key;
            char *ts = spell(w, clang_getCursorType(l.reads[i]));
            if (eager) /* reading it cannot fail: at once */
                sb_printf(&open, "%s __mupc_h%d = %s; ", ts, id, key);
            else
                sb_printf(&open, "%s __mupc_h%d = {0}; int __mupc_h%d_ok = 0; ", ts, id, id);
            if (view) /* unused when no access has the own-element form */
                sb_printf(&open, "__mupc_own_t __mupc_w%d __attribute__((unused)) = __mupc_own_view(__mupc_h%d); ",
                          id, id);
            free(ts);
        } else {
            free(key);
        }
        add_read(h, rs, re, id, eager, view);
    }
    for (int i = 0; i < l.nlocals && !l.unsafe; i++) {
        size_t rs, re;
        extent(l.locals[i], &rs, &re);
        if (registered(h, rs, re) || !points_cyclic(w, clang_getCursorType(l.locals[i]), rs) ||
            !invariant(&l, l.locals[i]))
            continue;
        char *key = key_of(w, l.locals[i]);
        int id = -1;
        for (int k = 0; k < nkeys && id < 0; k++)
            if (!strcmp(keys[k], key))
                id = ids[k];
        if (id < 0) {
            id = next_temp(w);
            keys = xrealloc(keys, (size_t)(nkeys + 1) * sizeof *keys);
            ids = xrealloc(ids, (size_t)(nkeys + 1) * sizeof *ids);
            views = xrealloc(views, (size_t)(nkeys + 1) * sizeof *views);
            ids[nkeys] = id;
            views[nkeys] = 1;
            keys[nkeys++] = key;
            sb_printf(&open, "__mupc_own_t __mupc_w%d __attribute__((unused)) = __mupc_own_view(%s); ", id,
                      key);
        } else {
            free(key);
        }
        add_read(h, rs, re, id, 0, 1);
        h->reads[h->nreads - 1].view_only = 1;
    }
    for (int k = 0; k < nkeys; k++)
        free(keys[k]);
    free(keys);
    free(ids);
    free(views);
    free(l.assigned);
    free(l.reads);
    free(l.locals);
    if (!nkeys) {
        sb_free(&open);
        return;
    }
    char *decls = sb_take(&open);
    add_loop(h, s, loop_end(w, loop), xasprintf("{ %s", decls));
    free(decls);
    emit_block(w, &h->loops[h->nloops - 1]);
}

/* The number N of the view __mupc_wN of this thread's part of the cyclic
 * array that pointer-to-shared expression c points to, when c is a
 * variable a loop read before it (hoist_loop); else -1. */
int hoisted_view(rewriter_t *w, CXCursor c)
{
    if (!w->hoist)
        return -1;
    size_t s, e;
    extent(strip(c), &s, &e);
    for (size_t i = 0; i < w->hoist->nreads; i++) {
        const hoisted_read_t *r = &w->hoist->reads[i];
        if (r->start == s && r->end == e)
            return r->view ? r->id : -1;
    }
    return -1;
}

/* The text of the read of shared lvalue c (or private pointer-to-shared
 * variable c) if a loop hoisted it, else NULL. */
char *hoisted_read(rewriter_t *w, CXCursor c)
{
    if (!w->hoist)
        return NULL;
    size_t s, e;
    extent(c, &s, &e);
    for (size_t i = 0; i < w->hoist->nreads; i++) {
        const hoisted_read_t *r = &w->hoist->reads[i];
        if (r->start == s && r->end == e && r->view_only)
            return NULL;
        if (r->start == s && r->end == e && r->eager)
            return xasprintf("__mupc_h%d", r->id);
        if (r->start == s && r->end == e) {
            char *read = read_shared(w, c);
            char *t = xasprintf("(__mupc_h%d_ok ? __mupc_h%d : (__mupc_h%d_ok = 1, __mupc_h%d = %s))", r->id,
                                r->id, r->id, r->id, read);
            free(read);
            return t;
        }
    }
    return NULL;
}
