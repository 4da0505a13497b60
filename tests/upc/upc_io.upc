/* SPDX-License-Identifier: MIT */
/* upc_io.upc -- UPC-IO (<upc_io.h>, UPC Optional Library Specifications
 * 1.3 §7.8): files written with individual file pointers and read back
 * with the common one into blocked shared arrays of two block sizes, and
 * the other way round; upc_all_fseek, upc_all_fget_size,
 * upc_all_fset_size, upc_all_fcntl; list I/O with local and shared
 * memory; asynchronous transfers with upc_all_fwait_async and
 * upc_all_ftest_async; failed opens return NULL with errno.  Files live
 * in $TMPDIR (or /tmp) under a name thread 0 makes unique. */
#include <upc.h>
#include <upc_io.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME "upc_io"
#define CHECK(cond, what)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            errors++;                                                         \
            printf("Error: %s: %s (thread %d, %s:%d)\n", NAME, what,          \
                   (int)MYTHREAD, __FILE__, __LINE__);                        \
        }                                                                     \
    } while (0)

#define N 8 /* ints per thread */
#define SYNC (UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC)

shared [N] int a[N * THREADS];
shared [3] int b[N * THREADS];
shared int c[N * THREADS];
shared [4] char sc[4 * THREADS];
shared [4] char sd[4 * THREADS];
shared [] char base[256];
shared int errs[THREADS];

