#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# assemble.sh BASE SRC [--reset]: make SRC the base plus our overlay.
#
# With --reset, SRC is recreated from the pristine BASE and the series in
# patches/ is applied to it, in the order of the "patch" lines of
# patches/commits, so a patch is never applied on top of an already
# patched file.  Every run then links each of our files under
# tools/ into SRC (symbolic links, so editing one only rebuilds what
# depends on it) and drops links whose file has gone.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/base.conf"
base=$1
src=$2

if [ "$3" = --reset ]; then
	# The version of the .deb extracted (extract-base.sh), not
	# BASE_VERSION: fetch-base.sh takes a newer one when that is gone.
	read -r version < "$base/.base-version"
	rm -rf "$src" "$src.tmp"
	cp -a "$base" "$src.tmp"
	for p in $(awk '$1 == "patch" { print $2 }' "$top/patches/commits"); do
		echo "  PATCH  $p"
		patch -d "$src.tmp" -p1 -s -N --no-backup-if-mismatch \
			< "$top/patches/$p" || {
			echo "patches/$p does not apply to $BASE_PKG $version" >&2
			rm -rf "$src.tmp"
			exit 1
		}
	done
	# perf's PERF-VERSION-GEN reads the version from here outside git.
	printf '#define PERF_VERSION "%s+flamegraph"\n' "$version" \
		> "$src.tmp/PERF-VERSION-FILE"
	mv "$src.tmp" "$src"
fi

cd "$top"
git ls-files -co --exclude-standard tools | while read -r f; do
	[ -f "$f" ] || continue
	dst="$src/$f"
	[ -L "$dst" ] && [ "$(readlink "$dst")" = "$top/$f" ] && continue
	if [ -e "$dst" ] && [ ! -L "$dst" ]; then
		echo "$f exists in the base: change it with a patch instead" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$dst")"
	ln -sfn "$top/$f" "$dst"
done
find "$src/tools" -xtype l -lname "$top/*" -delete
