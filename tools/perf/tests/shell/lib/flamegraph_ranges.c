// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of large functions: one function
 * with two hot loops 7 kB apart and code between them that never runs,
 * of which --asm makes lines for the sampled instructions only.  Built
 * with -O0, which lays the code out in source order and inlines nothing.
 */
#include <stdlib.h>

unsigned long sink;

unsigned long two_loops(unsigned long n, int cold)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i % 7;
	if (cold)
		asm volatile(".fill 7000, 1, 0x90");
	for (i = 0; i < n; i++)
		s ^= (s << 1) + i % 11;
	return s;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 50000000;

	sink = two_loops(n, argc > 2);
	return 0;
}
