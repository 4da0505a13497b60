#!/bin/sh
# SPDX-License-Identifier: MIT
# conf_example.sh -- mupc.conf.example is what the settings table says
# (regenerate with: make update-docs),
# and it loads cleanly as a configuration file.
. "$top_srcdir/tests/scripts/lib.sh"
show=$top_builddir/tools/mupc-show-config
example=$top_srcdir/mupc.conf.example

"$show" --example > "$out" 2>&1; rc=$?
expect_status "mupc-show-config --example" 0
if diff -u "$example" "$out" > "$out.diff"; then
    ok "mupc.conf.example matches the settings table"
else
    cp "$out.diff" "$out"
    fail "mupc.conf.example is stale: run make update-docs"
fi
rm -f "$out.diff"
for key in $("$show" --keys); do
    if grep -q "^$key = " "$example"; then ok "example lists $key"; else fail "example lacks $key"; fi
done
MUPC_CONF=$example "$show" > "$out" 2>&1; rc=$?
expect_status "the example loads as a configuration file" 0
expect_output "its values are attributed to it" "segment_size = [0-9]+[MG] +# .*mupc.conf.example:[0-9]+ \\(auto\\): 3/4 of "
"$show" --bogus > "$out" 2>&1; rc=$?
expect_status "an unknown option is refused" 2
finish
