#!/bin/bash
# perf flamegraph and perf report on recordings of other machines
# SPDX-License-Identifier: GPL-2.0
#
# This repository's own check, not the series': the perf.data files of
# ../shared/profiles/ (its README.md says what each is: hardware events,
# DWARF and LBR call graphs, zstd, an old perf's pipe), recorded on
# other machines whose binaries are not here. For each of their first
# two events: perf flamegraph --asm writes a graph whose weights and
# frames flamegraph_check.py finds as perf script and perf report do,
# says at most one warning per DSO, and at most one about unnamed
# kernel frames. For those of another kernel with kernel samples, perf
# report names none of them from this machine's /proc/kallsyms and says
# so once. $FLAMEGRAPH_PROFILES says where the recordings are, if not
# beside the repository.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_foreign_profiles.XXXXX)
# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh
require python3

top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
profiles=${FLAMEGRAPH_PROFILES:-${top}/../shared/profiles}
# A clone elsewhere (CI's) finds them where this machine keeps them.
[ -n "${FLAMEGRAPH_PROFILES}" ] || [ -d "${profiles}" ] || profiles=/work/shared/profiles

test_flamegraph() {
	local f ev n=0

	echo "perf flamegraph --asm on each recording of another machine"
	for f in "${profiles}"/*.data; do
		# Each recording has events perf script reads.
		perf script -G -F event -i "$f" 2> /dev/null |
			sed 's/^ *//; s/: *$//' | sort -u | head -2 > "${workdir}/events"
		test -s "${workdir}/events"
		for ev in $(cat "${workdir}/events"); do
			echo "$(basename "$f"), event ${ev}"
			perf flamegraph -i "$f" -e "${ev}" --asm -o "${workdir}/f.json" \
				2> "${workdir}/f.err"
			# One warning per DSO at most.
			test "$(grep -c '^Warning: ' "${workdir}/f.err")" -eq \
			     "$(grep '^Warning: ' "${workdir}/f.err" | cut -d: -f2 |
				sort -u | wc -l)"
			# Unnamed kernel frames, for one reason said once.
			test "$(grep -c -e '^Warning: recorded on kernel ' \
				-e 'kernel samples have no kernel map' "${workdir}/f.err")" -le 1
			fg_check --data "$f" --json "${workdir}/f.json" --event "${ev}"
			n=$((n + 1))
		done
	done
	test "$n" -gt 0
}

test_report_kernel() {
	local f release n syms=0

	echo "perf report: another kernel's kernel samples unnamed, one warning"
	awk '{ print $3 }' /proc/kallsyms | sort -u > "${workdir}/kallsyms"
	for f in "${profiles}"/*.data; do
		release=$(perf report --header-only -i "$f" 2> /dev/null |
			  sed -n 's/^# os release : //p')
		if [ -z "${release}" ] || [ "${release}" = "$(uname -r)" ]; then
			continue
		fi
		perf report -v -i "$f" --stdio --no-children -g none \
			> /dev/null 2> "${workdir}/err"
		perf report -i "$f" --stdio --no-children -g none --sort dso,sym -q \
			> "${workdir}/out" 2> /dev/null
		awk '{ for (i = 2; i < NF; i++)
			if ($i == "[k]" && $(i - 1) == "[kernel.kallsyms]") print $(i + 1) }' \
			"${workdir}/out" | sort -u > "${workdir}/syms"
		[ -s "${workdir}/syms" ] || continue
		echo "$(basename "$f"), of kernel ${release}"
		refute grep -q "Using /proc/kallsyms for symbols" "${workdir}/err"
		n=$(grep -c "^Warning: recorded on kernel ${release}" "${workdir}/err" || true)
		test "$n" -eq 1
		# None named after this machine's kernel.
		comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -v '^\[' > "${workdir}/named" || true
		refute test -s "${workdir}/named"
		syms=$((syms + 1))
	done
	[ "${syms}" -gt 0 ] || skip_part "no recording of another kernel with kernel samples"
}

ls "${profiles}"/*.data > /dev/null 2>&1 ||
	skip "no recordings of other machines in ${profiles}"
run_parts test_flamegraph test_report_kernel
