#!/bin/sh
# SPDX-License-Identifier: MIT
# tools.sh -- mupcc and mupcrun as a user meets them: build a program with
# mupcc (with and without a GASP tool), run it with mupcrun, show settings.
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
MUPC_INCLUDEDIR=$top_srcdir/include
MUPC_LIBDIR=$top_builddir/.libs
MUPC_PROFILE_STUB=$top_srcdir/tools/mupc-profile-stub.sh
MUPC_SHOW_CONFIG=$top_builddir/tools/mupc-show-config
MUPCRUN_MPIRUN=$MPIRUN
MUPC_TOOLDIR=$top_builddir/tools
export MUPC_INCLUDEDIR MUPC_LIBDIR MUPC_PROFILE_STUB MUPC_SHOW_CONFIG MUPCRUN_MPIRUN MUPC_TOOLDIR
mupcc=$top_builddir/tools/mupcc
mupcrun=$top_builddir/tools/mupcrun

cat > "$tmp/hello.c" <<'PROG'
#include <mupc_upc.h>
#include <stdio.h>
MUPC_SHARED_ARRAY(x, int, 1, 1, MUPC_PER_THREAD)
int main(void) {
    MUPC_PUT(int, MUPC_ELEM(x, (MYTHREAD + 1) % THREADS), MYTHREAD);
    upc_barrier();
    printf("hello from %d of %d got %d\n", MYTHREAD, THREADS, MUPC_GET(int, MUPC_ELEM(x, MYTHREAD)));
    return 0;
}
PROG
# A GASP tool that counts events per thread and prints the count at exit.
cat > "$tmp/tool.c" <<'PROG'
#include <gasp.h>
#include <gasp_upc.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
struct _gasp_context_S { int events; };
static struct _gasp_context_S ctx;
static void report(void) { printf("tool: %d events\n", ctx.events); }
gasp_context_t gasp_init(gasp_lang_t lang, int *argc, char ***argv) { atexit(report); return &ctx; }
void gasp_event_notifyVA(gasp_context_t c, unsigned int tag, gasp_evttype_t t, const char *f, int l, int col, va_list ap) { c->events++; }
void gasp_event_notify(gasp_context_t c, unsigned int tag, gasp_evttype_t t, const char *f, int l, int col, ...) { c->events++; }
PROG

"$mupcc" --version > "$out" 2>&1; rc=$?
expect_status "mupcc --version" 0
expect_output "mupcc names itself" "mupcc \\(libmupc\\)"
"$mupcc" -show -o "$tmp/x" "$tmp/hello.c" > "$out" 2>&1; rc=$?
expect_output "mupcc -show prints the mpicc line" "-lmupc"

"$mupcc" -o "$tmp/hello" "$tmp/hello.c" > "$out" 2>&1; rc=$?
expect_status "mupcc builds a program" 0
"$mupcrun" -n 3 "$tmp/hello" > "$out" 2>&1; rc=$?
expect_status "mupcrun -n 3 runs it" 0
expect_output "thread 1 got thread 0's value" "hello from 1 of 3 got 0"

"$mupcc" -o "$tmp/hello_tool" "$tmp/hello.c" "$tmp/tool.c" > "$out" 2>&1; rc=$?
"$mupcrun" -n 2 "$tmp/hello_tool" > "$out" 2>&1; rc=$?
expect_status "a tool linked without --profile" 0
if grep -q "tool:" "$out"; then fail "no --profile: the tool must get no callbacks (not even gasp_init)"; else ok "no --profile: no callbacks"; fi

"$mupcc" --profile -o "$tmp/hello_prof" "$tmp/hello.c" "$tmp/tool.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile links" 0
"$mupcrun" -n 2 "$tmp/hello_prof" > "$out" 2>&1; rc=$?
expect_output "--profile: the tool counts events" "tool: [1-9][0-9]* events"

# gasp-dump, shipped with libmupc: one line per event per thread
"$mupcc" --profile --tool gasp-dump -o "$tmp/hello_dump" "$tmp/hello.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile --tool gasp-dump links" 0
"$mupcrun" -n 2 "$tmp/hello_dump" > "$out" 2>&1; rc=$?
expect_status "a program with gasp-dump runs" 0
expect_output "gasp-dump: thread 0's remote put, with its arguments" \
    "^ *[0-9.]+ 0 GASP_UPC_PUT START [^ ]*hello.c:5 relaxed n=4 dst=\(1,[0-9]+\)$"
