#!/bin/bash
# perf flamegraph --asm: capstone's gaps, perf itself, system programs, exec
# SPDX-License-Identifier: GPL-2.0
#
# More instruction leaves of perf flamegraph --asm: code capstone can't
# decode gets objdump's text, in one objdump per binary; perf itself and
# a system program (python3) have perf annotate's text; a program that
# execs another one at the same addresses has each one's instructions.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_attribution_more.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump

test_capstone_fallback() {
	echo "Code capstone can't decode: objdump's text for it, capstone's for the rest"
	local d="${workdir}/evex" run=run runs

	mkdir "$d"
	cc -O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-o "$d/evex" "${shelldir}/lib/flamegraph_evex.c"
	# evex_run() runs AVX-512 instructions, where the CPU has them.
	if ! "$d/evex" 0 run; then
		skip_part "no AVX-512 here: no sample of an instruction capstone can't decode"
		run=
	fi
	perf record -q -e cpu-clock -c 100000 -g -o "$d/e.data" \
		"$d/evex" 100000000 ${run} 2> /dev/null
	perf annotate -v --stdio -i "$d/e.data" evex_a > /dev/null 2> "$d/ann.err"
	if ! grep -q "^Executing: .*objdump" "$d/ann.err"; then
		skip_part "perf's capstone reads AVX-512 here"
		return 0
	fi
	# The objdump perf finds in $PATH: one that says how it was run.
	objdump_logger "$d/bin"
	PATH="$d/bin:$PATH" perf flamegraph -i "$d/e.data" --asm -o "$d/e.json" 2> /dev/null
	# perf annotate decodes evex_a and evex_b with objdump, perf
	# flamegraph their instructions with capstone, the others with
	# objdump: the samples of perf annotate at each address, and objdump's
	# instruction there, in objdump's very words where capstone can't.
	# shellcheck disable=SC2086
	fg_check --data "$d/e.data" --json "$d/e.json" --dso evex --annotate \
		--annotate-counts --objdump-binary "$d/evex" \
		${run:+--objdump-exact '^vptestmb$'}
	runs=$(objdump_runs "$d/bin/log" "$d/e.data" evex || true)
	if [ -z "${run}" ]; then
		test -z "${runs}"
		return 0
	fi
	# One objdump, over evex_run's instructions alone, as perf annotate
	# runs it (reading a debug file's symbols too).
	test "$(echo "${runs}" | wc -l)" -eq 1
	echo "${runs}" | grep -q -- "--dwarf=follow-links "
	check_objdump_run "${runs}" "$(leaf_addrs "$d/e.json" evex vptestmb)"
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
	grep -q "^perf-noploop;noploop;[a-z].* \[0x[0-9a-f]*\] [0-9]*$" "${workdir}/nop.folded"
}

test_system_program() {
	echo "A program from the system: python3"
	local py=/usr/bin/python3 lib path

	test -x $py || py=$(command -v python3)
	perf record -q -e cpu-clock -g -o "${workdir}/py.data" \
		$py -c 's = 0
for i in range(2000000):
	s += i * i % 7' 2> /dev/null
	perf flamegraph -i "${workdir}/py.data" --asm -o "${workdir}/py.json" \
		2> /dev/null
	# The user-space DSO with the most instruction leaves.
	lib=$(python3 -c "import collections, json, sys
def w(n):
	yield n
	for c in n['c']:
		yield from w(c)
ds = collections.Counter(n['d'] for n in w(json.load(open(sys.argv[1])))
			 if n['k'] == 'insn' and n['l'] != 'kernel')
print(ds.most_common(1)[0][0])" "${workdir}/py.json")
	path=$(perf buildid-list -i "${workdir}/py.data" 2> /dev/null |
	       awk -v d="/${lib}" 'substr($2, length($2) - length(d) + 1) == d { print $2 }')
	echo "most sampled DSO: ${path}"
	fg_check --data "${workdir}/py.data" --json "${workdir}/py.json" \
		--dso "${lib}" --annotate --objdump-binary "${path}"
}

test_exec() {
	echo "exec into a binary with the same addresses: each keeps its samples"
	local d="${workdir}/exec" f

	mkdir "$d"
	for f in alpha beta; do
		cc -O0 -no-pie -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
			-DSPIN="$f" -o "$d/$f" "${shelldir}/lib/flamegraph_exec.c"
	done
	# The same address for both loops, or this proves nothing.
	test "$(nm "$d/alpha" | awk '$3 == "alpha" { print $1 }')" = \
	     "$(nm "$d/beta" | awk '$3 == "beta" { print $1 }')"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/exec.data" \
		"$d/alpha" "$d/beta" 2> /dev/null
	perf flamegraph -i "$d/exec.data" --format folded --value samples \
		-o "$d/exec.folded" 2> /dev/null
	perf report -i "$d/exec.data" --stdio -g none --no-children \
		--sort comm,sym -F sample,comm,sym > "$d/exec.report" 2> /dev/null
	python3 - "$d/exec.folded" "$d/exec.report" <<'PY'
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

run_parts test_capstone_fallback test_annotate_perf_itself \
	test_system_program test_exec
