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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>
#include <tools/libc_compat.h> /* reallocarray */

#include "addr_location.h"
#include "build-id.h"
#include "callchain.h"
#include "debug.h"
#include "dso.h"
#include "event.h"
#include "evsel.h"
#include "flamegraph.h"
#include "hashmap.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "sample.h"
#include "symbol.h"
#include "thread.h"

int flamegraph__grow(void *array, size_t *alloc, size_t need, size_t size)
{
	void **p = array, *grown;
	size_t n = *alloc ?: 16;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n *= 2;
	grown = reallocarray(*p, n, size);
	if (!grown)
		return -ENOMEM;
	*p = grown;
	*alloc = n;
	return 0;
}

/*
 * The tables of the tree are util/hashmaps keyed by a hash of what they
 * hold, the value compared on a match: a probe reads no entry whose hash
 * differs, and entries with the same hash share its key (hashmap__append()).
 */
size_t flamegraph__key_hash(long key, void *ctx __maybe_unused)
{
	return key;
}

bool flamegraph__key_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return key1 == key2;
}

size_t flamegraph__str_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

bool flamegraph__str_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return strcmp((const char *)key1, (const char *)key2) == 0;
}

static long flamegraph_insn__dso_key(const struct flamegraph_insn *insn)
{
	return dso__key(insn->ms.map ? map__dso(insn->ms.map) : NULL);
}

/* An instruction is its DSO, its map-relative IP and, without a DSO, its space. */
static size_t flamegraph_insn__hash(const struct flamegraph_insn *insn)
{
	size_t hash = flamegraph__hash_combine(flamegraph_insn__dso_key(insn), insn->addr);

	return flamegraph__hash_combine(hash, insn->kernel);
}

/* An instruction leaf is its instruction's DSO and IP under its parent. */
static size_t flamegraph_leaf__hash(const struct flamegraph_node *parent,
				    const struct dso *dso, u64 addr)
{
	size_t hash = flamegraph__hash_combine((unsigned long)parent, dso__key(dso));

	return flamegraph__hash_combine(hash, addr);
}

/* How often a process's stacks were forgotten. */
struct flamegraph_process {
	u64			generation;
};

/* A remembered stack; its key's @ips are in @ips. */
struct flamegraph_stack {
	struct flamegraph_stack_key key;
	struct flamegraph_process *process;
	u64			generation;	/* of @process, when added */
	u64			all_generation;	/* fg->generation, likewise */
	struct flamegraph_node	*node;
	struct flamegraph_callsite **callsites;	/* of the stack that went to @node */
	size_t			nr_callsites;
	u64			ips[];
};

/* A call site in fg->callsite_index: the node it is of, for the lookup. */
struct flamegraph_callsite_entry {
	struct flamegraph_callsite	callsite;
	const struct flamegraph_node	*node;
};

/* A call instruction in fg->call_index: its DSO and address, for the lookup. */
struct flamegraph_call_entry {
	struct flamegraph_call	call;
	long			dso_key;
	u64			addr;
	bool			kernel;
	u64			last;	/* fg->nr_accounted of the sample counted last */
};

static size_t flamegraph_stack_key__hash(const struct flamegraph_stack_key *key)
{
	size_t hash = flamegraph__hash_combine((unsigned long)key->machine, key->pid);
	u64 i;

	hash = flamegraph__hash_combine(hash, key->tid);
	hash = flamegraph__hash_combine(hash, key->cpumode | key->callers << 8);
	hash = flamegraph__hash_combine(hash, key->ip);
	for (i = 0; i < key->nr; i++)
		hash = flamegraph__hash_combine(hash, key->ips[i]);
	return hash;
}

static bool flamegraph_stack_key__equal(const struct flamegraph_stack_key *a,
					const struct flamegraph_stack_key *b)
{
	return a->ip == b->ip && a->pid == b->pid && a->tid == b->tid &&
	       a->cpumode == b->cpumode && a->callers == b->callers &&
	       a->machine == b->machine && a->nr == b->nr &&
	       (!a->nr || !memcmp(a->ips, b->ips, a->nr * sizeof(*a->ips)));
}

int flamegraph__init(struct flamegraph *fg, enum flamegraph_weight weight)
{
	memset(fg, 0, sizeof(*fg));
	fg->weight = weight;
	fg->root.kind = FLAMEGRAPH_ROOT;
	fg->root.children = RB_ROOT;
	fg->nr_nodes = 1;
	fg->insn_index = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	fg->leaves = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	fg->stacks = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	fg->generations = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	fg->warned = hashmap__new(flamegraph__str_hash, flamegraph__str_equal, NULL);
	if (IS_ERR(fg->insn_index) || IS_ERR(fg->leaves) || IS_ERR(fg->stacks) ||
	    IS_ERR(fg->generations) || IS_ERR(fg->warned)) {
		flamegraph__exit(fg);
		return -ENOMEM;
	}
	return 0;
}

static void flamegraph_node__delete(struct flamegraph_node *node);

static void flamegraph_node__delete_children(struct flamegraph_node *node)
{
	struct flamegraph_node *child, *tmp;

	rbtree_postorder_for_each_entry_safe(child, tmp, &node->children, rb_node)
		flamegraph_node__delete(child);
	node->children = RB_ROOT;
	for (child = node->leaves; child; child = tmp) {
		tmp = child->next;
		flamegraph_node__delete(child);
	}
	node->leaves = NULL;
	zfree(&node->sorted);
}

