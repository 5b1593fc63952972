#!/bin/bash
# perf flamegraph inputs: JIT code, debug files, archives, other machines
# SPDX-License-Identifier: GPL-2.0
#
# More of the recordings people have: of JIT code (a perf map, perf
# inject --jit), of a binary whose symbols are in a debug file, unpacked
# by perf archive elsewhere, of another machine or another architecture.
# Where the code can't be read, the leaves are addresses and one warning
# per binary says why.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_inputs_more.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump

prog="${workdir}/fgwork"
build_workload "${prog}"

test_foreign_profiles() {
	# Recordings of another machine, made here: the header of each names
	# another kernel, their binary is gone, and some are DWARF, zstd,
	# two processes, two events or a pipe.
	local d="${workdir}/foreign" f ev gone

	echo "Foreign profiles"
	mkdir "$d"
	gone="$d/gone"
	# A build-id of its own and no build-id cache: nothing has its code.
	build_workload "${gone}" --own-build-id
	perf record -q -N -e cpu-clock --call-graph dwarf -o "$d/dwarf.data" "${gone}" 10 \
		2> /dev/null
	perf record -q -N -e cpu-clock -g -o - "${gone}" 10 2> /dev/null > "$d/pipe.data"
	perf record -q -N -z -e cpu-clock -g -o "$d/zstd-fork.data" \
		sh -c "'${gone}' 10 & '${gone}' 10; wait" 2> /dev/null ||
		skip_part "perf record -z: no zstd"
	perf record -q -N -z --call-graph dwarf -e cpu-clock -e sched:sched_switch \
		--switch-events -o "$d/multievent.data" "${gone}" 10 2> /dev/null ||
		skip_part "perf record -e sched:sched_switch: no tracepoints here"
	rm -f "${gone}"
	# A pipe's features are events: the files' headers alone are rewritten.
	for f in "$d"/*.data; do
		[ "$f" = "$d/pipe.data" ] || python3 "${shelldir}/lib/perf_data_set_release.py" \
			"$f" 2.6.32-another-kernel
	done
	for f in "$d"/*.data; do
		for ev in $(perf script -G -F event -i "$f" 2> /dev/null |
			    sed 's/^ *//; s/: *$//' | sort -u | head -2); do
			echo "$(basename "$f"), event ${ev}"
			perf flamegraph -i "$f" -e "${ev}" --asm -o "${workdir}/f.json" \
				2> "${workdir}/f.err"
			# One warning per DSO at most.
			test "$(grep -c '^Warning: ' "${workdir}/f.err")" -eq \
			     "$(grep '^Warning: ' "${workdir}/f.err" | cut -d: -f2 |
				sort -u | wc -l)"
			# Unnamed kernel frames, for one reason said once.
			test "$(grep -c -e '^Warning: recorded on kernel ' \
				-e 'kernel samples have no kernel map' "${workdir}/f.err")" -le 1
			fg_check --data "$f" --json "${workdir}/f.json" --event "${ev}"
		done
	done
	# The binary's frames: [unknown], its leaves addresses, one warning.
	perf flamegraph -i "$d/dwarf.data" --asm -o "$d/dwarf.folded" 2> "$d/dwarf.err"
	grep -q "^gone;.*\[unknown\] (gone);\[0x[0-9a-f]*\] [0-9]*$" "$d/dwarf.folded"
	test "$(grep -c "^Warning: ${gone}: " "$d/dwarf.err")" -eq 1
	no_names "$d/dwarf.folded"
}

