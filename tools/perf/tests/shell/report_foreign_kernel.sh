#!/bin/bash
# perf report: kernel frames of another kernel's recording
# SPDX-License-Identifier: GPL-2.0
#
# A recording made on another kernel must not get its kernel frames
# named from this machine's /proc/kallsyms: they stay unnamed kernel
# frames, with one warning saying how to name them, unless --kallsyms
# or --vmlinux is given. A recording of this machine still gets names.
# Another kernel's recordings are made here: this machine's, their
# header naming another release, with another kernel build-id or none.

set -e

shelldir=$(dirname "$0")
# Profiles recorded on other machines, if there are: shared/profiles
# beside the repository (see its README.md), or FLAMEGRAPH_PROFILES.
profiles=${FLAMEGRAPH_PROFILES:-$(cd "$(dirname "$(readlink -f "$0")")/../../../.." &&
	pwd)/../shared/profiles}
# With kernel samples: one with the kernel's build-id, one without.
foreign=()
for f in dwarf-cycles.data zstd-multievent-dwarf.data; do
	f="${profiles}/$f"
	[ -f "$f" ] || continue
	release=$(perf report --header-only -i "$f" 2> /dev/null | sed -n 's/^# os release : //p')
	[ -n "${release}" ] && [ "${release}" != "$(uname -r)" ] && foreign+=("$f")
done

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

# The names of this machine's kernel symbols.
awk '{ print $3 }' /proc/kallsyms | sort -u > "${workdir}/kallsyms"

# kernel_syms FILE [OPTION...]: the symbols of FILE's kernel samples,
# as perf report --stdio shows them, one a line.
kernel_syms() {
	local f=$1

	shift
	perf report -i "$f" --stdio --no-children -g none --sort dso,sym -q "$@" 2> /dev/null |
		awk '{ for (i = 2; i < NF; i++)
			if ($i == "[k]" && $(i - 1) == "[kernel.kallsyms]") print $(i + 1) }'
}

# kernel_samples FILE [OPTION...]: how many of FILE's samples are in the
# kernel, named or not.
kernel_samples() {
	local f=$1

	shift
	perf script -i "$f" -F ip,dso -G "$@" 2> /dev/null |
		grep -c "(\[kernel\.kallsyms\])" || true
}

# make_foreign NAME BUILD-ID RECORD-OPTION...: a recording of this
# machine whose header names another kernel release and, if BUILD-ID is
# not empty, a kernel build-id not the running kernel's (without
# build-id MMAP2 records, the one of the header's build-id table); with
# -B, no kernel build-id at all.
make_foreign() {
	local name=$1 f="${workdir}/$1" bid=$2

	shift 2
	if ! perf record -q -N -e cpu-clock --no-buildid-mmap "$@" -o "$f" \
		dd if=/dev/zero of=/dev/null bs=4k count=200000 2> /dev/null; then
		echo "${name}: another kernel's recording [Skipped: perf record failed]"
		return
	fi
	if [ "$(kernel_samples "$f")" -eq 0 ]; then
		echo "${name}: another kernel's recording [Skipped: no kernel samples]"
		return
	fi
	# shellcheck disable=SC2086
	python3 "${shelldir}/lib/perf_data_set_release.py" "$f" 2.6.32-another-kernel ${bid}
	foreign+=("$f")
}

