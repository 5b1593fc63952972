#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-patches.sh BASE PATCHDIR: apply the series written by make patches
# (PATCHDIR/NN-name/, in order) to a pristine copy of the base one patch
# at a time with git am, build perf after each with WERROR=1, run the
# base's checkpatch.pl --strict on each (no error, no warning), and run
# the tests present at the last patch of each series; the last is also
# built with REFCNT_CHECKING=1 (as upstream's tests/make). One line per
# patch; stops at the first problem. With FROM=N (make check-patches
# FROM=N), the patches before the N-th of all are applied only, neither
# built nor checked: to go on after a run that passed them. With TO=M,
# it stops after the M-th (its series' tests run if it is the series'
# last), without the REFCNT_CHECKING build: to check a part of the
# stack, e.g. the series an edit touched.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cd "$1" && pwd)
patches=$(cd "$2" && pwd)
work=$top/build/check-patches
obj=$work-obj
# As the Makefile builds it (see PERF_MAKEFLAGS there).
makeflags="NO_RUST=1 LLVM_CONFIG=/usr/bin/llvm-config-14 PYTHON=/usr/bin/python3 WERROR=1"
# perf help looks for man pages in the mandir perf was built with, perf
# script for its scripts in the perfexecdir under its prefix: a link to
# the tree, as in the Makefile.
[ -n "$MANDIR" ] && makeflags="$makeflags mandir=$MANDIR"
makeflags="$makeflags prefix=$obj/prefix"

name=$(git -C "$top" config user.name || true)
email=$(git -C "$top" config user.email || true)
if [ -z "$name" ] || [ -z "$email" ]; then
	echo "check-patches: no git identity: set git config user.name and user.email" >&2
	exit 1
fi

rm -rf "$work" "$obj" "$obj-refcnt"
mkdir -p "$work" "$obj/prefix/libexec"
ln -s "$work/tools/perf" "$obj/prefix/libexec/perf-core"
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

n=0
for p in "$patches"/[0-9][0-9]-*/[0-9][0-9][0-9][0-9]-*.patch; do
	case "$p" in *0000-cover-letter.patch) continue ;; esac
	n=$((n + 1))
	# The subject whole (format-patch folds a long one), its [PATCH] off.
	subject=$(git mailinfo /dev/null /dev/null < "$p" | sed -n 's/^Subject: //p')
	if ! git am -q "$p" > "$obj/am.log" 2>&1; then
		echo "FAIL $n $subject: git am"
		cat "$obj/am.log"
		exit 1
	fi
	# FROM=N: the patches before the N-th only applied, as a run
	# that passed them did.
	if [ "$n" -lt "${FROM:-1}" ]; then
		echo "     $n $subject (applied)"
		continue
	fi
	if ! make -C tools/perf O="$obj" $makeflags -j"$(nproc)" > "$obj/build.log" 2>&1; then
		echo "FAIL $n $subject: build"
		grep -E "error|Error" "$obj/build.log" | head -20
		exit 1
	fi
	# --no-tree: the base is a tarball, without git history (for commit
	# ids) or MAINTAINERS (tools/perf/ is in its perf entry, F: tools/perf/).
	./scripts/checkpatch.pl --strict --no-tree --show-types \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$p" > "$obj/checkpatch.log" 2>&1 || true
	# perf's shell tests keep their name on line 2 and the SPDX tag on
	# line 3 (tests/tests-scripts.c reads the name there): not a problem.
	# Nothing else is: the programs a shell test builds take noinline
	# and __always_inline from tools/include/linux/compiler.h.
	problems=$(python3 - "$obj/checkpatch.log" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
n = 0
for block in text.split("\n\n"):
    m = re.match(r"(ERROR|WARNING):(\w+):", block)
    if not m:
        continue
    f = re.search(r"FILE: (\S+?):\d+:", block)
    if (m.group(2) == "SPDX_LICENSE_TAG" and f and
            re.match(r"tools/perf/tests/shell/[^/]+\.sh$", f.group(1))):
        continue
    print(block)
    n += 1
sys.exit(0)
PY
)
	if [ -n "$problems" ]; then
		echo "FAIL $n $subject: checkpatch"
		echo "$problems" | head -40
		exit 1
	fi
	checks=$(grep -c "^CHECK:" "$obj/checkpatch.log" || true)
	echo "ok   $n $subject (builds with WERROR=1; checkpatch: $checks CHECKs)"
	# Each series' tests pass at its last patch.
	series=$(dirname "$p")
	if [ "$p" = "$(ls "$series"/[0-9][0-9][0-9][0-9]-*.patch | tail -1)" ]; then
		if ! PRESENT=1 "$top/scripts/run-tests.sh" "$obj/perf" "$work/tools/perf" \
				> "$obj/tests.log" 2>&1; then
			echo "FAIL $(basename "$series"): tests"
			grep -vE ': (Ok|Skip.*)$' "$obj/tests.log" | tail -40
			exit 1
		fi
		echo "     $(basename "$series") tests: $(tail -1 "$obj/tests.log")"
	fi
	if [ -n "$TO" ] && [ "$n" -ge "$TO" ]; then
		echo "stopped after patch $n (TO=$TO): the patches after it not checked"
		exit 0
	fi
done

# As upstream's build tests (tests/make, make_refcnt_check): the whole
# series with perf's reference-count checking, where each reference to
# a map or dso is a pointer of its own.
echo "  BUILD  the whole series with REFCNT_CHECKING=1"
mkdir -p "$obj-refcnt"
if ! make -C tools/perf O="$obj-refcnt" $makeflags EXTRA_CFLAGS="-DREFCNT_CHECKING=1" \
		-j"$(nproc)" > "$obj/build-refcnt.log" 2>&1; then
	echo "FAIL the series with REFCNT_CHECKING=1: build"
	grep -E "error|Error" "$obj/build-refcnt.log" | head -20
	exit 1
fi
rm -rf "$obj-refcnt"
echo "ok   the series with REFCNT_CHECKING=1"