static void flamegraph_node__delete(struct flamegraph_node *node)
{
	flamegraph_node__delete_children(node);
	map_symbol__exit(&node->ms);
	free(node->comm);
	free(node->label);
	free(node);
}

static void flamegraph__free_functions(struct flamegraph *fg)
{
	size_t i, j;

	for (i = 0; i < fg->nr_functions; i++) {
		struct flamegraph_function *fn = &fg->functions[i];

		map_symbol__exit(&fn->ms);
		for (j = 0; j < fn->nr_insns; j++) {
			free(fn->insns[j].text);
			free(fn->insns[j].srcline);
			if (fn->filelocs)
				free(fn->filelocs[j].file);
		}
		free(fn->insns);
		free(fn->filelocs);
		free(fn->why);
	}
	zfree(&fg->functions);
	fg->nr_functions = 0;
	for (i = 0; i < fg->nr_sources; i++) {
		struct flamegraph_source *src = &fg->sources[i];

		for (j = 0; j < src->nr_lines; j++)
			free(src->lines[j]);
		free(src->lines);
		free(src->path);
		free(src->why);
	}
	zfree(&fg->sources);
	fg->nr_sources = 0;
}

/* A hashmap whose keys or values are pointers, or NULL or an error. */
static void hashmap__free_checked(struct hashmap *map)
{
	if (!IS_ERR_OR_NULL(map))
		hashmap__free(map);
}

void flamegraph__exit(struct flamegraph *fg)
{
	struct hashmap_entry *cur;
	size_t bkt, i;

	flamegraph_node__delete_children(&fg->root);
	zfree(&fg->root.label);
	for (i = 0; i < fg->nr_insns; i++) {
		map_symbol__exit(&fg->insns[i]->ms);
		free(fg->insns[i]->text);
		free(fg->insns[i]->srcline);
		free(fg->insns[i]);
	}
	zfree(&fg->insns);
	fg->nr_insns = 0;
	flamegraph__free_functions(fg);
	zfree(&fg->path);
	fg->nr_path = 0;
	zfree(&fg->frames);
	fg->alloc_frames = 0;
	fg->alloc_path = 0;
	fg->alloc_insns = 0;
	if (!IS_ERR_OR_NULL(fg->generations)) {
		hashmap__for_each_entry(fg->generations, cur, bkt)
			free(cur->pvalue);
	}
	if (!IS_ERR_OR_NULL(fg->warned)) {
		hashmap__for_each_entry(fg->warned, cur, bkt)
			free((char *)cur->pkey);
	}
	if (!IS_ERR_OR_NULL(fg->stacks)) {
		hashmap__for_each_entry(fg->stacks, cur, bkt) {
			struct flamegraph_stack *stack = cur->pvalue;

			free(stack->callsites);
			free(stack);
		}
	}
	if (fg->callsite_index) {
		hashmap__for_each_entry(fg->callsite_index, cur, bkt)
			free(cur->pvalue);
		hashmap__for_each_entry(fg->call_index, cur, bkt)
			free(cur->pvalue);
	}
	hashmap__free_checked(fg->insn_index);
	hashmap__free_checked(fg->leaves);
	hashmap__free_checked(fg->stacks);
	hashmap__free_checked(fg->generations);
	hashmap__free_checked(fg->warned);
	hashmap__free_checked(fg->callsite_index);
	hashmap__free_checked(fg->call_index);
	fg->callsite_index = NULL;
	fg->call_index = NULL;
	fg->insn_index = NULL;
	fg->leaves = NULL;
	fg->stacks = NULL;
	fg->generations = NULL;
	fg->warned = NULL;
}

/* One DSO in every session that has it: its build-id, else its path. */
static char *flamegraph__warn_key(const struct dso *dso, bool kernel)
{
	char bid[SBUILD_ID_SIZE];

	if (!dso)
		return strdup(kernel ? "[kernel]" : "[unknown]");
	if (!dso__has_build_id(dso))
		return strdup(dso__long_name(dso));
	build_id__snprintf(dso__bid(dso), bid, sizeof(bid));
	return strdup(bid);
}

bool flamegraph__warn_once(struct flamegraph *fg, const struct dso *dso,
			   bool kernel)
{
	char *key;
	int err;

	if (fg->warn_with)
		return flamegraph__warn_once(fg->warn_with, dso, kernel);
	/* Out of memory: warn again rather than never. */
	key = flamegraph__warn_key(dso, kernel);
	if (!key)
		return true;
	err = hashmap__add(fg->warned, key, 1);
	if (err)
		free(key);
	return err != -EEXIST;
}

void flamegraph__share_warnings(struct flamegraph *fg, struct flamegraph *with)
{
	fg->warn_with = with;
}

/* What makes a child unique under its parent. */
struct flamegraph_key {
	enum flamegraph_kind	kind;
	bool			kernel;
	const struct dso	*dso;
	u64			addr;
	const char		*comm;
	/* An inlined function (--inline) starts where its caller does. */
	const char		*inlined;
};

static int flamegraph_key__cmp(const struct flamegraph_key *key,
			       const struct flamegraph_node *node)
{
	long key_dso, dso;

	if (key->kind != node->kind)
		return key->kind < node->kind ? -1 : 1;
	if (key->kind == FLAMEGRAPH_COMM)
		return strcmp(key->comm, node->comm);
	key_dso = dso__key(key->dso);
	dso = dso__key(node->dso);
	if (key_dso != dso)
		return key_dso < dso ? -1 : 1;
	/* Addresses outside any map: kernel and user ones stay apart. */
	if (key->kernel != node->kernel)
		return key->kernel ? 1 : -1;
	if (key->addr != node->addr)
		return key->addr < node->addr ? -1 : 1;
	if (!key->inlined || !node->inlined)
		return !!key->inlined - !!node->inlined;
	return strcmp(key->inlined, node->inlined);
}

