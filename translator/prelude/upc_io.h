/* SPDX-License-Identifier: MIT */
/* <upc_io.h> at translation time: see mupc_xlate.h.  Enough for clang to
 * type a program that uses UPC-IO (UPC Optional Library Specifications
 * 1.3 §7.8); the output includes the runtime's real <upc_io.h>, whose
 * constants these must equal (include/upc_io.h).  A pointer-to-shared
 * parameter is shared void * (see mupc_xlate.h). */
#ifndef MUPC_XLATE_UPC_IO_H
#define MUPC_XLATE_UPC_IO_H

#include "mupc_xlate.h"

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

#define UPC_SEEK_SET 0
#define UPC_SEEK_CUR 1
#define UPC_SEEK_END 2

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
typedef struct upc_shared_memvec {
    __MUPC_SHARED void *baseaddr;
    size_t blocksize;
    size_t len;
} upc_shared_memvec_t;
typedef struct upc_filevec {
    upc_off_t offset;
    size_t len;
} upc_filevec_t;

upc_file_t *upc_all_fopen(const char *fname, int flags, size_t numhints,
                          const struct upc_hint *hints);
int upc_all_fclose(upc_file_t *fd);
int upc_all_fsync(upc_file_t *fd);
upc_off_t upc_all_fseek(upc_file_t *fd, upc_off_t offset, int origin);
int upc_all_fset_size(upc_file_t *fd, upc_off_t size);
upc_off_t upc_all_fget_size(upc_file_t *fd);
int upc_all_fpreallocate(upc_file_t *fd, upc_off_t size);
int upc_all_fcntl(upc_file_t *fd, int cmd, void *arg);
upc_off_t upc_all_fread_local(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                              upc_flag_t flags);
upc_off_t upc_all_fwrite_local(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                               upc_flag_t flags);
upc_off_t upc_all_fread_shared(upc_file_t *fd, __MUPC_SHARED void *buffer, size_t blocksize,
                               size_t size, size_t nmemb, upc_flag_t flags);
upc_off_t upc_all_fwrite_shared(upc_file_t *fd, __MUPC_SHARED const void *buffer, size_t blocksize,
                                size_t size, size_t nmemb, upc_flag_t flags);
upc_off_t upc_all_fread_list_local(upc_file_t *fd, size_t memvec_entries,
                                   const struct upc_local_memvec *memvec,
                                   size_t filevec_entries, const struct upc_filevec *filevec,
                                   upc_flag_t flags);
upc_off_t upc_all_fwrite_list_local(upc_file_t *fd, size_t memvec_entries,
                                    const struct upc_local_memvec *memvec,
                                    size_t filevec_entries, const struct upc_filevec *filevec,
                                    upc_flag_t flags);
upc_off_t upc_all_fread_list_shared(upc_file_t *fd, size_t memvec_entries,
                                    const struct upc_shared_memvec *memvec, size_t filevec_entries,
                                    const struct upc_filevec *filevec, upc_flag_t flags);
upc_off_t upc_all_fwrite_list_shared(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_shared_memvec *memvec, size_t filevec_entries,
                                     const struct upc_filevec *filevec, upc_flag_t flags);
void upc_all_fread_local_async(upc_file_t *fd, void *buffer, size_t size, size_t nmemb,
                               upc_flag_t flags);
void upc_all_fwrite_local_async(upc_file_t *fd, const void *buffer, size_t size, size_t nmemb,
                                upc_flag_t flags);
void upc_all_fread_shared_async(upc_file_t *fd, __MUPC_SHARED void *buffer, size_t blocksize,
                                size_t size, size_t nmemb, upc_flag_t flags);
void upc_all_fwrite_shared_async(upc_file_t *fd, __MUPC_SHARED const void *buffer, size_t blocksize,
                                 size_t size, size_t nmemb, upc_flag_t flags);
void upc_all_fread_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                    const struct upc_local_memvec *memvec,
                                    size_t filevec_entries, const struct upc_filevec *filevec,
                                    upc_flag_t flags);
void upc_all_fwrite_list_local_async(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_local_memvec *memvec,
                                     size_t filevec_entries, const struct upc_filevec *filevec,
                                     upc_flag_t flags);
void upc_all_fread_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                     const struct upc_shared_memvec *memvec, size_t filevec_entries,
                                     const struct upc_filevec *filevec, upc_flag_t flags);
void upc_all_fwrite_list_shared_async(upc_file_t *fd, size_t memvec_entries,
                                      const struct upc_shared_memvec *memvec, size_t filevec_entries,
                                      const struct upc_filevec *filevec, upc_flag_t flags);
upc_off_t upc_all_fwait_async(upc_file_t *fd);
upc_off_t upc_all_ftest_async(upc_file_t *fd, int *flag);

#endif
