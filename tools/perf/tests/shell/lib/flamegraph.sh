#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the perf flamegraph shell tests (flamegraph_*.sh) share: the work
# directory and its cleanup, a build-id cache of their own, the workload,
# and the loop that runs a test's parts.  The test sets shelldir (its
# directory) and workdir (from mktemp -d) before it sources this file.
#
# shellcheck disable=SC2154

cleanup() {
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

# skip REASON: the whole test can't run here.
skip() {
	echo "Skip: $1"
	cleanup
	exit 2
}

# require COMMAND...: the commands the test can't do without.
require() {
	local c

	for c; do
		command -v "$c" > /dev/null || skip "no $c"
	done
}

# perf_config DIR: a perf config file whose build-id cache is DIR. perf
# takes the cache's place from its config (buildid.dir), not from
# $PERF_BUILDID_DIR, which it only sets for the scripts it runs.
perf_config() {
	printf '[buildid]\n\tdir = %s\n' "$1" > "$1.perfconfig"
	echo "$1.perfconfig"
}

# Keep the build-id cache of the test apart from the user's, and the
# user's ~/.perfconfig out of the test.
PERF_CONFIG=$(perf_config "${workdir}/buildid")
export PERF_CONFIG
export PERF_BUILDID_DIR="${workdir}/buildid"

# fg_check ARGS: lib/flamegraph_check.py, which compares a flame graph
# with what perf annotate, perf script, nm and objdump say.
fg_check() {
	python3 "${shelldir}/lib/flamegraph_check.py" --perf perf "$@"
}

# total FILE: the samples of a JSON FILE; the weight of a folded one.
total() {
	case "$1" in
	*.folded) awk '{ n += $NF } END { printf "%.0f\n", n }' "$1" ;;
	*) python3 -c "import json, sys
def total(n): return n['s'] + sum(total(c) for c in n['c'])
print(total(json.load(open(sys.argv[1]))))" "$1" ;;
	esac
}

# build_program OUT SOURCE... [CFLAGS...]: a test program whose call
# chains are asserted on: no optimization, frame pointers in leaf
# functions too.
build_program() {
	local out=$1

	shift
	cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o "${out}" "$@"
}

