#!/bin/bash
# perf report --flamegraph: options, events, tasks
# SPDX-License-Identifier: GPL-2.0
#
# The cases of perf report --flamegraph beyond the series' own test
# (tools/perf/tests/shell/flamegraph_report.sh): perf report's stdout
# beside the graph, other contexts and views, --value period and several
# events, tasks that exited, debuginfod, no threads.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_report_more.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm

prog="${workdir}/fgwork"
build_workload "${prog}"

test_stdout() {
	echo "perf report --flamegraph=-: the graph alone on stdout"
	local d="${workdir}/stdout" f st

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 40 2> /dev/null
	# A filter of one entry prints "# comm: fgwork" above a report: not
	# above the graph.  What stdout gets is what the file gets.
	for f in "--comms fgwork" "--dsos fgwork" "--symbols mix" "--comm fgwork -S mix"; do
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" --flamegraph=- $f > "$d/out.html" \
			2> /dev/null
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" --flamegraph="$d/file.html" $f \
			> "$d/stdout" 2> /dev/null
		if ! cmp -s "$d/out.html" "$d/file.html"; then
			echo "--flamegraph=- $f: stdout is not the graph alone:" \
				"$(cmp "$d/out.html" "$d/file.html" 2>&1 | head -1)" \
				"$(grep -a -m1 '^#' "$d/out.html")"
			return 1
		fi
		test ! -s "$d/stdout"
	done
	# --header writes to stdout too: refused there, as --header-only is
	# with any --flamegraph; one line, nothing written.
	for f in "--flamegraph=- --header" "--flamegraph=$d/x.html --header-only" \
			"--flamegraph=- --header-only"; do
		st=0
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" $f > "$d/out" 2> "$d/err" || st=$?
		test "${st}" -ne 0
		test "$(wc -l < "$d/err")" -eq 1
		grep -q "^--flamegraph.*: not with --header" "$d/err"
		test ! -s "$d/out"
		test ! -e "$d/x.html"
	done
	# Nor with the modes that show no samples: they would write no graph.
	for f in --stats --tasks --mmaps -D; do
		st=0
		perf report --no-inline -i "$d/r.data" --flamegraph="$d/x.html" "$f" \
			> "$d/out" 2> "$d/err" || st=$?
		test "${st}" -ne 0
		test "$(cat "$d/err")" = \
			"--flamegraph: not with --stats, --tasks, --mmaps or --dump-raw-trace"
		test ! -e "$d/x.html"
	done
	# "--flamegraph FILE" makes FILE perf report's symbol filter: said.
	(cd "$d" && refute perf report --no-inline -i "$d/r.data" --flamegraph sp.folded \
		> /dev/null 2> "$d/err")
	grep -q "^no samples of 'cpu-clock' left to show in $d/r.data with the symbol filter" \
		"$d/err"
	grep -q " 'sp.folded'$" "$d/err"
	test ! -e "$d/sp.folded"
	test ! -e "$d/flamegraph.html"
	# The recording it reads is never the output.
	cp "$d/r.data" "$d/in.data"
	refute perf report --no-inline -i "$d/in.data" --flamegraph="$d/./in.data" \
		> /dev/null 2> "$d/err"
	grep -q "^the output $d/./in.data is the input: refusing to overwrite it$" "$d/err"
	cmp "$d/r.data" "$d/in.data"
	# To a file, --header still goes to stdout, the graph to the file.
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/h.html" --header \
		> "$d/out" 2> /dev/null
	grep -q '^# hostname' "$d/out"
	grep -q '"strings"' "$d/h.html"
}

