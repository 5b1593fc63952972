#!/bin/bash
# perf report --flamegraph and flamegraph.py --asm
# SPDX-License-Identifier: GPL-2.0
#
# The flame graph of perf flamegraph from elsewhere in perf: perf report
# --flamegraph (what the report shows, with its options), and upstream's
# flamegraph.py --asm's instruction leaves (perf_sample_disasm()).

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_report.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3 nm

prog="${workdir}/fgwork"
build_workload "${prog}"

test_report() {
	echo "perf report --flamegraph: what the report shows, same tree as perf flamegraph"
	local d="${workdir}/report" n

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 60 2> /dev/null
	# No filter: sample for sample the same stacks and leaves.
	perf flamegraph -i "$d/r.data" --asm -o "$d/fg.folded" 2> /dev/null
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.folded" --flamegraph-asm \
		2> "$d/rep.err"
	grep -q "^perf report: [0-9]* samples of 'cpu-clock', .* wrote $d/rep.folded$" \
		"$d/rep.err"
	sort "$d/fg.folded" > "$d/a"
	sort "$d/rep.folded" > "$d/b"
	cmp "$d/a" "$d/b"
	# -q: the same graph, nothing said.
	perf report -q --no-inline -i "$d/r.data" --flamegraph="$d/q.folded" --flamegraph-asm \
		2> "$d/q.err"
	cmp "$d/rep.folded" "$d/q.folded"
	refute grep -q "^perf report: " "$d/q.err"
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.json" --flamegraph-asm \
		2> /dev/null
	fg_check --data "$d/r.data" --json "$d/rep.json" --dso fgwork --annotate \
		--same-name spin
	# perf report --sort symoff counts the same samples per instruction.
	perf report --no-inline -i "$d/r.data" --stdio --no-children --sort symoff -g none -n \
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
    leaves[(f["a"], name, int(i["a"], 16) - int(f["a"], 16))] += i["s"]
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
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.mix.folded" --flamegraph-asm \
		-S mix 2> /dev/null
	sort "$d/fg.mix.folded" > "$d/c"
	sort "$d/rep.mix.folded" > "$d/e"
	diff "$d/c" "$d/e"
	grep -q ";mix;" "$d/rep.mix.folded"
	# Every stack ends in mix and an instruction of it.
	refute grep -v ";mix;[^;]*$" "$d/rep.mix.folded"
	# --percent-limit: the sampled functions are those perf report lists.
	perf report --no-inline -i "$d/r.data" --stdio --no-children --sort sym \
		--percent-limit 20 -g none 2> /dev/null |
		sed -n 's/^ *[0-9.]*% *\[[.k]\] //p' | sed 's/ *$//' | sort -u > "$d/listed"
	test -s "$d/listed"
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/rep.pl.folded" --percent-limit 20 \
		--sort sym 2> /dev/null
	awk '{ sub(/ [0-9]+$/, ""); n = split($0, f, ";"); print f[n] }' \
		"$d/rep.pl.folded" | sed 's/ (fgwork+0x[0-9a-f]*)$//' | sort -u > "$d/shown"
	diff "$d/listed" "$d/shown"
	# -g callee: rooted at the sampled functions, as many samples each
	# as perf report gives them.
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/callee.folded" -g callee \
		2> /dev/null
	n=$(awk -F';' '$2 == "mix" { s += $NF } END { printf "%.0f\n", s }' \
		<(sed 's/ \([0-9]*\)$/;\1/' "$d/callee.folded"))
	test "$n" -eq "$(awk '/;mix;/ { s += $NF } END { printf "%.0f\n", s }' "$d/fg.mix.folded")"
	# The page says it is inverted, and which filters made it.
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/callee.html" -g callee \
		--comms fgwork 2> /dev/null
	grep -q '"view":"--comms fgwork: [0-9]* of [0-9]* samples left out; '\
'inverted (-g callee): ' "$d/callee.html"
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/caller.html" 2> /dev/null
	refute grep -q '"view":' "$d/caller.html"
	# --max-stack 2: at most comm and two frames.
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/ms.folded" --max-stack 2 \
		2> /dev/null
	test "$(awk -F';' '{ print NF }' "$d/ms.folded" | sort -n | tail -1)" -le 3
	# Bad combinations and errors: nothing written, a non-zero exit as
	# perf report's errors.
	for t in "--flamegraph-asm" \
			"--flamegraph=$d/x.folded --flamegraph-asm -g callee" \
			"--flamegraph=$d/x.pb.gz" "--flamegraph=$d/x.folded --comm nosuch" \
			"--flamegraph=$d/nosuchdir/x.folded" \
			"--flamegraph=$d/x.folded -i $d/nosuch"; do
		# shellcheck disable=SC2086
		refute perf report --no-inline -i "$d/r.data" $t > /dev/null 2> "$d/err"
		test ! -e "$d/x.folded"
	done
	perf report --no-inline -i "$d/r.data" --flamegraph-asm 2> "$d/err" || true
	grep -q "^--flamegraph-asm: only with --flamegraph$" "$d/err"
	perf report --no-inline -i "$d/r.data" --flamegraph="$d/x.folded" --flamegraph-asm \
		-g callee 2> "$d/err" || true
	test "$(cat "$d/err")" = \
		"--flamegraph-asm: instruction leaves need a caller-based graph (-g caller)"
}

