// SPDX-License-Identifier: GPL-2.0
/*
 * A cache of resolved samples for perf flamegraph: most samples of a
 * profile repeat a callchain seen before, and resolving it again (maps,
 * symbols, the precise-IP fix-up, then one tree lookup per frame) is
 * most of the cost of a flame graph.  A sample whose key was seen is
 * counted in the leaf its first one reached.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/log2.h>
#include <linux/zalloc.h>

#include "flamegraph.h"
#include "flamegraph-arena.h"
#include "flamegraph-cache.h"

/*
 * Direct mapped: a key goes to one slot, a new key takes the slot over.
 * A miss costs a hash and a copy, never an allocation once the slot's
 * callchain buffer is large enough, and a flush is a new generation.
 * The slots, tags and callchain buffers are in memory that huge pages
 * may back (flamegraph-arena.h): most lookups go to a slot and a buffer
 * that no recent one did.
 *
 * Most lookups of a large profile miss, and the slots (100 bytes each)
 * are too many to stay in the CPU's caches: each slot's tag, 32 bits of
 * its key's hash, sits in an array of its own that does, so that a key
 * whose tag differs misses without reading its slot.
 */
struct flamegraph_cache_slot {
	struct flamegraph_cache_key	key;
	struct flamegraph_cache_value	value;
	u64				gen;	/* cache->gen when filled */
	u64				pid_gen; /* its process's, likewise */
	u64				*ips;	/* key.ips points here, in @arena */
	u64				ips_alloc;
};

/*
 * A process's samples are forgotten with a new generation of its own:
 * one per PID modulo FLAMEGRAPH_CACHE_PIDS, so that a flush of one PID
 * also forgets those that share its entry, which is only slower.
 */
#define FLAMEGRAPH_CACHE_PIDS	4096

struct flamegraph_cache {
	struct flamegraph_cache_slot	*slots;
	u32				*tags;	/* 0: never filled */
	size_t				mask;
	struct flamegraph_arena		arena;	/* the slots' callchains */
	u64				gen;
	u64				pid_gens[FLAMEGRAPH_CACHE_PIDS];
	struct flamegraph_cache_stats	stats;
};

/* The tag of a key: the hash bits that don't pick its slot, never 0. */
static u32 flamegraph_cache__tag(size_t hash)
{
	return (u32)((u64)hash >> 32) | 1;
}

static u64 *flamegraph_cache__pid_gen(struct flamegraph_cache *cache, s32 pid)
{
	return &cache->pid_gens[(u32)pid % FLAMEGRAPH_CACHE_PIDS];
}

void flamegraph_cache_key__init(struct flamegraph_cache_key *key,
				const struct machine *machine, s32 pid, s32 tid,
				u8 cpumode, u64 ip, u64 nr, const u64 *ips)
{
	size_t hash = (size_t)machine;
	u64 i;

	key->machine = machine;
	key->pid = pid;
	key->tid = tid;
	key->cpumode = cpumode;
	key->ip = ip;
	key->nr = nr;
	key->ips = ips;

	hash = flamegraph__hash_mix(hash, ((u64)(u32)pid << 32) | (u32)tid);
	hash = flamegraph__hash_mix(hash, ((u64)cpumode << 56) ^ nr);
	hash = flamegraph__hash_mix(hash, ip);
	for (i = 0; i < nr; i++)
		hash = flamegraph__hash_mix(hash, ips[i]);
	key->hash = hash;
}

static bool flamegraph_cache_key__equal(const struct flamegraph_cache_key *a,
					const struct flamegraph_cache_key *b)
{
	return a->hash == b->hash && a->machine == b->machine &&
	       a->pid == b->pid && a->tid == b->tid &&
	       a->cpumode == b->cpumode && a->ip == b->ip && a->nr == b->nr &&
	       (a->nr == 0 || !memcmp(a->ips, b->ips, a->nr * sizeof(u64)));
}

struct flamegraph_cache *flamegraph_cache__new(unsigned int slot_bits)
{
	struct flamegraph_cache *cache = zalloc(sizeof(*cache));

	if (!cache)
		return NULL;
	cache->mask = ((size_t)1 << slot_bits) - 1;
	cache->slots = flamegraph__huge_zalloc((cache->mask + 1) * sizeof(*cache->slots));
	cache->tags = flamegraph__huge_zalloc((cache->mask + 1) * sizeof(*cache->tags));
	if (!cache->slots || !cache->tags) {
		flamegraph_cache__delete(cache);
		return NULL;
	}
	cache->gen = 1;
	return cache;
}

void flamegraph_cache__flush(struct flamegraph_cache *cache)
{
	cache->gen++;
	cache->stats.flushes++;
}

void flamegraph_cache__flush_pid(struct flamegraph_cache *cache, s32 pid)
{
	(*flamegraph_cache__pid_gen(cache, pid))++;
	cache->stats.pid_flushes++;
}

void flamegraph_cache__delete(struct flamegraph_cache *cache)
{
	if (!cache)
		return;
	flamegraph_arena__exit(&cache->arena);
	flamegraph__huge_free(cache->slots, (cache->mask + 1) * sizeof(*cache->slots));
	flamegraph__huge_free(cache->tags, (cache->mask + 1) * sizeof(*cache->tags));
	free(cache);
}

size_t flamegraph_cache__slot(const struct flamegraph_cache *cache,
			      const struct flamegraph_cache_key *key)
{
	return key->hash & cache->mask;
}

bool flamegraph_cache__find(struct flamegraph_cache *cache,
			    const struct flamegraph_cache_key *key,
			    struct flamegraph_cache_value *value)
{
	size_t i = flamegraph_cache__slot(cache, key);
	struct flamegraph_cache_slot *slot = &cache->slots[i];

	if (cache->tags[i] != flamegraph_cache__tag(key->hash) ||
	    slot->gen != cache->gen ||
	    slot->pid_gen != *flamegraph_cache__pid_gen(cache, key->pid) ||
	    !flamegraph_cache_key__equal(&slot->key, key)) {
		cache->stats.misses++;
		return false;
	}
	cache->stats.hits++;
	*value = slot->value;
	return true;
}

int flamegraph_cache__add(struct flamegraph_cache *cache,
			  const struct flamegraph_cache_key *key,
			  const struct flamegraph_cache_value *value)
{
	size_t i = flamegraph_cache__slot(cache, key);
	struct flamegraph_cache_slot *slot = &cache->slots[i];

	/* Twice as long when too short: at most as much again is left unused. */
	if (key->nr > slot->ips_alloc) {
		u64 alloc = roundup_pow_of_two(key->nr);
		u64 *ips = flamegraph_arena__zalloc(&cache->arena, alloc * sizeof(u64), 0);

		if (!ips)
			return -ENOMEM;
		slot->ips = ips;
		slot->ips_alloc = alloc;
	}
	slot->key = *key;
	if (key->nr)
		memcpy(slot->ips, key->ips, key->nr * sizeof(u64));
	slot->key.ips = slot->ips;
	slot->value = *value;
	slot->gen = cache->gen;
	slot->pid_gen = *flamegraph_cache__pid_gen(cache, key->pid);
	cache->tags[i] = flamegraph_cache__tag(key->hash);
	return 0;
}

const struct flamegraph_cache_stats *
flamegraph_cache__stats(const struct flamegraph_cache *cache)
{
	return &cache->stats;
}
