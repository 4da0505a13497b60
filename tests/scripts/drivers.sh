#!/bin/sh
# SPDX-License-Identifier: MIT
# drivers.sh -- an existing UPC code base builds unchanged: a UPC program
# in a .c file built with mupcc -x upc and with upcc (Berkeley UPC's
# options: -T, -fupc-threads, -shared-heap, -Wc, -Wl, -c then link, a
# Makefile calling $(UPCC)), run at 2 threads with upcrun; libm linked
# without -lm; unknown options refused; the man pages free of warnings.
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
builddir=$(cd "$top_builddir" && pwd)
srcdir=$(cd "$top_srcdir" && pwd)
# As a user has it: the build tree's tools on PATH (they find the build
# tree's headers, library and translator themselves), the test's launcher.
PATH=$builddir/tools:$PATH
MUPCRUN_MPIRUN=$MPIRUN
export PATH MUPCRUN_MPIRUN
unset MUPC_SEGMENT_SIZE UPC_SHARED_HEAP_SIZE UPCC_FLAGS
cd "$tmp" || exit 1

# A UPC program in a .c file (UPC code bases often use .c): shared data,
# a barrier, sqrt from libm, the segment size it got, and WC_VALUE, set
# only through upcc -Wc, below.
cat > prog.c <<'PROG'
#include <upc.h>
#include <stdio.h>
#include <math.h>
#include <mupc_ext.h>
#ifndef WC_VALUE
#define WC_VALUE 0
#endif
shared int x[THREADS];
int main(int argc, char **argv)
{
    x[MYTHREAD] = MYTHREAD + 10;
    upc_barrier;
    printf("thread %d of %d: neighbour %d root %.3f segment %zu wc %d\n", MYTHREAD, THREADS,
           x[(MYTHREAD + 1) % THREADS], sqrt((double)(argc + 3)), mupc_segment_size(), WC_VALUE);
    return 0;
}
PROG

# build DESCRIPTION COMMAND...: compile, output in $out
build() {
    desc=$1
    shift
    "$@" > "$out" 2>&1
    rc=$?
    expect_status "$desc" 0
}

# runs_on_2 DESCRIPTION PROGRAM: 2 threads see each other's data
runs_on_2() {
    run 2 60 "$2"
    expect_status "$1 runs on 2 threads" 0
    expect_output "$1: thread 0 reads thread 1's element" "thread 0 of 2: neighbour 11 root 2.000"
}

# static_2 DESCRIPTION PROGRAM: built for THREADS = 2, it refuses 3
static_2() {
    run 3 60 "$2"
    expect_failure "$1: a THREADS = 2 program refuses 3 threads"
    expect_output "$1: the refusal names the static THREADS" "compiled for THREADS = 2"
}

# -- mupcc -x upc: the .c file is UPC; -x c makes the next one C again.
# helper.c uses `shared` as a C name, which only compiles untranslated.
cat > helper.c <<'PROG'
int helper(void) { int shared = 5; return shared; }
PROG
cat > main2.c <<'PROG'
#include <upc.h>
#include <stdio.h>
int helper(void);
shared int y[THREADS];
int main(void)
{
    y[MYTHREAD] = helper() + MYTHREAD;
    upc_barrier;
    printf("thread %d of %d: got %d\n", MYTHREAD, THREADS, y[(MYTHREAD + 1) % THREADS]);
    return 0;
}
PROG
build "mupcc -x upc prog.c" mupcc -x upc -o prog_mupcc prog.c
runs_on_2 "mupcc -x upc" ./prog_mupcc
build "mupcc -x upc main2.c -x c helper.c" mupcc -x upc main2.c -x c helper.c -o mixed
run 2 60 ./mixed
expect_output "-x c: helper.c compiled as C, main2.c as UPC" "thread 0 of 2: got 6"
mupcc -o plain_c prog.c > "$out" 2>&1
rc=$?
expect_failure "without -x upc, mupcc compiles prog.c as C (so the UPC in it fails)"
build "mupcc -fupc-threads=2 -x upc" mupcc -fupc-threads=2 -x upc -o prog_gupc prog.c
static_2 "mupcc -fupc-threads=2" ./prog_gupc

# -- upcc: .c is UPC; libm without -lm; the static THREADS spellings.
build "upcc prog.c" upcc -o prog_upcc prog.c
runs_on_2 "upcc (sqrt from libm, no -lm given)" ./prog_upcc
for t in "-T 2" "-T=2" "-T2" "-fupc-threads-2" "-fupc-threads=2"; do
    name=prog_$(echo "$t" | tr -c 'a-zA-Z0-9\n' _)
    # shellcheck disable=SC2086
    build "upcc $t" upcc $t -o "$name" prog.c
    runs_on_2 "upcc $t" "./$name"
    static_2 "upcc $t" "./$name"
