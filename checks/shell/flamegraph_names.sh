#!/bin/bash
# perf flamegraph: Rust v0 and MiniDebugInfo names
# SPDX-License-Identifier: GPL-2.0
#
# Function names that take more than a .symtab to get: Rust symbols
# mangled with the v0 scheme, and the static functions of a binary whose
# only symbols are the ones in its MiniDebugInfo (.gnu_debugdata, as
# Fedora ships them).  The frames have the names perf report shows, and
# the instruction leaves under them have their text.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_names.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump

# report_syms DATA DSO: the symbols perf report gives the samples in DSO,
# one a line, sorted.
report_syms() {
	perf report --no-inline --stdio --no-children --sort sym -g none --dsos "$2" \
		-i "$1" 2> /dev/null |
		sed -n 's/^ *[0-9.]*%  \[\.\] \(.*[^ ]\) *$/\1/p' | sort -u
}

# leaf_funcs FOLDED DSO: the frames the instruction leaves of FOLDED (perf
# flamegraph --asm --dsos DSO) hang under, without the " (DSO+0x...)" of
# names shared by two functions, one a line, sorted.
leaf_funcs() {
	awk -F';' -v dso="$2" '{
		f = $(NF - 1)
		sub(" \\(" dso "\\+0x[0-9a-f]+\\)$", "", f)
		print f
	}' "$1" | sort -u
}

test_rust_v0() {
	echo "Rust, v0 mangling: demangled frames, as perf report's, with instruction leaves"
	local d="${workdir}/rust" opts mangled name want

	if ! command -v rustc > /dev/null; then
		skip_part "no rustc"
		return 0
	fi
	mkdir "$d"
	opts="--crate-name spinrs -C opt-level=0 -C force-frame-pointers=yes -g"
	# -C symbol-mangling-version=v0 is stable since Rust 1.59; before it
	# was -Z symbol-mangling-version=v0, for nightly only, which
	# RUSTC_BOOTSTRAP=1 lets a stable rustc take (newer ones reject -Z).
	# shellcheck disable=SC2086
	if ! rustc ${opts} -C symbol-mangling-version=v0 -o "$d/spinrs" \
			"${shelldir}/lib/flamegraph_names.rs" 2> "$d/rustc.err" &&
	   ! RUSTC_BOOTSTRAP=1 rustc ${opts} -Z symbol-mangling-version=v0 \
			-o "$d/spinrs" "${shelldir}/lib/flamegraph_names.rs" \
			2>> "$d/rustc.err"; then
		cat "$d/rustc.err"
		skip_part "rustc builds no v0-mangled binary"
		return 0
	fi
	# The symbol is v0-mangled: "_R...9spin_rust", no "_ZN...E" legacy one.
	mangled=$(nm "$d/spinrs" | awk '$2 ~ /^[tT]$/ && $3 ~ /spin_rust$/ { print $3 }')
	test "$(echo "${mangled}" | wc -w)" -eq 1
	echo "${mangled}" | grep -q "^_R[0-9A-Za-z_]*9spin_rust$"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "$d/spinrs" 200000000 \
		> /dev/null 2>&1
	perf flamegraph --asm --dsos spinrs -i "$d/r.data" -o "$d/r.folded" 2> /dev/null
	perf flamegraph --asm -i "$d/r.data" -o "$d/r.json" 2> /dev/null
	# perf report's name for it: demangled, crate "spinrs" and all.
	report_syms "$d/r.data" spinrs > "$d/report"
	name=$(grep spin_rust "$d/report")
	test "${name}" = "spinrs::spin_rust"
	# The demangler of binutils says the same, but for the crate's hash
	# ("spinrs[6d6c3edb014e7035]::spin_rust"), which perf leaves out.
	want=$(c++filt "${mangled}" | sed 's/\[[0-9a-f]*\]//g')
	case "${want}" in
	_R*)	skip_part "c++filt can't demangle v0 symbols";;
	*)	test "${want}" = "${name}";;
	esac
	# The frame has that name, under the demangled main, and instruction
	# leaves with their text hang under it.
	grep -q "^spinrs;.*;spinrs::main;${name};[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/r.folded"
	# Each function perf report gives samples is a frame over instruction
	# leaves, and no other.
	leaf_funcs "$d/r.folded" spinrs | cmp - "$d/report"
	# No mangled name anywhere, not in the targets of jumps either
	# ("jb 0x15474 <spinrs::spin_rust+0x34>").
	refute grep -q "_R[0-9A-Za-z_]*spin_rust" "$d/r.folded"
	refute grep -q "\[unknown\] (spinrs)" "$d/r.folded"
	fg_check --data "$d/r.data" --json "$d/r.json" --dso spinrs \
		--objdump-binary "$d/spinrs"
}

