// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for perf flamegraph --inline: step() inlined into two
 * functions, so its frames sit under two callers, each at its caller's
 * address. Built with -I tools/include, for linux/compiler.h.
 */
#include <stdlib.h>
#include <linux/compiler.h>

static __always_inline
unsigned long step(unsigned long x, unsigned long i)
{
	return x * 1000000007UL + i;
}

noinline unsigned long walk_a(unsigned long n)
{
	unsigned long x = n, i;

	for (i = 0; i < n; i++)
		x = step(x, i);
	return x;
}

noinline unsigned long walk_b(unsigned long n)
{
	unsigned long x = 3 * n, i;

	for (i = 0; i < n; i++)
		x = step(x, i) ^ i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long loops = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	unsigned long i, sum = 0;

	/*
	 * Arguments that change: calls of a pure function with the same
	 * ones would be made once.
	 */
	for (i = 0; i < loops; i++)
		sum += walk_a(1000000 + i) + walk_b(1000000 + i);
	return sum == 42;
}
