#!/bin/bash
# perf flamegraph outputs and bad input
# SPDX-License-Identifier: GPL-2.0
#
# What perf flamegraph writes and where, its filters, its help, recording
# a command first, and what a user sees on bad input: one line, a
# non-zero exit, nothing overwritten.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_outputs.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3

# Two threads of perf test -w thloop (comm "perf"), for all but
# test_record_command, which needs a program of its own.
data="${workdir}/p.data"
perf record -q -e cpu-clock -g -o "${data}" perf test -w thloop 1 2> /dev/null

# total FILE: the samples of a JSON FILE; the weight of a folded one.
total() {
	case "$1" in
	*.folded) awk '{ n += $NF } END { print n + 0 }' "$1" ;;
	*) python3 -c "import json, sys
def total(n): return n['s'] + sum(total(c) for c in n['c'])
print(total(json.load(open(sys.argv[1]))))" "$1" ;;
	esac
}

test_outputs() {
	echo "Outputs: symlinks, permissions, long names, stdout"
	local long o

	# A new file gets 0666 less the umask, a replaced one keeps its mode.
	(umask 027; perf flamegraph -i "${data}" -o "${workdir}/new.html" 2> /dev/null)
	test "$(stat -c %a "${workdir}/new.html")" = 640
	echo old > "${workdir}/real.html"
	chmod 600 "${workdir}/real.html"
	ln -s real.html "${workdir}/link.html"
	perf flamegraph -i "${data}" -o "${workdir}/link.html" 2> /dev/null
	# The link stays a link; its target is the new graph, mode kept.
	test -L "${workdir}/link.html"
	test "$(stat -c %a "${workdir}/real.html")" = 600
	grep -q "fg-data" "${workdir}/real.html"
	perf flamegraph -i "${data}" --format folded -o /dev/stdout \
		> "${workdir}/stdout.folded" 2> /dev/null
	test -L /dev/stdout || test -c /dev/stdout
	grep -q "^perf;.*;thloop;test_loop [0-9]*$" "${workdir}/stdout.folded"
	# A name of 255 bytes: the temporary file's name must not be longer.
	long="${workdir}/$(printf 'a%.0s' $(seq 1 250)).json"
	perf flamegraph -i "${data}" -o "${long}" 2> /dev/null
	grep -q '"n":"all"' "${long}"
	# The extension decides the format whatever its case.
	perf flamegraph -i "${data}" -o "${workdir}/UP.JSON" 2> /dev/null
	python3 -c "import json, sys; json.load(open(sys.argv[1]))" "${workdir}/UP.JSON"
	# Rejected before the input is read, with one line.
	for o in "" "${workdir}/no/such/dir/x.html"; do
		refute perf flamegraph -i "${data}" -o "$o" 2> "${workdir}/o.err"
		test "$(wc -l < "${workdir}/o.err")" -eq 1
	done
	# --max-stack 2: comm and at most two frames per stack, the ones it
	# cut under [truncated]; same total.
	perf flamegraph -i "${data}" --max-stack 2 --format folded --weight samples \
		-o "${workdir}/ms.folded" 2> /dev/null
	awk -F';' 'NF > 3 + ($2 == "[truncated]") { bad = 1 } END { exit bad }' \
		"${workdir}/ms.folded"
	grep -q '^perf;\[truncated\];' "${workdir}/ms.folded"
	test "$(total "${workdir}/ms.folded")" -eq \
	     "$(perf script -i "${data}" -G -F comm 2> /dev/null | wc -l)"
	refute perf flamegraph -i "${data}" --max-stack -1 -o "${workdir}/ms.html" 2> /dev/null
}

test_template() {
	echo "--template: upstream's d3-flame-graph template, filled as flamegraph.py does"
	local d="${workdir}/tmpl"

	mkdir "$d"
	printf '%s\n' '<html><body><script>' 'const stacks = [/** @flamegraph_json **/];' \
		'const options = [/** @options_json **/];' '</script></body></html>' \
		> "$d/base.html"
	perf flamegraph -i "${data}" --asm --template "$d/base.html" \
		-o "$d/out.html" 2> /dev/null
	perf flamegraph -i "${data}" --asm -o "$d/out.json" 2> /dev/null
	# The tree equals the json format's; the context is this input's
	# header (upstream's script shows ./perf.data's).
	python3 - "$d/out.html" "$d/out.json" "$(perf report --header-only -i "${data}" |
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
	refute perf flamegraph -i "${data}" --template "$d/nonexistent" \
		-o "$d/x.html" 2> "$d/err"
	grep -q -- "--template $d/nonexistent: No such file or directory" "$d/err"
	echo nothing > "$d/plain.html"
	refute perf flamegraph -i "${data}" --template "$d/plain.html" -o "$d/x.html" 2> "$d/err"
	grep -q "no /\*\* @flamegraph_json \*\*/ in it" "$d/err"
	test ! -e "$d/x.html"
}

test_progress() {
	echo "Progress on a terminal, none in a pipe"
	local d="${workdir}/progress"

	mkdir "$d"
	perf flamegraph -i "${data}" --asm -o "$d/pipe.html" 2> "$d/pipe.err"
	refute grep -q "$(printf '\r')" "$d/pipe.err"
	if ! command -v script > /dev/null; then
		skip_part "no script(1) for a terminal"
		return 0
	fi
	script -qec "perf flamegraph -i ${data} --asm -o $d/tty.html" /dev/null > "$d/tty.out"
	# perf's ui_progress shows steps of 1/16: the last is not always 100%.
	grep -q "Processing events\.\.\. *[0-9]*%" "$d/tty.out"
	grep -q "Decoding instructions\.\.\. *[0-9]*%" "$d/tty.out"
	grep -q "perf flamegraph: .* samples of 'cpu-clock'" "$d/tty.out"
}

