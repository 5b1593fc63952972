#!/bin/bash
# perf flamegraph --asm: instructions at the sample IPs (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# The instruction leaves of perf flamegraph --asm: the instruction at each
# sample IP, with perf annotate's text and samples per address where perf
# annotate decodes the same instructions, objdump's where it must.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_attribution.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump

prog="${workdir}/fgwork"
build_workload "${prog}"

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
	# shows.
	perf flamegraph -i "${workdir}/p.data" --format folded --value samples \
		-o "${workdir}/fn.folded" 2> /dev/null
	# The leaves: perf annotate's text and samples per address (perf
	# annotate reads fgwork with capstone too), inside their symbols, the
	# two spins apart; the folded and HTML outputs hold the same tree,
	# the page addr2line's source lines.
	fg_check --data "${workdir}/p.data" --json "${workdir}/p.json" \
		--dso fgwork --binary "${prog}" --annotate --same-name spin \
		--folded "${workdir}/p.folded" --html "${workdir}/p.html" \
		--script-folded "${workdir}/fn.folded"
	# The call path of the workload is there, outermost caller first.
	grep -q "^fgwork;.*main;work;spin (fgwork+0x[0-9a-f]*);.* \[0x[0-9a-f]*\] [0-9]*$" \
		"${workdir}/p.folded"
}

test_intel_syntax() {
	echo "-M intel: the leaves perf annotate -M intel shows"
	perf flamegraph -i "${workdir}/p.data" --asm -M intel \
		-o "${workdir}/intel.json" 2> /dev/null
	fg_check --data "${workdir}/p.data" --json "${workdir}/intel.json" \
		--dso fgwork --annotate --annotate-style intel --same-name spin
	# Intel syntax, not AT&T's: no %-prefixed registers in fgwork's leaves.
	test -n "$(leaf_addrs "${workdir}/intel.json" fgwork)"
	test -z "$(leaf_addrs "${workdir}/intel.json" fgwork '.*%')"
}

test_objdump() {
	echo "--objdump: objdump's text for every leaf, one objdump per DSO, a space in its path"
	# A space in the path: the shell perf runs objdump under gets it as $2.
	local d="${workdir}/obj dump" runs

	objdump_logger "$d"
	perf flamegraph -i "${workdir}/p.data" --asm --objdump "$d/objdump" \
		-o "${workdir}/od.json" 2> /dev/null
	fg_check --data "${workdir}/p.data" --json "${workdir}/od.json" \
		--dso fgwork --annotate --annotate-objdump "$(command -v objdump)" \
		--same-name spin
	# No binary twice, fgwork's once, over its sampled instructions.
	test -z "$(awk '{ print $NF }' "$d/log" | sort | uniq -d)"
	runs=$(objdump_runs "$d/log" "${workdir}/p.data" fgwork)
	test "$(echo "${runs}" | wc -l)" -eq 1
	check_objdump_run "${runs}" "$(leaf_addrs "${workdir}/od.json" fgwork)"
	# A user's objdump may not be GNU objdump: not given its options.
	if grep -q -- "--dwarf" "$d/log"; then
		echo "--objdump given --dwarf=follow-links"
		return 1
	fi
	# -M: passed on.
	perf flamegraph -i "${workdir}/p.data" --asm --objdump "$d/objdump" \
		-M intel -o "${workdir}/odi.json" 2> /dev/null
	fg_check --data "${workdir}/p.data" --json "${workdir}/odi.json" \
		--dso fgwork --annotate --annotate-objdump "$(command -v objdump)" \
		--annotate-style intel
	test "$(objdump_runs "$d/log" "${workdir}/p.data" fgwork | grep -c -- ' -M intel ')" -eq 1
}

