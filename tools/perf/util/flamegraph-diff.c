// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-diff.c: two flame graphs of a workload, before and after,
 * written as one (perf flamegraph --diff): each frame with its weight
 * in both, instruction leaves paired across a rebuild by aligning the
 * two disassemblies of their function.
 */
#include "flamegraph-diff.h"
#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "flamegraph-output.h"
#include "map.h"

#include <linux/zalloc.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Past this many cells (instructions before times after) no aligning. */
#define FLAMEGRAPH_DIFF_ALIGN_MAX	(4 * 1024 * 1024)

enum flamegraph_diff_how {
	FLAMEGRAPH_DIFF_ADDRESS,
	FLAMEGRAPH_DIFF_ALIGNED,
	FLAMEGRAPH_DIFF_UNMATCHED,
};

static const char * const flamegraph_diff_how_names[] = {
	[FLAMEGRAPH_DIFF_ADDRESS]	= "address",
	[FLAMEGRAPH_DIFF_ALIGNED]	= "aligned",
	[FLAMEGRAPH_DIFF_UNMATCHED]	= "unmatched",
};

/* The addresses of one function's instructions in both builds, paired. */
struct flamegraph_diff_align {
	u64	*old;
	u64	*new;
	size_t	nr;
	bool	done;
};

/* The same frame in both graphs: its kind, DSO and label. */
static bool flamegraph_diff__same(const struct flamegraph_node *a,
				  const struct flamegraph_node *b)
{
	const char *da = flamegraph_node__dso_name(a);
	const char *db = flamegraph_node__dso_name(b);

	return a->kind == b->kind && a->kernel == b->kernel &&
	       !strcmp(a->label ?: "", b->label ?: "") && !strcmp(da ?: "", db ?: "");
}

/* @node's match among @parent's children by label, if any. */
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

/* The instruction leaf of @parent at objdump address @addr, if any. */
static const struct flamegraph_node *
flamegraph_diff__leaf_at(const struct flamegraph_node *parent, u64 addr)
{
	u32 i;

	for (i = 0; i < parent->nr_children; i++) {
		if (parent->sorted[i]->kind == FLAMEGRAPH_INSN &&
		    parent->sorted[i]->objdump_addr == addr)
			return parent->sorted[i];
	}
	return NULL;
}

/* An instruction's text without its numbers: what stays across a rebuild. */
static void flamegraph_diff__normalise(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '0' && s[1] == 'x') {
			*out++ = *s++;
			*out++ = *s++;
			while (isxdigit((unsigned char)*s))
				s++;
			continue;
		}
		if (*s == '+' && s[1] == '0' && s[2] == 'x') {
			s++;
			continue;
		}
		*out++ = *s++;
	}
	*out = '\0';
}

/*
 * Whether @old and @new, one function, are in the same build of their
 * binary: its leaves then match by address or not at all.
 */
static bool flamegraph_diff__same_build(const struct flamegraph_node *old,
					const struct flamegraph_node *new)
{
	const struct dso *a = old->ms.map ? map__dso(old->ms.map) : NULL;
	const struct dso *b = new->ms.map ? map__dso(new->ms.map) : NULL;

	return a && b && dso__has_build_id(a) && dso__has_build_id(b) &&
	       dso__build_id_equal(a, dso__bid(b));
}

/*
 * Pair the instructions of @old and @new, one function in two builds:
 * both decoded from their start, aligned as the longest common
 * subsequence of their texts without numbers. Nothing is paired where
 * either can't be decoded.
 */
static void flamegraph_diff__align(struct flamegraph_diff *diff,
				   const struct flamegraph_node *old,
				   const struct flamegraph_node *new,
				   struct flamegraph_diff_align *al)
{
	char **lo = NULL, **ln = NULL;
	u64 *ao = NULL, *an = NULL;
	ssize_t no = 0, nn = 0, i, j;
	u32 *t = NULL;

