#!/bin/sh
# mk/install.sh install|uninstall - install mgsim under $DESTDIR$PREFIX, or
# remove exactly what an install puts there.  One list of what goes where
# (below) serves both, so uninstall cannot forget a file.
#
#   PREFIX   (default /usr/local)   BINDIR, BUILD: where make put its outputs
#   DESTDIR  staging root (packaging), prepended to every installed path
#   LIBDIR   (default PREFIX/lib)   PYDIR (default LIBDIR/python3/dist-packages)
#
# Layout: PREFIX/bin/{mgsim,mgprobe}; LIBDIR/libmgsim.{a,so,so.0,so.VERSION}
# and LIBDIR/pkgconfig/mgsim.pc; PREFIX/include/mgsim.h; PYDIR/mgsim.py;
# PREFIX/share/mgsim/{configs,plots} (configs/devices, spaces, rules, suites,
# networks, measured); PREFIX/share/doc/mgsim (the documents, at their paths in the
# repository, and examples/); PREFIX/share/man/man1;
# PREFIX/share/bash-completion/completions/{mgsim,mgprobe}.
set -eu
mode=${1:?usage: mk/install.sh install|uninstall}
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
BINDIR=${BINDIR:-bin}
BUILD=${BUILD:-build}
LIBDIR=${LIBDIR:-$PREFIX/lib}
PYDIR=${PYDIR:-$LIBDIR/python3/dist-packages}
VERSION=$(sed -n 's/^#define MG_VERSION "\(.*\)"/\1/p' sim/version.h)
SOMAJOR=${VERSION%%.*}
SHARE=$PREFIX/share/mgsim
DOC=$PREFIX/share/doc/mgsim

# mgsim.pc for this PREFIX and LIBDIR (from mk/mgsim.pc.in).
PCDIR=$(mktemp -d) || exit 2
trap 'rm -rf "$PCDIR"' EXIT
PC=$PCDIR/mgsim.pc
sed -e "s|@PREFIX@|$PREFIX|; s|@LIBDIR@|$LIBDIR|; s|@VERSION@|$VERSION|" -e '/^# /d' \
    mk/mgsim.pc.in > "$PC"

# Every installed file: "MODE SOURCE DEST-DIRECTORY" (SOURCE relative to
# the repository; the file keeps its name).
files() {
    echo "755 $BINDIR/mgsim $PREFIX/bin"
    echo "755 $BINDIR/mgprobe $PREFIX/bin"
    echo "644 $BUILD/libmgsim.a $LIBDIR"
    echo "755 $BUILD/libmgsim.so.$VERSION $LIBDIR"
    echo "644 $PC $LIBDIR/pkgconfig"
    echo "644 include/mgsim.h $PREFIX/include"
    echo "644 python/mgsim.py $PYDIR"
    for f in configs/devices/*.json configs/spaces/*.json configs/rules/*.json \
             configs/suites/*.json configs/networks/*.json configs/networks/README.md \
             configs/README.md configs/PROFILE.md; do
        echo "644 $f $SHARE/$(dirname "$f")"
    done
    find configs/measured -type f | LC_ALL=C sort | while read -r f; do
        echo "644 $f $SHARE/$(dirname "$f")"
    done
    for f in plots/*.gp plots/README.md; do echo "644 $f $SHARE/plots"; done
    for f in README.md ARCHITECTURE.md CHANGES.md LICENSE THIRD-PARTY.md doc/*.md doc/img/*.png \
             sim/MODEL.md traces/FORMAT.md configs/README.md configs/PROFILE.md \
             configs/measured/README.md configs/networks/README.md examples/*.c examples/*.py examples/Makefile; do
        if [ -f "$f" ]; then echo "644 $f $DOC/$(dirname "$f")"; fi
    done
    echo "644 doc/mgsim.1 $PREFIX/share/man/man1"
    echo "644 doc/mgprobe.1 $PREFIX/share/man/man1"
    echo "644 doc/completion/mgsim $PREFIX/share/bash-completion/completions"
    echo "644 doc/completion/mgprobe $PREFIX/share/bash-completion/completions"
}

# The shared library's links, in LIBDIR: "LINK TARGET".
links() {
    echo "libmgsim.so.$SOMAJOR libmgsim.so.$VERSION"
    echo "libmgsim.so libmgsim.so.$SOMAJOR"
}

case $mode in
install)
    files | while read -r m src dir; do
        install -d "$DESTDIR$dir"
        install -m "$m" "$src" "$DESTDIR$dir/"
    done
    links | while read -r l t; do ln -sf "$t" "$DESTDIR$LIBDIR/$l"; done
    echo "mgsim $VERSION installed under $DESTDIR$PREFIX" ;;
uninstall)
    files | while read -r m src dir; do rm -f "$DESTDIR$dir/$(basename "$src")"; done
    links | while read -r l t; do rm -f "$DESTDIR$LIBDIR/$l"; done
    # the directories only mgsim uses, and any left empty
    rm -rf "$DESTDIR$SHARE" "$DESTDIR$DOC"
    for d in "$LIBDIR/pkgconfig" "$PYDIR" "$LIBDIR/python3" "$PREFIX/include" "$LIBDIR" \
             "$PREFIX/bin" "$PREFIX/share/man/man1" "$PREFIX/share/man" \
             "$PREFIX/share/bash-completion/completions" "$PREFIX/share/bash-completion" \
             "$PREFIX/share"; do
        rmdir "$DESTDIR$d" 2>/dev/null || true
    done
    echo "mgsim $VERSION uninstalled from $DESTDIR$PREFIX" ;;
*)
    echo "usage: mk/install.sh install|uninstall" >&2; exit 2 ;;
esac
