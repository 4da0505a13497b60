#!/bin/sh
# SPDX-License-Identifier: MIT
# translator.sh -- mupcc compiles UPC source: every program in
# tests/upc/ builds with the build tree's mupcc and prints its
# Success line at 1, 2, 3 and 4 threads; every program in
# tests/upc/errors/ is refused with file:line: error naming the words
# of its /* ERROR: ... */ comment; a runtime error in translated code names
# the UPC file and line.
. "$top_srcdir/tests/scripts/lib.sh"
mupcc="$top_builddir/tools/mupcc"
dir="$top_srcdir/tests/upc"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
# build NAME [MUPCC FLAGS...]: $tmp/NAME.upc -> $tmp/NAME, which must compile
build() {
    name=$1
    shift
    "$mupcc" "$@" -o "$tmp/$name" "$tmp/$name.upc" > "$out" 2>&1
    rc=$?
    expect_status "$name.upc compiles" 0
}
require_translator

# every program built first, a build per core, then each run in turn
for src in "$dir"/*.upc; do
    name=$(basename "$src" .upc)
    echo "$name $mupcc -O2 -Wall -o $tmp/$name $src" >> "$tmp/builds"
done
build_all "$tmp" "$tmp/builds"
for src in "$dir"/*.upc; do
    name=$(basename "$src" .upc)
    built "$tmp" "$name"
    if [ "$rc" -ne 0 ]; then fail "$name.upc compiles"; continue; fi
    expect_success_at_threads "$name" "$tmp/$name"
done

# Inline pointer arithmetic and accesses against the runtime's own path:
# on two simulated nodes (targets on the other node go through the
# runtime) and with checks = bounds (every access does).
for mode in MUPC_SIMULATE_NODES=2 MUPC_CHECKS=bounds; do
    for name in pointer_arith version_loops own_views; do
        run 4 60 env "$mode" "$tmp/$name"
        if [ "$rc" -eq 0 ] && grep -q "^Success: $name\$" "$out"; then ok "$name with $mode"
        else fail "$name with $mode (status $rc)"; fi
    done
done

mkdir "$tmp/errors"
for src in "$dir"/errors/*.upc; do
    echo "$(basename "$src") $mupcc -c -o $tmp/errors/$(basename "$src" .upc).o $src" >> "$tmp/errors/builds"
done
build_all "$tmp/errors" "$tmp/errors/builds"
for src in "$dir"/errors/*.upc; do
    name=$(basename "$src")
    line=$(grep -n '/\* ERROR:' "$src" | head -n 1 | cut -d: -f1)
    words=$(sed -n 's|.*/\* ERROR: \(.*\) \*/.*|\1|p' "$src" | head -n 1)
    built "$tmp/errors" "$name"
    expect_failure "$name is refused"
    expect_output "$name: the error names $name:$line" "$name:$line:[0-9]+: error: "
    for word in $words; do
        if grep -i "error: " "$out" | grep -qi -- "$word"; then ok "$name: the message says '$word'"
        else fail "$name: the message lacks '$word'"; fi
    done
done

# An initializer whose inner THREADS dimension lists more values than one
# THREADS' worth (Berkeley's upcr-tests foo_bar): each value lands at its
# place when the job has threads enough; with one thread the job stops
# naming the array.
cat > "$tmp/longrow.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
shared [3] double messy[4][2 * THREADS] = {{1, 2, 3}, {4}, {5, 6, 7, 8}};
int main(void)
{
    int bad = 0;
    double want[3][4] = {{1, 2, 3, 0}, {4, 0, 0, 0}, {5, 6, 7, 8}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4 && j < 2 * THREADS; j++)
            bad += messy[i][j] != want[i][j];
    upc_barrier;
    if (MYTHREAD == 0)
        printf(bad ? "longrow: wrong values\n" : "longrow: right\n");
    return bad != 0;
}
UPC
build longrow
for n in 2 3; do
    run "$n" 60 "$tmp/longrow"
    if [ "$rc" -eq 0 ] && grep -q "^longrow: right$" "$out"; then ok "a long initializer row at $n threads"
    else fail "a long initializer row at $n threads (status $rc)"; fi
done
run 1 60 "$tmp/longrow"
expect_failure "a long initializer row with one thread ends the job"
expect_output "  naming the array" "initializer of shared array 'messy' has more elements than it holds with THREADS = 1"

