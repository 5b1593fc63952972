// SPDX-License-Identifier: GPL-2.0
/*
 * A workload for perf flamegraph's test of periods: few() faults in a
 * few pages, many() in many more, each page once. Recorded with
 * page-faults in frequency mode, perf sets each sample's period to the
 * faults since the last one, which grows as the run goes on: sample
 * counts and periods differ, and perf report's shares are the periods'.
 */
#include <stdlib.h>
#include <sys/mman.h>

#define PAGE_SIZE 4096UL
#define CHUNK 4096UL

/*
 * A macro, so that the faulting store is an instruction of few() and
 * of many(); the test builds this with -O0, which inlines nothing else.
 */
#define TOUCH(pages)							\
	do {								\
		unsigned long left = (pages), n, i;			\
		char *p;						\
									\
		while (left) {						\
			n = left < CHUNK ? left : CHUNK;		\
			p = mmap(NULL, n * PAGE_SIZE,			\
				 PROT_READ | PROT_WRITE,		\
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);	\
			if (p == MAP_FAILED)				\
				exit(1);				\
			for (i = 0; i < n; i++)				\
				p[i * PAGE_SIZE] = 1;			\
			munmap(p, n * PAGE_SIZE);			\
			left -= n;					\
		}							\
	} while (0)

void few(unsigned long pages)
{
	TOUCH(pages);
}

void many(unsigned long pages)
{
	TOUCH(pages);
}

int main(int argc, char **argv)
{
	unsigned long pages = argc > 1 ? strtoul(argv[1], NULL, 0) : 100000;

	few(pages / 20);
	many(pages);
	return 0;
}