static struct flamegraph_node *flamegraph__child(struct flamegraph *fg,
						 struct flamegraph_node *parent,
						 const struct flamegraph_key *key)
{
	struct rb_node **p = &parent->children.rb_node, *rb_parent = NULL;
	struct flamegraph_node *node = parent->hint;

	/* Stacks repeat: the child of the last one is likely this one's. */
	if (node && flamegraph_key__cmp(key, node) == 0)
		return node;
	while (*p) {
		int cmp;

		rb_parent = *p;
		node = rb_entry(rb_parent, struct flamegraph_node, rb_node);
		cmp = flamegraph_key__cmp(key, node);
		if (cmp == 0) {
			parent->hint = node;
			return node;
		}
		p = cmp < 0 ? &(*p)->rb_left : &(*p)->rb_right;
	}

	node = zalloc(sizeof(*node));
	if (!node)
		return NULL;
	node->kind = key->kind;
	node->kernel = key->kernel;
	node->dso = key->dso;
	node->addr = key->addr;
	node->inlined = key->inlined;
	node->parent = parent;
	node->children = RB_ROOT;
	if (key->comm) {
		node->comm = strdup(key->comm);
		if (!node->comm) {
			free(node);
			return NULL;
		}
	}
	rb_link_node(&node->rb_node, rb_parent, p);
	rb_insert_color(&node->rb_node, &parent->children);
	parent->nr_children++;
	parent->hint = node;
	fg->nr_nodes++;
	return node;
}

static struct flamegraph_node *flamegraph__frame(struct flamegraph *fg,
						 struct flamegraph_node *parent,
						 const struct flamegraph_frame *frame)
{
	struct symbol *sym = frame->ms.sym;
	struct flamegraph_key key = {
		.kind	 = sym ? FLAMEGRAPH_FUNC : FLAMEGRAPH_UNKNOWN,
		.kernel	 = frame->kernel,
		.dso	 = frame->ms.map ? map__dso(frame->ms.map) : NULL,
		.addr	 = sym ? sym->start : 0,
		.inlined = sym && symbol__inlined(sym) ? sym->name : NULL,
	};
	struct flamegraph_node *node = flamegraph__child(fg, parent, &key);

	if (node && !node->ms.map && !node->ms.thread) {
		node->ms.thread = thread__get(frame->ms.thread);
		node->ms.map = map__get(frame->ms.map);
		node->ms.sym = sym;
		node->objdump_addr = sym && frame->ms.map ?
				     map__rip_2objdump(frame->ms.map, sym->start) : 0;
	}
	return node;
}

/* The instruction at @frame's IP, shared by all its leaves. */
static struct flamegraph_insn *flamegraph__insn(struct flamegraph *fg,
						const struct flamegraph_frame *frame)
{
	struct map *map = frame->ms.map;
	struct flamegraph_insn probe = {
		.ms.map	= map,
		.addr	= map ? map__map_ip(map, frame->ip) : frame->ip,
		.kernel	= frame->kernel,
	}, *insn;
	size_t hash = flamegraph_insn__hash(&probe);
	struct hashmap_entry *cur;

	hashmap__for_each_key_entry(fg->insn_index, cur, hash) {
		insn = cur->pvalue;
		if (insn->addr == probe.addr && insn->kernel == probe.kernel &&
		    flamegraph_insn__dso_key(insn) == flamegraph_insn__dso_key(&probe))
			return insn;
	}
	if (flamegraph__grow(&fg->insns, &fg->alloc_insns, fg->nr_insns + 1,
			     sizeof(*fg->insns)))
		return NULL;
	insn = malloc(sizeof(*insn));
	if (!insn)
		return NULL;
	*insn = probe;
	insn->ms.thread = thread__get(frame->ms.thread);
	insn->ms.map = map__get(map);
	insn->ms.sym = frame->ms.sym;
	insn->objdump_addr = map ? map__rip_2objdump(map, insn->addr) : insn->addr;
	if (hashmap__append(fg->insn_index, hash, insn)) {
		map_symbol__exit(&insn->ms);
		free(insn);
		return NULL;
	}
	fg->insns[fg->nr_insns++] = insn;
	return insn;
}

/*
 * The leaf of the instruction at @frame's IP under @parent, found by
 * hash: a function may have thousands.  Leaves are kept in a list of
 * their parent's, not in its @children, which stay few and quick to walk.
 */