# perf report takes --asm, as the unique prefix it is, for --asm-raw:
# --flamegraph-asm is no option that makes it another's or ambiguous.
test_asm_raw() {
	echo "perf report --asm: --asm-raw, as in perf report without --flamegraph"
	local d="${workdir}/asm-raw" st=0

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/r.data" "${prog}" 10 2> /dev/null
	perf report --no-inline -i "$d/r.data" --asm-raw --stdio > "$d/asm-raw.out" 2> /dev/null
	perf report --no-inline -i "$d/r.data" --asm --stdio > "$d/asm.out" 2> "$d/err" || st=$?
	if [ "${st}" -ne 0 ]; then
		echo "perf report --asm --stdio: exit ${st}: $(head -1 "$d/err")"
		return 1
	fi
	grep -q "^ *[0-9.]*%" "$d/asm.out"
	cmp "$d/asm-raw.out" "$d/asm.out"
}

test_flamegraph_py() {
	echo "perf script report flamegraph --asm: perf flamegraph --asm's leaves"
	local d="${workdir}/fgpy" perfdir script

	# Where perf script finds its scripts: this tree's, if perf is not
	# installed with them.
	perfdir=$(cd "${shelldir}/../.." && pwd)
	script="${perfdir}/scripts/python/flamegraph.py"
	[ -x "${perfdir}/scripts/python/bin/flamegraph-report" ] &&
		export PERF_EXEC_PATH="${perfdir}"
	if ! perf version --build-options | grep -q 'libpython: .*on'; then
		skip_part "perf without python"
		return 0
	fi
	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	# -o: without it perf record writes to a stdout that is a pipe.
	(cd "$d" && perf record -q -e cpu-clock -g -o perf.data ./prog 30 2> /dev/null)
	# Rebuilt since: both must take the recorded one from the cache.
	cc -O0 -g -o "$d/prog" "${shelldir}"/lib/flamegraph/*.c
	perf flamegraph -i "$d/perf.data" --asm --value samples --format folded \
		-o "$d/fg.folded" 2> /dev/null
	# perf flamegraph shows inlined functions with --inline only.
	(cd "$d" && perf script --no-inline -s "${script}" -- --asm -f json -o py.json \
		> /dev/null 2> py.err) || { cat "$d/py.err"; return 1; }
	# perf script report runs it with inlined functions, which take the
	# leaves of the function they are inlined into.
	(cd "$d" && perf script report flamegraph --asm -f json -o inl.json \
		> /dev/null 2>&1)
	# annotate.disassemblers without an in-process one: addresses only.
	printf '[annotate]\n\tdisassemblers = objdump\n' > "$d/objdump.config"
	(cd "$d" && PERF_CONFIG=objdump.config perf script --no-inline -s "${script}" \
		-- --asm -f json -o od.json > /dev/null 2> od.err)
	grep '^Warning: --asm: ' "$d/od.err" > "$d/od.warn" || true
	python3 - "$d" <<'PY'
import collections, json, re, sys
d = sys.argv[1]
def leaves(path, fn=True):
    out = collections.Counter()
    def walk(n, parent):
        if not n['c']:
            out[(parent if fn else '', n['n'])] += n['v']
        for c in n['c']:
            walk(c, n['n'])
    walk(json.load(open(f'{d}/{path}')), '')
    return out
# perf flamegraph's function frames and leaves, a function's name
# without the DSO and address that tell two of one name apart.
fg = collections.Counter()
for line in open(f'{d}/fg.folded'):
    stack, count = line.rstrip('\n').rsplit(' ', 1)
    frames = stack.split(';')
    fg[(re.sub(r' \([^()]*\+0x[0-9a-f]+\)$', '', frames[-2]), frames[-1])] += int(count)
py = leaves('py.json')
assert py == fg, sorted(set(py.items()) ^ set(fg.items()))
# The heaviest leaf of spin(), decoded (the kernel's, with no vmlinux
# here, are addresses, and may weigh more).
heaviest = max((k for k in fg if k[0] == 'spin'), key=lambda k: fg[k])
assert not heaviest[1].startswith('['), heaviest
inl = leaves('inl.json', fn=False)
assert inl == collections.Counter({('', l): v for (_, l), v in fg.items()}), 'inlined'
od = leaves('od.json', fn=False)
want = collections.Counter()
for (_, l), v in fg.items():
    want[('', re.sub(r'^.* (\[0x[0-9a-f]+\])$', r'\1', l))] += v
assert od == want, sorted(set(od.items()) ^ set(want.items()))
# One warning, with as many distinct instructions and samples as there
# are address leaves (an address is under one function), prog's among
# its DSOs.
warn = open(f'{d}/od.warn').read().splitlines()
assert len(warn) == 1, warn
m = re.match(r'Warning: --asm: (\d+) distinct sampled instructions \((\d+) samples\) '
             r'shown as addresses: (.*); ', warn[0])
assert m, warn
assert (int(m[1]), int(m[2])) == (len(leaves('od.json')), sum(od.values())), warn
assert re.search(r'(^|, )\S*/prog \d+ \(\d+ samples\)', m[3]), warn
print(f'{sum(fg.values())} samples, {len(fg)} leaves as perf flamegraph --asm; '
      f'heaviest {heaviest}')
PY
}

