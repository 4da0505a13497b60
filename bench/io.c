/* SPDX-License-Identifier: MIT */
/*
 * io.c -- UPC-IO write bandwidth (<upc_io.h>, io/upc_io.c).
 *
 *   mupcrun -n N bench/io [--quick]
 *
 * Every thread writes its 1/N of 64 MiB (8 MiB with --quick) with
 * upc_all_fwrite_local at its own offset (individual file pointers), into
 * one file in $BENCH_IO_DIR, else $TMPDIR, else /tmp; the clock runs from
 * a barrier before the call to its return (UPC_OUT_ALLSYNC), without
 * upc_all_fsync: the same as bench/mpi_baselines times for
 * mpi.io.write_bw_mbs with MPI_File_write_at_all.
 *   mupc.io.write_bw_mbs   total bytes / time, median of 5 runs (3 quick)
 * (mupc.io.write_4t_bw_mbs at 4 threads).  The data are read back once
 * and checked; the file is deleted.
 */
#include <mupc_upc.h>
#include <upc_io.h>

#include "timing.h"

#include <stdint.h>
#include <unistd.h>

MUPC_SHARED_ARRAY(pid0, long, 1, 1, 1)

int main(int argc, char **argv)
{
    bench_plan_t plan = bench_plan(argc, argv);
    size_t total = (plan.quick ? 8u : 64u) << 20, mine = total / (size_t)THREADS;
    int runs = plan.quick ? 3 : 5;
    const char *dir = getenv("BENCH_IO_DIR");
    if (!dir || !*dir)
        dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    /* one name on every thread: thread 0's pid, through a collective */
    static char name[512];
    if (MYTHREAD == 0)
        MUPC_PUT(long, MUPC_ELEM(pid0, 0), (long)getpid());
    upc_barrier();
    snprintf(name, sizeof name, "%s/mupc_bench_io_%ld.dat", dir, MUPC_GET(long, MUPC_ELEM(pid0, 0)));

    unsigned char *buf = malloc(mine);
    if (!buf)
        return 1;
    for (size_t i = 0; i < mine; i++)
        buf[i] = (unsigned char)(i * 7 + (size_t)MYTHREAD);
    upc_file_t *fd = upc_all_fopen(name, UPC_RDWR | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_TRUNC
                                             | UPC_DELETE_ON_CLOSE, 0, NULL);
    if (!fd) {
        fprintf(stderr, "bench/io: cannot open %s\n", name);
        return 1;
    }
    double t[8];
    for (int r = 0; r < runs; r++) {
        upc_all_fseek(fd, (upc_off_t)MYTHREAD * (upc_off_t)mine, UPC_SEEK_SET);
        upc_barrier();
        double t0 = bench_now_us();
        upc_off_t n = upc_all_fwrite_local(fd, buf, 1, mine, UPC_IN_NOSYNC | UPC_OUT_ALLSYNC);
        t[r] = bench_now_us() - t0;
        if (n != (upc_off_t)mine) {
            fprintf(stderr, "bench/io: wrote %lld of %zu bytes\n", (long long)n, mine);
            return 1;
        }
    }
    /* read back and check */
    memset(buf, 0, mine);
    upc_all_fseek(fd, (upc_off_t)MYTHREAD * (upc_off_t)mine, UPC_SEEK_SET);
    if (upc_all_fread_local(fd, buf, 1, mine, 0) != (upc_off_t)mine)
        return 1;
    for (size_t i = 0; i < mine; i++)
        if (buf[i] != (unsigned char)(i * 7 + (size_t)MYTHREAD)) {
            fprintf(stderr, "bench/io: byte %zu of thread %d reads back wrong\n", i, MYTHREAD);
            return 1;
        }
    upc_all_fclose(fd);
    free(buf);
    if (MYTHREAD == 0)
        bench_report("mupc.io.write", "bw_mbs", THREADS, (double)total / bench_median(t, runs));
    return 0;
}