static struct flamegraph_node *flamegraph__insn_leaf(struct flamegraph *fg,
						     struct flamegraph_node *parent,
						     const struct flamegraph_frame *frame)
{
	struct map *map = frame->ms.map;
	const struct dso *dso = map ? map__dso(map) : NULL;
	u64 addr = map ? map__map_ip(map, frame->ip) : frame->ip;
	size_t hash = flamegraph_leaf__hash(parent, dso, addr);
	struct flamegraph_node *leaf;
	struct flamegraph_insn *insn;
	struct hashmap_entry *cur;

	hashmap__for_each_key_entry(fg->leaves, cur, hash) {
		leaf = cur->pvalue;
		if (leaf->addr == addr && leaf->parent == parent &&
		    leaf->kernel == frame->kernel &&
		    dso__key(leaf->dso) == dso__key(dso))
			return leaf;
	}
	insn = flamegraph__insn(fg, frame);
	leaf = insn ? zalloc(sizeof(*leaf)) : NULL;
	if (!leaf)
		return NULL;
	leaf->kind = FLAMEGRAPH_INSN;
	leaf->kernel = insn->kernel;
	leaf->dso = dso;
	leaf->addr = addr;
	leaf->parent = parent;
	leaf->children = RB_ROOT;
	leaf->insn = insn;
	leaf->objdump_addr = insn->objdump_addr;
	if (hashmap__append(fg->leaves, hash, leaf)) {
		free(leaf);
		return NULL;
	}
	leaf->next = parent->leaves;
	parent->leaves = leaf;
	parent->nr_children++;
	fg->nr_nodes++;
	fg->nr_leaves++;
	return leaf;
}

