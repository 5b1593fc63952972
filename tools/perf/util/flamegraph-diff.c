// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-diff.c: two flame graphs of a workload, before and after,
 * written as one (perf flamegraph --diff): each frame with its weight
 * in both.
 */
#include "flamegraph-diff.h"
#include "flamegraph.h"
#include "flamegraph-output.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

/* The same frame in both graphs: its kind, DSO and label. */
static bool flamegraph_diff__same(const struct flamegraph_node *a,
				  const struct flamegraph_node *b)
{
	const char *da = flamegraph_node__dso_name(a);
	const char *db = flamegraph_node__dso_name(b);

	return a->kind == b->kind && a->kernel == b->kernel &&
	       !strcmp(a->label ?: "", b->label ?: "") && !strcmp(da ?: "", db ?: "");
}

/* @node's match among @parent's children, if any. */
static const struct flamegraph_node *
flamegraph_diff__match(const struct flamegraph_node *parent,
		       const struct flamegraph_node *node)
{
	u32 i;

	for (i = 0; parent && i < parent->nr_children; i++) {
		if (flamegraph_diff__same(parent->sorted[i], node))
			return parent->sorted[i];
	}
	return NULL;
}

/* The stacks under @old and @new, the same frame, either may be NULL. */
static void flamegraph_diff__folded(const struct flamegraph_node *old,
				    const struct flamegraph_node *new, FILE *fp)
{
	const struct flamegraph_node *node = new ?: old;
	u64 o = old ? old->self : 0, n = new ? new->self : 0;
	u32 i;

	if ((o || n) && node->kind != FLAMEGRAPH_ROOT) {
		flamegraph_node__write_folded_path(node, fp);
		fprintf(fp, " %" PRIu64 " %" PRIu64 "\n", o, n);
	}
	for (i = 0; new && i < new->nr_children; i++)
		flamegraph_diff__folded(flamegraph_diff__match(old, new->sorted[i]),
					new->sorted[i], fp);
	for (i = 0; old && i < old->nr_children; i++) {
		if (!flamegraph_diff__match(new, old->sorted[i]))
			flamegraph_diff__folded(old->sorted[i], NULL, fp);
	}
}

int flamegraph_diff__write_folded(struct flamegraph *old, struct flamegraph *new, FILE *fp)
{
	flamegraph_diff__folded(&old->root, &new->root, fp);
	return ferror(fp) ? -EIO : 0;
}

static double share(u64 weight, u64 total)
{
	return total ? 100.0 * weight / total : 0;
}

struct flamegraph_diff_totals {
	u64	old;
	u64	new;
};

static void flamegraph_diff__json(const struct flamegraph_node *old,
				  const struct flamegraph_node *new,
				  const struct flamegraph_diff_totals *all, FILE *fp)
{
	const struct flamegraph_node *node = new ?: old;
	const char *dso = flamegraph_node__dso_name(node);
	u64 o = old ? old->total : 0, n = new ? new->total : 0;
	bool first = true;
	u32 i;

	fputs("{\"n\":", fp);
	flamegraph__put_json_string(fp, node->label ?: "");
	fprintf(fp, ",\"kind\":\"%s\",\"dso\":", flamegraph_node__kind_name(node));
	flamegraph__put_json_string(fp, dso ?: "");
	fprintf(fp, ",\"match\":\"%s\",\"old\":%" PRIu64 ",\"new\":%" PRIu64
		",\"old_share\":%.4f,\"new_share\":%.4f,\"delta\":%.4f,\"c\":[",
		old && new ? "both" : old ? "old" : "new", o, n,
		share(o, all->old), share(n, all->new),
		share(n, all->new) - share(o, all->old));
	for (i = 0; new && i < new->nr_children; i++) {
		fputs(first ? "" : ",", fp);
		first = false;
		flamegraph_diff__json(flamegraph_diff__match(old, new->sorted[i]),
				      new->sorted[i], all, fp);
	}
	for (i = 0; old && i < old->nr_children; i++) {
		if (flamegraph_diff__match(new, old->sorted[i]))
			continue;
		fputs(first ? "" : ",", fp);
		first = false;
		flamegraph_diff__json(old->sorted[i], NULL, all, fp);
	}
	fputs("]}", fp);
}

int flamegraph_diff__write_json(struct flamegraph *old, struct flamegraph *new, FILE *fp)
{
	struct flamegraph_diff_totals all = {
		.old = old->root.total,
		.new = new->root.total,
	};

	flamegraph_diff__json(&old->root, &new->root, &all, fp);
	fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}
