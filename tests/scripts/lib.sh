# SPDX-License-Identifier: MIT
# lib.sh -- helpers for the test scripts: run a program on N threads with a
# time limit, and check its status and output.
: "${MPIRUN:=mpirun}"
: "${top_builddir:=.}"
: "${top_srcdir:=.}"
failures=0
passes=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

# require_translator: fail the script at once when mupc-translate was not
# built (every UPC test needs it)
require_translator() {
    if [ ! -x "$top_builddir/translator/mupc-translate" ]; then
        echo "FAIL: translator/mupc-translate was not built (configure found no libclang: run ./quickstart)"
        exit 1
    fi
}

# build_all DIR LIST: the builds LIST names, one a line (a NAME, then the
# command and its arguments, none holding a blank), one per core at a
# time: compiling is most of some scripts' time, while the programs they
# build then run one at a time.  NAME's output goes to DIR/NAME.log and
# its exit status to DIR/NAME.rc.
build_all() {
    # (xargs -L continues a line that ends in a blank: none may)
    sed 's/[[:blank:]]*$//' "$2" | xargs -P "$(nproc)" -L 1 sh -c 'dir=$1 name=$2; shift 2
        "$@" > "$dir/$name.log" 2>&1; echo $? > "$dir/$name.rc"' sh "$1"
}

# built DIR NAME: the result of NAME's build_all build -> sets $rc, output in $out
built() {
    rc=$(cat "$1/$2.rc" 2>/dev/null || echo 127)
    cat "$1/$2.log" > "$out" 2>/dev/null
}

# run N SECONDS PROGRAM ARGS... -> sets $rc, output in $out
run() {
    n=$1 limit=$2
    shift 2
    timeout -k 5 "$limit" "$MPIRUN" -n "$n" "$@" > "$out" 2>&1
    rc=$?
}

ok() { passes=$((passes + 1)); echo "ok: $*"; }
fail() {
    failures=$((failures + 1))
    echo "FAIL: $*"
    echo "---- output ----"
    head -c 3000 "$out"
    echo "----------------"
}

# expect_output DESCRIPTION REGEX: the last run's output matches REGEX
expect_output() {
    if grep -Eq -- "$2" "$out"; then ok "$1"; else fail "$1: output lacks /$2/ (status $rc)"; fi
}

# expect_status DESCRIPTION WANT
expect_status() {
    if [ "$rc" = "$2" ]; then ok "$1"; else fail "$1: status $rc, want $2"; fi
}

expect_failure() {
    if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ]; then ok "$1"; else fail "$1: status $rc, want a failure that is not a time-out"; fi
}

# expect_success NAME DESCRIPTION: the last run printed `Success: NAME`,
# no `Error:` line, and exited 0 (the translator's self-checking programs)
expect_success() {
    if [ "$rc" -eq 0 ] && grep -q "^Success: $1\$" "$out" && ! grep -q "^Error:" "$out"; then
        ok "$2"
    else
        fail "$2 (status $rc)"
    fi
}

# expect_success_at_threads NAME PROGRAM: expect_success at 1, 2, 3 and 4
# threads
expect_success_at_threads() {
    for n in 1 2 3 4; do
        run "$n" 60 "$2"
        expect_success "$1" "$1 at $n threads"
    done
}

finish() {
    echo "$passes passed, $failures failed"
    [ "$failures" -eq 0 ]
}
