// SPDX-License-Identifier: GPL-2.0
/*
 * Annotate in context: the whole code of a flame graph's hottest
 * functions, with what perf annotate counts at each instruction over all
 * contexts, for the writers to put beside the frames of each context.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>

#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-annotate.h"
#include "flamegraph-asm.h"
#include "flamegraph-srcline.h"
#include "hashmap.h"
#include "map.h"
#include "symbol.h"
#include "thread.h"

/* A sampled function, while the hottest are chosen. */
struct flamegraph_candidate {
	const struct flamegraph_node	*node;	/* one of its frames */
	u64				self;
	u64				samples;
	u64				total;	/* of its frames, for ties */
	u32				function; /* its index in fg->functions + 1, or 0 */
};

struct flamegraph_annotate {
	struct flamegraph		*fg;
	/* Index + 1 in @candidates, by DSO and start. */
	struct hashmap			*index;
	struct flamegraph_candidate	*candidates;
	size_t				nr_candidates;
	size_t				alloc_candidates;
};

static size_t flamegraph_annotate__hash(const struct dso *dso, u64 start)
{
	return flamegraph__hash_combine(dso__key(dso), start);
}

/* The index + 1 of the function of @dso starting at @start, 0 if none. */
static long flamegraph_annotate__find(struct flamegraph_annotate *fa,
				      const struct dso *dso, u64 start)
{
	struct hashmap_entry *cur;

	hashmap__for_each_key_entry(fa->index, cur, flamegraph_annotate__hash(dso, start)) {
		const struct map_symbol *ms = &fa->candidates[cur->value - 1].node->ms;

		if (ms->sym->start == start &&
		    dso__key(map__dso(ms->map)) == dso__key(dso))
			return cur->value;
	}
	return 0;
}

/* The index + 1 in fg->functions of the function of @dso at @start, or 0. */
static u32 flamegraph_annotate__function(struct flamegraph_annotate *fa,
					 const struct dso *dso, u64 start)
{
	long i = flamegraph_annotate__find(fa, dso, start);

	return i ? fa->candidates[i - 1].function : 0;
}

/*
 * Every function with a frame in the graph, under @node: the weight
 * below each of its frames; 0, or -ENOMEM.
 */
static int flamegraph_annotate__candidates(struct flamegraph_annotate *fa,
					   const struct flamegraph_node *node, u64 *total)
{
	const struct flamegraph_node *child;
	u64 below = 0;
	struct rb_node *nd;
	long i = 0;
	int err;

	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		child = rb_entry(nd, struct flamegraph_node, rb_node);
		err = flamegraph_annotate__candidates(fa, child, &below);
		if (err)
			return err;
	}
	for (child = node->leaves; child; child = child->next)
		below += child->self;
	below += node->self;
	*total += below;
	if (node->kind != FLAMEGRAPH_FUNC || node->inlined || !node->ms.sym || !node->ms.map)
		return 0;
	i = flamegraph_annotate__find(fa, node->dso, node->addr);
	if (!i) {
		if (flamegraph__grow(&fa->candidates, &fa->alloc_candidates,
				     fa->nr_candidates + 1, sizeof(*fa->candidates)))
			return -ENOMEM;
		i = ++fa->nr_candidates;
		fa->candidates[i - 1] = (struct flamegraph_candidate){ .node = node, };
		if (hashmap__append(fa->index, flamegraph_annotate__hash(node->dso, node->addr), i))
			return -ENOMEM;
	}
	fa->candidates[i - 1].total += below;
	return 0;
}

/* Their self weight: the instruction leaves in them, as perf annotate sums them. */
static void flamegraph_annotate__candidates_self(struct flamegraph_annotate *fa)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(fa->fg->leaves, cur, bkt) {
		const struct flamegraph_node *leaf = cur->pvalue;
		const struct flamegraph_insn *insn = leaf->insn;
		long i;

		if (!insn->ms.sym || !insn->ms.map)
			continue;
		i = flamegraph_annotate__find(fa, map__dso(insn->ms.map), insn->ms.sym->start);
		if (i) {
			fa->candidates[i - 1].self += leaf->self;
			fa->candidates[i - 1].samples += leaf->samples;
		}
	}
}

