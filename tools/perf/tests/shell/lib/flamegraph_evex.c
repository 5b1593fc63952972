// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of code that capstone 4 can't
 * decode: two hot functions, each holding an AVX-512 instruction
 * (vptestmb %ymm17,%ymm17,%k2) that never runs, so that perf's disasm
 * layer gives both to objdump, and a plain one between them.  Built with
 * -O0, which inlines nothing.
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

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;

	return (evex_a(n) + plain(n) + evex_b(n)) == 42;
}