test_foreign_arch() {
	echo "A profile whose header names another architecture: each binary's own decides"
	local d="${workdir}/arch64" n

	mkdir "$d"
	perf record -q -e cpu-clock -g -o "$d/x86.data" "${prog}" 20 2> /dev/null
	cp "$d/x86.data" "$d/arm.data"
	python3 "${shelldir}/lib/perf_data_set_arch.py" "$d/arm.data" aarch64
	perf report --header-only -i "$d/arm.data" | grep -q "^# arch : aarch64$"
	# perf annotate takes the machine of the code from each binary's ELF
	# header (map_symbol__get_arch()), not from the recording's: LLVM
	# and capstone decode these x86 binaries as x86, the leaves of the
	# native profile; objdump, needed for nothing here, would be one for
	# the recording's arch (CROSS_COMPILE), never the host's.
	perf flamegraph --asm -i "$d/x86.data" -o "$d/x86.folded" 2> /dev/null
	CROSS_COMPILE=/nonexistent/aarch64-linux-gnu- perf flamegraph --asm \
		-i "$d/arm.data" -o "$d/arm.folded" 2> "$d/arm.err"
	cmp "$d/x86.folded" "$d/arm.folded"
	grep -q "^fgwork;.*;work;spin (fgwork+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/arm.folded"
	if grep -q "Please install\|objdump" "$d/arm.err"; then
		echo "an objdump was looked for, or perf annotate's error shown"
		return 1
	fi
	# The same samples and frames as the native profile, leaves aside.
	perf flamegraph -i "$d/x86.data" -o "$d/x86.nl.folded" 2> /dev/null
	perf flamegraph -i "$d/arm.data" -o "$d/arm.nl.folded" 2> /dev/null
	n=$(awk '{ n += $NF } END { printf "%.0f\n", n }' "$d/x86.nl.folded")
	test "$n" -gt 0
	cmp "$d/x86.nl.folded" "$d/arm.nl.folded"
	# --objdump: the one given decodes all of it, one run per binary.
	objdump_logger "$d/od"
	CROSS_COMPILE=/nonexistent/aarch64-linux-gnu- perf flamegraph --asm \
		--objdump "$d/od/objdump" -i "$d/arm.data" -o "$d/od.folded" 2> /dev/null
	test "$(objdump_runs "$d/od/log" "$d/arm.data" fgwork | wc -l)" -eq 1
	test -z "$(awk '{ print $NF }' "$d/od/log" | sort | uniq -d)"
	grep -q "^fgwork;.*;work;spin (fgwork+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/od.folded"
}

test_jit_perf_map() {
	echo "JIT code named by /tmp/perf-PID.map: frames named, address leaves"
	local d="${workdir}/jit" map warn

	if [ "$(uname -m)" != x86_64 ]; then
		skip_part "not x86_64"
		return 0
	fi
	mkdir "$d"
	cc -O1 -g -o "$d/jit" "${shelldir}/lib/flamegraph_jit.c"
	perf record -q -e cpu-clock -g -o "$d/jit.data" "$d/jit" 20 2> /dev/null
	perf flamegraph -i "$d/jit.data" --asm -o "$d/jit.folded" 2> "$d/jit.err"
	map=$(grep -o '/tmp/perf-[0-9]*\.map' "$d/jit.err" | head -1)
	test -n "${map}"
	grep -q ";jitted_loop;\[0x[0-9a-f]*\] [0-9]*$" "$d/jit.folded"
	if grep -qE ";jitted_loop;[^[;][^;]* [0-9]+$" "$d/jit.folded"; then
		echo "instruction text for JIT code without an image"
		rm -f "${map}"
		return 1
	fi
	warn="^Warning: ${map}: JIT code in anonymous memory, of which the recording has no "
	warn+="image (perf inject --jit makes one from a jitdump); its instruction leaves "
	warn+="show addresses only$"
	test "$(grep -c "${warn}" "$d/jit.err")" -eq 1
	# Without the map: an [unknown] frame of the JIT code, its memory
	# address as the leaf, the same warning.
	rm -f "${map}"
	perf flamegraph -i "$d/jit.data" --asm -o "$d/nomap.folded" 2> "$d/nomap.err"
	test "$(grep -c "${warn}" "$d/nomap.err")" -eq 1
	grep -q "^jit;.*;\[unknown\] (\[JIT\] tid [0-9]*);\[0x[0-9a-f]\{8,\}\] [0-9]*$" \
		"$d/nomap.folded"
	refute grep jitted_loop "$d/nomap.folded"
}

test_jitdump() {
	echo "JIT code in a jitdump, after perf inject --jit: instruction leaves"
	local d="${workdir}/jitdump" pid so

	if [ "$(uname -m)" != x86_64 ]; then
		skip_part "not x86_64"
		return 0
	fi
	mkdir "$d"
	cc -O1 -g -o "$d/jit" "${shelldir}/lib/flamegraph_jit.c"
	# jitdump records are stamped with CLOCK_MONOTONIC: -k mono.
	perf record -q -k mono -e cpu-clock -g -o "$d/jit.data" \
		"$d/jit" 20 "$d" 2> /dev/null
	pid=$(basename "$d"/jit-*.dump .dump | cut -d- -f2)
	perf inject --jit -i "$d/jit.data" -o "$d/inj.data"
	so="jitted-${pid}-0.so"
	test -s "$d/${so}"
	perf flamegraph -i "$d/inj.data" --asm -o "$d/jit.json" 2> "$d/jit.err"
	perf flamegraph -i "$d/inj.data" --asm -o "$d/jit.folded" 2> /dev/null
	refute grep "${so}" "$d/jit.err"
	grep -q ";jitted_loop;[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" "$d/jit.folded"
	fg_check --data "$d/inj.data" --json "$d/jit.json" --dso "${so}" \
		--annotate --objdump-binary "$d/${so}"
}

