/* SPDX-License-Identifier: BSD-3-Clause */
/* <upc_castable.h> at translation time: see mupc_xlate.h. */
#include "mupc_xlate.h"
