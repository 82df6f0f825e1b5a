#!/bin/sh
# mk/deps.sh - check for, and install, mgsim's Debian build dependencies.
#
#   mk/deps.sh check     exit 0 when every dependency is present (fast: file
#                        tests only, no package manager), 1 otherwise, listing
#                        what is missing on stderr
#   mk/deps.sh install   apt-get update + apt-get install of the packages, as
#                        root, through sudo when available; otherwise print the
#                        exact command and exit 1
#   mk/deps.sh ensure    check, and install only when something is missing
#   mk/deps.sh install-fuzz   clang and its runtime, for `make fuzz` only
#   mk/deps.sh install-mpi    Open MPI, for `make MPI=1` (bin/mgsim-mpi) only
#
# The package list is the project's whole dependency set (see README.md).
set -u

PACKAGES="ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libcjson-dev libcunit1-dev gnuplot-nox"
# Only for `make fuzz` (run by hand, not by make test): clang's libFuzzer.
FUZZ_PACKAGES="clang libclang-rt-14-dev"
# Only for `make MPI=1` (optional): Open MPI's mpicc, mpirun and library.
MPI_PACKAGES="openmpi-bin libopenmpi-dev"

# One line per dependency: a file (or command) proving it is there, and the
# package that provides it.  Multiarch paths are probed with a glob.
missing() {
    m=""
    have_file() { for f in $1; do [ -e "$f" ] && return 0; done; return 1; }
    have_file "/usr/include/CL/cl.h"                      || m="$m opencl-headers"
    have_file "/usr/lib/*/libOpenCL.so /usr/lib/libOpenCL.so" || m="$m ocl-icd-opencl-dev"
    have_file "/etc/OpenCL/vendors/pocl.icd"              || m="$m pocl-opencl-icd"
    have_file "/usr/include/cjson/cJSON.h"                || m="$m libcjson-dev"
    have_file "/usr/lib/*/libcjson.so /usr/lib/libcjson.so" || m="$m libcjson-dev"
    have_file "/usr/include/CUnit/Basic.h"                || m="$m libcunit1-dev"
    command -v gnuplot >/dev/null 2>&1                    || m="$m gnuplot-nox"
    echo "$m"
}

do_install() {
    pkgs=${1:-$PACKAGES}
    if [ "$(id -u)" -eq 0 ]; then
        SUDO=""
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo"
    else
        echo "mk/deps.sh: missing build dependencies and not root (no usable sudo)." >&2
        echo "Run this, then retry:" >&2
        echo "  sudo sh -c 'apt-get update && apt-get install -y $pkgs'" >&2
        exit 1
    fi
    echo "mk/deps.sh: installing: $pkgs" >&2
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 || exit 1
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $pkgs >&2 || exit 1
}

case "${1:-ensure}" in
    check)
        m=$(missing)
        if [ -n "$m" ]; then echo "mk/deps.sh: missing:$m" >&2; exit 1; fi
        exit 0 ;;
    install)
        do_install ;;
    install-fuzz)
        do_install "$FUZZ_PACKAGES" ;;
    install-mpi)
        do_install "$MPI_PACKAGES" ;;
    ensure)
        m=$(missing)
        [ -z "$m" ] && exit 0
        echo "mk/deps.sh: missing:$m" >&2
        if [ -z "$(echo "$m" | sed 's/ *gnuplot-nox//')" ]; then
            # Only gnuplot: mgsim builds and every command but `mgsim plot`
            # runs without it (which then says so and exits 2): try, never fail.
            ( do_install "gnuplot-nox" ) ||
                echo "mk/deps.sh: gnuplot-nox not installed: mgsim plot will not work" >&2
            exit 0
        fi
        do_install
        m=$(missing)
        if [ -n "$m" ]; then echo "mk/deps.sh: still missing after install:$m" >&2; exit 1; fi ;;
    *)
        echo "usage: mk/deps.sh check|install|ensure|install-fuzz|install-mpi" >&2; exit 2 ;;
esac
