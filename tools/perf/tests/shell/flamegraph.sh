#!/bin/bash
# perf flamegraph --asm tests
# SPDX-License-Identifier: GPL-2.0

set -e

err=0
shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph.XXXXX)
check="python3 $shelldir/lib/flamegraph_check.py --perf perf"

cleanup() {
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

skip() {
	echo "Skip: $1"
	cleanup
	exit 2
}

command -v cc > /dev/null || skip "no C compiler for the workload"
command -v python3 > /dev/null || skip "no python3"
command -v nm > /dev/null || skip "no nm"

# perf_config DIR: a perf config file whose build-id cache is DIR. perf
# takes the cache's place from its config (buildid.dir), not from
# $PERF_BUILDID_DIR, which it only sets for the scripts it runs.
perf_config() {
	printf '[buildid]\n\tdir = %s\n' "$1" > "$1.perfconfig"
	echo "$1.perfconfig"
}

# Keep the build-id cache of the test apart from the user's, and the
# user's ~/.perfconfig out of the test.
PERF_CONFIG=$(perf_config "${workdir}/buildid")
export PERF_CONFIG
export PERF_BUILDID_DIR="${workdir}/buildid"

# build_workload OUT [--own-build-id]: the workload, with frame pointers
# in leaf functions too (at -O1 and above gcc 12 drops them there even with
# -mno-omit-leaf-frame-pointer). --own-build-id gives it a random build-id,
# so no copy in a build-id cache can stand in for it.
build_workload() {
	local bid=

	[ "$2" = --own-build-id ] &&
		bid="-Wl,--build-id=0x$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')"
	# shellcheck disable=SC2086
	cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer $bid \
		-o "$1" "${shelldir}"/lib/flamegraph/*.c
}

prog="${workdir}/fgwork"
build_workload "${prog}"

# objdump_runs DATA DSO ERR: the objdumps that perf flamegraph -v (its
# stderr in ERR) ran on DSO of the recording DATA, one "start-stop" of
# objdump addresses each: its image is found by build-id, in the
# "symbol__disassemble:" line before each "Executing:" one.
objdump_runs() {
	local bid

	bid=$(perf buildid-list -i "$1" 2> /dev/null | awk -v d="/$2" \
		'substr($2, length($2) - length(d) + 1) == d { print $1 }')
	test -n "${bid}" || return 1
	python3 - "$3" "${bid}" <<'PY'
import re, sys
bid, mine = sys.argv[2], False
for line in open(sys.argv[1], errors="replace"):
    if line.startswith("symbol__disassemble: "):
        mine = "/%s/%s/" % (bid[:2], bid[2:]) in line
    m = re.match(r"Executing: .* --start-address=(0x[0-9a-f]+) "
                 r"--stop-address=(0x[0-9a-f]+) ", line)
    if m and mine:
        print("%s-%s" % (m.group(1), m.group(2)))
PY
}

test_workload() {
	echo "Workload with two static functions named spin"
	perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/p.data" \
		"${prog}" 100 2> /dev/null
	perf flamegraph -i "${workdir}/p.data" --asm -o "${workdir}/p.json" \
		2> "${workdir}/stderr"
	grep -q "samples of 'cpu-clock'.*instruction leaves, wrote .*p.json (json)" \
		"${workdir}/stderr"
	perf flamegraph -i "${workdir}/p.data" --asm --format folded \
		-o "${workdir}/p.folded" 2> /dev/null
	perf flamegraph -i "${workdir}/p.data" --asm \
		-o "${workdir}/p.html" 2> /dev/null
	# Without --asm, every sample's stack is the callchain perf script
	# shows; samples that share callers were placed by their callers'
	# node (see perf_flamegraph__callers_key()).
	perf flamegraph -v -i "${workdir}/p.data" --format folded \
		-o "${workdir}/fn.folded" 2> "${workdir}/fn.err"
	grep -q "callers cache: [1-9][0-9]* hits" "${workdir}/fn.err"
	$check --data "${workdir}/p.data" --json "${workdir}/p.json" \
		--dso fgwork --binary "${prog}" --annotate --same-name spin \
		--folded "${workdir}/p.folded" --html "${workdir}/p.html" \
		--script-folded "${workdir}/fn.folded"
	# Each sampled symbol is decoded once, in-process, without perf's
	# disasm lines: the two spins, mix, and the others with leaves.
	perf flamegraph -v -i "${workdir}/p.data" --asm -o "${workdir}/v.json" \
		2> "${workdir}/v.err"
	! grep -Eq 'symbol__disassemble: .*sym=(spin|mix),' "${workdir}/v.err"
	python3 - "${workdir}/v.err" "${workdir}/v.json" <<'PY'
import json, re, sys
m = re.search(r"^perf flamegraph: disassembly: (\d+) symbols decoded here "
              r"\((\d+) of them ahead; (\d+) instruction lines\), "
              r"(\d+) disassembled whole, (\d+) objdump batches$",
              open(sys.argv[1]).read(), re.M)
assert m, "no disassembly summary in -v"
decoded, ahead, lines, whole, spans = map(int, m.groups())
# All of them decoded ahead, from their first samples on (by the second
# thread while the events were read, or just after them).
assert ahead == decoded, (ahead, decoded)
funcs, addrs = set(), set()
def walk(n, func):
    for c in n["c"]:
        if c["k"] == "insn" and not c["n"].startswith("[0x"):
            funcs.add(func)
            addrs.add((func, c["a"]))
        walk(c, (c["d"], c["a"]) if c["k"] == "func" else func)
walk(json.load(open(sys.argv[2])), None)
fg = {f for f in funcs if f[0] == "fgwork"}
assert len(fg) >= 3, fg
# Each of fgwork's sampled symbols decoded here, no symbol twice, one
# line per sampled address at most.
assert len(fg) <= decoded <= len(funcs), (decoded, len(fg), len(funcs))
assert 0 < lines <= len(addrs), (lines, len(addrs))
print("%d symbols decoded here (%d of fgwork), %d lines for %d addresses; "
      "%d whole, %d objdump batches" % (decoded, len(fg), lines, len(addrs), whole, spans))
PY
	# The call path of the workload is there, outermost caller first.
	grep -q "^fgwork;.*main;work;spin (fgwork+0x[0-9a-f]*);.* \[0x[0-9a-f]*\] [0-9]*$" \
		"${workdir}/p.folded"
	# The page's source lines (addr2line's, checked above) come from the
	# DWARF of fgwork at least, opened by the second thread if it had the
	# time, else when they are looked up.
	perf flamegraph -v -i "${workdir}/p.data" --asm -o "${workdir}/v.html" \
		2> "${workdir}/vh.err"
	python3 - "${workdir}/vh.err" <<'PY'
import re, sys
m = re.search(r"^perf flamegraph: source lines: (\d+) of the (\d+) hottest "
              r"instructions, from the DWARF of (\d+) DSOs \((\d+) of them "
              r"opened ahead\)$", open(sys.argv[1]).read(), re.M)
assert m, "no source lines summary in -v"
lines, hot, dsos, ahead = map(int, m.groups())
assert 0 < lines <= hot <= 256 and 0 < dsos and ahead <= dsos, m.groups()
print("%d source lines for %d hot instructions, DWARF of %d DSOs, %d opened ahead"
      % (lines, hot, dsos, ahead))
PY
}

test_intel_syntax() {
	echo "-M intel: the leaves perf annotate -M intel shows"
	perf flamegraph -i "${workdir}/p.data" --asm -M intel \
		-o "${workdir}/intel.json" 2> /dev/null
	$check --data "${workdir}/p.data" --json "${workdir}/intel.json" \
		--dso fgwork --annotate --annotate-style intel --same-name spin
	# Intel syntax, not AT&T's: no %-prefixed registers in fgwork's leaves.
	python3 - "${workdir}/intel.json" <<'PY'
import json, sys
texts = []
def walk(n, dso):
    for c in n["c"]:
        if c["k"] == "insn" and dso == "fgwork" and not c["n"].startswith("[0x"):
            texts.append(c["n"])
        walk(c, c.get("d", dso) if c["k"] == "func" else dso)
walk(json.load(open(sys.argv[1])), None)
assert texts and not any("%" in t for t in texts), texts[:5]
print("%d leaves of fgwork in Intel syntax, e.g. %r" % (len(texts), texts[0]))
PY
}

test_objdump_batched() {
	echo "objdump as the only disassembler: one objdump for the workload's symbols"
	local objdump

	objdump=$(command -v objdump) || { echo "no objdump: skipped"; return 0; }
	perf flamegraph -v -i "${workdir}/p.data" --asm --objdump "${objdump}" \
		-o "${workdir}/od.json" 2> "${workdir}/od.err"
	# The leaves perf annotate --objdump shows, one objdump per symbol.
	$check --data "${workdir}/p.data" --json "${workdir}/od.json" \
		--dso fgwork --annotate --annotate-objdump "${objdump}" --same-name spin
	python3 - "${workdir}/od.json" \
		"$(objdump_runs "${workdir}/p.data" fgwork "${workdir}/od.err")" <<'PY'
import json, sys
tree = json.load(open(sys.argv[1]))
runs = [tuple(int(x, 16) for x in r.split("-")) for r in sys.argv[2].split()]
# The workload's sampled symbols, by objdump address.
def walk(n):
    if n["k"] == "func" and n["d"] == "fgwork" and \
       any(c["k"] == "insn" for c in n["c"]):
        yield int(n["a"], 16)
    for c in n["c"]:
        yield from walk(c)
sampled = set(walk(tree))
assert len(sampled) >= 3, sampled
assert len(runs) == 1, runs
# From the first sampled symbol, over all of them.
assert runs[0][0] == min(sampled), (runs, sorted(sampled))
assert all(runs[0][0] <= a < runs[0][1] for a in sampled), (runs, sampled)
print("%d sampled symbols of fgwork, one objdump over [%#x, %#x)"
      % (len(sampled), runs[0][0], runs[0][1]))
PY
}

test_capstone_fallback() {
	echo "Code capstone can't decode: objdump reads it, one for two functions"
	local syms

	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "${workdir}/evex" "${shelldir}/lib/flamegraph_evex.c"
	perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/evex.data" \
		"${workdir}/evex" 100000000 2> /dev/null
	perf annotate -v --stdio -i "${workdir}/evex.data" evex_a > /dev/null \
		2> "${workdir}/evex.ann"
	if ! grep -q "^Executing: .*objdump" "${workdir}/evex.ann"; then
		echo "perf's capstone reads AVX-512 here: skipped"
		return 0
	fi
	perf flamegraph -v -i "${workdir}/evex.data" --asm -o "${workdir}/evex.json" \
		2> "${workdir}/evex.err"
	# The same text as perf annotate, which runs objdump for each.
	$check --data "${workdir}/evex.data" --json "${workdir}/evex.json" \
		--dso evex --annotate
	syms=$(nm -S "${workdir}/evex" |
	       awk '$4 ~ /^(evex_a|evex_b|plain)$/ { print $4 "," $1 "," $2 }')
	python3 - "${workdir}/evex.json" \
		"$(objdump_runs "${workdir}/evex.data" evex "${workdir}/evex.err")" \
		"${syms}" <<'PY'
import json, sys
tree = json.load(open(sys.argv[1]))
runs = [tuple(int(x, 16) for x in r.split("-")) for r in sys.argv[2].split()]
syms = {}
for x in sys.argv[3].split():
    name, start, size = x.split(",")
    syms[name] = (int(start, 16), int(start, 16) + int(size, 16))
def funcs(n):
    if n["k"] == "func" and n["d"] == "evex" and \
       any(c["k"] == "insn" for c in n["c"]):
        yield n
    for c in n["c"]:
        yield from funcs(c)
names = {n["n"] for n in funcs(tree)}
assert names >= {"evex_a", "evex_b", "plain"}, names
# One objdump over evex_a and evex_b; plain, between them, was read by
# capstone but lies in the range: harmless.  A sample in _init, which
# perf annotate's capstone gives to objdump too, starts the range there:
# still one objdump, from the start of a sampled function of evex.
sampled = {int(n["a"], 16) for n in funcs(tree)}
assert len(runs) == 1, (runs, syms)
assert runs[0][0] <= syms["evex_a"][0] and runs[0][1] >= syms["evex_b"][1], \
    (runs, syms)
assert runs[0][0] in sampled, (runs, sorted(sampled))
print("evex_a and evex_b in one objdump over [%#x, %#x)" % runs[0])
PY
}

# The label of the most sampled jump instruction of DSO $2 in JSON $1.
hottest_jump() {
	python3 - "$1" "$2" <<'PY'
import json, re, sys
def walk(n):
    yield n
    for c in n["c"]:
        yield from walk(c)
jumps = [n for n in walk(json.load(open(sys.argv[1])))
         if n["k"] == "insn" and n["d"] == sys.argv[2] and
         re.match(r"j[a-z]+ ", n["n"])]
print(max(jumps, key=lambda n: n["v"])["n"] if jumps else "")
PY
}

test_debug_file() {
	echo "Stripped, symbols in a debug file: objdump names targets without -S"
	local d="${workdir}/debugfile" jump ex

	mkdir "$d"
	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$d/evex" "${shelldir}/lib/flamegraph_evex.c"
	objcopy --only-keep-debug "$d/evex" "$d/evex.debug"
	strip "$d/evex"
	objcopy --add-gnu-debuglink="$d/evex.debug" "$d/evex"
	# No build-id cache: objdump reads $d/evex, whose debug link names
	# the file beside it (a cache copy has nothing beside it).
	perf record -N -q -e cpu-clock -c 100000 -g -o "$d/e.data" \
		"$d/evex" 100000000 2> /dev/null
	perf annotate -v --stdio -i "$d/e.data" evex_a > /dev/null 2> "$d/e.ann"
	if ! grep -q "^Executing: .*objdump" "$d/e.ann"; then
		echo "perf's capstone reads AVX-512 here: skipped"
		return 0
	fi
	perf flamegraph -v -i "$d/e.data" --asm -o "$d/e.json" 2> "$d/e.err"
	# perf annotate runs objdump -S, which reads the debug file for the
	# source and names jump targets with its symbols; perf flamegraph
	# asks objdump for those symbols alone, and shows the same text.
	$check --data "$d/e.data" --json "$d/e.json" --dso evex --annotate
	ex=$(grep "^Executing: .*objdump" "$d/e.err")
	echo "${ex}" | grep -q -- " --dwarf=follow-links "
	if echo "${ex}" | grep -q -- " -S "; then
		echo "objdump decoded source lines no leaf shows: ${ex}"
		return 1
	fi
	# The loop's jump back is the hottest jump; the stripped binary's
	# own symbols (only its imports) would name it after a PLT entry.
	jump=$(hottest_jump "$d/e.json" evex)
	echo "hottest jump: ${jump}"
	echo "${jump}" | grep -qE "^j[a-z]+ +[0-9a-f]+ <evex_[ab]\+0x[0-9a-f]+> \[0x[0-9a-f]+\]$"
	# A user's --objdump may not be GNU objdump: perf annotate's -S.
	perf flamegraph -v -i "$d/e.data" --asm --objdump objdump \
		-o "$d/o.json" 2> "$d/o.err"
	grep "^Executing: .*objdump" "$d/o.err" | grep -q -- " -S "
	if grep -q -- "--dwarf=follow-links" "$d/o.err"; then
		echo "--objdump was given --dwarf=follow-links"
		return 1
	fi
	test "$(hottest_jump "$d/o.json" evex)" = "${jump}"
}

test_debuginfod() {
	echo "No debuginfod server is asked, as by perf record"
	local d="${workdir}/debuginfod" port="" server

	mkdir "$d"
	# Symbols and no DWARF: libdw would ask a server for its debug info.
	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$d/nog" "${shelldir}"/lib/flamegraph/*.c
	perf record -N -q -e cpu-clock -c 100000 -g -o "$d/nog.data" \
		"$d/nog" 20 2> /dev/null
	# A server that counts the connections it gets and answers none.
	python3 - "$d/port" "$d/asked" <<'PY' &
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
s.settimeout(60)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
__import__("os").rename(sys.argv[1] + ".tmp", sys.argv[1])
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
	DEBUGINFOD_URLS="http://127.0.0.1:${port}" timeout 120 perf report \
		-i "$d/nog.data" --flamegraph="$d/report.html" --asm > /dev/null 2>&1
	kill "${server}" 2> /dev/null || true
	wait "${server}" 2> /dev/null || true
	grep -q '"strings"' "$d/nog.html"
	grep -q '"strings"' "$d/report.html"
	if [ -s "$d/asked" ]; then
		echo "asked debuginfod $(cat "$d/asked") times"
		return 1
	fi
}

test_stdout_and_pipe() {
	echo "Pipe input and stdout output"
	perf record -q -e cpu-clock -g -o - "${prog}" 20 2> /dev/null |
		perf flamegraph -i - --asm --format json -o - \
		> "${workdir}/pipe.json" 2> /dev/null
	python3 -c "import json,sys; t=json.load(open(sys.argv[1])); \
		assert t['n'] == 'all' and t['c'], t" "${workdir}/pipe.json"
	grep -q '"k":"insn"' "${workdir}/pipe.json"
}

test_pipe_cut_short() {
	echo "A pipe cut short inside an event: what was read, and where it ended"
	local d="${workdir}/cut" size all part cut read what

	mkdir "$d"
	perf record -q -e cpu-clock -g -o - "${prog}" 30 2> /dev/null > "$d/full.data"
	size=$(stat -c %s "$d/full.data")
	perf flamegraph -i - -o "$d/full.folded" < "$d/full.data" 2> /dev/null
	cut="unexpected end of event stream: the input was cut short inside"
	read="the events before it were read"
	what="\(a [0-9]*-byte [A-Z_]* event\|an event header\)"
	# Cut in the middle of the samples; one that falls on an event
	# boundary cuts nothing short: then cut 4 bytes further, into the
	# next event's header.
	for extra in 0 4 ""; do
		test -n "${extra}"
		head -c $((size * 2 / 3 + extra)) "$d/full.data" > "$d/cut.data"
		perf flamegraph -i - -o "$d/cut.folded" < "$d/cut.data" 2> "$d/cut.err"
		if grep -q "${cut} ${what} at offset 0x[0-9a-f]*; ${read}" "$d/cut.err"; then
			break
		fi
	done
	all=$(awk '{ n += $NF } END { print n }' "$d/full.folded")
	part=$(awk '{ n += $NF } END { print n }' "$d/cut.folded")
	grep -q "perf flamegraph: ${part} samples of 'cpu-clock'" "$d/cut.err"
	test "${part}" -gt 0
	test "${part}" -lt "${all}"
	# Inside the first event's header (the pipe header is 16 bytes): said
	# too, not taken for an empty stream.
	head -c 19 "$d/full.data" > "$d/head.data"
	! perf flamegraph -i - -o "$d/head.folded" < "$d/head.data" 2> "$d/head.err"
	grep -q "${cut} an event header at offset 0; ${read}" "$d/head.err"
}

test_rebuilt_binary() {
	echo "Binary rebuilt after recording: instructions from the build-id cache"
	local src="${shelldir}/lib/flamegraph"

	build_workload "${workdir}/rebuilt"
	cp "${workdir}/rebuilt" "${workdir}/rebuilt.orig"
	perf record -q -e cpu-clock -g -o "${workdir}/rebuilt.data" \
		"${workdir}/rebuilt" 30 2> /dev/null
	# Other code at the same path: -O2 moves and rewrites every function.
	cc -O2 -g -o "${workdir}/rebuilt" "${src}"/*.c
	perf flamegraph -i "${workdir}/rebuilt.data" --asm \
		-o "${workdir}/rebuilt.json" 2> /dev/null
	$check --data "${workdir}/rebuilt.data" --json "${workdir}/rebuilt.json" \
		--dso rebuilt --binary "${workdir}/rebuilt.orig" --annotate \
		--objdump-binary "${workdir}/rebuilt.orig"
	# perf report --flamegraph --asm takes the same code path.
	perf report -i "${workdir}/rebuilt.data" --flamegraph="${workdir}/rep.json" \
		--asm > /dev/null 2>&1
	$check --data "${workdir}/rebuilt.data" --json "${workdir}/rep.json" \
		--dso rebuilt --binary "${workdir}/rebuilt.orig" --annotate \
		--objdump-binary "${workdir}/rebuilt.orig"
}

test_pipe_rebuilt() {
	echo "Pipe mode, no build-ids: a binary rebuilt since is not trusted"
	local src="${shelldir}/lib/flamegraph" d="${workdir}/piperb" bid

	mkdir "$d"
	build_workload "$d/prog"
	perf record -q -e cpu-clock -g -o - "$d/prog" 30 2> /dev/null > "$d/p.data"
	# Unchanged: named frames, instruction text, no warning about it.
	perf flamegraph -i "$d/p.data" --asm -o "$d/same.folded" 2> "$d/same.err"
	grep -q "^prog;.*;work;spin (prog+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/same.folded"
	if grep -q "/prog:" "$d/same.err"; then
		cat "$d/same.err"
		return 1
	fi
	# Rebuilt: other code at the path, and nothing records which ran.
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	perf flamegraph -i "$d/p.data" --asm -o "$d/new.folded" 2> "$d/new.err"
	test "$(grep -c "Warning: $d/prog: replaced since the recording" "$d/new.err")" -eq 1
	# The workload's samples are all there, under [unknown] frames of
	# prog with address leaves: not one name or instruction from the new
	# binary.
	test "$(awk '/^prog;/ { n += $NF } END { print n }' "$d/same.folded")" -eq \
	     "$(awk '/^prog;/ { n += $NF } END { print n }' "$d/new.folded")"
	grep -q "^prog;.*\[unknown\];\[0x[0-9a-f]*\] [0-9]*$" "$d/new.folded"
	if grep -qE ";(main|work|mix|spin[^;]*);" "$d/new.folded"; then
		echo "names from the rebuilt binary"
		return 1
	fi
	# --buildid-mmap: build-ids in the MMAP2 records; perf rejects the
	# rebuilt file by its build-id, one warning says so. A build-id of
	# its own, or the copy of the same build that test_workload put in
	# the build-id cache would stand in for it (rightly).
	build_workload "$d/prog" --own-build-id
	if ! perf record -q --buildid-mmap -e cpu-clock -g -o - "$d/prog" 30 \
		2> /dev/null > "$d/bid.data"; then
		echo "no --buildid-mmap on this kernel: rest skipped"
		return 0
	fi
	bid=$(perf buildid-list -i "$d/bid.data" 2> /dev/null | grep "/prog$" | cut -d' ' -f1)
	test -n "${bid}"
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	perf flamegraph -i "$d/bid.data" --asm -o "$d/bid.folded" 2> "$d/bid.err"
	test "$(grep -c "Warning: $d/prog: Mismatching build id" "$d/bid.err")" -eq 1
	grep -q "^prog;.*\[unknown\];\[0x[0-9a-f]*\] [0-9]*$" "$d/bid.folded"
	if grep -qE ";(main|work|mix|spin[^;]*);" "$d/bid.folded"; then
		echo "names from the rebuilt binary"
		return 1
	fi
}

test_record_command() {
	echo "perf flamegraph -- command: records with build-ids, then renders"
	local src="${shelldir}/lib/flamegraph" d="${workdir}/reccmd" bid pid

	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	bid=$(readelf -n "$d/prog" | sed -n 's/.*Build ID: *//p')
	perf flamegraph --asm -e cpu-clock -i "$d/rec.data" -o "$d/rec.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/rec.err"
	grep -q "samples of 'cpu-clock'.*wrote $d/rec.folded (folded)" "$d/rec.err"
	# A file with the build-id table, the binary in the build-id cache.
	perf buildid-list -i "$d/rec.data" | grep -q "^${bid} $d/prog$"
	test -s "${PERF_BUILDID_DIR}/.build-id/${bid:0:2}/${bid:2}/elf"
	grep -q "^prog;.*;work;spin (prog+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/rec.folded"
	# Rebuilt: the same graph, from the cache.
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	perf flamegraph --asm -i "$d/rec.data" -o "$d/again.folded" 2> /dev/null
	cmp "$d/rec.folded" "$d/again.folded"
	# ^C (SIGINT to the whole process group, as a terminal sends it)
	# stops the command; what perf record wrote is rendered.
	if command -v setsid > /dev/null; then
		setsid perf flamegraph -e cpu-clock -i "$d/int.data" \
			-o "$d/int.folded" -- "$d/prog" 1000000 > /dev/null \
			2> "$d/int.err" &
		pid=$!
		sleep 2
		kill -INT -- "-${pid}"
		wait "${pid}"
		grep -q "samples of 'cpu-clock'.*wrote $d/int.folded" "$d/int.err"
		grep -q "^prog;.*spin" "$d/int.folded"
	fi
	# A command that can't run: an error, no flame graph.
	if perf flamegraph -i "$d/none.data" -o "$d/none.folded" \
		-- "$d/nonexistent" > /dev/null 2> "$d/none.err"; then
		echo "a command that does not exist was accepted"
		return 1
	fi
	grep -q "^$d/nonexistent: no such command to record" "$d/none.err"
	test "$(wc -l < "$d/none.err")" -eq 1
	test ! -e "$d/none.folded"
	test ! -e "$d/none.data"
	# A mistyped option ends the options: its argument is no command, and
	# the input it names is left as it was.
	cp "$d/rec.data" "$d/keep.data"
	if perf flamegraph -i "$d/keep.data" -f folded -o "$d/keep.folded" \
		> /dev/null 2> "$d/keep.err"; then
		echo "a mistyped option was recorded as a command"
		return 1
	fi
	grep -q "^folded: no such command to record (options go before the command)$" \
		"$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	# perf record fails: the input stays, no file is left beside it.
	if perf flamegraph -e no-such-event -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 1 > /dev/null 2> "$d/keep.err"; then
		echo "a failed perf record was rendered"
		return 1
	fi
	grep -q "perf record of '$d/prog' failed, no flame graph written" "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	test ! -e "$d/keep.data.old"
	test "$(find "$d" -name 'keep.data.*' | wc -l)" -eq 0
	# It succeeds: the input it replaces is kept as .old, as perf record does.
	perf flamegraph -e cpu-clock -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data.old"
	perf report --stats -i "$d/keep.data" 2> /dev/null | grep -q "SAMPLE events"
	grep -q "^prog;.*spin" "$d/keep.folded"
}

test_perf_archive() {
	echo "perf archive unpacked elsewhere: the same leaves as at home"
	local archive home away
	archive="$(dirname "$(readlink -f "$(command -v perf)")")/perf-archive"
	if [ ! -x "${archive}" ] && ! perf archive -h > /dev/null 2>&1; then
		echo "no perf-archive: skipped"
		return 0
	fi
	mkdir "${workdir}/arch"
	build_workload "${workdir}/arch/prog" --own-build-id
	home=$(perf_config "${workdir}/arch/home")
	away=$(perf_config "${workdir}/arch/away")
	(cd "${workdir}/arch" &&
	 PERF_CONFIG=${home} perf record -q -e cpu-clock -g \
		-o a.data ./prog 30 2> /dev/null &&
	 PERF_CONFIG=${home} perf flamegraph -i a.data --asm \
		--format folded -o home.folded 2> /dev/null &&
	 if [ -x "${archive}" ]; then
		PERF_BUILDID_DIR="${workdir}/arch/home" bash "${archive}" a.data
	 else
		PERF_CONFIG=${home} perf archive a.data
	 fi > /dev/null 2>&1)
	test -d "${workdir}/arch/home/.build-id"
	# Another machine: no binary, no home build-id cache, the archive.
	rm -rf "${workdir}/arch/prog" "${workdir}/arch/home"
	mkdir "${workdir}/arch/away"
	tar xjf "${workdir}/arch/a.data.tar.bz2" -C "${workdir}/arch/away"
	PERF_CONFIG=${away} perf flamegraph \
		-i "${workdir}/arch/a.data" --asm --format folded \
		-o "${workdir}/arch/away.folded" 2> /dev/null
	grep "^prog;" "${workdir}/arch/home.folded" | sort > "${workdir}/arch/h"
	grep "^prog;" "${workdir}/arch/away.folded" | sort > "${workdir}/arch/a"
	grep -q ";spin (prog+0x[0-9a-f]*);[a-z].* \[0x" "${workdir}/arch/h"
	cmp "${workdir}/arch/h" "${workdir}/arch/a"
}

test_missing_binary() {
	echo "Missing binary: address leaves, one warning, exit 0"
	# A build-id of its own, or the cache would still have it.
	build_workload "${workdir}/gone" --own-build-id
	perf record -q -N -e cpu-clock -g -o "${workdir}/gone.data" \
		"${workdir}/gone" 20 2> /dev/null
	rm -f "${workdir}/gone"
	perf flamegraph -i "${workdir}/gone.data" --asm \
		-o "${workdir}/gone.folded" 2> "${workdir}/gone.err"
	test "$(grep -c "Warning: .*/gone:" "${workdir}/gone.err")" -eq 1
	grep -q "^gone;.*\[unknown\];\[0x[0-9a-f]*\] [0-9]*$" "${workdir}/gone.folded"
	# Names from the deleted binary: frames exactly "main" or "work".
	if awk -F';' '{ for (i = 2; i <= NF; i++) if ($i == "main" || $i == "work") f = 1 }
		END { exit !f }' "${workdir}/gone.folded"; then
		echo "symbols of a deleted binary"
		return 1
	fi
}

test_stripped_binary() {
	echo "Stripped binary: [unknown] frames, address leaves, one warning"
	local d="${workdir}/stripped"

	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	strip "$d/prog"
	perf record -q -e cpu-clock -g -o "$d/s.data" "$d/prog" 20 2> /dev/null
	perf flamegraph -i "$d/s.data" --asm -o "$d/s.folded" 2> "$d/s.err"
	test "$(grep -c "Warning: $d/prog: no symbols: stripped, and no debuginfo" \
		"$d/s.err")" -eq 1
	# The workload's own functions are static: nothing names them.
	grep -q "^prog;.*\[unknown\];\[0x[0-9a-f]*\] [0-9]*$" "$d/s.folded"
	if grep -qE ";(main|work|mix|spin[^;]*);" "$d/s.folded"; then
		echo "names in a stripped binary"
		return 1
	fi
	# Libraries keep their names: the frames above main are libc's.
	grep -q "^prog;__libc_start_call_main;\[unknown\];" "$d/s.folded"
}

test_system_program() {
	echo "A program from the system: python3"
	py=/usr/bin/python3
	test -x $py || py=$(command -v python3)
	perf record -q -e cpu-clock -g -o "${workdir}/py.data" \
		$py -c 's = 0
for i in range(2000000):
	s += i * i % 7' 2> /dev/null
	perf flamegraph -i "${workdir}/py.data" --asm -o "${workdir}/py.json" \
		2> /dev/null
	# The user-space DSO with the most instruction leaves under symbols.
	lib=$(python3 -c "import collections, json, sys
def w(n, p=None):
	yield n, p
	for c in n['c']:
		yield from w(c, n)
t = json.load(open(sys.argv[1]))
ds = collections.Counter(n['d'] for n, p in w(t) if n['k'] == 'insn' and
			 p['k'] == 'func' and n['l'] != 'kernel')
print(ds.most_common(1)[0][0])" "${workdir}/py.json")
	echo "most sampled DSO: ${lib}"
	$check --data "${workdir}/py.data" --json "${workdir}/py.json" \
		--dso "${lib}" --annotate
}

test_ranges() {
	echo "A large function with two hot loops: only its sampled instructions decoded into lines"
	# Not PIE: the objdump addresses in the JSON are also nm's.
	cc -O0 -no-pie -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "${workdir}/ranges" "${shelldir}/lib/flamegraph_ranges.c"
	perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/ranges.data" \
		"${workdir}/ranges" 200000000 2> /dev/null
	perf flamegraph -v -i "${workdir}/ranges.data" --asm \
		-o "${workdir}/ranges.json" 2> "${workdir}/ranges.err"
	# The leaves agree with perf annotate, which disassembles it whole.
	$check --data "${workdir}/ranges.data" --json "${workdir}/ranges.json" \
		--dso ranges --annotate
	python3 - "${workdir}/ranges.err" "${workdir}/ranges.json" \
		"$(nm -S "${workdir}/ranges" | awk '$4 == "two_loops" { print $1, $2 }')" <<'PY'
import json, re, sys
start, size = (int(x, 16) for x in sys.argv[3].split())
err = open(sys.argv[1], errors="replace").read()
# perf's disasm layer never parsed two_loops (7 kB of it never runs) ...
assert not re.search(r"^symbol__disassemble: .*, sym=two_loops,", err, re.M), \
    "two_loops went through symbol__disassemble()"
m = re.search(r"^perf flamegraph: disassembly: (\d+) symbols decoded here "
              r"\((\d+) of them ahead; (\d+) instruction lines\)",
              err, re.M)
assert m, "no disassembly summary in -v"
decoded, ahead, lines = (int(x) for x in m.groups())
# Each of them decoded ahead, from its first sample on.
assert ahead == decoded, (ahead, decoded)
addrs, loops = set(), set()
def walk(n, func):
    for c in n["c"]:
        if c["k"] == "insn" and not c["n"].startswith("[0x"):
            addrs.add((func, c["a"]))
            if func == "two_loops":
                loops.add(int(c["a"], 16) - start)
        walk(c, c["n"] if c["k"] == "func" else func)
walk(json.load(open(sys.argv[2])), None)
# ... and only the sampled instructions became lines: one per address.
assert decoded >= 1 and 0 < lines <= len(addrs), (decoded, lines, len(addrs))
assert lines < size // 16, (lines, size)
# Both loops were sampled, 7 kB apart.
assert loops and min(loops) < 0x100 and max(loops) > size - 0x100, sorted(map(hex, loops))
print("two_loops (%d bytes): %d sampled instructions; %d lines made for %d addresses"
      % (size, len(loops), lines, len(addrs)))
PY
}

test_srcline_dwarf() {
	echo "The page's source lines: DWARF opened by the second thread"
	local d="${workdir}/srcdwarf" i re

	mkdir "$d"
	# One hot loop of 200 statements: hundreds of sampled instructions,
	# more than the 64 leaves of a DSO after which its DWARF is opened.
	{
		printf 'unsigned long sink;\n\nint main(void)\n{\n'
		printf '\tunsigned long i, x = 1;\n\n\tfor (i = 0; i < 1000000; i++) {\n'
		for i in $(seq 200); do
			printf '\t\tx = x * %d + i;\n' $((2 * i + 1))
		done
		printf '\t}\n\tsink = x;\n\treturn 0;\n}\n'
	} > "$d/wide.c"
	cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$d/wide" "$d/wide.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/w.data" "$d/wide" 2> /dev/null
	perf flamegraph -i "$d/w.data" --asm -o "$d/w.json" 2> /dev/null
	perf flamegraph -v -i "$d/w.data" --asm -o "$d/w.html" 2> "$d/w.err"
	# addr2line's lines, from DWARF the second thread opened.
	$check --data "$d/w.data" --json "$d/w.json" --html "$d/w.html" \
		--dso wide --binary "$d/wide"
	re="^perf flamegraph: source lines: [1-9][0-9]* of the [0-9]+ hottest instructions, "
	re+="from the DWARF of [0-9]+ DSOs \([1-9][0-9]* of them opened ahead\)$"
	grep -E "${re}" "$d/w.err"
}

test_dwarf_callchains() {
	echo "DWARF callchains: the leaves perf annotate shows, decoded after the events"
	perf record -q -e cpu-clock -c 100000 --call-graph dwarf,16384 \
		-o "${workdir}/dwarf.data" "${prog}" 100 2> /dev/null
	perf flamegraph -v -i "${workdir}/dwarf.data" --asm \
		-o "${workdir}/dwarf.json" 2> "${workdir}/dwarf.err"
	$check --data "${workdir}/dwarf.data" --json "${workdir}/dwarf.json" \
		--dso fgwork --annotate
	# perf's unwinder looks into the DSOs' data caches without the lock
	# a second thread's reads would insert under: none decodes meanwhile.
	grep -Eq "disassembly: [1-9][0-9]* symbols decoded here \(0 of them ahead;" \
		"${workdir}/dwarf.err"
	! grep -q "^perf flamegraph: decoded ahead:" "${workdir}/dwarf.err"
}

test_annotate_perf_itself() {
	# perf annotate of perf itself used to crash in jump__parse() on a
	# call into another map; perf flamegraph --asm takes the same path.
	echo "Annotating perf itself (calls into other maps)"
	perf record -q -e cpu-clock -o "${workdir}/nop.data" \
		perf test -w noploop 2> /dev/null
	perf annotate --stdio -i "${workdir}/nop.data" > /dev/null 2>&1
	perf flamegraph --asm -i "${workdir}/nop.data" -o "${workdir}/nop.folded" \
		2> /dev/null
	grep -q "^perf;noploop;.* \[0x[0-9a-f]*\] [0-9]*$" "${workdir}/nop.folded"
}

test_foreign_profiles() {
	# Profiles recorded on other machines, their binaries absent: see
	# shared/profiles/README.md beside the repository.
	local dir=${FLAMEGRAPH_PROFILES:-$(cd "$(dirname "$(readlink -f "$0")")/../../../.." &&
		pwd)/../shared/profiles}
	local f ev

	echo "Foreign profiles"
	if [ ! -d "${dir}" ]; then
		echo "no profiles in ${dir}: skipped"
		return 0
	fi
	for f in "${dir}"/*.data; do
		for ev in $(perf script -G -F event -i "$f" 2> /dev/null |
			    sed 's/^ *//; s/: *$//' | sort -u | head -2); do
			echo "$(basename "$f"), event ${ev}"
			perf flamegraph -i "$f" -e "${ev}" --asm -o "${workdir}/f.json" \
				2> "${workdir}/f.err"
			# One warning per DSO at most.
			test "$(grep -c '^Warning: ' "${workdir}/f.err")" -eq \
			     "$(grep '^Warning: ' "${workdir}/f.err" | cut -d: -f2 |
				sort -u | wc -l)"
			$check --data "$f" --json "${workdir}/f.json" --event "${ev}"
		done
	done
}

test_foreign_arch() {
	echo "A profile of another architecture: no host decoding of its code"
	local d="${workdir}/arch64" n

	mkdir "$d"
	perf record -q -e cpu-clock -g -o "$d/x86.data" "${prog}" 20 2> /dev/null
	cp "$d/x86.data" "$d/arm.data"
	python3 "${shelldir}/lib/perf_data_set_arch.py" "$d/arm.data" aarch64
	perf report --header-only -i "$d/arm.data" | grep -q "^# arch : aarch64$"
	# No cross objdump: address leaves, one warning per DSO, exit 0.
	CROSS_COMPILE=/nonexistent/aarch64-linux-gnu- perf flamegraph --asm \
		-i "$d/arm.data" -o "$d/arm.folded" 2> "$d/arm.err"
	test "$(grep -c "Warning: ${prog}: recorded on arm64, and no objdump for arm64 was found" \
		"$d/arm.err")" -eq 1
	if grep -q "Please install" "$d/arm.err"; then
		echo "perf annotate's error instead of the warning"
		return 1
	fi
	grep -q "^fgwork;.*;work;spin (fgwork+0x[0-9a-f]*);\[0x[0-9a-f]*\] [0-9]*$" "$d/arm.folded"
	if grep -qE "^fgwork;.*;[^[;][^;]* \[0x[0-9a-f]+\] [0-9]+$" "$d/arm.folded"; then
		echo "instruction text for foreign code"
		return 1
	fi
	# The same samples and frames as the native profile, leaves aside.
	perf flamegraph -i "$d/x86.data" -o "$d/x86.nl.folded" 2> /dev/null
	perf flamegraph -i "$d/arm.data" -o "$d/arm.nl.folded" 2> /dev/null
	n=$(awk '{ n += $NF } END { print n }' "$d/x86.nl.folded")
	test "$n" -gt 0
	cmp "$d/x86.nl.folded" "$d/arm.nl.folded"
}

test_jit_perf_map() {
	echo "JIT code named by /tmp/perf-PID.map: frames named, address leaves"
	local map

	if [ "$(uname -m)" != x86_64 ]; then
		echo "not x86_64: skipped"
		return 0
	fi
	cc -O1 -g -o "${workdir}/jit" "${shelldir}/lib/flamegraph_jit.c"
	perf record -q -e cpu-clock -g -o "${workdir}/jit.data" \
		"${workdir}/jit" 20 2> /dev/null
	perf flamegraph -i "${workdir}/jit.data" --asm \
		-o "${workdir}/jit.folded" 2> "${workdir}/jit.err"
	map=$(grep -o '/tmp/perf-[0-9]*\.map' "${workdir}/jit.err" | head -1)
	test -n "${map}"
	grep -q ";jitted_loop;\[0x[0-9a-f]*\] [0-9]*$" "${workdir}/jit.folded"
	if grep -qE ";jitted_loop;[^[;][^;]* [0-9]+$" "${workdir}/jit.folded"; then
		echo "instruction text for JIT code without an image"
		rm -f "${map}"
		return 1
	fi
	test "$(grep -c 'perf-[0-9]*\.map: JIT code named by a perf map' \
		"${workdir}/jit.err")" -eq 1
	# Without the map: an [unknown] frame, the code's memory address as
	# its leaf, and a warning that says what is missing.
	rm -f "${map}"
	perf flamegraph -i "${workdir}/jit.data" --asm \
		-o "${workdir}/nomap.folded" 2> "${workdir}/nomap.err"
	test "$(grep -c "${map}: JIT code with no perf map to name it" \
		"${workdir}/nomap.err")" -eq 1
	grep -q "^jit;.*\[unknown\];\[0x[0-9a-f]\{8,\}\] [0-9]*$" "${workdir}/nomap.folded"
	if grep -q jitted_loop "${workdir}/nomap.folded"; then
		echo "a name without a perf map"
		return 1
	fi
}

test_jitdump() {
	echo "JIT code in a jitdump, after perf inject --jit: instruction leaves"
	local d="${workdir}/jitdump" pid so

	if [ "$(uname -m)" != x86_64 ]; then
		echo "not x86_64: skipped"
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
	if grep -q "${so}" "$d/jit.err"; then
		cat "$d/jit.err"
		return 1
	fi
	grep -q ";jitted_loop;[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" "$d/jit.folded"
	$check --data "$d/inj.data" --json "$d/jit.json" --dso "${so}" \
		--annotate --objdump-binary "$d/${so}"
}

test_kptr_restrict() {
	echo "Kernel samples recorded with kernel.kptr_restrict=2"
	local knob=/proc/sys/kernel/kptr_restrict old
	if [ "$(id -u)" != 0 ] || [ ! -w "${knob}" ]; then
		echo "cannot set kernel.kptr_restrict: skipped"
		return 0
	fi
	old=$(cat "${knob}")
	echo 2 > "${knob}"
	# dd with one-byte blocks spends its time in system calls.
	perf record -q -e cpu-clock -g -o "${workdir}/kptr.data" \
		dd if=/dev/zero of=/dev/null bs=1 count=500000 2> /dev/null || true
	echo "${old}" > "${knob}"
	perf flamegraph -i "${workdir}/kptr.data" --asm -o "${workdir}/kptr.json" \
		2> "${workdir}/kptr.err"
	grep -q "kernel samples have no kernel map, so no names; was kernel.kptr_restrict set" \
		"${workdir}/kptr.err"
	# The kernel frames stay kernel frames.
	python3 -c "import json, sys
def walk(n):
	yield n
	for c in n['c']:
		yield from walk(c)
nodes = [n for n in walk(json.load(open(sys.argv[1]))) if n['k'] in ('unknown', 'insn')
	 and n['n'].startswith('[0xffff')]
assert nodes and all(n['l'] == 'kernel' for n in nodes), nodes" "${workdir}/kptr.json"
}

test_filters() {
	echo "Filters: --comms, -S, --pid, --time; filtered samples in the summary"
	perf flamegraph -i "${workdir}/p.data" -o "${workdir}/all.json" 2> /dev/null
	perf flamegraph -i "${workdir}/p.data" -S mix -o "${workdir}/mix.json" \
		2> "${workdir}/mix.err"
	# Samples whose sampled function is mix end at a mix frame.
	python3 - "${workdir}/all.json" "${workdir}/mix.json" "${workdir}/mix.err" <<'PY'
import json, re, sys
def walk(n):
    yield n
    for c in n["c"]:
        yield from walk(c)
def total(n):
    return n["v"] + sum(total(c) for c in n["c"])
full = json.load(open(sys.argv[1]))
mix = json.load(open(sys.argv[2]))
want = sum(n["v"] for n in walk(full) if n["n"] == "mix")
got = total(mix)
names = {n["n"] for n in walk(mix) if n["k"] == "func" and not n["c"]}
m = re.search(r"(\d+) samples of 'cpu-clock' \((\d+) filtered", open(sys.argv[3]).read())
assert want > 0 and got == want, (got, want)
assert names == {"mix"}, names
assert m and int(m.group(1)) == got and int(m.group(2)) == total(full) - got, m
print(f"-S mix: {got} samples, {total(full) - got} filtered, as in the full graph")
PY
	pid=$(perf script -i "${workdir}/p.data" -F pid 2> /dev/null | sort | uniq -c |
	      sort -n | tail -1 | awk '{print $2}')
	perf flamegraph -i "${workdir}/p.data" --pid "${pid}" -o "${workdir}/pid.json" 2> /dev/null
	want=$(perf script -i "${workdir}/p.data" -F pid 2> /dev/null |
		awk -v p="${pid}" '$1 == p' | wc -l)
	python3 -c "import json, sys
def total(n): return n['v'] + sum(total(c) for c in n['c'])
assert total(json.load(open(sys.argv[1]))) == int(sys.argv[2])" "${workdir}/pid.json" "${want}"
	# --time: the halves add up, each as perf script counts it.
	local half sum=0
	for half in 50%/1 50%/2; do
		perf flamegraph -i "${workdir}/p.data" --time "${half}" \
			-o "${workdir}/half.json" 2> /dev/null
		want=$(perf script -i "${workdir}/p.data" --time "${half}" -G -F comm \
		       2> /dev/null | wc -l)
		got=$(python3 -c "import json, sys
def total(n): return n['v'] + sum(total(c) for c in n['c'])
print(total(json.load(open(sys.argv[1]))))" "${workdir}/half.json")
		test "${got}" -eq "${want}"
		sum=$((sum + got))
	done
	test "${sum}" -eq "$(perf script -i "${workdir}/p.data" -G -F comm 2> /dev/null | wc -l)"
	if perf flamegraph -i "${workdir}/p.data" --comms nothere \
		-o "${workdir}/none.json" 2> "${workdir}/none.err"; then
		echo "an empty flame graph and exit 0"
		return 1
	fi
	grep -q "no samples of 'cpu-clock' to show" "${workdir}/none.err"
	test ! -e "${workdir}/none.json"
}

test_exec() {
	echo "exec into a binary with the same addresses: each keeps its samples"
	local f

	for f in alpha beta; do
		cc -O0 -no-pie -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
			-DSPIN="$f" -o "${workdir}/$f" "${shelldir}/lib/flamegraph_exec.c"
	done
	# The same address for both loops, or this proves nothing.
	test "$(nm "${workdir}/alpha" | awk '$3 == "alpha" { print $1 }')" = \
	     "$(nm "${workdir}/beta" | awk '$3 == "beta" { print $1 }')"
	perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/exec.data" \
		"${workdir}/alpha" "${workdir}/beta" 2> /dev/null
	perf flamegraph -v -i "${workdir}/exec.data" --format folded \
		-o "${workdir}/exec.folded" 2> "${workdir}/exec.err"
	# Resolved samples were reused, and forgotten at the exec.
	grep -q "resolved samples cache: [1-9][0-9]* hits, [0-9]* misses, [1-9][0-9]* flushes" \
		"${workdir}/exec.err"
	perf report -i "${workdir}/exec.data" --stdio -g none --no-children \
		--sort comm,sym -F sample,comm,sym > "${workdir}/exec.report" 2> /dev/null
	python3 - "${workdir}/exec.folded" "${workdir}/exec.report" <<'PY'
import collections, re, sys
got = collections.Counter()
for line in open(sys.argv[1]):
    stack, n = line.rsplit(" ", 1)
    frames = stack.split(";")
    got[(frames[0], frames[-1])] += int(n)
want = collections.Counter()
for line in open(sys.argv[2]):
    m = re.match(r"\s*(\d+)\s+(\S+)\s+\[\.\] (alpha|beta)\s*$", line)
    if m:
        want[(m.group(2), m.group(3))] += int(m.group(1))
for comm in ("alpha", "beta"):
    assert want[(comm, comm)] > 100, want
    assert got[(comm, comm)] == want[(comm, comm)], (comm, got, want)
# No sample of one program under the other's name.
assert not got[("alpha", "beta")] and not got[("beta", "alpha")], got
print("alpha %d, beta %d samples, as perf report counts them"
      % (got[("alpha", "alpha")], got[("beta", "beta")]))
PY
}

test_outputs() {
	echo "Outputs: symlinks, permissions, long names, stdout"
	local long

	# A new file gets 0666 less the umask, a replaced one keeps its mode.
	(umask 027; perf flamegraph -i "${workdir}/p.data" -o "${workdir}/new.html" 2> /dev/null)
	test "$(stat -c %a "${workdir}/new.html")" = 640
	echo old > "${workdir}/real.html"
	chmod 600 "${workdir}/real.html"
	ln -s real.html "${workdir}/link.html"
	perf flamegraph -i "${workdir}/p.data" -o "${workdir}/link.html" 2> /dev/null
	# The link stays a link; its target is the new graph, mode kept.
	test -L "${workdir}/link.html"
	test "$(stat -c %a "${workdir}/real.html")" = 600
	grep -q "fg-data" "${workdir}/real.html"
	perf flamegraph -i "${workdir}/p.data" --format folded -o /dev/stdout \
		> "${workdir}/stdout.folded" 2> /dev/null
	test -L /dev/stdout || test -c /dev/stdout
	grep -q "^fgwork;" "${workdir}/stdout.folded"
	# A name of 255 bytes: the temporary file's name must not be longer.
	long="${workdir}/$(printf 'a%.0s' $(seq 1 250)).json"
	perf flamegraph -i "${workdir}/p.data" -o "${long}" 2> /dev/null
	grep -q '"n":"all"' "${long}"
	# The extension decides the format whatever its case.
	perf flamegraph -i "${workdir}/p.data" -o "${workdir}/UP.JSON" 2> /dev/null
	python3 -c "import json, sys; json.load(open(sys.argv[1]))" "${workdir}/UP.JSON"
	# Rejected before the input is read, with one line.
	for o in "" "${workdir}/no/such/dir/x.html"; do
		if perf flamegraph -i "${workdir}/p.data" -o "$o" 2> "${workdir}/o.err"; then
			echo "output '$o' accepted"
			return 1
		fi
		test "$(wc -l < "${workdir}/o.err")" -eq 1
	done
	# --max-stack 2: comm and at most two frames per stack, same total.
	perf flamegraph -i "${workdir}/p.data" --max-stack 2 --format folded \
		-o "${workdir}/ms.folded" 2> /dev/null
	awk -F';' 'NF > 3 { bad = 1 } { n += $NF } END { exit bad }' "${workdir}/ms.folded"
	test "$(awk '{ n += $NF } END { print n }' "${workdir}/ms.folded")" -eq \
	     "$(perf script -i "${workdir}/p.data" -G -F comm 2> /dev/null | wc -l)"
	if perf flamegraph -i "${workdir}/p.data" --max-stack -1 -o "${workdir}/ms.html" \
		2> /dev/null; then
		echo "--max-stack -1 accepted"
		return 1
	fi
}

test_template() {
	echo "--template: upstream's d3-flame-graph template, filled as flamegraph.py does"
	local d="${workdir}/tmpl"

	mkdir "$d"
	perf record -q -e cpu-clock -g -o "$d/t.data" "${prog}" 20 2> /dev/null
	printf '%s\n' '<html><body><script>' 'const stacks = [/** @flamegraph_json **/];' \
		'const options = [/** @options_json **/];' '</script></body></html>' \
		> "$d/base.html"
	perf flamegraph -i "$d/t.data" --asm --template "$d/base.html" \
		-o "$d/out.html" 2> /dev/null
	perf flamegraph -i "$d/t.data" --asm -o "$d/out.json" 2> /dev/null
	# The tree equals the json format's; the context is this input's
	# header (upstream's script shows ./perf.data's).
	python3 - "$d/out.html" "$d/out.json" "$(perf report --header-only -i "$d/t.data" |
		sed -n 's/^# hostname : //p')" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
stacks = json.loads(re.search(r"const stacks = \[(.*)\];\nconst options", page, re.S).group(1))
options = json.loads(re.search(r"const options = \[(.*)\];", page).group(1))
assert stacks == json.load(open(sys.argv[2])), "tree differs from --format json"
assert options["colorscheme"] == "blue-green"
assert "# hostname : " + sys.argv[3] + "\n" in options["context"], options["context"]
assert "<" not in page[page.index("const stacks"):page.index("</script>")]
PY
	if perf flamegraph -i "$d/t.data" --template "$d/nonexistent" \
		-o "$d/x.html" 2> "$d/err"; then
		echo "missing template accepted"
		return 1
	fi
	grep -q -- "--template $d/nonexistent: No such file or directory" "$d/err"
	echo nothing > "$d/plain.html"
	if perf flamegraph -i "$d/t.data" --template "$d/plain.html" \
		-o "$d/x.html" 2> "$d/err"; then
		echo "template without the marker accepted"
		return 1
	fi
	grep -q "no /\*\* @flamegraph_json \*\*/ in it" "$d/err"
	test ! -e "$d/x.html"
}

test_progress() {
	echo "Progress on a terminal, none in a pipe"
	local d="${workdir}/progress"

	mkdir "$d"
	perf record -q -e cpu-clock -g -o "$d/p.data" "${prog}" 20 2> /dev/null
	perf flamegraph -i "$d/p.data" --asm -o "$d/pipe.html" 2> "$d/pipe.err"
	if grep -q "$(printf '\r')" "$d/pipe.err"; then
		echo "progress written to a pipe"
		return 1
	fi
	if ! command -v script > /dev/null; then
		echo "no script(1): terminal part skipped"
		return 0
	fi
	script -qec "perf flamegraph -i $d/p.data --asm -o $d/tty.html" /dev/null > "$d/tty.out"
	# perf's ui_progress shows steps of 1/16: the last is not always 100%.
	grep -q "Processing events\.\.\. *[0-9]*%" "$d/tty.out"
	grep -q "Disassembling\.\.\. *[0-9]*%" "$d/tty.out"
	grep -q "perf flamegraph: .* samples of 'cpu-clock'" "$d/tty.out"
}

test_report() {
	echo "perf report --flamegraph: what the report shows, same tree as perf flamegraph"
	local d="${workdir}/report" n

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 60 2> /dev/null
	# No filter: sample for sample the same stacks and leaves.
	perf flamegraph -i "$d/r.data" --asm -o "$d/fg.folded" 2> /dev/null
	perf report -i "$d/r.data" --flamegraph="$d/rep.folded" --asm 2> "$d/rep.err"
	grep -q "^perf report: [0-9]* samples of 'cpu-clock', .* wrote $d/rep.folded$" \
		"$d/rep.err"
	sort "$d/fg.folded" > "$d/a"
	sort "$d/rep.folded" > "$d/b"
	cmp "$d/a" "$d/b"
	perf report -i "$d/r.data" --flamegraph="$d/rep.json" --asm 2> /dev/null
	$check --data "$d/r.data" --json "$d/rep.json" --dso fgwork --annotate \
		--same-name spin
	# perf report --sort symoff counts the same samples per instruction.
	perf report -i "$d/r.data" --stdio --no-children --sort symoff -g none -n \
		--dsos fgwork 2> /dev/null | grep -v '^#' > "$d/symoff"
	python3 - "$d/rep.json" "$d/symoff" <<'PY'
import collections, json, re, sys
def walk(n, parent=None):
    if n["k"] == "insn" and n.get("d") == "fgwork" and parent["k"] == "func":
        yield parent, n
    for c in n["c"]:
        yield from walk(c, n)
leaves = collections.Counter()
for f, i in walk(json.load(open(sys.argv[1]))):
    name = re.sub(r" \(fgwork\+0x[0-9a-f]+\)$", "", f["n"])
    leaves[(f["a"], name, int(i["a"], 16) - int(f["a"], 16))] += i["v"]
ours = collections.Counter()
for (_, name, off), v in leaves.items():
    ours[f"{name}+{off:#x} {v}"] += 1
report = collections.Counter()
for line in open(sys.argv[2]):
    m = re.match(r"\s*[0-9.]+%\s+(\d+)\s+\[\.\] (\S+)\s*$", line)
    if m:
        report[f"{m.group(2)} {m.group(1)}"] += 1
assert report and ours == report, (sorted(ours.items()), sorted(report.items()))
print(f"{sum(report.values())} instructions: the same samples as perf report --sort symoff")
PY
	# Filters of perf report apply: --symbols, --comm.
	perf flamegraph -i "$d/r.data" --asm -S mix -o "$d/fg.mix.folded" 2> /dev/null
	perf report -i "$d/r.data" --flamegraph="$d/rep.mix.folded" --asm -S mix 2> /dev/null
	sort "$d/fg.mix.folded" > "$d/c"; sort "$d/rep.mix.folded" > "$d/e"; diff "$d/c" "$d/e"
	grep -q ";mix;" "$d/rep.mix.folded"
	if grep -v ";mix;[^;]*$" "$d/rep.mix.folded"; then
		echo "a stack not ending in mix with -S mix"
		return 1
	fi
	# --percent-limit: the sampled functions are those perf report lists.
	perf report -i "$d/r.data" --stdio --no-children --sort sym \
		--percent-limit 20 -g none 2> /dev/null |
		sed -n 's/^ *[0-9.]*% *\[[.k]\] //p' | sed 's/ *$//' | sort -u > "$d/listed"
	test -s "$d/listed"
	perf report -i "$d/r.data" --flamegraph="$d/rep.pl.folded" --percent-limit 20 \
		--sort sym 2> /dev/null
	awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); print f[n] }' \
		"$d/rep.pl.folded" | sed 's/ (fgwork+0x[0-9a-f]*)$//' | sort -u > "$d/shown"
	diff "$d/listed" "$d/shown"
	# -g callee: rooted at the sampled functions, as many samples each
	# as perf report gives them.
	perf report -i "$d/r.data" --flamegraph="$d/callee.folded" -g callee 2> /dev/null
	n=$(awk -F';' '$2 == "mix" { s += $NF } END { print s }' \
		<(sed 's/ \([0-9]*\)$/;\1/' "$d/callee.folded"))
	test "$n" -eq "$(awk '/;mix;/ { s += $NF } END { print s }' "$d/fg.mix.folded")"
	# --max-stack 2: at most comm and two frames.
	perf report -i "$d/r.data" --flamegraph="$d/ms.folded" --max-stack 2 2> /dev/null
	test "$(awk -F';' '{ print NF }' "$d/ms.folded" | sort -n | tail -1)" -le 3
	# Bad combinations: one line, non-zero, nothing written.
	if perf report -i "$d/r.data" --asm 2> "$d/err"; then
		echo "--asm without --flamegraph accepted"
		return 1
	fi
	grep -q "^--asm: only with --flamegraph$" "$d/err"
	if perf report -i "$d/r.data" --flamegraph="$d/x.folded" --asm -g callee \
		2> "$d/err"; then
		echo "--asm with -g callee accepted"
		return 1
	fi
	grep -q "instruction leaves need a caller-based graph" "$d/err"
	if perf report -i "$d/r.data" --flamegraph="$d/x.folded" --comm nosuch \
		> /dev/null 2> "$d/err"; then
		echo "an empty flame graph written"
		return 1
	fi
	test ! -e "$d/x.folded"
}

