#!/bin/sh
# SPDX-License-Identifier: MIT
# git_clean.sh -- building and testing leave the checkout as it was: no
# generated file is tracked (bench/sync, a libtool wrapper, once was) and
# every file the build makes is ignored.  Skipped outside a git checkout
# (a release tarball).
. "$top_srcdir/tests/scripts/lib.sh"
cd "$top_srcdir" || exit 1
git rev-parse --is-inside-work-tree > /dev/null 2>&1 || { echo "not a git checkout"; exit 77; }

git ls-files -ci --exclude-standard > "$out" 2>&1
if [ -s "$out" ]; then
    fail "tracked files that .gitignore marks as build outputs (git rm --cached them)"
else
    ok "no build output is tracked"
fi
git status --porcelain --untracked-files=all | sed -n 's/^?? //p' > "$out"
if [ -s "$out" ]; then
    fail "untracked files after the build: add each to git (a source) or to .gitignore (an output)"
else
    ok "the build leaves no untracked, unignored file"
fi
# Every UPC test program is in translator_tests, so that a release tarball
# (and make check-sanitize, which builds from one) runs it too.
git ls-files 'tests/upc/*.upc' | while read -r f; do
    grep -q "^[[:space:]]*$f" translator/Makefile.inc || echo "$f"
done > "$out"
if [ -s "$out" ]; then
    fail "UPC test programs missing from translator_tests in translator/Makefile.inc"
else
    ok "every UPC test program is distributed"
fi
finish
