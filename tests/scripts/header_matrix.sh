#!/bin/sh
# SPDX-License-Identifier: MIT
# header_matrix.sh -- the C compiler's own world in UPC programs: for each
# header of C17 and the compiler and library headers HPC codes use
# (<omp.h> with -fopenmp, <stdatomic.h>, <tgmath.h>, <quadmath.h> with
# -lquadmath, <immintrin.h>, <pthread.h>, <mpi.h>, <math.h> with
# -ffast-math; header_matrix_gen.sh writes one program per header), a
# condition on its macros in #if (as programs test LONG_MAX or
# ATOMIC_INT_LOCK_FREE), and a use
# of its typical macros and functions at file scope, in a function, on
# values read from and written to shared objects, and in a upc_forall body
# builds with the build tree's mupcc and gives the value C defines, at 2
# threads and at one of 1, 3 and 4 (in turn).  A failure names the header
# and the place; header_matrix_gen.sh says how to re-run one.
. "$top_srcdir/tests/scripts/lib.sh"
mupcc="$top_builddir/tools/mupcc"
gen="$top_srcdir/tests/scripts/header_matrix_gen.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
require_translator
# an OpenMP team of 2 beside each rank (the machine may have 2 cores)
OMP_NUM_THREADS=2; export OMP_NUM_THREADS

# every program built first, a build per core, then each run in turn
for h in $(bash "$gen" list); do
    bash "$gen" "$h" > "$tmp/$h.upc"
    # the header's flags after the source: -lquadmath is for the link
    echo "$h $mupcc -O1 -o $tmp/$h.bin $tmp/$h.upc $(bash "$gen" flags "$h")" >> "$tmp/builds"
done
build_all "$tmp" "$tmp/builds"
k=0
for h in $(bash "$gen" list); do
    built "$tmp" "$h"
    if [ "$rc" -ne 0 ]; then fail "<$h>: the program builds"; continue; fi
    for n in 2 $((k % 3 == 0 ? 1 : k % 3 + 2)); do
        run "$n" 60 "$tmp/$h.bin"
        expect_status "<$h> at $n threads: exits 0" 0
        expect_output "<$h> at $n threads: the value C defines in every place" "^ok thread 0: if file function shared forall"
    done
    k=$((k + 1))
done
finish
