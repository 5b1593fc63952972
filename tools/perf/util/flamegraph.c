// SPDX-License-Identifier: GPL-2.0
/*
 * The flame-graph tree: samples become paths from a root through the
 * comm and the callchain down to the sampled function and, with --asm,
 * the sampled instruction.
 *
 * Nodes are keyed by what they are (DSO and symbol start, DSO and IP),
 * never by name.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-arena.h"
#include "hashmap.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "symbol.h"

void flamegraph__init(struct flamegraph *fg)
{
	memset(fg, 0, sizeof(*fg));
	fg->root.kind = FLAMEGRAPH_ROOT;
	fg->root.children = RB_ROOT;
	fg->nr_nodes = 1;
}

static void flamegraph_node__delete_children(struct flamegraph_node *node);
static void flamegraph__free_slots(struct flamegraph *fg);

/*
 * Drop what @node and its subtree hold; the nodes themselves are the
 * arena's, their parent's links the caller's job.
 */
static void flamegraph_node__delete(struct flamegraph_node *node)
{
	flamegraph_node__delete_children(node);
	map_symbol__exit(&node->ms);
	free(node->comm);
	free(node->srcline);
}

static void flamegraph_node__delete_children(struct flamegraph_node *node)
{
	struct flamegraph_node *child, *tmp;

	rbtree_postorder_for_each_entry_safe(child, tmp, &node->children, rb_node)
		flamegraph_node__delete(child);
	node->sorted = NULL;
	node->children = RB_ROOT;
}

void flamegraph__exit(struct flamegraph *fg)
{
	flamegraph__free_slots(fg);
	zfree(&fg->insns);
	flamegraph_node__delete_children(&fg->root);
	flamegraph_arena__exit(&fg->arena);
	fg->root.label = NULL;
	hashmap__free(fg->warned);
	fg->warned = NULL;
}

size_t flamegraph__ptr_hash(long key, void *ctx __maybe_unused)
{
	return (size_t)key >> 4;
}

bool flamegraph__ptr_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return key1 == key2;
}

long flamegraph__dso_key(const struct dso *dso)
{
	return dso ? (long)RC_CHK_ACCESS((struct dso *)dso) : 0;
}

bool flamegraph__warn_once(struct flamegraph *fg, const struct dso *dso,
			   bool kernel)
{
	long id = flamegraph__dso_key(dso);
	long key = id ?: kernel;

	if (!fg->warned) {
		fg->warned = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
		if (IS_ERR(fg->warned)) {
			fg->warned = NULL;
			return true;
		}
	}
	/* Out of memory, warn again rather than never. */
	return hashmap__add(fg->warned, key, 1) != -EEXIST;
}

/* What makes a child unique under its parent. */
struct flamegraph_key {
	enum flamegraph_kind	kind;
	const struct dso	*dso;
	u64			addr;
	const char		*comm;
	bool			kernel;
};

static const struct dso *flamegraph_node__dso(const struct flamegraph_node *node)
{
	return node->dso;
}

static int flamegraph_key__cmp(const struct flamegraph_key *key,
			       const struct flamegraph_node *node)
{
	long key_dso, dso;

	if (key->kind != node->kind)
		return key->kind < node->kind ? -1 : 1;
	if (key->kind == FLAMEGRAPH_COMM)
		return strcmp(key->comm, node->comm);
	key_dso = flamegraph__dso_key(key->dso);
	dso = flamegraph__dso_key(node->dso);
	if (key_dso != dso)
		return key_dso < dso ? -1 : 1;
	/* Addresses outside any map: kernel and user ones stay apart. */
	if (key->kernel != node->kernel)
		return key->kernel ? 1 : -1;
	if (key->addr != node->addr)
		return key->addr < node->addr ? -1 : 1;
	return 0;
}

/*
 * A node's first cache line is all a walk of its parent's @children reads
 * (see struct flamegraph_node): nodes start on one.
 */
#define FLAMEGRAPH_NODE_ALIGN		64

/* Children of a node beyond which they are looked up by hash. */
#define FLAMEGRAPH_HASHED_CHILDREN	16

static size_t flamegraph_key__hash(const struct flamegraph_node *parent,
				   const struct flamegraph_key *key)
{
	size_t hash = flamegraph__hash_mix((size_t)parent,
					   (size_t)flamegraph__dso_key(key->dso));

	hash = flamegraph__hash_mix(hash, ((u64)key->kind << 1) | key->kernel);
	hash = flamegraph__hash_mix(hash, key->addr);
	if (key->comm)
		hash = flamegraph__hash_mix(hash, str_hash(key->comm));
	return hash;
}