# A UPC program's runtime error points at its own source line (#line).
cat > "$tmp/named.upc" <<'UPC'
#include <upc.h>
int main(void)
{
    upc_barrier MYTHREAD; /* mismatched named barrier */
    return 0;
}
UPC
build named
run 2 60 "$tmp/named"
expect_failure "a mismatched named barrier ends the job"
expect_output "the runtime names named.upc:4" "named\\.upc:4"
# Inline local accesses keep the runtime's checks: an element far past the
# segment, and with checks = bounds one past the array's end, stop the job
# naming the UPC line.
cat > "$tmp/oob.upc" <<'UPC'
#include <upc.h>
shared int a[4 * THREADS];
int main(int argc, char **argv)
{
    long far = argc > 1 ? 4L * THREADS : 20000000000L * THREADS; /* past 64G, the largest segment */
    a[far + MYTHREAD] = 1; /* line 6 */
    return 0;
}
UPC
build oob
run 2 60 "$tmp/oob"
expect_failure "a store far past the segment ends the job"
expect_output "and names oob.upc:6" "oob\\.upc:6.*out of range"
MUPC_CHECKS=bounds run 2 60 "$tmp/oob" one-past
expect_failure "with checks = bounds, a store one past the array ends the job"
expect_output "and names oob.upc:6 and the array" "oob\\.upc:6.*'a'"
# A upc_forall that runs only its owned iterations and reads and writes
# a[i] as private memory keeps the checks too: with checks = bounds the
# store one past the end (thread 0's, at every THREADS) stops the job.
cat > "$tmp/foroob.upc" <<'UPC'
#include <upc.h>
shared int a[4 * THREADS];
int main(void)
{
    upc_forall (int i = 0; i <= 4 * THREADS; i++; &a[i])
        a[i] = a[i] + 1; /* line 6 */
    return 0;
}
UPC
build foroob
MUPC_CHECKS=bounds run 2 60 "$tmp/foroob"
expect_failure "with checks = bounds, an owned-iteration upc_forall's store past the array ends the job"
expect_output "and names foroob.upc:6 and the array" "foroob\\.upc:6.*'a'"
# Without checks, a privatized upc_forall whose elements lie past the
# segment is refused before it starts (its plain accesses check nothing):
# on the runtime's path, the first one stops the job naming the line, for
# an array and for a pointer.
cat > "$tmp/forfar.upc" <<'UPC'
#include <upc.h>
shared int a[4 * THREADS];
int main(int argc, char **argv)
{
    shared int *p = a;
    long far = 20000000000L * THREADS; /* past 64G, the largest segment */
    if (argc > 1)
        upc_forall (long i = far - 4 * THREADS; i < far; i++; &p[i])
            p[i] = 1; /* line 9 */
    upc_forall (long i = far - 4 * THREADS; i < far; i++; &a[i])
        a[i] = 1; /* line 11 */
    return 0;
}
UPC
build forfar
run 2 60 "$tmp/forfar"
expect_failure "a privatized upc_forall running past the segment ends the job"
expect_output "and names forfar.upc:11" "forfar\\.upc:11.*out of range"
run 2 60 "$tmp/forfar" pointer
expect_failure "a privatized upc_forall through a pointer running past the segment ends the job"
expect_output "and names forfar.upc:9" "forfar\\.upc:9.*out of range"
# An initializer list longer than a THREADS-sized array holds at this job's
# THREADS stops the job naming the declaration, instead of writing past it.
cat > "$tmp/initlen.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
shared int pairs[THREADS][2] = {{1, 2}, {3, 4}}; /* needs THREADS >= 2 */
int main(void)
{
    if (MYTHREAD == 0)
        printf("initlen %d %d\n", pairs[0][1], pairs[1][0]);
    return 0;
}
UPC
build initlen
run 2 60 "$tmp/initlen"
expect_output "a list for two rows runs at 2 threads" "^initlen 2 3$"
run 1 60 "$tmp/initlen"
expect_failure "and at 1 thread ends the job"
expect_output "naming the declaration" "initlen\\.upc:3: the initializer of shared array 'pairs' has more elements than it holds with THREADS = 1"
# The Berkeley UPC extensions (doc/extensions.md): a program that does not
# include <bupc_extensions.h> keeps the bupc_ names to itself (a common
# fallback for other compilers defines them); one that uses an extension
# libmupc leaves out fails to compile, naming it.
cat > "$tmp/bupc_own.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
#include <stdint.h>
typedef uint64_t bupc_tick_t;
static bupc_tick_t bupc_ticks_now(void) { return 42; }
#define bupc_ticks_to_us(t) ((t) / 1000)
int main(void)
{
    if (MYTHREAD == 0)
        printf("own %d\n", (int)bupc_ticks_now());
    return (int)bupc_ticks_to_us(0);
}
UPC
build bupc_own
run 1 60 "$tmp/bupc_own"
expect_output "a program's own bupc_ names are left alone" "^own 42$"
# A program written for Berkeley UPC uses its extensions with <upc.h>
# alone (Berkeley declares them there): translated again with them.
cat > "$tmp/bupc_implicit.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
shared int x[THREADS];
shared int y[THREADS];
int main(void)
{
    bupc_tick_t t0 = bupc_ticks_now();
    bupc_trace_setmask("BGPHN"); /* accepted, no effect */
    bupc_trace_printf(("%d", 1));
    x[MYTHREAD] = (int)bupc_thread_distance(MYTHREAD, (MYTHREAD + 1) % THREADS);
    int mine = x[MYTHREAD];
    upc_handle_t h = upc_memput_nb(&y[MYTHREAD], &mine, sizeof(int)); /* <upc_nb.h> not included */
    upc_sync(h);
    upc_barrier;
    assert(y[0] == x[0]); /* <assert.h> not included */
    if (MYTHREAD == 0)
        printf("implicit %d %d %d\n", bupc_ticks_now() >= t0, x[0] >= BUPC_THREADS_SAME,
               bupc_trace_gettracelocal());
    bupc_exit(3); /* exit(3): this thread ends, its process with status 3 */
}
UPC
build bupc_implicit
run 2 60 "$tmp/bupc_implicit"
expect_output "bupc_ extensions, upc_nb.h's and assert used with <upc.h> alone, as Berkeley UPC has them" "^implicit 1 1 0$"
expect_status "bupc_exit(3) ends the job with status 3" 3
cat > "$tmp/bupc_sem.upc" <<'UPC'
#include <upc.h>
#include <bupc_extensions.h>
int main(void)
{
    bupc_sem_t *s = bupc_sem_alloc(0);
    return s == NULL;
}
UPC
"$mupcc" -o "$tmp/bupc_sem" "$tmp/bupc_sem.upc" > "$out" 2>&1
rc=$?
expect_failure "an extension libmupc leaves out does not compile"
expect_output "and the message names it" "bupc_sem"
# <mupc_upc.h>, the macro layer for hand-written C, included from UPC
# source is refused at the #include, saying what to include instead (it
# once failed on "unknown type name 'mupc_lock_t'", naming no cause).
printf '#include <upc.h>\n#include <mupc_upc.h>\nint main(void) { return MYTHREAD; }\n' \
    > "$tmp/macro_layer.upc"
