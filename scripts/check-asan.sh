#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-asan.sh PERF: run perf flamegraph, built with ASan and UBSan, on
# recordings made on the spot and on the foreign profiles, in every
# format, and fail on any sanitizer report whose first frame in perf is
# in our code (scripts/sanitizer-origin.py). Reports from the rest of
# perf are listed but do not fail the run.

perf=$1
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/perf-asan.XXXXXX)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1
export PERF_BUILDID_DIR="$work/buildid"

cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$work/fgwork" \
	"$top"/tools/perf/tests/shell/lib/flamegraph/*.c || exit 1
"$perf" record -q -e cpu-clock -g -o "$work/p.data" "$work/fgwork" 20 2> /dev/null
inputs="$work/p.data $(ls "$top"/../shared/profiles/*.data 2> /dev/null)"

ours=0
other=0
for f in $inputs; do
	for fmt in html json folded; do
		"$perf" flamegraph --asm -i "$f" --format "$fmt" -o "$work/out" \
			2> "$work/err"
		grep -qE "AddressSanitizer|LeakSanitizer|runtime error" "$work/err" ||
			continue
		if python3 "$top/scripts/sanitizer-origin.py" "$work/err"; then
			echo "SANITIZER REPORT in perf flamegraph code: $f --format $fmt"
			grep -E "ERROR|runtime error|SUMMARY|#[0-9] " "$work/err" | head -20
			ours=$((ours + 1))
		else
			echo "perf's own code: $f --format $fmt:" \
			     "$(grep -E "runtime error|SUMMARY" "$work/err" | head -1)"
			other=$((other + 1))
		fi
	done
done
echo "sanitizer reports: $ours in perf flamegraph, $other in perf's own code"
[ "$ours" -eq 0 ]
