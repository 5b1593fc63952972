#!/bin/bash
# perf flamegraph --format pprof, read by pprof
# SPDX-License-Identifier: GPL-2.0
#
# The pprof profiles perf flamegraph writes, checked with the real
# consumer: Google's pprof ($PPROF, else pprof in $PATH). Its reading
# of them against perf's own: perf buildid-list, perf script's sample
# IPs, perf annotate's per-address counts, perf flamegraph's folded
# stacks.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_pprof.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

pprof=${PPROF:-pprof}
require cc c++ python3 "${pprof}"

prog="${workdir}/prog"
data="${workdir}/p.data"
build_workload "${prog}"
perf record -q -e cpu-clock -c 100000 -g -o "${data}" "${prog}" 300 2> /dev/null
perf flamegraph -i "${data}" -o "${workdir}/p.pb.gz" 2> /dev/null

test_profile() {
	echo "Mappings with their build-ids, sample types, period, labels"
	local d="${workdir}"

	# gzip, as pprof writes its own; perf data convert's is the same.
	gzip -t "$d/p.pb.gz"
	perf data convert -i "${data}" --to-pprof "$d/c.pb.gz" 2> /dev/null
	cmp "$d/p.pb.gz" "$d/c.pb.gz"
	"${pprof}" -raw "$d/p.pb.gz" > "$d/raw" 2> /dev/null
	perf buildid-list -i "${data}" --with-hits 2> /dev/null > "$d/bids"
	perf script -i "${data}" -F comm,pid,tid,period 2> /dev/null > "$d/script"
	# --cpu-label, of a recording with the cpu of each sample.
	perf record -q -e cpu-clock -c 100000 -g --sample-cpu -o "$d/cpu.data" "${prog}" 100 \
		2> /dev/null
	perf flamegraph -i "$d/cpu.data" --cpu-label -o "$d/cpu.pb.gz" 2> /dev/null
	# An empty --cpu list is no list (it crashed perf's session).
	refute perf flamegraph -i "$d/cpu.data" -C '' -o "$d/none.pb.gz" 2> "$d/err"
	test "$(cat "$d/err")" = "Invalid cpu_list"
	test ! -e "$d/none.pb.gz"
	"${pprof}" -raw "$d/cpu.pb.gz" > "$d/cpu.raw" 2> /dev/null
	perf script -i "$d/cpu.data" -F comm,pid,tid,cpu,period 2> /dev/null > "$d/cpu.script"
	python3 - "$d" "${prog}" <<'PY'
import re, sys
d, prog = sys.argv[1:]
# pprof -raw's samples: {(comm, pid, tid[, cpu]): (samples, periods)}.
def samples(raw, cpu):
    got = {}
    body = raw.split('\nSamples:\n')[1].split('\nLocations')[0]
    for block in re.split(r'\n(?=\s+\d+\s+\d+: )', body.split('\n', 1)[1]):
        m = re.match(r'\s+(\d+)\s+(\d+):', block)
        labels = {k: v.split(' ')[0] for k, v in re.findall(r'(\w+):\[([^\]]*)\]', block)}
        k = (labels['comm'], int(labels['pid']), int(labels['tid']))
        k += (int(labels['cpu']),) if cpu else ()
        n, p = got.get(k, (0, 0))
        got[k] = (n + int(m.group(2)), p + int(m.group(1)))
    return got
def script(name, cpu):
    want = {}
    for line in open(f'{d}/{name}'):
        m = re.match(r'^\s*(.*?)\s+(\d+)/(\d+)\s+' + (r'\[(\d+)\]\s+' if cpu else '') +
                     r'(\d+)\s*$', line)
        k = (m.group(1), int(m.group(2)), int(m.group(3)))
        k += (int(m.group(4)),) if cpu else ()
        n, p = want.get(k, (0, 0))
        want[k] = (n + 1, p + int(m.group(m.lastindex)))
    return want
got, want = samples(open(f'{d}/cpu.raw').read(), True), script('cpu.script', True)
assert got == want, (got, want)
raw = open(f'{d}/raw').read()
mappings = re.findall(r'^\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S+) ([0-9a-f]*)', raw, re.M)
# Every DSO with samples, with its build-id, as perf buildid-list says.
for line in open(f'{d}/bids'):
    if len(line.split()) == 1:
        # The vDSO, which perf buildid-list lists even without samples,
        # by perf's copy of it when the header has no build-id of it.
        assert '/perf-vdso.so-' in line, line
        continue
    bid, path = line.split(None, 1)
    path = path.strip()
    if path.startswith('[kernel.kallsyms]'):
        path = '[kernel.kallsyms]'
    assert (path, bid) in mappings, (path, bid, mappings)
# The first is the main binary to pprof ("File:"): the recorded command's.
assert mappings[0][0] == prog, mappings
assert 'cpu-clock/nanoseconds[dflt] samples/count' in raw, raw[:2000]
assert re.search(r'^PeriodType: cpu-clock nanoseconds$', raw, re.M), raw[:500]
assert re.search(r'^Period: 100000$', raw, re.M), raw[:500]
# perf record's command line, as typed.
assert re.search(r'^Comment: cmdline: \S+ record -q -e cpu-clock -c 100000 -g -o ' +
                 re.escape(f'{d}/p.data {prog} 300') + '$', raw, re.M), raw[:500]
# Per comm, pid and tid: the samples and periods of perf script.
got, want = samples(raw, False), script('script', False)
assert got and got == want, (got, want)
PY
}