int flamegraph__track_callsites(struct flamegraph *fg)
{
	if (fg->callsite_index)
		return 0;
	fg->callsite_index = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	fg->call_index = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	if (IS_ERR(fg->callsite_index) || IS_ERR(fg->call_index)) {
		hashmap__free_checked(fg->callsite_index);
		hashmap__free_checked(fg->call_index);
		fg->callsite_index = NULL;
		fg->call_index = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * The call instruction that returns to @addr in @node's function (the
 * same in every frame of it), created if new; NULL without memory.
 */
static struct flamegraph_call *flamegraph__call(struct flamegraph *fg,
						const struct flamegraph_node *node, u64 addr)
{
	long dso_key = dso__key(node->dso);
	size_t hash = flamegraph__hash_combine(flamegraph__hash_combine(dso_key, addr),
					       node->kernel);
	struct flamegraph_call_entry *entry;
	struct hashmap_entry *cur;

	hashmap__for_each_key_entry(fg->call_index, cur, hash) {
		entry = cur->pvalue;
		if (entry->dso_key == dso_key && entry->addr == addr &&
		    entry->kernel == node->kernel)
			return &entry->call;
	}
	entry = zalloc(sizeof(*entry));
	if (!entry || hashmap__append(fg->call_index, hash, entry)) {
		free(entry);
		return NULL;
	}
	entry->dso_key = dso_key;
	entry->addr = addr;
	entry->kernel = node->kernel;
	return &entry->call;
}

/*
 * The call site of @node at @frame's IP (a return address, or one less:
 * @frame's @unwound), created if new, and put on fg->path; 0, or
 * -ENOMEM.  Only functions have call sites shown: not unknown frames, nor
 * inlined ones, whose address is their caller's.
 */
static int flamegraph__callsite(struct flamegraph *fg, struct flamegraph_node *node,
				const struct flamegraph_frame *frame)
{
	u64 ip = frame->ip + frame->unwound;
	u64 addr = frame->ms.map ? map__map_ip(frame->ms.map, ip) : ip;
	size_t hash = flamegraph__hash_combine((unsigned long)node, addr);
	struct flamegraph_callsite_entry *entry;
	struct flamegraph_call *call;
	struct hashmap_entry *cur;

	if (node->kind != FLAMEGRAPH_FUNC || node->inlined)
		return 0;
	hashmap__for_each_key_entry(fg->callsite_index, cur, hash) {
		entry = cur->pvalue;
		if (entry->node == node && entry->callsite.addr == addr)
			goto out;
	}
	call = flamegraph__call(fg, node, addr);
	entry = call ? zalloc(sizeof(*entry)) : NULL;
	if (!entry || hashmap__append(fg->callsite_index, hash, entry)) {
		free(entry);
		return -ENOMEM;
	}
	entry->node = node;
	entry->callsite.addr = addr;
	entry->callsite.call = call;
	entry->callsite.next = node->callsites;
	node->callsites = &entry->callsite;
out:
	if (flamegraph__grow(&fg->path, &fg->alloc_path, fg->nr_path + 1, sizeof(*fg->path)))
		return -ENOMEM;
	fg->path[fg->nr_path++] = &entry->callsite;
	return 0;
}

void flamegraph__account_callsites(struct flamegraph *fg,
				   const struct flamegraph_stack *stack,
				   u64 nr_samples, u64 period)
{
	struct flamegraph_callsite **path = stack ? stack->callsites : fg->path;
	size_t i, nr = stack ? stack->nr_callsites : fg->nr_path;
	u64 weight = fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES ? nr_samples : period;

	if (!fg->callsite_index)
		return;
	fg->nr_accounted++;
	for (i = 0; i < nr; i++) {
		struct flamegraph_call_entry *call;

		path[i]->weight += weight;
		path[i]->samples += nr_samples;
		/* Recursion: a call passed by several frames, counted once. */
		call = container_of(path[i]->call, struct flamegraph_call_entry, call);
		if (call->last != fg->nr_accounted) {
			call->last = fg->nr_accounted;
			call->call.weight += weight;
			call->call.samples += nr_samples;
		}
	}
}

struct flamegraph_node *flamegraph__walk(struct flamegraph *fg,
					 struct flamegraph_node *node,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn)
{
	int i;

	fg->nr_path = 0;
	for (i = 0; node && i < nr_frames; i++) {
		node = flamegraph__frame(fg, node, &frames[i]);
		/*
		 * Into the kernel, a user callchain entry is where the
		 * thread was stopped (an interrupt, a fault, the syscall's
		 * return): no call.
		 */
		if (node && fg->callsite_index && i < nr_frames - 1 &&
		    frames[i].kernel == frames[i + 1].kernel &&
		    flamegraph__callsite(fg, node, &frames[i]))
			return NULL;
	}
	if (!node || !insn)
		return node;
	return flamegraph__insn_leaf(fg, node, insn);
}

struct flamegraph_node *flamegraph__leaf(struct flamegraph *fg, const char *comm,
					 bool truncated,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn)
{
	struct flamegraph_key key = {
		.kind = FLAMEGRAPH_COMM,
		.comm = comm ?: "[unknown]",
	}, marker = {
		.kind = FLAMEGRAPH_TRUNCATED,
	};
	struct flamegraph_node *node = flamegraph__child(fg, &fg->root, &key);

	if (node && truncated)
		node = flamegraph__child(fg, node, &marker);
	return flamegraph__walk(fg, node, frames, nr_frames, insn);
}

void flamegraph__account(struct flamegraph *fg, struct flamegraph_node *leaf,
			 u64 nr_samples, u64 period)
{
	leaf->self += fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES ? nr_samples : period;
	leaf->samples += nr_samples;
	fg->nr_samples += nr_samples;
}

void flamegraph__count_insns(struct flamegraph *fg)
{
	struct hashmap_entry *cur;
	size_t bkt, i;

	for (i = 0; i < fg->nr_insns; i++)
		fg->insns[i]->weight = 0;
	hashmap__for_each_entry(fg->leaves, cur, bkt) {
		struct flamegraph_node *leaf = cur->pvalue;

		leaf->insn->weight += leaf->self;
	}
}

/* The generations of process @pid, created if new; NULL without memory. */
static struct flamegraph_process *flamegraph__process(struct flamegraph *fg, s32 pid)
{
	struct flamegraph_process *process;

	if (hashmap__find(fg->generations, (long)pid, &process))
		return process;
	process = zalloc(sizeof(*process));
	if (process && hashmap__add(fg->generations, (long)pid, process))
		zfree(&process);
	return process;
}

/* Whether what @stack remembers still holds: its process's maps are the same. */
static bool flamegraph_stack__valid(const struct flamegraph *fg,
				    const struct flamegraph_stack *stack)
{
	return stack->all_generation == fg->generation &&
	       stack->generation == stack->process->generation;
}

static struct flamegraph_stack *flamegraph__stack(struct flamegraph *fg,
						  const struct flamegraph_stack_key *key,
						  size_t hash)
{
	struct hashmap_entry *cur;

	hashmap__for_each_key_entry(fg->stacks, cur, hash) {
		struct flamegraph_stack *stack = cur->pvalue;

		if (flamegraph_stack_key__equal(&stack->key, key))
			return stack;
	}
	return NULL;
}

struct flamegraph_stack *flamegraph__find_stack(struct flamegraph *fg,
						const struct flamegraph_stack_key *key)
{
	struct flamegraph_stack *stack;

	stack = flamegraph__stack(fg, key, flamegraph_stack_key__hash(key));
	return stack && flamegraph_stack__valid(fg, stack) ? stack : NULL;
}

struct flamegraph_stack *flamegraph__add_stack(struct flamegraph *fg,
					       const struct flamegraph_stack_key *key,
					       struct flamegraph_node *node)
{
	size_t hash = flamegraph_stack_key__hash(key);
	struct flamegraph_stack *stack = flamegraph__stack(fg, key, hash);

	if (!stack) {
		stack = zalloc(sizeof(*stack) + key->nr * sizeof(*key->ips));
		if (!stack)
			return NULL;
		stack->key = *key;
		stack->key.ips = stack->ips;
		/* A sample without a callchain has no ips to copy. */
		if (key->nr)
			memcpy(stack->ips, key->ips, key->nr * sizeof(*key->ips));
		stack->process = flamegraph__process(fg, key->pid);
		if (!stack->process || hashmap__append(fg->stacks, hash, stack)) {
			free(stack);
			return NULL;
		}
	}
	stack->generation = stack->process->generation;
	stack->all_generation = fg->generation;
	stack->node = node;
	stack->nr_callsites = 0;
	zfree(&stack->callsites);
	if (fg->callsite_index && node && fg->nr_path) {
		size_t size = fg->nr_path * sizeof(*stack->callsites);

		stack->callsites = malloc(size);
		if (!stack->callsites) {
			/* Not remembered: its next sample walks the stack again. */
			stack->all_generation = fg->generation - 1;
			return NULL;
		}
		memcpy(stack->callsites, fg->path, size);
		stack->nr_callsites = fg->nr_path;
	}
	return stack;
}

struct flamegraph_node *flamegraph_stack__node(const struct flamegraph_stack *stack)
{
	return stack->node;
}

void flamegraph__forget_stacks(struct flamegraph *fg, s32 pid)
{
	struct flamegraph_process *process;

	/* The kernel's maps, or the idle task's: everyone's addresses. */
	if (pid <= 0) {
		fg->generation++;
		return;
	}
	if (hashmap__find(fg->generations, (long)pid, &process))
		process->generation++;
}

static u64 flamegraph_node__kernel_unmapped(const struct flamegraph_node *node)
{
	u64 nr = node->kernel && !node->dso && node->kind != FLAMEGRAPH_FUNC ?
		 node->samples : 0;
	u32 i;

	for (i = 0; i < node->nr_children; i++)
		nr += flamegraph_node__kernel_unmapped(node->sorted[i]);
	return nr;
}

u64 flamegraph__kernel_unmapped(const struct flamegraph *fg)
{
	return flamegraph_node__kernel_unmapped(&fg->root);
}

/* Whether a frame above @node is an unnamed one of @dso, which counted it. */
static bool flamegraph_node__under_unnamed(const struct flamegraph_node *node,
					   const struct dso *dso)
{
	for (node = node->parent; node; node = node->parent)
		if (node->kind == FLAMEGRAPH_UNKNOWN && node->dso == dso)
			return true;
	return false;
}

static void flamegraph_node__unnamed(const struct flamegraph_node *node,
				     flamegraph_unnamed_fn fn, void *data)
{
	u32 i;

	if (node->kind == FLAMEGRAPH_UNKNOWN && node->dso && !node->kernel &&
	    !flamegraph_node__under_unnamed(node, node->dso))
		fn(node->dso, node->total_samples, data);
	for (i = 0; i < node->nr_children; i++)
		flamegraph_node__unnamed(node->sorted[i], fn, data);
}

void flamegraph__unnamed(const struct flamegraph *fg, flamegraph_unnamed_fn fn,
			 void *data)
{
	flamegraph_node__unnamed(&fg->root, fn, data);
}

const char *flamegraph_node__dso_name(const struct flamegraph_node *node)
{
	return node->dso ? dso__short_name(node->dso) : NULL;
}

bool flamegraph_frame__is_kernel(struct machine *machine, struct map *map,
				 u64 ip)
{
	if (map)
		return dso__kernel(map__dso(map)) != DSO_SPACE__USER;
	return machine && machine__kernel_ip(machine, ip);
}

int flamegraph_frames__sampled(const struct flamegraph_frame *frames, int nr,
			       bool kernel)
{
	while (nr > 0 && frames[nr - 1].kernel != kernel)
		nr--;
	return nr;
}

/*
 * The key of the sampled function's callers (@sample_key's callchain is
 * its own context marker, its IP, then its callers' return addresses, no
 * more than max_stack): where they go depends on the callchain after the
 * IP alone.  That holds for precise events too, as long as the callchain
 * starts with the sample IP: callchain__fixup_precise_ip() then leaves it
 * as it is.  Return: false for other callchains.
 */
static bool flamegraph__callers_key(const struct flamegraph *fg,
				    struct flamegraph_stack_key *key,
				    const struct flamegraph_stack_key *sample_key)
{
	u64 marker = sample_key->cpumode == PERF_RECORD_MISC_USER ? PERF_CONTEXT_USER :
		     sample_key->cpumode == PERF_RECORD_MISC_KERNEL ? PERF_CONTEXT_KERNEL : 0;

	if (!fg->sample_opts.callers_by_key || !marker || sample_key->nr < 2 ||
	    sample_key->nr > (u64)fg->sample_opts.max_stack ||
	    sample_key->ips[0] != marker || sample_key->ips[1] != sample_key->ip)
		return false;
	*key = *sample_key;
	key->callers = true;
	key->ip = 0;
	key->nr -= 2;
	key->ips += 2;
	return true;
}

/* Callchain entries that are addresses, not PERF_CONTEXT_* markers. */
static u64 flamegraph_stack_key__nr_addresses(const struct flamegraph_stack_key *key)
{
	u64 i, nr = 0;

	for (i = 0; i < key->nr; i++)
		nr += key->ips[i] < PERF_CONTEXT_MAX;
	return nr;
}

/*
 * Whether a callchain (its @key, and the @nr frames in fg->frames that
 * perf made of it) was cut: it holds exactly as many addresses as the
 * kernel keeps (perf record's fp,<size>, else perf_event_max_stack,
 * whose value at record time the recording doesn't hold: its default;
 * recorded with a higher one, a callchain holds more, and the cut is
 * missed, not invented), or more than max_stack; or a DWARF unwinder
 * stopped at max_stack user frames.
 */
static bool flamegraph__truncated(const struct flamegraph *fg, const struct evsel *evsel,
				  const struct flamegraph_stack_key *key, u64 nr)
{
	u64 limit = evsel->core.attr.sample_max_stack ?: PERF_MAX_STACK_DEPTH;
	u64 nr_kept = flamegraph_stack_key__nr_addresses(key), nr_user = 0, i;
	u64 max_stack = fg->sample_opts.max_stack;

	if (nr_kept == limit || nr_kept > max_stack)
		return true;
	if (!(evsel->core.attr.sample_type & PERF_SAMPLE_STACK_USER))
		return false;
	for (i = 0; i < nr; i++)
		nr_user += !fg->frames[i].kernel;
	return nr_user >= max_stack;
}

/*
 * Whether perf unwound @sample's user stack from its copy of it
 * (thread__resolve_callchain_unwind()), with a kernel callchain that has
 * no user entries, so that every user entry of its callchain is the
 * unwinder's.  Those of the callers hold the return address minus 1
 * (libdw's and libunwind's, for the call's line), unlike the return
 * addresses of the kernel's frame-pointer callchains.
 */
static bool flamegraph__unwound(const struct perf_sample *sample)
{
	const struct perf_event_attr *attr = &sample->evsel->core.attr;
	u64 both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & both) == both && attr->exclude_callchain_user &&
	       sample->user_regs && sample->user_regs->regs && sample->user_stack.size;
}

