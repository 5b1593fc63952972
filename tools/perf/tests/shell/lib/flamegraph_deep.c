// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of deep stacks: burn() runs at
 * the bottom of walk()'s recursion, argv[1] calls deep, deeper than the
 * kernel's callchains go by default (127 entries), then as much again
 * called from shallow(), a few frames below main().
 */
#include <stdlib.h>

/* Built with -O0: nothing here is optimized away. */
unsigned long sink;

void burn(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		sink += i * i;
}

void walk(int depth, unsigned long n)
{
	if (depth > 1)
		walk(depth - 1, n);
	else
		burn(n);
	sink++;
}

void shallow(unsigned long n)
{
	burn(n);
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 200;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 0) : 100000000;

	walk(depth, n);
	shallow(n);
	return 0;
}