# The address of each leaf: the sample IP, as perf script has it; per
# instruction, perf annotate's counts and perf flamegraph --asm's.
test_addresses() {
	echo "Leaves at the sample IPs: perf script's, perf annotate's, --asm's counts"
	local d="${workdir}" sym

	"${pprof}" -top -addresses -sample_index=samples -nodecount=1000000 -nodefraction=0 \
		-symbolize=none "$d/p.pb.gz" > "$d/top" 2> /dev/null
	"${pprof}" -raw "$d/p.pb.gz" > "$d/raw" 2> /dev/null
	perf script -i "${data}" -G -F ip 2> /dev/null > "$d/ips"
	perf flamegraph --asm -i "${data}" --value samples -o "$d/asm.json" 2> /dev/null
	perf flamegraph -i "${data}" --no-srcline -o "$d/n.pb.gz" 2> /dev/null
	"${pprof}" -raw "$d/n.pb.gz" > "$d/n.raw" 2> /dev/null
	for sym in mix work; do
		perf annotate -i "${data}" --stdio -n --no-source -s "${sym}" 2> /dev/null \
			> "$d/annotate.${sym}"
	done
	python3 - "$d" "${prog}" <<'PY'
import json, re, sys
d, prog = sys.argv[1:]
top, lines = {}, False
for line in open(f'{d}/top'):
    m = re.match(r'^\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+([0-9a-f]{8,})\s+(\S+)', line)
    # An address with inlined functions has a row each, its samples on
    # the innermost's.
    if m:
        a = int(m.group(2), 16)
        n, f = top.get(a, (0, m.group(3)))
        top[a] = (n + int(m.group(1)), f)
ips = {}
for line in open(f'{d}/ips'):
    ip = int(line, 16)
    ips[ip] = ips.get(ip, 0) + 1
# pprof's flat per address is the samples whose sample IP it is.
flat = {a: n for a, (n, _) in top.items() if n}
assert flat == ips, sorted(set(flat.items()) ^ set(ips.items()))[:10]
# To objdump's addresses: the prog mapping's start and file offset.
raw = open(f'{d}/raw').read()
m = re.search(r'^\d+: 0x([0-9a-f]+)/0x[0-9a-f]+/0x([0-9a-f]+) ' + re.escape(prog) + ' ', raw, re.M)
start, offset = int(m.group(1), 16), int(m.group(2), 16)
for sym in ('mix', 'work'):
    ann = {}
    for line in open(f'{d}/annotate.{sym}'):
        a = re.match(r'^\s*(\d+)\s*:\s*([0-9a-f]+):', line)
        if a and int(a.group(1)):
            ann[int(a.group(2), 16)] = int(a.group(1))
    got = {a - start + offset: n for a, (n, f) in top.items() if f == sym and n}
    # work() calls, and is seldom sampled itself: mix() always is.
    assert got == ann and (ann or sym == 'work'), (sym, got, ann)
# Source lines: the hottest locations', addr2line's (perf's srcline code's);
# none with --no-srcline.
import subprocess
for line in open(f'{d}/top'):
    m = re.match(r'^.*\s([0-9a-f]{8,}) mix (\S+):(\d+)$', line.rstrip())
    if m:
        a = int(m.group(1), 16) - start + offset
        want = subprocess.run(['addr2line', '-e', prog, hex(a)], capture_output=True,
                              text=True).stdout.split(' (discriminator')[0].strip()
        assert want == f'{m.group(2)}:{m.group(3)}', (hex(a), want, line)
        lines = True
assert lines
assert '[LN]' in raw and '[LN]' not in open(f'{d}/n.raw').read()
# perf flamegraph --asm's leaves, summed per function and address.
leaves = {}
def walk(n, parent):
    if n['k'] == 'insn' and n.get('d') == prog.rsplit('/', 1)[1]:
        k = (parent, int(n['a'], 16))
        leaves[k] = leaves.get(k, 0) + n['s']
    for c in n['c']:
        walk(c, n['n'])
walk(json.load(open(f'{d}/asm.json')), '')
got = {}
for a, (n, f) in top.items():
    if n and start <= a < start + 0x100000 and f in ('mix', 'work', 'main'):
        got[(f, a - start + offset)] = n
want = {k: v for k, v in leaves.items() if k[0] in ('mix', 'work', 'main')}
assert got and got == want, sorted(set(got.items()) ^ set(want.items()))[:10]
PY
}

