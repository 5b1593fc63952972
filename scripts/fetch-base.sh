#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Download the pinned base package into the cache directory (kept outside
# the clone, so that a fresh clone does not download it again) and print
# the path of the .deb.
#
# The package comes from $BASE_SUITE of Debian's archive, which the
# machine's apt sources need not list: apt runs with a sources list, index
# lists and cache of its own under $cache/apt (the system's apt
# configuration is never changed), checks the suite's InRelease with
# Debian's archive keyring, and the .deb is checked against the SHA256
# that the signed Packages index gives for it.
#
# When the suite no longer offers $BASE_VERSION, the newest $BASE_PKG it
# offers is used instead, with one line on stderr; extract-base.sh records
# the version of the .deb actually used, which perf version then shows.
# The choice is remembered in the cache (${BASE_PKG}_$BASE_VERSION.fallback),
# so that a later run uses the cached .deb without the network too.

#
# fetch-base.sh --binutils: the same for binutils-source ($BINUTILS_PKG,
# $BINUTILS_VERSION of $BINUTILS_SUITE), whose bfd, opcodes and
# libiberty make LIBBFD=1 builds (scripts/build-binutils.sh).

set -e
. "$(dirname "$0")/base.conf"
cache=${PERF_FG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-flamegraph}
apt=$cache/apt
if [ "$1" = --binutils ]; then
	. "$(dirname "$0")/binutils.conf"
	BASE_PKG=$BINUTILS_PKG
	BASE_VERSION=$BINUTILS_VERSION
	BASE_SUITE=$BINUTILS_SUITE
	apt=$cache/apt-binutils
fi
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

# The cache's name of the .deb of version $1: apt-get download's.
deb_of() {
	echo "$cache/${BASE_PKG}_$(echo "$1" | sed 's/:/%3a/')_all.deb"
}
deb=$(deb_of "$BASE_VERSION")
fallback="${deb%_all.deb}.fallback"

if [ -s "$deb" ]; then
	echo "$deb"
	exit 0
fi
if [ -s "$fallback" ]; then
	read -r ver < "$fallback"
	if [ -s "$(deb_of "$ver")" ]; then
		echo "$BASE_PKG $BASE_VERSION is no longer offered; using $ver" >&2
		deb_of "$ver"
		exit 0
	fi
fi

if [ ! -r "$keyring" ]; then
	echo "$keyring is missing: apt-get install debian-archive-keyring" >&2
	exit 1
fi
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
echo "deb [signed-by=$keyring] $BASE_ARCHIVE $BASE_SUITE main" \
	> "$apt/sources.list"
# Error-Mode=any: an index that fails to download fails the update,
# rather than leaving an old index, or none, to be read.
set -- -o Dir::Etc::SourceList="$apt/sources.list" \
	-o Dir::Etc::SourceParts=/dev/null -o Dir::State::Lists="$apt/lists" \
	-o Dir::Cache="$apt/cache" -o Acquire::Languages=none \
	-o APT::Update::Error-Mode=any
# As root, apt would download as _apt, which may not reach $cache, and
# warn that it does not.
if [ "$(id -u)" = 0 ]; then
	set -- "$@" -o APT::Sandbox::User=root
fi

echo "  FETCH  $BASE_PKG=$BASE_VERSION ($BASE_SUITE)" >&2
if ! out=$(apt-get "$@" update 2>&1); then
	printf '%s\n' "$out" | grep '^[EW]:' >&2
	echo "apt-get update of $BASE_ARCHIVE $BASE_SUITE failed" >&2
	exit 1
fi

# "VERSION SHA256" of each $BASE_PKG in the suite's Packages index, which
# apt stores compressed (lz4 here): apt-helper reads any of its formats.
offered=$(for f in "$apt/lists/"*_Packages "$apt/lists/"*_Packages.*; do
	[ -f "$f" ] && /usr/lib/apt/apt-helper cat-file "$f"
done | awk -v pkg="$BASE_PKG" '
	/^Package:/ { p = $2; v = ""; s = "" }
	/^Version:/ { v = $2 }
	/^SHA256:/ { s = $2 }
	/^$/ { if (p == pkg && v != "") print v, s; p = "" }
	END { if (p == pkg && v != "") print v, s }')

sha_of() {
	echo "$offered" | awk -v v="$1" '$1 == v { print $2; exit }'
}
ver=$BASE_VERSION
sha=$(sha_of "$ver")
if [ -z "$sha" ]; then
	ver=
	for v in $(echo "$offered" | cut -d' ' -f1); do
		if [ -z "$ver" ] || dpkg --compare-versions "$v" gt "$ver"; then
			ver=$v
		fi
	done
	if [ -z "$ver" ]; then
		echo "$BASE_SUITE offers no $BASE_PKG: set its package and version in scripts/base.conf to one it offers, or put $BASE_PKG $BASE_VERSION's .deb (snapshot.debian.org has it) at $deb" >&2
		exit 1
	fi
	echo "$BASE_PKG $BASE_VERSION is no longer offered; using $ver" >&2
	sha=$(sha_of "$ver")
fi

dl=$(deb_of "$ver")
tmp=$(mktemp -d "$cache/dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get "$@" download "$BASE_PKG=$ver" > /dev/null ) || {
	echo "cannot download $BASE_PKG=$ver with apt-get" >&2
	exit 1
}
got=$(sha256sum < "$tmp/${dl##*/}" | cut -d' ' -f1)
if [ "$got" != "$sha" ]; then
	echo "${dl##*/}: SHA256 $got, but $sha in $BASE_SUITE's Packages; deleted" >&2
	exit 1
fi
mv "$tmp/${dl##*/}" "$dl"
if [ "$ver" = "$BASE_VERSION" ]; then
	rm -f "$fallback"
else
	echo "$ver" > "$fallback"
fi
echo "$dl"
