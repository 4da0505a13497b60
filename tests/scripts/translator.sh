#!/bin/sh
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
if [ ! -x "$top_builddir/translator/mupc-translate" ]; then
    echo "FAIL: translator/mupc-translate was not built (configure found no libclang: run ./quickstart)"
    exit 1
fi

for src in "$dir"/*.upc; do
    name=$(basename "$src" .upc)
    "$mupcc" -O2 -Wall -o "$tmp/$name" "$src" > "$out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then fail "$name.upc compiles"; continue; fi
    for n in 1 2 3 4; do
        run "$n" 60 "$tmp/$name"
        if [ "$rc" -eq 0 ] && grep -q "^Success: $name\$" "$out" && ! grep -q "^Error:" "$out"; then
            ok "$name at $n threads"
        else
            fail "$name at $n threads (status $rc)"
        fi
    done
done

for src in "$dir"/errors/*.upc; do
    name=$(basename "$src")
    line=$(grep -n '/\* ERROR:' "$src" | head -n 1 | cut -d: -f1)
    words=$(sed -n 's|.*/\* ERROR: \(.*\) \*/.*|\1|p' "$src" | head -n 1)
    "$mupcc" -c -o "$tmp/x.o" "$src" > "$out" 2>&1
    rc=$?
    expect_failure "$name is refused"
    expect_output "$name: the error names $name:$line" "$name:$line:[0-9]+: error: "
    for word in $words; do
        if grep -i "error: " "$out" | grep -qi -- "$word"; then ok "$name: the message says '$word'"
        else fail "$name: the message lacks '$word'"; fi
    done
done

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
# An implicit conversion between pointers-to-shared of different block
# sizes compiles (as C's incompatible pointer assignments do) with a warning
# at its line; through shared void * it is silent.
cat > "$tmp/blockconv.upc" <<'UPC'
#include <upc.h>
shared [3] int a[3 * THREADS];
shared [4] int *p;
shared void *v;
int main(void)
{
    p = &a[2]; /* line 7 */
    int phase = (int)upc_phaseof(p);
    v = &a[2];
    p = v;
    return phase != 0;
}
UPC
build blockconv
expect_output "with a warning at line 7" "blockconv\\.upc:7:[0-9]+: warning: implicit conversion from a pointer-to-shared of block size 3 to block size 4"
if [ "$(grep -c warning "$out")" = 1 ]; then
    ok "and none for the conversions through shared void *"
else
    fail "and none for the conversions through shared void *"
fi
run 2 60 "$tmp/blockconv"
expect_status "the converted pointer has phase 0" 0
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
# index takes the general inline path, a relaxed local read is inline, and
# an object declared twice gets one descriptor.
cat > "$tmp/shape.upc" <<'UPC'
#include <upc.h>
shared int a[8 * THREADS];
shared int twice;
shared int twice;
int main(void)
{
    int j = 5;
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
expect_output "a relaxed read tests for local affinity inline" "__mupc_local\\(__mupc_p[0-9]+, sizeof\\(int\\)\\) \\? \\*\\(int \\*\\)"
if [ "$(grep -c 'mupc_static_t twice__mupc = ' "$tmp/shape.c")" = 1 ] &&
    grep -q 'extern mupc_static_t twice__mupc;' "$tmp/shape.c"; then
    ok "a shared object declared twice has one descriptor"
else
    fail "a shared object declared twice has one descriptor"
fi
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
finish
