#!/bin/bash
# perf flamegraph outputs and bad input
# SPDX-License-Identifier: GPL-2.0
#
# What perf flamegraph writes and where, its filters, its help, and what
# a user sees on bad input: one line, a non-zero exit, nothing
# overwritten.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_outputs.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

require cc python3

# Two threads of perf test -w thloop (comm "perf").
data="${workdir}/p.data"
perf record -q -e cpu-clock -g -o "${data}" perf test -w thloop 1 2> /dev/null

test_outputs() {
	echo "Outputs: long names, stdout"
	local long o

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
	perf flamegraph -i "${data}" --max-stack 2 --format folded --value samples \
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
	# A pipe is read to its end; a file without end is no template.
	cat "$d/base.html" | perf flamegraph -i "${data}" --template /dev/stdin \
		-o "$d/pipe.html" 2> /dev/null
	grep -q "^const stacks = \[{" "$d/pipe.html"
	: > "$d/empty.html"
	refute perf flamegraph -i "${data}" --template "$d/empty.html" -o "$d/x.html" 2> "$d/err"
	grep -q "^--template $d/empty.html: no /\*\* @flamegraph_json \*\*/ in it" "$d/err"
	refute perf flamegraph -i "${data}" --template /dev/zero -o "$d/x.html" 2> "$d/err"
	test "$(cat "$d/err")" = "--template /dev/zero: larger than 16 MB, no template"
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

test_bad_input() {
	echo "Bad input: one line, non-zero exit, nothing overwritten"
	local keep="${workdir}/keep.html" err="${workdir}/bad.err" od f opt

	echo keep > "${keep}"
	refute perf flamegraph -i "${workdir}/nonexistent.data" -o "${keep}" 2> /dev/null
	grep -q keep "${keep}"
	refute perf flamegraph -i "${data}" --format svg -o "${keep}" 2> "${err}"
	grep -q "unknown --format 'svg'" "${err}"
	# --format wins over the output's name, which one warning says.
	perf flamegraph -i "${data}" --format folded -o "${workdir}/f.json" 2> "${err}"
	grep -qx "Warning: writing folded into ${workdir}/f.json, whose name says json" "${err}"
	grep -q "^perf;" "${workdir}/f.json"
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
	refute perf flamegraph -i "${data}" -o - 2> "${err}" >&-
	grep -qx "cannot write stdout: Bad file descriptor" "${err}"
	# --objdump: not there, not in $PATH, empty, a directory; a path with
	# a space is a path like any other (the shell gets it as an argument).
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
	# Cut at a page boundary, where perf would map past the end of the
	# file: the one line perf report says, with --debuginfod too.
	head -c 8192 "${data}" > "${workdir}/page.data"
	perf report --stdio -i "${workdir}/page.data" > /dev/null 2> "${workdir}/page.err" || true
	msg="^${workdir}/page.data is cut short: its data ends at offset 0x[0-9a-f]*"
	grep -q "${msg} but the file at 0x2000: it is truncated$" "${workdir}/page.err"
	# An output named for no format: perf's line is all that is said.
	echo keep > "${workdir}/page.out"
	for o in "" --debuginfod "--format pprof"; do
		st=0
		# shellcheck disable=SC2086
		perf flamegraph -i "${workdir}/page.data" $o -o "${workdir}/page.out" \
			2> "${err}" || st=$?
		test "${st}" -ne 0
		cmp "${err}" "${workdir}/page.err"
		grep -q keep "${workdir}/page.out"
	done
	# Errors exit non-zero, as perf's other commands' do; 129 where
	# parse-options refuses the command line.
	for t in "E -i ${workdir}/nonexistent.data" "E -i ${workdir}/empty.data" \
			"E -i ${data} -e nosuch" "E -i ${data} -S nosuch" \
			"E -i ${data} --format svg" "E -i ${data} --value bogus" \
			"E -i ${data} --max-stack 0" "129 --no-such-option" \
			"E -i ${data} --time bogus" "129 -i ${data} --max-stack -3" \
			"E -i ${workdir}"; do
		st=0
		# shellcheck disable=SC2086
		perf flamegraph ${t#* } -o "${keep}" 2> /dev/null || st=$?
		if [ "${t%% *}" = E ]; then
			test "${st}" -ne 0
			test "${st}" -ne 129
		else
			test "${st}" -eq "${t%% *}"
		fi
	done
	perf flamegraph -i "${workdir}" -o "${keep}" 2> "${err}" || true
	grep -q "^${workdir}: a directory, not a perf.data file$" "${err}"
	for opt in "-e nosuch" "--time bogus"; do
		# shellcheck disable=SC2086
		refute perf flamegraph -i "${data}" $opt -o "${keep}" 2> /dev/null
	done
	grep -q keep "${keep}"
	# An existing file its user can't write is not renamed over, though
	# the directory would let it be: the shell's > refuses it too.  Root
	# writes any file: as nobody, where setpriv can run perf so.
	od="${workdir}/nobody"
	mkdir "${od}"
	chmod a+x "${workdir}"
	cp "${data}" "${od}/in.data"
	echo keep > "${od}/ro.json"
	chmod 444 "${od}/ro.json"
	chown -R 65534 "${od}" 2> /dev/null || true
	set -- setpriv --reuid=65534 --regid=65534 --clear-groups "$(command -v perf)"
	if [ "$(id -u)" -ne 0 ] || ! "$@" version > /dev/null 2>&1; then
		skip_part "no setpriv, or perf can't run as nobody, to write as a user"
		return 0
	fi
	refute "$@" flamegraph -i "${od}/in.data" -o "${od}/ro.json" 2> "${err}"
	grep -q "^cannot write ${od}/ro.json: Permission denied$" "${err}"
	grep -qx keep "${od}/ro.json"
	"$@" flamegraph -i "${od}/in.data" -o "${od}/rw.json" 2> /dev/null
	grep -q '"n":"all"' "${od}/rw.json"
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
	perf flamegraph -i "$d/off.data" -e offcpu-time --value samples -o "$d/n.json" \
		2> /dev/null
	perf script -i "$d/off.data" -F event,period,time 2> /dev/null > "$d/script"
	[ -x "$(command -v "${pprof}")" ] &&
		perf flamegraph -i "$d/off.data" -e offcpu-time -o "$d/off.pb.gz" 2> /dev/null &&
		"${pprof}" -raw "$d/off.pb.gz" > "$d/raw" 2> /dev/null
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

test_cut_header() {
	echo "Cut inside the header, and a pipe's recording: one line, in words"
	local d="${workdir}/cut" n st f msg

	mkdir "$d"
	# A perf.data cut inside its 104-byte header says so, in perf
	# flamegraph and perf report alike, as one cut in its data does.
	for n in 100 20; do
		f="$d/cut${n}.data"
		head -c "${n}" "${data}" > "${f}"
		msg="${f} is cut short: its header ends at offset 0x68"
		msg+=" but the file at $(printf '%#x' "${n}"): it is truncated"
		for cmd in "flamegraph -o $d/x.html" "report --stdio"; do
			st=0
			# shellcheck disable=SC2086
			perf ${cmd} -i "${f}" > /dev/null 2> "$d/err" || st=$?
			if [ "${st}" -eq 0 ] || [ "$(cat "$d/err")" != "${msg}" ]; then
				echo "perf ${cmd%% *} -i ${f}: exit ${st}, said:"
				cat "$d/err"
				return 1
			fi
		done
	done
	# A pipe's recording saved to a file starts with the 16-byte header of
	# a pipe: not a perf.data header, whose data offset its first event
	# would give (here an attr's sample period of 1, which once said
	# "header overlaps data"). Read as perf report reads it, not a word.
	perf record -q -e page-faults -c 1 -o - true > "$d/pipe.data" 2> /dev/null
	test "$(od -An -tu8 -j8 -N8 "$d/pipe.data" | tr -d ' ')" = 16
	perf flamegraph -q -i "$d/pipe.data" -o "$d/pipe.folded" 2> "$d/err"
	test ! -s "$d/err"
	grep -q "^true;" "$d/pipe.folded"
	# perf report's own warnings may come (perf record built with ASan
	# writes no kernel map it can read): none of them of the header.
	perf report --stdio -i "$d/pipe.data" > /dev/null 2> "$d/err"
	refute grep -qiE 'header|corrupt|overlap|incompatible|cut short' "$d/err"
}

# In a mount namespace of its own, on a /tmp of its own (perf copies the
# vDSO there while it reads; the tests beside this one copy theirs to
# the machine's /tmp): perf flamegraph reading the pipe recording of
# $1/pipe.data, then the signal $2 once that copy is there.  Prints its
# exit status and what is left in its /tmp.  perf runs through a
# descriptor of its directory, which the new /tmp may hide (a perf
# built in /tmp).
stop_reading() {
	unshare -m bash -c '
		exec 4< "${3%/*}"
		cd "$1" && mount -t tmpfs none /tmp || exit 2
		rm -f in && mkfifo in
		"/proc/$$/fd/4/${3##*/}" flamegraph -i - -o out.html < in 2> "$2.err" &
		pid=$!
		exec 3> in
		cat pipe.data >&3
		# Two empty rounds (PERF_RECORD_FINISHED_ROUND, type 68, a
		# bare 8-byte header): perf processes a pipe by rounds, each
		# up to the one before it, so all that was written, the vDSO
		# map included, is read now and perf waits on the pipe,
		# however few rounds perf record wrote (on a busy machine it
		# may write none before the end).
		printf "\x44\0\0\0\0\0\x08\0\x44\0\0\0\0\0\x08\0" >&3
		for _ in $(seq 300); do
			ls /tmp | grep -q "^perf-vdso" && break
			sleep 0.2
		done
		# Else perf would die before it copied anything: no check.
		ls /tmp | grep -q "^perf-vdso" || exit 3
		kill "-$2" "${pid}"
		# The end of the input: perf reads a pipe until then.
		exec 3>&-
		st=0
		wait "${pid}" || st=$?
		echo "${st}" $(ls -A /tmp)
	' bash "$1" "$2" "$(perf_binary)"
}

# perf_binary: the perf binary that runs, its links resolved.
perf_binary() {
	readlink -f "$(command -v perf)"
}

test_stop() {
	echo "perf flamegraph stopped by a signal or a reader gone: nothing left behind"
	local d="${workdir}/stop" out

	if ! unshare -m true 2> /dev/null; then
		skip_part "no mount namespace (unshare -m) for a /tmp of its own"
		return 0
	fi
	mkdir "$d"
	perf record -q -e cpu-clock -g -o - perf test -w thloop 1 > "$d/pipe.data" 2> /dev/null
	# SIGTERM while it reads: nothing written, the output as it was,
	# perf's temp files gone, and it dies of the signal.
	echo old > "$d/out.html"
	out=$(stop_reading "$d" TERM)
	test "${out}" = "$((128 + $(kill -l TERM)))"
	test "$(cat "$d/out.html")" = old
	test "$(find "$d" -name '.perf-output.*' | wc -l)" -eq 0
	refute grep -qiE 'cannot write|wrote' "$d/TERM.err"
	# -o - into a reader that stops early (| head), the page far over a
	# pipe's 64 KiB: it dies of SIGPIPE, quietly, having let go of all
	# (SIGPIPE as a shell leaves it, not ignored as perf test may).
	if ! env --default-signal=PIPE true 2> /dev/null; then
		skip_part "no env --default-signal to undo an ignored SIGPIPE"
		return 0
	fi
	out=$(unshare -m bash -c '
		exec 4< "${2%/*}"
		cd "$1" && mount -t tmpfs none /tmp || exit 2
		env --default-signal=PIPE "/proc/$$/fd/4/${2##*/}" flamegraph --asm -i pipe.data \
			-o - 2> pipe.err | head -c 100 > /dev/null
		echo "${PIPESTATUS[0]}" $(ls -A /tmp)
	' bash "$d" "$(perf_binary)")
	test "${out}" = "$((128 + $(kill -l PIPE)))"
	refute grep -qiE 'cannot write|broken pipe|wrote' "$d/pipe.err"
}

test_lost() {
	echo "Lost events: said as perf report says them, the graph written"
	local d="${workdir}/lost"

	mkdir "$d"
	perf record -q -e cpu-clock -c 100000 -o - perf test -w noploop 1 \
		> "$d/pipe.data" 2> /dev/null
	add_lost "$d/pipe.data" "$d/lost.data"
	perf report -i "$d/lost.data" --stdio > /dev/null 2> "$d/report.err"
	grep -q "^Processed [0-9]* events and lost 1 chunks!$" "$d/report.err"
	for f in folded json; do
		perf flamegraph -i "$d/lost.data" -o "$d/lost.$f" 2> "$d/$f.err"
		grep -qx "$(grep "^Processed" "$d/report.err")" "$d/$f.err"
	done
	perf flamegraph -i "$d/pipe.data" -o "$d/pipe.folded" 2> "$d/pipe.err"
	refute grep -q "^Processed" "$d/pipe.err"
	cmp "$d/pipe.folded" "$d/lost.folded"
}

run_parts test_outputs test_template test_progress test_filters test_help \
	test_offcpu test_bad_input test_stdout_header test_cut_header \
	test_stop test_lost