done

# -- -shared-heap: recorded in the program, overridden at run time
build "upcc -shared-heap=256MB" upcc -shared-heap=256MB -o prog_heap prog.c
run 2 60 ./prog_heap
expect_output "-shared-heap=256MB: the program starts with a 256 MB segment" "thread 0 of 2: .* segment 268435456 "
timeout -k 5 60 upcrun -n 2 -shared-heap=128MB ./prog_heap > "$out" 2>&1
rc=$?
expect_output "upcrun -shared-heap=128MB overrides the recorded size" "thread 1 of 2: .* segment 134217728 "
MUPC_SEGMENT_SIZE=32M timeout -k 5 60 upcrun -n 2 ./prog_heap > "$out" 2>&1
rc=$?
expect_output "MUPC_SEGMENT_SIZE in the environment overrides it too" "thread 0 of 2: .* segment 33554432 "
build "upcc -shared-heap 2GB" upcc -shared-heap 2GB -o prog_heap2 prog.c
run 2 60 ./prog_heap2
expect_output "-shared-heap 2GB" "thread 0 of 2: .* segment 2147483648 "
upcc -shared-heap=lots -o x prog.c > "$out" 2>&1
rc=$?
expect_status "upcc -shared-heap=lots is refused" 2
expect_output "and the message names the size" "-shared-heap 'lots'"

# -- separate compilation, then link
build "upcc -c prog.c" upcc -c prog.c
if [ -f prog.o ]; then ok "upcc -c prog.c gives prog.o"; else fail "upcc -c prog.c left no prog.o"; fi
build "upcc links prog.o" upcc -o prog_linked prog.o
runs_on_2 "upcc -c then link" ./prog_linked

# -- -Wc, and -Wl,: -Wc,A,B gives A and B to the C compiler (WC_VALUE
# reaches the program; -fno-common is on the compile line), -Wl, reaches
# the linker (it writes the map file).
build "upcc -v -Wc,... -Wl,..." upcc -v -Wc,-DWC_VALUE=42,-fno-common -Wl,-Map=prog.map -o prog_w prog.c
expect_output "-v prints the compile command with the -Wc, options" "mpicc[.a-z]* .*-DWC_VALUE=42 -fno-common"
if [ -s prog.map ]; then ok "-Wl,-Map=prog.map reaches the linker"; else fail "-Wl,-Map=prog.map: no map file"; fi
run 2 60 ./prog_w
expect_output "-Wc,-DWC_VALUE=42 reaches the program" "thread 0 of 2: .* wc 42$"

# -- accepted Berkeley options: one note each, the build goes on
build "upcc -network=udp -pthreads=4 -norc" upcc -network=udp -pthreads=4 -norc -o prog_notes prog.c
n=$(grep -c "^upcc: note: " "$out")
if [ "$n" = 2 ]; then ok "-network and -pthreads: one note each"; else fail "-network and -pthreads: $n notes, want 2"; fi

# -- a Makefile written for Berkeley UPC, and a job script's upcrun line
mkdir app && cd app || exit 1
cp ../prog.c .
printf 'UPCC = false\nprog: prog.c\n\t$(UPCC) -O -o prog prog.c\n' > Makefile
make UPCC=upcc > "$out" 2>&1
rc=$?
expect_status "make UPCC=upcc builds the program" 0
timeout -k 5 60 upcrun -n 2 ./prog > "$out" 2>&1
rc=$?
expect_status "upcrun -n 2 ./prog" 0
expect_output "upcrun -n 2: thread 1 reads thread 0's element" "thread 1 of 2: neighbour 10 "
cd .. || exit 1
upcrun -t -n 4 -N 2 ./prog_upcc a b > "$out" 2>&1
rc=$?
expect_output "upcrun -N 2 -n 4: 2 ranks per node (-ppn 2 or --npernode 2)" "mupcrun -n 4 --mpi-arg (-ppn|--npernode) --mpi-arg 2 ./prog_upcc a b$"
# inside a Slurm allocation, -c alone is checked against its nodes
SLURM_JOB_NUM_NODES=2 upcrun -t -n 4 -c 1 ./prog_upcc > "$out" 2>&1
rc=$?
expect_status "upcrun -c 1 -n 4 in a 2-node allocation: status 2" 2
expect_output "upcrun -c 1 -n 4 names the allocation" "do not fit on the allocation of -N 2 nodes of -c 1 threads"
SLURM_JOB_NUM_NODES=2 upcrun -t -n 4 -c 2 ./prog_upcc > "$out" 2>&1
rc=$?
expect_output "upcrun -c 2 -n 4 in a 2-node allocation fits" "mupcrun -n 4 --mpi-arg (-ppn|--npernode) --mpi-arg 2 ./prog_upcc$"

