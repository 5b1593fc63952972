#!/bin/bash
# perf annotate: say what could not be annotated, fail when nothing was
# SPDX-License-Identifier: GPL-2.0

set -e

shelldir=$(dirname "$0")

# shellcheck source=lib/perf_has_symbol.sh
. "${shelldir}"/lib/perf_has_symbol.sh

testsym="noploop"

skip_test_missing_symbol ${testsym}

err=0
ran=0
workdir=$(mktemp -d /tmp/__perf_test.annotate_errors.XXXXX)
perfdata="${workdir}/perf.data"

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

test_objdump() {
	echo "An objdump that can't be run is named, and the exit status says so"
	local out="${workdir}/objdump.out" errs="${workdir}/objdump.err"

	if ! perf record -q -o "${perfdata}" perf test -w noploop 2> /dev/null; then
		echo "objdump [Skipped: perf record failed]"
		return
	fi
	ran=1
	# The same data annotates with the objdump found in PATH.
	if ! perf annotate -i "${perfdata}" --stdio --objdump=objdump ${testsym} \
		> "${out}" 2> "${errs}"; then
		echo "objdump [Failed: annotating with objdump]"
		err=1
		return
	fi
	if ! grep -q "<${testsym}>:" "${out}"; then
		echo "objdump [Failed: no ${testsym} in the annotation]"
		err=1
		return
	fi
	for objdump in "${workdir}/nonexistent" "${workdir}" no-such-objdump-here; do
		if perf annotate -i "${perfdata}" --stdio --objdump="${objdump}" ${testsym} \
			> "${out}" 2> "${errs}"; then
			echo "objdump [Failed: exit status 0 with --objdump=${objdump}]"
			err=1
			return
		fi
		if ! grep -qF "Couldn't run ${objdump}: not found or not executable" "${errs}"; then
			echo "objdump [Failed: --objdump=${objdump} not named]"
			cat "${errs}"
			err=1
			return
		fi
		if grep -q "Internal error" "${errs}"; then
			echo "objdump [Failed: internal error with --objdump=${objdump}]"
			err=1
			return
		fi
	done
	echo "objdump [Success]"
}

test_objdump

cleanup
# Exit 2, perf test's skip, when it could not run.
[ ${err} -ne 0 ] || [ ${ran} -eq 1 ] || exit 2
exit ${err}