"$mupcc" -c -o "$tmp/macro_layer.o" "$tmp/macro_layer.upc" > "$out" 2>&1
rc=$?
expect_failure "<mupc_upc.h> in UPC source is refused"
expect_output "at the #include" "included from .*macro_layer\\.upc:2"
expect_output "naming the headers to use" "error: .*not for UPC source.*<upc\\.h>.*<mupc\\.h>"
# An implicit conversion between pointers-to-shared of different block
# sizes is refused at its line (incompatible pointed-to types, as Berkeley
# UPC refuses it); through shared void * or with a cast it compiles, and
# the cast's result has phase 0.
cat > "$tmp/blockconv.upc" <<'UPC'
#include <upc.h>
shared [3] int a[3 * THREADS];
shared [4] int *p;
shared void *v;
int main(void)
{
    p = &a[2]; /* line 7 */
    return 0;
}
UPC
"$mupcc" -c -o "$tmp/blockconv.o" "$tmp/blockconv.upc" > "$out" 2>&1
rc=$?
expect_failure "an implicit conversion to another block size is refused"
expect_output "at line 7, saying what to write" "blockconv\\.upc:7:[0-9]+: error: implicit conversion from a pointer-to-shared of block size 3 to block size 4.*write a cast"
cat > "$tmp/blockcast.upc" <<'UPC'
#include <upc.h>
shared [3] int a[3 * THREADS];
shared [4] int *p;
shared void *v;
int main(void)
{
    p = (shared [4] int *)&a[2];
    int phase = (int)upc_phaseof(p);
    v = &a[2];
    p = v;
    return phase != 0 || (shared void *)p != (shared void *)&a[2];
}
UPC
build blockcast
if grep -q warning "$out"; then fail "a cast and shared void * compile without a warning"
else ok "a cast and shared void * compile without a warning"; fi
run 2 60 "$tmp/blockcast"
expect_status "the cast pointer has phase 0" 0
# A UPC program may include <mupc.h> for libmupc's own extensions (cache
# counters, segment size).
cat > "$tmp/ext.upc" <<'UPC'
#include <upc.h>
#include <mupc.h>
#include <stdio.h>
shared double x[THREADS];
int main(void)
{
    mupc_cache_stats_t s;
    mupc_cache_stats_reset();
    x[MYTHREAD] = 1;
    upc_barrier;
    double v = x[(MYTHREAD + 1) % THREADS];
    int on = mupc_cache_stats(&s);
    printf("ext %d %g %d %llu %d\n", MYTHREAD, v, on, s.misses, mupc_segment_size() > 0);
    return 0;
}
UPC
build ext # a UPC program including <mupc.h>
MUPC_CACHE=on MUPC_SHM=off run 2 60 "$tmp/ext" # the cache serves other nodes only
expect_output "and reads its cache counters" "^ext 0 1 1 1 1$"
# Reaching the end of main returns 0 (C99 §5.1.2.2.3), also in a UPC program
# whose last call left something else in the return register.
cat > "$tmp/noreturn.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
int main(void)
{
    printf("thread %d says hello\n", MYTHREAD);
}
UPC
build noreturn
run 2 60 "$tmp/noreturn"
expect_status "a main without return exits 0" 0
# The rewriter's output, for the choices that matter to speed and to the
# link: the own-element idiom skips the division by THREADS, any other
# index takes the general inline path, a relaxed read of data on the node
# is inline, pointer arithmetic is inline (no call), and an object declared
# twice gets one descriptor.
cat > "$tmp/shape.upc" <<'UPC'
#include <upc.h>
shared int a[8 * THREADS];
shared int twice;
shared int twice;
int main(void)
{
    int j = 5;
    shared int *p = &a[1];
    p[j] += 2;
    return a[j * THREADS + MYTHREAD] + a[j] + twice;
}
UPC
"$top_builddir/translator/mupc-translate" --prelude "$top_srcdir/translator/prelude" \
    --runtime-include "$top_srcdir/include" -o "$tmp/shape.c" "$tmp/shape.upc" > "$out" 2>&1
