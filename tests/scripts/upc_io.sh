#!/bin/sh
# SPDX-License-Identifier: MIT
# upc_io.sh -- UPC-IO misuse ends the job, never hangs: arguments that
# must be single-valued but differ between threads (the file name, the
# open flags, a read's size with the common file pointer), threads in
# different UPC-IO calls, and a closed file handle.  Each message names
# the call and the UPC program's file:line; the exit status is non-zero.
. "$top_srcdir/tests/scripts/lib.sh"
mupcc="$top_builddir/tools/mupcc"
require_translator
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
TMPDIR=$tmp
export TMPDIR

# case NAME BODY: a program whose main runs BODY (with fd, buf, f and g
# set up); the line of the marked call is found by its /* HERE */ comment.
case_prog() {
    name=$1
    cat > "$tmp/$name.upc" <<UPC
#include <upc.h>
#include <upc_io.h>
#include <stdio.h>
#include <stdlib.h>
shared [4] int arr[4 * THREADS];
int main(void)
{
    char f[256], g[256];
    int buf[4] = {0};
    upc_file_t *fd;
    snprintf(f, sizeof f, "%s/a.dat", getenv("TMPDIR"));
    snprintf(g, sizeof g, "%s/b%d.dat", getenv("TMPDIR"), MYTHREAD);
    (void)buf; (void)g; (void)fd;
$2
    return 0;
}
UPC
    "$mupcc" -o "$tmp/$name" "$tmp/$name.upc" > "$out" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ]; then fail "$name.upc compiles"; return 1; fi
    line=$(grep -n 'HERE' "$tmp/$name.upc" | head -n 1 | cut -d: -f1)
    run 2 60 "$tmp/$name"
    expect_failure "$name: the job fails"
    expect_output "$name: the message names $name.upc:$line" "$name.upc:$line"
    return 0
}

case_prog names '    fd = upc_all_fopen(MYTHREAD ? g : f, UPC_RDWR | UPC_CREATE | UPC_COMMON_FP, 0, NULL); /* HERE */' &&
    expect_output "names: the message shows both names" 'upc_all_fopen: fname must be the same.*a\.dat.*b1\.dat'

case_prog flags '    fd = upc_all_fopen(f, (MYTHREAD ? UPC_RDWR : UPC_WRONLY) | UPC_CREATE | UPC_COMMON_FP, 0, NULL); /* HERE */' &&
    expect_output "flags: the message names upc_all_fopen and the flags" 'upc_all_fopen\(flags=.*differs|differs.*upc_all_fopen\(flags='

case_prog size '    fd = upc_all_fopen(f, UPC_RDWR | UPC_CREATE | UPC_COMMON_FP | UPC_DELETE_ON_CLOSE, 0, NULL);
    upc_all_fwrite_shared(fd, arr, 4, sizeof(int), 4 + MYTHREAD, UPC_IN_ALLSYNC | UPC_OUT_ALLSYNC); /* HERE */' &&
    expect_output "size: the message names upc_all_fwrite_shared and nmemb" 'upc_all_fwrite_shared\(.*nmemb='

case_prog calls '    fd = upc_all_fopen(f, UPC_RDWR | UPC_CREATE | UPC_INDIVIDUAL_FP | UPC_DELETE_ON_CLOSE, 0, NULL);
    if (MYTHREAD) upc_all_fread_local(fd, buf, 4, 1, 0); else upc_all_fwrite_local(fd, buf, 4, 1, 0); /* HERE */' &&
    expect_output "calls: the message names both calls" 'upc_all_fread_local.*upc_all_fwrite_local|upc_all_fwrite_local.*upc_all_fread_local'

case_prog closed '    fd = upc_all_fopen(f, UPC_RDWR | UPC_CREATE | UPC_INDIVIDUAL_FP | UPC_DELETE_ON_CLOSE, 0, NULL);
    upc_all_fclose(fd);
    upc_all_fsync(fd); /* HERE */' &&
    expect_output "closed: the message says the handle is not open" 'upc_all_fsync: the file handle .* is not an open UPC-IO file'

finish
