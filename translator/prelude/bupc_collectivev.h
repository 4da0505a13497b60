/* SPDX-License-Identifier: MIT */
/* <bupc_collectivev.h> at translation time: the runtime's own header,
 * which involves no pointer-to-shared (see mupc_xlate.h).  The output
 * includes it again where the program does (main.c). */
#include "mupc_xlate.h"
#include_next <bupc_collectivev.h>