rc=$?
expect_status "shape.upc translates" 0
cp "$tmp/shape.c" "$out"
expect_output "a[j * THREADS + MYTHREAD] is this thread's element j, no division" \
    "__mupc_index_own\\(a__mupc\\.base, \\(ptrdiff_t\\)\\(j\\), sizeof\\(int\\)\\)"
expect_output "a[j] takes the general inline index" "__mupc_index\\(a__mupc\\.base, \\(ptrdiff_t\\)\\(j\\)"
expect_output "a relaxed read of data on the node is a load, inline" \
    "__mupc_local\\(__mupc_p[0-9]+, sizeof\\(int\\)\\) \\? \\*\\(int \\*\\)\\(mupc_local_base \\+ __mupc_p[0-9]+\\.addr\\) : \\(__mupc_m[0-9]+ = __mupc_node_at\\(__mupc_p[0-9]+, sizeof\\(int\\)\\)\\) \\? \\*\\(int \\*\\)__mupc_m"
expect_output "p[j] += 2 is inline: pointer arithmetic, then a load and a store" \
    "__mupc_add\\(p, \\(ptrdiff_t\\)\\(j\\).*__mupc_at\\(__mupc_a[0-9]+, sizeof\\(int\\)\\)"
# with static THREADS (-T 2) THREADS is the constant 2: still the idiom,
# and the prologue divides by the constant
"$top_builddir/translator/mupc-translate" --prelude "$top_srcdir/translator/prelude" \
    --runtime-include "$top_srcdir/include" -T 2 -o "$tmp/shape2.c" "$tmp/shape.upc" > "$out" 2>&1
cp "$tmp/shape2.c" "$out"
expect_output "-T 2: a[j * THREADS + MYTHREAD] is this thread's element j" \
    "__mupc_index_own\\(a__mupc\\.base, \\(ptrdiff_t\\)\\(j\\), sizeof\\(int\\)\\)"
expect_output "-T 2: divisions by THREADS are by the constant" "^#define __MUPC_FIXED_THREADS 2$"
cp "$tmp/shape.c" "$out"
if grep 'mupc_ptr_add(' "$tmp/shape.c" | grep -qv 'return mupc_ptr_add('; then
    fail "no out-of-line pointer arithmetic in translated code"
else
    ok "no out-of-line pointer arithmetic in translated code"
fi
if [ "$(grep -c 'mupc_static_t twice__mupc = ' "$tmp/shape.c")" = 1 ] &&
    grep -q 'extern mupc_static_t twice__mupc;' "$tmp/shape.c"; then
    ok "a shared object declared twice has one descriptor"
else
    fail "a shared object declared twice has one descriptor"