expect_output "gasp-dump: thread 1's barrier end" "^ *[0-9.]+ 1 GASP_UPC_BARRIER END [^ ]*hello.c:6 named=0 expr=0$"
# where main returned is unknown: no position (NULL, 0), not the runtime's
expect_output "gasp-dump: the collective exit, with no position" \
    "^ *[0-9.]+ 1 GASP_UPC_COLLECTIVE_EXIT END \\?:0 status=0$"

# Non-collective exits reach the tool (GASP 1.4 §5.4.1): upc_global_exit
# with its caller's position, and a C exit() on one thread, whose position
# is unknown.
cat > "$tmp/ended.c" <<'PROG'
#include <mupc_upc.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    upc_barrier();
    if (MYTHREAD == THREADS - 1 && !strcmp(argv[1], "global")) upc_global_exit(7);
    if (MYTHREAD == THREADS - 1) exit(5);
    if (!strcmp(argv[1], "global")) upc_barrier();
    return 0;
}
PROG
"$mupcc" --profile --tool gasp-dump -o "$tmp/ended" "$tmp/ended.c" > "$out" 2>&1; rc=$?
expect_status "mupcc builds a program that exits on one thread" 0
"$mupcrun" -n 2 "$tmp/ended" global > "$out" 2>&1; rc=$?
expect_status "upc_global_exit(7) with gasp-dump" 7
expect_output "gasp-dump: upc_global_exit's event names the caller's line" \
    "^ *[0-9.]+ 1 GASP_UPC_NONCOLLECTIVE_EXIT ATOMIC [^ ]*ended.c:6 status=7$"
"$mupcrun" -n 2 "$tmp/ended" exit > "$out" 2>&1; rc=$?
expect_status "exit(5) on one thread with gasp-dump" 5
expect_output "gasp-dump: exit(5) ends its thread with COLLECTIVE_EXIT, with no position" \
    "^ *[0-9.]+ 1 GASP_UPC_COLLECTIVE_EXIT END \\?:0 status=5$"
n=$(grep -c "NONCOLLECTIVE_EXIT" "$out")
if [ "$n" = 0 ]; then ok "exit(5): no NONCOLLECTIVE_EXIT"; else fail "exit(5): $n NONCOLLECTIVE_EXIT events, want 0"; fi
# --tool alone implies --profile (it used to link a tool that got no events)
"$mupcc" --tool gasp-dump -o "$tmp/hello_dump_only" "$tmp/hello.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --tool gasp-dump without --profile links" 0
"$mupcrun" -n 2 "$tmp/hello_dump_only" > "$out" 2>&1; rc=$?
expect_output "and its tool gets the events" "^ *[0-9.]+ 0 GASP_UPC_PUT START [^ ]*hello.c:5 "
# gasp-profile and gasp-trace on a program whose events we can count:
# per thread 10 puts (line 8, measurement off), 5 gets (line 12), one
# 16-byte memget (line 13); measurement is off at exit, which must not
# lose the table.
cat > "$tmp/counted.c" <<'PROG'
#include <mupc_upc.h>
#include <pupc.h>
MUPC_SHARED_ARRAY(x, int, 4, 1, MUPC_PER_THREAD)
int main(void) {
    int peer = (MYTHREAD + 1) % THREADS, buf[4];
    pupc_control(0);
    for (int i = 0; i < 10; i++)
        MUPC_PUT(int, MUPC_ELEM(x, peer), i);
    pupc_control(1);
    upc_barrier();
    for (int i = 0; i < 5; i++)
        (void)MUPC_GET(int, MUPC_ELEM(x, peer));
    upc_memget(buf, MUPC_ELEM(x, peer), sizeof buf);
    upc_barrier();
    pupc_control(0);
    return 0;
}
PROG
"$mupcc" --profile --tool gasp-profile -o "$tmp/counted_prof" "$tmp/counted.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile --tool gasp-profile links" 0
"$mupcrun" -n 3 "$tmp/counted_prof" > "$out" 2>&1; rc=$?
expect_status "a program with gasp-profile runs" 0
expect_output "gasp-profile: one table for all threads" "^gasp-profile: 3 thread\(s\)"
expect_output "gasp-profile: gets summed over threads (3 x 5, 4 bytes each)" \
    "^UPC_GET +[^ ]*counted.c:12 +15 +60 +[0-9.]+ +[0-9.]+$"