/* A child looked up in struct flamegraph's @slots. */
struct flamegraph_slot {
	size_t			hash;
	struct flamegraph_node	*node;
};

/* Slots at first: grown by doubling whenever half are taken. */
#define FLAMEGRAPH_SLOTS_MIN	1024

static bool flamegraph_node__is(const struct flamegraph_node *node,
				const struct flamegraph_node *parent,
				const struct flamegraph_key *key)
{
	return node->parent == parent && flamegraph_key__cmp(key, node) == 0;
}

static struct flamegraph_node *flamegraph__find_slot(struct flamegraph *fg,
						     const struct flamegraph_node *parent,
						     const struct flamegraph_key *key,
						     size_t hash)
{
	size_t i = hash & fg->slots_mask;

	for (; fg->slots[i].node; i = (i + 1) & fg->slots_mask) {
		if (fg->slots[i].hash == hash &&
		    flamegraph_node__is(fg->slots[i].node, parent, key))
			return fg->slots[i].node;
	}
	return NULL;
}

static void flamegraph__put_slot(struct flamegraph_slot *slots, size_t mask,
				 struct flamegraph_node *node)
{
	size_t i = node->hash & mask;

	while (slots[i].node)
		i = (i + 1) & mask;
	slots[i].hash = node->hash;
	slots[i].node = node;
}

/* Room for @nr more nodes in fg->slots.  Return: 0, -ENOMEM. */
static int flamegraph__reserve_slots(struct flamegraph *fg, size_t nr)
{
	size_t size = fg->slots ? fg->slots_mask + 1 : 0, new_size, i;
	struct flamegraph_slot *slots;

	if ((fg->nr_slotted + nr) * 2 <= size)
		return 0;
	new_size = size ?: FLAMEGRAPH_SLOTS_MIN;
	while ((fg->nr_slotted + nr) * 2 > new_size)
		new_size *= 2;
	slots = flamegraph__huge_zalloc(new_size * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < size; i++) {
		if (fg->slots[i].node)
			flamegraph__put_slot(slots, new_size - 1, fg->slots[i].node);
	}
	flamegraph__huge_free(fg->slots, size * sizeof(*slots));
	fg->slots = slots;
	fg->slots_mask = new_size - 1;
	return 0;
}

static void flamegraph__add_slot(struct flamegraph *fg,
				 struct flamegraph_node *node)
{
	flamegraph__put_slot(fg->slots, fg->slots_mask, node);
	fg->nr_slotted++;
}

static void flamegraph__free_slots(struct flamegraph *fg)
{
	if (fg->slots)
		flamegraph__huge_free(fg->slots, (fg->slots_mask + 1) * sizeof(*fg->slots));
	fg->slots = NULL;
	fg->slots_mask = 0;
	fg->nr_slotted = 0;
}

/*
 * Put @node in fg->slots if its parent's children are looked up there;
 * all of them once the parent gets that many.
 */
static int flamegraph__hash_child(struct flamegraph *fg,
				  struct flamegraph_node *parent,
				  struct flamegraph_node *node)
{
	struct rb_node *nd;
	int err;

	if (parent->nr_children < FLAMEGRAPH_HASHED_CHILDREN)
		return 0;
	/* The one that makes them many: all of its siblings too. */
	err = flamegraph__reserve_slots(fg, parent->nr_children > FLAMEGRAPH_HASHED_CHILDREN ?
					    1 : parent->nr_children + 1);
	if (err)
		return err;
	flamegraph__add_slot(fg, node);
	if (parent->nr_children > FLAMEGRAPH_HASHED_CHILDREN)
		return 0;
	for (nd = rb_first(&parent->children); nd; nd = rb_next(nd))
		flamegraph__add_slot(fg, rb_entry(nd, struct flamegraph_node, rb_node));
	return 0;
}