/*
 * @sample's callchain, as perf resolves it (for precise events, in
 * agreement with the sample IP: callchain__fixup_precise_ip()), into
 * fg->frames, outermost caller first, down to the sampled function, the
 * sample IP's (in the @kernel context or not), as in perf report.
 * Return: the number of frames, 0 without a callchain, or -ENOMEM.
 */
static int flamegraph__callchain(struct flamegraph *fg, struct perf_sample *sample,
				 struct addr_location *al, struct machine *machine,
				 bool kernel)
{
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct callchain_cursor_node *node;
	bool unwound, user = false;
	u64 nr = 0, user_ip = 0;

	if (!fg->sample_opts.callchains || !sample->callchain || !cursor ||
	    thread__resolve_callchain(al->thread, cursor, sample, NULL, NULL,
				      fg->sample_opts.max_stack) || !cursor->nr)
		return 0;
	if (flamegraph__grow(&fg->frames, &fg->alloc_frames, cursor->nr, sizeof(*fg->frames)))
		return -ENOMEM;
	unwound = flamegraph__unwound(sample);
	/* Callee first in the cursor, caller first in the tree. */
	callchain_cursor_commit(cursor);
	while ((node = callchain_cursor_current(cursor)) != NULL) {
		struct flamegraph_frame *frame = &fg->frames[cursor->nr - 1 - nr++];

		*frame = (struct flamegraph_frame){
			.ms	= node->ms,
			.ip	= node->ip,
			.kernel	= flamegraph_frame__is_kernel(machine, node->ms.map, node->ip),
		};
		/*
		 * The unwinder's first entry, and its inlined functions'
		 * (--inline), is where the thread was, the user registers'
		 * IP; the rest are its callers'.
		 */
		if (unwound && !frame->kernel) {
			if (!user) {
				user = true;
				user_ip = node->ip;
			}
			frame->unwound = node->ip != user_ip;
		}
		callchain_cursor_advance(cursor);
	}
	return flamegraph_frames__sampled(fg->frames, nr, kernel);
}

