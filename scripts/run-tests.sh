#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh PERF SRCDIR: run our perf tests and the upstream ones
# closest to what we touch, through 'perf test', from SRCDIR (the
# assembled tools/perf, where perf test finds tests/shell).  Prints each
# result and ends with "N passed, N failed, N skipped".
#
# With PRESENT=1 (make check-patches, at a commit inside the series) a
# test the tree does not have yet is left out; else it is a failure.

perf=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
srcdir=$2

# Ours, then upstream's: annotate, report, script, record, the header,
# pipe, zstd and the hists tests that build fake samples.
tests=(
	"perf flamegraph --asm: instructions at the sample IPs"
	"perf flamegraph inputs"
	"perf flamegraph: an existing output kept whole"
	"perf flamegraph: several events, --cpu and --time"
	"perf flamegraph record"
	"perf flamegraph outputs and bad input"
	"perf flamegraph --diff and perf diff --flamegraph"
	"perf flamegraph --format pprof, read by pprof"
	"perf report --flamegraph and flamegraph.py --asm"
	"perf flamegraph --asm: each hot function's whole code, in context"
	"perf flamegraph --debuginfod"
	"Flame graph tree and writers"
	"Precise callchains agree with the sample IP"
	"perf script python: names, symbol ranges, the image perf disassembles"
	"perf annotate basic tests"
	"perf annotate: say what could not be annotated"
	"perftool-testsuite_report"
	"perf report: a truncated perf.data"
	"perf report: kernel frames of another kernel's recording"
	"perf script tests"
	"perf record tests"
	"perf header tests"
	"perf pipe recording and injection test"
	"Zstd perf.data compression/decompression\$"
	"Match and link multiple hists"
	"Filter hist entries"
	"Sort output of hist entries"
	"Cumulate child hist entries"
	"Sample parsing"
	"Demangle C++"
)

# The tests in checks/shell/ are this repository's, not the series':
# make check-patches runs the tests of the series alone, where these
# files are not, and leaves them out.
checks=(
	"flamegraph_browser.sh:perf flamegraph HTML viewer in Chromium"
	"flamegraph_readme.sh:perf flamegraph: the README's commands, as printed"
	"flamegraph_options.sh:perf flamegraph: options added to perf's commands"
	"flamegraph_names.sh:perf flamegraph: Rust v0 and MiniDebugInfo names"
	"flamegraph_inputs_more.sh:perf flamegraph inputs: JIT code, debug files, archives, other machines"
	"flamegraph_attribution_more.sh:perf flamegraph --asm: capstone's gaps, perf itself, system programs, exec"
	"flamegraph_foreign_profiles.sh:perf flamegraph and perf report on recordings of other machines"
	"report_foreign_kernel_more.sh:perf report and perf flamegraph: kernel frames of other kernels' recordings"
	"addr2line_libdw_pie.sh:perf addr2line.style=libdw: source lines and inlines of a small PIE"
	"flamegraph_report_more.sh:perf report --flamegraph: options, events, tasks"
	"annotate_jit_map.sh:perf annotate: JIT code named by /tmp/perf-PID.map"
)
for c in "${checks[@]}"; do
	if [ -e "$srcdir/tests/shell/${c%%:*}" ]; then
		tests+=("${c#*:}")
	fi
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
cd "$srcdir" || exit 1
PATH="$(dirname "$perf"):$PATH"
export PATH
# The numbers of the suites whose name has each of them in it, as perf
# test matches names: perf test runs none of the test cases of a suite
# that has several when given the suite's name, all of them given its
# number. A name that matches no suite is a failure, not a test less.
list=$("$perf" test list 2> /dev/null)
found=
missing=0
for t in "${tests[@]}"; do
	[ -n "$t" ] || continue
	# A name ending in "$" is the whole name: the zstd test we touch
	# (patch "Remove the files of the zstd compression test") and not its
	# multi-record sibling, which skips whole when a busy machine gives
	# it less than two compressed records.
	n=$(awk -v t="$t" 'match($0, /^ *[0-9]+: /) {
		name = tolower(substr($0, RLENGTH + 1))
		sub(/ *$/, "", name)
		if (substr(t, length(t)) == "$")
			hit = name == tolower(substr(t, 1, length(t) - 1))
		else
			hit = index(name, tolower(t))
		if (hit)
			print $1 + 0
	}' <<< "$list")
	if [ -z "$n" ] && [ "$PRESENT" = 1 ]; then
		continue
	elif [ -z "$n" ]; then
		echo "no perf test named '$t'"
		missing=$((missing + 1))
	fi
	found+="$n"$'\n'
done
mapfile -t nums < <(printf '%s' "$found" | grep . | sort -nu)
[ "${#nums[@]}" -gt 0 ] || exit 1
# -vv: all that a test printed is kept, to show it if it fails (-v keeps
# only a snippet of it, which may end before the step that failed); the
# result lines are " N: name : Ok" (or FAILED!, Skip) as without it.
result='^ *[0-9.]+: .*: (Ok|FAILED!|Skip.*)$'
"$perf" test -vv "${nums[@]}" 2>&1 |
	tr '\r' '\n' | tee "$log" | grep -E "$result"

passed=$(grep -E "$result" "$log" | grep -cE ': Ok$')
failed=$(($(grep -E "$result" "$log" | grep -cE ': FAILED!$') + missing))
skipped=$(grep -E "$result" "$log" | grep -cE ': Skip')
if [ "$failed" -ne 0 ]; then
	# Show what the failed tests printed, in this run: an intermittent
	# failure may not come back when run again.
	for t in $(grep -E "$result" "$log" | grep -E ': FAILED!$' |
		   sed -E 's/^ *([0-9.]+):.*/\1/'); do
		echo "---- what test $t printed ----"
		awk -v t="$t" '/^--- start ---$/ { buf = "" }
			{ buf = buf $0 "\n" }
			$0 ~ "^ *" t ": .* : FAILED!$" { printf "%s", buf; exit }' "$log" |
			tail -150
		# Our shell tests name each part that failed, and its command.
		echo "---- failed parts ----"
		grep -E '^test_[a-z0-9_]+( FAILED|: line [0-9]+: .*)$' "$log" || true
	done
fi
# A part of a test that can't run on this machine says why, and the test
# stays Ok: name each such part.
if grep -q '\[Skipped\]$' "$log"; then
	echo "---- parts skipped ----"
	grep '\[Skipped\]$' "$log" | sort | uniq -c
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