# pprof -traces' stacks, frame for frame, are the folded output's.
test_traces() {
	echo "pprof -traces: the stacks of perf flamegraph's folded output"
	local d="${workdir}"

	# Without source lines, so without the frames inlined at the hottest
	# locations, which the folded output has only with --inline.
	perf flamegraph -i "${data}" --no-srcline -o "$d/t.pb.gz" 2> /dev/null
	"${pprof}" -traces -sample_index=samples -symbolize=none "$d/t.pb.gz" > "$d/traces" \
		2> /dev/null
	perf flamegraph -i "${data}" --value samples -o "$d/p.folded" 2> /dev/null
	python3 - "$d" <<'PY'
import re, sys
d = sys.argv[1]
def name(f):
    # Two functions of one name are one to pprof, which names them alike.
    f = re.sub(r' \([^()]*\+0x[0-9a-f]+\)$', '', f)
    # No symbol: perf's "[unknown]" or "[unknown] (<dso>)"; pprof's
    # "[<mapping>]" or "<unknown>".
    return '?' if re.fullmatch(r'\[.*\]( \(.*\))?|<unknown>', f) else f
want = {}
for line in open(f'{d}/p.folded'):
    stack, n = line.rsplit(' ', 1)
    frames = [name(f) for f in stack.split(';') if f != '[truncated]']
    k = tuple(frames)
    want[k] = want.get(k, 0) + int(n)
got = {}
for block in open(f'{d}/traces').read().split('-----------+-')[1:-1]:
    lines = block.split('\n')[1:]
    comm = re.match(r'^\s+comm:\s+(.*)$', lines[0]).group(1)
    m = re.match(r'^\s+(\d+)\s+(.*)$', lines[3])
    frames = [m.group(2)] + [l.strip() for l in lines[4:] if l.strip()]
    k = tuple([comm] + [name(f) for f in reversed(frames)])
    got[k] = got.get(k, 0) + int(m.group(1))
assert got == want, sorted(set(got.items()) ^ set(want.items()))[:6]
PY
}

# Built with -O2, main() inlines work(), which inlines mix(): their hot
# locations have a Line per function, innermost first, as addr2line -i.
test_inline() {
	echo "Inlined functions: a Line each, innermost first, as addr2line -i"
	local d="${workdir}" lib="${shelldir}/lib/flamegraph"

	cc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "$d/o2" \
		"$lib"/main.c "$lib"/one.c "$lib"/two.c
	perf record -q -e cpu-clock -c 100000 -g -o "$d/o2.data" "$d/o2" 300 2> /dev/null
	perf flamegraph -i "$d/o2.data" -o "$d/o2.pb.gz" 2> /dev/null
	"${pprof}" -raw "$d/o2.pb.gz" > "$d/o2.raw" 2> /dev/null
	python3 - "$d" <<'PY'
import re, subprocess, sys
d = sys.argv[1]
raw = open(f'{d}/o2.raw').read()
m = re.search(r'^\d+: 0x([0-9a-f]+)/0x[0-9a-f]+/0x([0-9a-f]+) ' + re.escape(f'{d}/o2') +
              r' .*\[IN\]', raw, re.M)
assert m, raw[raw.index('Mappings'):]
start, offset = int(m.group(1), 16), int(m.group(2), 16)
# Each location: its address and Lines, "function file:line".
locs = re.findall(r'^\s+\d+: 0x([0-9a-f]+) M=\d+ (.*(?:\n\s{13}\S.*)*)', raw, re.M)
checked = 0
for addr, lines in locs:
    lines = [l.strip().rsplit(' s=', 1)[0] for l in lines.split('\n')]
    if len(lines) < 2 or not lines[0].startswith('mix '):
        continue
    a = int(addr, 16) - start + offset
    out = subprocess.run(['addr2line', '-i', '-f', '-e', f'{d}/o2', hex(a)],
                         capture_output=True, text=True).stdout.split('\n')
    want = [(out[i], out[i + 1].split(' (discriminator')[0]) for i in range(0, len(out) - 1, 2)]
    got = [tuple(l.split(' ', 1)) for l in lines]
    assert [f for f, _ in got] == [f for f, _ in want] == ['mix', 'work', 'main'], (got, want)
    for (f, fl), (_, wl) in zip(got, want):
        assert fl.split(':')[-1] == wl.split(':')[-1] and \
               fl.rsplit('/', 1)[-1].split(':')[0] == wl.rsplit('/', 1)[-1].split(':')[0], \
               (got, want)
    checked += 1
assert checked, 'no location of mix() with its inlining functions'
PY
}

