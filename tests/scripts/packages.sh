# SPDX-License-Identifier: MIT
# packages.sh -- sourced by make check-mpi and make check-slurm: Debian
# packages a part of the tests needs beyond what ./quickstart installs.
#
#   need_packages WHAT PACKAGE...
#
# returns 0 when every package is installed, installing the missing ones
# with apt-get first when this is root on Debian; otherwise prints one
# line, "SKIP: WHAT: ...", naming the apt-get line to run, and returns 77.
# Installing an MPI moves Debian's mpicc and mpirun alternatives to the
# one of highest priority (Open MPI's): the machine's choice is put back,
# so the MPI a user's plain mpicc means does not change under them.

package_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

mpi_alternatives="mpi mpirun mpi-x86_64-linux-gnu"

# the current value of each alternative that exists, as NAME=PATH lines
alternatives_now() {
    for a in $mpi_alternatives; do
        v=$(update-alternatives --query "$a" 2>/dev/null | sed -n 's/^Value: //p')
        [ -n "$v" ] && echo "$a=$v"
    done
}

need_packages() {
    what=$1
    shift
    missing=
    for p in "$@"; do
        package_installed "$p" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" != 0 ] || ! command -v apt-get > /dev/null 2>&1; then
        echo "SKIP: $what: needs$missing (sudo apt-get install$missing)"
        return 77
    fi
    before=$(alternatives_now)
    echo "$what: installing$missing"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing > /dev/null 2>&1 ||
           { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing; }; }; then
        echo "SKIP: $what: apt-get could not install$missing"
        return 77
    fi
    for kv in $before; do
        [ "$(update-alternatives --query "${kv%%=*}" | sed -n 's/^Value: //p')" = "${kv#*=}" ] ||
            update-alternatives --set "${kv%%=*}" "${kv#*=}" > /dev/null
    done
    return 0
}
