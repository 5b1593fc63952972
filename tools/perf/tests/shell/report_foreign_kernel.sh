#!/bin/bash
# perf report: kernel frames of another kernel's recording
# SPDX-License-Identifier: GPL-2.0
#
# A recording whose header names another kernel release and build-id
# must not get its kernel frames named from this machine's
# /proc/kallsyms: they stay unnamed, with one warning, unless --kallsyms
# is given. A recording of this kernel still gets names.

set -e

shelldir=$(dirname "$0")
err=0
ran=0
workdir=$(mktemp -d /tmp/__perf_test.report_foreign_kernel.XXXXX)

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

awk '{ print $3 }' /proc/kallsyms | sort -u > "${workdir}/kallsyms"

# kernel_syms FILE [OPTION...]: the names of FILE's kernel samples in
# perf report, sorted.
kernel_syms() {
	local f=$1

	shift
	perf report -i "$f" --stdio --no-children -g none --sort dso,sym -q "$@" 2> /dev/null |
		awk '{ for (i = 2; i < NF; i++)
			if ($i == "[k]" && $(i - 1) == "[kernel.kallsyms]") print $(i + 1) }' |
		sort -u
}

# kernel_samples FILE: how many of FILE's samples are in the kernel,
# named or not.
kernel_samples() {
	perf script -i "$1" -F ip,dso 2> /dev/null | grep -c "(\[kernel\.kallsyms\])" || true
}

record() {
	perf record -q -e cpu-clock "$@" -- \
		dd if=/dev/zero of=/dev/null bs=4k count=500000 2> /dev/null
}

test_foreign() {
	local f="${workdir}/foreign.data" n

	echo "Another kernel's recording: kernel frames unnamed, one warning"
	if ! command -v python3 > /dev/null; then
		echo "Foreign [Skipped: no python3 to rewrite the header]"
		return
	fi
	record -N --no-buildid-mmap -o "$f"
	python3 "${shelldir}/lib/perf_data_set_release.py" "$f" 2.6.32-another-kernel \
		0123456789abcdef0123456789abcdef01234567
	if [ "$(kernel_samples "$f")" -eq 0 ]; then
		echo "Foreign [Skipped: no kernel samples]"
		return
	fi
	ran=1
	kernel_syms "$f" --kallsyms=/proc/kallsyms > "${workdir}/named"
	if ! comm -12 "${workdir}/named" "${workdir}/kallsyms" | grep -q .; then
		echo "Foreign [Failed: not named with --kallsyms=/proc/kallsyms]"
		err=1
		return
	fi
	perf report -v -i "$f" --stdio > /dev/null 2> "${workdir}/err"
	n=$(grep -c "^Warning: recorded on kernel 2.6.32-another-kernel" "${workdir}/err" || true)
	kernel_syms "$f" > "${workdir}/syms"
	if grep -q "Using /proc/kallsyms for symbols" "${workdir}/err" || [ "$n" -ne 1 ] ||
	   [ ! -s "${workdir}/syms" ] ||
	   comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q .; then
		echo "Foreign [Failed: ${n} warnings, or named from this machine's kernel]"
		cat "${workdir}/err"
		err=1
		return
	fi
	echo "Foreign [Success]"
}

test_native() {
	local f="${workdir}/native.data"

	echo "A recording of this kernel: kernel frames named from it"
	if ! grep -qv "^0000000000000000 " /proc/kallsyms; then
		echo "Native [Skipped: /proc/kallsyms hides its addresses]"
		return
	fi
	record -o "$f"
	if [ "$(kernel_samples "$f")" -eq 0 ]; then
		echo "Native [Skipped: no kernel samples]"
		return
	fi
	ran=1
	perf report -i "$f" --stdio > /dev/null 2> "${workdir}/err"
	kernel_syms "$f" > "${workdir}/syms"
	if grep -q "^Warning: recorded on kernel" "${workdir}/err" ||
	   ! comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q .; then
		echo "Native [Failed: warned, or not named from this kernel]"
		cat "${workdir}/err"
		head -5 "${workdir}/syms"
		err=1
		return
	fi
	echo "Native [Success]"
}

test_foreign
test_native
cleanup
# Exit 2, perf test's skip, when neither part could run.
[ ${err} -ne 0 ] || [ ${ran} -eq 1 ] || exit 2
exit ${err}