test_other_context() {
	echo "A user sample whose callchain starts in the kernel: the sample IP's leaf"
	local d="${workdir}/context"

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 40 2> /dev/null
	# As an LBR call stack can have it: the kernel entries of the
	# interrupt above a user sample IP.  Every other user sample gets
	# one; perf report charges it to the sample IP's function.
	python3 - "${shelldir}/lib" "$d/r.data" <<'PY'
import struct, sys
sys.path.insert(0, sys.argv[1])
from flamegraph_perf_data import PerfData, PERF_RECORD_SAMPLE
CONTEXT_KERNEL, CONTEXT_USER = (1 << 64) - 128, (1 << 64) - 512
data = PerfData(sys.argv[2])
_, off = data.sample_offsets()
changed = nth = 0
for pos, rtype, size in data.records():
    if rtype != PERF_RECORD_SAMPLE:
        continue
    body = data.read(pos + 8, size - 8)
    (nr,) = struct.unpack_from("<Q", body, off)
    ips = struct.unpack_from(f"<{nr}Q", body, off + 8)
    nth += 1
    if nr < 4 or ips[0] != CONTEXT_USER or nth % 2:
        continue
    new = (CONTEXT_KERNEL, 0xffffffff81000100) + ips[:nr - 2]
    data.write(pos + 8 + off + 8, struct.pack(f"<{nr}Q", *new))
    changed += 1
data.close()
assert changed, "no user sample to change"
print(f"{changed} of {nth} samples' callchains made to start in the kernel")
PY
	perf flamegraph -i "$d/r.data" --asm -o "$d/fg.json" 2> /dev/null
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.json" --flamegraph-asm \
		2> /dev/null
	perf report --no-inline -i "$d/r.data" --stdio --no-children -g none --sort dso \
		> "$d/dso.txt" 2> /dev/null
	python3 - "$d/dso.txt" "$d/fg.json" "$d/rep.json" <<'PY'
import json, re, sys
report = dict((dso, p) for p, dso in
              re.findall(r"^\s+([0-9.]+)%\s+(\S+)\s*$", open(sys.argv[1]).read(), re.M))
assert report, "perf report lists no DSO"
for path in sys.argv[2:]:
    self, total = {}, 0
    def walk(n, parent):
        global total
        if n["k"] == "insn":
            # The leaf's function is of the sample IP's context.
            assert parent["k"] != "root" and n.get("d") == parent.get("d"), (parent, n)
            dso = n.get("d") or "[unknown]"
            self[dso] = self.get(dso, 0) + n["v"]
            total += n["v"]
        for c in n["c"]:
            walk(c, n)
    walk(json.load(open(path)), {"k": "root"})
    ours = {dso: f"{100 * v / total:.2f}" for dso, v in self.items()}
    assert ours == report, (path, ours, report)
    print(f"{path.rsplit('/', 1)[1]}: each DSO's share is perf report's: {ours}")
PY
}

test_report_view() {
	echo "perf report --flamegraph: every filter named, what it left out counted"
	local d="${workdir}/view" all f

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 60 2> /dev/null
	all=$(perf script -G -F event -i "$d/r.data" 2> /dev/null | grep -c .)
	for f in "--time 50%-100%" "--symbol-filter spin" "--comms fgwork" "--percent-limit 5" \
			"--dsos fgwork --percent-limit 10"; do
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" --flamegraph="$d/v.html" $f 2> /dev/null
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" --flamegraph="$d/v.json" $f 2> /dev/null
		# What perf report lists with the same options: its samples and
		# the total its percentages are of.
		# shellcheck disable=SC2086
		perf report --no-inline -i "$d/r.data" --stdio --no-children -g none -n \
			--sort comm,dso,sym $f > "$d/v.txt" 2> /dev/null
		python3 - "$d" "$all" "$f" <<'PY'
import collections, json, re, sys
d, nr_all, opts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
report = open(f'{d}/v.txt').read()
listed = re.findall(r'^\s+([0-9.]+)%\s+(\d+)\s+.*?\[[.k]\] (.*?)\s*$', report, re.M)
kept = sum(int(n) for _, n, _ in listed)
view = re.search(r'"view":"([^"]*)"', open(f'{d}/v.html').read()).group(1)
filters = opts.replace("--dsos fgwork --", "--dsos fgwork, --")
want = f'{filters}: {nr_all - kept} of {nr_all} samples left out'
assert view == want, (view, want)
g = json.load(open(f'{d}/v.json'))
total = int(re.search(r'^# Event count \(approx\.\): (\d+)$', report, re.M).group(1))
assert g['report_total'] == total, (g['report_total'], total)
# Each function's share as perf report prints it: its self period in
# the graph, of perf report's total.
ours = collections.Counter()
def walk(n):
    if n['k'] == 'func' and n['v']:
        ours[(re.sub(r' \([^()]*\+0x[0-9a-f]+\)$', '', n['n']), n.get('a'))] += n['v']
    for c in n['c']:
        walk(c)
walk(g)
got = sorted((name, f'{100 * v / total:.2f}') for (name, _), v in ours.items())
assert got == sorted((name, p) for p, _, name in listed), (got, listed)
print(f'{opts}: {view}; {len(listed)} shares as perf report')
PY
	done
}

