// SPDX-License-Identifier: GPL-2.0
/*
 * Annotate in context: work() has a hot loop and is called from two
 * functions, one of which calls it from two sites, one hot and one cold.
 * Runs for the seconds given (default 1); with "fib" after them, a
 * recursive fib() instead.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

int fib_loop(double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		sink += fib(22);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	struct timespec t0, t;

	if (argc > 2 && !strcmp(argv[2], "fib"))
		return fib_loop(secs);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		two_sites();
		one_site();
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	return 0;
}
