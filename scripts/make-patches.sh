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
		cp "$top/$arg" "$arg"
		;;
	*)
		echo "make patches: unknown line in patches/commits: $verb $arg" >&2
		exit 1
		;;
	esac
done < "$top/patches/commits"
commit

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
