#!/bin/bash
# perf flamegraph: several events, --cpu and --time
# SPDX-License-Identifier: GPL-2.0
#
# -e a,b writes a graph per event, in -e's order; --cpu and --time keep
# the samples perf script keeps with the same option.  Every count is
# perf script's, of the same recording.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_events.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require python3

data="${workdir}/perf.data"
# On CPU 0 only, where taskset(1) can pin perf record and so the
# workload it forks, from its first instruction: the other CPUs have no
# samples for --cpu to find.
pin=
if command -v taskset > /dev/null && [ "$(nproc)" -gt 1 ]; then
	pin="taskset -c 0"
fi
# shellcheck disable=SC2086
${pin} perf record -q --sample-cpu -e cpu-clock,task-clock -c 100000 -g -o "${data}" \
	-- perf test -w noploop 1 > /dev/null 2>&1 || skip "perf record failed"

# samples EVENT [PERF SCRIPT OPTIONS...]: EVENT's samples as perf script
# gives them.
samples() {
	local ev=$1

	shift
	perf script -i "${data}" "$@" -G -F event 2> /dev/null | grep -c "^ *${ev}: *$" || true
}

test_events() {
	echo "-e a,b: a graph per event, in -e's order"
	local f="${workdir}/two.folded" ev

	perf flamegraph -i "${data}" --value samples -e task-clock,cpu-clock -o "$f" \
		2> /dev/null
	# Each folded line starts with its event: task-clock's graph first.
	test "$(cut -d';' -f1 "$f" | uniq | tr '\n' ' ')" = "task-clock cpu-clock "
	for ev in task-clock cpu-clock; do
		test "$(samples "${ev}")" -gt 0
		grep "^${ev};" "$f" > "${workdir}/${ev}.folded"
		test "$(total "${workdir}/${ev}.folded")" -eq "$(samples "${ev}")"
	done
	# JSON: an array of the two trees, each root naming its event.
	perf flamegraph -i "${data}" -e task-clock,cpu-clock -o "${workdir}/two.json" \
		2> /dev/null
	python3 -c 'import json, sys
roots = json.load(open(sys.argv[1]))
assert [r["event"] for r in roots] == ["task-clock", "cpu-clock"], roots' \
		"${workdir}/two.json"
	# One listed event not in the recording: an error, nothing written.
	refute perf flamegraph -i "${data}" -e cpu-clock,page-faults \
		-o "${workdir}/x.json" 2> "${workdir}/x.err"
	grep -q "^event 'page-faults' is not in ${data}$" "${workdir}/x.err"
	test ! -e "${workdir}/x.json"
}

test_cpu_time() {
	echo "--cpu, --time: the samples perf script keeps"
	local f="${workdir}/f.folded" cpu want all nr_none=

	all=$(samples cpu-clock)
	for cpu in $(seq 0 $(($(nproc) - 1))); do
		want=$(samples cpu-clock -C "${cpu}")
		if [ "${want}" -eq 0 ]; then
			# None there: all filtered, an error, nothing written.
			refute perf flamegraph -i "${data}" -e cpu-clock -C "${cpu}" \
				-o "${workdir}/none.folded" 2> "${workdir}/none.err"
			grep -q "^no samples of 'cpu-clock' to show in ${data} (${all} filtered," \
				"${workdir}/none.err"
			test ! -e "${workdir}/none.folded"
			nr_none=1
			continue
		fi
		perf flamegraph -i "${data}" --value samples -e cpu-clock -C "${cpu}" \
			-o "$f" 2> "${workdir}/f.err"
		test "$(total "$f")" -eq "${want}"
		grep -q " samples of 'cpu-clock' ($((all - want)) filtered," "${workdir}/f.err" ||
			test "${want}" -eq "${all}"
	done
	[ -n "${nr_none}" ] || skip_part "samples on every CPU, none for a CPU left out"
	want=$(samples cpu-clock --time 0%-50%)
	test "${want}" -gt 0
	perf flamegraph -i "${data}" --value samples -e cpu-clock --time 0%-50% -o "$f" \
		2> "${workdir}/f.err"
	test "$(total "$f")" -eq "${want}"
	# The samples left out are filtered, as the summary line says.
	grep -q " samples of 'cpu-clock' ($((all - want)) filtered," "${workdir}/f.err"
}

run_parts test_events test_cpu_time