int main(void)
{
    int errors = 0, i, total;
    int T = THREADS, me = MYTHREAD;
    char f1[300], f2[320], bad[320];
    int mine[N], got[N];
    upc_off_t r;
    upc_file_t *fd;

    if (MYTHREAD == 0) {
        const char *dir = getenv("TMPDIR");
        char tmp[256];
        snprintf(tmp, sizeof tmp, "%s/upcio_%ld", dir && *dir ? dir : "/tmp", (long)getpid());
        for (i = 0; i < (int)sizeof tmp; i++)
            base[i] = tmp[i];
    }
    upc_barrier;
    for (i = 0; i < 255 && (f1[i] = base[i]); i++)
        ;
    f1[i] = 0;
    snprintf(f2, sizeof f2, "%s.2", f1);
    snprintf(bad, sizeof bad, "%s.nodir/x", f1);
    strcat(f1, ".1");

    /* 1. individual file pointers: thread t writes its N ints at t*N */
    fd = upc_all_fopen(f1, UPC_WRONLY | UPC_INDIVIDUAL_FP | UPC_CREATE | UPC_TRUNC, 0, NULL);
    CHECK(fd != NULL, "upc_all_fopen for writing");
    if (!fd)
        return 1;
    for (i = 0; i < N; i++)
        mine[i] = 1000 * me + i;
    r = upc_all_fseek(fd, (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
    CHECK(r == (upc_off_t)me * N * sizeof(int), "upc_all_fseek SET returns the offset");
    r = upc_all_fwrite_local(fd, mine, sizeof(int), N, SYNC);
    CHECK(r == N * sizeof(int), "upc_all_fwrite_local returns the bytes written");
    r = upc_all_fseek(fd, 0, UPC_SEEK_CUR);
    CHECK(r == (upc_off_t)(me + 1) * N * sizeof(int), "the individual pointer moved");
    CHECK(upc_all_fcntl(fd, UPC_GET_FP, NULL) == UPC_INDIVIDUAL_FP, "UPC_GET_FP: individual");
    CHECK(upc_all_fread_local(fd, got, sizeof(int), N, SYNC) == -1 && errno == EBADF,
          "reading a write-only file fails with EBADF");
    CHECK(upc_all_fclose(fd) == 0, "upc_all_fclose");

    /* read back with the common pointer into two blocked arrays */
    {
        upc_hint_t hints[1] = {{"romio_cb_read", "enable"}};
        const upc_hint_t *h = NULL;
        const char *fn = NULL;
        fd = upc_all_fopen(f1, UPC_RDONLY | UPC_COMMON_FP, 1, hints);
        CHECK(fd != NULL, "upc_all_fopen for reading with a hint");
        if (!fd)
            return 1;
        CHECK(upc_all_fcntl(fd, UPC_GET_HINTS, &h) == 1 && h && !strcmp(h[0].key, "romio_cb_read"),
              "UPC_GET_HINTS gives the hint");
        CHECK(upc_all_fcntl(fd, UPC_GET_FN, &fn) == 0 && fn && !strcmp(fn, f1), "UPC_GET_FN");
        CHECK(upc_all_fcntl(fd, UPC_GET_FL, NULL) == (UPC_RDONLY | UPC_COMMON_FP), "UPC_GET_FL");
        CHECK(upc_all_fcntl(fd, UPC_GET_CA_SEMANTICS, NULL) == 0, "weak semantics by default");
    }
    CHECK(upc_all_fget_size(fd) == (upc_off_t)T * N * sizeof(int), "upc_all_fget_size");
    r = upc_all_fread_shared(fd, a, N, sizeof(int), N * T, SYNC);
    CHECK(r == (upc_off_t)T * N * sizeof(int), "upc_all_fread_shared returns the total bytes");
    for (i = 0; i < N * T; i++)
        CHECK(a[i] == 1000 * (i / N) + i % N, "block size N: element i is the file's i-th int");
    CHECK(upc_all_fseek(fd, 0, UPC_SEEK_CUR) == (upc_off_t)T * N * sizeof(int),
          "the common pointer moved by the total");
    upc_all_fseek(fd, 0, UPC_SEEK_SET);
    r = upc_all_fread_shared(fd, b, 3, sizeof(int), N * T, SYNC);
    CHECK(r == (upc_off_t)T * N * sizeof(int), "upc_all_fread_shared, block size 3");
    for (i = 0; i < N * T; i++)
        CHECK(b[i] == 1000 * (i / N) + i % N, "block size 3: element i is the file's i-th int");
    /* a pointer into the middle of a block: the file's ints from offset 8 */
    upc_all_fseek(fd, 2 * sizeof(int), UPC_SEEK_SET);
    upc_barrier;
    if (MYTHREAD == 0)
        for (i = 0; i < N * T; i++)
            b[i] = -1;
    r = upc_all_fread_shared(fd, &b[1], 3, sizeof(int), 4, SYNC);
    CHECK(r == 4 * sizeof(int), "upc_all_fread_shared from a phase");
    for (i = 0; i < 4; i++)
        CHECK(b[1 + i] == 1000 * ((i + 2) / N) + (i + 2) % N, "read from a phase lands in order");
    CHECK(b[0] == -1 && b[5] == -1, "nothing outside the elements read");
    upc_all_fseek(fd, -4, UPC_SEEK_END);
    r = upc_all_fread_shared(fd, a, N, sizeof(int), N * T, SYNC);
    CHECK(r == 4, "a read at the end of the file is short");
    CHECK(upc_all_fread_shared(fd, a, N, sizeof(int), N * T, SYNC) == 0, "at the end: 0 bytes");
    CHECK(upc_all_fseek(fd, -1, UPC_SEEK_SET) == -1 && errno == EINVAL, "seek before 0 fails");
    CHECK(upc_all_fread_local(fd, got, sizeof(int), N, SYNC) == -1 && errno == EINVAL,
          "upc_all_fread_local needs individual pointers");
    CHECK(upc_all_fclose(fd) == 0, "upc_all_fclose after reading");

    /* 2. the other way: common pointer writes a cyclic array, individual
     * pointers read it back */
    upc_forall (i = 0; i < N * T; i++; &c[i])
        c[i] = 7 * i + 1;
    fd = upc_all_fopen(f2, UPC_RDWR | UPC_COMMON_FP | UPC_CREATE | UPC_TRUNC, 0, NULL);
    CHECK(fd != NULL, "upc_all_fopen RDWR");
    if (!fd)
        return 1;
    r = upc_all_fwrite_shared(fd, c, 1, sizeof(int), N * T, SYNC);
    CHECK(r == (upc_off_t)T * N * sizeof(int), "upc_all_fwrite_shared returns the total");
    CHECK(upc_all_fsync(fd) == 0, "upc_all_fsync");
    CHECK(upc_all_fcntl(fd, UPC_SET_INDIVIDUAL_FP, NULL) == 0, "UPC_SET_INDIVIDUAL_FP");
    CHECK(upc_all_fcntl(fd, UPC_GET_FP, NULL) == UPC_INDIVIDUAL_FP, "now individual");
    upc_all_fseek(fd, (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
    memset(got, 0, sizeof got);
    r = upc_all_fread_local(fd, got, sizeof(int), N, SYNC);
    CHECK(r == N * sizeof(int), "upc_all_fread_local returns the bytes read");
    for (i = 0; i < N; i++)
        CHECK(got[i] == 7 * (me * N + i) + 1, "individual read of the common write");

    /* individual pointers with a shared buffer: thread t writes the
     * blocked array's block of thread t+1, at its own place */
    upc_forall (i = 0; i < N * T; i++; &a[i])
        a[i] = 5 * i;
    upc_all_fseek(fd, (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
    r = upc_all_fwrite_shared(fd, &a[N * ((me + 1) % T)], N, sizeof(int), N, SYNC);
    CHECK(r == N * sizeof(int), "upc_all_fwrite_shared, individual pointer");
    upc_all_fseek(fd, (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
    r = upc_all_fread_shared(fd, &b[0], 3, sizeof(int), N, SYNC); /* everyone: same target */
    CHECK(r == N * sizeof(int), "upc_all_fread_shared, individual pointer");
    upc_all_fseek(fd, (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
    r = upc_all_fread_local(fd, got, sizeof(int), N, SYNC);
    for (i = 0; i < N; i++)
        CHECK(got[i] == 5 * (N * ((me + 1) % T) + i), "shared write with individual pointers");

    /* sizes */
    CHECK(upc_all_fset_size(fd, N * sizeof(int)) == 0, "upc_all_fset_size smaller");
    CHECK(upc_all_fget_size(fd) == N * sizeof(int), "the size shrank");
    CHECK(upc_all_fpreallocate(fd, 4096) == 0, "upc_all_fpreallocate");
    CHECK(upc_all_fget_size(fd) >= 4096, "preallocated");
    CHECK(upc_all_fset_size(fd, 4096) == 0, "upc_all_fset_size larger");
    CHECK(upc_all_fget_size(fd) == 4096, "the size grew");

    /* 3. list I/O: memory "ABCDEFGH" in two pieces, file in two reversed */
    {
        char m[8], back[12];
        upc_local_memvec_t mv[2];
        upc_filevec_t fv[2];
        upc_off_t at = 1024 + 16 * me;
        memcpy(m, "ABCDEFGH", 8);
        m[0] = (char)('A' + me);
        mv[0].baseaddr = m;
        mv[0].len = 5;
        mv[1].baseaddr = m + 5;
        mv[1].len = 3;
        fv[0].offset = at + 8;
        fv[0].len = 4;
        fv[1].offset = at;
        fv[1].len = 4;
        r = upc_all_fwrite_list_local(fd, 2, mv, 2, fv, SYNC);
        CHECK(r == 8, "upc_all_fwrite_list_local returns 8");
        mv[0].baseaddr = back;
        mv[0].len = 12;
        fv[0].offset = at;
        fv[0].len = 12;
        memset(back, 'z', sizeof back);
        r = upc_all_fread_list_local(fd, 1, mv, 1, fv, SYNC);
        CHECK(r == 12, "upc_all_fread_list_local returns 12");
        CHECK(memcmp(back, "EFGH", 4) == 0 && back[8] == 'A' + me && memcmp(back + 9, "BCD", 3) == 0,
              "list pieces land where the file vector says");
        CHECK(back[4] == 0 && back[7] == 0, "the hole between them reads as zeros");
        mv[0].len = 11;
        CHECK(upc_all_fread_list_local(fd, 1, mv, 1, fv, SYNC) == -1 && errno == EINVAL,
              "lists of different totals fail with EINVAL");
        CHECK(upc_all_fseek(fd, 0, UPC_SEEK_CUR) == (upc_off_t)(me + 1) * N * sizeof(int),
              "list I/O leaves the file pointer alone");
    }
    {
        upc_shared_memvec_t sm[1];
        upc_filevec_t fv[1];
        char back[4];
        upc_local_memvec_t mv[1];
        for (i = 0; i < 4; i++)
            sc[4 * me + i] = (char)('a' + me + i);
        sm[0].baseaddr = &sc[4 * ((me + 1) % T)];
        sm[0].blocksize = 4;
        sm[0].len = 4;
        fv[0].offset = 2048 + 4 * me;
        fv[0].len = 4;
        r = upc_all_fwrite_list_shared(fd, 1, sm, 1, fv, SYNC);
        CHECK(r == 4, "upc_all_fwrite_list_shared returns 4");
        mv[0].baseaddr = back;
        mv[0].len = 4;
        r = upc_all_fread_list_local(fd, 1, mv, 1, fv, SYNC);
        CHECK(r == 4 && back[0] == 'a' + (me + 1) % T && back[3] == 'a' + (me + 1) % T + 3,
              "shared list write took the next thread's block");
        sm[0].baseaddr = &sd[4 * ((me + 1) % T)];
        r = upc_all_fread_list_shared(fd, 1, sm, 1, fv, SYNC);
        CHECK(r == 4, "upc_all_fread_list_shared returns 4");
        for (i = 0; i < 4; i++)
            CHECK(sd[4 * me + i] == 'a' + me + i, "shared list read fills the right block");
    }

    /* 4. asynchronous transfers */
    {
        int flag = 0;
        for (i = 0; i < N; i++)
            mine[i] = 31 * me + i;
        upc_all_fseek(fd, 4096 + (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
        upc_all_fwrite_local_async(fd, mine, sizeof(int), N, SYNC);
        CHECK(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, NULL) == 1, "one operation outstanding");
        r = upc_all_fwait_async(fd);
        CHECK(r == N * sizeof(int), "upc_all_fwait_async returns the bytes written");
        CHECK(upc_all_fcntl(fd, UPC_ASYNC_OUTSTANDING, NULL) == 0, "none outstanding");
        upc_all_fseek(fd, 4096 + (upc_off_t)me * N * sizeof(int), UPC_SEEK_SET);
        memset(got, 0, sizeof got);
        upc_all_fread_local_async(fd, got, sizeof(int), N, SYNC);
        r = upc_all_ftest_async(fd, &flag);
        CHECK(flag == 1 && r == N * sizeof(int), "upc_all_ftest_async completes the read");
        for (i = 0; i < N; i++)
            CHECK(got[i] == 31 * me + i, "the asynchronous read's data");
        CHECK(upc_all_fwait_async(fd) == -1, "nothing left to wait for");
        upc_all_fcntl(fd, UPC_SET_COMMON_FP, NULL);
        upc_all_fseek(fd, 4096, UPC_SEEK_SET);
        upc_all_fread_shared_async(fd, a, N, sizeof(int), N * T, SYNC);
        errno = 0;
        CHECK(upc_all_fclose(fd) == -1 && errno == EBUSY,
              "upc_all_fclose with an operation outstanding fails, the file staying open");
        r = upc_all_fwait_async(fd);
        CHECK(r == (upc_off_t)T * N * sizeof(int), "asynchronous shared read");
        for (i = 0; i < N * T; i++)
            CHECK(a[i] == 31 * (i / N) + i % N, "asynchronous shared read's data");
    }
    CHECK(upc_all_fclose(fd) == 0, "upc_all_fclose of the second file");

    /* 5. failed opens: NULL and errno, not the end of the job */
    errno = 0;
    fd = upc_all_fopen(bad, UPC_RDONLY | UPC_INDIVIDUAL_FP, 0, NULL);
    CHECK(fd == NULL && errno == ENOENT, "a missing directory: NULL, ENOENT");
    errno = 0;
    fd = upc_all_fopen(f1, UPC_RDONLY | UPC_WRONLY | UPC_INDIVIDUAL_FP, 0, NULL);
    CHECK(fd == NULL && errno == EINVAL, "two access modes: NULL, EINVAL");
    errno = 0;
    fd = upc_all_fopen(f1, UPC_WRONLY | UPC_COMMON_FP | UPC_CREATE | UPC_EXCL, 0, NULL);
    CHECK(fd == NULL && errno == EEXIST, "UPC_EXCL on an existing file: NULL, EEXIST");

    /* UPC_DELETE_ON_CLOSE and UPC_APPEND */
    fd = upc_all_fopen(f1, UPC_RDWR | UPC_COMMON_FP | UPC_APPEND | UPC_DELETE_ON_CLOSE, 0, NULL);
    CHECK(fd != NULL, "reopen with UPC_APPEND");
    if (fd) {
        CHECK(upc_all_fseek(fd, 0, UPC_SEEK_CUR) == (upc_off_t)T * N * sizeof(int),
              "UPC_APPEND starts at the end");
        upc_all_fclose(fd);
    }
    upc_barrier;
    CHECK(access(f1, F_OK) != 0, "UPC_DELETE_ON_CLOSE removed the file");
    upc_barrier;
    if (MYTHREAD == 0)
        unlink(f2);

    errs[MYTHREAD] = errors;
    upc_barrier;
    total = 0;
    for (i = 0; i < THREADS; i++)
        total += errs[i];
    if (MYTHREAD == 0 && total == 0)
        printf("Success: %s\n", NAME);
    return total != 0;
}