test_periods() {
	echo "page-faults in frequency mode: perf report's periods, perf annotate's"
	local d="${workdir}/periods"

	mkdir "$d"
	build_program "$d/faults" "${shelldir}/lib/flamegraph_faults.c"
	perf record -q -e page-faults -F 1000 -g -o "$d/f.data" "$d/faults" \
		2> /dev/null
	# Weighed by period by default: each function's period, samples and
	# share are perf report's, each instruction's period perf
	# annotate's; perf report --flamegraph gives the same tree.
	perf flamegraph -i "$d/f.data" -o "$d/fn.json" 2> /dev/null
	perf flamegraph -i "$d/f.data" --asm -o "$d/asm.json" 2> "$d/err"
	grep -q "samples of 'page-faults'" "$d/err"
	perf report --no-inline -i "$d/f.data" --flamegraph="$d/rep.json" --flamegraph-asm \
		2> /dev/null
	# perf report's adds the total its percentages are of.
	sed 's/,"report_total":[0-9]*//' "$d/rep.json" | cmp "$d/asm.json" -
	fg_check --data "$d/f.data" --json "$d/fn.json" --dso faults --report-periods
	fg_check --data "$d/f.data" --json "$d/asm.json" --dso faults \
		--report-periods --annotate --annotate-period
	# The JSON says what its numbers are, the page too.
	grep -q '^{"n":"all",[^{]*"weight":"period"' "$d/asm.json"
	perf flamegraph -i "$d/f.data" -o "$d/f.html" 2> /dev/null
	grep -q '"weight":"period","unit":"faults"' "$d/f.html"
	# --value samples: the samples as perf annotate -n counts them, and
	# the folded output sums to the samples of the recording.
	perf flamegraph -i "$d/f.data" --asm --value samples -o "$d/s.json" \
		2> /dev/null
	grep -q '^{"n":"all",[^{]*"weight":"samples"' "$d/s.json"
	fg_check --data "$d/f.data" --json "$d/s.json" --dso faults --annotate
	perf flamegraph -i "$d/f.data" --value samples --format folded \
		-o "$d/s.folded" 2> /dev/null
	test "$(awk '{ s += $NF } END { printf "%.0f\n", s }' "$d/s.folded")" -eq \
		"$(perf script -i "$d/f.data" -F event 2> /dev/null | wc -l)"
	refute perf flamegraph -i "$d/f.data" --value bogus -o "$d/x.json" \
		2> "$d/err"
	grep -q "^--value bogus: use period or samples$" "$d/err"
	test ! -e "$d/x.json"
}