# pprof -disasm finds a binary rebuilt since the recording through perf's
# build-id cache: the recorded code, with perf annotate's counts.
test_disasm() {
	echo "pprof -disasm after a rebuild: perf's build-id cache, the recorded code"
	local d="${workdir}/disasm" lib="${shelldir}/lib/flamegraph" path

	mkdir "$d"
	build_workload "$d/prog"
	# User space alone: -show gives mix() the samples of the kernel code
	# it was interrupted in, which perf annotate leaves out.
	perf record -q -e cpu-clock:u -c 100000 -g -o "$d/p.data" "$d/prog" 300 2> /dev/null
	perf flamegraph -i "$d/p.data" -o "$d/p.pb.gz" 2> /dev/null
	perf annotate -i "$d/p.data" --stdio -n --no-source -s mix 2> /dev/null > "$d/annotate"
	objdump -d --no-show-raw-insn "$d/prog" > "$d/objdump"
	cc -O1 -g -o "$d/prog" "$lib"/main.c "$lib"/one.c "$lib"/two.c
	# Each binary's directory in the cache: <cache><path>/<build-id>/elf.
	path=$(perf buildid-list -i "$d/p.data" 2> /dev/null |
	       awk -v c="${PERF_BUILDID_DIR}" '$2 ~ /^\// { printf "%s%s:", c, $2 }')
	# -show: this pprof computes a binary's load address from the first
	# sample address it maps, which must be the binary's.
	PPROF_BINARY_PATH="${path}" "${pprof}" -disasm=mix -show=mix -sample_index=samples \
		"$d/p.pb.gz" > "$d/disasm" 2> /dev/null
	"${pprof}" -disasm=mix -show=mix "$d/p.pb.gz" > "$d/nopath" 2>&1 || true
	python3 - "$d" <<'PY'
import re, sys
d = sys.argv[1]
ann = {}
for line in open(f'{d}/annotate'):
    a = re.match(r'^\s*(\d+)\s*:\s*([0-9a-f]+):', line)
    if a and int(a.group(1)):
        ann[int(a.group(2), 16)] = int(a.group(1))
out = open(f'{d}/disasm').read()
assert 'ROUTINE ======================== mix' in out, out
got, insns = {}, {}
for line in out.split('\n'):
    m = re.match(r'^\s*(\d+|\.)\s+(\d+|\.)\s+([0-9a-f]+):\s+(\S+)', line)
    if m:
        insns[int(m.group(3), 16)] = m.group(4)
        if m.group(1) != '.':
            got[int(m.group(3), 16)] = int(m.group(1))
assert ann and got == ann, (got, ann)
# The recorded build's instructions, not the rebuilt one's.
objdump = {}
for line in open(f'{d}/objdump'):
    m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)', line)
    if m:
        objdump[int(m.group(1), 16)] = m.group(2)
for a, mnemonic in insns.items():
    assert objdump.get(a, '?')[:3] == mnemonic[:3], (hex(a), mnemonic, objdump.get(a))
# Without the cache, the rebuilt binary is not taken for the recorded one.
assert 'ROUTINE' not in open(f'{d}/nopath').read()
PY
}

