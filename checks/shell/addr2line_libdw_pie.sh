#!/bin/bash
# perf addr2line.style=libdw: source lines and inlines of a small PIE
# SPDX-License-Identifier: GPL-2.0
#
# libdw reports a shared object, a PIE too, 0x10000 above its file
# addresses: the code of a small PIE, all below 0x10000, must still get
# its source lines and inline frames from libdw alone, the ones
# addr2line(1) gives for the same addresses.  Rebuilt since the
# recording, the program's lines are still those of the build recorded,
# which perf keeps in its build-id cache.

set -e

if ! perf check feature -q dwarf; then
	echo "Skip: perf is built without libdw"
	exit 2
fi
for tool in cc nm addr2line; do
	if ! command -v "${tool}" > /dev/null; then
		echo "Skip: no ${tool}"
		exit 2
	fi
done

err=0
test_dir=$(mktemp -d /tmp/perf-test-addr2line-libdw.XXXXXXXXXX)
prog="${test_dir}/pie"
perf_data="${test_dir}/perf.data"
samples="${test_dir}/samples.txt"
inlines="${test_dir}/inlines.txt"

cleanup() {
	rm -rf "${test_dir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

# libdw alone: no other addr2line to fall back to.
printf '[addr2line]\n\tstyle = libdw\n' > "${test_dir}/perfconfig"
export PERF_CONFIG="${test_dir}/perfconfig"
# No debuginfod server for the system's libraries.
export DEBUGINFOD_URLS=

cat > "${prog}.c" << EOF
#include <stdlib.h>

#ifdef PAD
/* The rebuild's: moves the code and the lines after it. */
int pad(int x)
{
	return x + 1;
}
#endif

static inline __attribute__((always_inline))
unsigned long step(unsigned long x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		x = x * 2654435761UL + 1;
	return x;
}

static unsigned long spin(unsigned long n)
{
	return step(0, n);
}

int main(int argc, char **argv)
{
	return spin(strtoul(argv[1], NULL, 0)) == 42;
}
EOF
if ! cc -O0 -g -fPIE -pie -o "${prog}" "${prog}.c"; then
	echo "Skip: cc cannot build a PIE"
	cleanup
	exit 2
fi
# The binary addr2line(1) and nm read: the one recorded.
bin="${prog}"
spin=$(nm "${bin}" | awk '$3 == "spin" { print $1 }')
if [ $((0x${spin})) -ge $((0x10000)) ]; then
	echo "Skip: spin is at 0x${spin}, not below 0x10000"
	cleanup
	exit 2
fi

perf record -e cpu-clock -g -o "${perf_data}" -- "${prog}" 100000000 2> /dev/null

# addr2line -f [-i] ADDR: "function file:line" lines, the file's base
# name, without addr2line's "(discriminator N)".
a2l() {
	addr2line -e "${bin}" -f "$@" |
		awk 'NR % 2 { f = $1; next }
		     { sub(/ .*/, ""); n = split($0, p, "/"); print f, p[n] }'
}

# What perf script says of the recording, into ${samples} and ${inlines}.
read_samples() {
	# The samples in the program: "IP function+offset srcline".
	perf script -i "${perf_data}" -G -F ip,sym,symoff,dso,srcline |
		awk -v prog="(${prog})" '$NF == prog { s = $1 " " $2; next }
					 s != "" { print s, $1; s = "" }' |
		sort -u > "${samples}"
	if [ ! -s "${samples}" ]; then
		echo "perf script shows no sample in ${prog}"
		err=1
	fi

	# The callchains with inline frames: "IP function srcline [(inlined)]".
	perf script -i "${perf_data}" --inline -F ip,sym,srcline |
		awk 'NF == 2 && $1 ~ /^[0-9a-f]+$/ { s = $1 " " $2; next }
		     s != "" { $1 = $1; print s, $0; s = "" }' |
		sort -u > "${inlines}"
}

test_srcline() {
	local ip symoff srcline sym off addr want

	echo "Source lines of the samples with addr2line.style=libdw:" \
	     "$(wc -l < "${samples}") addresses in ${prog}"
	while read -r ip symoff srcline; do
		sym=${symoff%+*}
		off=${symoff##*+}
		addr=$(nm "${bin}" | awk -v s="${sym}" '$3 == s { print $1 }')
		addr=$(printf '%#x' $((0x${addr} + off)))
		want=$(a2l "${addr}" | awk '{ print $2 }')
		# No line there (crtstuff.c:?, ??:0): perf says dso[offset].
		case "${want}" in
		*:\?|*:0|\?\?*)
			case "${srcline}" in
			*"["*"]") continue ;;
			esac ;;
		esac
		if [ "${srcline}" != "${want}" ]; then
			echo "${ip} ${symoff} (${addr}): perf says ${srcline}, addr2line ${want}"
			err=1
		fi
	done < "${samples}"
}

test_inlines() {
	local ip symoff srcline sym off addr func line n=0 i frames

	echo "Inline frames of the samples with addr2line.style=libdw"
	while read -r ip symoff srcline; do
		sym=${symoff%+*}
		off=${symoff##*+}
		addr=$(nm "${bin}" | awk -v s="${sym}" '$3 == s { print $1 }')
		addr=$(printf '%#x' $((0x${addr} + off)))
		# Innermost first: all but the last are inlined.
		frames=$(a2l -i "${addr}" | wc -l)
		[ "${frames}" -gt 1 ] || continue
		n=$((n + 1))
		i=0
		while read -r func line; do
			i=$((i + 1))
			[ "${i}" -lt "${frames}" ] && line="${line} (inlined)"
			if ! grep -qxF "${ip} ${func} ${line}" "${inlines}"; then
				echo "${ip} (${addr}): perf script --inline" \
				     "has no frame \"${func} ${line}\""
				err=1
			fi
		done < <(a2l -i "${addr}")
	done < "${samples}"
	if [ "${n}" -eq 0 ]; then
		echo "Skip: no sample in inlined code"
	else
		echo "${n} addresses in inlined code"
	fi
}

read_samples
test_srcline
test_inlines

echo "The program rebuilt since the recording: the lines of the one recorded"
cp "${prog}" "${prog}.recorded"
bin="${prog}.recorded"
cc -O0 -g -fPIE -pie -DPAD -o "${prog}" "${prog}.c"
if cmp -s "${prog}" "${bin}"; then
	echo "The rebuild is the same program"
	err=1
fi
read_samples
test_srcline
test_inlines

cleanup
exit $err