/*
 * The leaf of a resolved sample (@al): its callchain's frames, else the
 * sampled function alone; with insn_leaves, the instruction at the
 * sample IP below it.  Callers seen before (@callers, the node they went
 * to) are not resolved again.  Else, with @callers_of set, and one frame
 * per callchain entry of @key, the last the sampled function's,
 * *@callers_of is set to the node of its callers.
 */
static struct flamegraph_node *flamegraph__resolve(struct flamegraph *fg,
						   struct perf_sample *sample,
						   const struct flamegraph_stack_key *key,
						   struct flamegraph_node *callers,
						   struct flamegraph_node **callers_of,
						   struct addr_location *al,
						   struct machine *machine)
{
	struct flamegraph_frame ip = {
		.ms	= { .thread = al->thread, .map = al->map, .sym = al->sym, },
		.ip	= sample->ip,
		.kernel	= flamegraph_frame__is_kernel(machine, al->map, sample->ip),
	};
	const struct flamegraph_frame *insn = fg->sample_opts.insn_leaves ? &ip : NULL;
	struct flamegraph_node *leaf;
	int nr;

	if (callers)
		return flamegraph__walk(fg, callers, &ip, 1, insn);
	nr = flamegraph__callchain(fg, sample, al, machine, ip.kernel);
	if (nr < 0)
		return NULL;
	leaf = flamegraph__leaf(fg, thread__comm_str(al->thread),
				nr && flamegraph__truncated(fg, sample->evsel, key, nr),
				nr ? fg->frames : &ip, nr ?: 1, insn);
	if (leaf && callers_of && (u64)nr == flamegraph_stack_key__nr_addresses(key))
		*callers_of = insn ? leaf->parent->parent : leaf->parent;
	return leaf;
}

int flamegraph__add_sample(struct flamegraph *fg, struct perf_sample *sample,
			   struct machine *machine)
{
	struct flamegraph_stack_key key = {
		.machine = machine,
		.pid	 = sample->pid,
		.tid	 = sample->tid,
		.cpumode = sample->cpumode,
		.ip	 = sample->ip,
		.nr	 = sample->callchain ? sample->callchain->nr : 0,
		.ips	 = sample->callchain ? sample->callchain->ips : NULL,
	}, callers_key;
	struct flamegraph_node *leaf = NULL, *callers_node = NULL;
	struct flamegraph_stack *stack = NULL;
	struct addr_location al;
	bool by_callers;
	int ret = 0;

	/* A stack seen before goes where it went; callers seen before, likewise. */
	by_callers = flamegraph__callers_key(fg, &callers_key, &key);
	if (by_callers) {
		stack = flamegraph__find_stack(fg, &callers_key);
		callers_node = stack ? stack->node : NULL;
	} else if (fg->sample_opts.stacks_by_key) {
		stack = flamegraph__find_stack(fg, &key);
		if (stack) {
			leaf = stack->node;
			goto out_account;
		}
	}