test_hybrid() {
	echo "A hybrid machine's cycles, opened once per core type: one event"
	local d="${workdir}/hybrid" e sum='
		{ i = match($0, / [0-9]+$/); s[substr($0, 1, i - 1)] += substr($0, i + 1) }
		END { for (k in s) print k " " s[k] }' same_name='s/ ([^();]*+0x[0-9a-f]*)//g'

	mkdir "$d"
	perf record -q -e cpu-clock,cpu-clock -c 100000 -g -o "$d/h.data" \
		"${prog}" 30 2> /dev/null
	python3 "${shelldir}/lib/flamegraph_hybrid.py" "$d/h.data"
	test "$(perf report --no-inline -i "$d/h.data" --stdio 2> /dev/null |
		grep -c "of event 'cpu_\(core\|atom\)/cycles/'")" -eq 2
	# One graph of both instances, named as perf stat names the event;
	# each instance alone is perf report's, and the graph their sum,
	# stack for stack.
	perf flamegraph -i "$d/h.data" -o "$d/h.folded" 2> "$d/err"
	grep -q "samples of 'cycles', .*wrote" "$d/err"
	refute grep -q "other events" "$d/err"
	perf flamegraph -i "$d/h.data" -e cycles -o "$d/c.folded" 2> /dev/null
	cmp "$d/h.folded" "$d/c.folded"
	for e in cpu_core/cycles/ cpu_atom/cycles/; do
		perf flamegraph -i "$d/h.data" -e "$e" -o "$d/one.json" 2> /dev/null
		fg_check --data "$d/h.data" --json "$d/one.json" --dso fgwork \
			--event "$e" --report-periods
		perf flamegraph -i "$d/h.data" -e "$e" -o "$d/one.folded" 2> /dev/null
		cat "$d/one.folded" >> "$d/both.folded"
	done
	# A frame's name has its DSO and offset when a function of the
	# same name is beside it in that graph (ld.so's _start and the
	# program's), which one instance's samples may not have: without.
	diff <(sed "${same_name}" "$d/both.folded" | awk "${sum}" | sort) \
		<(sed "${same_name}" "$d/h.folded" | awk "${sum}" | sort)
	perf flamegraph -i "$d/h.data" --asm -o "$d/h.json" 2> /dev/null
	grep -q '^{"n":"all",[^{]*"event":"cycles"' "$d/h.json"
	# The core type, when asked for: one graph per instance.
	perf flamegraph -i "$d/h.data" -e cpu_core/cycles/,cpu_atom/cycles/ \
		-o "$d/two.folded" 2> /dev/null
	test "$(cut -d';' -f1 "$d/two.folded" | sort -u | tr '\n' ' ')" = \
		"cpu_atom/cycles/ cpu_core/cycles/ "
}

run_parts test_report test_asm_raw test_hybrid test_flamegraph_py
