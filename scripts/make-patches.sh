#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-patches.sh OUT: write the mailing-list series of patches/ into
# OUT, one directory per series (OUT/NN-name/), each a git format-patch
# series with its cover letter, applying to the base plus the series
# before it. From and Signed-off-by are the git identity of whoever runs
# it; the subject prefix ([PATCH v4], [RFC PATCH v4]) is the one of the
# series' cover-letter.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
out=$(cd "$1" && pwd)
work=$top/build/series

# patches/ as its branch writes it, and the series as commits, each
# signed off; fails unless they leave our files in tools/ as they are.
"$top/scripts/stack.sh" check
"$top/scripts/stack.sh" commits "$work"
cd "$work"
rm -rf "${out:?}"/*

# format SERIES COVER LAST: the series whose cover commit is COVER and
# last commit LAST.
format() {
	local name=$1 cover=$2 last=$3 subject prefix dir
	dir=$out/$name
	git log -1 --format=%b "$cover" > "$work.cover"
	subject=$(sed -n '1s/^Subject: //p' "$work.cover")
	prefix=$(echo "$subject" | sed -n 's/^\[\([^]]*\)\] .*/\1/p')
	[ -n "$prefix" ] || {
		echo "make patches: patches/$name/cover-letter: no 'Subject: [PATCH v4] ...' first line" >&2
		exit 1
	}
	git -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		format-patch -q --cover-letter --thread --subject-prefix="$prefix" \
		-o "$dir" "$cover..$last"
	python3 - "$dir/0000-cover-letter.patch" "$work.cover" <<'PY'
import sys
cover, text = sys.argv[1], open(sys.argv[2]).read()
subject, body = text.split("\n", 1)
subject = subject.split("] ", 1)[1]
s = open(cover).read()
s = s.replace("*** SUBJECT HERE ***", subject)
s = s.replace("*** BLURB HERE ***", body.strip("\n"))
open(cover, "w").write(s)
PY
	echo "  PATCHES ${dir#"$top"/}: $(($(ls "$dir" | wc -l) - 1)) patches, [$prefix]"
}

name= cover= prev=
for c in $(git rev-list --reverse base..HEAD); do
	subject=$(git log -1 --format=%s "$c")
	case "$subject" in
	"--- "*)
		[ -z "$name" ] || format "$name" "$cover" "$prev"
		name=${subject#--- }
		cover=$c
		;;
	esac
	prev=$c
done
format "$name" "$cover" "$prev"
rm -f "$work.cover"