/* Most self weight first, then most below; then by DSO and address, for stable output. */
static int flamegraph_candidate__cmp(const void *a, const void *b)
{
	const struct flamegraph_candidate *l = *(const struct flamegraph_candidate **)a;
	const struct flamegraph_candidate *r = *(const struct flamegraph_candidate **)b;
	int cmp;

	if (l->self != r->self)
		return l->self > r->self ? -1 : 1;
	if (l->total != r->total)
		return l->total > r->total ? -1 : 1;
	cmp = strcmp(dso__long_name(l->node->dso), dso__long_name(r->node->dso));
	if (cmp)
		return cmp;
	if (l->node->addr != r->node->addr)
		return l->node->addr < r->node->addr ? -1 : 1;
	return 0;
}

/* @fn's whole code, or why there is none. */
static int flamegraph_function__decode(struct flamegraph_function *fn, struct perf_env *env)
{
	char why[PATH_MAX + 128], **lines;
	u64 *addrs;
	ssize_t nr, i;

	if (flamegraph__symbol_code_missing(&fn->ms, env, why, sizeof(why))) {
		fn->why = strdup(why);
		return fn->why ? 0 : -ENOMEM;
	}
	nr = flamegraph__disassemble_symbol(&fn->ms, &lines, &addrs, &fn->filelocs);
	if (nr < 0)
		return nr;
	if (!nr) {
		fn->why = strdup("perf annotate shows no instruction of it");
		return fn->why ? 0 : -ENOMEM;
	}
	fn->insns = calloc(nr, sizeof(*fn->insns));
	if (!fn->insns) {
		for (i = 0; i < nr; i++) {
			free(lines[i]);
			if (fn->filelocs)
				free(fn->filelocs[i].file);
		}
		free(lines);
		free(addrs);
		zfree(&fn->filelocs);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		fn->insns[i].addr = addrs[i];
		fn->insns[i].text = lines[i];
		fn->insns[i].source = -1;
	}
	fn->nr_insns = nr;
	free(lines);
	free(addrs);
	return 0;
}

static int flamegraph_function_insn__cmp(const void *key, const void *elt)
{
	u64 addr = *(const u64 *)key;
	const struct flamegraph_function_insn *insn = elt;

	return addr < insn->addr ? -1 : addr > insn->addr;
}

/* The instruction of @fn at @addr (objdump's), or NULL. */
static struct flamegraph_function_insn *flamegraph_function__insn(struct flamegraph_function *fn,
								  u64 addr)
{
	if (!fn->nr_insns)
		return NULL;
	return bsearch(&addr, fn->insns, fn->nr_insns, sizeof(*fn->insns),
		       flamegraph_function_insn__cmp);
}

/*
 * The call that returns to @ret (objdump's address): the instruction
 * that ends there.  NULL where none does: the decoding from the start
 * went out of step, or the address is not a return address.
 */
static struct flamegraph_function_insn *flamegraph_function__call(struct flamegraph_function *fn,
								  u64 ret)
{
	u64 end = fn->start + (fn->ms.sym->end - fn->ms.sym->start);
	struct flamegraph_function_insn *next;

	if (!fn->nr_insns || ret <= fn->insns[0].addr || ret > end)
		return NULL;
	if (ret == end)
		return &fn->insns[fn->nr_insns - 1];
	next = flamegraph_function__insn(fn, ret);
	return next ? next - 1 : NULL;
}

/* Each instruction's samples in all contexts: the leaves at it. */
static void flamegraph_annotate__self(struct flamegraph_annotate *fa)
{
	struct hashmap_entry *cur;
	size_t bkt;

	hashmap__for_each_entry(fa->fg->leaves, cur, bkt) {
		const struct flamegraph_node *leaf = cur->pvalue;
		const struct flamegraph_insn *insn = leaf->insn;
		struct flamegraph_function_insn *at;
		u32 i;

		if (!insn->ms.sym || !insn->ms.map)
			continue;
		i = flamegraph_annotate__function(fa, map__dso(insn->ms.map), insn->ms.sym->start);
		at = i ? flamegraph_function__insn(&fa->fg->functions[i - 1],
						   insn->objdump_addr) : NULL;
		if (at) {
			at->self += leaf->self;
			at->samples += leaf->samples;
		}
	}
}

