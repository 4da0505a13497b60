/* SPDX-License-Identifier: MIT */
/* <upc_types.h> at translation time: the runtime's own header (only
 * operation, type and flag codes), found after the prelude on the path. */
#include "mupc_xlate.h"
#include_next <upc_types.h>