test_foreign() {
	local f=$1 release n

	echo "$(basename "$f"), of another kernel: kernel frames unnamed, one warning"
	release=$(perf report --header-only -i "$f" 2> /dev/null | sed -n 's/^# os release : //p')

	perf report -v -i "$f" --stdio --no-children -g none > "${workdir}/out" \
		2> "${workdir}/err"
	if grep -q "Using /proc/kallsyms for symbols" "${workdir}/err"; then
		echo "Foreign [Failed: this machine's /proc/kallsyms used]"
		err=1
		return
	fi
	n=$(grep -c "^Warning: recorded on kernel ${release}" "${workdir}/err" || true)
	if [ "$n" -ne 1 ]; then
		echo "Foreign [Failed: ${n} warnings naming kernel ${release}]"
		cat "${workdir}/err"
		err=1
		return
	fi
	if ! grep "^Warning: recorded on kernel ${release}" "${workdir}/err" |
		grep -q -- "-k/--vmlinux or --kallsyms.*perf archive"; then
		echo "Foreign [Failed: the warning does not say how to name them]"
		err=1
		return
	fi
	kernel_syms "$f" > "${workdir}/syms"
	if [ ! -s "${workdir}/syms" ]; then
		echo "Foreign [Failed: no kernel samples shown]"
		err=1
		return
	fi
	# None named after this machine's kernel.
	if sort -u "${workdir}/syms" | comm -12 - "${workdir}/kallsyms" | grep -q .; then
		echo "Foreign [Failed: named from this machine's kernel:" \
		     "$(sort -u "${workdir}/syms" | comm -12 - "${workdir}/kallsyms" | head -3)]"
		err=1
		return
	fi
	# Still kernel samples, as many as when named.
	n=$(kernel_samples "$f")
	if [ "$n" -eq 0 ] ||
	   [ "$n" -ne "$(kernel_samples "$f" --kallsyms=/proc/kallsyms)" ]; then
		echo "Foreign [Failed: ${n} kernel samples, not as many as with --kallsyms]"
		err=1
		return
	fi
	echo "Foreign [Success]"
}

test_foreign_kallsyms() {
	local f=$1

	echo "$(basename "$f") with --kallsyms=/proc/kallsyms: named from it"

	perf report -i "$f" --kallsyms=/proc/kallsyms --stdio --no-children -g none \
		> "${workdir}/out" 2> "${workdir}/err"
	if grep -q "^Warning: recorded on kernel" "${workdir}/err"; then
		echo "Foreign --kallsyms [Failed: warned]"
		err=1
		return
	fi
	kernel_syms "$f" --kallsyms=/proc/kallsyms | sort -u > "${workdir}/syms"
	# Named, each from the kallsyms given.
	if [ ! -s "${workdir}/syms" ] || grep -q "^0x" "${workdir}/syms" ||
	   comm -23 "${workdir}/syms" "${workdir}/kallsyms" | grep -q .; then
		echo "Foreign --kallsyms [Failed: not named from the kallsyms given]"
		err=1
		return
	fi
	echo "Foreign --kallsyms [Success]"
}

test_native() {
	echo "A recording of this kernel: kernel frames named from it"
	local f="${workdir}/native.data"

	if ! grep -qv "^0000000000000000 " /proc/kallsyms; then
		echo "Native [Skipped: /proc/kallsyms hides its addresses]"
		return
	fi
	if ! perf record -q -e cpu-clock -o "$f" \
		dd if=/dev/zero of=/dev/null bs=4k count=500000 2> /dev/null; then
		echo "Native [Skipped: perf record failed]"
		return
	fi
	perf report -i "$f" --stdio > /dev/null 2> "${workdir}/err"
	if grep -q "^Warning: recorded on kernel" "${workdir}/err"; then
		echo "Native [Failed: warned]"
		err=1
		return
	fi
	kernel_syms "$f" | sort -u > "${workdir}/syms"
	if [ ! -s "${workdir}/syms" ]; then
		echo "Native [Skipped: no kernel samples]"
		return
	fi
	# Named from this kernel, the addresses of modules aside.
	if ! comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q . ||
	   comm -23 "${workdir}/syms" "${workdir}/kallsyms" | grep -qv "^0x"; then
		echo "Native [Failed: kernel frames not named from this kernel]"
		err=1
		return
	fi
	ran=1
	echo "Native [Success]"
}

if command -v python3 > /dev/null; then
	make_foreign another-kernel-build-id.data 0123456789abcdef0123456789abcdef01234567
	make_foreign another-kernel-no-build-id.data "" -B
else
	echo "Another kernel's recordings [Skipped: no python3 to make them]"
fi
for f in "${foreign[@]}"; do
	test_foreign "$f"
	test_foreign_kallsyms "$f"
done
test_native

cleanup
# A part that can't run here says so; only a test none of whose parts
# ran is skipped.
[ ${err} -ne 0 ] || [ ${#foreign[@]} -gt 0 ] || [ ${ran} -eq 1 ] || exit 2
exit ${err}
