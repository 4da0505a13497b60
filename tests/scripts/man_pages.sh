#!/bin/sh
# SPDX-License-Identifier: MIT
# man_pages.sh -- the manual pages: every installed program has one and
# make install installs it; groff finds nothing to warn of in any page
# (groff -ww reports warnings on stderr with status 0, so stderr must be
# empty); every page of a command has the usual sections; every option a
# command's --help lists appears in its page; and the SETTINGS section of
# mupc.conf(5) is what the settings table says (mupc-show-config --man).
. "$top_srcdir/tests/scripts/lib.sh"
srcdir=$top_srcdir
man=$srcdir/doc/man
tools=$top_builddir/tools
tmp=$(mktemp -d)
trap 'rm -rf "$tmp" "$out"' EXIT

command -v groff > /dev/null || {
    fail "groff is not installed: the man pages cannot be checked (apt-get install groff-base, or run ./quickstart)"
    finish
    exit 1
}

# The installed programs, from the Makefiles' bin_PROGRAMS, bin_SCRIPTS and
# dist_bin_SCRIPTS, and the pages make install installs (dist_man*_MANS).
makefiles="$srcdir/Makefile.am $srcdir/*/Makefile.inc"
programs=$(sed -n 's/^\(dist_\)\{0,1\}bin_\(PROGRAMS\|SCRIPTS\) *+\{0,1\}= *//p' $makefiles |
    tr ' \t' '\n\n' | sed -n 's|^.*/||p' | sort -u)
installed=$(sed -e ':a' -e '/\\$/N; s/\\\n//; ta' $makefiles |
    sed -n 's/^dist_man[0-9]*_MANS *+\{0,1\}= *//p' | tr ' \t' '\n\n' | sed -n 's|^doc/man/||p')
[ -n "$programs" ] && ok "the Makefiles list the installed programs:" $programs ||
    fail "no installed program found in the Makefiles"

for prog in $programs; do
    page=$(ls "$man/$prog".[0-9] 2> /dev/null | head -1)
    if [ -n "$page" ]; then ok "$prog has a manual page"; else fail "$prog has no page in doc/man"; continue; fi
    if echo "$installed" | grep -qx "$(basename "$page")"; then
        ok "make install installs $(basename "$page")"
    else
        fail "$(basename "$page") is not in a dist_man*_MANS list of Makefile.am"
    fi
done

for page in "$man"/*.[0-9]; do
    name=$(basename "$page")
    echo "$installed" | grep -qx "$name" || fail "$name is in doc/man but not installed (dist_man*_MANS)"
    groff -z -man -ww "$page" > "$out" 2>&1
    rc=$?
    if [ "$rc" = 0 ] && [ ! -s "$out" ]; then ok "$name: no groff warnings"; else fail "$name: groff -z -man -ww warns (status $rc)"; fi
    case $name in
    *.1) sections="NAME SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT EXAMPLES \"SEE ALSO\"" ;;
    *) sections="NAME DESCRIPTION \"SEE ALSO\"" ;;
    esac
    missing=""
    eval "set -- $sections"
    for s in "$@"; do
        grep -q "^\.SH \"*$s\"*$" "$page" || missing="$missing $s"
    done
    if [ -z "$missing" ]; then ok "$name: has all its sections"; else fail "$name: missing sections:$missing"; fi
done

# Every option in a command's --help is in its page (the page as text,
# on one long line each paragraph, so no option is split).
render() { groff -man -Tascii -rLL=400n -rHY=0 -P-cbou "$1" 2> /dev/null; }
for prog in mupcc mupcrun upcc upcrun mupc-cluster mupc-slurm mupc-show-config mupc-trend mupc-bench-plot mupc-translate; do
    case $prog in
    mupc-translate) bin=$top_builddir/translator/$prog ;;
    mupc-bench-plot) bin=$srcdir/tools/$prog ;;
    *) bin=$tools/$prog ;;
    esac
    [ -x "$bin" ] || continue
    "$bin" --help > "$tmp/help" 2>&1
    render "$man/$prog.1" > "$tmp/page"
    missing=""
    for opt in $(grep -oE '(^|[][ ,|(])--?[A-Za-z][A-Za-z0-9-]*' "$tmp/help" | sed 's/^[^-]*//' | sort -u); do
        grep -qF -e "$opt" "$tmp/page" || missing="$missing $opt"
    done
    if [ -z "$missing" ]; then ok "$prog.1 names every option of $prog --help"; else fail "$prog.1 lacks options of its --help:$missing"; fi
done

# mupc.conf(5): its SETTINGS section is the table's (regenerate with
# tools/mupc-show-config --man), between the markers.
conf=$man/mupc.conf.5
sed -n '/^\.\\" BEGIN SETTINGS/,/^\.\\" END SETTINGS/p' "$conf" | sed '1d;$d' > "$tmp/have"
"$tools/mupc-show-config" --man > "$tmp/want" 2>&1
if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/have" > "$out"; then
    ok "mupc.conf.5's settings are the settings table's"
else
    fail "mupc.conf.5 is stale: run make update-docs"
fi
finish