/* Room in fg->insns for one more.  Return: 0, -ENOMEM. */
static int flamegraph__reserve_insn(struct flamegraph *fg)
{
	size_t alloc = fg->alloc_insns ? fg->alloc_insns * 2 : 1024;
	struct flamegraph_node **insns;

	if (fg->nr_insns < fg->alloc_insns)
		return 0;
	insns = realloc(fg->insns, alloc * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	fg->insns = insns;
	fg->alloc_insns = alloc;
	return 0;
}

static struct flamegraph_node *
flamegraph__child(struct flamegraph *fg, struct flamegraph_node *parent,
		  const struct flamegraph_key *key,
		  const struct flamegraph_frame *frame)
{
	struct rb_node **p = &parent->children.rb_node;
	struct rb_node *rb_parent = NULL;
	struct flamegraph_node *node;
	size_t hash = flamegraph_key__hash(parent, key);

	/*
	 * Few children: a short walk over nodes that are likely in the CPU
	 * cache.  Many (address leaves, broken callchains): one probe.
	 */
	if (parent->nr_children > FLAMEGRAPH_HASHED_CHILDREN) {
		node = flamegraph__find_slot(fg, parent, key, hash);
		if (node)
			return node;
	}

	/* Found on the way, or new: its place among its siblings. */
	while (*p) {
		int cmp;

		rb_parent = *p;
		node = rb_entry(rb_parent, struct flamegraph_node, rb_node);
		cmp = flamegraph_key__cmp(key, node);
		if (cmp == 0)
			return node;
		p = cmp < 0 ? &(*p)->rb_left : &(*p)->rb_right;
	}

	if (key->kind == FLAMEGRAPH_INSN && flamegraph__reserve_insn(fg))
		return NULL;
	node = flamegraph_arena__zalloc(&fg->arena, sizeof(*node), FLAMEGRAPH_NODE_ALIGN);
	if (!node)
		return NULL;
	node->kind = key->kind;
	node->addr = key->addr;
	node->parent = parent;
	node->dso = key->dso;
	node->kernel = key->kernel;
	node->hash = hash;
	node->children = RB_ROOT;
	if (key->comm) {
		node->comm = strdup(key->comm);
		if (!node->comm)
			return NULL;
	}
	if (flamegraph__hash_child(fg, parent, node)) {
		free(node->comm);
		return NULL;
	}
	if (frame) {
		node->ms.maps = maps__get(frame->ms.maps);
		node->ms.map = map__get(frame->ms.map);
		node->ms.sym = key->kind == FLAMEGRAPH_UNKNOWN ? NULL : frame->ms.sym;
		if (node->ms.map)
			node->objdump_addr = map__rip_2objdump(node->ms.map, key->addr);
		else
			node->objdump_addr = key->addr;
	}
	rb_link_node(&node->rb_node, rb_parent, p);
	rb_insert_color(&node->rb_node, &parent->children);
	parent->nr_children++;
	fg->nr_nodes++;
	if (key->kind == FLAMEGRAPH_INSN)
		fg->insns[fg->nr_insns++] = node;
	return node;
}

static void flamegraph_frame__key(const struct flamegraph_frame *frame,
				  struct flamegraph_key *key)
{
	struct map *map = frame->ms.map;

	key->dso = map ? map__dso(map) : NULL;
	key->comm = NULL;
	key->kernel = frame->kernel;
	if (frame->ms.sym) {
		key->kind = FLAMEGRAPH_FUNC;
		key->addr = frame->ms.sym->start;
	} else {
		key->kind = FLAMEGRAPH_UNKNOWN;
		key->addr = 0;
	}
}

int flamegraph__add(struct flamegraph *fg, const char *comm,
		    const struct flamegraph_frame *frames, int nr_frames,
		    const struct flamegraph_frame *insn)
{
	return flamegraph__add_samples(fg, comm, frames, nr_frames, insn, 1);
}

struct flamegraph_node *flamegraph__comm(struct flamegraph *fg, const char *comm)
{
	struct flamegraph_key key = {
		.kind = FLAMEGRAPH_COMM,
		.comm = comm ?: "[unknown]",
	};

	return flamegraph__child(fg, &fg->root, &key, NULL);
}

struct flamegraph_node *flamegraph__walk(struct flamegraph *fg,
					 struct flamegraph_node *node,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn)
{
	struct flamegraph_key key;
	int i;

	for (i = 0; node && i < nr_frames; i++) {
		flamegraph_frame__key(&frames[i], &key);
		node = flamegraph__child(fg, node, &key, &frames[i]);
	}
	if (node && insn) {
		memset(&key, 0, sizeof(key));
		key.kind = FLAMEGRAPH_INSN;
		key.kernel = insn->kernel;
		key.dso = insn->ms.map ? map__dso(insn->ms.map) : NULL;
		key.addr = insn->ms.map ? map__map_ip(insn->ms.map, insn->ip) : insn->ip;
		node = flamegraph__child(fg, node, &key, insn);
	}
	return node;
}

struct flamegraph_node *flamegraph__leaf(struct flamegraph *fg, const char *comm,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn)
{
	return flamegraph__walk(fg, flamegraph__comm(fg, comm), frames,
				nr_frames, insn);
}

int flamegraph__add_samples(struct flamegraph *fg, const char *comm,
			    const struct flamegraph_frame *frames, int nr_frames,
			    const struct flamegraph_frame *insn, u64 nr_samples)
{
	struct flamegraph_node *leaf;

	leaf = flamegraph__leaf(fg, comm, frames, nr_frames, insn);
	if (!leaf)
		return -ENOMEM;
	flamegraph__account(fg, leaf, nr_samples);
	return 0;
}

const char *flamegraph_node__dso_name(const struct flamegraph_node *node)
{
	const struct dso *dso = flamegraph_node__dso(node);

	return dso ? dso__short_name(dso) : NULL;
}

bool flamegraph_frame__is_kernel(struct machine *machine, struct map *map,
				 u64 ip)
{
	if (map)
		return dso__kernel(map__dso(map)) != DSO_SPACE__USER;
	return machine && machine__kernel_ip(machine, ip);
}

bool flamegraph_node__is_jit(const struct flamegraph_node *node)
{
	const struct dso *dso = flamegraph_node__dso(node);
	const char *name;
	size_t len;

	if (!dso)
		return false;
	name = dso__short_name(dso);
	len = strlen(name);
	return is_perf_pid_map_name(dso__long_name(dso)) ||
	       (strstarts(name, "jitted-") && len > 3 &&
		!strcmp(name + len - 3, ".so"));
}

const char *flamegraph_node__kind_name(const struct flamegraph_node *node)
{
	static const char * const names[] = {
		[FLAMEGRAPH_ROOT]	= "root",
		[FLAMEGRAPH_COMM]	= "comm",
		[FLAMEGRAPH_FUNC]	= "func",
		[FLAMEGRAPH_UNKNOWN]	= "unknown",
		[FLAMEGRAPH_INSN]	= "insn",
	};

	return names[node->kind];
}

static size_t name_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool name_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return strcmp((const char *)key1, (const char *)key2) == 0;
}

