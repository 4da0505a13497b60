/* SPDX-License-Identifier: MIT */
/*
 * fatal.c -- print one clear message, then end the whole job.
 */
#include "base/fatal.h"
#include "mupc.h"

#include <mpi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int mpi_ready;
static atomic_int aborting;

/* With a single rank MPICH's MPI_Abort ends the process through exit(),
 * which runs the runtime's exit hook; that hook must not try to reach the
 * other threads (it would wait for the progress lock we hold). */
int mupci_fatal_aborting(void) { return atomic_load(&aborting); }

void mupci_fatal_mpi_ready(int ready) { mpi_ready = ready; }

static void (*abort_hook)(void);
void mupci_fatal_set_abort_hook(void (*hook)(void)) { abort_hook = hook; }

void mupci_abort_job(int status)
{
    fflush(stdout);
    fflush(stderr);
    if (mpi_ready) {
        /* MPICH's launcher tears the job down as soon as one rank aborts
         * and drops output it has not forwarded yet; measured: the message
         * went missing in 2 of 30 runs of tests/mr/misuse.  A short pause
         * lets it forward what we just wrote. */
        usleep(100 * 1000);
        /* MPI is initialized with MPI_THREAD_SERIALIZED: take the progress
         * lock so the other pthread is not inside MPI while we abort. */
        if (abort_hook)
            abort_hook();
        atomic_store(&aborting, 1);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    exit(status);
}

static void abort_job(void) __attribute__((noreturn));
static void abort_job(void) { mupci_abort_job(1); }

/* Compose the whole message first and write it with one call, so lines
 * from several threads dying at once do not interleave. */
static void report(const char *file, int line, const char *fmt, va_list ap)
{
    char text[2048];
    size_t n = 0;
    if (mpi_ready)
        n += (size_t)snprintf(text, sizeof text, "mupc: thread %d: ", mupc_mythread);
    else
        n += (size_t)snprintf(text, sizeof text, "mupc: ");
    if (file && n < sizeof text)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s:%d: ", file, line);
    if (n < sizeof text)
        n += (size_t)vsnprintf(text + n, sizeof text - n, fmt, ap);
    if (n >= sizeof text - 1)
        n = sizeof text - 2;
    text[n++] = '\n';
    fflush(stdout);
    if (write(STDERR_FILENO, text, n) < 0)
        abort_job();
}

void mupci_fatal_at(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(file, line, fmt, ap);
    va_end(ap);
    abort_job();
}

void mupci_fatal_plain(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(NULL, 0, fmt, ap);
    va_end(ap);
    abort_job();
}

void mupci_mpi_failed(const char *call, int rc, const char *file, int line)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
        strcpy(text, "unknown MPI error");
    mupci_fatal_at(file, line, "internal error: %s failed: %s", call, text);
}

void mupci_pthread_failed(const char *call, int rc, const char *file, int line)
{
    mupci_fatal_at(file, line, "internal error: %s failed: %s", call, strerror(rc));
}
