#!/bin/sh
# SPDX-License-Identifier: MIT
# trend.sh -- mupc-trend end to end: ti-trend-prof's two bug shapes
# (examples/trend_read.upc, examples/trend_meta.upc) are built with the
# collecting tool, run at 1-4 threads and several sizes, and mupc-trend
# must rank the buggy line first with the growth it has, while the fixed
# versions show nothing growing faster than one operation per thread.
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
MUPC_INCLUDEDIR=$top_srcdir/include MUPC_LIBDIR=$top_builddir/.libs
MUPC_PROFILE_STUB=$top_srcdir/tools/mupc-profile-stub.sh MUPC_TOOLDIR=$top_builddir/tools
MUPC_TREND_QUIET=1
export MUPC_INCLUDEDIR MUPC_LIBDIR MUPC_PROFILE_STUB MUPC_TOOLDIR MUPC_TREND_QUIET
trend=$top_builddir/tools/mupc-trend
bug_line() { grep -n "TREND-BUG" "$top_srcdir/examples/$1.upc" | cut -d: -f1; }
fix_line() { grep -n "TREND-FIX" "$top_srcdir/examples/$1.upc" | cut -d: -f1; }

for prog in trend_read trend_meta; do
    "$top_builddir/tools/mupcc" --profile --tool mupc-trend -o "$tmp/$prog" \
        "$top_srcdir/examples/$prog.upc" > "$out" 2>&1; rc=$?
    expect_status "mupcc --profile --tool mupc-trend builds $prog" 0
done

# profile DIR N SIZE PROGRAM ARGS...: one run, its profile in DIR
profile() {
    dir=$1 n=$2 size=$3; shift 3
    mkdir -p "$dir"
    MUPC_TREND_DIR=$dir MUPC_TREND_FEATURE=size=$size run "$n" 60 "$@" "$size"
    [ "$rc" = 0 ] || fail "$* $size on $n threads: status $rc"
}
for n in 1 2 3 4; do
    profile "$tmp/read" $n 400 "$tmp/trend_read"
    profile "$tmp/read_fixed" $n 400 "$tmp/trend_read" --fixed
    profile "$tmp/meta" $n 60 "$tmp/trend_meta"
    profile "$tmp/meta_fixed" $n 60 "$tmp/trend_meta" --fixed
done
for size in 100 200 400 800; do
    profile "$tmp/read_sizes" 3 $size "$tmp/trend_read"
done
ls "$tmp/read" > "$out"
expect_output "one profile per run, named after the configuration" "^mupc-trend-trend_read-3t-size=400.prof$"

# first_row CSV-OUTPUT: "file line op a b"
first_row() { sed -n 2p "$out" | awk -F, '{ n = split($1, p, "/"); print p[n], $2, $3, $5, $6 }'; }
# expect_first DESCRIPTION FILE LINE OP A B: the least scalable trend, a and b within 1 %
expect_first() {
    set -- "$@" $(first_row)
    if [ "$7 $8 $9" = "$2 $3 $4" ] &&
        awk -v a="${10}" -v b="${11}" -v wa="$5" -v wb="$6" 'BEGIN {
            exit !((a - wa) ^ 2 <= (0.01 * wa) ^ 2 + 1e-6 && (b - wb) ^ 2 <= (0.01 * wb) ^ 2 + 1e-6) }'; then
        ok "$1"
    else
        fail "$1: first trend is '$7 $8 $9 a=${10} b=${11}', want '$2 $3 $4 a=$5 b=$6'"
    fi
}

# (a) every thread reads thread 0's table element by element: (p - 1) x 400 gets
"$trend" --format csv "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_status "mupc-trend over trend_read's profiles" 0
expect_first "trend_read: the element-wise read is ranked first, 400p - 400 ((1 - 1/p) x size per thread)" \
    trend_read.upc "$(bug_line trend_read)" get -400 400
"$trend" "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_output "the table shows the buggy line with its model" \
    "^trend_read.upc $(bug_line trend_read) +get +400p - 400 +1200$"
