#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-asan.sh PERF: run perf flamegraph, built with ASan and UBSan, on
# recordings made on the spot and on the foreign profiles, in every
# format, and through perf data convert, perf report and perf diff; then
# its C tests and shell tests with this perf. Fail on any sanitizer
# report whose first frame in perf is in our code
# (scripts/sanitizer-origin.py), on a failed command or test, or if this
# perf writes other output than the plain build. Reports from the rest of
# perf are listed but do not fail the run.

perf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
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
# check LABEL COMMAND...: run it, and sort its sanitizer reports; with
# must_pass=1, fail if it fails.
must_pass=0
check() {
	local label=$1

	shift
	if ! "$@" > /dev/null 2> "$work/err" && [ "$must_pass" = 1 ]; then
		echo "FAILED: $label: $(grep -v '^\[' "$work/err" | head -1)"
		ours=$((ours + 1))
	fi
	grep -qE "AddressSanitizer|LeakSanitizer|runtime error" "$work/err" || return 0
	if python3 "$top/scripts/sanitizer-origin.py" "$work/err"; then
		echo "SANITIZER REPORT in perf flamegraph code: $label"
		grep -E "ERROR|runtime error|SUMMARY|#[0-9] " "$work/err" | head -20
		ours=$((ours + 1))
	else
		echo "perf's own code: $label:" \
		     "$(grep -E "runtime error|SUMMARY" "$work/err" | head -1)"
		other=$((other + 1))
	fi
}

for f in $inputs; do
	for fmt in html json folded; do
		check "$f --format $fmt" "$perf" flamegraph --asm -i "$f" --format "$fmt" \
			-o "$work/out"
	done
	check "$f --format pprof" "$perf" flamegraph -i "$f" --format pprof -o "$work/out"
done
# The other ways in: data convert, --diff, perf report and perf diff,
# and the C tests of the tree and writers and of precise callchains.
p=$work/p.data
must_pass=1
check "data convert --to-pprof" "$perf" data convert -i "$p" --to-pprof "$work/out.pb.gz"
check "--diff" "$perf" flamegraph --asm -i "$p" --diff "$p" -o "$work/out.html"
check "perf report --flamegraph" "$perf" report -i "$p" --flamegraph-asm \
	--flamegraph="$work/out.json"
check "perf diff --flamegraph" "$perf" diff --flamegraph-asm --flamegraph="$work/out.html" "$p" "$p"
# perf with ASan checks reference counts (REFCNT_CHECKING): each
# reference to a map or dso is a pointer of its own. What it writes and
# its tests must be what perf without the checking writes and passes.
if ! "$perf" test "Flame graph tree and writers" "Precise callchains agree with the sample IP" \
		"Demangle C++" > "$work/test.log" 2>&1 || grep -q FAILED "$work/test.log"; then
	echo "perf test failed with ASan:"
	grep -E "FAILED|Ok" "$work/test.log"
	ours=$((ours + 1))
fi
# The shell tests of perf flamegraph, with every perf they run this one
# (from the assembled tree, as make check runs them). Not the --asm
# attribution test: under ASan, perf record with kernel.kptr_restrict=2
# still records a kernel map, which that test checks it does not.
src=$top/build/src/tools/perf
if [ -d "$src/tests/shell" ]; then
	if ! (cd "$src" && PATH="$(dirname "$perf"):$PATH" ASAN_OPTIONS=detect_leaks=0 \
	      PPROF=${PPROF:-$top/build/pprof} "$perf" test -vv \
		"perf flamegraph inputs" "perf flamegraph outputs and bad input" \
		"perf flamegraph --asm: capstone's gaps, perf itself, system programs, exec" \
		"perf flamegraph inputs: JIT code, debug files, archives, other machines" \
		"perf flamegraph: several events, --cpu and --time" \
		"perf flamegraph: an existing output kept whole" \
		"perf flamegraph record" "perf report --flamegraph: options, events, tasks" \
		"perf flamegraph --diff and perf diff --flamegraph" \
		"perf flamegraph --format pprof, read by pprof" \
		"perf flamegraph: Rust v0 and MiniDebugInfo names" \
		"perf report --flamegraph and flamegraph.py --asm" \
		"perf flamegraph --asm: each hot function's whole code, in context" \
		"perf flamegraph --debuginfod") \
		> "$work/shell.log" 2>&1 ||
	   grep -qE ": FAILED!$" "$work/shell.log"; then
		echo "shell tests failed with ASan:"
		grep -E "^ *[0-9.]+: .*: (Ok|FAILED!|Skip.*)$" "$work/shell.log"
		# Which part, which command, and any sanitizer's words.
		grep -E '^test_[a-z0-9_]+( FAILED|: line [0-9]+: .*)$|runtime error|Sanitizer|^[A-Za-z]*Error' \
			"$work/shell.log" | cut -c1-400 | head -20
		ours=$((ours + 1))
	fi
	echo "shell tests with ASan: $(grep -cE ': Ok$' "$work/shell.log") Ok," \
	     "$(grep -cE ': Skip' "$work/shell.log") skipped"
fi
normal=$top/build/perf
for fmt in json folded pprof; do
	[ -x "$normal" ] || break
	"$perf" flamegraph --asm -i "$p" --format "$fmt" -o "$work/asan.$fmt" 2> /dev/null
	"$normal" flamegraph --asm -i "$p" --format "$fmt" -o "$work/plain.$fmt" 2> /dev/null
	if ! cmp -s "$work/asan.$fmt" "$work/plain.$fmt"; then
		echo "--format $fmt: perf with ASan writes another output than perf without"
		ours=$((ours + 1))
	fi
done
echo "problems in perf flamegraph: $ours; sanitizer reports in perf's own code: $other"
[ "$ours" -eq 0 ]
