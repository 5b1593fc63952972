#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-binutils.sh DEB DIR: build binutils' bfd, opcodes and libiberty
# from the binutils-source .deb (fetch-base.sh --binutils), and install
# them into DIR (include/, lib/): what make LIBBFD=1 links perf with.
# Only those parts are built (and libsframe, which libbfd needs), as
# shared libraries, for the host's targets and BPF's, whose programs
# perf disassembles with libopcodes; not their manuals (MAKEINFO=true:
# no texinfo needed).
# DIR/.version is the version of the .deb, which perf version's build
# options then come from.

set -e
here=$(dirname "$0")
. "$here/binutils.conf"
deb=$1
dir=$(realpath -m "$2")
tmp=$(mktemp -d "${dir%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pkg=$(dpkg-deb -f "$deb" Package)
ver=$(dpkg-deb -f "$deb" Version)
if [ "$pkg" != "$BINUTILS_PKG" ]; then
	echo "$deb is $pkg, not $BINUTILS_PKG" >&2
	exit 1
fi
echo "  UNPACK $pkg $ver"
dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$tmp" "./$BINUTILS_TARBALL"
tar -xJf "$tmp/$BINUTILS_TARBALL" -C "$tmp"
src=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d -name 'binutils-*')

echo "  BUILD  binutils $ver: bfd, opcodes, libiberty (a few minutes)"
mkdir "$tmp/build"
rm -rf "$dir"
if ! (cd "$tmp/build" &&
      "$src/configure" --prefix="$dir" --disable-nls --disable-werror \
	--enable-shared --disable-static --enable-install-libbfd \
	--enable-install-libiberty --with-system-zlib --without-zstd \
	--without-debuginfod --enable-targets="$(uname -m)-linux-gnu,bpf-unknown-none" \
	--disable-gdb --disable-gdbserver --disable-sim --disable-gprofng \
	--disable-ld --disable-gas --disable-gold --disable-libctf &&
      make -j"$(nproc)" MAKEINFO=true all-bfd all-opcodes all-libiberty &&
      make MAKEINFO=true install-bfd install-opcodes install-libiberty \
	install-libsframe) > "$tmp/build.log" 2>&1; then
	tail -20 "$tmp/build.log" >&2
	echo "building binutils $ver failed" >&2
	exit 1
fi
# As Debian's binutils-dev installs bfd.h (debian/rules): without the
# guard that wants binutils' own config.h included first.
awk '/PR 14072/,/^#endif/ {next} {print}' "$dir/include/bfd.h" > "$tmp/bfd.h"
mv "$tmp/bfd.h" "$dir/include/bfd.h"
echo "$ver" > "$dir/.version"