test_filters() {
	echo "Filters: --comms, -S, --tid, --time; filtered samples in the summary"
	local tid half sum=0 want

	perf flamegraph -i "${data}" -o "${workdir}/all.json" 2> /dev/null
	perf flamegraph -i "${data}" -S test_loop -o "${workdir}/sym.json" \
		2> "${workdir}/sym.err"
	# Samples whose sampled function is test_loop end at a test_loop frame.
	python3 - "${workdir}/all.json" "${workdir}/sym.json" "${workdir}/sym.err" <<'PY'
import json, re, sys
def walk(n):
    yield n
    for c in n["c"]:
        yield from walk(c)
def total(n):
    return n["s"] + sum(total(c) for c in n["c"])
full = json.load(open(sys.argv[1]))
sym = json.load(open(sys.argv[2]))
want = sum(n["s"] for n in walk(full) if n["n"] == "test_loop")
got = total(sym)
names = {n["n"] for n in walk(sym) if n["k"] == "func" and not n["c"]}
m = re.search(r"(\d+) samples of 'cpu-clock' \((\d+) filtered", open(sys.argv[3]).read())
assert want > 0 and got == want, (got, want)
assert names == {"test_loop"}, names
assert m and int(m.group(1)) == got and int(m.group(2)) == total(full) - got, m
print(f"-S test_loop: {got} samples, {total(full) - got} filtered, as in the full graph")
PY
	# The page says which filters made it, and how much they left out.
	perf flamegraph -i "${data}" -S test_loop -o "${workdir}/sym.html" 2> /dev/null
	want=$(sed -n "s/.* samples of 'cpu-clock' (\([0-9]*\) filtered.*/\1/p" \
		"${workdir}/sym.err")
	want="--symbols test_loop: ${want} of $(total "${workdir}/all.json") samples left out"
	grep -qF "\"view\":\"${want}\"" "${workdir}/sym.html"
	perf flamegraph -i "${data}" -o "${workdir}/all.html" 2> /dev/null
	refute grep -q '"view":' "${workdir}/all.html"
	# --tid: the second thread's samples, as perf script counts them.
	tid=$(perf script -i "${data}" -F tid 2> /dev/null | sort -nu | tail -1)
	tid=$((tid))
	perf flamegraph -i "${data}" --tid "${tid}" -o "${workdir}/tid.json" 2> /dev/null
	want=$(perf script -i "${data}" -F tid 2> /dev/null | awk -v t="${tid}" '$1 == t' | wc -l)
	test "$(total "${workdir}/tid.json")" -eq "${want}"
	test "${want}" -lt "$(total "${workdir}/all.json")"
	# --time: the halves add up, each as perf script counts it.
	for half in 50%/1 50%/2; do
		perf flamegraph -i "${data}" --time "${half}" -o "${workdir}/half.json" \
			2> /dev/null
		want=$(perf script -i "${data}" --time "${half}" -G -F comm 2> /dev/null | wc -l)
		test "$(total "${workdir}/half.json")" -eq "${want}"
		sum=$((sum + want))
	done
	test "${sum}" -eq "$(total "${workdir}/all.json")"
	refute perf flamegraph -i "${data}" --comms nothere -o "${workdir}/none.json" \
		2> "${workdir}/none.err"
	grep -q "no samples of 'cpu-clock' to show" "${workdir}/none.err"
	test ! -e "${workdir}/none.json"
}

test_help() {
	echo "Help: perf flamegraph -h, perf help flamegraph, perf's command list"
	perf flamegraph -h 2>&1 | grep -q -- "--asm"
	perf 2>&1 | grep -q "^   flamegraph "
	if ! command -v man > /dev/null; then
		skip_part "no man(1) for perf help flamegraph"
		return 0
	fi
	MANPAGER="cat" perf help flamegraph 2>&1 | grep -q -- "--disassembler-style"
}