test_minidebuginfo() {
	echo "MiniDebugInfo: a stripped binary's static functions named from .gnu_debugdata"
	local d="${workdir}/minidebug" k re

	if ! command -v xz > /dev/null || ! command -v objcopy > /dev/null ||
	   ! command -v readelf > /dev/null || ! command -v strip > /dev/null; then
		skip_part "no xz, objcopy, readelf or strip"
		return 0
	fi
	if ! perf version --build-options | grep -q "lzma: \[ on  \]"; then
		skip_part "perf built without lzma: it can't read .gnu_debugdata"
		return 0
	fi
	mkdir -p "$d/keep"
	# A build-id of its own: no copy in the build-id cache names anything.
	build_workload "$d/prog" --own-build-id
	# The full binary, kept where perf does not look for debug files: for
	# nm's symbol ranges.
	cp "$d/prog" "$d/keep/prog.full"
	# Fedora's find-debuginfo add_minidebug: the function symbols that
	# .dynsym lacks, in an ELF file of their own, compressed with xz, in
	# the section .gnu_debugdata of the stripped binary.
	k="$d/keep"
	objcopy --only-keep-debug "$d/prog" "$k/prog.debug"
	nm -D "$d/prog" --format=posix --defined-only | awk '{ print $1 }' | sort > "$k/dynsyms"
	nm "$k/prog.debug" --format=sysv --defined-only |
		awk -F '|' '$4 ~ "FUNC" { sub(/ +$/, "", $1); print $1 }' | sort > "$k/funcsyms"
	comm -13 "$k/dynsyms" "$k/funcsyms" > "$k/keep_symbols"
	objcopy -S --remove-section .gdb_index --remove-section .comment \
		--keep-symbols="$k/keep_symbols" "$k/prog.debug" "$k/mini_debuginfo"
	xz "$k/mini_debuginfo"
	strip --strip-all "$d/prog"
	objcopy --add-section .gnu_debugdata="$k/mini_debuginfo.xz" "$d/prog"
	readelf -SW "$d/prog" > "$k/sections"
	grep -q " \.gnu_debugdata " "$k/sections"
	refute grep -q " \.symtab " "$k/sections"
	# What the section holds: the static functions, mix() among them.
	objcopy --dump-section .gnu_debugdata="$k/dump.xz" "$d/prog" "$k/dump.elf"
	xz -dc "$k/dump.xz" > "$k/mini.elf"
	nm "$k/mini.elf" | grep -q "^[0-9a-f]* t mix$"
	test "$(nm "$k/mini.elf" | grep -c "^[0-9a-f]* t spin$")" -eq 2

	# Without .gnu_debugdata (with a build-id cache of its own: the binary
	# below has the same build-id): [unknown] frames, no names.
	mkdir "$d/bare"
	objcopy --remove-section .gnu_debugdata "$d/prog" "$d/bare/prog"
	(PERF_CONFIG=$(perf_config "$d/bare/cache")
	 export PERF_CONFIG
	 perf record -q -e cpu-clock -c 100000 -g -o "$d/bare/b.data" "$d/bare/prog" 300 \
		2> /dev/null
	 perf flamegraph --asm --dsos prog -i "$d/bare/b.data" -o "$d/bare/b.folded" \
		2> /dev/null)
	re="^prog;__libc_start_call_main;\(\[unknown\] (prog);\)*[a-z][^;]* "
	grep -q "${re}\[0x[0-9a-f]*\] [0-9]*$" "$d/bare/b.folded"
	refute grep -qE ";(main|work|mix|spin[^;]*);" "$d/bare/b.folded"

	perf record -q -e cpu-clock -c 100000 -g -o "$d/m.data" "$d/prog" 300 2> /dev/null
	perf flamegraph --asm --dsos prog -i "$d/m.data" -o "$d/m.folded" 2> /dev/null
	perf flamegraph --asm -i "$d/m.data" -o "$d/m.json" 2> /dev/null
	# Every frame of prog is named, main() and the static ones: mix()
	# hangs under work() with instruction leaves.
	grep -q "^prog;__libc_start_call_main;main;work;mix;[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/m.folded"
	refute grep -q "\[unknown\] (prog)" "$d/m.folded"
	# perf report names them the same: mix and spin (twice, one line),
	# and the frames over instruction leaves are the functions it gives
	# samples.
	report_syms "$d/m.data" prog > "$k/report"
	grep -qx mix "$k/report"
	grep -qx spin "$k/report"
	leaf_funcs "$d/m.folded" prog | cmp - "$k/report"
	# Each leaf lies in the range nm gives its function in the full
	# binary, and is the instruction objdump shows there in the final one.
	fg_check --data "$d/m.data" --json "$d/m.json" --dso prog \
		--binary "$k/prog.full" --objdump-binary "$d/prog"
}

run_parts test_rust_v0 test_minidebuginfo
