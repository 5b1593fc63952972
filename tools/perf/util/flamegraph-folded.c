// SPDX-License-Identifier: GPL-2.0
/*
 * Folded stacks output of perf flamegraph, as read by flamegraph.pl,
 * inferno and speedscope: "comm;caller;...;leaf count", one line per
 * distinct stack.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "flamegraph.h"

/* Frames are separated by ';' and stacks by newlines: keep names whole. */
static void folded__put_name(FILE *fp, const char *name)
{
	while (*name) {
		size_t len = strcspn(name, ";\n\r");

		/* What needs no change, in one write. */
		fwrite(name, 1, len, fp);
		name += len;
		if (!*name)
			break;
		fputc(*name == ';' ? ':' : ' ', fp);
		name++;
	}
}

static void folded__put_path(FILE *fp, const struct flamegraph_node *node)
{
	if (node->parent && node->parent->kind != FLAMEGRAPH_ROOT) {
		folded__put_path(fp, node->parent);
		fputc(';', fp);
	}
	folded__put_name(fp, node->label);
}

static void flamegraph_node__write_folded(const struct flamegraph_node *node,
					  FILE *fp)
{
	u32 i;

	if (node->self && node->kind != FLAMEGRAPH_ROOT) {
		folded__put_path(fp, node);
		fputc(' ', fp);
		flamegraph__put_u64(fp, node->self);
		fputc('\n', fp);
	}
	for (i = 0; i < node->nr_children; i++)
		flamegraph_node__write_folded(node->sorted[i], fp);
}

int flamegraph__write_folded(struct flamegraph *fg, FILE *fp)
{
	flamegraph_node__write_folded(&fg->root, fp);
	return ferror(fp) ? -EIO : 0;
}
