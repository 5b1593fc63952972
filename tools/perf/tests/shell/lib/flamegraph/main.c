// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the perf flamegraph tests: a few hot functions, two of
 * them static functions named "spin" in two translation units, both
 * called from work(), so they would merge if frames were keyed by name.
 */
#include <stdlib.h>

extern unsigned long (*spin_one)(unsigned long n);
extern unsigned long (*spin_two)(unsigned long n);

unsigned long sink;

static unsigned long mix(unsigned long n)
{
	unsigned long x = n, i;

	for (i = 0; i < n; i++)
		x = x * 1000000007UL + i;
	return x;
}

static void work(unsigned long n)
{
	sink += spin_one(n);
	sink += spin_two(2 * n);
	sink += mix(n);
}

int main(int argc, char **argv)
{
	unsigned long loops = argc > 1 ? strtoul(argv[1], NULL, 0) : 300;
	unsigned long i;

	for (i = 0; i < loops; i++)
		work(100000);
	return 0;
}
