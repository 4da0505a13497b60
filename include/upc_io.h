/* SPDX-License-Identifier: MIT */
/*
 * upc_io.h -- UPC-IO, the parallel file library of the UPC Optional
 * Library Specifications 1.3 (§7.8, <upc_io.h>), for translated UPC and
 * for hand-written C (the thin layer over the mupc_all_f* functions of
 * io/upc_io.c; io/README.md describes the implementation).  Arguments as
 * in the specification, with pointers-to-shared as mupc_ptr_t values:
 *
 *   upc_file_t *fd = upc_all_fopen("out.dat", UPC_WRONLY | UPC_INDIVIDUAL_FP
 *                                  | UPC_CREATE, 0, NULL);
 *   upc_all_fseek(fd, MYTHREAD * n, UPC_SEEK_SET);
 *   upc_all_fwrite_local(fd, buf, 1, n, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC);
 *   upc_all_fclose(fd);
 *
 * Every function is collective: each thread calls it, in the same order.
 * Errors return -1 (NULL from upc_all_fopen) and set errno; arguments
 * that must be single-valued but differ between threads, and failures of
 * the file system during a transfer, stop the job with a message naming
 * the call and the caller's file:line.
 */
#ifndef MUPC_UPC_IO_H
#define MUPC_UPC_IO_H

#include <mupc_upc.h>
#include <upc_types.h>

#include <stddef.h>
#include <stdint.h>

#ifndef __UPC_IO__
#define __UPC_IO__ 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Open flags (§7.8.3.1): one access mode, one file-pointer kind, and any
 * of the others. */
#define UPC_RDONLY (1 << 0)
#define UPC_WRONLY (1 << 1)
#define UPC_RDWR (1 << 2)
#define UPC_INDIVIDUAL_FP (1 << 3)
#define UPC_COMMON_FP (1 << 4)
#define UPC_APPEND (1 << 5)
#define UPC_CREATE (1 << 6)
#define UPC_EXCL (1 << 7)
#define UPC_STRONG_CA (1 << 8)
#define UPC_TRUNC (1 << 9)
#define UPC_DELETE_ON_CLOSE (1 << 10)

/* upc_all_fcntl commands (§7.8.3.8). */
#define UPC_GET_CA_SEMANTICS 1
#define UPC_SET_WEAK_CA_SEMANTICS 2
#define UPC_SET_STRONG_CA_SEMANTICS 3
#define UPC_GET_FP 4
#define UPC_SET_COMMON_FP 5
#define UPC_SET_INDIVIDUAL_FP 6
#define UPC_GET_FL 7
#define UPC_GET_FN 8
#define UPC_GET_HINTS 9
#define UPC_SET_HINT 10
#define UPC_ASYNC_OUTSTANDING 11

/* upc_all_fseek origins (§7.8.3.4). */
#define UPC_SEEK_SET 0
#define UPC_SEEK_CUR 1
#define UPC_SEEK_END 2

/* Types (§7.8.2). */
typedef struct mupc_io_file upc_file_t;
typedef int64_t upc_off_t;

typedef struct upc_hint {
    const char *key;
    const char *value;
} upc_hint_t;

typedef struct upc_local_memvec {
    void *baseaddr;
    size_t len;
} upc_local_memvec_t;

/* baseaddr points to shared [blocksize] char (blocksize in bytes; 0 is
 * the indefinite block size). */
typedef struct upc_shared_memvec {
    mupc_ptr_t baseaddr;
    size_t blocksize;
    size_t len;
} upc_shared_memvec_t;

typedef struct upc_filevec {
    upc_off_t offset;
    size_t len;
} upc_filevec_t;

upc_file_t *mupc_all_fopen(const char *fname, int flags, size_t numhints,
                           const struct upc_hint *hints, const char *file, int line);
int mupc_all_fclose(upc_file_t *fd, const char *file, int line);
int mupc_all_fsync(upc_file_t *fd, const char *file, int line);
upc_off_t mupc_all_fseek(upc_file_t *fd, upc_off_t offset, int origin, const char *file,
                         int line);
int mupc_all_fset_size(upc_file_t *fd, upc_off_t size, const char *file, int line);
upc_off_t mupc_all_fget_size(upc_file_t *fd, const char *file, int line);
int mupc_all_fpreallocate(upc_file_t *fd, upc_off_t size, const char *file, int line);
int mupc_all_fcntl(upc_file_t *fd, int cmd, void *arg, const char *file, int line);