test_record_command() {
	echo "perf flamegraph -- command: records with build-ids, then renders"
	local d="${workdir}/reccmd" bid pid

	mkdir "$d"
	build_workload "$d/prog" --own-build-id
	bid=$(readelf -n "$d/prog" | sed -n 's/.*Build ID: *//p')
	perf flamegraph --asm -e cpu-clock -i "$d/rec.data" -o "$d/rec.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/rec.err"
	grep -q "samples of 'cpu-clock'.*wrote $d/rec.folded (folded)" "$d/rec.err"
	# perf record wrote a file next to it, which became the input: the
	# last word on the recording names the input, the one before too.
	grep -q "^\[ perf record: Captured and wrote .* $d/rec.data.\{7\} " "$d/rec.err"
	grep -qx "\[ perf flamegraph: the recording is $d/rec.data \]" "$d/rec.err"
	test "$(ls "$d" | grep -c '^rec\.data')" -eq 1
	perf flamegraph -e cpu-clock -i "$d/rec.data" -o "$d/one.folded" -- "$d/prog" 1 \
		> /dev/null 2> "$d/x.err"
	grep -qx "\[ perf flamegraph: the recording is $d/rec.data (the one before: $d/rec.data.old) \]" \
		"$d/x.err"
	mv "$d/rec.data.old" "$d/rec.data"
	# A file with the build-id table, the binary in the build-id cache.
	perf buildid-list -i "$d/rec.data" | grep -q "^${bid} $d/prog$"
	test -s "${PERF_BUILDID_DIR}/.build-id/${bid:0:2}/${bid:2}/elf"
	grep -q "^prog;.*;work;spin (prog+0x[0-9a-f]*);[a-z][^;]* \[0x[0-9a-f]*\] [0-9]*$" \
		"$d/rec.folded"
	# Rebuilt: the same graph, from the cache.
	cc -O2 -g -o "$d/prog" "${shelldir}"/lib/flamegraph/*.c
	perf flamegraph --asm -i "$d/rec.data" -o "$d/again.folded" 2> /dev/null
	cmp "$d/rec.folded" "$d/again.folded"
	# ^C (SIGINT to the whole process group, as a terminal sends it)
	# stops the command; what perf record wrote is rendered.
	if command -v setsid > /dev/null; then
		setsid perf flamegraph -e cpu-clock -i "$d/int.data" -o "$d/int.folded" \
			-- perf test -w noploop 60 > /dev/null 2> "$d/int.err" &
		pid=$!
		# Once the workload runs (perf test runs others beside this
		# one: starting may take seconds), a second of it.
		for _ in $(seq 150); do
			grep -qsx "perf-noploop" /proc/[0-9]*/comm && break
			sleep 0.2
		done
		sleep 1
		kill -INT -- "-${pid}"
		wait "${pid}"
		grep -q "samples of 'cpu-clock'.*wrote $d/int.folded" "$d/int.err"
		grep -q "^perf[^;]*;.*noploop" "$d/int.folded"
	else
		skip_part "no setsid(1) to send ^C"
	fi
	# record: any of perf record's options, as the recording's command
	# line shows them after ours: the whole machine while a command runs,
	# or other processes only.
	perf flamegraph -i "$d/a.data" -o "$d/a.folded" record -F 499 --call-graph fp -a \
		-- "$d/prog" 10 > /dev/null 2> /dev/null
	perf report -i "$d/a.data" --header-only 2> /dev/null |
		grep -q "^# cmdline : .* record -g -o .* -F 499 --call-graph fp -a -- $d/prog 10 *$"
	perf evlist -i "$d/a.data" -v 2> /dev/null | grep -q "sample_freq }: 499, .* freq: 1"
	grep -q "^prog;" "$d/a.folded"
	# Longer than perf flamegraph takes to start recording, however busy
	# the machine; stopped once the recording is done.
	perf test -w noploop 30 &
	pid=$!
	# Recorded once its loop runs, not while perf test starts.
	for _ in $(seq 150); do
		grep -qsx "perf-noploop" "/proc/${pid}/comm" && break
		sleep 0.2
	done
	perf flamegraph -i "$d/p.data" -o "$d/p.folded" record -c 100000 -p "${pid}" \
		-- sleep 1 > /dev/null 2> /dev/null
	kill "${pid}"
	wait "${pid}" || true
	perf report -i "$d/p.data" --header-only 2> /dev/null |
		grep -q "^# cmdline : .* record -g -o .* -c 100000 -p ${pid} -- sleep 1 *$"
	grep -q "^perf[^;]*;.*noploop" "$d/p.folded"
	refute grep -q "^sleep;" "$d/p.folded"
	# perf record's letters are not perf flamegraph's: -F, -p, -a are
	# unknown options before record, a usage error.
	for o in -F -p -a --call-graph --count; do
		st=0
		perf flamegraph "$o" 1 -i "$d/rec.data" -o "$d/x.folded" 2> "$d/x.err" || st=$?
		test "${st}" -eq 129
		grep -q "^  Error: unknown \(switch\|option\)" "$d/x.err"
		test ! -e "$d/x.folded"
	done
	# The recording is -i's: -o among perf record's options is an error,
	# nothing recorded; a command's own -o after -- is its own.
	st=0
	perf flamegraph -i "$d/o.data" -o "$d/o.folded" record -o "$d/elsewhere.data" \
		-- "$d/prog" 1 > /dev/null 2> "$d/o.err" || st=$?
	test "${st}" -eq 129
	grep -q "^record -o: the recording is perf flamegraph's input, named with -i" "$d/o.err"
	test "$(wc -l < "$d/o.err")" -eq 1
	test ! -e "$d/o.data" && test ! -e "$d/elsewhere.data" && test ! -e "$d/o.folded"
	# "--" and nothing after it: no command, nothing recorded.
	st=0
	perf flamegraph -i "$d/o.data" -o "$d/o.folded" -- 2> "$d/o.err" || st=$?
	test "${st}" -eq 129
	test ! -e "$d/o.data"
	# A command that can't run: an error, no flame graph.
	refute perf flamegraph -i "$d/none.data" -o "$d/none.folded" \
		-- "$d/nonexistent" > /dev/null 2> "$d/none.err"
	grep -q "^$d/nonexistent: no such command to record" "$d/none.err"
	test "$(wc -l < "$d/none.err")" -eq 1
	test ! -e "$d/none.folded"
	test ! -e "$d/none.data"
	# A mistyped option ends the options: its argument is no command, and
	# the input it names is left as it was.
	cp "$d/rec.data" "$d/keep.data"
	refute perf flamegraph -i "$d/keep.data" -f folded -o "$d/keep.folded" \
		> /dev/null 2> "$d/keep.err"
	grep -q "^folded: no such command to record (options go before the command)$" \
		"$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	# perf record fails: the input stays, no file is left beside it.
	refute perf flamegraph -e no-such-event -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 1 > /dev/null 2> "$d/keep.err"
	grep -q "perf record of '$d/prog' failed, no flame graph written" "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data"
	test "$(find "$d" -name 'keep.data.*' | wc -l)" -eq 0
	# It succeeds: the input it replaces is kept as .old, as perf record does.
	perf flamegraph -e cpu-clock -i "$d/keep.data" -o "$d/keep.folded" \
		-- "$d/prog" 30 > /dev/null 2> "$d/keep.err"
	cmp "$d/rec.data" "$d/keep.data.old"
	perf report --stats -i "$d/keep.data" 2> /dev/null | grep -q "SAMPLE events"
	grep -q "^prog;.*spin" "$d/keep.folded"
}

