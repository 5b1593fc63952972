#!/bin/bash
# perf report and perf flamegraph: kernel frames of other kernels' recordings
# SPDX-License-Identifier: GPL-2.0
#
# The cases of perf report's foreign kernel fix beyond the series' own
# test (tools/perf/tests/shell/report_foreign_kernel.sh): a recording
# whose header names another release and no kernel build-id at all, and
# recordings as an older perf's pipe writes them, without header
# features, where only the paths of the kernel's module maps say which
# kernel it was (another release, or this one), or nothing does; perf
# flamegraph of the pipe recordings as well as perf report.

set -e

shelldir=$(dirname "$0")
foreign=()

err=0
ran=0
workdir=$(mktemp -d /tmp/__perf_test.report_foreign_kernel_more.XXXXX)

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

# kernel_warnings FILE: how many lines of FILE (a perf command's
# stderr) warn about the kernel of the recording.
kernel_warnings() {
	grep -c -e "^Warning: recorded on kernel " \
		-e "^Warning: the recording doesn't say which kernel" "$1" || true
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

# A kernel module, as an older perf's pipe recording maps it.
module=kernel/fs/ext4/ext4.ko

# make_pipe PART NAME [MODULE-PATH]: a pipe recording of this machine
# as an older perf writes one: no header features, no build-ids, and as
# its kernel's module map only MODULE-PATH, if given. Where it can't be
# made, says why PART is skipped and fails.
make_pipe() {
	local name=$1 f="${workdir}/$2"

	shift 2
	if ! perf record -q -N -B --no-buildid-mmap -e cpu-clock -o - \
		dd if=/dev/zero of=/dev/null bs=4k count=200000 2> /dev/null > "$f.orig"; then
		echo "${name}: perf record failed [Skipped]"
		return 1
	fi
	if ! python3 "${shelldir}/lib/perf_data_pipe_old.py" "$f.orig" "$f" "$@"; then
		echo "${name}: can't rewrite it as an older perf's [Skipped]"
		return 1
	fi
	if [ "$(kernel_samples "$f")" -eq 0 ]; then
		echo "${name}: no kernel samples [Skipped]"
		return 1
	fi
}

# flamegraph_kernel FILE: perf flamegraph of FILE, its warnings in
# err, the samples of its kernel frames in fg.kernel's first line, their
# names, one a line, in syms.
flamegraph_kernel() {
	local rc=0

	perf flamegraph -i "$1" -o "${workdir}/fg.json" 2> "${workdir}/err" || rc=$?
	[ ${rc} -eq 0 ] || return ${rc}
	python3 -c '
import json, sys
def frames(node):
    yield node
    for child in node.get("c", []):
        yield from frames(child)
kernel = [n for n in frames(json.load(open(sys.argv[1]))) if n.get("l") == "kernel"]
print(sum(n["s"] for n in kernel))
for n in kernel:
    print(n["n"].removesuffix(" ([kernel.kallsyms])"))
' "${workdir}/fg.json" > "${workdir}/fg.kernel"
	sed 1d "${workdir}/fg.kernel" | sort -u > "${workdir}/syms"
}

# flamegraph_unnamed PART FILE WARNING: perf flamegraph of FILE leaves
# its kernel frames unnamed as perf report does, with the one warning.
flamegraph_unnamed() {
	local part=$1 f=$2 warning=$3 rc=0 n

	flamegraph_kernel "$f" || rc=$?
	n=$(grep -c -e "${warning}" "${workdir}/err" || true)
	if [ ${rc} -ne 0 ] || [ "$n" -ne 1 ] ||
	   [ "$(kernel_warnings "${workdir}/err")" -ne 1 ]; then
		echo "${part} [Failed: perf flamegraph exited ${rc}, ${n} warnings \"${warning}\"]"
		cat "${workdir}/err"
		return 1
	fi
	if [ ! -s "${workdir}/syms" ] ||
	   [ "$(head -1 "${workdir}/fg.kernel")" -ne "$(kernel_samples "$f")" ]; then
		echo "${part} [Failed: perf flamegraph's kernel frames hold" \
		     "$(head -1 "${workdir}/fg.kernel") samples, not $(kernel_samples "$f")]"
		return 1
	fi
	if comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q . ||
	   grep -qv -e "^0x[0-9a-f]*$" -e "^\[unknown\]$" "${workdir}/syms"; then
		echo "${part} [Failed: perf flamegraph named them from this machine's kernel:" \
		     "$(grep -v -e "^0x[0-9a-f]*$" -e "^\[unknown\]$" "${workdir}/syms" | head -3)]"
		return 1
	fi
}

# check_unnamed PART FILE WARNING: FILE's kernel frames are left unnamed,
# and its one warning about its kernel is WARNING (a grep pattern).
check_unnamed() {
	local part=$1 f=$2 warning=$3 rc=0 n

	perf report -i "$f" --stdio --no-children -g none > "${workdir}/out" \
		2> "${workdir}/err" || rc=$?
	if [ ${rc} -ne 0 ]; then
		echo "${part} [Failed: perf report exited ${rc}]"
		err=1
		return
	fi
	n=$(grep -c -e "${warning}" "${workdir}/err" || true)
	if [ "$n" -ne 1 ] || [ "$(kernel_warnings "${workdir}/err")" -ne 1 ]; then
		echo "${part} [Failed: ${n} warnings \"${warning}\", one expected and no other]"
		cat "${workdir}/err"
		err=1
		return
	fi
	kernel_syms "$f" | sort -u > "${workdir}/syms"
	if [ ! -s "${workdir}/syms" ]; then
		echo "${part} [Failed: no kernel samples shown]"
		err=1
		return
	fi
	# None named after this machine's kernel: addresses, or [unknown].
	if comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q . ||
	   grep -qv -e "^0x[0-9a-f]*$" -e "^\[unknown\]$" "${workdir}/syms"; then
		echo "${part} [Failed: named from this machine's kernel:" \
		     "$(grep -v -e "^0x[0-9a-f]*$" -e "^\[unknown\]$" "${workdir}/syms" | head -3)]"
		err=1
		return
	fi
	# Still kernel samples, as many as when named.
	n=$(kernel_samples "$f")
	if [ "$n" -ne "$(kernel_samples "$f" --kallsyms=/proc/kallsyms)" ]; then
		echo "${part} [Failed: ${n} kernel samples, not as many as with --kallsyms]"
		err=1
		return
	fi
	if ! flamegraph_unnamed "${part}" "$f" "${warning}"; then
		err=1
		return
	fi
	ran=1
	echo "${part} [Success]"
}

test_pipe_foreign() {
	local part="Pipe without features, modules of another release"
	local release=4.9.0-4-amd64 f="${workdir}/pipe-foreign.data" warning

	echo "${part}: kernel frames unnamed, one warning naming it"
	[ "${release}" != "$(uname -r)" ] || release=2.6.32-another-kernel
	make_pipe "${part}" pipe-foreign.data "/lib/modules/${release}/${module}" || return 0
	warning="^Warning: recorded on kernel ${release}, not the running $(uname -r): "
	warning+="its kernel frames are left unnamed"
	check_unnamed "${part}" "$f" "${warning}"
}

test_pipe_unknown() {
	local part="Pipe without features, module paths or kernel build-id"
	local f="${workdir}/pipe-unknown.data" warning

	echo "${part}: kernel frames unnamed, one warning that it doesn't say its kernel"
	make_pipe "${part}" pipe-unknown.data || return 0
	warning="^Warning: the recording doesn't say which kernel it was made on .*: "
	warning+="its kernel frames are left unnamed"
	check_unnamed "${part}" "$f" "${warning}"
}

test_pipe_running() {
	local part="Pipe without features, modules of this release"
	local f="${workdir}/pipe-running.data" rc=0

	echo "${part}: kernel frames named from it"
	if ! grep -qv "^0000000000000000 " /proc/kallsyms; then
		echo "${part}: /proc/kallsyms hides its addresses [Skipped]"
		return
	fi
	make_pipe "${part}" pipe-running.data "/lib/modules/$(uname -r)/${module}" || return 0
	perf report -i "$f" --stdio > /dev/null 2> "${workdir}/err" || rc=$?
	if [ ${rc} -ne 0 ] || [ "$(kernel_warnings "${workdir}/err")" -ne 0 ]; then
		echo "${part} [Failed: exited ${rc}, or warned]"
		cat "${workdir}/err"
		err=1
		return
	fi
	kernel_syms "$f" | sort -u > "${workdir}/syms"
	if ! comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q . ||
	   comm -23 "${workdir}/syms" "${workdir}/kallsyms" | grep -qv "^0x"; then
		echo "${part} [Failed: kernel frames not named from this kernel]"
		err=1
		return
	fi
	# perf flamegraph too.
	flamegraph_kernel "$f" || rc=$?
	if [ ${rc} -ne 0 ] || [ "$(kernel_warnings "${workdir}/err")" -ne 0 ] ||
	   ! comm -12 "${workdir}/syms" "${workdir}/kallsyms" | grep -q .; then
		echo "${part} [Failed: perf flamegraph exited ${rc}, warned, or named none]"
		cat "${workdir}/err"
		err=1
		return
	fi
	ran=1
	echo "${part} [Success]"
}

if command -v python3 > /dev/null; then
	make_foreign another-kernel-no-build-id.data "" -B
else
	echo "Another kernel's recordings [Skipped: no python3 to make them]"
fi
for f in "${foreign[@]}"; do
	test_foreign "$f"
	test_foreign_kallsyms "$f"
done
if command -v python3 > /dev/null; then
	test_pipe_foreign
	test_pipe_unknown
	test_pipe_running
else
	echo "Pipe recordings without features: no python3 to make them [Skipped]"
fi

cleanup
# A part that can't run here says so; only a test none of whose parts
# ran is skipped.
[ ${err} -ne 0 ] || [ ${#foreign[@]} -gt 0 ] || [ ${ran} -eq 1 ] || exit 2
exit ${err}
