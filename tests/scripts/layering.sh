#!/bin/sh
# SPDX-License-Identifier: MIT
# layering.sh -- the library's floors keep their dependencies pointing down
# (runtime/README.md):
#
#   runtime/base < runtime/transport < cache < mem < runtime/upc
#                                                 < collectives, gasp, io
#
# Includes: every `#include "..."` of a library source names a public
# header (include/) or an internal one by its floor ("transport/engine.h",
# "mem/alloc.h"); a file may include headers of its own floor and of the
# floors below, never of one above.  Two folders never include each other.
# Calls: in the built objects, no file of a floor uses a symbol defined by
# a file of a floor above it (the engine gets its handlers and progress
# hooks by registration, fatal its abort hook, the fence its heap part).
# Every failure names file:line (includes) or file and symbol (calls).
# LAYERING_SRC=DIR checks another tree (how the check is tested).
. "$top_srcdir/tests/scripts/lib.sh"
src=${LAYERING_SRC:-$top_srcdir}
build=$(cd "$top_builddir" && pwd) || exit 1
cd "$src" || exit 1

# floor FOLDER -> rank (empty: not a library folder)
floors='runtime/base 0
runtime/transport 1
cache 2
mem 3
runtime/upc 4
collectives 5
gasp 5
io 5'

files=$(find runtime cache mem collectives gasp io -name '*.[ch]' | sort)
[ -n "$files" ] || { fail "no library sources under $src"; finish; }

# One line per quoted include: FILE LINE TARGET
for f in $files; do
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
        sed -e 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' -e "s|^|$f |"
done > "$out.inc"
# Where each internal header is, as an include names it: NAME SPELLING
for f in $files; do
    case $f in *.h) echo "$(basename "$f") ${f#runtime/}" ;; esac
done > "$out.hdr"

awk -v floors="$floors" '
BEGIN {
    n = split(floors, rows, "\n")
    for (i = 1; i <= n; i++) { split(rows[i], p, " "); rank[p[1]] = p[2] }
    bad = 0
}
FILENAME == hdrs { where[$1] = $2; next }
function folder(path,   d) {
    d = path; sub(/\/[^\/]*$/, "", d); return d
}
function public_header(name,   cmd, r) {
    cmd = "test -f include/" name; r = system(cmd); return r == 0
}
{
    file = $1; line = $2; target = $3
    from = folder(file)
    if (!(from in rank)) next
    if (target !~ /\//) {
        if (public_header(target)) next
        if (target in where)
            printf "%s:%s: includes \"%s\" by bare name: name its floor, \"%s\"\n", file, line, target, where[target]
        else
            printf "%s:%s: includes \"%s\", which is no public header and no header of the library\n", file, line, target
        bad++; next
    }
    path = target
    if (path ~ /^(base|transport|upc)\//) path = "runtime/" path
    to = folder(path)
    if (!(to in rank)) {
        printf "%s:%s: includes \"%s\", which is in no floor\n", file, line, target
        bad++; next
    }
    if (system("test -f " path) != 0) {
        printf "%s:%s: includes \"%s\", which does not exist (%s)\n", file, line, target, path
        bad++; next
    }
    if (rank[to] > rank[from]) {
        printf "%s:%s: includes \"%s\" of floor %s, above its own floor %s\n",
            file, line, target, to, from
        bad++
    }
    if (to != from && !((from, to) in edge)) edge[from, to] = file ":" line
}
END {
    for (k in edge) {
        split(k, p, SUBSEP)
        if ((p[2], p[1]) in edge && p[1] < p[2]) {
            printf "%s and %s include each other: %s, %s\n", p[1], p[2], edge[p[1], p[2]], edge[p[2], p[1]]
            bad++
        }
    }
    exit bad > 0
}' hdrs="$out.hdr" "$out.hdr" "$out.inc" > "$out"
status=$?
rm -f "$out.inc" "$out.hdr"
if [ $status -eq 0 ]; then ok "includes point down the floors ($(echo "$files" | wc -l) files)"
else fail "includes against the floors"; fi

# Calls, from the objects the build made (skipped for another tree).
if [ -z "${LAYERING_SRC:-}" ]; then
    objs=$(cd "$build" && find runtime cache mem collectives gasp io -path '*/.libs/*' \
           \( -name 'libmupc_la-*.o' -o -name 'libmupc_pure_la-*.o' \) 2>/dev/null | sort)
    if [ -z "$objs" ]; then
        fail "no objects of libmupc under $build"
    else
        (cd "$build" && for o in $objs; do
            nm "$o" | awk -v o="$o" '$1 == "U" { print o, "U", $2 } NF == 3 && $2 ~ /[TDBRCG]/ { print o, "D", $3 }'
        done) | awk -v floors="$floors" '
        BEGIN {
            n = split(floors, rows, "\n")
            for (i = 1; i <= n; i++) { split(rows[i], p, " "); rank[p[1]] = p[2] }
        }
        function folder(path,   d) { d = path; sub(/\/\.libs\/.*$/, "", d); return d }
        function source(path,   s) { s = path; sub(/\/\.libs\/libmupc_(pure_)?la-/, "/", s); sub(/\.o$/, ".c", s); return s }
        $2 == "D" { def[$3] = $1; next }
        { use[++nu] = $1 SUBSEP $3 }
        END {
            bad = 0
            for (i = 1; i <= nu; i++) {
                split(use[i], p, SUBSEP)
                if (!(p[2] in def)) continue
                from = folder(p[1]); to = folder(def[p[2]])
                if (rank[to] > rank[from]) {
                    printf "%s uses %s of %s, a floor above its own floor %s\n", source(p[1]), p[2], source(def[p[2]]), from
                    bad++
                }
                if (to != from) edge[from, to] = source(p[1]) " uses " p[2]
            }
            for (k in edge) {
                split(k, q, SUBSEP)
                if ((q[2], q[1]) in edge && q[1] < q[2]) {
                    printf "%s and %s call each other: %s; %s\n", q[1], q[2], edge[q[1], q[2]], edge[q[2], q[1]]
                    bad++
                }
            }
            exit bad > 0
        }' > "$out"
        if [ $? -eq 0 ]; then ok "calls point down the floors ($(echo "$objs" | wc -l) objects)"
        else fail "calls against the floors"; fi
    fi
fi
finish