test_bad_input() {
	echo "Bad input: one line, non-zero exit, nothing overwritten"
	local keep="${workdir}/keep.html" err="${workdir}/bad.err" od f opt

	echo keep > "${keep}"
	refute perf flamegraph -i "${workdir}/nonexistent.data" -o "${keep}" 2> /dev/null
	grep -q keep "${keep}"
	refute perf flamegraph -i "${data}" --format svg -o "${keep}" 2> "${err}"
	grep -q "unknown --format 'svg'" "${err}"
	refute perf flamegraph -i "${data}" -o "${data}" 2> /dev/null
	mkdir "${workdir}/dir.html"
	refute perf flamegraph -i "${data}" -o "${workdir}/dir.html" 2> "${err}"
	grep -q "is a directory" "${err}"
	# Not a regular file: written in place, never replaced by a rename.
	mkfifo "${workdir}/fifo"
	cat "${workdir}/fifo" > "${workdir}/fifo.out" &
	perf flamegraph -i "${data}" --format folded -o "${workdir}/fifo" 2> /dev/null
	wait
	test -p "${workdir}/fifo"
	grep -q "^perf;" "${workdir}/fifo.out"
	# A write that fails says why, in words.
	refute perf flamegraph -i "${data}" -o /dev/full 2> "${err}"
	grep -q "^cannot write /dev/full: No space left on device$" "${err}"
	# --objdump: not there, not in $PATH, empty, a directory; a path with
	# a space is a path like any other (perf runs objdump without /bin/sh).
	for od in /nonexistent/objdump no-such-objdump "" "${workdir}" "/usr/bin/obj dump"; do
		refute perf flamegraph -i "${data}" --asm --objdump "${od}" -o "${keep}" \
			2> "${err}"
		test "$(wc -l < "${err}")" -eq 1
		grep -qF -- "--objdump '${od}': " "${err}"
		grep -q keep "${keep}"
	done
	grep -q "^--objdump '/usr/bin/obj dump': No such file or directory$" "${err}"
	# An empty $PATH entry is the current directory, as for the shell;
	# -q: not a word on stderr.
	(cd "$(dirname "$(command -v objdump)")" &&
	 PATH=":/nonexistent" "$(command -v perf)" flamegraph -q -i "${data}" --asm \
		--objdump objdump -o "${workdir}/cwd.folded" 2> "${workdir}/q.err")
	grep -q "^perf;.*;[a-z].* \[0x[0-9a-f]*\] [0-9]*$" "${workdir}/cwd.folded"
	test ! -s "${workdir}/q.err"
	# Empty, truncated, and cut short (data size never written, as when
	# perf record is killed): an error, and the old output stays.
	: > "${workdir}/empty.data"
	head -c 5000 "${data}" > "${workdir}/trunc.data"
	cp "${data}" "${workdir}/killed.data"
	dd if=/dev/zero of="${workdir}/killed.data" bs=1 seek=48 count=8 \
		conv=notrunc 2> /dev/null
	for f in empty trunc killed; do
		refute perf flamegraph -i "${workdir}/${f}.data" -o "${keep}" 2> "${err}"
		grep -q keep "${keep}"
		test -s "${err}"
	done
	grep -q "data size field is 0" "${err}"
	# Cut at a page boundary: perf would map past the end of the file.
	head -c 8192 "${data}" > "${workdir}/page.data"
	st=0
	perf flamegraph -i "${workdir}/page.data" -o "${keep}" 2> "${err}" || st=$?
	test "${st}" -eq 1
	grep -q "^${workdir}/page.data is cut short: its header says" "${err}"
	test "$(wc -l < "${err}")" -eq 1
	# The exit statuses of the man page: 1 for input that can't be
	# used, 129 for a command line that is wrong, as parse-options'.
	for t in "1 -i ${workdir}/nonexistent.data" "1 -i ${workdir}/empty.data" \
			"1 -i ${data} -e nosuch" "1 -i ${data} -S nosuch" \
			"129 -i ${data} --format svg" "129 -i ${data} --weight bogus" \
			"129 -i ${data} --max-stack 0" "129 --no-such-option" \
			"129 -i ${data} --time bogus" "129 -i ${data} --max-stack -3" \
			"1 -i ${workdir}"; do
		st=0
		# shellcheck disable=SC2086
		perf flamegraph ${t#* } -o "${keep}" 2> /dev/null || st=$?
		test "${st}" -eq "${t%% *}"
	done
	perf flamegraph -i "${workdir}" -o "${keep}" 2> "${err}" || true
	grep -q "^${workdir}: a directory, not a perf.data file$" "${err}"
	for opt in "-e nosuch" "--time bogus"; do
		# shellcheck disable=SC2086
		refute perf flamegraph -i "${data}" $opt -o "${keep}" 2> /dev/null
	done
	grep -q keep "${keep}"
}

test_offcpu() {
	echo "Off-CPU time: in ns, over the recording's time"
	local d="${workdir}/offcpu" pprof=${PPROF:-pprof} t0 t1

	mkdir "$d"
	# Four 250 ms sleeps, each followed by 100 ms on the CPU.
	cc -O1 -g -fno-omit-frame-pointer -o "$d/prog" -x c - <<'C'
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec t0, t;

	for (int i = 0; i < 4; i++) {
		usleep(250000);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do
			clock_gettime(CLOCK_MONOTONIC, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec < 100000000L);
	}
	return 0;
}
C
	t0=$(date +%s%N)
	if ! perf record -q --off-cpu -e cpu-clock -g -o "$d/off.data" "$d/prog" \
			2> "$d/err"; then
		skip_part "perf record --off-cpu: $(head -1 "$d/err")"
		return 0
	fi
	t1=$(date +%s%N)
	perf flamegraph -i "$d/off.data" -e offcpu-time -o "$d/off.json" 2> /dev/null
	perf flamegraph -i "$d/off.data" -e offcpu-time -o "$d/off.html" 2> /dev/null
	perf flamegraph -i "$d/off.data" -e offcpu-time --weight samples -o "$d/n.json" \
		2> /dev/null
	perf script -i "$d/off.data" -F event,period,time 2> /dev/null > "$d/script"
	[ -x "$(command -v "${pprof}")" ] && perf flamegraph -i "$d/off.data" -e offcpu-time \
		-o "$d/off.pb.gz" 2> /dev/null && "${pprof}" -raw "$d/off.pb.gz" > "$d/raw" 2> /dev/null
	python3 - "$d" "$((t1 - t0))" "${shelldir}/lib" <<'PY'
import gzip, json, os, re, sys
sys.path.insert(0, sys.argv[3])
from flamegraph_check import pb_fields, total  # noqa: E402
d, wall = sys.argv[1], int(sys.argv[2])
off, times = 0, []
for line in open(f'{d}/script'):
    m = re.match(r'^\s*(\d+)\.(\d+):\s+(\d+)\s+(\S+):', line)
    if m.group(4) == 'offcpu-time':
        off += int(m.group(3))
    else:
        times.append(int(m.group(1)) * 10**9 + int(m.group(2).ljust(9, '0')))
span = max(times) - min(times)
# In ns, which is what the graph says it counts: the sleeps, but for
# one that may begin before perf record's BPF program follows the task
# (it misses the first now and then).
assert off >= 3 * 250 * 10**6, off
g = json.load(open(f'{d}/off.json'))
assert (g['unit'], g['weight'], total(g)) == ('ns', 'period', off), (g['unit'], total(g), off)
assert json.load(open(f'{d}/n.json'))['unit'] == 'samples'
assert '"unit":"ns"' in open(f'{d}/off.html').read()
print(f"{off} ns off the CPU; the cpu-clock samples span {span} ns of {wall}")
if os.path.exists(f'{d}/raw'):
    raw = open(f'{d}/raw').read()
    assert 'offcpu-time/nanoseconds[dflt] samples/count' in raw, raw[:800]
    assert re.search(r'^PeriodType: offcpu-time nanoseconds$', raw, re.M), raw[:800]
    # The recording's duration (Profile.duration_nanos, field 10): its
    # samples' span, not the off-CPU samples' made-up time at its end,
    # to perf script's microsecond; pprof prints it cut to four
    # characters (profile.go: "Duration: %.4v").
    dur = dict(pb_fields(gzip.open(f'{d}/off.pb.gz').read()))[10]
    assert abs(dur - span) <= 2000 and span < wall, (dur, span, wall)
    assert re.search(r'^Duration: ([0-9.]+)$', raw, re.M).group(1) == \
        f'{dur / 1e9:.9f}'[:4], raw[:800]
PY
}

