#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-flamegraph.sh: perf flamegraph against the perf commands people
# run over the same file (make bench; not part of make check).
#
# Records profiles of real programs on this machine (xz, python3, a
# compiler building perf's sources, python3 with DWARF call graphs), runs
# each command RUNS times in alternation on each, and writes the medians
# (wall, user+sys, peak RSS), the ratio to perf script, the child
# processes each spawns and where perf flamegraph's time goes to
# Documentation/benchmarks.md.
#
# Environment: RUNS (default 3), SCALE (default 1: the profiles have
# about 10k, 100k and 1M samples; 0.1 makes them ten times smaller).

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
perf=$top/build/perf
work=$top/build/bench
out=${BENCH_OUT:-$top/Documentation/benchmarks.md}
runs=${RUNS:-3}
scale=${SCALE:-1}
export PERF_EXEC_PATH=$top/build/src/tools/perf

for t in /usr/bin/time strace xz python3 gcc timeout; do
	command -v "$t" > /dev/null || { echo "bench: needs $t" >&2; exit 1; }
done
mkdir -p "$work"
cd "$work"

# secs N [CPUS]: seconds of wall clock for N samples at a 100us
# cpu-clock period, with CPUS (default 1) busy processes.
secs() {
	python3 -c "import sys; print(max(1, round(float(sys.argv[1]) * $scale / 10000 / int(sys.argv[2]))))" \
		"$1" "${2:-1}"
}

record() {	# record NAME CALLGRAPH SECONDS COMMAND...
	local name=$1 cg=$2 s=$3

	shift 3
	[ -s "$name.data" ] && return 0
	echo "  RECORD $name (${s}s of CPU)"
	"$perf" record -q -e cpu-clock -c 100000 --call-graph "$cg" -o "$name.data" \
		-- timeout "$s" "$@" > /dev/null 2>&1 || true
}

head -c 50000000 /dev/urandom > random.bin
python_loop='
import json
d = [{"k": i, "v": str(i) * 5} for i in range(200000)]
while True:
    json.loads(json.dumps(d))
'
# xz: one process, shallow stacks; the same with ten times the samples
# (period 10us) shows memory grows with stacks, not samples.
record xz-10k fp "$(secs 10000)" sh -c 'while :; do xz -9 -T1 -c random.bin > /dev/null; done'
if [ ! -s xz-10x.data ]; then
	echo "  RECORD xz-10x"
	"$perf" record -q -e cpu-clock -c 10000 -g -o xz-10x.data -- timeout "$(secs 10000)" \
		sh -c 'while :; do xz -9 -T1 -c random.bin > /dev/null; done' > /dev/null 2>&1 || true
fi
s=$(secs 100000 2)
record python-100k fp "$s" sh -c "timeout $s python3 -c '$python_loop' & timeout $s python3 -c '$python_loop'; wait"
# A compiler at work: gcc -O2 on a generated file of 2000 functions, on
# both CPUs.
python3 - > gen.c <<'PY'
for i in range(2000):
    print(f"int f{i}(int *a, int n) {{ int s = {i}; for (int j = 0; j < n; j++)"
          f" s += a[j] * {i % 7 + 1} ^ (s >> {i % 5 + 1}); return s; }}")
PY
# 1.1M asked for: some of the time goes to starting processes.
record cc-1M fp "$(secs 1100000 2)" sh -c \
	'while :; do gcc -O2 -c gen.c -o /dev/null & gcc -O2 -c gen.c -o /dev/null; wait; done'
record python-dwarf dwarf "$(secs 10000)" python3 -c "$python_loop"

# The commands: name, then the command line ($D is the profile).
commands=(
	"flamegraph|$perf flamegraph -i \$D -o fg.html"
	"flamegraph --asm (html)|$perf flamegraph --asm -i \$D -o fg-asm.html"
	"flamegraph --asm --annotate-functions=0 (html)|$perf flamegraph --asm --annotate-functions=0 -i \$D -o fg-asm0.html"
	"flamegraph --asm (json)|$perf flamegraph --asm -i \$D -o fg-asm.json"
	"flamegraph --asm (folded)|$perf flamegraph --asm -i \$D -o fg-asm.folded"
	"perf script|$perf script -i \$D"
	"report --stats|$perf report -i \$D --stats"
	"report -g none|$perf report -i \$D --stdio -g none"
	"report -g caller|$perf report -i \$D --stdio -g caller --no-children"
	"annotate|$perf annotate -i \$D --stdio"
	"flamegraph.py (json)|$perf script -i \$D -s $PERF_EXEC_PATH/scripts/python/flamegraph.py -- -f json -o py.json"
)

: > results.txt
for data in xz-10k xz-10x python-100k cc-1M python-dwarf; do
	D=$work/$data.data
	samples=$("$perf" report -i "$D" --stats 2> /dev/null |
		awk '/SAMPLE events:/ { print $3; exit }')
	echo "  BENCH  $data ($samples samples)"
	for ((r = 0; r < runs; r++)); do
		for c in "${commands[@]}"; do
			name=${c%%|*}
			cmd=${c#*|}
			cmd=${cmd//\$D/$D}
			/usr/bin/time -f "%e %U %S %M" -o t.out sh -c "$cmd > /dev/null 2>&1" || true
			echo "$data|$samples|$name|$(cat t.out)" >> results.txt
		done
	done
	# Processes each command starts, untimed.
	for c in "${commands[@]}"; do
		name=${c%%|*}
		cmd=${c#*|}
		cmd=${cmd//\$D/$D}
		strace -f -qq --seccomp-bpf -e trace=execve -o strace.out \
			sh -c "$cmd > /dev/null 2>&1" || true
		echo "$data|$samples|$name|execve $(grep -c 'execve(.* = 0$' strace.out)" >> results.txt
	done
	"$perf" flamegraph -v --asm -i "$D" -o fg-asm.html 2> v.err || true
	sed -n "s/^perf flamegraph: phases (ms): /$data|$samples|phases|/p;
		s/^perf flamegraph: \([0-9]* samples resolved.*\), the others.*/$data|$samples|resolved|\1/p" \
		v.err >> results.txt
	ls -l fg.html fg-asm.html fg-asm0.html fg-asm.json fg-asm.folded |
		awk -v d="$data" -v s="$samples" '{ print d "|" s "|size|" $NF " " $5 }' >> results.txt
	"$perf" flamegraph --asm -i "$D" -o fg-asm.folded 2>&1 |
		sed -n "s/^perf flamegraph: .* \([0-9]*\) frames, .*/$data|$samples|nodes|\1/p" >> results.txt
	"$perf" flamegraph -i "$D" -o fg.html 2>&1 |
		sed -n "s/^perf flamegraph: .* \([0-9]*\) frames, .*/$data|$samples|nodes-noasm|\1/p" >> results.txt
done

# perf flamegraph --asm on the largest profile, profiled itself: where
# its time goes, as a flame graph (build/bench/self.html) and a summary.
echo "  SELF   perf flamegraph --asm -i cc-1M.data"
"$perf" record -q -e cpu-clock -F 1000 -g -o self.data -- \
	"$perf" flamegraph --asm -i "$work/cc-1M.data" -o self-out.html > /dev/null 2>&1
"$perf" flamegraph --asm -i self.data -o self.html 2> /dev/null
"$perf" flamegraph -i self.data --value samples --format folded -o self.folded 2> /dev/null

PERF=$perf SELF=self.folded python3 "$top/scripts/bench-table.py" results.txt "$runs" > "$out.tmp"
mv "$out.tmp" "$out"
echo "  WROTE  $out"
