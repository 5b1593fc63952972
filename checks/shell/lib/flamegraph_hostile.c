// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the browser test of the flame graph viewer: hot functions
 * whose ELF symbols are markup, script and entities. Each is an assembler
 * name in double quotes, which gas takes byte for byte (a '"' escaped with
 * a backslash); they are called through pointers, as gas can't take such
 * a name as the operand of a call.
 *
 * Each burns some time, then calls the next, so the stacks hold them all,
 * one above the other, and each has instruction leaves of its own.
 */
#include <stdlib.h>

volatile unsigned long sink;

#define HOSTILE(fn, name)						\
unsigned long __attribute__((noinline)) fn(unsigned long n, int k) __asm__(name); \
unsigned long __attribute__((noinline)) fn(unsigned long n, int k)	\
{									\
	unsigned long x = k, i;						\
									\
	for (i = 0; i < n; i++)						\
		x += x / 3 + i;						\
	return x + next(n, k);						\
}

static unsigned long next(unsigned long n, int k);

/* The names, as the test expects them: keep them in step. */
HOSTILE(h0, "\"</script><script>window.__pwned=1</script>\"")
HOSTILE(h1, "\"\\\"quoted\\\"&amp;;'&#39;\"")
HOSTILE(h2, "\"<img src=x onerror=window.__pwned=2>\"")
HOSTILE(h3, "\"<svg onload=alert(1)>\"")
HOSTILE(h4, "\"<!--<script>window.__pwned=3//\"")
HOSTILE(h5, "\"javascript:window.__pwned=4\"")

static unsigned long (*volatile chain[])(unsigned long n, int k) = {
	h0, h1, h2, h3, h4, h5,
};

#define NR_HOSTILE (int)(sizeof(chain) / sizeof(chain[0]))

static unsigned long next(unsigned long n, int k)
{
	return k + 1 < NR_HOSTILE ? chain[k + 1](n, k + 1) : 0;
}

int main(int argc, char **argv)
{
	unsigned long loops = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	unsigned long i;

	for (i = 0; i < loops; i++)
		sink += chain[0](100000, 0);
	return 0;
}
