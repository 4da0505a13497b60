#!/bin/sh
# SPDX-License-Identifier: MIT
# check-mpi.sh DIR FAMILY -- `make check-mpi MPI=FAMILY`: libmupc built
# again against the other MPI (mpich or openmpi) in its own tree,
# DIR/FAMILY, from the fresh copy of the sources in DIR/src (make distdir),
# and its MPI set of tests run there (check-mpi-set in tests/Makefile.inc:
# the multi-rank programs, the examples, the drivers, every way a job
# ends, and the cross-host and Slurm tests).  Installs the MPI's Debian
# packages when root (tests/scripts/packages.sh); otherwise one SKIP line.
# The logs stay in DIR/FAMILY for reading.
set -u
dir=$1 family=$2
src=$(cd "$dir/src" && pwd)
make=${MAKE:-make}
case $family in
openmpi) packages="openmpi-bin libopenmpi-dev" name="Open MPI" ;;
mpich) packages="mpich libmpich-dev" name=MPICH ;;
*) echo "check-mpi: MPI=mpich or MPI=openmpi, got '$family'" >&2; exit 2 ;;
esac
. "$src/tests/scripts/packages.sh"
need_packages "check-mpi: $name" $packages || exit 0

build=$dir/$family
mkdir -p "$build"
echo "check-mpi: configure and build against $name in $build"
if ! (cd "$build" && "$src/configure" --quiet --with-mpi="$family" > configure.out 2>&1 &&
      $make -j"$(nproc 2>/dev/null || echo 2)" > make.out 2>&1); then
    echo "check-mpi: the build against $name failed; see $build/configure.out and $build/make.out" >&2
    exit 1
fi
echo "check-mpi: $(cd "$build" && tools/mupcrun --version)"
echo "check-mpi: make check-mpi-set"
if (cd "$build" && $make check-mpi-set > check.out 2>&1); then
    grep -E '^(SKIP):|^# (TOTAL|PASS|SKIP|FAIL):' "$build/check.out" | sed "s/^/check-mpi: $family: /"
else
    grep -E '^(FAIL|ERROR|SKIP):|^# (TOTAL|PASS|FAIL):' "$build/check.out" | sed "s/^/check-mpi: $family: /"
    echo "check-mpi: $name: failed; the logs are in $build/tests/*/*.log" >&2
    exit 1
fi
