#!/bin/sh
# SPDX-License-Identifier: MIT
# symbols.sh -- the library exports only the project's prefixes (upc_,
# mupc_, mupci_, gasp_, pupc_) and main; everything else must be static.
# AddressSanitizer's own markers (__odr_asan.NAME, make check-sanitize)
# are not ours.  MPI_Init, MPI_Init_thread and MPI_Finalize are libmupc's
# on purpose: a UPC program that calls MPI leaves starting and ending it to
# libmupc (runtime/upc/hybrid.c).  ucp_request_is_completed is UCX's,
# defined over on purpose: it bounds MPICH's wait for UCX's endpoint
# closes in MPI_Finalize (runtime/transport/finish.c).
. "$top_srcdir/tests/scripts/lib.sh"
allowed='^(upc_|mupc_|mupci_|gasp_|pupc_|main$|MPI_Init$|MPI_Init_thread$|MPI_Finalize$|ucp_request_is_completed$|_init$|_fini$|_edata$|_end$|__bss_start$)'
for lib in "$top_builddir/.libs/libmupc.so" "$top_builddir/.libs/libmupc.a"; do
    [ -f "$lib" ] || { fail "$lib not built"; continue; }
    nm -g --defined-only "$lib" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u |
        grep -v '^__odr_asan\.' | grep -Ev "$allowed" > "$out"
    if [ -s "$out" ]; then fail "$lib exports symbols outside the allowed prefixes"; else ok "$(basename "$lib") exports only allowed names"; fi
done
finish