test_diff() {
	echo "--diff: two recordings of the same program, each frame with both weights"
	local d="${workdir}/diff"

	mkdir "$d"
	build_workload "$d/prog"
	# Two runs of the same work, side by side, so that what else the
	# machine does (a VM's stolen time counts as cpu-clock) weighs on
	# both alike. Within 3 points of each other, each function; a pair
	# that isn't is recorded again once: an outlier of that noise.
	for attempt in 1 2; do
		perf record -q -e cpu-clock -c 100000 -g -o "$d/old.data" "$d/prog" 1000 \
			2> /dev/null &
		perf record -q -e cpu-clock -c 100000 -g -o "$d/new.data" "$d/prog" 1000 \
			2> /dev/null
		wait $!
		perf flamegraph --diff "$d/old.data" -i "$d/new.data" -o "$d/funcs.json" \
			2> /dev/null
		python3 - "$d/funcs.json" <<'PY' && break
import json, sys
funcs = []
def walk(n):
    if n['k'] == 'func' and n['match'] == 'both':
        funcs.append(n)
    for c in n['c']:
        walk(c)
walk(json.load(open(sys.argv[1])))
assert len(funcs) >= 5, funcs
worst = max(funcs, key=lambda n: abs(n['delta']))
if abs(worst['delta']) > 3:
    print(f"{worst['n']}: {worst['delta']:.2f} points between two runs")
    sys.exit(1)
PY
		test $attempt -eq 1
	done
	perf flamegraph --asm -i "$d/old.data" -o "$d/old.json" 2> "$d/old.err"
	perf flamegraph --asm -i "$d/new.data" -o "$d/new.json" 2> "$d/new.err"
	perf flamegraph --asm --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.json" \
		2> "$d/err"
	grep -q "samples of 'cpu-clock' before ($d/old.data), [0-9]* after" "$d/err"
	# A DSO's warnings once, though each recording's session has it.
	cat "$d/old.err" "$d/new.err" | grep "^Warning" | sort -u > "$d/warnings"
	grep "^Warning" "$d/err" | sort | cmp - "$d/warnings"
	perf flamegraph --asm --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.folded" \
		2> /dev/null
	perf flamegraph --asm --diff "$d/old.data" -i "$d/old.data" -o "$d/self.json" \
		2> /dev/null
	# perf diff --flamegraph is the same, byte for byte.
	perf diff --flamegraph="$d/perf-diff.json" --asm "$d/old.data" "$d/new.data" \
		2> /dev/null
	cmp "$d/diff.json" "$d/perf-diff.json"
	refute perf diff --asm "$d/old.data" "$d/new.data" 2> "$d/err"
	grep -q "^--asm: only with --flamegraph" "$d/err"
	# Each side's weights are its own graph's, frame for frame; a file
	# against itself differs by nothing.
	python3 - "$d" <<'PY'
import json, sys
d = sys.argv[1]
def load(name):
    return json.load(open(f'{d}/{name}'))
def total(n):
    return n['v'] + sum(total(c) for c in n['c'])
def paths(n, path=()):
    here = path + ((n['k'], n.get('d', ''), n['n']),)
    yield here, n
    for c in n['c']:
        yield from paths(c, here)
# The diff's nodes, keyed as one side's (kind, dso, label) paths: OLD's
# label is "old_n" where it differs (a function whose name only one
# graph has twice is labelled with its address in that graph alone).
def dpaths(n, side, path=()):
    label = n.get('old_n', n['n']) if side == 'old' else n['n']
    here = path + ((n['k'], n.get('d', ''), label),)
    yield here, n
    for c in n['c']:
        yield from dpaths(c, side, here)
for side in ('old', 'new'):
    diff = dict(dpaths(load('diff.json'), side))
    g = load(f'{side}.json')
    for p, n in paths(g):
        assert p in diff, f'{side}: {p} not in the diff'
        assert diff[p][side] == total(n), f'{side}: {p}: {diff[p][side]} != {total(n)}'
    for p, n in diff.items():
        if n['match'] in (side, 'both'):
            continue
        assert n[side] == 0, f'{p} is not in {side} but weighs {n[side]}'
def zero(n):
    assert n['match'] == 'both' and n['old'] == n['new'] and n['delta'] == 0, n['n']
    for c in n['c']:
        zero(c)
zero(load('self.json'))
# A plain graph's keys: "v" and "s" NEW's, frame for frame, and the
# root's weight, event and unit.
diff = dict(dpaths(load('diff.json'), 'new'))
for p, n in paths(load('new.json')):
    m = diff[p]
    assert (m['v'], m['s'], m.get('a')) == (n['v'], n['s'], n.get('a')), (p, m, n)
diff, new = load('diff.json'), load('new.json')
assert [diff.get(k) for k in ('weight', 'event', 'unit')] == \
       [new[k] for k in ('weight', 'event', 'unit')], diff.keys()
PY
	# Folded: "stack old new" lines that sum to each side's weight, which
	# is perf script's sum of the periods.
	for side in old new; do
		awk -v c="$([ $side = old ] && echo 1 || echo 0)" \
			'{ n += c ? $(NF - 1) : $NF } END { print n }' \
			"$d/diff.folded" > "$d/$side.sum"
		perf script -i "$d/$side.data" -F period 2> /dev/null |
			awk '{ n += $1 } END { print n }' | cmp - "$d/$side.sum"
	done
	grep -q "^prog;.*;mix;[^;]* \[0x[0-9a-f]*\] [0-9]* [0-9]*$" "$d/diff.folded"
	# HTML: the viewer's page with both weights (the browser test drives
	# it); no d3-flame-graph template; the --diff file is never the output.
	perf flamegraph --diff "$d/old.data" -i "$d/new.data" -o "$d/x.html" 2> /dev/null
	grep -q '"diff":true' "$d/x.html"
	echo '/** @flamegraph_json **/' > "$d/t.html"
	refute perf flamegraph --diff "$d/old.data" -i "$d/new.data" -o "$d/y.html" \
		--template "$d/t.html" 2> "$d/err"
	grep -q "^--diff: the d3-flame-graph template has no place for two weights" "$d/err"
	test ! -e "$d/y.html"
	cp "$d/old.data" "$d/keep.data"
	refute perf flamegraph --diff "$d/old.data" -i "$d/new.data" -o "$d/old.data" \
		--format json 2> "$d/err"
	grep -q "is the --diff input: refusing to overwrite it" "$d/err"
	cmp "$d/old.data" "$d/keep.data"
	refute perf flamegraph --diff "$d/none.data" -i "$d/new.data" -o "$d/x.json" \
		2> /dev/null
}

