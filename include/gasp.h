/* SPDX-License-Identifier: MIT */
/*
 * gasp.h -- the GASP performance-tool interface, version 1.4 (the GASP 1.4 specification §3).
 *
 * A tool provides gasp_init, gasp_event_notify, gasp_event_notifyVA,
 * gasp_control and gasp_create_event and is linked into the program with
 * `mupcc --profile`, `--profile-local` or `--profile-only FILE`.  libmupc
 * carries weak do-nothing definitions of all five, so programs link with
 * no tool at all; without a --profile flag the runtime never calls them.
 *
 * The runtime raises every event itself, on the computation pthread of
 * each UPC thread, with the user's source file and line (column 0: the
 * runtime does not know it).  The UPC event identifiers and their varargs
 * are in <gasp_upc.h>, included below.
 */
#ifndef GASP_H
#define GASP_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The GASP version this implementation supports (YYYYMMDD). */
#define GASP_VERSION 20051101

typedef enum {
    GASP_LANG_UPC,
    GASP_LANG_TITANIUM,
    GASP_LANG_CAF,
    GASP_LANG_MPI,
    GASP_LANG_SHMEM
} gasp_lang_t;

/* GASP 1.5 spellings, so tools written for other UPC runtimes compile. */
typedef gasp_lang_t gasp_model_t;
#define GASP_MODEL_UPC GASP_LANG_UPC
#define GASP_MODEL_TITANIUM GASP_LANG_TITANIUM
#define GASP_MODEL_CAF GASP_LANG_CAF
#define GASP_MODEL_MPI GASP_LANG_MPI
#define GASP_MODEL_SHMEM GASP_LANG_SHMEM

typedef enum { GASP_START, GASP_END, GASP_ATOMIC } gasp_evttype_t;

/* Defined by the tool: per-thread state returned by gasp_init. */
struct _gasp_context_S;
typedef struct _gasp_context_S *gasp_context_t;

/* Called once per UPC thread, after the runtime is up and before main. */
gasp_context_t gasp_init(gasp_lang_t srclanguage, int *argc, char ***argv);

/* Every event; the varargs depend on (evttag, evttype): see gasp_upc.h.
 * libmupc calls the VA form. */
void gasp_event_notify(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                       const char *filename, int linenum, int colnum, ...);
void gasp_event_notifyVA(gasp_context_t context, unsigned int evttag, gasp_evttype_t evttype,
                         const char *filename, int linenum, int colnum, va_list varargs);

/* Measurement on (nonzero) or off (0); returns the previous setting. */
int gasp_control(gasp_context_t context, int on);

/* A tool-generated identifier for a user event (pupc_create_event). */
unsigned int gasp_create_event(gasp_context_t context, const char *name, const char *desc);

#ifdef __cplusplus
}
#endif

#include <gasp_upc.h>

#endif
