/* SPDX-License-Identifier: MIT */
/* <mupc.h> in a UPC program, at translation time: libmupc's extensions
 * that involve no pointer-to-shared (<mupc_ext.h>: cache counters, segment
 * size).  The rest of <mupc.h> is the translated code's interface to the
 * runtime, which the translator writes itself. */
#include "mupc_xlate.h"
#include <mupc_ext.h>