# A recording without build-ids knows a binary by its inode alone: one
# rebuilt since gets no names from the new file, and one warning.
test_rebuilt() {
	echo "perf data convert --to-pprof of a binary rebuilt, no build-ids: none of its names"
	local d="${workdir}/rebuilt" lib="${shelldir}/lib/flamegraph" warn

	mkdir "$d"
	build_workload "$d/prog"
	perf record -q -B --no-buildid-mmap -e cpu-clock:u -g -o - "$d/prog" 30 \
		2> /dev/null > "$d/p.data"
	perf data convert -i "$d/p.data" --to-pprof "$d/same.pb.gz" 2> "$d/same.err"
	# The table of functions, after the header (which names perf's path).
	"${pprof}" -top -symbolize=none -nodecount=1000 "$d/same.pb.gz" 2> /dev/null |
		sed -n '/ flat  *flat%/,$p' > "$d/same.top"
	grep -qw work "$d/same.top"
	refute grep "/prog:" "$d/same.err"
	cc -O2 -g -o "$d/prog" "$lib"/*.c
	perf data convert -i "$d/p.data" --to-pprof "$d/new.pb.gz" 2> "$d/new.err"
	warn="^Warning: $d/prog: replaced since the recording (inode"
	test "$(grep -c "${warn}" "$d/new.err")" -eq 1
	"${pprof}" -top -symbolize=none -nodecount=1000 "$d/new.pb.gz" 2> /dev/null |
		sed -n '/ flat  *flat%/,$p' > "$d/new.top"
	# Its addresses, unnamed, are one row of the binary's; no name of it.
	if ! grep -q "^ *[1-9][0-9.]*[a-z]* .*\[prog\]$" "$d/new.top" ||
	   grep -Ew "main|work|mix|spin" "$d/new.top"; then
		echo "pprof -top of the rebuilt binary's profile:"
		cat "$d/new.top" "$d/new.err"
		return 1
	fi
}

# Two profiles merged by pprof sum: each sample's values, each total.
test_merge() {
	echo "pprof -proto merges two profiles: the values sum"
	local d="${workdir}"

	perf record -q -e cpu-clock -c 100000 -g -o "$d/q.data" "${prog}" 100 2> /dev/null
	perf flamegraph -i "$d/q.data" -o "$d/q.pprof" 2> /dev/null
	"${pprof}" -proto "$d/p.pb.gz" "$d/q.pprof" > "$d/m.pb.gz" 2> /dev/null
	for f in p.pb.gz q.pprof m.pb.gz; do
		"${pprof}" -top -sample_index=samples -nodecount=1 -symbolize=none "$d/$f" \
			2> /dev/null | sed -n 's/.* of \([0-9]*\) total$/\1/p' > "$d/$f.total"
	done
	test "$(cat "$d/m.pb.gz.total")" -eq \
		$(($(cat "$d/p.pb.gz.total") + $(cat "$d/q.pprof.total")))
	test "$(cat "$d/p.pb.gz.total")" -eq \
		"$(perf script -i "${data}" -F period 2> /dev/null | wc -l)"
}

# A hybrid machine's event, opened once per core PMU, is one profile of
# both instances' samples, named as perf stat names it; -e an instance
# is that instance's samples.
test_hybrid() {
	echo "A hybrid event: one profile of both core PMUs' samples"
	local d="${workdir}" e total

	# pprof's count of a profile's samples.
	samples_total() {
		"${pprof}" -top -sample_index=samples -nodecount=1 -symbolize=none "$1" \
			2> /dev/null | sed -n 's/.* of \([0-9]*\) total$/\1/p'
	}
	perf record -q -e cpu-clock,cpu-clock -c 100000 -g -o "$d/h.data" "${prog}" 100 \
		2> /dev/null
	python3 "${shelldir}/lib/flamegraph_hybrid.py" "$d/h.data"
	perf data convert -i "$d/h.data" --to-pprof "$d/h.pb.gz" 2> /dev/null
	perf flamegraph -i "$d/h.data" -e cycles -o "$d/hc.pb.gz" 2> /dev/null
	cmp "$d/h.pb.gz" "$d/hc.pb.gz"
	"${pprof}" -raw "$d/h.pb.gz" 2> /dev/null | grep -q '^cycles/cycles\[dflt\] samples/count$'
	test "$(samples_total "$d/h.pb.gz")" -eq \
		"$(perf script -i "$d/h.data" -F period 2> /dev/null | wc -l)"
	for e in cpu_core/cycles/ cpu_atom/cycles/; do
		perf flamegraph -i "$d/h.data" -e "$e" -o "$d/one.pb.gz" 2> /dev/null
		total=$(perf script -i "$d/h.data" -F event 2> /dev/null | grep -c -F "$e")
		test "${total}" -gt 0
		test "$(samples_total "$d/one.pb.gz")" -eq "${total}"
		"${pprof}" -raw "$d/one.pb.gz" 2> /dev/null | grep -q -F "PeriodType: $e cycles"
	done
}

# Names that are not UTF-8, or hostile: valid UTF-8 strings, whole, the
# bytes that are not UTF-8 U+FFFD.
test_names() {
	echo "Hostile and non-UTF-8 names, as valid UTF-8"
	local d="${workdir}" p

	# Names that are markup and quotes (gas takes a quoted name as it is);
	# called through pointers, as gas can't take them as a call's operand.
	cat > "$d/hostile.c" <<'C'
#define SPIN(fn, name)							\
unsigned long fn(unsigned long n) __asm__(name);			\
unsigned long fn(unsigned long n)					\
{									\
	unsigned long x = 0, i;						\
	for (i = 0; i < n; i++)						\
		x += x / 3 + i;						\
	return x;							\
}
SPIN(h0, "\"</script><script>window.__pwned=1</script>\"")
SPIN(h1, "\"\\\"quoted\\\"&amp;;'&#39;\"")
SPIN(h2, "\"<img src=x onerror=window.__pwned=2>\"")
unsigned long (*volatile spins[])(unsigned long n) = { h0, h1, h2 };
volatile unsigned long sink;
int main(void)
{
	for (int i = 0; i < 300; i++)
		sink += spins[i % 3](100000);
	return 0;
}
C
	cc -g -O0 -fno-omit-frame-pointer -o "$d/hostile" "$d/hostile.c"
	cc -g -O0 -fno-omit-frame-pointer -o "$d/names" "${shelldir}"/lib/script_python_names.c
	# A C++ function: its name demangled, and as the binary has it.
	printf '%s\n' 'namespace fg { unsigned long spin(unsigned long n, int k) {' \
		'unsigned long x = k; for (unsigned long i = 0; i < n; i++) x += x / 3 + i;' \
		'return x; } }' 'volatile unsigned long sink;' \
		'int main() { for (int i = 0; i < 100; i++) sink += fg::spin(1000000, i); }' \
		> "$d/cxx.cc"
	c++ -g -O0 -fno-omit-frame-pointer -o "$d/cxx" "$d/cxx.cc"
	for p in hostile names cxx; do
		perf record -q -e cpu-clock -c 100000 -g -o "$d/$p.data" "$d/$p" 2> /dev/null
		perf flamegraph -i "$d/$p.data" -o "$d/$p.pb.gz" 2> /dev/null
		"${pprof}" -top -nodecount=100 -symbolize=none "$d/$p.pb.gz" > "$d/$p.top" \
			2> /dev/null
	done
	python3 - "$d" "${shelldir}/lib" <<'PY'
import gzip, sys
sys.path.insert(0, sys.argv[2])
from flamegraph_check import pb_fields as fields  # noqa: E402
d = sys.argv[1]
# The string table: field 6 of the Profile, valid UTF-8 each.
def strings(pb):
    return [v.decode('utf-8') for f, v in fields(gzip.open(pb).read()) if f == 6]
# Functions (field 5): {name: system_name}.
def functions(pb):
    profile = fields(gzip.open(pb).read())
    table = [v.decode('utf-8') for f, v in profile if f == 6]
    out = {}
    for f, v in profile:
        if f == 5:
            fn = dict(fields(v))
            out[table[fn.get(2, 0)]] = table[fn.get(3, 0)]
    return out
hostile = strings(f'{d}/hostile.pb.gz')
# As the symbol table has them: gas's quotes left out.
for name in ('</script><script>window.__pwned=1</script>', '"quoted"&amp;;\'&#39;',
             '<img src=x onerror=window.__pwned=2>'):
    assert name in hostile, (name, hostile)
    assert name in open(f'{d}/hostile.top', encoding='utf-8').read(), name
cxx = functions(f'{d}/cxx.pb.gz')
assert cxx.get('fg::spin(unsigned long, int)') == '_ZN2fg4spinEmi', cxx
assert cxx.get('main') == 'main', cxx
names = strings(f'{d}/names.pb.gz')
assert 'sp\ufffdin' in names, names
assert 'sp\ufffdin' in open(f'{d}/names.top', encoding='utf-8').read()
PY
}

# A Function's file and start line are its own, where DWARF declares it
# (readelf's DW_AT_decl_file and DW_AT_decl_line), not those of the header
# function inlined into it that its hottest locations are in; pprof -list
# shows that file.
test_decl() {
	echo "A Function's file and start line: its declaration's, not its inlined code's"
	local d="${workdir}/decl"

	mkdir "$d"
	cat > "$d/fg_step.h" <<'C'
static inline unsigned long fg_step(unsigned long x, unsigned long i)
{
	return x / 3 + i * 7;
}
C
	cat > "$d/decl.c" <<'C'
#include <stdlib.h>
#include "fg_step.h"
volatile unsigned long sink;

int
main(int argc, char **argv)
{
	unsigned long x = 1, i, n = strtoul(argv[1], NULL, 0);

	for (i = 0; i < n; i++)
		x = fg_step(x, i);
	sink = x;
	return 0;
}
C
	cc -O2 -gdwarf-5 -fno-omit-frame-pointer -o "$d/decl" "$d/decl.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/decl.data" "$d/decl" 300000000 \
		2> /dev/null
	perf flamegraph -i "$d/decl.data" -o "$d/decl.pb.gz" 2> /dev/null
	"${pprof}" -raw "$d/decl.pb.gz" > "$d/raw" 2> /dev/null
	"${pprof}" -list '^main$' "$d/decl.pb.gz" > "$d/list" 2> /dev/null
	readelf --debug-dump=info "$d/decl" > "$d/info"
	readelf --debug-dump=line "$d/decl" > "$d/line"
	python3 - "$d" "${shelldir}/lib" <<'PY'
import gzip, os, re, sys
sys.path.insert(0, sys.argv[2])
from flamegraph_check import pb_fields as fields  # noqa: E402
d = sys.argv[1]
# The line table's directories and files (one compilation unit), then
# each function's DW_AT_decl_file, an index there, and DW_AT_decl_line.
line = open(f'{d}/line').read()
dirs = dict(re.findall(r'^\s+(\d+)\s+\(indirect line string[^)]*\): (\S+)$',
                       line.split('The Directory Table')[1].split('The File Name Table')[0],
                       re.M))
files = {i: os.path.join(dirs[dir], name) for i, dir, name in
         re.findall(r'^\s+(\d+)\s+(\d+)\s+\(indirect line string[^)]*\): (\S+)$',
                    line.split('The File Name Table')[1].split('Line Number Statements')[0],
                    re.M)}
decl = {}
for die in open(f'{d}/info').read().split('(DW_TAG_')[1:]:
    attrs = dict(re.findall(r'DW_AT_(\w+)\s*: (?:\([^)]*\): )?(\S+)', die))
    if die.startswith('subprogram)') and attrs.get('name') in ('main', 'fg_step'):
        decl[attrs['name']] = (files[attrs['decl_file']], int(attrs['decl_line']))
assert decl['main'][0].endswith('/decl.c') and decl['fg_step'][0].endswith('/fg_step.h'), decl
profile = fields(gzip.open(f'{d}/decl.pb.gz').read())
table = [v.decode() for f, v in profile if f == 6]
# Functions (field 5): {name: (filename, start_line)}.
functions = {}
for f, v in profile:
    if f == 5:
        fn = dict(fields(v))
        functions[table[fn.get(2, 0)]] = (table[fn.get(4, 0)], fn.get(5, 0))
# The hottest locations of main() are fg_step()'s code inlined into it.
raw = open(f'{d}/raw').read()
assert re.search(r'^\s+\d+: 0x[0-9a-f]+ M=\d+ fg_step \S+:\d+.*\n\s+main \S+:\d+', raw, re.M), \
    raw[raw.index('Locations'):]
for name in ('main', 'fg_step'):
    file, line = functions[name]
    assert os.path.realpath(file) == os.path.realpath(decl[name][0]) and line == decl[name][1], \
        (name, functions[name], decl[name])
m = re.search(r'^ROUTINE =+ main in (\S+)$', open(f'{d}/list').read(), re.M)
assert m and os.path.realpath(m.group(1)) == os.path.realpath(decl['main'][0]), m
PY
}

# pprof's main binary, the first Mapping, which it names the profile
# after ("File:"): the executable of the command perf record ran, also
# where a child of it has the samples; the one it ran last if it exec'd
# another.
test_main() {
	echo "The first Mapping: the executable of the command perf record ran"
	local d="${workdir}/main" sh p

	mkdir "$d"
	sh=$(readlink -f "$(command -v sh)")
	# The exit after it keeps sh from exec'ing prog: sh forks it.
	perf record -q -e cpu-clock -c 100000 -g -o "$d/sh.data" -- sh -c "'${prog}' 300; exit 0" \
		2> /dev/null
	perf record -q -e cpu-clock -c 100000 -g -o "$d/env.data" -- env "${prog}" 100 2> /dev/null
	for p in sh env; do
		perf flamegraph -i "$d/$p.data" -o "$d/$p.pb.gz" 2> /dev/null
		"${pprof}" -raw "$d/$p.pb.gz" > "$d/$p.raw" 2> /dev/null
		"${pprof}" -top "$d/$p.pb.gz" > "$d/$p.top" 2> /dev/null
		perf script -i "$d/$p.data" -G -F pid,ip,dso 2> /dev/null > "$d/$p.script"
	done
	python3 - "$d" "${prog}" "${sh}" <<'PY'
import os, re, sys
d, prog, sh = sys.argv[1:]
for p, main in (('sh', sh), ('env', prog)):
    raw = open(f'{d}/{p}.raw').read()
    mappings = re.findall(r'^\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S+) ', raw, re.M)
    assert mappings and mappings[0] == main, (p, mappings)
    top = open(f'{d}/{p}.top').read()
    assert re.search(r'^File: ' + re.escape(os.path.basename(main)) + '$', top, re.M), top[:500]
# sh's child, prog, has the samples: another process than sh, which
# has the first sample (the child's own first may be in sh's code, before
# its exec).
pids, first = {}, None
for line in open(f'{d}/sh.script'):
    pid, _, dso = line.split(None, 2)
    first = int(pid) if first is None else first
    pids.setdefault(int(pid), set()).add(dso.strip().strip('()'))
assert any(prog in dsos for pid, dsos in pids.items() if pid != first), (first, pids)
PY
}

# The vDSO is "[vdso]", as perf buildid-list and the flame graphs name
# it, with its build-id: not perf's temporary copy of it, which is gone
# when pprof reads the profile. The build-id as perf buildid-list has it
# in the recording's build-id table, which perf record writes without
# --buildid-mmap (then the kernel's mmap events have the build-ids of
# files, but none has the vDSO's).
test_vdso() {
	echo "The vDSO's Mapping: [vdso], with its build-id"
	local d="${workdir}/vdso" p

	mkdir "$d"
	cat > "$d/clock.c" <<'C'
#include <stdlib.h>
#include <time.h>
int main(int argc, char **argv)
{
	struct timespec ts;
	long i, n = atol(argv[1]);

	for (i = 0; i < n; i++)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return 0;
}
C
	cc -O2 -g -fno-omit-frame-pointer -o "$d/clock" "$d/clock.c"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/clock.data" "$d/clock" 30000000 \
		2> /dev/null
	# Into a file: perf script stopped by a closed pipe leaves its copy of
	# the vDSO in /tmp.
	perf script -i "$d/clock.data" -G -F ip,dso > "$d/clock.script" 2> /dev/null
	if ! grep -q '(\[vdso\])$' "$d/clock.script"; then
		skip_part "no sample in the vDSO (the clock source has no vDSO clock_gettime?)"
		return
	fi
	perf record -q -e cpu-clock -c 100000 -g --no-buildid-mmap -o "$d/table.data" "$d/clock" \
		30000000 2> /dev/null
	perf buildid-list -i "$d/table.data" --with-hits 2> /dev/null > "$d/bids"
	grep -q ' \[vdso\]$' "$d/bids"
	for p in clock table; do
		perf flamegraph -i "$d/$p.data" -o "$d/$p.pb.gz" 2> /dev/null
		"${pprof}" -raw "$d/$p.pb.gz" > "$d/$p.raw" 2> "$d/$p.raw.err"
		"${pprof}" -top "$d/$p.pb.gz" > "$d/$p.top" 2> "$d/$p.top.err"
		# Nowhere in the profile, nor in what pprof says of it.
		gzip -dc "$d/$p.pb.gz" > "$d/$p.pb"
		refute grep -aq perf-vdso "$d/$p.pb" "$d/$p.raw" "$d/$p.raw.err" "$d/$p.top" \
			"$d/$p.top.err"
	done
	python3 - "$d" <<'PY'
import re, sys
d = sys.argv[1]
bid = [l.split()[0] for l in open(f'{d}/bids') if l.split()[1:] == ['[vdso]']]
for p in ('clock', 'table'):
    raw = open(f'{d}/{p}.raw').read()
    mappings = re.findall(r'^\d+: 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (\S+) ([0-9a-f]*)', raw,
                          re.M)
    assert '[vdso]' in [f for f, _ in mappings], (p, mappings)
    assert p == 'clock' or ('[vdso]', bid[0]) in mappings, (bid, mappings)
    # Most samples are in the vDSO: the main binary is clock all the same.
    assert mappings[0][0] == f'{d}/clock', mappings
PY
}

test_bad_input() {
	echo "Bad options: one line, nothing written"
	local d="${workdir}"

	refute perf flamegraph -i "${data}" --diff "${data}" -o "$d/x.pb.gz" 2> "$d/err"
	grep -q "^--diff: a pprof profile holds one recording" "$d/err"
	test ! -e "$d/x.pb.gz"
	refute perf flamegraph -i "${data}" --format pprof -e cpu-clock,task-clock \
		-o "$d/y.pprof" 2> "$d/err"
	grep -q "^--format pprof: a profile of one event" "$d/err"
	test ! -e "$d/y.pprof"
	refute perf flamegraph -i "${data}" --cpu-label -o "$d/w.html" 2> "$d/err"
	grep -q "^--cpu-label: only for pprof output" "$d/err"
	test ! -e "$d/w.html"
	refute perf data convert -i "${data}" --to-pprof "$d/v.pb.gz" --all 2> "$d/err"
	grep -q "^--all: a pprof profile holds the samples of one event" "$d/err"
	test ! -e "$d/v.pb.gz"
	refute perf flamegraph -i "${data}" -e task-clock -o "$d/u.pb.gz" 2> "$d/err"
	grep -q "^event 'task-clock' is not in ${data}$" "$d/err"
	test ! -e "$d/u.pb.gz"
	refute perf flamegraph -i "${data}" -C 4096 -o "$d/cpu4096.pb.gz" 2> "$d/err"
	test ! -e "$d/cpu4096.pb.gz"
	refute perf data convert -i "${data}" --to-pprof "$d/s.pb.gz" --time 1,2 2> "$d/err"
	grep -q "^no samples of 'any event' to convert in ${data} ([1-9][0-9]* filtered," "$d/err"
	test ! -e "$d/s.pb.gz"
	refute perf report -i "${data}" --flamegraph="$d/z.pb.gz" 2> "$d/err"
	grep -q "pprof profiles come from perf flamegraph --format pprof" "$d/err"
	test ! -e "$d/z.pb.gz"
	# As --to-json: an existing file is replaced with -f alone; the input
	# never, with -f too.
	cp "${data}" "$d/in.data"
	cmp "${data}" "$d/in.data"
	refute perf data convert -i "$d/in.data" --to-pprof "$d/in.data" 2> "$d/err"
	grep -q "^the output $d/in.data is the input: refusing to overwrite it$" "$d/err"
	refute perf data convert -i "$d/in.data" -f --to-pprof "$d/./in.data" 2> "$d/err"
	grep -q "^the output $d/./in.data is the input: refusing to overwrite it$" "$d/err"
	cmp "${data}" "$d/in.data"
	echo old > "$d/old.pb.gz"
	refute perf data convert -i "${data}" --to-pprof "$d/old.pb.gz" 2> "$d/err"
	grep -q "^Output file exists. Use --force to overwrite it.$" "$d/err"
	test "$(cat "$d/old.pb.gz")" = old
	perf data convert -i "${data}" -f --to-pprof "$d/old.pb.gz" 2> /dev/null
	test "$(gzip -dc "$d/old.pb.gz" | head -c 1 | od -An -tx1 | tr -d ' ')" = 0a
}

test_lost() {
	echo "Lost events: said as perf report says them, the same profile"
	local d="${workdir}/lost" n want

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -o - perf test -w noploop 1 \
		> "$d/pipe.data" 2> /dev/null
	add_lost "$d/pipe.data" "$d/lost.data"
	perf data convert -i "$d/lost.data" --to-pprof "$d/lost.pb.gz" 2> "$d/lost.err"
	grep -q "^Processed [0-9]* events and lost 1 chunks!$" "$d/lost.err"
	perf data convert -i "$d/pipe.data" --to-pprof "$d/pipe.pb.gz" 2> "$d/pipe.err"
	refute grep -q "^Processed" "$d/pipe.err"
	cmp <(gzip -dc "$d/pipe.pb.gz") <(gzip -dc "$d/lost.pb.gz")
	# perf flamegraph says what it wrote in its own words, not perf data
	# convert's: the same samples.
	n=$(sed -n "s/.*': \([0-9]*\) samples of 'cpu-clock'.*/\1/p" "$d/pipe.err")
	test -n "$n"
	perf flamegraph -i "$d/lost.data" -o "$d/fg.pb.gz" 2> "$d/fg.err"
	grep -q "^Processed [0-9]* events and lost 1 chunks!$" "$d/fg.err"
	want="perf flamegraph: $n samples of 'cpu-clock', [0-9]* locations,"
	grep -qx "${want} wrote $d/fg.pb.gz (pprof)" "$d/fg.err"
}

run_parts test_profile test_addresses test_traces test_inline test_disasm test_rebuilt \
	test_merge test_hybrid test_names test_decl test_main test_vdso test_bad_input \
	test_lost
