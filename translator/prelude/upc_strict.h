/* SPDX-License-Identifier: MIT */
/* <upc_strict.h> at translation time: <upc.h>, and unqualified shared
 * accesses are strict from here on (UPC 1.3 §6.7.1). */
#include "upc.h"
#pragma upc strict
