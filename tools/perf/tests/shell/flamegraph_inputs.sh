#!/bin/bash
# perf flamegraph inputs (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# The recordings people have: from a pipe, whole or cut short, of
# binaries rebuilt, deleted or stripped since, of deep recursions.  Where
# the code can't be read, the leaves are addresses and one warning per
# binary says why.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_inputs.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump

test_pipe() {
	echo "Pipe input and stdout output"
	perf record -q -e cpu-clock -g -o - perf test -w noploop 2> /dev/null |
		perf flamegraph -i - --asm --format json -o - \
		> "${workdir}/pipe.json" 2> /dev/null
	python3 -c "import json,sys; t=json.load(open(sys.argv[1])); \
		assert t['n'] == 'all' and t['c'], t" "${workdir}/pipe.json"
	grep -q '"n":"noploop"' "${workdir}/pipe.json"
	grep -q '"k":"insn"' "${workdir}/pipe.json"
}

test_pipe_cut_short() {
	echo "A pipe cut short inside an event: what was read, and where it ended"
	local d="${workdir}/cut" at all part cut read what

	mkdir "$d"
	perf record -q -e cpu-clock -g -o - perf test -w noploop 2> /dev/null > "$d/full.data"
	perf flamegraph --value samples -i - -o "$d/full.folded" < "$d/full.data" 2> /dev/null
	cut="unexpected end of event stream: the input was cut short inside"
	read="the events before it were read"
	what="\(a [0-9]*-byte [A-Z0-9_]* event\|an event header\)"
	# Cut in the middle of the middle SAMPLE event (PERF_RECORD_SAMPLE,
	# 9), not at 2/3 of the file: that falls among the MMAP2 events when
	# a busy machine left the workload few samples. One that falls on an
	# event boundary cuts nothing short: then cut 4 bytes further, into
	# the next event's header.
	at=$(python3 - "$d/full.data" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
pos, samples = 16, []
while pos + 8 <= len(data):
    kind, _, size = struct.unpack_from("<IHH", data, pos)
    if not size:
        break
    if kind == 9:
        samples.append(pos + size // 2)
    pos += size
print(samples[len(samples) // 2])
PY
)
	for extra in 0 4 ""; do
		test -n "${extra}"
		head -c $((at + extra)) "$d/full.data" > "$d/cut.data"
		perf flamegraph --value samples -i - -o "$d/cut.folded" \
			< "$d/cut.data" 2> "$d/cut.err"
		if grep -q "${cut} ${what} at offset 0x[0-9a-f]*; ${read}" "$d/cut.err"; then
			break
		fi
	done
	all=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$d/full.folded")
	part=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$d/cut.folded")
	grep -q "perf flamegraph: ${part} samples of 'cpu-clock'" "$d/cut.err"
	test "${part}" -gt 0
	test "${part}" -lt "${all}"
	# Inside the first event's header (the pipe header is 16 bytes): said
	# too, not taken for an empty stream.
	head -c 19 "$d/full.data" > "$d/head.data"
	refute perf flamegraph -i - -o "$d/head.folded" < "$d/head.data" 2> "$d/head.err"
	grep -q "${cut} an event header at offset 0; ${read}" "$d/head.err"
}

test_rebuilt_binary() {
	echo "Binary rebuilt after recording: instructions from the build-id cache"
	local d="${workdir}/rebuilt"

	mkdir "$d"
	build_workload "$d/prog"
	cp "$d/prog" "$d/prog.orig"
	perf record -q -e cpu-clock -g -o "$d/r.data" "$d/prog" 30 2> /dev/null
	# Other code at the same path: -O2 moves and rewrites every function.
	cc -O2 -g -o "$d/prog" "${shelldir}"/lib/flamegraph/*.c
	perf flamegraph -i "$d/r.data" --asm -o "$d/r.json" 2> /dev/null
	fg_check --data "$d/r.data" --json "$d/r.json" --dso prog \
		--binary "$d/prog.orig" --annotate --objdump-binary "$d/prog.orig"
	# perf report --flamegraph-asm takes the same code path.
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.json" --flamegraph-asm \
		> /dev/null 2>&1
	fg_check --data "$d/r.data" --json "$d/rep.json" --dso prog \
		--binary "$d/prog.orig" --annotate --objdump-binary "$d/prog.orig"
}

test_pipe_rebuilt() {
	echo "Pipe mode, with and without build-ids: a binary rebuilt since is not trusted"
	local src="${shelldir}/lib/flamegraph" d="${workdir}/piperb" bid warn

	mkdir "$d"
	build_workload "$d/prog"
	# perf record puts build-ids in MMAP2 records by default, also in a
	# pipe (below): without them, as older perf records a pipe.
	perf record -q -B --no-buildid-mmap -e cpu-clock -g -o - "$d/prog" 30 \
		2> /dev/null > "$d/p.data"
	test -z "$(perf buildid-list -i "$d/p.data" 2> /dev/null | grep "/prog$" |
		   cut -d' ' -f1)"
	# Unchanged: named frames, instruction text, no warning about it.
	perf flamegraph -i "$d/p.data" --asm -o "$d/same.folded" 2> "$d/same.err"
	grep -q "^prog;.*;work;spin (prog+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/same.folded"
	refute grep "/prog:" "$d/same.err"
	# Rebuilt: other code at the path, and nothing records which ran.
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	perf flamegraph -i "$d/p.data" --asm -o "$d/new.folded" 2> "$d/new.err"
	test "$(grep -c "^Warning: $d/prog: replaced since the recording" "$d/new.err")" -eq 1
	# The workload's samples are all there, under [unknown] frames of
	# prog with address leaves: not one name or instruction from the new
	# binary.
	test "$(awk '/^prog;/ { n += $NF } END { printf "%.0f\n", n }' "$d/same.folded")" -eq \
	     "$(awk '/^prog;/ { n += $NF } END { printf "%.0f\n", n }' "$d/new.folded")"
	grep -q "^prog;.*;\[unknown\] (prog);\[0x[0-9a-f]*\] [0-9]*$" "$d/new.folded"
	refute grep -q "^prog;.*\[unknown\] (prog);[^[;][^;]* [0-9]*$" "$d/new.folded"
	no_names "$d/new.folded"
	# By default: build-ids in the MMAP2 records; perf rejects the
	# rebuilt file by its build-id, one warning says so. A build-id of
	# its own, or a copy of the same build in the build-id cache would
	# stand in for it (rightly).
	build_workload "$d/prog" --own-build-id
	perf record -q -e cpu-clock -g -o - "$d/prog" 30 2> /dev/null > "$d/bid.data"
	bid=$(perf buildid-list -i "$d/bid.data" 2> /dev/null | grep "/prog$" | cut -d' ' -f1)
	test -n "${bid}"
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	perf flamegraph -i "$d/bid.data" --asm -o "$d/bid.folded" 2> "$d/bid.err"
	warn="^Warning: $d/prog: the binary at $d/prog is not the one recorded (another "
	warn+="build-id), and the build-id cache has no copy; its instruction leaves show "
	warn+="addresses only$"
	test "$(grep -c "${warn}" "$d/bid.err")" -eq 1
	test "$(grep -c "$d/prog" "$d/bid.err")" -eq 1
	grep -q "^prog;.*;\[unknown\] (prog);\[0x[0-9a-f]*\] [0-9]*$" "$d/bid.folded"
	no_names "$d/bid.folded"
}

test_missing_binary() {
	echo "Missing binary: [unknown] frames of it, address leaves, one warning, exit 0"
	local d="${workdir}/gone" warn

	mkdir "$d"
	# A build-id of its own, or the cache would still have it.
	build_workload "$d/gone" --own-build-id
	perf record -q -N -e cpu-clock -g -o "$d/g.data" "$d/gone" 20 2> /dev/null
	rm -f "$d/gone"
	perf flamegraph -i "$d/g.data" --asm -o "$d/g.folded" 2> "$d/g.err"
	test "$(grep -c "^Warning: $d/gone: " "$d/g.err")" -eq 1
	warn="^Warning: $d/gone: its code can't be read: the binary is neither at its "
	warn+="path nor in the build-id cache; its instruction leaves show addresses only$"
	grep -q "${warn}" "$d/g.err"
	grep -q "^gone;.*;\[unknown\] (gone);\[0x[0-9a-f]*\] [0-9]*$" "$d/g.folded"
	perf flamegraph -i "$d/g.data" --asm -o "$d/g.json" 2> /dev/null
	fg_check --data "$d/g.data" --json "$d/g.json"
	refute grep -q "^gone;.*\[unknown\] (gone);[^[;][^;]* [0-9]*$" "$d/g.folded"
	no_names "$d/g.folded"
}

test_stripped_binary() {
	echo "Stripped binary: [unknown] frames of it, objdump's instructions as leaves"
	local d="${workdir}/stripped" warn n

	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	strip --strip-all "$d/prog"
	perf record -q -e cpu-clock -g -o "$d/s.data" "$d/prog" 20 2> /dev/null
	perf flamegraph -i "$d/s.data" --asm -o "$d/s.json" 2> "$d/s.err"
	perf flamegraph -i "$d/s.data" --asm -o "$d/s.folded" 2> /dev/null
	# Its code is there: no warning about it, but one about its names.
	test "$(grep -c "$d/prog" "$d/s.err")" -eq 1
	warn="^Warning: no symbols name the frames of $d/prog ([0-9]* samples): "
	grep -q "${warn}--debuginfod could " "$d/s.err"
	# --diff says it once for both recordings, their samples summed.
	perf flamegraph --diff "$d/s.data" -i "$d/s.data" --asm -o "$d/d.json" 2> "$d/d.err"
	n=$(sed -n "s|^Warning: no symbols name the frames of $d/prog (\([0-9]*\) .*|\1|p" \
		"$d/s.err")
	test "$(grep -c "$d/prog" "$d/d.err")" -eq 1
	grep -q "^Warning: no symbols name the frames of $d/prog ($((2 * n)) samples): " "$d/d.err"
	# The workload's own functions are static: nothing names them, but
	# the leaves under them are the instructions objdump shows there.
	grep -q "^prog;.*;\[unknown\] (prog);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" "$d/s.folded"
	no_names "$d/s.folded"
	fg_check --data "$d/s.data" --json "$d/s.json" --dso prog --objdump-binary "$d/prog"
	# Libraries keep their names: the frames above main are libc's.
	grep -q "^prog;__libc_start_call_main;\[unknown\] (prog);" "$d/s.folded"
}

# The stacks of folded file $1 that go through walk(), as "frames walks
# truncated" lines: the frames below the comm, how many are walk(), and
# 1 if they hang under "[truncated]" (not counted as a frame).
walk_stacks() {
	awk '/;walk;/ {
		n = split($1, f, ";"); w = 0; t = f[2] == "[truncated]"
		for (i = 2; i <= n; i++)
			w += f[i] == "walk"
		print n - 1 - t, w, t
	}' "$1"
}

test_deep_stacks() {
	echo "Deep stacks: as deep as recorded; cut ones under [truncated]"
	local d="${workdir}/deep" max

	mkdir "$d"
	build_program "$d/deep" "${shelldir}/lib/flamegraph_deep.c"
	# The kernel keeps 100 entries (fp,100 is in the recording): every
	# stack of the 200-deep recursion is cut, under [truncated] with the
	# 100 frames kept; the shallow ones are whole, main() and all.
	perf record -q -e cpu-clock -c 1000000 --call-graph fp,100 \
		-o "$d/fp100.data" "$d/deep" 200 2> /dev/null
	perf flamegraph -i "$d/fp100.data" -o "$d/fp100.folded" 2> /dev/null
	walk_stacks "$d/fp100.folded" > "$d/walks"
	test -s "$d/walks"
	test "$(grep -vc '^100 [0-9]* 1$' "$d/walks")" -eq 0
	grep -q "^deep;[^[]*;main;shallow;burn [0-9]*$" "$d/fp100.folded"
	refute grep -q "\[truncated\].*;shallow;" "$d/fp100.folded"
	# The marker is a node of its own, right below the comm.
	perf flamegraph -i "$d/fp100.data" -o "$d/fp100.json" 2> /dev/null
	fg_check --data "$d/fp100.data" --json "$d/fp100.json" --dso deep
	python3 - "$d/fp100.json" <<-'EOF'
	import json, sys
	tree = json.load(open(sys.argv[1]))
	marks = [(c["n"], m["n"], m["k"]) for c in tree["c"] for m in c["c"]
	         if m["k"] == "truncated"]
	assert marks == [("deep", "[truncated]", "truncated")], marks
	EOF
	# --max-stack cuts deeper, and says so; the shallow stacks (6 frames)
	# are whole.
	perf flamegraph -i "$d/fp100.data" --max-stack 20 -o "$d/m20.folded" \
		2> /dev/null
	test "$(walk_stacks "$d/m20.folded" | grep -vc '^20 [0-9]* 1$')" -eq 0
	grep -q "^deep;[^[]*;main;shallow;burn [0-9]*$" "$d/m20.folded"
	# Recorded with perf_event_max_stack above 127: all 200 calls of the
	# recursion, no marker, where perf report's default would cut at 127.
	max=$(cat /proc/sys/kernel/perf_event_max_stack 2> /dev/null) || max=
	if [ -z "${max}" ] || ! echo 300 2> /dev/null \
			> /proc/sys/kernel/perf_event_max_stack; then
		skip_part "perf_event_max_stack can't be raised"
		return 0
	fi
	perf record -q -e cpu-clock -c 1000000 -g -o "$d/deep.data" \
		"$d/deep" 200 2> /dev/null || true
	# The kernel refuses (EBUSY) while any callchain event is open, as
	# another perf running on the machine may have one: retry a while.
	for _ in $(seq 60); do
		echo "${max}" 2> /dev/null > /proc/sys/kernel/perf_event_max_stack && break
		sleep 0.5
	done
	test "$(cat /proc/sys/kernel/perf_event_max_stack)" = "${max}"
	perf flamegraph -i "$d/deep.data" -o "$d/deep.folded" 2> /dev/null
	walk_stacks "$d/deep.folded" > "$d/walks"
	grep -q ' 200 0$' "$d/walks"
	refute grep -q ' 1$' "$d/walks"
}

run_parts test_pipe test_pipe_cut_short test_rebuilt_binary test_pipe_rebuilt \
	test_missing_binary test_stripped_binary test_deep_stacks
