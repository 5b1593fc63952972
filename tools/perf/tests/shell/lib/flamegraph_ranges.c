// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of large functions: one function
 * with two hot loops several kilobytes apart and code between them that
 * never runs, so that --asm disassembles it in two ranges.  Built with
 * -O0, which lays the code out in source order.
 */
#include <stdlib.h>

static volatile unsigned long sink;

#define COLD1	(sink = sink * 3 + 1);
#define COLD4	COLD1 COLD1 COLD1 COLD1
#define COLD16	COLD4 COLD4 COLD4 COLD4
#define COLD64	COLD16 COLD16 COLD16 COLD16
#define COLD256	COLD64 COLD64 COLD64 COLD64

__attribute__((noinline)) unsigned long two_loops(unsigned long n, int cold)
{
	unsigned long i, s = 0;

	for (i = 0; i < n; i++)
		s += i * i % 7;
	if (cold) {
		COLD256
	}
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