test_debug_file() {
	echo "Stripped, symbols in a debug file: named frames, objdump reads the file too"
	local d="${workdir}/debugfile" run=run bid runs

	mkdir "$d"
	# A build-id of its own: no copy in the build-id cache, perf and
	# objdump read $d/evex, whose debug link names the file beside it.
	bid=$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')
	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -Wl,--build-id=0x"${bid}" \
		-o "$d/evex" "${shelldir}/lib/flamegraph_evex.c"
	objcopy --only-keep-debug "$d/evex" "$d/evex.debug"
	strip "$d/evex"
	objcopy --add-gnu-debuglink="$d/evex.debug" "$d/evex"
	# evex_run() runs AVX-512 instructions, which objdump decodes.
	if ! "$d/evex" 0 run; then
		skip_part "no AVX-512 here: objdump is not run"
		run=
	fi
	perf record -N -q -e cpu-clock -c 100000 -g -o "$d/e.data" \
		"$d/evex" 100000000 ${run} 2> /dev/null
	objdump_logger "$d/bin"
	PATH="$d/bin:$PATH" perf flamegraph -i "$d/e.data" --asm -o "$d/e.json" 2> /dev/null
	# The functions have their names, from the debug file; the leaves are
	# the instructions objdump shows in the stripped file.
	python3 -c "import json, sys
def walk(n):
	yield n
	for c in n['c']:
		yield from walk(c)
names = {n['n'] for n in walk(json.load(open(sys.argv[1]))) if n.get('d') == 'evex'}
assert names >= {'evex_a', 'plain', 'evex_b'}, names" "$d/e.json"
	fg_check --data "$d/e.data" --json "$d/e.json" --dso evex --annotate --annotate-counts \
		--objdump-binary "$d/evex" ${run:+--objdump-exact '^vptestmb$'}
	test -n "${run}" || return 0
	# LLVM (or capstone) decodes in-process what it can: objdump runs only
	# for what it can't (capstone without AVX-512), once, and names
	# targets from the debug file too, as perf annotate's does.
	runs=$(objdump_runs "$d/bin/log" "$d/e.data" evex || true)
	if [ -n "${runs}" ]; then
		test "$(echo "${runs}" | wc -l)" -eq 1
		echo "${runs}" | grep -q -- " --dwarf=follow-links .* $d/evex$"
	fi
	# A user's --objdump is the only disassembler, and may not be GNU
	# objdump.
	: > "$d/bin/log"
	perf flamegraph -i "$d/e.data" --asm --objdump "$d/bin/objdump" \
		-o "$d/o.json" 2> /dev/null
	runs=$(objdump_runs "$d/bin/log" "$d/e.data" evex)
	test "$(echo "${runs}" | wc -l)" -eq 1
	refute grep -q -- "--dwarf" "$d/bin/log"
}

test_perf_archive() {
	echo "perf archive unpacked elsewhere: the same leaves as at home"
	local d="${workdir}/arch" archive home away

	archive="$(dirname "$(readlink -f "$(command -v perf)")")/perf-archive"
	if [ ! -x "${archive}" ] && ! perf archive -h > /dev/null 2>&1; then
		skip_part "no perf-archive"
		return 0
	fi
	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	home=$(perf_config "$d/home")
	away=$(perf_config "$d/away")
	(cd "$d" &&
	 PERF_CONFIG=${home} perf record -q -e cpu-clock -g -o a.data ./prog 30 2> /dev/null &&
	 PERF_CONFIG=${home} perf flamegraph -i a.data --asm --format folded \
		-o home.folded 2> /dev/null &&
	 if [ -x "${archive}" ]; then
		PERF_BUILDID_DIR="$d/home" bash "${archive}" a.data
	 else
		PERF_CONFIG=${home} perf archive a.data
	 fi > /dev/null 2>&1)
	test -d "$d/home/.build-id"
	# Another machine: no binary, no home build-id cache, the archive.
	rm -rf "${d:?}/prog" "${d:?}/home"
	mkdir "$d/away"
	tar xjf "$d/a.data.tar.bz2" -C "$d/away"
	PERF_CONFIG=${away} perf flamegraph -i "$d/a.data" --asm --format folded \
		-o "$d/away.folded" 2> /dev/null
	grep "^prog;" "$d/home.folded" | sort > "$d/h"
	grep "^prog;" "$d/away.folded" | sort > "$d/a"
	grep -q ";spin (prog+0x[0-9a-f]*);[a-z].* \[0x" "$d/h"
	cmp "$d/h" "$d/a"
}

run_parts test_foreign_profiles test_foreign_arch test_jit_perf_map \
	test_jitdump test_debug_file test_perf_archive