# -- unknown options: status 2, and the message names the option
upcc -bogus-flag -o x prog.c > "$out" 2>&1
rc=$?
expect_status "upcc -bogus-flag: status 2" 2
expect_output "upcc names the unknown option" "upcc: unknown option '-bogus-flag'"
upcrun -n 2 -bogus-flag ./prog_upcc > "$out" 2>&1
rc=$?
expect_status "upcrun -bogus-flag: status 2" 2
expect_output "upcrun names the unknown option" "upcrun: unknown option '-bogus-flag'"

# (the man pages: tests/scripts/man_pages.sh)

# upcc searches each source's directory for <...> includes too, as
# Berkeley's upcc does (programs write #include <local.h>).
mkdir -p "$tmp/proj"
cat > "$tmp/proj/local_defs.h" <<'H'
#define ANSWER 42
H
cat > "$tmp/proj/angle.c" <<'UPC'
#include <upc.h>
#include <stdio.h>
#include <local_defs.h>
int main(void)
{
    if (MYTHREAD == 0)
        printf("answer %d\n", ANSWER);
    return 0;
}
UPC
upcc -o "$tmp/angle" "$tmp/proj/angle.c" > "$out" 2>&1
rc=$?
expect_status "upcc finds <local_defs.h> beside the source" 0
run 2 60 "$tmp/angle"
expect_output "and the program runs" "^answer 42$"

# The preprocessor's options reach the translator and the C compiler:
# -include of a file that sets a feature macro (_GNU_SOURCE: strdupa) and
# a constant, for a UPC source and for a C source built beside it; the
# same feature macro written in the UPC file itself; -show prints both
# commands.
mkdir -p inc sys
cat > inc/conf.h <<'H'
#define _GNU_SOURCE 1
#define CONF_VALUE 7
H
echo '#define SYS_VALUE 5' > sys/sysval.h
cat > feat.upc <<'PROG'
#include <upc.h>
#include <stdio.h>
#include <string.h>
#include <sysval.h>
int helper(void);
int main(void)
{
    printf("feat %s %d %d %d\n", strdupa("ok"), CONF_VALUE, SYS_VALUE, helper());
    return 0;
}
PROG
cat > helper.c <<'PROG'
#include <string.h>
int helper(void) { return CONF_VALUE + (int)strlen(strdupa("ab")); }
PROG
mupcc -Wall -Werror -include inc/conf.h -isystem sys -o feat feat.upc helper.c > "$out" 2>&1
rc=$?
expect_status "mupcc -include FILE -isystem DIR reaches the translation and the C source" 0
run 2 60 ./feat
expect_output "  and the program sees the file's feature macro and constant" "^feat ok 7 5 9$"
mupcc -show -include inc/conf.h -iquote inc -imacros inc/conf.h -o feat feat.upc helper.c > "$out" 2>&1
expect_output "-show: the translation gets -include, -iquote and -imacros" "mupc-translate .*-include inc/conf.h -iquote inc -imacros inc/conf.h"
expect_output "-show: the C source gets -include and -imacros" "-iquote inc -include inc/conf.h -imacros inc/conf.h -c helper.c"
# A header of UPC declarations given with -include is translated like one
# the source includes itself; a system header given so is re-included.
cat > inc/decl.h <<'H'
shared int gx[THREADS];
static inline int twice(int v) { return 2 * v; }
H
printf '#include <upc.h>\nint main(void) { gx[MYTHREAD] = twice(MYTHREAD + 1); upc_barrier; printf("gx %%d\\n", gx[THREADS - 1]); return 0; }\n' > useinc.upc
mupcc -Wall -include inc/decl.h -include stdio.h -o useinc useinc.upc > "$out" 2>&1 && run 2 60 ./useinc
expect_output "-include of UPC declarations and of a system header" "^gx 4$"
cat > own.upc <<'PROG'
#define _GNU_SOURCE
#include <upc.h>
#include <stdio.h>
#include <string.h>
int main(void) { printf("own %s\n", strdupa("ok")); return 0; }
PROG
mupcc -Wall -Werror -o own own.upc > "$out" 2>&1 && run 1 60 ./own
expect_output "a feature macro defined in the UPC file reaches the system headers" "^own ok$"
finish