upc_off_t mupc_all_fread_local(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                               upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fwrite_local(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                                upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fread_shared(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                int line);
upc_off_t mupc_all_fwrite_shared(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                 size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                 int line);
upc_off_t mupc_all_fread_list_local(upc_file_t *fd, size_t memvec_entries,
                                    const struct upc_local_memvec *memvec,
                                    size_t filevec_entries, const struct upc_filevec *filevec,
                                    upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fwrite_list_local(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_local_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fread_list_shared(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_shared_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fwrite_list_shared(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_shared_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line);

/* Asynchronous forms (§7.8.7): at most one outstanding per file; the
 * result comes from upc_all_fwait_async or upc_all_ftest_async. */
void mupc_all_fread_local_async(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                                upc_flag_t flags, const char *file, int line);
void mupc_all_fwrite_local_async(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                                 upc_flag_t flags, const char *file, int line);
void mupc_all_fread_shared_async(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                 size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                 int line);
void mupc_all_fwrite_shared_async(upc_file_t *fd, mupc_ptr_t buffer, size_t blocksize,
                                  size_t size, size_t nmemb, upc_flag_t flags, const char *file,
                                  int line);
void mupc_all_fread_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_local_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags, const char *file, int line);
void mupc_all_fwrite_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_local_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line);
void mupc_all_fread_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_shared_memvec *memvec,
                                      size_t filevec_entries, const struct upc_filevec *filevec,
                                      upc_flag_t flags, const char *file, int line);
void mupc_all_fwrite_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                       const struct upc_shared_memvec *memvec,
                                       size_t filevec_entries, const struct upc_filevec *filevec,
                                       upc_flag_t flags, const char *file, int line);
upc_off_t mupc_all_fwait_async(upc_file_t *fd, const char *file, int line);
upc_off_t mupc_all_ftest_async(upc_file_t *fd, int *flag, const char *file, int line);

#ifdef __cplusplus
}
#endif

#define upc_all_fopen(fname, flags, numhints, hints) \
    mupc_all_fopen((fname), (flags), (numhints), (hints), __FILE__, __LINE__)
#define upc_all_fclose(fd) mupc_all_fclose((fd), __FILE__, __LINE__)
#define upc_all_fsync(fd) mupc_all_fsync((fd), __FILE__, __LINE__)
#define upc_all_fseek(fd, offset, origin) \
    mupc_all_fseek((fd), (offset), (origin), __FILE__, __LINE__)
#define upc_all_fset_size(fd, size) mupc_all_fset_size((fd), (size), __FILE__, __LINE__)
#define upc_all_fget_size(fd) mupc_all_fget_size((fd), __FILE__, __LINE__)
#define upc_all_fpreallocate(fd, size) mupc_all_fpreallocate((fd), (size), __FILE__, __LINE__)
#define upc_all_fcntl(fd, cmd, arg) mupc_all_fcntl((fd), (cmd), (arg), __FILE__, __LINE__)
#define upc_all_fread_local(fd, buffer, size, nmemb, flags) \
    mupc_all_fread_local((fd), (buffer), (size), (nmemb), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_local(fd, buffer, size, nmemb, flags) \
    mupc_all_fwrite_local((fd), (buffer), (size), (nmemb), (flags), __FILE__, __LINE__)
#define upc_all_fread_shared(fd, buffer, blocksize, size, nmemb, flags) \
    mupc_all_fread_shared((fd), (buffer), (blocksize), (size), (nmemb), (flags), __FILE__, \
                          __LINE__)
#define upc_all_fwrite_shared(fd, buffer, blocksize, size, nmemb, flags) \
    mupc_all_fwrite_shared((fd), (buffer), (blocksize), (size), (nmemb), (flags), __FILE__, \
                           __LINE__)
#define upc_all_fread_list_local(fd, mn, mv, fn, fv, flags) \
    mupc_all_fread_list_local((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_list_local(fd, mn, mv, fn, fv, flags) \
    mupc_all_fwrite_list_local((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fread_list_shared(fd, mn, mv, fn, fv, flags) \
    mupc_all_fread_list_shared((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_list_shared(fd, mn, mv, fn, fv, flags) \
    mupc_all_fwrite_list_shared((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fread_local_async(fd, buffer, size, nmemb, flags) \
    mupc_all_fread_local_async((fd), (buffer), (size), (nmemb), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_local_async(fd, buffer, size, nmemb, flags) \
    mupc_all_fwrite_local_async((fd), (buffer), (size), (nmemb), (flags), __FILE__, __LINE__)
#define upc_all_fread_shared_async(fd, buffer, blocksize, size, nmemb, flags) \
    mupc_all_fread_shared_async((fd), (buffer), (blocksize), (size), (nmemb), (flags), \
                                __FILE__, __LINE__)
#define upc_all_fwrite_shared_async(fd, buffer, blocksize, size, nmemb, flags) \
    mupc_all_fwrite_shared_async((fd), (buffer), (blocksize), (size), (nmemb), (flags), \
                                 __FILE__, __LINE__)
#define upc_all_fread_list_local_async(fd, mn, mv, fn, fv, flags) \
    mupc_all_fread_list_local_async((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_list_local_async(fd, mn, mv, fn, fv, flags) \
    mupc_all_fwrite_list_local_async((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fread_list_shared_async(fd, mn, mv, fn, fv, flags) \
    mupc_all_fread_list_shared_async((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, __LINE__)
#define upc_all_fwrite_list_shared_async(fd, mn, mv, fn, fv, flags) \
    mupc_all_fwrite_list_shared_async((fd), (mn), (mv), (fn), (fv), (flags), __FILE__, \
                                      __LINE__)
#define upc_all_fwait_async(fd) mupc_all_fwait_async((fd), __FILE__, __LINE__)
#define upc_all_ftest_async(fd, flag) mupc_all_ftest_async((fd), (flag), __FILE__, __LINE__)

#endif
