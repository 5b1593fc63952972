#!/bin/bash
# perf report: a truncated perf.data is read up to its cut, or an error
# SPDX-License-Identifier: GPL-2.0

set -e

err=0
workdir=$(mktemp -d /tmp/__perf_test.report_truncated.XXXXX)
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

# header_u64 FILE OFFSET: the u64 at OFFSET of FILE's perf_file_header
# (data.offset is at 40, data.size at 48).
header_u64() {
	od -A n -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}

# samples FILE: the samples perf script reads from FILE.
samples() {
	perf script -i "$1" -F ip 2> /dev/null | wc -l
}

if ! perf record -q -e task-clock -o "${perfdata}" perf test -w noploop 2> /dev/null; then
	echo "perf record failed [Skipped]"
	cleanup
	exit 2
fi
data_offset=$(header_u64 "${perfdata}" 40)
data_size=$(header_u64 "${perfdata}" 48)
nr_samples=$(samples "${perfdata}")
if [ "${data_size}" -eq 0 ] || [ "${nr_samples}" -eq 0 ]; then
	echo "No samples recorded [Skipped]"
	cleanup
	exit 2
fi

test_cut_data() {
	echo "A finished perf.data cut inside its data section"
	local cut=$((data_offset + data_size / 2)) f="${workdir}/cut.data"

	head -c "${cut}" "${perfdata}" > "$f"
	if perf report -i "$f" --stdio > "${workdir}/out" 2> "${workdir}/err"; then
		echo "Cut data [Failed: exit status 0]"
		err=1
		return
	fi
	# Where its data should end, and where the file does.
	if ! grep -q "$f is cut short: its data ends at offset $(printf '%#x' \
		$((data_offset + data_size))) but the file at $(printf '%#x' "${cut}")" \
		"${workdir}/err"; then
		echo "Cut data [Failed: not said to be cut short]"
		cat "${workdir}/err"
		err=1
		return
	fi
	echo "Cut data [Success]"
}

test_unfinished() {
	echo "An unfinished perf.data (data size 0, no features): read to its end"
	local f="${workdir}/unfinished.data" cut msg off size mid

	# What perf record leaves when killed: the events written so far
	# and a header that gives the data section no size.
	head -c $((data_offset + data_size)) "${perfdata}" > "$f"
	printf '\0\0\0\0\0\0\0\0' | dd of="$f" bs=1 seek=48 conv=notrunc 2> /dev/null
	if ! perf report -i "$f" --stdio > "${workdir}/out" 2> "${workdir}/err"; then
		echo "Unfinished [Failed: perf report exit status non-zero]"
		cat "${workdir}/err"
		err=1
		return
	fi
	if [ "$(samples "$f")" -ne "${nr_samples}" ]; then
		echo "Unfinished [Failed: $(samples "$f") samples, ${nr_samples} recorded]"
		err=1
		return
	fi
	# Cut inside its last event, as a kill during a write leaves it,
	# and inside the first event that starts in its second half: never
	# between two events, where there is nothing cut short to say.
	# perf report -D gives each event's offset, not in file order.
	mid=$(perf report -D -i "${perfdata}" 2> /dev/null |
		sed -n 's/^\(0x[0-9a-f]*\)@.*\]: event: .*/\1/p' |
		while read -r off; do echo $((off)); done | sort -n |
		awk -v half=$((data_offset + data_size / 2)) '$1 >= half { print $1 + 4; exit }')
	if [ -z "${mid}" ]; then
		echo "Unfinished [Failed: perf report -D shows no event in the second half]"
		err=1
		return
	fi
	for cut in $((data_offset + data_size - 3)) "${mid}"; do
		head -c "${cut}" "$f" > "$f.cut"
		if perf report -i "$f.cut" --stdio > "${workdir}/out" 2> "${workdir}/err"; then
			echo "Unfinished [Failed: exit status 0 with an event cut short]"
			err=1
			return
		fi
		msg=$(grep -oE "is cut short inside (a [0-9]+-byte [A-Z_]+ event|an event header)$(
			) at offset 0x[0-9a-f]+" "${workdir}/err" || true)
		if [ -z "${msg}" ]; then
			echo "Unfinished [Failed: the cut event not named]"
			cat "${workdir}/err"
			err=1
			return
		fi
		# The event (or its 8-byte header) named starts before the cut
		# and ends after it.
		size=8
		case "${msg}" in
		*-byte*) size=$(echo "${msg}" | sed 's/.*inside a \([0-9]*\)-byte.*/\1/') ;;
		esac
		off=$(( $(echo "${msg}" | sed 's/.*offset //') ))
		if [ "${off}" -ge "${cut}" ] || [ $((off + size)) -le "${cut}" ]; then
			echo "Unfinished [Failed: ${size} bytes at ${off} are not cut at ${cut}]"
			err=1
			return
		fi
	done
	echo "Unfinished [Success]"
}

test_cut_header() {
	echo "A perf.data cut inside its header"
	local n f

	# After its magic and before the end of its 104-byte header.
	for n in 100 20; do
		f="${workdir}/cut${n}.data"
		head -c "${n}" "${perfdata}" > "$f"
		if perf report -i "$f" --stdio > "${workdir}/out" 2> "${workdir}/err"; then
			echo "Cut header [Failed: exit status 0 at ${n} bytes]"
			err=1
			return
		fi
		if ! grep -q "^$f is cut short: its header ends at offset 0x68 but the file at $(
			printf '%#x' "${n}"): it is truncated$" "${workdir}/err"; then
			echo "Cut header [Failed: not said to be cut short at ${n} bytes]"
			cat "${workdir}/err"
			err=1
			return
		fi
	done
	echo "Cut header [Success]"
}


test_cut_data
test_cut_header
test_unfinished

cleanup
exit ${err}
