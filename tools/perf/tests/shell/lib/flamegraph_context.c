// SPDX-License-Identifier: GPL-2.0
/*
 * Annotate in context: work() has a hot loop and is called from two
 * functions, one of which calls it from two sites, one hot and one cold.
 * Runs the rounds given (default 300): the same work however busy the
 * machine is, so that each share the test checks is the program's. With
 * "fib" after them, as many rounds of a recursive fib() instead.
 */
#include <stdlib.h>
#include <string.h>

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

/* Recursion: each sample passes fib()'s calls in many of its frames. */
unsigned long fib(unsigned long n)
{
	if (n < 2)
		return n;
	return fib(n - 1) + fib(n - 2);
}

int fib_loop(long rounds)
{
	while (rounds-- > 0)
		sink += fib(22);
	return 0;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 300;

	if (argc > 2 && !strcmp(argv[2], "fib"))
		return fib_loop(rounds);
	while (rounds-- > 0) {
		two_sites();
		one_site();
	}
	return 0;
}