"$trend" --predict threads=64 --format csv "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_output "--predict: 25200 gets at 64 threads" "^[^,]*trend_read.upc,$(bug_line trend_read),get,.*,25200$"
"$trend" --feature size --format csv "$tmp"/read_sizes/*.prof > "$out" 2>&1; rc=$?
expect_first "trend_read against the size at 3 threads: 2 x size" trend_read.upc "$(bug_line trend_read)" get 0 2
"$trend" --format csv "$tmp"/read_fixed/*.prof > "$out" 2>&1; rc=$?
expect_output "trend_read --fixed: one memget per remote thread" "trend_read.upc,$(fix_line trend_read),memget,\"p - 1\","
if awk -F, 'NR > 1 && $6 > 1.001 { bad = 1 } END { exit !bad }' "$out"; then
    fail "trend_read --fixed: a trend grows faster than one operation per thread"
else ok "trend_read --fixed: nothing grows faster than one operation per thread"; fi
if [ "$(sed -n 2p "$out" | cut -d, -f2)" = "$(bug_line trend_read)" ]; then fail "the fixed version still shows the bug's line first"; else ok "the bug's line is not at the top after the fix"; fi

# (b) meta-data by one broadcast per item: 60 x p collective calls
"$trend" --format csv --op collective "$tmp"/meta/*.prof > "$out" 2>&1; rc=$?
expect_first "trend_meta: one broadcast per item is ranked first, 60p" \
    trend_meta.upc "$(bug_line trend_meta)" collective 0 60
"$trend" --format csv "$tmp"/meta/*.prof > "$out" 2>&1; rc=$?
expect_first "trend_meta: and first among all operations" trend_meta.upc "$(bug_line trend_meta)" collective 0 60
"$trend" --format csv "$tmp"/meta_fixed/*.prof > "$out" 2>&1; rc=$?
expect_output "trend_meta --fixed: one gather_all per thread" "trend_meta.upc,$(fix_line trend_meta),collective,\"p\","
if awk -F, 'NR > 1 && $6 > 2.001 { bad = 1 } END { exit !bad }' "$out"; then
    fail "trend_meta --fixed: a trend grows faster than two operations per thread"
else ok "trend_meta --fixed: nothing grows like the items"; fi

# Output formats and plots
"$trend" --format json --top 2 "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_output "--format json" "^\\{\"feature\":\"threads\",\"trends\":\\[$"
expect_output "json: points per trend" "\"points\":\\[\\[1,0\\],\\[2,400\\],\\[3,800\\],\\[4,1200\\]\\]"
if command -v python3 > /dev/null; then
    if python3 -m json.tool "$out" > /dev/null 2>&1; then ok "json: python3 parses it"; else fail "json: python3 cannot parse it"; fi
fi
"$trend" --plot "$tmp/plots" --top 2 "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
if [ -s "$tmp/plots/trend-1.dat" ] && [ -s "$tmp/plots/trend-2.gp" ] && [ ! -e "$tmp/plots/trend-3.gp" ]; then
    ok "--plot writes data and a gnuplot script per trend shown"
else fail "--plot: data or scripts missing in $tmp/plots"; fi
if command -v gnuplot > /dev/null; then
    expect_status "--plot with gnuplot" 0
    if [ -s "$tmp/plots/trend-1.svg" ]; then ok "--plot draws SVGs"; else fail "--plot drew no SVG"; fi
else
    expect_status "--plot without gnuplot fails" 1
    expect_output "and says what to install" "gnuplot is not installed \\(apt-get install gnuplot-nox\\)"
fi

# Misuse
"$trend" --feature size "$tmp"/read/*.prof "$tmp/read_sizes/mupc-trend-trend_read-3t-size=100.prof" > "$out" 2>&1; rc=$?
expect_status "two values of a feature: linear models" 0
expect_output "and it says so" "only 2 values of size: linear models only"
"$trend" "$tmp/read/mupc-trend-trend_read-2t-size=400.prof" > "$out" 2>&1; rc=$?
expect_status "one configuration is refused" 2
expect_output "with the reason" "all have threads = 2; a trend needs runs at 2 or more values"
"$trend" --feature iters "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_output "a missing feature is named with the file" "mupc-trend-trend_read-1t-size=400.prof has no feature 'iters'"
printf 'version\t1\nthreads\t2\nsite\ta.c\t3\tfetch\t1\t0\n' > "$tmp/bad.prof"
"$trend" "$tmp"/read/*.prof "$tmp/bad.prof" > "$out" 2>&1; rc=$?
expect_status "a bad profile is refused" 2
expect_output "naming file and line" "bad.prof:3: site record: unknown operation"
"$trend" --op fetch "$tmp"/read/*.prof > "$out" 2>&1; rc=$?
expect_output "an unknown --op is named" "unknown operation 'fetch'"
"$trend" > "$out" 2>&1; rc=$?
expect_output "no profiles: says what to give" "no profiles given"
MUPC_TREND_DIR=$tmp MUPC_TREND_FEATURE=size run 2 60 "$tmp/trend_read" 10
expect_output "a bad MUPC_TREND_FEATURE is named" "MUPC_TREND_FEATURE: 'size' is not name=number"
finish
