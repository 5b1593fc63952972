// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the perf script python test: its hot function's ELF
 * symbol is "sp\xadin", not UTF-8 (gas takes a quoted name byte for byte).
 * Called through a pointer, as gas can't take such a name as the operand
 * of a call; the empty asm keeps the compiler from dropping the work.
 * Its loop (built with -O1) is a few register instructions and, with
 * SPIN_JMP (x86), a jmp, which names "sp\xadin" as its target: x86's
 * branch back is fused with its cmp (the CPU retires them as one, a
 * timer's sample never lands on it), a jmp is not.
 */
#include <stdlib.h>

unsigned long spin(unsigned long n) __asm__("\"sp\xadin\"");
unsigned long spin(unsigned long n)
{
	unsigned long x = 0, i;

	/* -O1 drops a leaf's frame, which would hide main from its callchain. */
	asm volatile("" : : "r" (__builtin_frame_address(0)));
	for (i = 0; i < n; i++) {
		x += (x >> 3) ^ i;
#ifdef SPIN_JMP
		asm goto("jmp %l[next]" : : : : next);
next:
		;
#endif
	}
	return x;
}

unsigned long (*spin_ptr)(unsigned long n) = spin;

int main(int argc, char **argv)
{
	unsigned long i, loops = argc > 1 ? strtoul(argv[1], NULL, 0) : 100;
	unsigned long sink = 0;

	for (i = 0; i < loops; i++) {
		sink += spin_ptr(1000000);
		asm volatile("" : "+r" (sink));
	}
	return 0;
}
