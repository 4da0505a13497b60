/* SPDX-License-Identifier: MIT */
/*
 * fatal.h -- the one fatal-error path, and checking wrappers for MPI and
 * pthread calls.
 *
 * mupci_fatal_at() prints "mupc: thread N: file:line: message" and ends the
 * whole job with MPI_Abort, so no rank is left waiting.  User errors pass
 * the user's file and line; internal failures pass the runtime's.
 */
#ifndef MUPCI_FATAL_H
#define MUPCI_FATAL_H
#ifndef MUPCI_BUILDING_LIBRARY
#error "this is an internal header of libmupc; include <upc.h> or <mupc.h> instead"
#endif

#include <stdarg.h>

#ifndef MUPCI_CHECKS
#define MUPCI_CHECKS 1
#endif

#define mupci_likely(x) __builtin_expect(!!(x), 1)
#define mupci_unlikely(x) __builtin_expect(!!(x), 0)

void mupci_fatal_at(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* Like mupci_fatal_at, for errors without a source location. */
void mupci_fatal_plain(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* End the whole job with `status` after the message has been written:
 * flush, give the launcher time to forward it, MPI_Abort. */
void mupci_abort_job(int status) __attribute__((noreturn));
/* Nonzero once mupci_abort_job has called MPI_Abort. */
int mupci_fatal_aborting(void);

/* Failure of the runtime itself (a bug or an exhausted system resource). */
#define mupci_fatal(...) mupci_fatal_at(__FILE__, __LINE__, __VA_ARGS__)

void mupci_mpi_failed(const char *call, int rc, const char *file, int line)
    __attribute__((noreturn));
void mupci_pthread_failed(const char *call, int rc, const char *file, int line)
    __attribute__((noreturn));

#define MUPCI_MPI(call)                                                         \
    do {                                                                        \
        int mupci_rc_ = (call);                                                 \
        if (mupci_unlikely(mupci_rc_ != 0))                                     \
            mupci_mpi_failed(#call, mupci_rc_, __FILE__, __LINE__);             \
    } while (0)

#define MUPCI_PT(call)                                                          \
    do {                                                                        \
        int mupci_rc_ = (call);                                                 \
        if (mupci_unlikely(mupci_rc_ != 0))                                     \
            mupci_pthread_failed(#call, mupci_rc_, __FILE__, __LINE__);         \
    } while (0)

/* Called once MPI is up so fatal errors can abort the job instead of just
 * this process. */
void mupci_fatal_mpi_ready(int ready);

/* hook() runs just before MPI_Abort: the message engine registers one that
 * takes its progress lock, so the other pthread is not inside MPI then. */
void mupci_fatal_set_abort_hook(void (*hook)(void));

#endif
