#!/bin/sh
# SPDX-License-Identifier: MIT
# bounds.sh -- checks = bounds: every shared access outside the object it
# falls in stops the job naming the user's file:line, the object and its
# extent; correct programs (accesses up to the last element) still pass.
. "$top_srcdir/tests/scripts/lib.sh"
prog=$top_builddir/tests/mr/bounds
src=tests/mr/bounds.c
MUPC_CHECKS=bounds
export MUPC_CHECKS

line_of() { grep -n "LINE_$1 " "$top_srcdir/$src" | cut -d: -f1; }

# check MODE THREADS REGEX
check() {
    run "$2" 60 "$prog" "$1"
    expect_failure "$1 ($2 threads) fails"
    expect_output "$1 names the object and its extent" "$3"
    expect_output "$1 names $src:$(line_of "$1")" \
        "mupc: thread [0-9]+: .*bounds.c:$(line_of "$1"): .*check the index against the object's size"
}

off='offset [0-9]+ of thread'
range='offsets [0-9]+\.\.[0-9]+'
check static-past-end 2 "shared read: out of bounds: 8 bytes at $off 0 start 0 bytes past the end of static shared array 'cells' \(32 bytes on thread 0, $range\), in no live shared object"
check static-past-end 1 "shared read: out of bounds: 8 bytes at $off 0 start 0 bytes past the end of static shared array 'cells'"
check static-crossing 3 "upc_memput: out of bounds: 16 bytes at $off 2 run 8 bytes past the end of static shared array 'cells' \(32 bytes on thread 2, $range\)"
check static-strict 2 "shared write: out of bounds: 8 bytes at $off 1 start 0 bytes past the end of static shared array 'cells'"
check unnamed-static 2 "shared read: out of bounds: 4 bytes at $off 0 run 2 bytes past the end of the static shared array at offset [0-9]+ \(24 bytes on thread 0, $range\)"
check alloc-overflow 2 "upc_memput: out of bounds: 192 bytes at $off 0 run 128 bytes past the end of heap block allocated by upc_alloc of 64 bytes on thread 0 \($range\)"
check alloc-overflow 1 "upc_memput: out of bounds: 192 bytes at $off 0 run 128 bytes past the end of heap block allocated by upc_alloc of 64 bytes on thread 0"
check alloc-past-end 3 "shared write: out of bounds: 8 bytes at $off 0 run 4 bytes past the end of heap block allocated by upc_alloc of 60 bytes on thread 0"
check global-alloc 2 "upc_memget: out of bounds: 24 bytes at $off 1 run 8 bytes past the end of heap block allocated by upc_global_alloc of 16 bytes on thread 1"
check global-alloc 4 "upc_memget: out of bounds: 24 bytes at $off 3 run 8 bytes past the end of heap block allocated by upc_global_alloc of 16 bytes on thread 3"
check all-alloc 2 "upc_memset: out of bounds: 40 bytes at $off 0 run 8 bytes past the end of heap block allocated by upc_all_alloc of 32 bytes on thread 0"
check freed 2 "shared read: out of bounds: 8 bytes at $off 0 are in no live shared object"
check atomic 2 "mupc_fetch_add_long: out of bounds: 8 bytes at $off 0 start 0 bytes past the end of heap block allocated by upc_alloc of 64 bytes on thread 0"
check nbi 2 "non-blocking get: out of bounds: 40 bytes at $off 1 run 8 bytes past the end of static shared array 'cells'"
check memcpy 2 "upc_memcpy \(destination\): out of bounds: 40 bytes at $off 0 run 8 bytes past the end of static shared array 'cells'"

# Correct programs pass, accesses at the last element included.
for n in 1 2 3 4; do
    run "$n" 120 "$prog" ok
    expect_status "correct accesses up to every object's end ($n threads)" 0
    expect_output "ok mode ran ($n threads)" "bounds ok: $n threads OK"
done
for t in test_access test_heap test_atomic test_nb test_nonblocking test_pointers; do
    for n in 2 3; do
        MUPC_CACHE=on run "$n" 300 "$top_builddir/tests/mr/$t"
        expect_status "$t passes with checks = bounds ($n threads)" 0
    done
done
finish
