#!/bin/bash
# perf flamegraph --asm: each hot function's whole code, in context (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# A program whose work() has a hot loop and two callers, one of which
# calls it from a hot and a cold site (lib/flamegraph_context.c). The
# functions table of the JSON has each function's whole code (objdump's
# instructions of its symbol), its samples in all contexts as perf
# annotate counts them, each frame's own leaves and call sites as perf
# script counts them for that stack, and the source lines addr2line
# gives, with the file's text, for perf flamegraph and perf report
# --flamegraph alike; --annotate-functions limits the table; a
# source changed since the build, or code perf can't read (the kernel's
# without vmlinux or kcore), is said, not shown. With --call-graph dwarf
# the call sites are the calls, as with -g; in a recursive fib() a call
# counts a sample once, however many of its frames made it.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_context.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm objdump addr2line

# The program is built from a copy of its source, which the test changes.
src="${workdir}/src/flamegraph_context.c"
mkdir -p "${workdir}/src"
cp "${shelldir}/lib/flamegraph_context.c" "${src}"
touch -d '-1 hour' "${src}"
build_program "${workdir}/ctx" "${src}"
perf record -q -e cpu-clock -c 100000 -g -o "${workdir}/p.data" \
	"${workdir}/ctx" 2> /dev/null

ctx_check() {
	python3 "${shelldir}/lib/flamegraph_context.py" --perf perf \
		--data "${workdir}/p.data" --binary "${workdir}/ctx" "$@"
}

test_context() {
	echo "The whole code, all contexts as perf annotate, each frame's as perf script"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/fg.json"
	ctx_check --json "${workdir}/fg.json" --source "${src}"
}

test_report() {
	echo "perf report --flamegraph-asm: the same table, the same checks"
	perf report -q -i "${workdir}/p.data" --flamegraph="${workdir}/report.json" \
		--flamegraph-asm > /dev/null 2>&1
	ctx_check --json "${workdir}/report.json" --source "${src}"
}

test_page() {
	echo "The page carries the JSON's functions and sources"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/fg.json"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/fg.html"
	python3 - "${shelldir}/lib" "${workdir}/fg.json" "${workdir}/fg.html" <<'EOF'
import json, re, sys
sys.path.insert(0, sys.argv[1])
from flamegraph_check import page_functions
tree = json.load(open(sys.argv[2]))
page = open(sys.argv[3]).read()
data = json.loads(re.search(r'id="fg-data">(.*?)</script>', page, re.S).group(1))
if data["sources"] != tree["sources"] or page_functions(data) != tree["functions"]:
    sys.exit("the page's functions or sources differ from the JSON's")
print(f"page: {len(data['functions'])} functions, {len(data['sources'])} sources, as the JSON's")
EOF
}

test_limit() {
	echo "--annotate-functions=1: the hottest alone; 0 and no --asm: no table"
	perf flamegraph -q -i "${workdir}/p.data" --asm --annotate-functions=1 \
		-o "${workdir}/one.json"
	ctx_check --json "${workdir}/one.json" --max 1
	# The one is the first, the hottest, of the whole table; which
	# function that is, the recording says.
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/all.json"
	python3 - "${workdir}/one.json" "${workdir}/all.json" <<'EOF'
import json, sys
one, full = (json.load(open(f))['functions'] for f in sys.argv[1:])
# Name, DSO, build-id, address and weights; "i" indexes the sources.
def key(f):
    return {k: v for k, v in f.items() if k != 'i'}
if len(one) != 1 or key(one[0]) != key(full[0]):
    sys.exit(f"--annotate-functions=1: {[f['n'] for f in one]}, not {full[0]['n']}")
if any(f['v'] > full[0]['v'] for f in full):
    sys.exit(f"{full[0]['n']} ({full[0]['v']}) is not the hottest of the table")
EOF
	perf flamegraph -q -i "${workdir}/p.data" --asm --annotate-functions=0 \
		-o "${workdir}/none.json"
	perf flamegraph -q -i "${workdir}/p.data" -o "${workdir}/plain.json"
	refute grep -q '"functions"' "${workdir}/none.json" "${workdir}/plain.json"
	refute grep -q '"F":' "${workdir}/none.json" "${workdir}/plain.json"
}

test_stale_source() {
	echo "A source newer than the binary, or shorter than its lines: not interleaved"
	touch -d '+1 hour' "${src}"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/newer.json"
	ctx_check --json "${workdir}/newer.json" --source "${src}" \
		--stale "changed since the binary was built"
	head -n 10 "${workdir}/src/flamegraph_context.c" > "${src}.tmp"
	mv "${src}.tmp" "${src}"
	touch -d '-1 hour' "${src}"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "${workdir}/shorter.json"
	ctx_check --json "${workdir}/shorter.json" --source "${src}" --stale "no line"
	cp "${shelldir}/lib/flamegraph_context.c" "${src}"
	touch -d '-1 hour' "${src}"
}

test_no_code() {
	echo "Kernel functions without vmlinux or kcore: each says why it has no code"
	local d="${workdir}/kernel"

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/p.data" \
		dd if=/dev/zero of=/dev/null bs=64k count=100000 2> /dev/null
	perf flamegraph -i "$d/p.data" --asm --ignore-vmlinux -o "$d/fg.json" 2> "$d/stderr"
	python3 - "$d/fg.json" <<'EOF' || { [ $? -eq 2 ] && skip_part "no kernel symbols"; }
import json, sys
fns = [f for f in json.load(open(sys.argv[1]))["functions"] if f["d"] == "[kernel.kallsyms]"]
if not fns:
    sys.exit(2)
for f in fns:
    if f["i"] or "no vmlinux or kcore" not in f.get("why", ""):
        sys.exit(f"{f['n']}: {len(f['i'])} instructions, why {f.get('why')!r}")
print(f"{len(fns)} kernel functions: {fns[0]['why']}")
EOF
	[ -s "${workdir}/skipped" ] && return 0
	test "$(grep -c "no vmlinux or kcore" "$d/stderr")" -eq 1
}

test_dwarf() {
	echo "--call-graph dwarf: the call sites are the calls, as with -g"
	local d="${workdir}/dwarf"

	mkdir "$d"
	perf record -q -e cpu-clock -c 250000 --call-graph dwarf,4096 -o "$d/p.data" \
		"${workdir}/ctx" 2> /dev/null
	perf flamegraph -q -i "$d/p.data" --asm -o "$d/fg.json"
	perf flamegraph -q -i "${workdir}/p.data" --asm -o "$d/fp.json"
	ctx_check --data "$d/p.data" --json "$d/fg.json" --dwarf \
		--fp-data "${workdir}/p.data" --fp-json "$d/fp.json"
}

test_recursion() {
	echo "A recursive fib(): a sample passes a call once, however deep"
	local d="${workdir}/fib"

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/p.data" \
		"${workdir}/ctx" 4000 fib 2> /dev/null
	perf flamegraph -q -i "$d/p.data" --asm -o "$d/fg.json"
	ctx_check --data "$d/p.data" --json "$d/fg.json" --recursion
}

run_parts test_context test_report test_page test_limit test_stale_source test_no_code test_dwarf \
	test_recursion