test_data_in_code() {
	echo "Data in code: the instruction at each sample IP, not perf annotate's"
	local d="${workdir}/dic" re

	if [ "$(uname -m)" != x86_64 ]; then
		skip_part "not x86_64"
		return 0
	fi
	mkdir "$d"
	# Not PIE: the objdump addresses are the sample IPs.
	cc -O0 -no-pie -g -o "$d/dic" "${shelldir}/lib/flamegraph_data_in_code.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/d.data" "$d/dic" 2> /dev/null
	perf flamegraph -vv -i "$d/d.data" --asm -o "$d/d.json" 2> "$d/d.err"
	# Each leaf is the instruction objdump decodes from its address.
	fg_check --data "$d/d.data" --json "$d/d.json" --dso dic --objdump-binary "$d/dic"
	# datafn's leaves are at sample IPs; at the hottest, perf annotate,
	# out of step, shows another instruction or none.
	perf script -G -F ip -i "$d/d.data" > "$d/ips" 2> /dev/null
	perf annotate --stdio -i "$d/d.data" datafn > "$d/ann" 2> /dev/null
	python3 - "$d/d.json" "$d/ips" "$d/ann" <<'PY'
import json, re, sys
def walk(n, func=None):
    for c in n["c"]:
        if c["k"] == "insn" and func == "datafn":
            yield c
        yield from walk(c, c["n"] if c["k"] == "func" else func)
leaves = list(walk(json.load(open(sys.argv[1]))))
ips = {int(ip, 16) for ip in open(sys.argv[2]).read().split()}
assert leaves, "no leaf under datafn"
for leaf in leaves:
    assert int(leaf["a"], 16) in ips, (leaf["n"], "not at a sample IP")
ann = {}
for line in open(sys.argv[3]):
    m = re.match(r"^\s*[0-9.]+\s+:\s+([0-9a-f]+):\s+(\S+)", line)
    if m:
        ann[int(m.group(1), 16)] = m.group(2)
hot = max(leaves, key=lambda n: n["v"])
ours = hot["n"].split()[0]
theirs = ann.get(int(hot["a"], 16), "")
assert ann and not (ours == theirs or ours[:-1] == theirs), (hot["n"], theirs)
print("datafn: %d leaves at sample IPs; at the hottest, %r, perf annotate has %r"
      % (len(leaves), hot["n"], theirs or "nothing"))
PY
	# -vv says why it differs from perf annotate, once.
	re="^perf flamegraph: datafn (dic): perf annotate decodes it from its start and "
	re+="finds no instruction at the sample IP 0x[0-9a-f]*; the leaf is the instruction "
	re+="that starts there$"
	test "$(grep -c "${re}" "$d/d.err")" -eq 1
	# objdump, which starts at the first loop and goes out of step over
	# the data, runs again from the second loop: the same leaves.
	perf flamegraph -i "$d/d.data" --asm --objdump objdump -o "$d/o.json" 2> "$d/o.err"
	fg_check --data "$d/d.data" --json "$d/o.json" --dso dic --objdump-binary "$d/dic"
	refute grep -q "Warning: .*dic:" "$d/o.err"
	test "$(leaf_addrs "$d/o.json" dic)" = "$(leaf_addrs "$d/d.json" dic)"
}

# record_no_pie DIR DATA N: DIR/fgwork, the workload built without PIE,
# so that nm's addresses are the callchains', and DIR/DATA, a -g
# recording of its N rounds.
record_no_pie() {
	mkdir "$1"
	cc -O0 -no-pie -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$1/fgwork" "${shelldir}"/lib/flamegraph/*.c
	perf record -q -e cpu-clock -c 100000 -g -o "$1/$2" "$1/fgwork" "$3" 2> /dev/null
}

test_precise() {
	echo "A precise event's callchain that starts in a callee: the sampled function's"
	local d="${workdir}/precise" callee

	# Not PIE: mix()'s address is the one in the callchains.
	record_no_pie "$d" p.data 30
	cp "$d/p.data" "$d/precise.data"
	callee=$(nm "$d/fgwork" | awk '$3 == "mix" { print $1 }')
	python3 "${shelldir}/lib/flamegraph_precise.py" "$d/precise.data" "${callee}"
	perf flamegraph -i "$d/p.data" --asm -o "$d/p.json" 2> /dev/null
	perf flamegraph -i "$d/precise.data" --asm -o "$d/precise.json" 2> /dev/null
	cmp "$d/p.json" "$d/precise.json"
}

