#!/bin/sh
# SPDX-License-Identifier: MIT
# first_program.sh -- the newcomer's path, as README gives it: right after
# the build, the build tree's mupcc and mupcrun (found on PATH as README
# says, with no MUPC_* overrides) compile README's first program and run
# it on 4 threads.  The program and the commands are taken from README
# itself, so README cannot drift from what works.
. "$top_srcdir/tests/scripts/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT
readme=$top_srcdir/README.md
builddir=$(cd "$top_builddir" && pwd)
srcdir=$(cd "$top_srcdir" && pwd)

# The ```c block after the first-program marker, and the commands of the
# ```sh block after it.
awk '/<!-- first-program/ { on = 1; next }
     on == 1 && /^```c/ { on = 2; next }
     on == 2 && /^```/ { exit }
     on == 2 { print }' "$readme" > "$tmp/first"
commands=$(awk '/<!-- first-program/ { on = 1; next }
     on == 1 && /^```sh/ { on = 2; next }
     on == 2 && /^```/ { exit }
     on == 2 && /^(mupcc|mupcrun) / { sub(/ *#.*/, ""); print }' "$readme")
# the file the mupcc line compiles (hello.upc: a UPC program)
src=$(echo "$commands" | sed -n 's/^mupcc .* \([^ ]*\.upc\)$/\1/p')
[ -n "$src" ] && mv "$tmp/first" "$tmp/$src"
if [ -n "$src" ] && grep -q "int main" "$tmp/$src" && [ "$(echo "$commands" | wc -l)" = 2 ]; then
    ok "README has the first program and its two commands"
else
    fail "README's first-program block, or its mupcc line compiling a .upc file, or its mupcrun line is missing"
fi

# As a user has it: no MUPC_* overrides, the build tree's tools first on PATH.
for v in $(env | sed -n 's/^\(MUPC_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done
MUPC_CONF=/dev/null; export MUPC_CONF # no stray ~/.mupc.conf
PATH=$builddir/tools:$PATH; export PATH
cd "$tmp" || exit 1
echo "$commands" | while read -r line; do
    echo "\$ $line"
    sh -c "$line" || { echo "status $? from: $line"; exit 1; }
done > "$out" 2>&1
rc=$?
expect_status "README's mupcc and mupcrun lines run from the build tree" 0
for t in 0 1 2 3; do
    expect_output "thread $t sees its left neighbour's value" \
        "^thread $t of 4 sees $(( ((t + 3) % 4) * 10 ))$"
done
# the -I directory, resolved (a separate build directory names it
# through "build/..")
incdir=$(mupcc -show -c x.c | tr ' ' '\n' | sed -n 's/^-I//p' | head -n 1)
if [ -n "$incdir" ] && [ "$(cd "$incdir" 2>/dev/null && pwd -P)" = "$(cd "$srcdir/include" && pwd -P)" ]; then
    ok "the build tree's mupcc uses the source tree's headers"
else
    fail "the build tree's mupcc does not use $srcdir/include: $(mupcc -show -c x.c)"
fi
finish
