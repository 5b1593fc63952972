#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# extract-base.sh DEB DIR: extract the parts of the kernel tree that perf
# needs (scripts/base-paths.txt) from the linux-source .deb into DIR.
# DIR is left pristine: nothing is ever patched in place there.
# DIR/.base-version is the version of the .deb itself, which may be newer
# than BASE_VERSION (fetch-base.sh); assemble.sh puts it in perf version.

set -e
here=$(dirname "$0")
. "$here/base.conf"
deb=$1
dir=$2
tmp=$(mktemp -d "${dir%/}.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

pkg=$(dpkg-deb -f "$deb" Package)
ver=$(dpkg-deb -f "$deb" Version)
if [ "$pkg" != "$BASE_PKG" ]; then
	echo "$deb is $pkg, not $BASE_PKG" >&2
	exit 1
fi
echo "  UNPACK $pkg $ver"
dpkg-deb --fsys-tarfile "$deb" | tar -xf - -C "$tmp" "./$BASE_TARBALL"
set -f
pats=$(grep -v -e '^#' -e '^$' "$here/base-paths.txt" |
	sed "s|^|$BASE_TOPDIR/|")
tar -xJf "$tmp/$BASE_TARBALL" -C "$tmp" --wildcards $pats
set +f
rm -rf "$dir"
mv "$tmp/$BASE_TOPDIR" "$dir"
echo "$ver" > "$dir/.base-version"