test_diff_rebuild() {
	echo "--diff across a rebuild: an inserted multiply, the loop around it aligned"
	local d="${workdir}/rebuild" src="${shelldir}/lib/flamegraph_rebuild.c" side

	mkdir "$d"
	build_program "$d/prog" "${src}"
	perf record -q -e cpu-clock -c 100000 -g -o "$d/old.data" "$d/prog" 100 2> /dev/null
	nm -S "$d/prog" | awk '$4 == "hot" { print $2 }' > "$d/old.size"
	# Rebuilt in place: OLD's code is only in the build-id cache now.
	build_program "$d/prog" "${src}" -DEXTRA
	perf record -q -e cpu-clock -c 100000 -g -o "$d/new.data" "$d/prog" 100 2> /dev/null
	nm -S "$d/prog" | awk '$4 == "hot" { print $2 }' > "$d/new.size"
	# NEW's instructions: address, then bytes.
	objdump -d "$d/prog" | awk -F'\t' '
		/^[0-9a-f]+ <.*>:$/ { fn = $0; next }
		fn ~ /<hot>:$/ && /^ +[0-9a-f]+:/ && NF > 2 { print $1 $2 }' > "$d/new.insns"
	perf flamegraph --asm --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.json" \
		2> /dev/null
	for side in old new; do
		# Children: a function's samples and its callees', as its frame.
		perf report -i "$d/$side.data" --children -g none --sort sym -q --stdio \
			--no-inline 2> /dev/null > "$d/$side.report"
	done
	python3 - "$d" "${shelldir}/lib" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[2])
from flamegraph_check import frames, heaviest  # noqa: E402,F401
d = sys.argv[1]
diff = json.load(open(f'{d}/diff.json'))
grew = int(open(f'{d}/new.size').read(), 16) - int(open(f'{d}/old.size').read(), 16)
assert grew > 0, grew
def split(label):
    m = re.match(r'^(.*) \[0x([0-9a-f]+)\]$', label)
    return m.group(1), int(m.group(2), 16)
hot = heaviest(diff, 'hot')
assert hot and hot['match'] == 'both', hot
leaves = [c for c in hot['c'] if c['k'] == 'insn']
aligned = [c for c in leaves if c['how'] == 'aligned']
# Two builds: every leaf paired by the alignment or not at all; before the
# multiply the same instructions where they were, after it the loop's
# instructions moved by its size. Which instructions were sampled varies:
# no leaf left unpaired that has its counterpart among the other build's.
moved = 0
for c in aligned:
    (text, addr), (old_text, old_addr) = split(c['n']), split(c.get('old_n', c['n']))
    assert text == old_text and addr - old_addr in (0, grew), (c['n'], c.get('old_n'), grew)
    moved += addr - old_addr == grew
assert moved >= 1, [(c['n'], c['how']) for c in leaves]
old_only = {split(c['n']) for c in leaves if c['match'] == 'old'}
# Where the multiply went in, an instruction may pair with either of two
# of NEW's that are the same bytes (the load of x before it and the one
# after it): both are an alignment as short as the other.
nbytes = {}
for line in open(f'{d}/new.insns'):
    addr, code = line.split(':', 1)
    nbytes[int(addr, 16)] = code.split()
for c in leaves:
    if c['match'] == 'new':
        text, addr = split(c['n'])
        for a in (addr, addr - grew):
            other = a + grew if a == addr else a
            assert (text, a) not in old_only or nbytes.get(other) == nbytes[addr], \
                (c['n'], old_only)
for c in leaves:
    assert c['how'] in ('aligned', 'unmatched'), c
    assert (c['how'] == 'unmatched') == (c['match'] != 'both'), c
# Each function's delta: the difference of its shares in the perf reports.
def report(side):
    r = {}
    for line in open(f'{d}/{side}.report'):
        m = re.match(r'^\s*([0-9.]+)%\s+[0-9.]+%\s+\[\.\]\s+(\S+)', line)
        if m:
            r[m.group(2)] = float(m.group(1))
    return r
old, new = report('old'), report('new')
for name in ('hot', 'cold'):
    got = sum(f['delta'] for f in frames(diff, name))
    want = new[name] - old[name]
    assert abs(got - want) <= 0.011, (name, got, want)
PY
}

