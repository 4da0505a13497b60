#!/bin/sh
# SPDX-License-Identifier: MIT
# typedef_matrix.sh -- UPC qualifiers applied to typedef names: for each
# kind of typedef (typedef_matrix_gen.sh writes one program per kind, with
# every qualifier in every place), the program builds with the build
# tree's mupcc and prints its Success line at 1, 2, 3 and 4 threads; a
# failure names the qualifier, the place and the check.  Then the
# conflicts the specification forbids are refused with a message naming
# them.
. "$top_srcdir/tests/scripts/lib.sh"
mupcc="$top_builddir/tools/mupcc"
gen="$top_srcdir/tests/scripts/typedef_matrix_gen.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
require_translator

kinds="int double ptr pts pts2pts struct_pts array s_int s_blk5 s_pts s_strict s_indef s_array"
# every program built first, a build per core, then each run in turn
for kind in $kinds; do
    sh "$gen" "$kind" > "$tmp/$kind.upc"
    echo "$kind $mupcc -O1 -o $tmp/$kind $tmp/$kind.upc" >> "$tmp/builds"
done
build_all "$tmp" "$tmp/builds"
for kind in $kinds; do
    built "$tmp" "$kind"
    if [ "$rc" -ne 0 ]; then fail "typedef kind $kind compiles"; continue; fi
    expect_success_at_threads "typedef_matrix_$kind" "$tmp/$kind"
done

# refuse SOURCE-LINE REGEX: a program with the line is refused naming it
refuse() {
    printf '#include <upc.h>\ntypedef shared [5] int S5;\ntypedef strict shared int SS;\n%s\nint main(void) { return 0; }\n' "$1" > "$tmp/bad.upc"
    "$mupcc" -c -o "$tmp/bad.o" "$tmp/bad.upc" > "$out" 2>&1
    rc=$?
    expect_failure "refused: $1"
    expect_output "  and named at bad.upc:4: $2" "bad\\.upc:4:[0-9]+: error: .*$2"
}
refuse 'shared [3] S5 a[5 * THREADS];' "\\[3\\] here and \\[5\\] from typedef 'S5'"
refuse 'shared [] S5 *p;' "\\[\\] here and \\[5\\] from typedef 'S5'"
refuse 'S5 shared [4] a[5 * THREADS];' "\\[4\\] here and \\[5\\] from typedef 'S5'"
refuse 'relaxed SS a[THREADS];' "'relaxed' applied to typedef 'SS', which is 'strict'"
refuse 'typedef shared int *sip; strict sip p;' "'strict' qualifies only shared types"
finish
