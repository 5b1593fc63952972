#!/bin/bash
# perf flamegraph --debuginfod (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# A stripped program whose debug file is on a debuginfod server, Debian's
# own, started here on 127.0.0.1: with --debuginfod (or the perfconfig
# key) its frames, inlined frames, source lines and leaves are those the
# unstripped program gives the same recording, also where the binary is
# not on this machine, and one line names what was fetched; without it,
# [unknown] frames and one warning; with the server stopped, gone or
# silent, the same as without and one line that says so, after one
# question and one DEBUGINFOD_TIMEOUT at most; with the program's DWARF
# here, no question for it.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_debuginfod.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 objcopy strip debuginfod
perf version --build-options | grep -q 'debuginfod: \[ on' ||
	skip "perf is built without debuginfod"

server_pid=
stop_server() {
	if [ -n "${server_pid}" ]; then
		kill -CONT "${server_pid}" 2> /dev/null || true
		kill "${server_pid}" 2> /dev/null || true
		# Gone, not still answering: a part runs in a subshell, which
		# can't wait for it.
		while kill -0 "${server_pid}" 2> /dev/null; do
			sleep 0.1
		done
		server_pid=
	fi
}

# As lib/flamegraph.sh's, the servers stopped first.
cleanup() {
	local pid

	stop_server
	if [ -f "${workdir}/py-pids" ]; then
		while read -r pid; do
			kill "${pid}" 2> /dev/null || true
		done < "${workdir}/py-pids"
	fi
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

d=${workdir}
prog=$d/prog
# A build-id of its own: no cache of another run has its files.
build_program "$d/full" -I"${shelldir}/../../../include" \
	"${shelldir}/lib/flamegraph_inline.c" \
	"-Wl,--build-id=0x$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')"
bid=$(perf buildid-list -i "$d/full" 2> /dev/null)
test ${#bid} -eq 40
mkdir "$d/served"
objcopy --only-keep-debug "$d/full" "$d/served/prog.debug"
strip --strip-all -o "${prog}" "$d/full"
cp "${prog}" "$d/served/prog"
# The debug file names the program's functions; the program, none.
test -z "$(nm "${prog}" 2> /dev/null)"
nm "$d/served/prog.debug" | grep -q " T walk_a$"

# The server: the directory of the debug file and the program, on a free
# port, its database here, asking no other server (no DEBUGINFOD_URLS).
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
url=http://127.0.0.1:${port}
env -u DEBUGINFOD_URLS debuginfod -F "$d/served" -p "${port}" -d "$d/debuginfod.sqlite" \
	-t0 -g0 > "$d/debuginfod.log" 2>&1 &
server_pid=$!
# Ready once it serves both files, which it scans one after the other.
python3 - "${url}/buildid/${bid}" <<'EOF' || { cat "$d/debuginfod.log"; false; }
import sys, time, urllib.request
for what in ("debuginfo", "executable"):
    for _ in range(300):
        try:
            with urllib.request.urlopen(sys.argv[1] + "/" + what, timeout=2) as r:
                if r.status == 200:
                    break
        except Exception:
            pass
        time.sleep(0.1)
    else:
        sys.exit(1)
EOF

perf record -q -e cpu-clock -g -o "$d/s.data" "${prog}" 200 2> /dev/null

# A build-id cache of its own and debuginfod's client cache, per run.
run=0
# shellcheck disable=SC2154 # fg_part: run_parts' name of the part
flamegraph() {
	run=$((run + 1))
	PERF_CONFIG=$(perf_config "$d/cache-${fg_part}${run}") \
		DEBUGINFOD_CACHE_PATH=$d/client-${fg_part}${run} \
		timeout 120 perf flamegraph -i "$d/s.data" "$@"
}

# The unstripped program's flame graphs of the same recording: at the
# program's path, a cache without the stripped copy perf record put in.
cp "$d/full" "${prog}"
for f in folded json html pb.gz; do
	flamegraph --asm --inline -o "$d/ref.$f" 2> /dev/null
done
strip --strip-all -o "${prog}" "$d/full"
grep -q ";walk_a;step (inlined);" "$d/ref.folded"

# Byte for byte: the instructions' text too, their branch targets named
# from the debug file, as from the unstripped program.
same_as_unstripped() {
	local out=$1

	cmp "${out}.folded" "$d/ref.folded"
	cmp "${out}.json" "$d/ref.json"
	# The page's source lines of the hottest instructions.
	cmp "${out}.html" "$d/ref.html"
	# Its source lines, those of the hottest locations and their
	# functions, and its inlined functions, are pprof's Lines.
	cmp "${out}.pb.gz" "$d/ref.pb.gz"
}

test_without() {
	echo "Without --debuginfod: [unknown] frames and one warning"
	local warn

	flamegraph --asm --inline -o "$d/without.folded" 2> "$d/without.err"
	grep -q "^prog;__libc_start_call_main;\[unknown\] (prog);" "$d/without.folded"
	refute grep -q "walk_a" "$d/without.folded"
	warn="^Warning: no symbols name the frames of ${prog} ([0-9]* samples): "
	warn+="--debuginfod could fetch their debug files by their build-ids$"
	test "$(grep -c "${warn}" "$d/without.err")" -eq 1
	refute grep -q "debuginfod: no answer" "$d/without.err"
}

test_debuginfod() {
	echo "--debuginfod: names, inlines, source lines and leaves of the unstripped program"
	local f

	for f in folded json html pb.gz; do
		flamegraph --asm --inline --debuginfod="${url}" -o "$d/with.$f" 2> "$d/with.err"
		refute grep -q "^Warning: .*\(no symbols name\|debuginfod\)" "$d/with.err"
	done
	same_as_unstripped "$d/with"
	grep -q "\"jb *0x[0-9a-f]* <walk_a+0x[0-9a-f]*>" "$d/with.json"
	# One line names the DSO fetched.
	test "$(grep -c "debuginfod:" "$d/with.err")" -eq 1
	grep -q "^debuginfod: fetched debug info of ${prog} (build-id ${bid})$" "$d/with.err"
	# Each run asked the server, into its own cache.
	test -s "$d/cache-${fg_part}${run}/.build-id/${bid:0:2}/${bid:2}/debug"
}

test_config() {
	echo "flamegraph.debuginfod in perfconfig: the same as --debuginfod"
	local config

	config=$(perf_config "$d/cache-config")
	printf '[flamegraph]\n\tdebuginfod = %s\n' "${url}" >> "${config}"
	PERF_CONFIG=${config} DEBUGINFOD_CACHE_PATH=$d/client-config \
		perf flamegraph -i "$d/s.data" --asm --inline -o "$d/config.folded" 2> /dev/null
	cmp "$d/config.folded" "$d/ref.folded"
}

test_binary_away() {
	echo "--debuginfod, the binary not on this machine: its code from the server too"
	local f

	mv "${prog}" "$d/away"
	for f in folded json html pb.gz; do
		flamegraph --asm --inline --debuginfod="${url}" -o "$d/away.$f" 2> "$d/away.err"
	done
	mv "$d/away" "${prog}"
	refute grep -q "can't be read" "$d/away.err"
	test "$(grep -c "debuginfod:" "$d/away.err")" -eq 1
	grep -q "^debuginfod: fetched debug info and binary of ${prog} (build-id ${bid})$" \
		"$d/away.err"
	same_as_unstripped "$d/away"
}

test_server_stopped() {
	echo "--debuginfod, the server stopped: no hang, one line, the graph as without"
	local err="$d/stopped.err" line

	kill -STOP "${server_pid}"
	DEBUGINFOD_TIMEOUT=2 flamegraph --asm --inline --debuginfod="${url}" \
		-o "$d/stopped.folded" 2> "${err}"
	kill -CONT "${server_pid}"
	cmp "$d/stopped.folded" "$d/without.folded"
	line="^Warning: debuginfod: no answer from ${url} for ${prog} (build-id ${bid}): "
	line+=".*; not asking it again$"
	test "$(grep -c "${line}" "${err}")" -eq 1
	test "$(grep -c "^Warning: .*debuginfod" "${err}")" -eq 1
	refute grep -q "no symbols name" "${err}"
}

test_server_gone() {
	echo "--debuginfod, no server: one line, the graph as without"
	local err="$d/gone.err" line

	stop_server
	flamegraph --asm --inline --debuginfod="${url}" -o "$d/gone.folded" 2> "${err}"
	cmp "$d/gone.folded" "$d/without.folded"
	line="^Warning: debuginfod: no answer from ${url} for ${prog} (build-id ${bid}): "
	line+=".*; not asking it again$"
	test "$(grep -c "${line}" "${err}")" -eq 1
	refute grep -q "no symbols name" "${err}"
}

# py_server silent|serve NAME [DIR]: lib/flamegraph_debuginfod_server.py,
# its URL in py_url and its pid in py_pid, each request it reads logged
# in $d/NAME.log ("debuginfo BUILD-ID").  "silent" accepts and never
# answers; "serve" serves DIR's BUILD-ID.debug and BUILD-ID.
py_server() {
	local tries=600

	python3 "${shelldir}/lib/flamegraph_debuginfod_server.py" "$1" "$d/$2.port" \
		"$d/$2.log" "${3:-}" 2> "$d/$2.err" &
	py_pid=$!
	echo "${py_pid}" >> "$d/py-pids"
	touch "$d/$2.log"
	# Python may take seconds to start on a busy machine.
	while [ ! -s "$d/$2.port" ] && [ $((tries -= 1)) -gt 0 ]; do
		sleep 0.1
	done
	test -s "$d/$2.port" || { cat "$d/$2.err"; false; }
	py_url=http://127.0.0.1:$(cat "$d/$2.port")
}

py_server_stop() {
	kill "${py_pid}"
	wait "${py_pid}" 2> /dev/null || true
}

# Milliseconds since the epoch.
now_ms() {
	echo $(($(date +%s%N) / 1000000))
}

test_server_silent() {
	echo "--debuginfod, a server that accepts and never answers: one question, one timeout"
	local err="$d/silent.err" timeout=2 start base elapsed line

	py_server silent hang
	# What reading the recording takes here without asking.
	start=$(now_ms)
	flamegraph --asm --inline -o "$d/silent-base.folded" 2> /dev/null
	base=$(($(now_ms) - start))
	start=$(now_ms)
	DEBUGINFOD_TIMEOUT=${timeout} flamegraph --asm --inline --debuginfod="${py_url}" \
		-o "$d/silent.folded" 2> "${err}"
	elapsed=$(($(now_ms) - start))
	py_server_stop
	echo "${elapsed} ms, ${base} ms without --debuginfod"
	cat "$d/hang.log"
	# The stripped program was asked once: libdebuginfod's two retries
	# would ask three times, 3 * DEBUGINFOD_TIMEOUT.
	test "$(cat "$d/hang.log")" = "debuginfo ${bid}"
	# The man page's bound: one DEBUGINFOD_TIMEOUT in all, here with
	# one and a half of slack for a busy machine; without it, three.
	test $((elapsed - base)) -lt $((5 * timeout * 1000 / 2))
	cmp "$d/silent.folded" "$d/without.folded"
	line="^Warning: debuginfod: no answer from ${py_url} for ${prog} (build-id ${bid}): "
	line+=".*; not asking it again$"
	test "$(grep -c "${line}" "${err}")" -eq 1
	test "$(grep -c "debuginfod:" "${err}")" -eq 1
}

test_local_dwarf() {
	echo "--debuginfod, the program's DWARF on this machine: it is not asked for"
	local err="$d/local.err"

	mkdir "$d/py-served"
	cp "$d/served/prog.debug" "$d/py-served/${bid}.debug"
	cp "$d/served/prog" "$d/py-served/${bid}"
	cp "$d/full" "${prog}"
	py_server serve local "$d/py-served"
	flamegraph --asm --inline --debuginfod="${py_url}" -o "$d/local.folded" 2> "${err}"
	py_server_stop
	strip --strip-all -o "${prog}" "$d/full"
	cat "$d/local.log"
	refute grep -q "${bid}" "$d/local.log"
	refute grep -q "debuginfod:" "${err}"
	cmp "$d/local.folded" "$d/ref.folded"
}

test_fetched() {
	echo "--debuginfod: the program fetched is said in one line, asked for once"
	local err="$d/fetched.err" line

	mkdir "$d/py-fetched"
	cp "$d/served/prog.debug" "$d/py-fetched/${bid}.debug"
	py_server serve fetched "$d/py-fetched"
	flamegraph --asm --inline --debuginfod="${py_url}" -o "$d/fetched.folded" 2> "${err}"
	py_server_stop
	cat "$d/fetched.log" "${err}"
	test "$(grep -c "^debuginfo ${bid}$" "$d/fetched.log")" -eq 1
	line="^debuginfod: fetched debug info of ${prog} (build-id ${bid})$"
	test "$(grep -c "${line}" "${err}")" -eq 1
	test "$(grep -c "debuginfod:" "${err}")" -eq 1
	cmp "$d/fetched.folded" "$d/ref.folded"
}

run_parts test_without test_debuginfod test_config test_binary_away test_server_stopped \
	test_server_gone test_server_silent test_local_dwarf test_fetched