test_diff_statics() {
	echo "--diff across a rebuild: two static functions of one name kept apart"
	local d="${workdir}/statics" lib="${shelldir}/lib/flamegraph" g side flags srcs

	mkdir "$d"
	# Relinked with main.c last: with DWARF the two spins swap places and
	# stay apart by source file; without it, and without the symbol
	# table's file symbols that addr2line falls back on, by their order,
	# which that build keeps. -O0 and frame pointers: the same stacks.
	for g in dwarf order; do
		flags=(-O0 -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer)
		[ $g = dwarf ] && flags+=(-g)
		for side in old new; do
			srcs=("$lib"/main.c "$lib"/one.c "$lib"/two.c)
			[ $side = new ] && srcs=("$lib"/one.c "$lib"/two.c "$lib"/main.c)
			[ $side = new ] && [ $g = dwarf ] &&
				srcs=("$lib"/two.c "$lib"/one.c "$lib"/main.c)
			cc "${flags[@]}" -o "$d/prog" "${srcs[@]}"
			[ $g = dwarf ] || objcopy --strip-symbol=main.c --strip-symbol=one.c \
				--strip-symbol=two.c "$d/prog"
			perf record -q -e cpu-clock -c 100000 -g -o "$d/$side.data" "$d/prog" \
				300 2> /dev/null
			nm "$d/prog" | awk '$3 == "spin" { print $1 }' > "$d/$side.spins"
		done
		for side in old new; do
			perf flamegraph -i "$d/$side.data" -o "$d/$side.json" 2> /dev/null
		done
		perf flamegraph --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.json" \
			2> /dev/null
		python3 - "$d" "$g" <<'PY'
import json, re, sys
d, how = sys.argv[1:]
# one.c's spin is the first in address order but in the DWARF case's
# rebuild.
def files(side, swapped):
    addrs = sorted(int(a, 16) for a in open(f'{d}/{side}.spins').read().split())
    assert len(addrs) == 2, addrs
    return dict(zip(addrs, ('two.c', 'one.c') if swapped else ('one.c', 'two.c')))
old_file = files('old', False)
new_file = files('new', how == 'dwarf')
# The spins work() called (not the few stacks a frame-pointer walk
# from a spin's prologue got wrong, which vary from run to run).
def spins(n, out, parent=''):
    if n['k'] == 'func' and re.match(r'^spin \(', n['n']) and \
       parent == 'work':
        out.append(n)
    for c in n.get('c', []):
        spins(c, out, n['n'])
    return out
def total(n):
    return n['v'] + sum(total(c) for c in n.get('c', []))
def addr(label):
    return int(re.search(r'\+(0x[0-9a-f]+)\)$', label).group(1), 16)
def weights(side, files):
    w = {}
    for n in spins(json.load(open(f'{d}/{side}.json')), []):
        f = files[addr(n['n'])]
        w[f] = w.get(f, 0) + total(n)
    return w
old_w, new_w = weights('old', old_file), weights('new', new_file)
got = {}
for n in spins(json.load(open(f'{d}/diff.json')), []):
    assert n['match'] == 'both', (how, n['n'], n['match'])
    f = new_file[addr(n['n'])]
    assert old_file[addr(n.get('old_n', n['n']))] == f, (how, n['n'], n.get('old_n'))
    o, w = got.get(f, (0, 0))
    got[f] = (o + n['old'], w + n['new'])
assert set(got) == {'one.c', 'two.c'}, (how, got)
for f in got:
    assert got[f] == (old_w[f], new_w[f]), (how, f, got[f], old_w[f], new_w[f])
PY
	done
}

test_diff_rename() {
	echo "--diff across a rebuild that renamed a register: paired, operands differ"
	local d="${workdir}/rename" src="${shelldir}/lib/flamegraph_rename.c" side

	[ "$(uname -m)" = x86_64 ] || { skip_part "the workload is x86-64"; return 0; }
	mkdir "$d"
	for side in old new; do
		# Rebuilt in place: OLD's code is only in the build-id cache then.
		if [ $side = old ]; then
			build_program "$d/prog" "${src}"
		else
			build_program "$d/prog" "${src}" -DRENAME
		fi
		perf record -q -e cpu-clock -c 100000 -g -o "$d/$side.data" "$d/prog" 100 \
			2> /dev/null
		objdump -d --no-show-raw-insn "$d/prog" | awk '
			/^[0-9a-f]+ <.*>:$/ { fn = $2; next }
			fn == "<mul>:" && /^ +[0-9a-f]+:/' > "$d/$side.objdump"
	done
	perf flamegraph --asm --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.json" \
		2> /dev/null
	perf flamegraph --asm --diff "$d/old.data" -i "$d/new.data" -o "$d/diff.html" \
		2> /dev/null
	python3 - "$d" "${shelldir}/lib" <<'PY'
import json, re, sys
sys.path.insert(0, sys.argv[2])
from flamegraph_check import frames, heaviest  # noqa: E402,F401
d = sys.argv[1]
def insns(side):
    out = []
    for line in open(f'{d}/{side}.objdump'):
        addr, text = line.split(':', 1)
        text = text.split('<')[0].split()
        out.append((int(addr, 16), text[0], text[1] if len(text) > 1 else ''))
    return out
old, new = insns('old'), insns('new')
# What the rebuild did, in objdump: a nop more before the loop, and
# %rcx renamed %rsi; else the same instructions in the same order.
nops = [i for i, x in enumerate(new) if x[1] == 'nop']
assert len(nops) == 1 and not [x for x in old if x[1] == 'nop'], (old, new)
rest = new[:nops[0]] + new[nops[0] + 1:]
assert len(rest) == len(old), (len(rest), len(old))
partner = {}
new_at = {x[0]: x for x in new}
renamed = 0
for o, n in zip(old, rest):
    # A branch's target moved with the loop.
    assert o[1] == n[1] and (o[1].startswith('j') or o[2].replace('%rcx', '%rsi') == n[2]), \
        (o, n)
    partner[n[0]] = o
    renamed += o[2] != n[2]
assert renamed >= 9, renamed
regs = lambda text: re.findall(r'%\w+', text)
def split(label):
    m = re.match(r'^(.*) \[0x([0-9a-f]+)\]$', label)
    return m.group(1), int(m.group(2), 16)
mul = heaviest(json.load(open(f'{d}/diff.json')), 'mul')
assert mul and mul['match'] == 'both', mul
leaves = [c for c in mul['c'] if c['k'] == 'insn']
old_only = {split(c['n'])[1] for c in leaves if c['match'] == 'old'}
differ = 0
for c in leaves:
    text, addr = split(c['n'])
    if c['match'] == 'old':
        continue
    o = partner.get(addr)
    if c['match'] == 'new':
        # Unpaired only where its place in OLD had no samples.
        assert c['how'] == 'unmatched' and (not o or o[0] not in old_only), (c, o)
        continue
    # Paired with the instruction at its place in OLD, by objdump; the
    # operands said to differ where objdump's registers do.
    old_text, old_addr = split(c.get('old_n', c['n']))
    assert c['how'] == 'aligned' and o and old_addr == o[0], (c['n'], c.get('old_n'), o)
    assert regs(old_text) == regs(o[2]) and regs(text) == regs(new_at[addr][2]), \
        (c['n'], c['old_n'], o, new_at[addr])
    want = regs(o[2]) != regs(text)
    assert (c.get('operands') == 'differ') == want, (c['n'], c.get('old_n'), c.get('operands'))
    differ += want
# The loop is the renamed multiplies: the samples fell among them.
assert differ >= 1, [(c['n'], c['how'], c.get('operands')) for c in leaves]
# The page: the same leaves, aligned (1) with 1 last where operands differ.
page = open(f'{d}/diff.html').read()
data = json.loads(re.search(r'<script type="application/json" id="fg-data">(.*?)</script>',
                            page, re.S).group(1))
S = data['strings']
got = []
def walk(n):
    if (n[1] & 7) == 4 and n[12]:
        got.append((S[n[0]], S[n[11]], n[10]))
    # An instruction's address as a plain page has it: 0x and objdump's.
    m = re.search(r'\[(0x[0-9a-f]+)\]$', S[n[0]])
    if (n[1] & 7) == 4 and m:
        assert n[4] == m.group(1), (S[n[0]], n[4])
        addrs.append(n[4])
    for c in n[6]:
        walk(c)
addrs = []
walk(data['root'])
assert addrs
want = sorted((c['n'], c['old_n'], 1) for c in leaves if c.get('operands') == 'differ')
assert sorted(got) == want, (got, want)
PY
}

