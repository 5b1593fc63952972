// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of data in code (x86-64 only):
 * datafn(), in hand-written assembly, runs a first loop, then jumps over
 * two bytes that start a 10-byte movabs, which swallows the first bytes
 * of its second loop.  A sweep from the symbol's start, as perf annotate
 * and objdump decode it, goes out of step and finds no instruction at
 * the second loop's addresses; the instructions that run are those
 * decoded from the sample IPs.
 */
#include <stdlib.h>

unsigned long datafn(unsigned long n);

asm(".text\n"
	".globl datafn\n"
	".type datafn, @function\n"
	"datafn:\n"
	"\tmovq\t%rdi, %rcx\n"
	"\tshrq\t$2, %rcx\n"
	"0:\tsubq\t$1, %rcx\n"
	"\tjnz\t0b\n"
	"\txorl\t%eax, %eax\n"
	"\tjmp\t1f\n"
	"\t.byte\t0x48, 0xb8\n"	/* movabs $imm64, %rax: 8 bytes more */
	"1:\taddq\t$1, %rax\n"
	"\tcmpq\t%rdi, %rax\n"
	"\tjb\t1b\n"
	"\tret\n"
	".size datafn, .-datafn\n");

unsigned long sink;

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000000;

	sink = datafn(n);
	return 0;
}
