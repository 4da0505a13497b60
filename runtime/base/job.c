/* SPDX-License-Identifier: MIT */
/* job.c -- the job's identity (job.h). */
#include "base/job.h"

int mupc_threads = 1;
int mupc_mythread = 0;
MPI_Comm mupci_comm = MPI_COMM_NULL;
