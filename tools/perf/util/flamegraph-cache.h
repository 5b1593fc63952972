/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_CACHE_H
#define __PERF_FLAMEGRAPH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct flamegraph_cache;
struct machine;

/**
 * struct flamegraph_cache_key - what decides where a sample goes in the tree
 * @machine: the machine of the sample (host or guest)
 * @pid: process ID of the sample
 * @tid: thread ID of the sample
 * @cpumode: the sample's PERF_RECORD_MISC_CPUMODE_MASK bits
 * @ip: the sample IP, a memory address
 * @nr: entries in @ips
 * @ips: the callchain as recorded, PERF_CONTEXT_* markers included
 *       (borrowed; flamegraph_cache__add() copies it)
 * @hash: set by flamegraph_cache_key__init()
 *
 * With frame-pointer callchains this is all perf's callchain resolution
 * reads, as long as no MMAP, COMM, FORK or EXIT event of the process, nor
 * a KSYMBOL or kernel MMAP event, changed the machine in between.  DWARF
 * (stack copies) and LBR callchains (branch stacks) depend on more and
 * can't be cached by this key.
 */
struct flamegraph_cache_key {
	const struct machine	*machine;
	s32			pid;
	s32			tid;
	u8			cpumode;
	u64			ip;
	u64			nr;
	const u64		*ips;
	size_t			hash;
};

/**
 * struct flamegraph_cache_value - what a key resolved to
 * @filtered: the sample was filtered out (--comms, --dsos, --symbols, ...)
 * @kernel_unmapped: a kernel sample IP with no kernel map
 *
 * Where the sample went in the tree is kept by the tree's builder, in the
 * key's slot (flamegraph_cache__slot()).
 */
struct flamegraph_cache_value {
	bool			filtered;
	bool			kernel_unmapped;
};

/**
 * struct flamegraph_cache_stats - how the cache did, for -v
 * @hits: lookups that found their key
 * @misses: lookups that did not
 * @flushes: times the cache was emptied by an event
 * @pid_flushes: times a process's samples were forgotten
 */
struct flamegraph_cache_stats {
	u64	hits;
	u64	misses;
	u64	flushes;
	u64	pid_flushes;
};

/**
 * flamegraph_cache_key__init - fill in a key and compute its hash
 * @key: the key to fill in
 * @machine: the sample's machine
 * @pid: the sample's process ID
 * @tid: the sample's thread ID
 * @cpumode: the sample's cpumode
 * @ip: the sample IP (memory address)
 * @nr: callchain entries, 0 without a callchain
 * @ips: the callchain (borrowed), NULL when @nr is 0
 */
void flamegraph_cache_key__init(struct flamegraph_cache_key *key,
				const struct machine *machine, s32 pid, s32 tid,
				u8 cpumode, u64 ip, u64 nr, const u64 *ips);

/**
 * flamegraph_cache__new - an empty cache of resolved samples
 * @slot_bits: log2 of its slots; a slot holds one key, its callchain
 *             buffer only grows, so memory is bounded by the slots times
 *             the deepest callchain each saw
 *
 * The cache tells whether a sample's key was seen, and the slot it is in,
 * which stands for the tree node perf flamegraph counted that key's
 * samples in (struct flamegraph_builder_sample), so that a sample seen
 * before skips symbol resolution and the tree walk.  It is direct mapped:
 * a key that lands on a taken slot replaces the one there.
 *
 * Return: the cache, to free with flamegraph_cache__delete(), or NULL
 * when out of memory.
 */
struct flamegraph_cache *flamegraph_cache__new(unsigned int slot_bits);

/**
 * flamegraph_cache__delete - free a cache
 * @cache: the cache, or NULL
 */
void flamegraph_cache__delete(struct flamegraph_cache *cache);

/**
 * flamegraph_cache__flush - forget every entry
 * @cache: the cache
 *
 * Call on each event that changes how an address resolves (see struct
 * flamegraph_cache_key).
 */
void flamegraph_cache__flush(struct flamegraph_cache *cache);

/**
 * flamegraph_cache__flush_pid - forget the entries of one process
 * @cache: the cache
 * @pid: the process ID (of any machine: a guest's process of the same
 *       number is forgotten too)
 *
 * Call on each event that changes how addresses resolve in one process
 * only, or which thread or comm its PID and TIDs are: its MMAP, MMAP2,
 * COMM, FORK and EXIT events.  Other processes' entries stay (as do a
 * few that share its slot of the per-process generations, forgotten
 * too, which is only slower).
 */
void flamegraph_cache__flush_pid(struct flamegraph_cache *cache, s32 pid);

/**
 * flamegraph_cache__find - look a sample up
 * @cache: the cache
 * @key: the sample's key, from flamegraph_cache_key__init()
 * @value: set to what the key resolved to when found
 *
 * Return: true when found.
 */
bool flamegraph_cache__find(struct flamegraph_cache *cache,
			    const struct flamegraph_cache_key *key,
			    struct flamegraph_cache_value *value);

/**
 * flamegraph_cache__slot - the slot of a key
 * @cache: the cache
 * @key: the key, from flamegraph_cache_key__init()
 *
 * Return: the slot flamegraph_cache__find() looks @key up in, and
 * flamegraph_cache__add() puts it in: one of as many as 2^@slot_bits of
 * flamegraph_cache__new(), the same for the same key.
 */
size_t flamegraph_cache__slot(const struct flamegraph_cache *cache,
			      const struct flamegraph_cache_key *key);

/**
 * flamegraph_cache__add - remember what a sample resolved to
 * @cache: the cache
 * @key: the sample's key, not in the cache
 * @value: what it resolved to (copied)
 *
 * Replaces the key that held the same slot.
 *
 * Return: 0, or -ENOMEM (the cache is then unchanged, and still usable).
 */
int flamegraph_cache__add(struct flamegraph_cache *cache,
			  const struct flamegraph_cache_key *key,
			  const struct flamegraph_cache_value *value);

/**
 * flamegraph_cache__stats - hits, misses and flushes so far
 * @cache: the cache
 *
 * Return: the counters (the cache keeps them).
 */
const struct flamegraph_cache_stats *
flamegraph_cache__stats(const struct flamegraph_cache *cache);

#endif /* __PERF_FLAMEGRAPH_CACHE_H */