test_flamegraph_py() {
	echo "perf script report flamegraph --asm: the same tree as perf flamegraph --asm"
	local d="${workdir}/fgpy" src="${shelldir}/lib/flamegraph" perfdir

	# Where perf script finds its scripts: this tree's, if perf is not
	# installed with them.
	perfdir=$(cd "${shelldir}/../.." && pwd)
	[ -x "${perfdir}/scripts/python/bin/flamegraph-report" ] &&
		export PERF_EXEC_PATH="${perfdir}"
	if ! perf version --build-options | grep -q 'libpython: .*on'; then
		echo "perf without python: skipped"
		return 0
	fi
	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	# -o: without it perf record writes to a stdout that is a pipe.
	(cd "$d" && perf record -q -e cpu-clock -g -o perf.data ./prog 30 2> /dev/null)
	# Rebuilt since: both must take the recorded one from the cache.
	cc -O2 -g -o "$d/prog" "${src}"/*.c
	(cd "$d" && perf script report flamegraph --asm -f json -o py.json \
		> /dev/null 2> py.err)
	perf flamegraph -i "$d/perf.data" --asm --format json -o "$d/fg.json" 2> /dev/null
	cmp "$d/py.json" "$d/fg.json"
	grep -q '"k":"insn"' "$d/py.json"
	$check --data "$d/perf.data" --json "$d/py.json" --dso prog --annotate \
		--same-name spin
	# Another input than the one perf flamegraph would read: one line.
	cp "$d/perf.data" "$d/other.data"
	: > "$d/empty"
	if (cd "$d" && perf script -i other.data -s "${perfdir}/scripts/python/flamegraph.py" \
		-- --asm -f json -o x.json -i empty > /dev/null 2> x.err); then
		echo "mismatched input accepted"
		return 1
	fi
	grep -q "^--asm: perf flamegraph failed: \|give the input with -i" "$d/x.err"
	if grep -q Traceback "$d/x.err"; then
		cat "$d/x.err"
		return 1
	fi
	test ! -e "$d/x.json"
}

test_help() {
	echo "Help: perf flamegraph -h, perf help flamegraph, perf's command list"
	perf flamegraph -h 2>&1 | grep -q -- "--asm"
	perf 2>&1 | grep -q "^   flamegraph "
	if command -v man > /dev/null; then
		MANPAGER="cat" perf help flamegraph 2>&1 | grep -q -- "--disassembler-style"
	fi
}

test_bad_input() {
	echo "Bad input: one line, non-zero exit, nothing overwritten"
	local od perf

	echo keep > "${workdir}/keep.html"
	if perf flamegraph -i "${workdir}/nonexistent.data" \
		-o "${workdir}/keep.html" 2> /dev/null; then
		echo "missing input accepted"
		return 1
	fi
	grep -q keep "${workdir}/keep.html"
	if perf flamegraph -i "${workdir}/p.data" --format svg \
		-o "${workdir}/keep.html" 2> "${workdir}/bad.err"; then
		echo "unknown format accepted"
		return 1
	fi
	grep -q "unknown --format 'svg'" "${workdir}/bad.err"
	if perf flamegraph -i "${workdir}/p.data" -o "${workdir}/p.data" \
		2> /dev/null; then
		echo "output over the input accepted"
		return 1
	fi
	mkdir "${workdir}/dir.html"
	if perf flamegraph -i "${workdir}/p.data" -o "${workdir}/dir.html" \
		2> "${workdir}/bad.err"; then
		echo "directory output accepted"
		return 1
	fi
	grep -q "is a directory" "${workdir}/bad.err"
	# Not a regular file: written in place, never replaced by a rename.
	mkfifo "${workdir}/fifo"
	cat "${workdir}/fifo" > "${workdir}/fifo.out" &
	perf flamegraph -i "${workdir}/p.data" --format folded \
		-o "${workdir}/fifo" 2> /dev/null
	wait
	test -p "${workdir}/fifo"
	grep -q "^fgwork;" "${workdir}/fifo.out"
	if perf flamegraph -i "${workdir}/p.data" --objdump /nonexistent/objdump \
		-o "${workdir}/keep.html" 2> "${workdir}/bad.err"; then
		echo "missing --objdump accepted"
		return 1
	fi
	grep -q "^--objdump '/nonexistent/objdump': No such file" "${workdir}/bad.err"
	# Not in $PATH, empty, a directory, and what /bin/sh would split.
	for od in no-such-objdump "" "${workdir}" "/usr/bin/obj dump"; do
		if perf flamegraph -i "${workdir}/p.data" --asm --objdump "${od}" \
			-o "${workdir}/keep.html" 2> "${workdir}/bad.err"; then
			echo "--objdump '${od}' accepted"
			return 1
		fi
		test "$(wc -l < "${workdir}/bad.err")" -eq 1
		grep -q keep "${workdir}/keep.html"
	done
	grep -q "^--objdump '/usr/bin/obj dump': perf runs objdump through /bin/sh" \
		"${workdir}/bad.err"
	# An empty $PATH entry is the current directory, as for the shell;
	# -q: not a word on stderr.
	perf=$(command -v perf)
	(cd "$(dirname "$(command -v objdump)")" &&
	 PATH=":/nonexistent" "${perf}" flamegraph -q -i "${workdir}/p.data" --asm \
		--objdump objdump -o "${workdir}/cwd.folded" 2> "${workdir}/q.err")
	grep -q "^fgwork;.*;[a-z].* \[0x[0-9a-f]*\] [0-9]*$" "${workdir}/cwd.folded"
	test ! -s "${workdir}/q.err"
	grep -q keep "${workdir}/keep.html"

	# Empty, truncated, and cut short (data size never written, as when
	# perf record is killed): an error, and the old output stays.
	: > "${workdir}/empty.data"
	head -c 5000 "${workdir}/p.data" > "${workdir}/trunc.data"
	cp "${workdir}/p.data" "${workdir}/killed.data"
	dd if=/dev/zero of="${workdir}/killed.data" bs=1 seek=48 count=8 \
		conv=notrunc 2> /dev/null
	for f in empty trunc killed; do
		if perf flamegraph -i "${workdir}/${f}.data" -o "${workdir}/keep.html" \
			2> "${workdir}/bad.err"; then
			echo "${f}.data accepted"
			return 1
		fi
		grep -q keep "${workdir}/keep.html"
		test -s "${workdir}/bad.err"
	done
	grep -q "data size field is 0" "${workdir}/bad.err"
	for opt in "-e nosuch" "--time bogus"; do
		# shellcheck disable=SC2086
		if perf flamegraph -i "${workdir}/p.data" $opt \
			-o "${workdir}/keep.html" 2> /dev/null; then
			echo "$opt accepted"
			return 1
		fi
	done
	grep -q keep "${workdir}/keep.html"
}

for t in test_workload test_intel_syntax test_objdump_batched test_capstone_fallback \
	 test_debug_file test_debuginfod test_stdout_and_pipe \
	 test_pipe_cut_short test_rebuilt_binary \
	 test_pipe_rebuilt \
	 test_record_command test_perf_archive \
	 test_missing_binary test_stripped_binary \
	 test_system_program test_annotate_perf_itself test_foreign_profiles \
	 test_foreign_arch test_jit_perf_map test_jitdump test_kptr_restrict test_filters \
	 test_exec test_ranges test_srcline_dwarf test_dwarf_callchains test_outputs \
	 test_template \
	 test_progress test_report \
	 test_flamegraph_py test_help test_bad_input; do
	# Not in an if: set -e must stay in force inside the subshell.  The
	# command that failed is named, for a failure that won't come back.
	set +e
	# shellcheck disable=SC2016
	failed='[[ $- == *e* ]] && echo "${FUNCNAME[0]}: line ${LINENO}: ${BASH_COMMAND}"'
	# shellcheck disable=SC2064
	( set -eE; trap "${failed}" ERR; $t )
	rc=$?
	set -e
	if [ $rc -ne 0 ]; then
		echo "$t FAILED"
		err=1
	fi
done

cleanup
exit $err