test_events() {
	echo "First event without samples: the graph is the first one's with samples"
	local d="${workdir}/events"

	mkdir "$d"
	build_program "$d/faults" "${shelldir}/lib/flamegraph_faults.c"
	perf record -q -e alignment-faults,page-faults -F 1000 -g \
		-o "$d/two.data" "$d/faults" 2> /dev/null
	# alignment-faults has none: page-faults, as perf report shows it.
	perf flamegraph -i "$d/two.data" --asm -o "$d/def.json" 2> "$d/err"
	grep -q "samples of 'page-faults'" "$d/err"
	grep -q '^{"n":"all",[^{]*"event":"page-faults"' "$d/def.json"
	perf flamegraph -i "$d/two.data" --asm -e page-faults -o "$d/e.json" \
		2> /dev/null
	cmp "$d/def.json" "$d/e.json"
	perf report --no-inline -i "$d/two.data" --flamegraph="$d/rep.json" --flamegraph-asm \
		2> /dev/null
	# perf report's adds the total its percentages are of.
	sed 's/,"report_total":[0-9]*//' "$d/rep.json" | cmp "$d/def.json" -
	fg_check --data "$d/two.data" --json "$d/def.json" --dso faults \
		--event page-faults --report-periods --annotate --annotate-period
	# Asked for by name, the empty event is an error, and no output.
	refute perf flamegraph -i "$d/two.data" -e alignment-faults \
		-o "$d/x.json" 2> "$d/err"
	grep -q "^no samples of 'alignment-faults' to show in $d/two.data" "$d/err"
	test ! -e "$d/x.json"
}

test_event_list() {
	echo "-e with a list: one graph per event, each perf report's"
	local d="${workdir}/list" e

	mkdir "$d"
	build_program "$d/faults" "${shelldir}/lib/flamegraph_faults.c"
	perf record -q -e page-faults,cpu-clock -F 1000 -g -o "$d/l.data" \
		"$d/faults" 2> /dev/null
	perf flamegraph -i "$d/l.data" --asm -e cpu-clock,page-faults \
		-o "$d/l.json" 2> "$d/err"
	grep -q "samples of 'cpu-clock'.*; [0-9]* samples of 'page-faults'.*wrote" "$d/err"
	perf flamegraph -i "$d/l.data" -e cpu-clock,page-faults -o "$d/l.folded" \
		2> /dev/null
	# Each graph is the one of its event alone, which is perf report's;
	# JSON holds them in -e's order, folded names the event first.
	for e in cpu-clock page-faults; do
		perf flamegraph -i "$d/l.data" --asm -e "$e" -o "$d/$e.json" \
			2> /dev/null
		fg_check --data "$d/l.data" --json "$d/$e.json" --dso faults \
			--event "$e" --report-periods
		perf flamegraph -i "$d/l.data" -e "$e" -o "$d/$e.folded" 2> /dev/null
		sed -n "s/^$e;//p" "$d/l.folded" | cmp - "$d/$e.folded"
	done
	test "$(grep -vc -e '^cpu-clock;' -e '^page-faults;' "$d/l.folded")" -eq 0
	python3 - "$d/l.json" "$d/cpu-clock.json" "$d/page-faults.json" <<'PY'
import json
import sys

graphs = json.load(open(sys.argv[1]))
alone = [json.load(open(p)) for p in sys.argv[2:]]
assert [g["event"] for g in graphs] == ["cpu-clock", "page-faults"], \
    [g.get("event") for g in graphs]
assert graphs == alone, "a graph of the list differs from its event's alone"
PY
	# An event the recording hasn't: one line, no output; and a
	# d3-flame-graph template holds one event.
	refute perf flamegraph -i "$d/l.data" -e cpu-clock,cycles -o "$d/x.json" \
		2> "$d/err"
	grep -q "^event 'cycles' is not in $d/l.data$" "$d/err"
	test ! -e "$d/x.json"
	set +e
	perf flamegraph -i "$d/l.data" -e cpu-clock,page-faults --template \
		"$d/err" -o "$d/x.html" 2> "$d/err2"
	test $? -ne 0 || return 1
	set -e
	grep -q "^--template: a d3-flame-graph template holds one event$" "$d/err2"
}

