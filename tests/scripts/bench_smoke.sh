#!/bin/sh
# bench_smoke.sh -- `make bench` works: a quick pass of bench/run-bench
# produces every figure the core-runtime issue asks for, each a number.
. "$top_srcdir/tests/scripts/lib.sh"
MPIRUN=$MPIRUN BENCH_BUILDDIR=$top_builddir timeout -k 5 240 \
    bash "$top_srcdir/bench/run-bench" --quick > "$out" 2>&1
rc=$?
expect_status "run-bench --quick" 0
for name in mpi.pingpong.rtt_us mpi.pingpong.bw_mbs mpi.rma_get_us mpi.barrier.us \
            mpi.barrier_4t_us mupc.get.latency_us mupc.put.issue_us mupc.memget.bw_mbs \
            mupc.barrier.us mupc.get.latency_4t_us mupc.barrier_4t_us mupc.idle.extra_cpu_s \
            mupc.alloc.global_us mupc.lock.uncontended_us mupc.atomic.fadd_us \
            mupc.alloc.all_us mupc.lock.contended_us mupc.local.hot_get_ns mupc.cache.hit_ns \
            mupc.cache.miss_us mupc.vector.cached_us_per_dword mupc.gasp.get_nohooks_us \
            mupc.gasp.get_hooks_us mupc.gasp.get_count_us gasp.overhead.none_pct \
            gasp.overhead.count_pct; do
    expect_output "prints $name" "^$name -?[0-9]+\\.[0-9]+$"
done
expect_output "prints the marks" "^mark get_vs_mpi_rtt "
expect_output "prints the cache marks" "^mark vector_cached_vs_get "
expect_output "prints the GASP marks" "^mark gasp_overhead_count_pct "
# The counting tool in bench/gasp_count really gets the events it is timed with.
GASP_COUNT_REPORT=1 MUPC_CACHE=off timeout -k 5 60 $MPIRUN -n 2 "$top_builddir/bench/gasp_count" --quick > "$out" 2>&1
rc=$?
expect_status "bench/gasp_count --quick" 0
expect_output "its tool counted thread 0's gets" "^gasp_count_tool: thread 0 counted [1-9][0-9]* gets$"
finish
