// SPDX-License-Identifier: GPL-2.0
/*
 * Memory for the flame-graph tree and its caches: small objects from
 * chunks that the kernel may back with transparent huge pages.
 */
#include <stdint.h>
#include <sys/mman.h>
#include <linux/align.h>
#include <linux/kernel.h>

#include "flamegraph-arena.h"

/* A PMD's worth on x86-64 and arm64 with 4 KiB pages. */
#define FLAMEGRAPH_HUGE_SIZE	(2UL << 20)
#define FLAMEGRAPH_ARENA_ALIGN	16
#define FLAMEGRAPH_ARENA_ALIGN_MAX	4096

struct flamegraph_arena_chunk {
	struct flamegraph_arena_chunk	*next;
	size_t				size;
};

static size_t flamegraph__huge_round(size_t size)
{
	return ALIGN(size, FLAMEGRAPH_HUGE_SIZE);
}

void *flamegraph__huge_zalloc(size_t size)
{
	size_t len = flamegraph__huge_round(size), head, tail;
	char *map, *ptr;

	if (!size || len < size)
		return NULL;
	/* Room to start on a huge page boundary, the rest given back. */
	map = mmap(NULL, len + FLAMEGRAPH_HUGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return NULL;
	ptr = (char *)ALIGN((uintptr_t)map, FLAMEGRAPH_HUGE_SIZE);
	head = ptr - map;
	tail = FLAMEGRAPH_HUGE_SIZE - head;
	if (head)
		munmap(map, head);
	if (tail)
		munmap(ptr + len, tail);
#ifdef MADV_HUGEPAGE
	/* Only advice: without huge pages it is still memory. */
	madvise(ptr, len, MADV_HUGEPAGE);
#endif
	return ptr;
}

void flamegraph__huge_free(void *ptr, size_t size)
{
	if (ptr)
		munmap(ptr, flamegraph__huge_round(size));
}

void *flamegraph_arena__zalloc(struct flamegraph_arena *arena, size_t size,
			       size_t align)
{
	struct flamegraph_arena_chunk *chunk;
	size_t hdr, chunk_size;
	char *ptr;

	align = max_t(size_t, align, FLAMEGRAPH_ARENA_ALIGN);
	if (!size || size > SIZE_MAX / 2 || align > FLAMEGRAPH_ARENA_ALIGN_MAX ||
	    (align & (align - 1)))
		return NULL;
	size = ALIGN(size, FLAMEGRAPH_ARENA_ALIGN);
	if (arena->cur) {
		ptr = (char *)ALIGN((uintptr_t)arena->cur, align);
		if (ptr <= arena->end && (size_t)(arena->end - ptr) >= size) {
			arena->cur = ptr + size;
			return ptr;
		}
	}
	/* A chunk starts on a huge page: its header takes @align. */
	hdr = ALIGN(sizeof(*chunk), align);
	chunk_size = max_t(size_t, FLAMEGRAPH_HUGE_SIZE, hdr + size);
	chunk = flamegraph__huge_zalloc(chunk_size);
	if (!chunk)
		return NULL;
	chunk->size = chunk_size;
	chunk->next = arena->chunks;
	arena->chunks = chunk;
	ptr = (char *)chunk + hdr;
	arena->cur = ptr + size;
	arena->end = (char *)chunk + flamegraph__huge_round(chunk_size);
	return ptr;
}

void flamegraph_arena__exit(struct flamegraph_arena *arena)
{
	struct flamegraph_arena_chunk *chunk = arena->chunks, *next;

	for (; chunk; chunk = next) {
		next = chunk->next;
		flamegraph__huge_free(chunk, chunk->size);
	}
	arena->chunks = NULL;
	arena->cur = NULL;
	arena->end = NULL;
}
