#!/bin/bash
# perf flamegraph --asm: a BPF program's instructions (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# A BPF program of the test's own, run by the kernel while the machine is
# sampled: its bpf_prog_* frame's leaves are the instructions perf
# annotate shows of it, with perf's BPF disassembler (libopcodes, on the
# JITed image) where annotate's disassembler is objdump, and with LLVM by
# default. Runs where perf is built with libbfd (make LIBBFD=1): without,
# perf annotate has no BPF disassembler to compare with.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_bpf.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 objdump
perf version --build-options | grep -q 'libbfd: \[ on' ||
	skip "perf is built without libbfd (make LIBBFD=1 builds it with)"

d=${workdir}
cc -O2 -o "$d/bpf" "${shelldir}/lib/flamegraph_bpf.c"
"$d/bpf" 0 2> /dev/null || skip "no BPF programs here (not root, or BPF disabled)"
perf record -q -a -g -e cpu-clock -o "$d/b.data" -- "$d/bpf" 2 2> /dev/null ||
	skip "no system-wide sampling here"
prog=$(perf report -i "$d/b.data" --stdio --sort sym -q 2> /dev/null |
       grep -o 'bpf_prog_[0-9a-f]*_fg_bpf_loop' | head -1)
test -n "${prog}"

test_llvm() {
	echo "By default: LLVM's text of the JITed code, as perf annotate's"
	perf flamegraph -i "$d/b.data" --asm -o "$d/llvm.json" 2> /dev/null
	fg_check --data "$d/b.data" --json "$d/llvm.json" --annotate --dso "${prog}"
	# The loop's multiply by 7, JITed: LLVM's AT&T, with its suffix.
	grep -q "\"n\":\"imulq   \$0x7, %rax, %rax \[0x[0-9a-f]*\]\"" "$d/llvm.json"
}

test_bpf_disassembler() {
	echo "objdump as annotate's disassembler: perf's BPF disassembler, as perf annotate's"
	perf flamegraph -i "$d/b.data" --asm --objdump objdump -o "$d/bfd.json" 2> "$d/bfd.err"
	fg_check --data "$d/b.data" --json "$d/bfd.json" --annotate --annotate-objdump objdump \
		--dso "${prog}"
	# libopcodes' AT&T: objdump's spacing, no suffix.
	grep -q "\"n\":\"imul   \$0x7,%rax,%rax \[0x[0-9a-f]*\]\"" "$d/bfd.json"
	# objdump itself can't read a BPF program: nothing asked it to.
	refute grep -q "${prog}" "$d/bfd.err"
}

run_parts test_llvm test_bpf_disassembler
