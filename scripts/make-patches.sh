#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-patches.sh BASE OUT: write the mailing-list series into OUT: a git
# format-patch series against the pristine base (BASE, as extracted by
# extract-base.sh), one commit per block of patches/commits, in its order,
# with a cover letter from patches/cover-letter.txt. From and
# Signed-off-by are the git identity of whoever runs it.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
work=$top/build/series

name=$(git -C "$top" config user.name || true)
email=$(git -C "$top" config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	echo "make patches: no git identity: set git config user.name and user.email" >&2
	exit 1
fi

rm -rf "$work" "$out"/*.patch
mkdir -p "$work"
cp -a "$base/." "$work/"
cd "$work"
git init -q
# checkpatch.pl --strict leaves its CamelCase cache here: not ours.
rm -f .checkpatch-camelcase.*
echo ".checkpatch-camelcase.*" >> .git/info/exclude
git config user.name "$name"
git config user.email "$email"
git add -A
git commit -q -m base
basecommit=$(git rev-parse HEAD)

# Our new files as the commit that adds each has them. tools/ holds them
# as the whole series leaves them: a "change" line's patch (in
# patches/changes/) changes files an earlier commit added, so the
# changes are taken back from a copy of them, last first.
stage=$work.stage
rm -rf "$stage"
for f in $(awk '$1 == "add" { print $2 }' "$top/patches/commits"); do
	mkdir -p "$stage/$(dirname "$f")"
	cp "$top/$f" "$stage/$f"
done
for c in $(awk '$1 == "change" { print $2 }' "$top/patches/commits" | tac); do
	patch -R -p1 -s -f -d "$stage" --no-backup-if-mismatch \
		< "$top/patches/changes/$c" > "$work.reject" || {
		echo "make patches: patches/changes/$c does not match the files in tools/: change it with them" >&2
		cat "$work.reject" >&2
		exit 1
	}
done

# commit: make the pending commit (a message file and staged changes).
msg=
commit() {
	[ -n "$msg" ] || return 0
	git add -A
	git commit -q -s -F "$msg"
	msg=
}

while read -r verb arg; do
	case "$verb" in
	''|'#'*)
		continue
		;;
	patch)
		commit
		# The patch's subject and body are the commit message.
		git mailinfo -b "$work.msg" "$work.diff" < "$top/patches/$arg" > "$work.info"
		{
			sed -n 's/^Subject: //p' "$work.info"
			echo
			cat "$work.msg"
		} > "$work.message"
		git apply --index "$work.diff" ||
			{ echo "make patches: $arg does not apply" >&2; exit 1; }
		msg=$work.message
		;;
	message)
		commit
		cp "$top/patches/messages/$arg" "$work.message"
		msg=$work.message
		;;
	add)
		[ -n "$msg" ] || { echo "make patches: add before patch/message" >&2; exit 1; }
		mkdir -p "$(dirname "$arg")"
		cp "$stage/$arg" "$arg"
		;;
	change)
		[ -n "$msg" ] || { echo "make patches: change before patch/message" >&2; exit 1; }
		git apply --index "$top/patches/changes/$arg" ||
			{ echo "make patches: patches/changes/$arg does not apply" >&2; exit 1; }
		;;
	*)
		echo "make patches: unknown line in patches/commits: $verb $arg" >&2
		exit 1
		;;
	esac
done < "$top/patches/commits"
commit

# The series ends with our files as they are in tools/.
for f in $(awk '$1 == "add" { print $2 }' "$top/patches/commits"); do
	cmp -s "$top/$f" "$f" ||
		{ echo "make patches: the series leaves $f other than tools/ has it" >&2; exit 1; }
done
rm -rf "$stage" "$work.reject"

# v3: the cover letter says what changed since v2 and since v1.
git format-patch -q --cover-letter --thread --subject-prefix="PATCH v3" \
	-o "$out" "$basecommit"
# The cover letter: subject and text from patches/cover-letter.txt.
cover=$(ls "$out"/0000-cover-letter.patch)
python3 - "$cover" "$top/patches/cover-letter.txt" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, body = text.split("\n", 1)
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject)
s = s.replace("*** BLURB HERE ***", body.strip("\n"))
open(cover, "w").write(s)
PY
echo "  PATCHES $out: $(ls "$out" | wc -l) files"