/* A frame's call sites in address order, for the writers: it has few. */
static void flamegraph_node__sort_callsites(struct flamegraph_node *node)
{
	struct flamegraph_callsite *cs = node->callsites, *next, **pos;

	node->callsites = NULL;
	for (; cs; cs = next) {
		next = cs->next;
		for (pos = &node->callsites; *pos && (*pos)->addr < cs->addr; pos = &(*pos)->next)
			;
		cs->next = *pos;
		*pos = cs;
	}
}

/*
 * Name the function of each frame, and give each call of its function the
 * samples that passed it, over all contexts: the call instruction's, which
 * counts a sample once however many frames of a recursion it passed.
 */
static void flamegraph_annotate__frames(struct flamegraph_annotate *fa,
					struct flamegraph_node *node)
{
	struct flamegraph_node *child;
	struct rb_node *nd;

	if (node->kind == FLAMEGRAPH_FUNC && !node->inlined)
		node->function = flamegraph_annotate__function(fa, node->dso, node->addr);
	if (node->function) {
		struct flamegraph_function *fn = &fa->fg->functions[node->function - 1];
		struct flamegraph_callsite *cs;

		flamegraph_node__sort_callsites(node);
		for (cs = node->callsites; cs; cs = cs->next) {
			struct flamegraph_function_insn *call;

			if (cs->call->counted)
				continue;
			cs->call->counted = true;
			call = flamegraph_function__call(fn, fn->start + cs->addr - node->addr);
			if (call) {
				call->calls += cs->call->weight;
				call->call_samples += cs->call->samples;
			}
		}
	}
	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		child = rb_entry(nd, struct flamegraph_node, rb_node);
		flamegraph_annotate__frames(fa, child);
	}
}

int flamegraph__add_functions(struct flamegraph *fg, struct perf_env *env, unsigned int max)
{
	struct flamegraph_annotate fa = { .fg = fg, };
	struct flamegraph_candidate **order = NULL;
	u64 total = 0;
	size_t i, nr;
	int err;

	if (!max || fg->functions)
		return 0;
	fa.index = hashmap__new(flamegraph__key_hash, flamegraph__key_equal, NULL);
	if (IS_ERR(fa.index))
		return -ENOMEM;
	err = flamegraph_annotate__candidates(&fa, &fg->root, &total);
	if (err || !fa.nr_candidates)
		goto out;
	flamegraph_annotate__candidates_self(&fa);
	/* The hottest first; the candidates stay where the index has them. */
	order = calloc(fa.nr_candidates, sizeof(*order));
	if (!order) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < fa.nr_candidates; i++)
		order[i] = &fa.candidates[i];
	qsort(order, fa.nr_candidates, sizeof(*order), flamegraph_candidate__cmp);
	nr = min_t(size_t, max, fa.nr_candidates);
	fg->functions = calloc(nr, sizeof(*fg->functions));
	if (!fg->functions) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr && !err; i++) {
		const struct flamegraph_node *node = order[i]->node;
		struct flamegraph_function *fn = &fg->functions[i];

		order[i]->function = i + 1;
		fn->ms.thread = thread__get(node->ms.thread);
		fn->ms.map = map__get(node->ms.map);
		fn->ms.sym = node->ms.sym;
		fn->start = node->objdump_addr;
		fn->self = order[i]->self;
		fn->samples = order[i]->samples;
		fg->nr_functions++;
		err = flamegraph_function__decode(fn, env);
	}
	if (err)
		goto out;
	flamegraph_annotate__self(&fa);
	flamegraph_annotate__frames(&fa, &fg->root);
out:
	hashmap__free(fa.index);
	free(order);
	free(fa.candidates);
	return err;
}

int flamegraph__add_code(struct flamegraph *fg, struct perf_env *env,
			 enum flamegraph_format format, bool no_objdump,
			 unsigned int max_functions)
{
	int err = flamegraph__decode_insns(fg, env, no_objdump);

	if (!err && format == FLAMEGRAPH_HTML)
		err = flamegraph__add_srclines(fg, FLAMEGRAPH_SRCLINES_MAX);
	if (err || !max_functions || !flamegraph_format__has_code(format))
		return err;
	err = flamegraph__add_functions(fg, env, max_functions);
	if (!err)
		err = flamegraph__add_function_srclines(fg);
	return err;
}
