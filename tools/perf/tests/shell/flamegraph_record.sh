#!/bin/bash
# perf flamegraph record
# SPDX-License-Identifier: GPL-2.0
#
# perf flamegraph record and its short form, perf flamegraph -- command:
# recording first, perf record's options after record, the input kept
# as .old, a command that fails or can't run, and the signals that stop
# the recording.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_record.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3

test_record_command() {
	echo "perf flamegraph -- command: records with build-ids, then renders"
	local d="${workdir}/reccmd" bid pid line cmdline

	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	bid=$(readelf -n "$d/prog" | sed -n 's/.*Build ID: *//p')
	perf flamegraph --asm -e cpu-clock -i "$d/rec.data" -o "$d/rec.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/rec.err"
	grep -q "samples of 'cpu-clock'.*wrote $d/rec.folded (folded)" "$d/rec.err"
	# perf record wrote a file next to it, which became the input: the
	# last word on the recording names the input, the one before too.
	grep -q "^\[ perf record: Captured and wrote .* $d/rec.data.\{7\} " "$d/rec.err"
	grep -qx "\[ perf flamegraph: the recording is $d/rec.data \]" "$d/rec.err"
	test "$(find "$d" -maxdepth 1 -name 'rec.data*' | wc -l)" -eq 1
	perf flamegraph -e cpu-clock -i "$d/rec.data" -o "$d/one.folded" -- "$d/prog" 1 \
		> /dev/null 2> "$d/x.err"
	line="the recording is $d/rec.data (the one before: $d/rec.data.old)"
	grep -qxF "[ perf flamegraph: ${line} ]" "$d/x.err"
	mv "$d/rec.data.old" "$d/rec.data"
	# A file with the build-id table, the binary in the build-id cache.
	perf buildid-list -i "$d/rec.data" | grep -q "^${bid} $d/prog$"
	test -s "${PERF_BUILDID_DIR}/.build-id/${bid:0:2}/${bid:2}/elf"
	grep -q "^prog;.*;work;spin (prog+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/rec.folded"
	# Rebuilt: the same graph, from the cache.
	cc -O2 -g -o "$d/prog" "${shelldir}"/lib/flamegraph/*.c
	perf flamegraph --asm -i "$d/rec.data" -o "$d/again.folded" 2> /dev/null
	cmp "$d/rec.folded" "$d/again.folded"
	# ^C (SIGINT to the whole process group, as a terminal sends it)
	# stops the command; what perf record wrote is rendered.
	if command -v setsid pgrep > /dev/null; then
		setsid perf flamegraph -e cpu-clock -i "$d/int.data" -o "$d/int.folded" \
			-- perf test -w noploop 60 > /dev/null 2> "$d/int.err" &
		pid=$!
		# Once the workload runs (perf test runs others beside this
		# one: starting may take seconds), a second of it: this
		# session's workload, not another test's.
		for _ in $(seq 150); do
			pgrep -s "${pid}" -x perf-noploop > /dev/null && break
			sleep 0.2
		done
		sleep 1
		kill -INT -- "-${pid}"
		# Rendered, then it dies of SIGINT, as perf record does.
		st=0
		wait "${pid}" || st=$?
		test "${st}" -eq 130
		grep -q "samples of 'cpu-clock'.*wrote $d/int.folded" "$d/int.err"
		grep -q "^perf[^;]*;.*noploop" "$d/int.folded"
	else
		skip_part "no setsid(1) or pgrep(1) to send ^C"
	fi
	# record: any of perf record's options: the whole machine while a
	# command runs, or other processes only.  The recording's command
	# line is the one typed, perf flamegraph's, not the words it gave
	# perf record.
	perf flamegraph -i "$d/a.data" -o "$d/a.folded" record -F 499 --call-graph fp -a \
		-- "$d/prog" 10 > /dev/null 2> /dev/null
	cmdline="# cmdline : [^ ]* flamegraph -i $d/a.data -o $d/a.folded"
	cmdline+=" record -F 499 --call-graph fp -a -- $d/prog 10 "
	perf report -i "$d/a.data" --header-only 2> /dev/null | grep -qx "${cmdline}"
	perf evlist -i "$d/a.data" -v 2> /dev/null | grep -q "sample_freq }: 499, .* freq: 1"
	grep -q "^prog;" "$d/a.folded"
	# Longer than perf flamegraph takes to start recording, however busy
	# the machine; stopped once the recording is done.
	perf test -w noploop 30 &
	pid=$!
	# Recorded once its loop runs, not while perf test starts.
	for _ in $(seq 150); do
		grep -qsx "perf-noploop" "/proc/${pid}/comm" && break
		sleep 0.2
	done
	perf flamegraph -i "$d/p.data" -o "$d/p.folded" record -c 100000 -p "${pid}" \
		-- sleep 1 > /dev/null 2> /dev/null
	kill "${pid}"
	wait "${pid}" || true
	cmdline="# cmdline : [^ ]* flamegraph -i $d/p.data -o $d/p.folded"
	cmdline+=" record -c 100000 -p ${pid} -- sleep 1 "
	perf report -i "$d/p.data" --header-only 2> /dev/null | grep -qx "${cmdline}"
	grep -q "^perf[^;]*;.*noploop" "$d/p.folded"
	refute grep -q "^sleep;" "$d/p.folded"
	# perf record's letters are not perf flamegraph's: -F, -p, -a are
	# unknown options before record, a usage error.
	for o in -F -p -a --call-graph --count; do
		st=0
		perf flamegraph "$o" 1 -i "$d/rec.data" -o "$d/x.folded" 2> "$d/x.err" || st=$?
		test "${st}" -eq 129
		grep -q "^  Error: unknown \(switch\|option\)" "$d/x.err"
		test ! -e "$d/x.folded"
	done
	# The recording is -i's: -o among perf record's options is an error,
	# nothing recorded; a command's own -o after -- is its own.
	st=0
	perf flamegraph -i "$d/o.data" -o "$d/o.folded" record -o "$d/elsewhere.data" \
		-- "$d/prog" 1 > /dev/null 2> "$d/o.err" || st=$?
	test "${st}" -ne 0
	grep -q "^record -o: the recording is perf flamegraph's input, named with -i" "$d/o.err"
	test "$(wc -l < "$d/o.err")" -eq 1
	test ! -e "$d/o.data"
	test ! -e "$d/elsewhere.data"
	test ! -e "$d/o.folded"
	# "--" and nothing after it: no command, nothing recorded.
	st=0
	perf flamegraph -i "$d/o.data" -o "$d/o.folded" -- 2> "$d/o.err" || st=$?
	test "${st}" -ne 0
	test ! -e "$d/o.data"
	# A command that can't run: an error, no flame graph.
	refute perf flamegraph -i "$d/none.data" -o "$d/none.folded" \
		-- "$d/nonexistent" > /dev/null 2> "$d/none.err"
	grep -q "^$d/nonexistent: no such command to record" "$d/none.err"
	test "$(wc -l < "$d/none.err")" -eq 1
	test ! -e "$d/none.folded"
	test ! -e "$d/none.data"
	# A mistyped option ends the options: its argument is no command, and
	# the input it names is left as it was.
	cp "$d/rec.data" "$d/keep.data"
	refute perf flamegraph -i "$d/keep.data" -f folded -o "$d/keep.folded" \
		> /dev/null 2> "$d/keep.err"
	grep -q "^folded: no such command to record (options go before the command)$" \
		"$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	# perf record fails: the input stays, no file is left beside it.
	refute perf flamegraph -e no-such-event -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 1 > /dev/null 2> "$d/keep.err"
	grep -q "perf record of '$d/prog' failed, no flame graph written" "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	test "$(find "$d" -name 'keep.data.*' | wc -l)" -eq 0
	# It succeeds: the input it replaces is kept as .old, as perf record does.
	perf flamegraph -e cpu-clock -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data.old"
	perf report --stats -i "$d/keep.data" 2> /dev/null | grep -q "SAMPLE events"
	grep -q "^prog;.*spin" "$d/keep.folded"
}

# kill_tree PID: PID and what it started, so nothing outlives a failed check.
kill_tree() {
	local p

	for p in $(pgrep -P "$1"); do
		kill_tree "$p"
	done
	kill -KILL "$1" 2> /dev/null || true
}

# record_stop SIG STATUS: perf flamegraph -- a loop, SIG to perf flamegraph
# alone, as a supervisor sends it: perf record stops and what it wrote is
# rendered, and perf flamegraph ends as perf record does, of the signal.
record_stop() {
	local d="${workdir}/recend" sig=$1 want=$2 pid st=0

	rm -f "$d/started"
	# A marker once the command runs, then two minutes of busy loop: far
	# more than it takes to stop, however busy the machine.
	perf flamegraph -e cpu-clock -i "$d/${sig}.data" -o "$d/${sig}.folded" \
		-- sh -c ': > "$1"; exec perf test -w noploop 120' sh "$d/started" \
		> /dev/null 2> "$d/${sig}.err" &
	pid=$!
	for _ in $(seq 300); do
		test -e "$d/started" && break
		sleep 0.2
	done
	test -e "$d/started"
	sleep 1
	kill "-${sig}" "${pid}"
	# Stopped within a minute, not when the loop ends.
	for _ in $(seq 300); do
		kill -0 "${pid}" 2> /dev/null || break
		sleep 0.2
	done
	if kill -0 "${pid}" 2> /dev/null; then
		echo "SIG${sig} did not stop perf flamegraph"
		kill_tree "${pid}"
		wait "${pid}" || true
		return 1
	fi
	wait "${pid}" || st=$?
	test "${st}" -eq "${want}"
	grep -q "samples of 'cpu-clock'.*wrote $d/${sig}.folded" "$d/${sig}.err"
	test "$(total "$d/${sig}.folded")" -gt 0
	test "$(find "$d" -maxdepth 1 -name "${sig}.data.*" | wc -l)" -eq 0
}

test_record_end() {
	echo "perf flamegraph -- command: signals, a failing command, no temp file left"
	local d="${workdir}/recend" st pid

	mkdir "$d"
	# SIGTERM or SIGINT to perf flamegraph alone stops the recording;
	# the graph is written, then it dies of the signal (143, 130).
	record_stop TERM 143
	record_stop INT 130
	# Its stderr a pipe nobody reads (2>&1 | head -1): perf record dies of
	# SIGPIPE, perf flamegraph too, and its temp file is gone.
	build_workload "$d/prog"
	st=$(python3 - "$d" <<'PY'
import os, subprocess, sys
d = sys.argv[1]
r, w = os.pipe()
os.close(r)
print(-subprocess.call(['perf', 'flamegraph', '-e', 'cpu-clock', '-i', f'{d}/pipe.data',
                        '-o', f'{d}/pipe.folded', '--', f'{d}/prog', '1'],
                       stdout=subprocess.DEVNULL, stderr=w))
PY
)
	test "${st}" -eq "$(kill -l PIPE)"
	test "$(find "$d" -maxdepth 1 -name 'pipe.*' | wc -l)" -eq 0
	perf flamegraph -e cpu-clock -i "$d/head.data" -o "$d/head.folded" \
		-- "$d/prog" 1 2>&1 > /dev/null | head -1 > /dev/null || true
	test "$(find "$d" -maxdepth 1 -name 'head.data.*' | wc -l)" -eq 0
	# SIGHUP: perf record dies of it, so does perf flamegraph, and the
	# temp file goes with it (unless SIGHUP is ignored, as under nohup).
	if env --default-signal=HUP true 2> /dev/null; then
		rm -f "$d/started"
		env --default-signal=HUP perf flamegraph -e cpu-clock -i "$d/hup.data" \
			-o "$d/hup.folded" -- sh -c 'echo $$ > "$1"; exec sleep 60' \
			sh "$d/started" > /dev/null 2> /dev/null &
		pid=$!
		for _ in $(seq 300); do
			test -s "$d/started" && break
			sleep 0.2
		done
		test -s "$d/started"
		kill -HUP "${pid}"
		st=0
		# Without bash's "Hangup" for the job.
		{ wait "${pid}" || st=$?; } 2> /dev/null
		test "${st}" -eq $((128 + $(kill -l HUP)))
		test "$(find "$d" -maxdepth 1 -name 'hup.*' | wc -l)" -eq 0
		# perf record left its command running, as it does alone.
		kill "$(cat "$d/started")" 2> /dev/null || true
	else
		skip_part "no env --default-signal to undo an ignored SIGHUP"
	fi
	# A command that fails is recorded all the same: the graph, one
	# warning, its exit status; the recording is kept as on success.
	st=0
	perf flamegraph -e cpu-clock -i "$d/fail.data" -o "$d/fail.folded" \
		-- sh -c 'i=0; while [ $i -lt 1000000 ]; do i=$((i + 1)); done; exit 3' \
		> /dev/null 2> "$d/fail.err" || st=$?
	test "${st}" -eq 3
	test "$(grep -c "Warning: 'sh' exited with status 3" "$d/fail.err")" -eq 1
	grep -qx "\[ perf flamegraph: the recording is $d/fail.data \]" "$d/fail.err"
	grep -q "samples of 'cpu-clock'.*wrote $d/fail.folded" "$d/fail.err"
	refute grep -q "failed, no flame graph written" "$d/fail.err"
	grep -q "^sh;" "$d/fail.folded"
	test "$(total "$d/fail.folded")" -gt 0
	test "$(find "$d" -maxdepth 1 -name 'fail.data.*' | wc -l)" -eq 0
}

run_parts test_record_command test_record_end