	fg->stats.nr_resolved++;
	fg->stats.nr_by_callers += !!callers_node;
	addr_location__init(&al);
	if (machine__resolve(machine, &al, sample) < 0) {
		pr_debug("problem processing %d event, skipping it.\n", PERF_RECORD_SAMPLE);
		fg->stats.nr_unresolved++;
		goto out;
	}
	if (!al.filtered) {
		leaf = flamegraph__resolve(fg, sample, &key, callers_node,
					   by_callers ? &callers_node : NULL, &al, machine);
		if (!leaf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* Failing to remember costs only the next sample a resolution. */
	if (by_callers) {
		if (!stack && callers_node)
			stack = flamegraph__add_stack(fg, &callers_key, callers_node);
	} else if (fg->sample_opts.stacks_by_key) {
		flamegraph__add_stack(fg, &key, leaf);
	}
	addr_location__exit(&al);
out_account:
	if (leaf) {
		flamegraph__account(fg, leaf, 1, sample->period);
		flamegraph__account_callsites(fg, stack, 1, sample->period);
	} else {
		fg->stats.nr_filtered++;
	}
	return 0;
out:
	addr_location__exit(&al);
	return ret;
}

bool flamegraph_node__is_jit(const struct flamegraph_node *node)
{
	const char *name;
	size_t len;

	if (!node->dso)
		return false;
	name = dso__short_name(node->dso);
	len = strlen(name);
	return is_perf_pid_map_name(dso__long_name(node->dso)) ||
	       (strstarts(name, "jitted-") && len > 3 &&
		!strcmp(name + len - 3, ".so"));
}

const char *flamegraph_weight__name(enum flamegraph_weight weight)
{
	return weight == FLAMEGRAPH_WEIGHT_SAMPLES ? "samples" : "period";
}

const char *flamegraph_node__srcline(const struct flamegraph_node *node)
{
	return node->insn ? node->insn->srcline : NULL;
}

/*
 * Put the children of @node, and below it everyone's, in their @sorted
 * arrays, and note for each function name the first function (DSO,
 * start) that has it: a name held by another function too is ambiguous
 * (NULL in @first) and gets qualified in its label.
 */
static int flamegraph_node__gather(struct flamegraph_node *node,
				   struct hashmap *first)
{
	struct flamegraph_node *child, *seen;
	struct rb_node *nd;
	u32 i = 0;
	int err;

	if (!node->nr_children)
		return 0;
	node->sorted = calloc(node->nr_children, sizeof(*node->sorted));
	if (!node->sorted)
		return -ENOMEM;
	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		child = rb_entry(nd, struct flamegraph_node, rb_node);
		node->sorted[i++] = child;
		err = flamegraph_node__gather(child, first);
		if (err)
			return err;
		/* An inlined copy of a function is not another function. */
		if (child->kind != FLAMEGRAPH_FUNC || child->inlined)
			continue;
		if (!hashmap__find(first, child->ms.sym->name, &seen)) {
			err = hashmap__add(first, child->ms.sym->name, child);
			if (err)
				return err;
		} else if (seen && (dso__key(seen->dso) !=
				    dso__key(child->dso) ||
				    seen->addr != child->addr)) {
			hashmap__set(first, child->ms.sym->name, NULL, NULL, NULL);
		}
	}
	for (child = node->leaves; child; child = child->next)
		node->sorted[i++] = child;
	return 0;
}

static char *flamegraph_node__make_label(struct flamegraph_node *node,
					 struct hashmap *first)
{
	const char *dso = flamegraph_node__dso_name(node);
	struct flamegraph_node *seen = NULL;
	char *label = NULL;
	int ret = -1;

	switch (node->kind) {
	case FLAMEGRAPH_ROOT:
		return strdup("all");
	case FLAMEGRAPH_COMM:
		return strdup(node->comm);
	case FLAMEGRAPH_TRUNCATED:
		return strdup("[truncated]");
	case FLAMEGRAPH_UNKNOWN:
		if (!dso)
			return strdup("[unknown]");
		ret = asprintf(&label, "[unknown] (%s)", dso);
		break;
	case FLAMEGRAPH_FUNC:
		/*
		 * As perf report and perf script name an inlined function:
		 * its address is its caller's, which is not its own.
		 */
		if (node->inlined) {
			ret = asprintf(&label, "%s (inlined)", node->ms.sym->name);
			break;
		}
		hashmap__find(first, node->ms.sym->name, &seen);
		if (seen)
			return strdup(node->ms.sym->name);
		ret = asprintf(&label, "%s (%s+%#" PRIx64 ")", node->ms.sym->name,
			       dso ?: "[unknown]", node->objdump_addr);
		break;
	case FLAMEGRAPH_INSN:
		if (node->insn->text)
			ret = asprintf(&label, "%s [%#" PRIx64 "]", node->insn->text,
				       node->objdump_addr);
		else
			ret = asprintf(&label, "[%#" PRIx64 "]", node->objdump_addr);
		break;
	default:
		break;
	}
	return ret < 0 ? NULL : label;
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
		return strcmp(flamegraph_node__dso_name(l) ?: "",
			      flamegraph_node__dso_name(r) ?: "");
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

static int flamegraph_node__finish(struct flamegraph_node *node,
				   struct hashmap *first)
{
	u32 i;

	free(node->label);
	node->label = flamegraph_node__make_label(node, first);
	if (!node->label)
		return -ENOMEM;
	node->total = node->self;
	node->total_samples = node->samples;
	for (i = 0; i < node->nr_children; i++) {
		int err = flamegraph_node__finish(node->sorted[i], first);

		if (err)
			return err;
		node->total += node->sorted[i]->total;
		node->total_samples += node->sorted[i]->total_samples;
	}
	if (node->nr_children)
		qsort(node->sorted, node->nr_children, sizeof(*node->sorted),
		      flamegraph_node__cmp_sorted);
	return 0;
}

int flamegraph__finish(struct flamegraph *fg)
{
	struct hashmap *first = hashmap__new(flamegraph__str_hash, flamegraph__str_equal, NULL);
	int err;

	if (IS_ERR(first))
		return -ENOMEM;
	err = flamegraph_node__gather(&fg->root, first);
	if (!err)
		err = flamegraph_node__finish(&fg->root, first);
	hashmap__free(first);
	return err;
}