/*
 * Put the children of @node, and below it everyone's, in their @sorted
 * arrays (in the order of the @children rbtree: kind, DSO, address), so
 * that flamegraph_node__finish() walks arrays, not the rbtrees again; and
 * count the distinct functions (DSO, start) per name: a name held by more
 * than one of them is ambiguous and gets qualified in its label.
 */
static int flamegraph_node__gather(struct flamegraph *fg,
				   struct flamegraph_node *node,
				   struct hashmap *first)
{
	struct rb_node *nd;
	u32 i = 0;

	node->sorted = NULL;
	if (!node->nr_children)
		return 0;
	node->sorted = flamegraph_arena__zalloc(&fg->arena, node->nr_children *
						sizeof(*node->sorted), 0);
	if (!node->sorted)
		return -ENOMEM;
	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		struct flamegraph_node *child;
		struct flamegraph_node *seen;
		int err;

		child = rb_entry(nd, struct flamegraph_node, rb_node);
		node->sorted[i++] = child;
		if (child->kind != FLAMEGRAPH_FUNC)
			continue;
		if (!hashmap__find(first, child->ms.sym->name, &seen)) {
			err = hashmap__add(first, child->ms.sym->name, child);
			if (err)
				return err;
		} else if (seen && (flamegraph__dso_key(seen->dso) !=
				    flamegraph__dso_key(child->dso) ||
				    seen->addr != child->addr)) {
			/* NULL marks the name as ambiguous. */
			hashmap__set(first, child->ms.sym->name, NULL, NULL, NULL);
		}
	}
	for (i = 0; i < node->nr_children; i++) {
		int err = flamegraph_node__gather(fg, node->sorted[i], first);

		if (err)
			return err;
	}
	return 0;
}