	al->done = true;
	if (!diff->old_env || !diff->new_env || !old->ms.sym || !new->ms.sym ||
	    flamegraph_diff__same_build(old, new))
		return;
	no = flamegraph__disassemble_symbol(&old->ms, diff->old_env, &lo, &ao);
	if (no > 0)
		nn = flamegraph__disassemble_symbol(&new->ms, diff->new_env, &ln, &an);
	if (no <= 0 || nn <= 0 || no * nn > FLAMEGRAPH_DIFF_ALIGN_MAX)
		goto out;
	for (i = 0; i < no; i++)
		flamegraph_diff__normalise(lo[i]);
	for (j = 0; j < nn; j++)
		flamegraph_diff__normalise(ln[j]);
	/* t[i][j]: the longest common subsequence of lo[i..] and ln[j..]. */
	t = calloc((no + 1) * (nn + 1), sizeof(*t));
	al->old = calloc(min(no, nn), sizeof(*al->old));
	al->new = calloc(min(no, nn), sizeof(*al->new));
	if (!t || !al->old || !al->new)
		goto out;
#define T(i, j) t[(i) * (nn + 1) + (j)]
	for (i = no - 1; i >= 0; i--) {
		for (j = nn - 1; j >= 0; j--)
			T(i, j) = !strcmp(lo[i], ln[j]) ? T(i + 1, j + 1) + 1 :
				  max(T(i + 1, j), T(i, j + 1));
	}
	for (i = 0, j = 0; i < no && j < nn;) {
		if (!strcmp(lo[i], ln[j]) && T(i, j) == T(i + 1, j + 1) + 1) {
			al->old[al->nr] = ao[i++];
			al->new[al->nr++] = an[j++];
		} else if (T(i + 1, j) >= T(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef T
out:
	free(t);
	for (i = 0; i < no; i++)
		free(lo[i]);
	for (j = 0; j < nn; j++)
		free(ln[j]);
	free(lo);
	free(ln);
	free(ao);
	free(an);
}

/* @new's match under @old by the alignment, if any. */
static const struct flamegraph_node *
flamegraph_diff__aligned(const struct flamegraph_diff_align *al,
			 const struct flamegraph_node *old, const struct flamegraph_node *new)
{
	size_t i;

	for (i = 0; i < al->nr; i++) {
		if (al->new[i] == new->objdump_addr)
			return flamegraph_diff__leaf_at(old, al->old[i]);
	}
	return NULL;
}

/* @old's match under @new by the alignment, if any. */
static const struct flamegraph_node *
flamegraph_diff__aligned_old(const struct flamegraph_diff_align *al,
			     const struct flamegraph_node *old, const struct flamegraph_node *new)
{
	size_t i;

	for (i = 0; i < al->nr; i++) {
		if (al->old[i] == old->objdump_addr)
			return flamegraph_diff__leaf_at(new, al->new[i]);
	}
	return NULL;
}

typedef void (*flamegraph_diff_fn)(struct flamegraph_diff *diff,
				   const struct flamegraph_node *old,
				   const struct flamegraph_node *new,
				   enum flamegraph_diff_how how, void *arg);

/*
 * The children of @old and @new, the same frame (either may be NULL),
 * paired: @fn for each of NEW's, with its match in OLD or NULL, then for
 * each of OLD's that none of NEW's matched.
 */
static void flamegraph_diff__children(struct flamegraph_diff *diff,
				      const struct flamegraph_node *old,
				      const struct flamegraph_node *new,
				      flamegraph_diff_fn fn, void *arg)
{
	struct flamegraph_diff_align al = { .nr = 0, };
	const struct flamegraph_node *c, *m;
	enum flamegraph_diff_how how;
	u32 i;

	for (i = 0; new && i < new->nr_children; i++) {
		c = new->sorted[i];
		m = flamegraph_diff__match(old, c);
		how = m ? FLAMEGRAPH_DIFF_ADDRESS : FLAMEGRAPH_DIFF_UNMATCHED;
		if (!m && old && c->kind == FLAMEGRAPH_INSN) {
			if (!al.done)
				flamegraph_diff__align(diff, old, new, &al);
			m = flamegraph_diff__aligned(&al, old, c);
			if (m)
				how = FLAMEGRAPH_DIFF_ALIGNED;
		}
		fn(diff, m, c, how, arg);
	}
	for (i = 0; old && i < old->nr_children; i++) {
		c = old->sorted[i];
		if (flamegraph_diff__match(new, c))
			continue;
		if (new && c->kind == FLAMEGRAPH_INSN) {
			if (!al.done)
				flamegraph_diff__align(diff, old, new, &al);
			if (flamegraph_diff__aligned_old(&al, c, new))
				continue;
		}
		fn(diff, c, NULL, FLAMEGRAPH_DIFF_UNMATCHED, arg);
	}
	free(al.old);
	free(al.new);
}

static void flamegraph_diff__folded(struct flamegraph_diff *diff,
				    const struct flamegraph_node *old,
				    const struct flamegraph_node *new,
				    enum flamegraph_diff_how how __maybe_unused, void *arg)
{
	const struct flamegraph_node *node = new ?: old;
	u64 o = old ? old->self : 0, n = new ? new->self : 0;
	FILE *fp = arg;

	if ((o || n) && node->kind != FLAMEGRAPH_ROOT) {
		flamegraph_node__write_folded_path(node, fp);
		fprintf(fp, " %" PRIu64 " %" PRIu64 "\n", o, n);
	}
	flamegraph_diff__children(diff, old, new, flamegraph_diff__folded, fp);
}

int flamegraph_diff__write_folded(struct flamegraph_diff *diff, FILE *fp)
{
	flamegraph_diff__folded(diff, &diff->old->root, &diff->new->root,
				FLAMEGRAPH_DIFF_ADDRESS, fp);
	return ferror(fp) ? -EIO : 0;
}

static double share(u64 weight, u64 total)
{
	return total ? 100.0 * weight / total : 0;
}

/* Where flamegraph_diff__json() writes, and whether a node came before. */
struct flamegraph_diff_json {
	FILE	*fp;
	bool	first;
};

static void flamegraph_diff__json(struct flamegraph_diff *diff,
				  const struct flamegraph_node *old,
				  const struct flamegraph_node *new,
				  enum flamegraph_diff_how how, void *arg)
{
	struct flamegraph_diff_json *parent = arg, json = { .fp = parent->fp, .first = true, };
	const struct flamegraph_node *node = new ?: old;
	const char *dso = flamegraph_node__dso_name(node);
	u64 o = old ? old->total : 0, n = new ? new->total : 0;
	u64 all_old = diff->old->root.total, all_new = diff->new->root.total;
	FILE *fp = parent->fp;

	fputs(parent->first ? "{\"n\":" : ",{\"n\":", fp);
	parent->first = false;
	flamegraph__put_json_string(fp, node->label ?: "");
	fprintf(fp, ",\"kind\":\"%s\",\"dso\":", flamegraph_node__kind_name(node));
	flamegraph__put_json_string(fp, dso ?: "");
	fprintf(fp, ",\"match\":\"%s\"", old && new ? "both" : old ? "old" : "new");
	if (node->kind == FLAMEGRAPH_INSN)
		fprintf(fp, ",\"how\":\"%s\"", flamegraph_diff_how_names[how]);
	if (old && new && strcmp(old->label ?: "", new->label ?: "")) {
		fputs(",\"old_n\":", fp);
		flamegraph__put_json_string(fp, old->label ?: "");
	}
	fprintf(fp, ",\"old\":%" PRIu64 ",\"new\":%" PRIu64
		",\"old_share\":%.4f,\"new_share\":%.4f,\"delta\":%.4f,\"c\":[",
		o, n, share(o, all_old), share(n, all_new),
		share(n, all_new) - share(o, all_old));
	flamegraph_diff__children(diff, old, new, flamegraph_diff__json, &json);
	fputs("]}", fp);
}

int flamegraph_diff__write_json(struct flamegraph_diff *diff, FILE *fp)
{
	struct flamegraph_diff_json json = { .fp = fp, .first = true, };

	flamegraph_diff__json(diff, &diff->old->root, &diff->new->root,
			      FLAMEGRAPH_DIFF_ADDRESS, &json);
	fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}