expect_output "gasp-profile: the memget's bytes" "^UPC_MEMGET +[^ ]*counted.c:13 +3 +48 "
expect_output "gasp-profile: per event, the two barriers' lines summed" "^UPC_BARRIER +6 +0 "
if grep -q "^UPC_PUT" "$out"; then fail "gasp-profile counted puts made while measurement was off"; else ok "gasp-profile: no puts (measurement was off)"; fi
GASP_PROFILE_FILE=$tmp/profile.txt "$mupcrun" -n 2 "$tmp/counted_prof" > "$out" 2>&1; rc=$?
cp "$tmp/profile.txt" "$out" 2>/dev/null || : > "$out"
expect_output "gasp-profile: \$GASP_PROFILE_FILE gets the table" "^UPC_GET +[^ ]*counted.c:12 +10 +40 "

# Translated UPC reads data of other threads of the node inline; with a
# tool linked those reads are the runtime's again, so their events come
# (line 8: 5 reads of the next thread's element per thread), and reads of
# this thread's own data (line 9) raise none without --profile-local.
cat > "$tmp/counted_upc.upc" <<'PROG'
#include <upc.h>
int main(void) {
    shared int *p = upc_all_alloc(THREADS, sizeof(int));
    int peer = (MYTHREAD + 1) % THREADS, sum = 0;
    p[MYTHREAD] = MYTHREAD;
    upc_barrier;
    for (int i = 0; i < 5; i++)
        sum += p[peer];
    sum += p[MYTHREAD];
    upc_barrier;
    return sum != 5 * peer + MYTHREAD;
}
PROG
"$mupcc" --profile --tool gasp-profile -o "$tmp/counted_upc" "$tmp/counted_upc.upc" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile --tool gasp-profile links a UPC program" 0
"$mupcrun" -n 3 "$tmp/counted_upc" > "$out" 2>&1; rc=$?
expect_status "the UPC program with gasp-profile runs" 0
expect_output "gasp-profile: translated reads of another thread on the node are events (3 x 5)" \
    "^UPC_GET +[^ ]*counted_upc.upc:8 +15 +60 "
if grep -q "counted_upc.upc:9 " "$out"; then fail "gasp-profile: a read of local data raised an event without --profile-local"
else ok "gasp-profile: reads of local data raise no event without --profile-local"; fi

"$mupcc" --profile --tool gasp-trace -o "$tmp/counted_trace" "$tmp/counted.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile --tool gasp-trace links" 0
GASP_TRACE_FILE=$tmp/t.json "$mupcrun" -n 3 "$tmp/counted_trace" > "$out" 2>&1; rc=$?
expect_status "a program with gasp-trace runs" 0
expect_output "gasp-trace says where the trace is" "gasp-trace: wrote .*t.json \(3 of 3 threads\)"
if ls "$tmp"/t.json.*.part > /dev/null 2>&1; then fail "gasp-trace left its per-thread parts"; else ok "gasp-trace removed its parts"; fi
cp "$tmp/t.json" "$out" 2>/dev/null || : > "$out"
expect_output "trace: opens as a JSON object" '^\{"displayTimeUnit":"ns","traceEvents":\[$'
expect_output "trace: closes the array and the object" '^\]\}$'
expect_output "trace: one named track per thread" '"tid":2,"name":"thread_name","args":\{"name":"UPC thread 2"\}'
expect_output "trace: a memget slice with its line and bytes" \
    '^\{"ph":"B","pid":0,"tid":1,"ts":[0-9.]+,"name":"UPC_MEMGET","args":\{"at":"[^"]*counted.c:13","bytes":16\}\},?$'
# Every line between the first and the last is one object; slices pair up.
lines=$(wc -l < "$out") bad=$(sed '1d;$d' "$out" | grep -cv '^{.*},\?$')
if [ "$lines" -gt 10 ] && [ "$bad" = 0 ]; then ok "trace: one JSON object per line"; else fail "trace: $bad malformed lines of $lines"; fi
if command -v python3 > /dev/null; then
    if python3 -m json.tool "$tmp/t.json" > /dev/null 2>&1; then ok "trace: python3 parses it as JSON"; else fail "trace: python3 cannot parse $tmp/t.json"; fi
fi
for t in 0 1 2; do
    b=$(grep -c "\"ph\":\"B\",\"pid\":0,\"tid\":$t," "$out")
    e=$(grep -c "\"ph\":\"E\",\"pid\":0,\"tid\":$t," "$out")
    if [ "$b" -gt 0 ] && [ "$b" = "$e" ]; then ok "trace: thread $t's $b slices all end"; else fail "trace: thread $t has $b begins and $e ends"; fi
done