test_ranges() {
	echo "A large function with two hot loops 7 kB apart: their instructions"
	local syms

	# Not PIE: the objdump addresses in the JSON are also nm's.
	cc -O0 -no-pie -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "${workdir}/ranges" "${shelldir}/lib/flamegraph_ranges.c"
	perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/ranges.data" \
		"${workdir}/ranges" 200000000 2> /dev/null
	perf flamegraph -i "${workdir}/ranges.data" --asm \
		-o "${workdir}/ranges.json" 2> /dev/null
	# The leaves agree with perf annotate, which decodes it whole.
	fg_check --data "${workdir}/ranges.data" --json "${workdir}/ranges.json" \
		--dso ranges --annotate
	syms=$(nm -S "${workdir}/ranges" | awk '$4 == "two_loops" { print $1, $2 }')
	python3 - "${workdir}/ranges.json" "${syms}" <<'PY'
import json, sys
start, size = (int(x, 16) for x in sys.argv[2].split())
def walk(n, func=None):
    for c in n["c"]:
        if c["k"] == "insn" and func == "two_loops":
            yield int(c["a"], 16) - start
        yield from walk(c, c["n"] if c["k"] == "func" else func)
loops = set(walk(json.load(open(sys.argv[1]))))
# Both loops were sampled, 7 kB apart.
assert loops and min(loops) < 0x100 and max(loops) > size - 0x100, sorted(map(hex, loops))
print("two_loops (%d bytes): %d sampled instructions" % (size, len(loops)))
PY
}

test_srcline() {
	echo "The page's source lines of hundreds of hot instructions: addr2line's"
	local d="${workdir}/srcline" i

	mkdir "$d"
	# One hot loop of 200 statements: hundreds of sampled instructions.
	{
		printf 'unsigned long sink;\n\nint main(void)\n{\n'
		printf '\tunsigned long i, x = 1;\n\n\tfor (i = 0; i < 1000000; i++) {\n'
		for i in $(seq 200); do
			printf '\t\tx = x * %d + i;\n' $((2 * i + 1))
		done
		printf '\t}\n\tsink = x;\n\treturn 0;\n}\n'
	} > "$d/wide.c"
	build_program "$d/wide" "$d/wide.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/w.data" "$d/wide" 2> /dev/null
	perf flamegraph -i "$d/w.data" --asm -o "$d/w.json" 2> /dev/null
	perf flamegraph -i "$d/w.data" --asm -o "$d/w.html" 2> /dev/null
	fg_check --data "$d/w.data" --json "$d/w.json" --html "$d/w.html" \
		--dso wide --binary "$d/wide"
}

test_inline() {
	echo "--inline: an inlined function's frames, named as perf script names them"
	local d="${workdir}/inline"

	mkdir "$d"
	cc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$d/prog" \
		-I"${shelldir}/../../../include" "${shelldir}/lib/flamegraph_inline.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/i.data" "$d/prog" 100 2> /dev/null
	perf flamegraph -i "$d/i.data" --inline -o "$d/i.json" 2> /dev/null
	perf flamegraph -i "$d/i.data" --inline --value samples -o "$d/i.folded" 2> /dev/null
	# Every stack is perf script --inline's, "step (inlined)" included.
	fg_check --data "$d/i.data" --json "$d/i.json" --script-folded "$d/i.folded" \
		--script-inline
	# step() under both of its callers, with no address: its frames
	# have their caller's, which would read as two functions.
	test "$(grep -o ';[^;]*;step (inlined) [0-9]*$' "$d/i.folded" | cut -d';' -f2 |
		sort -u | wc -l)" -eq 2
	refute grep -q 'step (prog+0x' "$d/i.folded"
}

test_kptr_restrict() {
	echo "Kernel samples recorded with kernel.kptr_restrict=2"
	local knob=/proc/sys/kernel/kptr_restrict old

	if [ "$(id -u)" != 0 ] || [ ! -w "${knob}" ]; then
		skip_part "cannot set kernel.kptr_restrict"
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
	# It counts samples, as perf script lists them: those whose IP is
	# a kernel address (no map, so no symbol), not their periods.
	test "$(sed -n 's/^Warning: \([0-9]*\) kernel samples .*/\1/p' "${workdir}/kptr.err")" -eq \
		"$(perf script -i "${workdir}/kptr.data" -F ip -G 2> /dev/null |
		   awk '$1 ~ /^ffff/ { n++ } END { print n + 0 }')"
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

