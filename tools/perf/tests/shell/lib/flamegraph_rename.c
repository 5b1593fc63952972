// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph --diff across a rebuild that renames a
 * register: built twice, the second time with -DRENAME, whose hot loop
 * multiplies by a factor held in %rsi instead of %rcx. The instructions
 * and their places stay, only that operand changes (imulq %rcx, %rax,
 * then imulq %rsi, %rax), as a compiler's register allocation changes
 * between builds; a nop before the loop moves it by a byte. x86-64; run
 * with the same work (argv[1] rounds).
 */
#include <stdlib.h>

#ifdef RENAME
#define FACTOR(v)	"S"(v)	/* %rsi */
#else
#define FACTOR(v)	"c"(v)	/* %rcx */
#endif

unsigned long sink;

/*
 * A chain of dependent multiplies: the samples fall among them. Built
 * with -O0: not inlined.
 */
unsigned long mul(unsigned long n)
{
	unsigned long x = 1, f = 0x5851f42d4c957f2dUL, i;

#ifdef RENAME
	/* And one instruction more before the loop: it moves by a byte. */
	asm volatile("nop");
#endif
	for (i = 0; i < n; i++) {
		asm volatile("imulq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "addq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "imulq %1, %0\n\t"
			     "imulq %1, %0"
			     : "+a" (x) : FACTOR(f));
	}
	return x;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 0) : 100, r;

	for (r = 0; r < rounds; r++)
		sink += mul(1000000);
	return 0;
}