int flamegraph__set_label(struct flamegraph *fg, struct flamegraph_node *node,
			  const char *fmt, ...)
{
	char buf[256], *label;
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		return -EINVAL;
	label = flamegraph_arena__zalloc(&fg->arena, len + 1, 1);
	if (!label)
		return -ENOMEM;
	if ((size_t)len < sizeof(buf)) {
		memcpy(label, buf, len + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(label, len + 1, fmt, ap);
		va_end(ap);
	}
	node->label = label;
	return 0;
}

static int flamegraph_node__make_label(struct flamegraph *fg,
				       struct flamegraph_node *node,
				       struct hashmap *first)
{
	struct flamegraph_node *seen = NULL;

	switch (node->kind) {
	case FLAMEGRAPH_ROOT:
		return flamegraph__set_label(fg, node, "all");
	case FLAMEGRAPH_COMM:
		return flamegraph__set_label(fg, node, "%s", node->comm);
	case FLAMEGRAPH_UNKNOWN:
		return flamegraph__set_label(fg, node, "[unknown]");
	case FLAMEGRAPH_FUNC:
		hashmap__find(first, node->ms.sym->name, &seen);
		if (seen)
			return flamegraph__set_label(fg, node, "%s", node->ms.sym->name);
		return flamegraph__set_label(fg, node, "%s (%s+%#" PRIx64 ")",
					     node->ms.sym->name,
					     flamegraph_node__dso_name(node) ?: "[unknown]",
					     node->objdump_addr);
	case FLAMEGRAPH_INSN:
		/* flamegraph__annotate() did not find the instruction text. */
		return flamegraph__set_label(fg, node, "[%#" PRIx64 "]",
					     node->objdump_addr);
	default:
		return -EINVAL;
	}
}

static int flamegraph_node__cmp_sorted(const void *a, const void *b)
{
	const struct flamegraph_node *l = *(const struct flamegraph_node **)a;
	const struct flamegraph_node *r = *(const struct flamegraph_node **)b;
	int cmp;

	/* Instructions in address order, as perf annotate lists them. */
	if (l->kind == FLAMEGRAPH_INSN && r->kind == FLAMEGRAPH_INSN) {
		if (l->objdump_addr != r->objdump_addr)
			return l->objdump_addr < r->objdump_addr ? -1 : 1;
		return 0;
	}
	if (l->kind != r->kind)
		return l->kind < r->kind ? -1 : 1;
	cmp = strcmp(l->label, r->label);
	if (cmp)
		return cmp;
	if (l->objdump_addr != r->objdump_addr)
		return l->objdump_addr < r->objdump_addr ? -1 : 1;
	return strcmp(flamegraph_node__dso_name(l) ?: "",
		      flamegraph_node__dso_name(r) ?: "");
}

/*
 * Instruction leaves are keyed by IP: two IPs inside one instruction (an
 * IP that is not an instruction start) became two leaves that
 * flamegraph__annotate() gave the same instruction.  They are adjacent in
 * the parent's children, which are in IP order.  Merge them.
 */
static void flamegraph_node__merge_insns(struct flamegraph *fg,
					 struct flamegraph_node *node)
{
	struct flamegraph_node *prev = NULL;
	u32 i, nr = 0;

	for (i = 0; i < node->nr_children; i++) {
		struct flamegraph_node *child = node->sorted[i];

		if (child->kind == FLAMEGRAPH_INSN && prev &&
		    prev->objdump_addr == child->objdump_addr) {
			prev->self += child->self;
			rb_erase(&child->rb_node, &node->children);
			flamegraph_node__delete(child);
			fg->nr_nodes--;
			fg->nr_insns--;
			continue;
		}
		prev = child->kind == FLAMEGRAPH_INSN ? child : NULL;
		node->sorted[nr++] = child;
	}
	node->nr_children = nr;
}

static int flamegraph_node__finish(struct flamegraph *fg,
				   struct flamegraph_node *node,
				   struct hashmap *first)
{
	u32 i;

	flamegraph_node__merge_insns(fg, node);

	if (!node->label) {
		int err = flamegraph_node__make_label(fg, node, first);

		if (err)
			return err;
	}
	node->total = node->self;
	for (i = 0; i < node->nr_children; i++) {
		struct flamegraph_node *child = node->sorted[i];
		int err;

		err = flamegraph_node__finish(fg, child, first);
		if (err)
			return err;
		node->total += child->total;
	}
	if (node->nr_children)
		qsort(node->sorted, node->nr_children, sizeof(*node->sorted),
		      flamegraph_node__cmp_sorted);
	return 0;
}

int flamegraph__finish(struct flamegraph *fg)
{
	struct hashmap *first;
	int err;

	/* No more samples: and merging leaves would leave them stale. */
	flamegraph__free_slots(fg);
	zfree(&fg->insns);
	fg->alloc_insns = 0;

	first = hashmap__new(name_hash, name_equal, NULL);
	if (IS_ERR(first))
		return -ENOMEM;
	err = flamegraph_node__gather(fg, &fg->root, first);
	if (!err)
		err = flamegraph_node__finish(fg, &fg->root, first);
	hashmap__free(first);
	return err;
}
