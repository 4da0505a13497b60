/* SPDX-License-Identifier: MIT */
/* <upc_relaxed.h> at translation time: <upc.h>, and unqualified shared
 * accesses are relaxed from here on (UPC 1.3 §6.7.1). */
#include "upc.h"
#pragma upc relaxed