test_exited_tasks() {
	echo "Short-lived children: samples after their EXIT keep their comm"
	local d="${workdir}/exited"

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/x.data" -- \
		sh -c "for i in \$(seq 40); do '${prog}' 2; done" 2> /dev/null
	# Each child's last millisecond after its EXIT, as a busy machine
	# can record it: perf report keeps the thread and its comm.
	test "$(python3 "${shelldir}/lib/flamegraph_exit_early.py" "$d/x.data" \
		1000)" -gt 0
	perf flamegraph -i "$d/x.data" -o "$d/x.folded" 2> /dev/null
	refute grep -q '^:[0-9]' "$d/x.folded"
	# Each comm's share is perf report --sort comm's.
	awk '{ split($1, f, ";"); v[f[1]] += $NF; all += $NF }
	     END { for (c in v) printf "%.2f%% %s\n", 100 * v[c] / all, c }' \
		"$d/x.folded" | sort > "$d/ours"
	perf report --no-inline -i "$d/x.data" --stdio --sort comm -g none -F overhead,comm \
		2> /dev/null | awk '/^ +[0-9.]+%/ { print $1, $2 }' | sort > "$d/report"
	test -s "$d/report"
	cmp "$d/ours" "$d/report"
}

test_debuginfod() {
	echo "perf flamegraph asks no debuginfod server, as perf record"
	local d="${workdir}/debuginfod" port="" server

	mkdir "$d"
	# Symbols and no DWARF: libdw would ask a server for its debug info.
	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$d/nog" "${shelldir}"/lib/flamegraph/*.c
	perf record -N -q -e cpu-clock -c 100000 -g -o "$d/nog.data" \
		"$d/nog" 20 2> /dev/null
	# A server that counts the connections it gets and answers none.
	python3 - "$d/port" "$d/asked" <<'PY' &
import os, socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
s.settimeout(60)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
asked = 0
try:
    while True:
        c, _ = s.accept()
        asked += 1
        open(sys.argv[2], "w").write(str(asked))
        c.close()
except socket.timeout:
    pass
PY
	server=$!
	for _ in $(seq 50); do
		test -s "$d/port" && break
		sleep 0.1
	done
	port=$(cat "$d/port")
	DEBUGINFOD_URLS="http://127.0.0.1:${port}" timeout 120 perf flamegraph \
		-i "$d/nog.data" --asm -o "$d/nog.html" 2> /dev/null
	kill "${server}" 2> /dev/null || true
	wait "${server}" 2> /dev/null || true
	grep -q '"strings"' "$d/nog.html"
	if [ -s "$d/asked" ]; then
		echo "asked debuginfod $(cat "$d/asked") times"
		return 1
	fi
}

test_no_threads() {
	echo "No thread: perf flamegraph and perf report --flamegraph start none"
	local d="${workdir}/threads"

	if ! command -v strace > /dev/null; then
		skip_part "no strace(1)"
		return 0
	fi
	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/t.data" "${prog}" 30 2> /dev/null
	strace -f -o "$d/fg.trace" -e trace=clone,clone3 \
		perf flamegraph --asm -i "$d/t.data" -o "$d/t.html" 2> /dev/null
	strace -f -o "$d/rep.trace" -e trace=clone,clone3 \
		perf report --no-inline --flamegraph="$d/r.html" --flamegraph-asm -i "$d/t.data" \
		> /dev/null 2>&1
	grep -q '"strings"' "$d/t.html"
	grep -q '"strings"' "$d/r.html"
	# The processes perf starts (addr2line) are no threads.
	grep -q "exited with 0" "$d/fg.trace"
	refute grep CLONE_THREAD "$d/fg.trace" "$d/rep.trace"
}

run_parts test_stdout test_other_context test_report_view test_periods test_events test_event_list test_exited_tasks test_debuginfod test_no_threads
