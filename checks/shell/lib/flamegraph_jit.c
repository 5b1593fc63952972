// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT in miniature for the perf flamegraph tests (x86-64 only): copies
 * a counting loop into anonymous executable memory and runs it.  It names
 * the code as JIT compilers do, in one of two ways:
 *
 *   flamegraph_jit N          /tmp/perf-PID.map: a name, no code image
 *   flamegraph_jit N DIR      DIR/jit-PID.dump, the jitdump format of
 *                             tools/perf/Documentation/jitdump-specification.txt,
 *                             with the code bytes, for perf inject --jit;
 *                             record with -k mono, the clock it stamps
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const unsigned char loop[] = {
	0x48, 0x89, 0xf9,	/* mov    %rdi,%rcx */
	0x48, 0xff, 0xc9,	/* 1: dec %rcx */
	0x75, 0xfb,		/* jne    1b */
	0xc3,			/* ret */
};

static const char name[] = "jitted_loop";

/* The jitdump file header and JIT_CODE_LOAD record, as in util/jitdump.h. */
struct jitheader {
	uint32_t magic;
	uint32_t version;
	uint32_t total_size;
	uint32_t elf_mach;
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;
};

struct jr_code_load {
	uint32_t id;
	uint32_t total_size;
	uint64_t timestamp;
	uint32_t pid;
	uint32_t tid;
	uint64_t vma;
	uint64_t code_addr;
	uint64_t code_size;
	uint64_t code_index;
};

static uint64_t timestamp(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int write_perf_map(void *mem)
{
	char path[64];
	FILE *map;

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	map = fopen(path, "w");
	if (!map)
		return -1;
	fprintf(map, "%lx %zx %s\n", (unsigned long)mem, sizeof(loop), name);
	return fclose(map);
}

static int write_jitdump(const char *dir, void *mem)
{
	struct jitheader hdr = {
		.magic	    = 0x4A695444,
		.version    = 1,
		.total_size = sizeof(hdr),
		.elf_mach   = EM_X86_64,
		.pid	    = getpid(),
		.timestamp  = timestamp(),
	};
	struct jr_code_load rec = {
		.id	    = 0,	/* JIT_CODE_LOAD */
		.total_size = sizeof(rec) + sizeof(name) + sizeof(loop),
		.timestamp  = timestamp(),
		.pid	    = getpid(),
		.tid	    = syscall(SYS_gettid),
		.vma	    = (uintptr_t)mem,
		.code_addr  = (uintptr_t)mem,
		.code_size  = sizeof(loop),
		.code_index = 0,
	};
	char path[4096];
	void *marker;
	FILE *f;

	snprintf(path, sizeof(path), "%s/jit-%d.dump", dir, getpid());
	f = fopen(path, "w+");
	if (!f)
		return -1;
	/* perf finds the file by this executable mapping of it. */
	marker = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ | PROT_EXEC,
		      MAP_PRIVATE, fileno(f), 0);
	if (marker == MAP_FAILED)
		return -1;
	if (fwrite(&hdr, sizeof(hdr), 1, f) != 1 ||
	    fwrite(&rec, sizeof(rec), 1, f) != 1 ||
	    fwrite(name, sizeof(name), 1, f) != 1 ||
	    fwrite(loop, sizeof(loop), 1, f) != 1)
		return -1;
	return fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 200;
	void (*jitted)(unsigned long count);
	void *mem;

	mem = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 1;
	memcpy(mem, loop, sizeof(loop));
	if (argc > 2 ? write_jitdump(argv[2], mem) : write_perf_map(mem))
		return 1;

	jitted = (void (*)(unsigned long count))mem;
	while (n--)
		jitted(10000000);
	return 0;
}