fi
# A pointer-to-shared read from shared memory in a loop that cannot change
# it is read once per loop (rewrite_hoist.c); a strict or volatile access,
# a fence, a barrier, a call or a store of a pointer-to-shared in the loop
# keeps every read, and so does --gasp (every access keeps its event).
# shape WHAT PATTERN NAME WANT [FLAGS...]: translate $tmp/NAME.upc, expect
# WANT (yes|no) for whether the C has PATTERN (WHAT happened)
shape() {
    what=$1 pattern=$2 name=$3 want=$4
    shift 4
    "$top_builddir/translator/mupc-translate" --prelude "$top_srcdir/translator/prelude" \
        --runtime-include "$top_srcdir/include" "$@" -o "$tmp/$name.c" "$tmp/$name.upc" > "$out" 2>&1
    if grep -q -- "$pattern" "$tmp/$name.c"; then got=yes; else got=no; fi
    if [ "$got" = "$want" ]; then ok "$what in $name $*: $want"
    else fail "$what in $name $*: $got, want $want"; fi
}
# hoisted NAME WANT [FLAGS...]
hoisted() { shape "loop read hoisted" '__mupc_h[0-9]*_ok = 1' "$@"; }
for body in plain '{ strict shared int *f = 0; *f = 1; }' 'upc_fence;' 'g();' \
    'd[MYTHREAD].arr = 0;' '{ volatile int v = 1; s += v; }' 'upc_barrier;'; do
    case $body in
    plain) name=hoist_plain body= want=yes ;;
    *strict*) name=hoist_strict want=no ;;
    *volatile*) name=hoist_volatile want=no ;;
    upc_barrier*) name=hoist_barrier want=no ;;
    upc_fence*) name=hoist_fence want=no ;;
    g*) name=hoist_call want=no ;;
    *) name=hoist_store want=no ;;
    esac
    cat > "$tmp/$name.upc" <<UPC
#include <upc.h>
typedef struct { shared [] double *arr; } d_t;
shared d_t d[THREADS];
void g(void);
double f(int n)
{
    double s = 0;
    for (int i = 0; i < n; i++) {
        s += d[MYTHREAD].arr[i];
        $body
    }
    return s;
}
UPC
    hoisted "$name" "$want"
