// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT in miniature for the perf flamegraph tests (x86-64 only): copies
 * a counting loop into anonymous executable memory, names it in
 * /tmp/perf-PID.map as JIT compilers do, and runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const unsigned char loop[] = {
	0x48, 0x89, 0xf9,	/* mov    %rdi,%rcx */
	0x48, 0xff, 0xc9,	/* 1: dec %rcx */
	0x75, 0xfb,		/* jne    1b */
	0xc3,			/* ret */
};

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200;
	void (*jitted)(unsigned long count);
	char path[64];
	FILE *map;
	void *mem;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, loop, sizeof(loop));
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	fprintf(map, "%lx %zx jitted_loop\n", (unsigned long)mem, sizeof(loop));
	fclose(map);

	jitted = (void (*)(unsigned long count))mem;
	while (n--)
		jitted(10000000);
	return 0;
}
