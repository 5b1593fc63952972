// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph --diff across a rebuild: built twice,
 * the second time with -DEXTRA, whose hot loop has one more dependent
 * multiply, and run with the same work (argv[1] rounds) either way.
 */
#include <stdlib.h>

unsigned long sink;

/* Built with -O0: nothing here is inlined or optimized away. */
unsigned long hot(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++) {
		x = x * 0x5851f42d4c957f2dUL + i;
#ifdef EXTRA
		x = x * 0x9e3779b97f4a7c15UL;
#endif
		x ^= x >> 17;
	}
	return x;
}

unsigned long cold(unsigned long n)
{
	unsigned long x = 0, i;

	for (i = 0; i < n; i++)
		x += i ^ (x >> 3);
	return x;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100, r;

	for (r = 0; r < rounds; r++) {
		sink += hot(1000000);
		sink += cold(1000000);
	}
	return 0;
}