# An END whose START came while measurement was off closes nothing: each
# thread's trace has outer and the barrier, both closed, and no stray "E".
cat > "$tmp/toggled.c" <<'PROG'
#include <mupc_upc.h>
#include <pupc.h>
int main(void) {
    unsigned int outer = pupc_create_event("outer", NULL), inner = pupc_create_event("inner", NULL);
    pupc_event_start(outer);
    pupc_control(0);
    pupc_event_start(inner);
    pupc_control(1);
    pupc_event_end(inner);
    upc_barrier();
    pupc_event_end(outer);
    return 0;
}
PROG
"$mupcc" --profile --tool gasp-trace -o "$tmp/toggled" "$tmp/toggled.c" > "$out" 2>&1; rc=$?
GASP_TRACE_FILE=$tmp/toggled.json "$mupcrun" -n 2 "$tmp/toggled" > "$out" 2>&1; rc=$?
expect_status "gasp-trace with measurement switched inside a slice" 0
cp "$tmp/toggled.json" "$out" 2>/dev/null || : > "$out"
expect_output "trace: a user event carries its name" '"tid":1,"ts":[0-9.]+,"name":"outer"'
b=$(grep -c '"ph":"B"' "$out") e=$(grep -c '"ph":"E"' "$out")
if [ "$b" = 4 ] && [ "$e" = 4 ]; then ok "trace: no stray end from the untraced start"; else fail "trace: $b begins and $e ends, want 4 and 4"; fi

# --profile-only with a file that names no event: no system event at all,
# and thread 0 says so once (a missing list would mean every event).
printf '# nothing wanted\n\n   # not even this\n' > "$tmp/none.events"
"$mupcc" --profile-only "$tmp/none.events" -o "$tmp/hello_none" "$tmp/hello.c" "$tmp/tool.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --profile-only with an empty list links" 0
"$mupcrun" -n 2 "$tmp/hello_none" > "$out" 2>&1; rc=$?
expect_status "a program with an empty event list runs" 0
n=$(grep -c "^tool: 0 events$" "$out")
if [ "$n" = 2 ]; then ok "empty --profile-only list: no events on either thread"; else fail "empty --profile-only list: $n of 2 threads got no events"; fi
n=$(grep -c "list names no event" "$out")
if [ "$n" = 1 ]; then ok "empty --profile-only list: said once at start-up"; else fail "empty --profile-only list: said $n times, want once"; fi

# pupc_control returns the previous value set, with the weak default tool
# (--profile, no tool linked) as without --profile.
cat > "$tmp/control.c" <<'PROG'
#include <mupc_upc.h>
#include <pupc.h>
#include <stdio.h>
int main(void) {
    int a = pupc_control(0), b = pupc_control(1), c = pupc_control(1);
    if (MYTHREAD == 0) printf("pupc_control returned %d %d %d\n", a, b, c);
    return 0;
}
PROG
for flag in "" --profile; do
    "$mupcc" $flag -o "$tmp/control" "$tmp/control.c" > "$out" 2>&1; rc=$?
    "$mupcrun" -n 1 "$tmp/control" > "$out" 2>&1; rc=$?
    expect_output "pupc_control: the previous value set (${flag:-no tool})" "^pupc_control returned 1 0 1$"
done

"$mupcc" --tool no-such-tool -o "$tmp/x" "$tmp/hello.c" > "$out" 2>&1; rc=$?
expect_status "mupcc --tool with an unknown tool is refused" 2
expect_output "and lists the tools there are" "no tool 'no-such-tool' .*gasp-dump gasp-profile gasp-trace"

"$mupcrun" --set batch_size=4K --show-config > "$out" 2>&1; rc=$?
expect_status "mupcrun --show-config" 0
expect_output "--set reaches the settings" "batch_size = 4K"
"$mupcrun" --set batch_size=3 --show-config > "$out" 2>&1; rc=$?
expect_output "--show-config reports bad values" "batch_size: 3"
"$mupcrun" --set bogus_key=1 -n 2 "$tmp/hello" > "$out" 2>&1; rc=$?
expect_status "mupcrun --set with an unknown key is refused" 2
expect_output "and names the key and the known ones" "unknown key 'bogus_key'; known keys: segment_size"
"$mupcrun" "$tmp/hello" > "$out" 2>&1; rc=$?
expect_output "mupcrun without -n explains" "-n needs a positive number"

