/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ARENA_H
#define __PERF_FLAMEGRAPH_ARENA_H

#include <stddef.h>

struct flamegraph_arena_chunk;

/**
 * struct flamegraph_arena - memory for many small objects freed together
 * @chunks: the chunks, the newest first
 * @cur: the first free byte of the newest chunk
 * @end: the end of the newest chunk
 *
 * The flame-graph tree and the caches of resolved samples are hundreds of
 * thousands of small objects that live as long as the tree and are read
 * in no particular order.  From malloc() each is a 4 KiB page fault in its
 * turn and a TLB entry of its own; from an arena they are taken from 2 MiB
 * chunks that the kernel may back with transparent huge pages (see
 * flamegraph__huge_zalloc()), and freed at once.
 */
struct flamegraph_arena {
	struct flamegraph_arena_chunk	*chunks;
	char				*cur;
	char				*end;
};

/**
 * flamegraph_arena__zalloc - zeroed memory from an arena
 * @arena: the arena, zeroed or as flamegraph_arena__exit() left it
 * @size: bytes wanted
 * @align: alignment wanted, a power of two up to 4096; at least 16 is given
 *
 * Return: memory that @arena owns until flamegraph_arena__exit() (it
 * can't be freed on its own); NULL when out of memory, for a @size of 0
 * or more than half the address space, or an @align not as above.
 */
void *flamegraph_arena__zalloc(struct flamegraph_arena *arena, size_t size,
			       size_t align);

/**
 * flamegraph_arena__exit - free all the memory an arena gave out
 * @arena: the arena; it is empty and can be used again afterwards
 */
void flamegraph_arena__exit(struct flamegraph_arena *arena);

/**
 * flamegraph__huge_zalloc - zeroed memory that huge pages may back
 * @size: bytes wanted
 *
 * Anonymous memory aligned to and rounded up to 2 MiB, that the kernel is
 * asked with madvise(MADV_HUGEPAGE) to back with transparent huge pages
 * where /sys/kernel/mm/transparent_hugepage/enabled is "madvise" (the
 * default of many distributions); with "never" it is plain memory.
 *
 * Return: the memory, to be freed with flamegraph__huge_free() and the
 * same @size, or NULL when out of memory.
 */
void *flamegraph__huge_zalloc(size_t size);

/**
 * flamegraph__huge_free - free what flamegraph__huge_zalloc() gave
 * @ptr: the memory, or NULL
 * @size: the size it was asked for
 */
void flamegraph__huge_free(void *ptr, size_t size);

#endif /* __PERF_FLAMEGRAPH_ARENA_H */
