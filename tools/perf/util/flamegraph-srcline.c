// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of the hottest instruction leaves of a flame graph, from
 * perf's srcline code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/string.h>

#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "map.h"
#include "srcline.h"

/* An instruction leaf, and the instruction (DSO, objdump address) it is. */
struct insn_ref {
	struct flamegraph_node	*leaf;
	const struct dso	*dso;
	u64			addr;
};

/* The leaves of one instruction: refs[first, first + nr). */
struct insn_group {
	size_t	first;
	size_t	nr;
	u64	samples;
};

struct insn_refs {
	struct insn_ref	*refs;
	size_t		nr;
	size_t		alloc;
};

/* Leaves whose text the disassembler gave: they have an objdump address. */
static int insn_refs__collect(struct insn_refs *ir, struct flamegraph_node *node)
{
	struct rb_node *nd;

	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		struct flamegraph_node *child = rb_entry(nd, struct flamegraph_node,
							 rb_node);

		if (child->kind != FLAMEGRAPH_INSN) {
			if (insn_refs__collect(ir, child))
				return -ENOMEM;
			continue;
		}
		if (!child->label || !child->ms.sym || !child->ms.map)
			continue;
		if (ir->nr == ir->alloc) {
			size_t alloc = ir->alloc ? ir->alloc * 2 : 256;
			void *p = realloc(ir->refs, alloc * sizeof(*ir->refs));

			if (!p)
				return -ENOMEM;
			ir->refs = p;
			ir->alloc = alloc;
		}
		ir->refs[ir->nr++] = (struct insn_ref){
			.leaf = child,
			.dso  = map__dso(child->ms.map),
			.addr = child->objdump_addr,
		};
	}
	return 0;
}

static int insn_ref__cmp(const void *a, const void *b)
{
	const struct insn_ref *l = a, *r = b;

	if (l->dso != r->dso)
		return l->dso < r->dso ? -1 : 1;
	if (l->addr != r->addr)
		return l->addr < r->addr ? -1 : 1;
	return 0;
}

static int insn_group__cmp_samples(const void *a, const void *b)
{
	const struct insn_group *l = a, *r = b;

	if (l->samples != r->samples)
		return l->samples > r->samples ? -1 : 1;
	return l->first < r->first ? -1 : 1;
}

/* "file:line", or NULL where addr2line has none ("??:0"). */
static char *insn_ref__srcline(const struct insn_ref *ref)
{
	struct flamegraph_node *leaf = ref->leaf;
	char *srcline;

	srcline = get_srcline(map__dso(leaf->ms.map), ref->addr, leaf->ms.sym,
			      /*show_sym=*/false, /*show_addr=*/false, ref->addr);
	if (srcline && srcline != SRCLINE_UNKNOWN && strstarts(srcline, "??"))
		zfree_srcline(&srcline);
	return srcline == SRCLINE_UNKNOWN ? NULL : srcline;
}

int flamegraph__add_srclines(struct flamegraph *fg, unsigned int max)
{
	struct insn_refs ir = { .refs = NULL, };
	struct insn_group *groups = NULL;
	size_t nr_groups = 0, i, j;
	int err;

	err = insn_refs__collect(&ir, &fg->root);
	if (err || !ir.nr)
		goto out;
	qsort(ir.refs, ir.nr, sizeof(*ir.refs), insn_ref__cmp);

	groups = calloc(ir.nr, sizeof(*groups));
	if (!groups) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < ir.nr; i++) {
		if (!i || insn_ref__cmp(&ir.refs[i - 1], &ir.refs[i]))
			groups[nr_groups++].first = i;
		groups[nr_groups - 1].nr++;
		groups[nr_groups - 1].samples += ir.refs[i].leaf->self;
	}
	qsort(groups, nr_groups, sizeof(*groups), insn_group__cmp_samples);

	for (i = 0; i < nr_groups && i < max; i++) {
		struct insn_ref *first = &ir.refs[groups[i].first];
		char *srcline = insn_ref__srcline(first);

		for (j = 0; srcline && j < groups[i].nr; j++) {
			struct flamegraph_node *leaf = first[j].leaf;

			free(leaf->srcline);
			leaf->srcline = strdup(srcline);
			if (!leaf->srcline)
				err = -ENOMEM;
		}
		free(srcline);
	}
out:
	free(groups);
	free(ir.refs);
	return err;
}