test_diff_reorder() {
	echo "--diff across -O1 and -O2: instructions the rebuild reordered, paired"
	local d="${workdir}/reorder" lib="${shelldir}/lib/flamegraph" o try st

	mkdir "$d"
	# two.c's spin: -O1 has its loop's xor before the add, -O2 after, so
	# the alignment pairs one of the two and the other is paired for its
	# text being once in each build. Which of them got samples in both
	# recordings is the machine's to say (skid, load): what is checked
	# is what perf annotate finds in each, and the recordings are taken
	# again, at most three times, while neither was sampled in both.
	for try in 1 2 3; do
		for o in 1 2; do
			cc -O$o -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
				-o "$d/prog" "$lib"/main.c "$lib"/one.c "$lib"/two.c
			perf record -q -e cpu-clock -c 100000 -g -o "$d/O$o.data" "$d/prog" 300 \
				2> /dev/null
			objdump -d --no-show-raw-insn "$d/prog" | awk '
				/^[0-9a-f]+ <.*>:$/ { fn = $2 }
				fn == "<spin>:" && (($2 == "xor" && $3 == "%rcx,%rdx") ||
						    ($2 == "add" && $3 == "$0x1,%rax")) { print $2, $1 }' |
				tr -d : > "$d/O$o.moved"
			test "$(wc -l < "$d/O$o.moved")" -eq 2
		done
		perf diff --flamegraph="$d/diff.json" --asm "$d/O1.data" "$d/O2.data" 2> /dev/null
		st=0
		python3 - "$d" "${shelldir}/lib" <<'PY' || st=$?
import json, re, sys
d = sys.argv[1]
sys.path.insert(0, sys.argv[2])
from flamegraph_check import annotate  # noqa: E402
moved = [dict((m, int(a, 16)) for m, a in (l.split() for l in open(f'{d}/O{o}.moved')))
         for o in (1, 2)]
# objdump address -> period, as perf annotate --show-total-period sums it.
period = [{a: p for a, (p, _) in annotate('perf', f'{d}/O{o}.data', 'prog',
                                          period=True).items()} for o in (1, 2)]
leaves = {'xor': [], 'add': []}
def walk(n, parent):
    m = re.match(r'^(?:(xor)q?\s+%rcx, ?%rdx|(add)q?\s+\$0x1, ?%rax) ', n['n'])
    if n['k'] == 'insn' and parent.startswith('spin (') and m:
        leaves[m.group(1) or m.group(2)].append(n)
    for c in n['c']:
        walk(c, n['n'])
walk(json.load(open(f'{d}/diff.json')), '')
addr = lambda label: int(re.search(r'\[0x([0-9a-f]+)\]$', label).group(1), 16)
paired = 0
for m, got in leaves.items():
    old, new = (period[i].get(moved[i][m], 0) for i in (0, 1))
    if not old and not new:
        assert not got, (m, got)
        continue
    assert len(got) == 1, (m, [(x['n'], x['match']) for x in got])
    x = got[0]
    if old and new:
        assert x['match'] == 'both' and x['how'] == 'aligned', x
        assert [addr(x['old_n']), addr(x['n'])] == [moved[0][m], moved[1][m]], \
            (x['old_n'], x['n'], moved)
        paired += 1
    else:
        assert x['match'] == ('old' if old else 'new'), x
        assert addr(x['n']) == moved[0 if old else 1][m], (x['n'], moved)
    assert [x['old'], x['new']] == [old, new], (m, x['old'], x['new'], old, new)
    print(f"{m}: {old} before at {moved[0][m]:#x}, {new} after at {moved[1][m]:#x}, {x['match']}")
sys.exit(0 if paired else 2)
PY
		[ "$st" -eq 2 ] || break
	done
	[ "$st" -ne 2 ] || skip_part "the moved xor and add got no samples in both builds, 3 times"
	test "$st" -ne 1
}

test_stdout_header() {
	echo "-o -: the page alone on stdout, the recording's header inside it"
	local d="${workdir}/stdout" line

	mkdir "$d"
	perf flamegraph -q -i "${data}" -o - > "$d/page.html" 2> /dev/null
	# Nothing after the page: no header line printed to stdout instead
	# of into the page (print_bpf_btf() once did).
	test "$(tail -n 1 "$d/page.html")" = "</body></html>"
	# Each line perf report --header-only prints for the BPF features
	# is in the page's header, as the other lines of the header are.
	perf report --header-only -i "${data}" > "$d/header" 2> /dev/null
	grep -q "^# bpf_prog_info" "$d/header"
	grep "^# b[pt]f" "$d/header" | while read -r line; do
		grep -qF "\\n${line}\\n" "$d/page.html"
	done
	refute grep -q "^# b[pt]f" "$d/page.html"
}

run_parts test_outputs test_template test_progress test_filters test_help \
	test_offcpu test_record_command test_bad_input test_diff test_diff_rebuild test_diff_statics \
	test_diff_rename test_diff_reorder test_stdout_header
