// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of code that capstone 4 can't
 * decode: two hot functions, each holding an AVX-512 instruction
 * (vptestmb %ymm17,%ymm17,%k2) that never runs, so that perf's disasm
 * layer gives both to objdump, and a plain one between them.  Built with
 * -O0, which inlines nothing.
 *
 * With a second argument, evex_run() runs that instruction too, 16 times
 * in its loop, so that samples land on instructions capstone can't
 * decode; on a CPU or kernel without AVX-512 (BW and VL) main() exits 3
 * instead, having run nothing.
 */
#include <stdlib.h>

unsigned long evex_a(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i % 7;
	if (!n)
		asm volatile(".byte 0x62, 0xb2, 0x75, 0x20, 0x26, 0xd1");
	return s;
}

unsigned long plain(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i % 5;
	return s;
}

unsigned long evex_b(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s ^= (s << 1) + i % 11;
	if (!n)
		asm volatile(".byte 0x62, 0xb2, 0x75, 0x20, 0x26, 0xd1");
	return s;
}

unsigned long evex_run(unsigned long n)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++) {
		asm volatile(".rept 16\n\t.byte 0x62, 0xb2, 0x75, 0x20, 0x26, 0xd1\n\t.endr");
		s += i % 3;
	}
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;
	unsigned long s = 0;

	if (argc > 2) {
		if (!__builtin_cpu_supports("avx512bw") ||
		    !__builtin_cpu_supports("avx512vl"))
			return 3;
		s = evex_run(n / 4);
	}
	return (s + evex_a(n) + plain(n) + evex_b(n)) == 42;
}
