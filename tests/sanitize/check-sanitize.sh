#!/bin/sh
# SPDX-License-Identifier: MIT
# check-sanitize.sh DIR -- `make check-sanitize`: the whole test suite again,
# once built with ThreadSanitizer and once with AddressSanitizer and
# UndefinedBehaviorSanitizer.  DIR/src holds a fresh copy of the sources
# (make distdir); each sanitizer gets its own build directory DIR/<name>,
# where its test logs stay for reading.  SANITIZERS=tsan or =asan runs
# only one (not MUPC_*: the runtime warns about MUPC_ variables that are no
# setting, and config.sh checks that warning).  Any report fails the test
# that caused it: the sanitizers stop the program (SIGABRT, below).
set -u
dir=$1
src=$(cd "$dir/src" && pwd)
make=${MAKE:-make}
jobs=$(nproc 2>/dev/null || echo 2)

# MPICH over UCX intercepts memory calls, which the sanitizers also do.
UCX_MEM_EVENTS=no
export UCX_MEM_EVENTS
# The shared segment's user data may race by design: see tsan.supp.
# history_size=7: the longest memory of old stacks, so a suppression can
# see the other side of a race.
# abort_on_error=1: a report ends the process by SIGABRT, as a crash
# would, not by exit status 66: MPICH 4.0.2's Hydra, with one rank per
# host, hangs when a rank exits with a failing status while the others
# wait (it cannot signal the dead rank's proxy, and stops there; seen
# with tests/scripts/cluster.sh, whose crash test TSan reports in UCX's
# signal handler).
TSAN_OPTIONS="halt_on_error=1 abort_on_error=1 exitcode=66 history_size=7 suppressions=$src/tests/sanitize/tsan.supp"
# MPICH's own allocations outlive MPI_Finalize (no leak checks); the
# runtime's fatal-signal handler is under test, so ASan leaves SIGSEGV,
# SIGBUS and SIGABRT to it.
ASAN_OPTIONS="detect_leaks=0 handle_segv=0 handle_sigbus=0 handle_abort=0 allow_user_segv_handler=1 abort_on_error=1 exitcode=66"
UBSAN_OPTIONS="print_stacktrace=1 halt_on_error=1 abort_on_error=1 exitcode=66"
export TSAN_OPTIONS ASAN_OPTIONS UBSAN_OPTIONS

status=0
for name in ${SANITIZERS:-tsan asan}; do
    case $name in
    tsan) flags="-fsanitize=thread" ;;
    asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" ;;
    *) echo "check-sanitize: unknown sanitizer '$name' (tsan or asan)" >&2; exit 2 ;;
    esac
    build=$dir/$name
    mkdir -p "$build"
    echo "check-sanitize: $name: configure and build in $build ($flags)"
    if ! (cd "$build" && "$src/configure" --quiet CFLAGS="-g -O1 $flags" > configure.out 2>&1 &&
          $make -j"$jobs" > make.out 2>&1); then
        echo "check-sanitize: $name: the build failed; see $build/configure.out and $build/make.out" >&2
        status=1
        continue
    fi
    echo "check-sanitize: $name: make check"
    if (cd "$build" && $make check > check.out 2>&1); then
        grep -E '^# (TOTAL|PASS|SKIP|FAIL):' "$build/check.out" | sed "s/^/check-sanitize: $name: /"
    else
        grep -E '^(FAIL|ERROR):|^# (TOTAL|PASS|FAIL):' "$build/check.out" | sed "s/^/check-sanitize: $name: /"
        echo "check-sanitize: $name: failed; the reports are in $build/tests/*/*.log" >&2
        status=1
    fi
done
exit $status