test_disassemblers() {
	echo "annotate.disassemblers: each one's text, as perf annotate shows it"
	local d="${workdir}/dis" dis

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/p.data" "${prog}" 30 2> /dev/null
	# --asm decodes with the disassemblers perf annotate uses, in the
	# order of annotate.disassemblers: with one alone, both show its text.
	for dis in llvm capstone objdump; do
		if ! perf version --build-options | grep -qi "lib${dis}: .*on" &&
		   [ "${dis}" != objdump ]; then
			skip_part "no ${dis} in this perf"
			continue
		fi
		{
			cat "${PERF_CONFIG}"
			printf '[annotate]\n\tdisassemblers = %s\n' "${dis}"
		} > "$d/${dis}.perfconfig"
		PERF_CONFIG="$d/${dis}.perfconfig" perf flamegraph --asm -i "$d/p.data" \
			-o "$d/${dis}.json" 2> /dev/null
		PERF_CONFIG="$d/${dis}.perfconfig" fg_check --data "$d/p.data" \
			--json "$d/${dis}.json" --dso fgwork --annotate
	done
	# The setting took: objdump's text is not LLVM's ("mov -0x10(%rbp),%rax"
	# against "movq -0x10(%rbp), %rax").
	if [ -e "$d/llvm.json" ]; then
		refute cmp -s "$d/llvm.json" "$d/objdump.json"
	fi
}

test_dwarf_callchains() {
	echo "DWARF callchains: the leaves perf annotate shows"
	perf record -q -e cpu-clock -c 100000 --call-graph dwarf,16384 \
		-o "${workdir}/dwarf.data" "${prog}" 100 2> /dev/null
	perf flamegraph -i "${workdir}/dwarf.data" --asm \
		-o "${workdir}/dwarf.json" 2> /dev/null
	fg_check --data "${workdir}/dwarf.data" --json "${workdir}/dwarf.json" \
		--dso fgwork --annotate --same-name spin
}

test_decoded_whole() {
	echo "_init, which perf annotate gives to objdump whole: its samples"
	local d="${workdir}/whole" at nat

	# A failed check fails the part, its output shown.
	set -o pipefail
	# Not PIE: _init's address is the one in the callchains.
	record_no_pie "$d" w.data 20
	# _init runs once, at the start: five samples moved to its second
	# instruction, as objdump decodes it.
	at=$(objdump -d --no-show-raw-insn -j .init "$d/fgwork" |
	     awk '/^ *[0-9a-f]+:/ && ++n == 2 { sub(":", "", $1); print $1; exit }')
	# As perf script counts them: samples that hit it by themselves.
	nat=$(perf script -G -F ip -i "$d/w.data" 2> /dev/null | grep -c "^ *${at}$" || true)
	python3 "${shelldir}/lib/flamegraph_set_ip.py" "$d/w.data" 400000 500000 "${at}" 5
	perf flamegraph -i "$d/w.data" --asm -o "$d/w.json" 2> /dev/null
	fg_check --data "$d/w.data" --json "$d/w.json" --dso fgwork --annotate | tee "$d/check"
	if ! grep -qE "objdump whole: (.*, )?_init(,|$)" "$d/check"; then
		skip_part "LLVM or capstone decodes all of _init, its padding too, here"
		return
	fi
	# The leaves are the instruction at the sample IP, in the first
	# decoder's text: objdump's mnemonic with LLVM's size suffix.
	perf annotate --stdio -i "$d/w.data" -s _init 2> /dev/null > "$d/ann"
	python3 - "$d/w.json" "$d/ann" "${at}" "${nat}" <<'PY'
import json, re, sys
def walk(n, func=None):
    for c in n["c"]:
        if c["k"] == "insn" and func == "_init":
            yield c
        yield from walk(c, c["n"] if c["k"] == "func" else func)
at, nat = int(sys.argv[3], 16), int(sys.argv[4])
# One leaf per stack the moved samples came from.
leaves = [l for l in walk(json.load(open(sys.argv[1]))) if int(l["a"], 16) == at]
assert leaves and sum(l["s"] for l in leaves) == 5 + nat, (nat, leaves)
ann = {int(m.group(1), 16): m.group(2) for m in
       (re.match(r"^\s*[0-9.]+\s+:\s+([0-9a-f]+):\s+(\S+)", l) for l in open(sys.argv[2])) if m}
ours, theirs = leaves[0]["n"].split()[0], ann.get(at)
assert theirs and ours != theirs and ours.rstrip("bwlq") == theirs.rstrip("bwlq"), (ours, theirs)
print("_init+%#x: %d samples; %r here, %r in perf annotate's objdump text"
      % (at - min(ann), 5 + nat, ours, theirs))
PY
}

run_parts test_workload test_intel_syntax test_objdump test_data_in_code \
	test_decoded_whole test_precise test_ranges test_srcline test_inline \
	test_kptr_restrict test_disassemblers test_dwarf_callchains