# build_workload OUT [--own-build-id]: the workload, with frame pointers
# in leaf functions too (at -O1 and above gcc 12 drops them there even with
# -mno-omit-leaf-frame-pointer). --own-build-id gives it a random build-id,
# so no copy in a build-id cache can stand in for it.
build_workload() {
	local bid=()

	[ "$2" = --own-build-id ] &&
		bid=("-Wl,--build-id=0x$(od -An -tx1 -N20 /dev/urandom | tr -d ' \n')")
	build_program "$1" "${shelldir}"/lib/flamegraph/*.c "${bid[@]}"
}

# objdump_logger DIR: an objdump in DIR that appends its arguments to
# DIR/log, one line per run, and runs the real objdump.  For --objdump
# DIR/objdump, or ahead of it in $PATH: how perf flamegraph ran it.
objdump_logger() {
	local real

	real=$(command -v objdump)
	mkdir -p "$1"
	printf '#!/bin/sh\necho "$*" >> "%s/log"\nexec "%s" "$@"\n' "$1" "${real}" \
		> "$1/objdump"
	chmod +x "$1/objdump"
	: > "$1/log"
}

# objdump_runs LOG DATA DSO: the lines of LOG (see objdump_logger) that
# ran on the binary of DSO (its base name) in the recording DATA: at its
# path, or its copy in the build-id cache.
objdump_runs() {
	local path bid

	read -r bid path < <(perf buildid-list -i "$2" 2> /dev/null |
			     awk -v d="/$3" 'substr($2, length($2) - length(d) + 1) == d')
	test -n "${bid}" || return 1
	awk -v p=" ${path}" -v b="/${bid:0:2}/${bid:2}/" \
		'substr($0, length($0) - length(p) + 1) == p || index($0, b)' "$1"
}

# leaf_addrs JSON DSO [REGEX]: the addresses of the instruction leaves
# of DSO that have text (matching REGEX), one a line.
leaf_addrs() {
	python3 - "$@" <<'PY'
import json, re, sys
def walk(n):
    yield n
    for c in n["c"]:
        yield from walk(c)
want = re.compile(sys.argv[3] if len(sys.argv) > 3 else "")
for a in sorted({int(n["a"], 16) for n in walk(json.load(open(sys.argv[1])))
                 if n["k"] == "insn" and n.get("d") == sys.argv[2] and
                 not n["n"].startswith("[0x") and want.match(n["n"])}):
    print(hex(a))
PY
}

# check_objdump_run RUN ADDRS: RUN (the arguments of one objdump, see
# objdump_logger) decoded from the first of ADDRS to past the last, with
# perf annotate's options and no more.
check_objdump_run() {
	python3 - "$1" "$2" <<'PY'
import re, sys
m = re.match(r"^-d -C --no-show-raw-insn (?:--dwarf=follow-links )?(?:-M \S+ )?"
             r"--start-address=(0x[0-9a-f]+) --stop-address=(0x[0-9a-f]+) \S+$", sys.argv[1])
assert m, sys.argv[1]
start, stop = (int(x, 16) for x in m.groups())
addrs = [int(a, 16) for a in sys.argv[2].split()]
assert addrs and start == min(addrs) and max(addrs) < stop, (hex(start), hex(stop), addrs)
print("one objdump over [%#x, %#x) for %d sampled instructions" % (start, stop, len(addrs)))
PY
}

# The stacks of a binary whose code is gone: named by nothing in it.
no_names() {
	if grep -qE ";(main|work|mix|spin[^;]*);" "$1"; then
		echo "names of a binary gone or replaced in $1"
		return 1
	fi
}

# add_lost IN OUT: OUT is the pipe recording IN of one cpu-clock event
# (sample_type IP|TID|TIME|ID) with a PERF_RECORD_LOST (type 2) of 7
# events after it: its id and count, then the fields sample_id_all adds
# for that sample_type: pid, tid, time and id.
add_lost() {
	if ! perf evlist -v -i "$1" 2> /dev/null | grep -q "sample_type: IP|TID|TIME|ID,"; then
		echo "add_lost: $1's sample_type is not IP|TID|TIME|ID"
		return 1
	fi
	cat "$1" > "$2"
	python3 -c '
import struct, sys
body = struct.pack("<QQ", 0, 7) + struct.pack("<IIQQ", 1, 1, 1 << 62, 0)
sys.stdout.buffer.write(struct.pack("<IHH", 2, 0, 8 + len(body)) + body)' >> "$2"
}

# refute COMMAND...: fail if COMMAND succeeds, which "! COMMAND" does not
# do under set -e.
refute() {
	if "$@"; then
		echo "unexpected success: $*"
		return 1
	fi
}

# skip_part REASON: the part that runs, or a check of it, can't run here:
# "PART: REASON [Skipped]", as upstream's record.sh says it.  The test
# stays Ok; only a test none of whose parts could run is skipped.
skip_part() {
	echo "${fg_part}: $1 [Skipped]" | tee -a "${workdir}/skipped"
}

# run_parts PART...: run each part, a function, in a subshell with set -e;
# a part that fails is named with the command that failed.  Exit 1 if one
# failed, else 2 if every part skipped something, else 0.
run_parts() {
	local t rc err=0 failed

	# shellcheck disable=SC2016
	failed='[[ $- == *e* ]] && echo "${FUNCNAME[0]}: line ${LINENO}: ${BASH_COMMAND}"'
	for t; do
		# Not in an if: set -e must stay in force inside the subshell.
		set +e
		# shellcheck disable=SC2064
		( set -eE; fg_part=$t; trap "${failed}" ERR; $t )
		rc=$?
		set -e
		if [ $rc -ne 0 ]; then
			echo "$t FAILED"
			err=1
		fi
	done
	if [ -s "${workdir}/skipped" ]; then
		echo "Skipped here:"
		cat "${workdir}/skipped"
		[ $err -ne 0 ] ||
			[ "$(cut -d: -f1 "${workdir}/skipped" | sort -u | wc -l)" -lt $# ] ||
			err=2
	fi
	cleanup
	exit $err
}
