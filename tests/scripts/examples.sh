#!/bin/sh
# examples.sh -- every example runs briefly with 1-4 threads and checks
# its own result.
. "$top_srcdir/tests/scripts/lib.sh"
for n in 1 2 3 4; do
    run $n 60 "$top_builddir/examples/heat" 2000 50
    expect_status "heat on $n threads" 0
    expect_output "heat checks itself on $n threads" "max error .* vs sequential: OK"
done
finish
