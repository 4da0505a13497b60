/* SPDX-License-Identifier: MIT */
/* <upc_atomic.h> at translation time: see mupc_xlate.h. */
#include "mupc_xlate.h"
