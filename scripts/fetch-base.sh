#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Download the pinned base package into the cache directory (kept outside
# the clone, so that a fresh clone does not download it again) and print
# the path of the .deb.

set -e
. "$(dirname "$0")/base.conf"
cache=${PERF_FG_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/perf-flamegraph}
deb="$cache/${BASE_PKG}_$(echo "$BASE_VERSION" | sed 's/:/%3a/')_all.deb"

if [ ! -s "$deb" ]; then
	mkdir -p "$cache"
	echo "  FETCH  $BASE_PKG=$BASE_VERSION" >&2
	tmp=$(mktemp -d "$cache/dl.XXXXXX")
	( cd "$tmp" && apt-get download "$BASE_PKG=$BASE_VERSION" >/dev/null 2>&1 ) ||
	( apt-get update >/dev/null 2>&1;
	  cd "$tmp" && apt-get download "$BASE_PKG=$BASE_VERSION" >/dev/null ) || {
		rm -rf "$tmp"
		echo "cannot download $BASE_PKG=$BASE_VERSION with apt-get" >&2
		exit 1
	}
	mv "$tmp"/*.deb "$deb"
	rm -rf "$tmp"
fi
echo "$deb"
