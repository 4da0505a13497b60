/* SPDX-License-Identifier: MIT */
/* <upc_collective.h> at translation time: see mupc_xlate.h. */
#include "mupc_xlate.h"
