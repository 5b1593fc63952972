#!/bin/bash
# perf flamegraph: an existing output kept whole
# SPDX-License-Identifier: GPL-2.0
#
# perf flamegraph writes a regular output file to a temporary file beside
# it and renames that over it: a run that fails leaves the previous
# output as it was, a replaced file keeps its mode and a symbolic link
# stays one, and an output that is the input is refused.  /dev/stdout is
# written as stdout.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_output_file.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

data="${workdir}/p.data"
perf record -q -e cpu-clock -g -o "${data}" perf test -w noploop 1 2> /dev/null
perf flamegraph -i "${data}" -o "${workdir}/plain.json" 2> /dev/null

test_replaced() {
	echo "A replaced output keeps its mode; a link stays a link"
	(umask 027; perf flamegraph -i "${data}" -o "${workdir}/new.json" 2> /dev/null)
	test "$(stat -c %a "${workdir}/new.json")" = 640
	echo old > "${workdir}/real.json"
	chmod 600 "${workdir}/real.json"
	ln -s real.json "${workdir}/link.json"
	perf flamegraph -i "${data}" -o "${workdir}/link.json" 2> /dev/null
	test -L "${workdir}/link.json"
	test "$(stat -c %a "${workdir}/real.json")" = 600
	cmp "${workdir}/plain.json" "${workdir}/real.json"
}

test_failed_write() {
	echo "A write that fails leaves the previous output and no temporary file"
	local msg rc=0

	echo old > "${workdir}/kept.json"
	# No byte may be written to a file, stderr included (a pipe here):
	# write(2) fails with EFBIG, SIGXFSZ ignored.
	msg=$(bash -c 'trap "" XFSZ; ulimit -f 0; exec perf flamegraph -i "$1" -o "$2" 2>&1' \
		sh "${data}" "${workdir}/kept.json") || rc=$?
	test "${rc}" -ne 0
	test "$(grep -c "cannot write" <<< "${msg}")" -eq 1
	test "$(tail -1 <<< "${msg}")" = "cannot write ${workdir}/kept.json: File too large"
	test "$(cat "${workdir}/kept.json")" = old
	test -z "$(find "${workdir}" -name '.perf-output.*')"
}

test_input() {
	echo "An output that is the input, by any name, is refused"
	local o

	cp "${data}" "${workdir}/copy.data"
	ln -s p.data "${workdir}/alias.json"
	for o in "${data}" "${workdir}/alias.json"; do
		refute perf flamegraph -i "${data}" -o "$o" 2> "${workdir}/err"
		test "$(wc -l < "${workdir}/err")" -eq 1
		grep -q "is the input" "${workdir}/err"
	done
	cmp "${data}" "${workdir}/copy.data"
}

test_stdout() {
	echo "/dev/stdout is stdout, also when the shell appends it to a file"
	echo first > "${workdir}/log"
	perf flamegraph -i "${data}" --format json -o /dev/stdout >> "${workdir}/log" \
		2> /dev/null
	test "$(head -1 "${workdir}/log")" = first
	tail -n +2 "${workdir}/log" | cmp - "${workdir}/plain.json"
}

run_parts test_replaced test_failed_write test_input test_stdout