# Launcher options mupcrun does not know go to the MPI launcher, before the
# program, with their arguments.  A fake launcher prints the words it gets,
# one a line: launched ARGS... runs mupcrun with it; expect_argv DESCRIPTION
# WORDS... checks that it got exactly WORDS.
cat > "$tmp/fake-mpirun" <<'FAKE'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done
FAKE
chmod +x "$tmp/fake-mpirun"
: > "$tmp/empty.conf"
launched() { MUPCRUN_MPIRUN=$tmp/fake-mpirun "$mupcrun" "$@" > "$out" 2>&1; rc=$?; }
expect_argv() {
    desc=$1; shift
    if [ "$rc" = 0 ] && [ "$(cat "$out")" = "$(printf '%s\n' "$@")" ]; then ok "$desc"
    else fail "$desc: the launcher got [$(tr '\n' ' ' < "$out")] (status $rc), want [$*]"; fi
}
# passes DESCRIPTION N "OPTIONS" "PROGRAM ARGS": the launcher gets
# -n N OPTIONS PROGRAM ARGS, whether -n N comes first or after OPTIONS (only
# then does an option that eats too few or too many words show).
passes() {
    launched -n $2 $3 $4; expect_argv "$1" -n $2 $3 $4
    launched $3 -n $2 $4; expect_argv "$1 (-n after it)" -n $2 $3 $4
}
passes "-f FILE goes to the launcher, before the program" 8 "-f hosts" "./prog a b"
passes "-ppn N -hosts LIST go to the launcher" 8 "-ppn 4 -hosts a,b" ./prog
passes "Open MPI's --hostfile FILE goes to the launcher" 4 "--hostfile h" ./prog
passes "-genv NAME VALUE takes two words" 4 "-genv FOO 1" ./prog
passes "-bind-to core goes to the launcher" 4 "-bind-to core" ./prog
passes "Open MPI's --map-by, --bind-to, -x and --mca" 4 \
    "--map-by ppr:2:node --bind-to core -x LD_LIBRARY_PATH --mca btl self" ./prog
passes "flags go as one word each; the program's own options stay the program's" 2 \
    "-l -verbose -prepend-rank" "./prog -f x"
launched --set cache=off -f h --conf "$tmp/empty.conf" -np 2 -env A "b c" ./prog "d e"
expect_argv "launcher options mix with mupcrun's own, in their order" -n 2 -f h -env A "b c" ./prog "d e"
launched -n 2 --mpi-arg --sett --mpi-arg "a b" ./prog
expect_argv "--mpi-arg WORD passes WORD as it is" -n 2 --sett "a b" ./prog
launched -n 2 -f h -- -prog x
expect_argv "-- ends the options" -n 2 -f h -prog x
launched -n 2 -f
expect_status "a launcher option without its argument is refused" 2
expect_output "and says what it needs" "'-f' needs 1 argument"
launched -n 2 --sett x=1 ./prog
expect_status "mupcrun --sett is a typo, not a launcher option" 2
expect_output "and the error names --set" "unknown option '--sett'; did you mean --set\?"
launched -n 2 --show-confg ./prog
expect_status "mupcrun --show-confg is refused" 2
expect_output "and the error names --show-config" "did you mean --show-config\?"
launched --cnf "$tmp/empty.conf" -n 2 ./prog
expect_output "mupcrun --cnf: the error names --conf" "unknown option '--cnf'; did you mean --conf\?"
"$mupcrun" --help > "$out" 2>&1; rc=$?
expect_output "usage says where other options go" "^other options \(-f FILE, -ppn N, -hosts LIST, .*\) *$"
expect_output "usage documents --mpi-arg" "^ +--mpi-arg WORD "
# Through the real launcher: an option for it reaches it, and the program runs.
if "$MPIRUN" --version 2>&1 | grep -q HYDRA; then
    envopt="-genv MUPCRUN_PASSED yes" tagopt=-l tagged='^\[1\] hello from 1 of 2 got 0'
else
    envopt="-x MUPCRUN_PASSED=yes" tagopt=--tag-output tagged='^\[[0-9]+,1\]<stdout>: ?hello from 1 of 2 got 0'
fi
"$mupcrun" -n 2 $envopt sh -c 'echo "rank sees MUPCRUN_PASSED=$MUPCRUN_PASSED"' > "$out" 2>&1; rc=$?
n=$(grep -c "^rank sees MUPCRUN_PASSED=yes$" "$out")
if [ "$rc" = 0 ] && [ "$n" = 2 ]; then ok "the real launcher gets $envopt"; else fail "$envopt: $n of 2 ranks saw it (status $rc)"; fi
"$mupcrun" -n 2 $tagopt "$tmp/hello" > "$out" 2>&1; rc=$?
expect_status "mupcrun -n 2 $tagopt runs a program through the real launcher" 0
expect_output "and the launcher tags its output" "$tagged"
finish
