#!/bin/bash
# perf annotate: JIT code named by /tmp/perf-PID.map
# SPDX-License-Identifier: GPL-2.0
#
# The case of perf annotate's "say why a symbol can't be annotated" fix
# beyond the series' own test (annotate_errors.sh): JIT code that a
# /tmp/perf-PID.map names has no image to disassemble; annotating it
# alone fails, saying why, and annotating the whole recording succeeds
# when the other symbols are annotated.

set -e

err=0
skipped=0
workdir=$(mktemp -d /tmp/__perf_test.annotate_jit_map.XXXXX)

cleanup() {
	# The map the JIT program wrote, wherever the test stopped.
	[ ! -s "${workdir}/jit/mappath" ] || rm -f "$(cat "${workdir}/jit/mappath")"
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	echo "Unexpected signal in ${FUNCNAME[1]}"
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

test_jit_map() {
	echo "JIT code named by /tmp/perf-PID.map: not annotated, why said"
	local d="${workdir}/jit" syms rc

	if [ "$(uname -m)" != x86_64 ] || ! command -v cc > /dev/null; then
		echo "JIT map [Skipped: needs x86_64 and cc]"
		skipped=$((skipped + 1))
		return
	fi
	mkdir "$d"
	# Copies a counting loop into anonymous memory, names it in
	# /tmp/perf-PID.map and runs it: perf has its name, not its code.
	cat > "$d/jit.c" <<'EOF'
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const unsigned char loop[] = {
	0x48, 0x89, 0xf9,	/* mov %rdi,%rcx */
	0x48, 0xff, 0xc9,	/* 1: dec %rcx */
	0x75, 0xfb,		/* jne 1b */
	0xc3,			/* ret */
};

int main(int argc, char **argv)
{
	void *mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void (*fn)(unsigned long);
	char path[64];
	FILE *map;

	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, loop, sizeof(loop));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	/* Where the test's cleanup finds the map to remove. */
	map = argc > 1 ? fopen(argv[1], "w") : NULL;
	if (map) {
		fprintf(map, "%s\n", path);
		fclose(map);
	}
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jitted_loop\n", (unsigned long)mem, sizeof(loop));
	fclose(map);
	fn = (void (*)(unsigned long))mem;
	for (int i = 0; i < 5; i++) {
		fn(200000000UL);
		for (volatile unsigned long j = 0; j < 100000000UL; j++)
			;
	}
	return 0;
}
EOF
	cc -O1 -o "$d/jit" "$d/jit.c"
	if ! perf record -q -e cpu-clock -o "$d/jit.data" "$d/jit" "$d/mappath" 2> /dev/null; then
		echo "JIT map [Skipped: perf record failed]"
		skipped=$((skipped + 1))
		return
	fi
	syms=$(perf report -i "$d/jit.data" --stdio -F sym -q 2> /dev/null)
	if ! echo "${syms}" | grep -q "jitted_loop"; then
		echo "JIT map [Skipped: no sample in the JIT code]"
		skipped=$((skipped + 1))
		return
	fi
	# The JIT symbol alone: it can't be annotated, which fails.
	if perf annotate -i "$d/jit.data" --stdio jitted_loop > "$d/out" 2> "$d/err"; then
		echo "JIT map [Failed: exit status 0 annotating jitted_loop alone]"
		err=1
		return
	fi
	if ! grep -q "perf-[0-9]*\.map names JIT code but does not hold it.*perf inject --jit" \
		"$d/err"; then
		echo "JIT map [Failed: no reason given]"
		cat "$d/err"
		err=1
		return
	fi
	# All of them: the others perf can annotate (main of the program,
	# with its image) are, and then the exit status is 0; it is
	# non-zero only when none could be.
	if perf annotate -i "$d/jit.data" --stdio > "$d/out" 2> "$d/err"; then
		rc=0
	else
		rc=$?
	fi
	if ! grep -q "jitted_loop" "$d/err"; then
		echo "JIT map [Failed: jitted_loop not said to fail among the others]"
		err=1
		return
	fi
	if grep -q "^ *Percent *|" "$d/out"; then
		[ "${rc}" -eq 0 ] || {
			echo "JIT map [Failed: exit status ${rc} with symbols annotated]"
			err=1
			return
		}
	elif [ "${rc}" -eq 0 ]; then
		echo "JIT map [Failed: exit status 0 and nothing annotated]"
		err=1
		return
	fi
	echo "JIT map [Success]"
}

test_jit_map

cleanup
[ ${err} -ne 0 ] || [ ${skipped} -eq 0 ] || exit 2
exit ${err}
