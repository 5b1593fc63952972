#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# assemble.sh BASE SRC [--reset]: make SRC the base plus our overlay.
#
# With --reset, SRC is recreated from the pristine BASE and every patch
# of patches/ is applied to it, series after series (scripts/stack.sh
# apply), so a patch is never applied on top of an already patched file.
# Every run then links each of our files under tools/ into SRC over the
# copy the series made (symbolic links, so editing one only rebuilds
# what depends on it) and drops links whose file has gone.

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
	echo "  PATCH  $src: $(ls "$top"/patches/*/*.patch | wc -l) patches of patches/"
	"$top/scripts/stack.sh" apply "$src.tmp" || {
		echo "the series of patches/ does not apply to $BASE_PKG $version" >&2
		rm -rf "$src.tmp"
		exit 1
	}
	# perf's PERF-VERSION-GEN reads the version from here outside git.
	printf '#define PERF_VERSION "%s+flamegraph"\n' "$version" \
		> "$src.tmp/PERF-VERSION-FILE"
	mv "$src.tmp" "$src"
fi

cd "$top"
# checks/shell/ holds this repository's own perf shell tests (not the
# series'): linked among perf's, where perf test runs them.
git ls-files -co --exclude-standard tools checks/shell | while read -r f; do
	[ -f "$f" ] || continue
	case "$f" in
	checks/shell/*) rel=tools/perf/tests/shell/${f#checks/shell/} ;;
	*) rel=$f ;;
	esac
	dst="$src/$rel"
	[ -L "$dst" ] && [ "$(readlink "$dst")" = "$top/$f" ] && continue
	if [ -e "$base/$rel" ]; then
		echo "$rel exists in the base: change it with a patch instead" >&2
		exit 1
	fi
	# A check of ours never stands in for a file of the series.
	if [ "$f" != "$rel" ] && { [ -e "$top/$rel" ] ||
	   { [ -L "$dst" ] && [ "$(readlink "$dst")" != "$top/$f" ]; }; }; then
		echo "$f: $rel is the series' already" >&2
		exit 1
	fi
	mkdir -p "$(dirname "$dst")"
	ln -sfn "$top/$f" "$dst"
done
find "$src/tools" -xtype l -lname "$top/*" -delete
