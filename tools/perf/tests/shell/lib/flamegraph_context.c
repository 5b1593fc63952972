// SPDX-License-Identifier: GPL-2.0
/*
 * Annotate in context: work() has a hot loop and is called from two
 * functions, one of which calls it from two sites, one hot and one cold.
 * Runs the rounds given (default 300): the same work however busy the
 * machine is, so that each share the test checks is the program's.
 */
#include <stdlib.h>

unsigned long sink;

/* Built with -O0: nothing here is inlined or optimized away. */
unsigned long work(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++)
		x = x * 1000000007UL + i;
	return x;
}

void two_sites(void)
{
	sink += work(400000);	/* hot */
	sink += work(40000);	/* cold */
}

void one_site(void)
{
	sink += work(100000);
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 300;

	while (rounds-- > 0) {
		two_sites();
		one_site();
	}
	return 0;
}
