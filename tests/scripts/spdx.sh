#!/bin/sh
# SPDX-License-Identifier: MIT
# spdx.sh -- every tracked file of translator/, tools/, include/, tests/,
# the library (runtime/, cache/, mem/, gasp/, collectives/, io/),
# bench/, examples/ and doc/, and the top-level scripts, carries
# "SPDX-License-Identifier: MIT" on its first line (its second
# after a #! line).  Skipped outside a git checkout (a release tarball).
. "$top_srcdir/tests/scripts/lib.sh"
cd "$top_srcdir" || exit 1
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout"; exit 77; }
missing=""
for f in $(git ls-files translator tools include tests bench examples doc runtime cache mem gasp collectives io) \
    quickstart .ci/run configure.ac Makefile.am; do
    [ -f "$f" ] || continue
    first=$(sed -n 1p "$f")
    case $first in '#!'*) first=$(sed -n 2p "$f") ;; esac
    case $first in *'SPDX-License-Identifier: MIT'*) ;; *) missing="$missing $f" ;; esac
done
if [ -z "$missing" ]; then
    ok "every source file starts with its SPDX line"
else
    echo "$missing" | tr ' ' '\n' > "$out"
    fail "files without 'SPDX-License-Identifier: MIT' on line 1 (line 2 after #!)"
fi
finish