done
hoisted hoist_plain no --gasp
# A private pointer-to-shared of static storage that a loop cannot change
# is copied before it (the C compiler would reload it after every call).
cat > "$tmp/hoist_global.upc" <<'UPC'
#include <upc.h>
shared [] double *gp;
double f(int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += gp[i];
    return s;
}
UPC
shape "global pointer copied before the loop" '__mupc_h[0-9]* = gp;' hoist_global yes
shape "global pointer copied before the loop" '__mupc_h[0-9]* = gp;' hoist_global no --gasp
# A global pointer to a cyclic array gets a view of this thread's part,
# which p[X * THREADS + MYTHREAD] uses; a `shared []` one gets none.
cat > "$tmp/own_view.upc" <<'UPC'
#include <upc.h>
shared int *gc;
int keys[100];
void f(int n)
{
    for (int i = 0; i < n; i++)
        gc[MYTHREAD + keys[i] * THREADS]++;
}
UPC
shape "a view of this thread's part of the array" '__mupc_own_view(__mupc_h' own_view yes
shape "the access through the view" '__mupc_w[0-9]*\.base' own_view yes
shape "a view of this thread's part of the array" '__mupc_own_view(__mupc_h' own_view no --gasp
shape "a view for a shared [] pointer" '__mupc_own_view(__mupc_h' hoist_global no
# A parameter the loop does not assign gets a view, without a copy; a
# loop that a switch outside it can jump into keeps neither.
cat > "$tmp/own_param.upc" <<'UPC'
#include <upc.h>
int keys[100];
void f(shared int *c, int n)
{
    for (int i = 0; i < n; i++)
        c[MYTHREAD + keys[i] * THREADS] = i;
}
UPC
shape "a view of a parameter" '__mupc_own_view(c)' own_param yes
cat > "$tmp/own_duff.upc" <<'UPC'
#include <upc.h>
int keys[100];
shared int *gc;
void f(int n, int k)
{
    int i = 0;
    switch (k) {
    case 0:
        for (; i < n; i++) {
    case 1:
            gc[MYTHREAD + keys[i] * THREADS] = i;
        }
    }
}
UPC
shape "a copy in a loop a case label jumps into" '__mupc_h[0-9]* = gc' own_duff no
# A counted loop whose accesses through a `shared []` pointer are affine
# in its index runs a copy with plain loads and stores when the range is
# mapped here (rewrite_version.c); a call, a strict access, an index that
# is not affine, a cyclic pointer, an access under if, a jump out of the
# body, a 32-bit unsigned index, a narrowing conversion in the index and
# --gasp keep the loop as it is.
# copied NAME WANT [FLAGS...]
copied() { shape "loop copied" '__mupc_v[0-9]*_0 = ' "$@"; }
n=0
for body in 's += p[i];' 's += p[2 * i - 1] + q->arr[n - i];' 's += p[i]; g();' 's += p[i * i];' 's += c[i];' \
    'if (s > 0) s += p[i];' '{ if (s > 5) break; s += p[i]; }' 's += *(strict shared double *)&p[i];' \
    'U s += p[i];' 's += p[(int)(i * 3000000000L)];'; do
    n=$((n + 1))
    case $body in
    's += p[i];' | 's += p[2 * i - 1]'*) want=yes ;;
    *) want=no ;;
    esac
    index=int
    case $body in U*) index=unsigned body=${body#U } ;; esac
    cat > "$tmp/copy$n.upc" <<UPC
#include <upc.h>
typedef struct { shared [] double *arr; } d_t;
void g(void);
double f(int n, shared [] double *p, shared d_t *q, shared double *c)
{
    double s = 0;
    for ($index i = 1; i < n; i++) {
        $body
    }
    return s;
}
UPC
    copied "copy$n" "$want"
done
copied copy1 no --gasp
# A copied loop's range is checked before it runs: one that reaches past
# the segment runs as written, and its first access there stops the job
# naming the line; with checks = bounds, one past an array member's end.
# (A 1 MiB segment: the loop writes its way through all of it first.)
cat > "$tmp/copyfar.upc" <<'UPC'
#include <upc.h>
typedef struct { int v[4]; } blk_t;
shared blk_t b[THREADS];
int main(int argc, char **argv)
{
    shared [] int *p = b[MYTHREAD].v;
    long n = argc > 1 ? 5 : 20000000000L; /* past 64G, the largest segment */
    for (long i = 0; i < n; i++)
        p[i] = 1; /* line 9 */
    return 0;
}
UPC
build copyfar
MUPC_SEGMENT_SIZE=1M run 2 60 "$tmp/copyfar"
expect_failure "a copied loop reaching past the segment ends the job"
expect_output "and names copyfar.upc:9" "copyfar\\.upc:9.*out of range"
MUPC_CHECKS=bounds run 2 60 "$tmp/copyfar" one-past
expect_failure "with checks = bounds, a copied loop's store one past the member ends the job"
expect_output "and names copyfar.upc:9 and the array" "copyfar\\.upc:9.*'b'"
# ... and so do ranges whose two ends look in range while their middle is
# not: one index text meaning two variables, a product that wraps 64 bits,
# an unsigned index up to its type's largest value.
cat > "$tmp/copyodd.upc" <<'UPC'
#include <upc.h>
#include <limits.h>
int main(int argc, char **argv)
{
    shared [] double *r = (shared [] double *)upc_alloc(64 * sizeof(double));
    double s = 0;
    long k = 0, c = 1L << 60;
    unsigned long hi = ULONG_MAX;
    char how = argc > 1 ? argv[1][0] : 0;
    if (how == 'k')
        for (long i = 0; i < 4; i++) { s += r[i + k]; long k = 1L << 40; s += r[i + k]; } /* line 11 */
    if (how == 'c')
        for (long i = 0; i < 3; i++) s += r[i * c]; /* line 13 */
    if (how == 'u')
        for (unsigned long i = 0; i <= hi; i++) s += r[i]; /* line 15 */
    return s > 0;
}
UPC
build copyodd
for how in k:11 c:13 u:15; do
    MUPC_SEGMENT_SIZE=1M run 2 60 "$tmp/copyodd" "${how%:*}"
    expect_failure "copyodd ${how%:*}: the loop's first access outside the segment ends the job"
    expect_output "and names copyodd.upc:${how#*:}" "copyodd\\.upc:${how#*:}:.*out of range"
done
# The loops' copies and hoisted reads compile without a warning.
for name in version_loops hoist_reads own_views; do
    if "$mupcc" -O2 -Wall -Wextra -Werror -c -o "$tmp/$name.o" "$dir/$name.upc" > "$out" 2>&1; then
        ok "$name.upc compiles with -Wall -Wextra -Werror"
    else
        fail "$name.upc compiles with -Wall -Wextra -Werror"
        cat "$out"
    fi
done
# A freed atomic domain is refused, naming the line that used it.
cat > "$tmp/domain.upc" <<'UPC'
#include <upc.h>
#include <upc_atomic.h>
shared long total;
int main(void)
{
    upc_atomicdomain_t *d = upc_all_atomicdomain_alloc(UPC_LONG, UPC_ADD, 0);
    const long one = 1;
    upc_all_atomicdomain_free(d);
    upc_atomic_relaxed(d, NULL, UPC_ADD, &total, &one, NULL); /* line 9 */
    return 0;
}
UPC
build domain
run 2 60 "$tmp/domain"
expect_failure "an atomic operation through a freed domain ends the job"
expect_output "naming domain.upc:9" "domain\\.upc:9: upc_atomic_relaxed: not an atomic domain"
# An attribute after a shared declarator goes with the declaration: no
# stray `__attribute__((unused));` left behind ("empty declaration").
cat > "$tmp/attr.upc" <<'UPC'
#include <upc.h>
shared int x __attribute__((unused));
shared int y[THREADS] __attribute__((unused)), z;
int main(void)
{
    x = 1;
    return 0;
}
UPC
build attr -Wall
if [ -s "$out" ]; then fail "attributes after shared declarators leave no warning"; else ok "attributes after shared declarators leave no warning"; fi
# Static THREADS: mupcc -T 2 makes THREADS the constant 2, and the runtime
# refuses a job of another size.
"$mupcc" -T 2 -o "$tmp/cyclic2" "$dir/cyclic_array.upc" > "$out" 2>&1
rc=$?
expect_status "cyclic_array.upc compiles with -T 2" 0
run 2 60 "$tmp/cyclic2"
expect_output "and runs at 2 threads" "^Success: cyclic_array$"
run 3 60 "$tmp/cyclic2"
expect_failure "a -T 2 program started with 3 threads fails"
expect_output "saying what to run" "cyclic_array\\.upc was compiled for THREADS = 2 \\(mupcc -T 2\\) but the job has 3 threads: run it with mupcrun -n 2"
# ... and a `shared [*]` type name takes the block size its array would
"$mupcc" -T 2 -o "$tmp/localsizeof2" "$dir/localsizeof_constant.upc" > "$out" 2>&1
rc=$?
expect_status "localsizeof_constant.upc compiles with -T 2" 0
run 2 60 "$tmp/localsizeof2"
expect_output "and runs at 2 threads" "^Success: localsizeof_constant$"
# mupcc --profile: the compiler's GASP events (FORALL, C_FUNC, C_MALLOC,
# C_REALLOC, C_FREE), at the user's lines
cat > "$tmp/events.upc" <<'UPC'
#include <upc.h>
#include <stdlib.h>
shared int a[4 * THREADS];
static int twice(int i) { return 2 * i; }
int main(void)
{
    int i;
    upc_forall (i = 0; i < 4 * THREADS; i++; &a[i])
        a[i] = twice(i);
    char *p = malloc(10);
    p = realloc(p, 20);
    free(p);
    return 0;
}
UPC
"$mupcc" --profile --tool gasp-dump -o "$tmp/events" "$tmp/events.upc" > "$out" 2>&1
rc=$?
expect_status "events.upc compiles with --profile --tool gasp-dump" 0
run 2 60 "$tmp/events"
expect_output "GASP_C_FUNC START for main at its line" "GASP_C_FUNC START [^ ]*events\\.upc:6 main"
expect_output "GASP_UPC_FORALL START at the forall's line" "GASP_UPC_FORALL START [^ ]*events\\.upc:8"
expect_output "and its END" "GASP_UPC_FORALL END [^ ]*events\\.upc:8"
expect_output "GASP_C_MALLOC at its line" "GASP_C_MALLOC START [^ ]*events\\.upc:10 nbytes=10"
expect_output "GASP_C_REALLOC at its line" "GASP_C_REALLOC START [^ ]*events\\.upc:11 .*size=20"
expect_output "GASP_C_FREE at its line" "GASP_C_FREE END [^ ]*events\\.upc:12"
if [ "$(grep -c 'GASP_C_FUNC END [^ ]*events.upc:4 twice' "$out")" = 8 ]; then
    ok "GASP_C_FUNC END for each of the 8 calls of twice (4 per thread)"
else fail "GASP_C_FUNC END for twice: $(grep -c 'GASP_C_FUNC END [^ ]*events.upc:4 twice' "$out") events, want 8"; fi
# A shared object defined tentatively in a header that several translation
# units include is one object (C's common-symbol tradition, as in Berkeley
# UPC), whether or not one unit also initializes it.
cat > "$tmp/common.h" <<'UPC'
#include <upc.h>
shared int counter;
shared int table[4 * THREADS];
void bump(void);
UPC
cat > "$tmp/unit_main.upc" <<'UPC'
#include "common.h"
#include <stdio.h>
shared int counter = 5;
int main(void)
{
    int before = counter;
    upc_barrier;
    bump();
    upc_barrier;
    if (MYTHREAD == 0)
        printf("units %d %d %d\n", before, table[1], counter);
    return 0;
}
UPC
cat > "$tmp/unit_bump.upc" <<'UPC'
#include "common.h"
void bump(void)
{
    if (MYTHREAD == THREADS - 1) {
        table[1] = 7;
        counter += 3;
    }
}
UPC
"$mupcc" -o "$tmp/units" "$tmp/unit_main.upc" "$tmp/unit_bump.upc" > "$out" 2>&1
rc=$?
expect_status "two units with the same tentative shared definitions link" 0
run 2 60 "$tmp/units"
expect_output "and share one object, initialized by one unit" "^units 5 7 8$"
sed 's/shared int counter = 5;//' "$tmp/unit_main.upc" > "$tmp/unit_plain.upc"
"$mupcc" -o "$tmp/units2" "$tmp/unit_plain.upc" "$tmp/unit_bump.upc" > "$out" 2>&1
rc=$?
expect_status "two units with only tentative definitions link" 0
run 3 60 "$tmp/units2"
expect_output "and share one zeroed object" "^units 0 7 3$"
# A UPC program that also calls MPI (hybrid): <mpi.h> is found, MPI runs
# with MPI_THREAD_MULTIPLE beside the communication pthread, the program's
# own MPI_Init_thread and MPI_Finalize leave MPI to libmupc, and
# MPI_COMM_WORLD ranks are the UPC threads.  With shm = off every barrier
# and read is a message while the program's collectives run.
cat > "$tmp/hybrid.upc" <<'UPC'
#include <upc.h>
#include <mpi.h>
#include <stdio.h>
shared int v[THREADS];
int main(int argc, char **argv)
{
    int provided, rank, size, ok = 1;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int it = 0; it < 100; it++) {
        v[MYTHREAD] = it + rank;
        upc_barrier;
        int other = v[(MYTHREAD + 1) % THREADS], sum = 0;
        MPI_Allreduce(&other, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        ok &= sum == THREADS * it + THREADS * (THREADS - 1) / 2;
        upc_barrier;
    }
    MPI_Finalize();
    if (MYTHREAD == 0)
        printf("hybrid %d %d %d\n", ok, size == THREADS, provided == MPI_THREAD_MULTIPLE);
    return !ok;
}
UPC
build hybrid
run 3 60 "$tmp/hybrid"
expect_output "a UPC program calls MPI on MPI_COMM_WORLD, rank = MYTHREAD" "^hybrid 1 1 1$"
MUPC_SHM=off run 4 60 "$tmp/hybrid"
expect_output "also while UPC's own traffic is messages" "^hybrid 1 1 1$"
# Warnings UPC wants, translation going on: #pragma upc with junk, without
# its argument, or after a declaration of its block; a pointer-to-shared
# converted to a local pointer without a cast.
cat > "$tmp/warn.upc" <<'UPC'
#include <upc.h>
shared int a[THREADS];
#pragma upc junk
#pragma upc
int main(void)
{
    int x = 0;
#pragma upc strict
    int *p = &a[MYTHREAD]; /* line 9 */
    *p = 1;
    return x;
}
UPC
build warn
expect_output "an unknown #pragma upc is named" "warn\\.upc:3:[0-9]+: warning: '#pragma upc junk' is ignored"
expect_output "a bare #pragma upc too" "warn\\.upc:4:[0-9]+: warning: '#pragma upc' without 'strict' or 'relaxed'"
expect_output "a pragma after a declaration of its block" "warn\\.upc:8:[0-9]+: warning: '#pragma upc strict' after a declaration"
expect_output "a pointer-to-shared to a local pointer without a cast" "warn\\.upc:9:[0-9]+: warning: implicit conversion from a pointer-to-shared to a local pointer"
run 2 60 "$tmp/warn"
expect_status "and the program runs" 0
# A program's own header named like a library header wins, as in a C
# compiler's search: a reference implementation of the collectives brings
# its own upc_collective.h, with its own constants and its own
# upc_all_broadcast, which the runtime's macros must not rewrite.
mkdir -p "$tmp/ownlib.d"
cat > "$tmp/ownlib.d/upc_collective.h" <<'UPC'
#define MY_BRDCST 7
void upc_all_broadcast(shared void *dst, shared const void *src, size_t n, upc_flag_t f);
UPC
cat > "$tmp/ownlib.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
#include "upc_collective.h"
shared int a[THREADS];
shared int src;
void upc_all_broadcast(shared void *dst, shared const void *s, size_t n, upc_flag_t f)
{
    (void)f;
    if (MYTHREAD == 0)
        for (int t = 0; t < THREADS; t++)
            upc_memcpy((shared char *)dst + t, s, n);
    upc_barrier;
}
int main(void)
{
    if (MYTHREAD == 0)
        src = 41;
    upc_barrier;
    upc_all_broadcast(a, &src, sizeof(int), 0);
    if (MYTHREAD == 1)
        printf("ownlib %d %d\n", a[MYTHREAD] + 1, MY_BRDCST);
    return 0;
}
UPC
build ownlib -I"$tmp/ownlib.d"
run 2 60 "$tmp/ownlib"
expect_output "the program's own upc_collective.h and upc_all_broadcast, not the library's" "^ownlib 42 7$"
# main with parameters of other types (C99 §5.1.2.2.1 leaves them to the
# implementation; Berkeley bug853): a warning, as gcc gives, and it runs.
cat > "$tmp/oddmain.upc" <<'UPC'
#include <upc.h>
#include <stdio.h>
int main(int argc, char *argv)
{
    if (MYTHREAD == 0)
        printf("oddmain %d\n", argc > 0 && argv != 0);
    return 0;
}
UPC
build oddmain
expect_output "an odd main gets a warning naming it" "oddmain\\.upc:3:[0-9]+: warning: second parameter of 'main'"
run 2 60 "$tmp/oddmain"
expect_output "and runs" "^oddmain 1$"
finish
