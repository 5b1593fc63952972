#!/bin/bash
# perf flamegraph: options added to perf's commands change no command line
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-options.py on the base and the tree perf is built from
# (build/base and build/src beside tools/): in every option table of
# tools/perf that both have (struct option arrays, the argparse parsers
# of scripts/python), each long option a command line of the base could
# spell, whole, abbreviated or negated, must resolve as parse-options (or
# argparse) resolved it there, and each short option too. It prints each
# table the series adds options to, with them and "ok" or what changed.
# Then the check itself, on small trees of its own: it must catch an
# option that takes another's abbreviation or makes one ambiguous.
#
# The check is this repository's, not the kernel's: so is this test.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_options.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
check=${top}/scripts/check-options.py

[ -f "${check}" ] || skip "no scripts/check-options.py beside ${top}/checks"
[ -d "${top}/build/base/tools/perf" ] && [ -d "${top}/build/src/tools/perf" ] ||
	skip "no build/base and build/src beside ${top}/checks"
require python3

test_series() {
	echo "The series' options, build/base against build/src"
	python3 "${check}" "${top}/build/base" "${top}/build/src"
}

# fake_tree DIR OPTION-ENTRIES PARSER-LINES: a tree with one command's
# options (tools/perf/builtin-x.c) and one argparse script.
fake_tree() {
	mkdir -p "$1/tools/perf/scripts/python"
	printf 'static const struct option options[] = {\n%s\n\tOPT_END()\n};\n' "$2" \
		> "$1/tools/perf/builtin-x.c"
	printf 'import argparse\nparser = argparse.ArgumentParser()\n%s\n' "$3" \
		> "$1/tools/perf/scripts/python/x.py"
}

test_check_catches() {
	echo "The check fails on an option that changes an existing command line"
	local d="${workdir}/fake" st=0

	fake_tree "$d/base" '	OPT_BOOLEAN(0, "asm-raw", &raw, "raw"),
	OPT_BOOLEAN(0, "no-children", &nc, "no children"),
	OPT_STRING(0, "symfs", &symfs, "dir", "symfs"),
	OPT_STRING('"'"'k'"'"', "vmlinux", &v, "file", "vmlinux"),' \
		'parser.add_argument("--allow-download", action="store_true")'
	# The same options: nothing to say.
	cp -r "$d/base" "$d/same"
	python3 "${check}" "$d/base" "$d/same" > "$d/out"
	grep -q "0 changed, 0 problems" "$d/out"
	# Options that keep every meaning: a new name, its own negation.
	fake_tree "$d/ok" '	OPT_BOOLEAN(0, "asm-raw", &raw, "raw"),
	OPT_BOOLEAN(0, "no-children", &nc, "no children"),
	OPT_STRING(0, "symfs", &symfs, "dir", "symfs"),
	OPT_STRING('"'"'k'"'"', "vmlinux", &v, "file", "vmlinux"),
	OPT_BOOLEAN(0, "flamegraph-asm", &fa, "leaves"),' \
		'parser.add_argument("--allow-download", action="store_true")
parser.add_argument("--asm", action="store_true")
parser.add_argument("--a", dest="allow_download", action="store_true")'
	python3 "${check}" "$d/base" "$d/ok" > "$d/out"
	grep -q "builtin-x.c options\[\]: +flamegraph-asm: ok" "$d/out"
	grep -q "x.py parser: +asm +a: ok" "$d/out"
	# perf report's --asm of before; "sym", which makes --sym ambiguous;
	# "children", which --children (--no-no-children) meant; -k taken.
	fake_tree "$d/bad" '	OPT_BOOLEAN('"'"'k'"'"', "asm", &fa, "leaves"),
	OPT_BOOLEAN(0, "asm-raw", &raw, "raw"),
	OPT_BOOLEAN(0, "no-children", &nc, "no children"),
	OPT_BOOLEAN(0, "children", &c, "children"),
	OPT_STRING(0, "symfs", &symfs, "dir", "symfs"),
	OPT_STRING(0, "symbols", &sym, "syms", "symbols"),
	OPT_STRING('"'"'k'"'"', "vmlinux", &v, "file", "vmlinux"),' \
		'parser.add_argument("--allow-download", action="store_true")
parser.add_argument("--asm", action="store_true")'
	python3 "${check}" "$d/base" "$d/bad" > "$d/out" || st=$?
	cat "$d/out"
	test "${st}" -eq 1
	grep -q -- "--asm meant --asm-raw, now --asm$" "$d/out"
	grep -q -- "--no-asm meant --no-asm-raw, now --no-asm$" "$d/out"
	grep -q -- " --s --sy --sym meant --symfs, now ambiguous$" "$d/out"
	grep -qF -- "--childre meant --children (--no-children negated), now ambiguous" "$d/out"
	grep -q -- "-k meant --vmlinux, now --asm$" "$d/out"
	grep -q -- "--a meant --allow-download, now ambiguous$" "$d/out"
	grep -q " 10 problems$" "$d/out"
}

run_parts test_series test_check_catches
