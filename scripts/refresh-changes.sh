#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# refresh-changes.sh: rewrite the patches in patches/changes/ after an
# edit to the files they change (tools/ holds those files as the whole
# series leaves them; make patches takes each change back from them, last
# first, and fails when one no longer matches). Each change is taken back
# as make patches does, but with patch's fuzz, then written again as the
# exact difference it makes. A change that doesn't take back even so is
# said, and left: edit it by hand.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage" "$stage.log" "$stage.diff"' EXIT

cd "$top"
git -C "$stage" init -q
for f in $(awk '$1 == "add" { print $2 }' patches/commits); do
	mkdir -p "$stage/$(dirname "$f")"
	cp "$f" "$stage/$f"
done
git -C "$stage" add -A
git -C "$stage" -c user.name=refresh -c user.email=refresh@localhost commit -q -m after
changes=$(awk '$1 == "change" { print $2 }' patches/commits | tac)
for c in $changes; do
	if ! patch -R -p1 -s -f -F3 -d "$stage" --no-backup-if-mismatch -r - \
			< "patches/changes/$c" > "$stage.log"; then
		echo "patches/changes/$c: does not take back from tools/ even with fuzz:" >&2
		cat "$stage.log" >&2
		rm -f "$stage.log"
		exit 1
	fi
	git -C "$stage" add -A
	git -C "$stage" -c user.name=refresh -c user.email=refresh@localhost \
		commit -q -m "before $c"
	git -C "$stage" diff --no-renames HEAD HEAD~1 | grep -v '^index ' > "$stage.diff"
	if ! cmp -s "$stage.diff" "patches/changes/$c"; then
		cp "$stage.diff" "patches/changes/$c"
		echo "  REFRESH patches/changes/$c"
	fi
done
rm -f "$stage.log" "$stage.diff"
