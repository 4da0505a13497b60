#!/bin/sh
# SPDX-License-Identifier: MIT
# examples.sh -- every example (UPC, examples/*.upc) runs briefly with 1-4
# threads, with the cache off and on, and checks its own result; bad
# arguments get a usage message.  examples/matmul_c, matmul written by hand
# in C, agrees with the translated matmul.
. "$top_srcdir/tests/scripts/lib.sh"
ex=$top_builddir/examples
if [ ! -x "$ex/heat" ]; then
    echo "FAIL: the examples were not built: they are UPC, and configure found no libclang for the translator (run ./quickstart)"
    exit 1
fi
# matmul's output without its times, to compare with matmul_c's
untimed() { sed -e 's/: [0-9.]* s, /: T s, /' -e '/^matmul\.seconds /d' "$out"; }
# agree N CACHE DESCRIPTION ARGS...: matmul_c prints what matmul printed,
# times aside, with the cache on or off
agree() {
    n_=$1 cache_=$2 what=$3
    shift 3
    run "$n_" 60 env MUPC_CACHE="$cache_" "$ex/matmul" "$@"
    untimed > "$out.upc"
    run "$n_" 60 env MUPC_CACHE="$cache_" "$ex/matmul_c" "$@"
    untimed > "$out.c"
    if [ "$rc" = 0 ] && grep -q "check OK" "$out.c" && cmp -s "$out.upc" "$out.c"; then
        ok "$what: matmul_c (C) agrees with matmul (UPC)"
    else
        fail "$what: matmul_c (C) and matmul (UPC) differ: $(cat "$out.upc") | $(cat "$out.c")"
    fi
    rm -f "$out.upc" "$out.c"
}
for n in 1 2 3 4; do
    run $n 60 "$ex/heat" 2000 50
    expect_status "heat on $n threads" 0
    expect_output "heat checks itself on $n threads" "max error .* vs sequential: OK"
    for c in off on; do
        run $n 60 env MUPC_CACHE=$c "$ex/histogram" 4096 20
        expect_output "histogram, cache $c, $n threads" "^histogram: $n UPC threads, 4096 bins, .* check OK$"
        run $n 60 env MUPC_CACHE=$c "$ex/histogram" --racy 4096 20
        expect_output "histogram --racy, cache $c, $n threads" "^histogram --racy: .* lost updates .* check OK$"
        run $n 60 env MUPC_CACHE=$c "$ex/sobel" 64
        expect_output "sobel, cache $c, $n threads" "^sobel: $n UPC threads, 64x64 image, .* check OK$"
    done
    m=$((12 * n)) # a multiple of THREADS
    for loop in naive temporal; do
        for layout in cyclic block; do
            run $n 60 env MUPC_CACHE=on "$ex/matmul" --loop $loop --layout $layout $m
            expect_output "matmul $loop $layout, $n threads" \
                "^matmul: $loop loop, $layout striped, ${m}x$m, $n UPC threads: .* check OK$"
            if [ "$n" = 2 ] || [ "$n" = 3 ]; then
                agree $n on "matmul $loop $layout, $n threads" --loop $loop --layout $layout $m
            fi
        done
    done
done
# the cache's miss rate is reported and parses
expect_output "matmul reports its miss rate" "^matmul.miss_rate_pct [0-9.]+$"
run 2 30 env MUPC_CACHE=off "$ex/matmul" --loop temporal 24
expect_output "matmul with the cache off" "^matmul: temporal loop, cyclic striped, 24x24, 2 UPC threads: .* cache off, check OK$"
agree 2 off "matmul with the cache off" --loop temporal 24

# bad arguments: a message naming the fault, status 2
run 3 30 "$ex/matmul" 10
expect_status "matmul N not a multiple of THREADS" 2
expect_output "and says so" "N must be .* a multiple of THREADS"
run 2 30 "$ex/matmul" --loop fast
expect_status "matmul unknown loop" 2
expect_output "and names the argument" "matmul: unknown or incomplete argument '--loop'"
run 3 30 "$ex/matmul_c" 10
expect_status "matmul_c N not a multiple of THREADS" 2
expect_output "and says so" "N must be .* a multiple of THREADS"
run 2 30 "$ex/histogram" 4096 101
expect_status "histogram PERCENT out of range" 2
expect_output "and names it" "histogram: bad PERCENT '101'"
run 2 30 "$ex/sobel" 2
expect_status "sobel N too small" 2
expect_output "and names it" "sobel: bad N '2'"
# UPC with OpenMP: a team of 2 beside each rank
for n in 1 2 3 4; do
    run $n 60 env OMP_NUM_THREADS=2 "$ex/hybrid" 20000 10
    expect_output "hybrid (OpenMP teams of 2) on $n threads checks itself" \
        "^hybrid: $n UPC threads x 2 OpenMP threads, .* vs sequential: OK$"
done
run 2 30 "$ex/hybrid" 0
expect_status "hybrid N out of range" 2
expect_output "and says so" "usage: hybrid"
finish
