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
#include "flamegraph-html.h"
#include "flamegraph-output.h"
#include "hashmap.h"
#include "json.h"
#include "map.h"
#include "srcline.h"
#include "symbol.h"

#include <linux/err.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Past this many cells (instructions before times after) no aligning. */
#define FLAMEGRAPH_DIFF_ALIGN_MAX	(4 * 1024 * 1024)

/* OPERANDS: aligned, the registers of the two instructions differ. */
enum flamegraph_diff_how {
	FLAMEGRAPH_DIFF_ADDRESS,
	FLAMEGRAPH_DIFF_ALIGNED,
	FLAMEGRAPH_DIFF_UNMATCHED,
	FLAMEGRAPH_DIFF_OPERANDS,
};

static const char * const flamegraph_diff_how_names[] = {
	[FLAMEGRAPH_DIFF_ADDRESS]	= "address",
	[FLAMEGRAPH_DIFF_ALIGNED]	= "aligned",
	[FLAMEGRAPH_DIFF_UNMATCHED]	= "unmatched",
	[FLAMEGRAPH_DIFF_OPERANDS]	= "aligned",
};

/*
 * The addresses of one function's instructions in both builds, paired,
 * and whether a pair's operands differ.
 */
struct flamegraph_diff_align {
	u64	*old;
	u64	*new;
	bool	*differ;
	size_t	nr;
};

/*
 * One build's instructions of a function: their texts without numbers,
 * their shapes (registers left out too), addresses, whether paired, and
 * the indices of those the common subsequence paired.
 */
struct flamegraph_diff_insns {
	char	**text;
	char	**shape;
	u64	*addr;
	bool	*paired;
	ssize_t	*lcs;
	ssize_t	nr;
};

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
 * What keeps a function apart from others of its name in its DSO across
 * a rebuild: the source file of its start, where perf's srcline code
 * finds it (DWARF, else the symbol table's file symbols), by its base
 * name (builds in two trees are one program); its rank among those of
 * its name and file in address order.
 */
struct flamegraph_diff_source {
	char	*file;
	u32	rank;
	u32	nr;
};

/* The base name of the source file of @sym's start, NULL if unknown. */
static char *flamegraph_diff__file(struct map *map, struct symbol *sym)
{
	unsigned int line;
	char *file = get_srcline_split(map__dso(map), map__rip_2objdump(map, sym->start), &line);
	char *base = NULL;

	if (file && file != SRCLINE_UNKNOWN && !strstarts(file, "??"))
		base = strdup(basename(file));
	if (file != SRCLINE_UNKNOWN)
		free(file);
	return base;
}

static bool flamegraph_diff__same_file(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

/* @node's function's source and rank, looked up once per symbol. */
static const struct flamegraph_diff_source *
flamegraph_diff__source(struct flamegraph_diff *diff, const struct flamegraph_node *node)
{
	struct dso *dso = map__dso(node->ms.map);
	const char *name = node->ms.sym->name;
	struct flamegraph_diff_source *src;
	struct symbol *sym;
	size_t idx;

	if (hashmap__find(diff->sources, node->ms.sym, &src))
		return src;
	src = zalloc(sizeof(*src));
	if (!src || hashmap__add(diff->sources, node->ms.sym, src)) {
		free(src);
		return NULL;
	}
	dso__sort_by_name(dso);
	for (sym = dso__find_symbol_by_name(dso, name, &idx); sym && !strcmp(sym->name, name);
	     sym = dso__next_symbol_by_name(dso, &idx))
		src->nr++;
	if (src->nr <= 1)
		return src;
	src->file = flamegraph_diff__file(node->ms.map, node->ms.sym);
	for (sym = dso__find_symbol_by_name(dso, name, &idx); sym && !strcmp(sym->name, name);
	     sym = dso__next_symbol_by_name(dso, &idx)) {
		char *file;

		if (sym->start >= node->ms.sym->start)
			continue;
		file = flamegraph_diff__file(node->ms.map, sym);
		src->rank += flamegraph_diff__same_file(file, src->file);
		free(file);
	}
	return src;
}

/*
 * Whether @a and @b are one function: of one name in DSOs of one short
 * name; in one build of the DSO, at one address, else, where the DSO of
 * either has the name twice, from one source file where both are known,
 * and of the same rank among the functions of that name and file.
 */
static bool flamegraph_diff__same_func(struct flamegraph_diff *diff,
				       const struct flamegraph_node *a,
				       const struct flamegraph_node *b)
{
	const struct flamegraph_diff_source *sa, *sb;

	if (strcmp(a->ms.sym->name, b->ms.sym->name))
		return false;
	if (flamegraph_diff__same_build(a, b))
		return a->objdump_addr == b->objdump_addr;
	sa = flamegraph_diff__source(diff, a);
	sb = flamegraph_diff__source(diff, b);
	if (!sa || !sb || (sa->nr <= 1 && sb->nr <= 1))
		return true;
	if (sa->file && sb->file && strcmp(sa->file, sb->file))
		return false;
	return sa->rank == sb->rank;
}

/* The same frame in both graphs: its kind, DSO and label or function. */
static bool flamegraph_diff__same(struct flamegraph_diff *diff,
				  const struct flamegraph_node *a,
				  const struct flamegraph_node *b)
{
	const char *da = flamegraph_node__dso_name(a);
	const char *db = flamegraph_node__dso_name(b);

	if (a->kind != b->kind || a->kernel != b->kernel || strcmp(da ?: "", db ?: ""))
		return false;
	if (a->kind == FLAMEGRAPH_FUNC && a->ms.sym && b->ms.sym && a->ms.map && b->ms.map)
		return flamegraph_diff__same_func(diff, a, b);
	return !strcmp(a->label ?: "", b->label ?: "");
}

/* @node's match among @parent's children, if any. */
static const struct flamegraph_node *
flamegraph_diff__match(struct flamegraph_diff *diff, const struct flamegraph_node *parent,
		       const struct flamegraph_node *node)
{
	u32 i;

	for (i = 0; parent && i < parent->nr_children; i++) {
		if (flamegraph_diff__same(diff, parent->sorted[i], node))
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
 * @s, without numbers, with each register ("%rcx") as "%": its mnemonic
 * and the shape of its operands.
 */
static char *flamegraph_diff__shape(const char *s)
{
	char *shape = strdup(s), *out = shape;

	if (!shape)
		return NULL;
	for (; *s; s++) {
		*out++ = *s;
		if (*s != '%')
			continue;
		while (isalnum((unsigned char)s[1]))
			s++;
	}
	*out = '\0';
	return shape;
}

/*
 * Pair, between two instructions the common subsequence paired (or a
 * function's start or end), what is left when as many are left on each
 * side: the k-th of each, where their mnemonics and operand shapes
 * agree. A rebuild's register renaming (imulq %rcx, %rax then imulq
 * %rsi, %rax) changes texts, not the place of an instruction.
 */
static void flamegraph_diff__pair_shapes(struct flamegraph_diff_insns *o,
					 struct flamegraph_diff_insns *n, size_t nr_lcs,
					 struct flamegraph_diff_align *al)
{
	ssize_t i0 = 0, j0 = 0, i, j, left;
	size_t k;

	for (k = 0; k <= nr_lcs; k++) {
		ssize_t i1 = k < nr_lcs ? o->lcs[k] : o->nr;
		ssize_t j1 = k < nr_lcs ? n->lcs[k] : n->nr;

		for (i = i0, left = 0; i < i1; i++)
			left += !o->paired[i];
		for (j = j0; j < j1; j++)
			left -= !n->paired[j];
		for (i = i0, j = j0; !left && i < i1 && j < j1; i++, j++) {
			while (i < i1 && o->paired[i])
				i++;
			while (j < j1 && n->paired[j])
				j++;
			if (i == i1 || j == j1 || strcmp(o->shape[i], n->shape[j]))
				continue;
			o->paired[i] = true;
			n->paired[j] = true;
			al->differ[al->nr] = strcmp(o->text[i], n->text[j]);
			al->old[al->nr] = o->addr[i];
			al->new[al->nr++] = n->addr[j];
		}
		i0 = i1 + 1;
		j0 = j1 + 1;
	}
}

static bool flamegraph_diff__has_leaves(const struct flamegraph_node *node)
{
	u32 i;

	for (i = 0; i < node->nr_children; i++) {
		if (node->sorted[i]->kind == FLAMEGRAPH_INSN)
			return true;
	}
	return false;
}

/* @text's index in @texts if it is there once, else -1: one table of all. */
static struct hashmap *flamegraph_diff__once(char **texts, ssize_t nr)
{
	struct hashmap *once = hashmap__new(flamegraph__str_hash,
					    flamegraph__str_equal, NULL);
	ssize_t i;

	if (IS_ERR(once))
		return NULL;
	for (i = 0; i < nr; i++) {
		if (hashmap__add(once, texts[i], i) == -EEXIST)
			hashmap__set(once, texts[i], -1, NULL, NULL);
	}
	return once;
}

/*
 * Pair what the alignment left where a text is once in each build: the
 * instructions a rebuild reordered (-O2 swaps a loop's add and xor that
 * -O1 has the other way round), which a common subsequence can't pair.
 */
static void flamegraph_diff__pair_once(char **lo, const u64 *ao, bool *po, ssize_t no,
				       char **ln, const u64 *an, bool *pn, ssize_t nn,
				       struct flamegraph_diff_align *al)
{
	struct hashmap *old = flamegraph_diff__once(lo, no);
	struct hashmap *new = flamegraph_diff__once(ln, nn);
	long i, j;

	for (i = 0; old && new && i < no; i++) {
		if (po[i] || !hashmap__find(old, lo[i], &j) || j < 0 ||
		    !hashmap__find(new, lo[i], &j) || j < 0 || pn[j])
			continue;
		po[i] = true;
		pn[j] = true;
		al->old[al->nr] = ao[i];
		al->new[al->nr++] = an[j];
	}
	hashmap__free(old);
	hashmap__free(new);
}

/* Decode @ms's instructions, their texts without numbers and their shapes. */
static int flamegraph_diff__insns(const struct map_symbol *ms, struct flamegraph_diff_insns *in)
{
	ssize_t i;

	in->nr = flamegraph__disassemble_symbol(ms, &in->text, &in->addr, NULL);
	if (in->nr <= 0)
		return -1;
	in->shape = calloc(in->nr, sizeof(*in->shape));
	in->paired = calloc(in->nr, sizeof(*in->paired));
	in->lcs = calloc(in->nr, sizeof(*in->lcs));
	if (!in->shape || !in->paired || !in->lcs)
		return -1;
	for (i = 0; i < in->nr; i++) {
		flamegraph_diff__normalise(in->text[i]);
		in->shape[i] = flamegraph_diff__shape(in->text[i]);
		if (!in->shape[i])
			return -1;
	}
	return 0;
}

static void flamegraph_diff__insns_exit(struct flamegraph_diff_insns *in)
{
	ssize_t i;

	for (i = 0; i < in->nr; i++) {
		free(in->text[i]);
		if (in->shape)
			free(in->shape[i]);
	}
	free(in->text);
	free(in->shape);
	free(in->addr);
	free(in->paired);
	free(in->lcs);
}

/*
 * Pair the instructions of @old and @new, one function in two builds:
 * both decoded from their start, aligned as the longest common
 * subsequence of their texts without numbers, then what is left where a
 * text is once in each, then what is left between two paired ones where
 * as many are left on each side and their shapes agree (registers
 * renamed). Nothing is paired where either can't be decoded.
 */
static void flamegraph_diff__align(struct flamegraph_diff *diff,
				   const struct flamegraph_node *old,
				   const struct flamegraph_node *new,
				   struct flamegraph_diff_align *al)
{
	struct flamegraph_diff_insns o = { .nr = 0, }, n = { .nr = 0, };
	ssize_t no, nn, i, j;
	size_t nr_lcs = 0;
	u32 *t = NULL;

	if (!diff->align || !old->ms.sym || !new->ms.sym ||
	    !flamegraph_diff__has_leaves(old) || !flamegraph_diff__has_leaves(new) ||
	    flamegraph_diff__same_build(old, new))
		return;
	if (flamegraph_diff__insns(&old->ms, &o) || flamegraph_diff__insns(&new->ms, &n))
		goto out;
	no = o.nr;
	nn = n.nr;
	if (no * nn > FLAMEGRAPH_DIFF_ALIGN_MAX)
		goto out;
	/* t[i][j]: the longest common subsequence of o.text[i..] and n.text[j..]. */
	t = calloc((no + 1) * (nn + 1), sizeof(*t));
	al->old = calloc(min(no, nn), sizeof(*al->old));
	al->new = calloc(min(no, nn), sizeof(*al->new));
	al->differ = calloc(min(no, nn), sizeof(*al->differ));
	if (!t || !al->old || !al->new || !al->differ)
		goto out;
#define T(i, j) t[(i) * (nn + 1) + (j)]
	for (i = no - 1; i >= 0; i--) {
		for (j = nn - 1; j >= 0; j--)
			T(i, j) = !strcmp(o.text[i], n.text[j]) ? T(i + 1, j + 1) + 1 :
				  max(T(i + 1, j), T(i, j + 1));
	}
	for (i = 0, j = 0; i < no && j < nn;) {
		if (!strcmp(o.text[i], n.text[j]) && T(i, j) == T(i + 1, j + 1) + 1) {
			o.paired[i] = true;
			n.paired[j] = true;
			o.lcs[nr_lcs] = i;
			n.lcs[nr_lcs++] = j;
			al->old[al->nr] = o.addr[i++];
			al->new[al->nr++] = n.addr[j++];
		} else if (T(i + 1, j) >= T(i, j + 1)) {
			i++;
		} else {
			j++;
		}
	}
#undef T
	flamegraph_diff__pair_once(o.text, o.addr, o.paired, no, n.text, n.addr, n.paired, nn, al);
	flamegraph_diff__pair_shapes(&o, &n, nr_lcs, al);
out:
	free(t);
	flamegraph_diff__insns_exit(&o);
	flamegraph_diff__insns_exit(&n);
}

/*
 * The leaf of @parent that the alignment pairs with the instruction at
 * @addr, and how: @from holds the addresses of @addr's build, @to the
 * other's.
 */
static const struct flamegraph_node *
flamegraph_diff__paired(const struct flamegraph_diff_align *al, const u64 *from,
			const u64 *to, u64 addr, const struct flamegraph_node *parent,
			enum flamegraph_diff_how *how)
{
	const struct flamegraph_node *m = NULL;
	size_t i;

	for (i = 0; i < al->nr && !m; i++) {
		if (from[i] == addr)
			m = flamegraph_diff__leaf_at(parent, to[i]);
	}
	*how = !m ? FLAMEGRAPH_DIFF_UNMATCHED :
	       al->differ[i - 1] ? FLAMEGRAPH_DIFF_OPERANDS : FLAMEGRAPH_DIFF_ALIGNED;
	return m;
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

	/*
	 * Two builds of one function: its leaves by the alignment alone (an
	 * address and text of the old build may be another instruction in
	 * the new one); else by label.
	 */
	if (old && new && (old->kind == FLAMEGRAPH_FUNC || old->kind == FLAMEGRAPH_UNKNOWN))
		flamegraph_diff__align(diff, old, new, &al);
	for (i = 0; new && i < new->nr_children; i++) {
		c = new->sorted[i];
		if (al.nr && c->kind == FLAMEGRAPH_INSN) {
			m = flamegraph_diff__paired(&al, al.new, al.old, c->objdump_addr, old,
						    &how);
		} else {
			m = flamegraph_diff__match(diff, old, c);
			how = m ? FLAMEGRAPH_DIFF_ADDRESS : FLAMEGRAPH_DIFF_UNMATCHED;
		}
		fn(diff, m, c, how, arg);
	}
	for (i = 0; old && i < old->nr_children; i++) {
		c = old->sorted[i];
		if (al.nr && c->kind == FLAMEGRAPH_INSN)
			m = flamegraph_diff__paired(&al, al.old, al.new, c->objdump_addr, new,
						    &how);
		else
			m = flamegraph_diff__match(diff, new, c);
		if (!m)
			fn(diff, c, NULL, FLAMEGRAPH_DIFF_UNMATCHED, arg);
	}
	free(al.old);
	free(al.new);
	free(al.differ);
}

/* @fn on the two roots, with the functions' sources kept for the walk. */
static int flamegraph_diff__walk(struct flamegraph_diff *diff, flamegraph_diff_fn fn,
				 void *arg)
{
	struct hashmap_entry *entry;
	size_t bkt;

	diff->sources = hashmap__new(flamegraph__key_hash, flamegraph__key_equal,
				     NULL);
	if (IS_ERR(diff->sources)) {
		diff->sources = NULL;
		return -ENOMEM;
	}
	fn(diff, &diff->old->root, &diff->new->root, FLAMEGRAPH_DIFF_ADDRESS, arg);
	hashmap__for_each_entry(diff->sources, entry, bkt) {
		struct flamegraph_diff_source *src = entry->pvalue;

		free(src->file);
		free(src);
	}
	hashmap__free(diff->sources);
	diff->sources = NULL;
	return 0;
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
	int err = flamegraph_diff__walk(diff, flamegraph_diff__folded, fp);

	return err ?: ferror(fp) ? -EIO : 0;
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
	u64 o = old ? old->total : 0, n = new ? new->total : 0;
	u64 all_old = diff->old->root.total, all_new = diff->new->root.total;
	FILE *fp = parent->fp;

	/* A plain graph's keys, NEW's weights; the root names NEW's graph. */
	fputs(parent->first ? "{" : ",{", fp);
	parent->first = false;
	flamegraph_node__put_json_keys(node, new ? new->self : 0, new ? new->samples : 0, fp,
				       /*html_safe=*/false,
				       node == &diff->new->root ? diff->new : NULL,
				       node == &diff->new->root ? diff->labels : NULL);
	fprintf(fp, ",\"match\":\"%s\"", old && new ? "both" : old ? "old" : "new");
	if (node->kind == FLAMEGRAPH_INSN)
		fprintf(fp, ",\"how\":\"%s\"", flamegraph_diff_how_names[how]);
	if (how == FLAMEGRAPH_DIFF_OPERANDS)
		fputs(",\"operands\":\"differ\"", fp);
	if (old && new && strcmp(old->label ?: "", new->label ?: "")) {
		fputs(",\"old_n\":", fp);
		json__put_string(fp, old->label, /*html_safe=*/false);
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
	int err = flamegraph_diff__walk(diff, flamegraph_diff__json, &json);

	fputc('\n', fp);
	return err ?: ferror(fp) ? -EIO : 0;
}

/* Where flamegraph_diff__compact() writes, and its page's strings. */
struct flamegraph_diff_page {
	FILE				*fp;
	struct flamegraph_strings	strings;
	bool				first;
	int				err;
};

static void put_index(struct flamegraph_diff_page *page, const char *s)
{
	long idx = flamegraph_strings__add(&page->strings, s);

	if (idx < -1)
		page->err = -ENOMEM;
	fprintf(page->fp, "%ld,", idx < -1 ? -1 : idx);
}

/*
 * [label, flags, dso, self, addr, srcline, [children], samples, old self,
 *  old samples, how, old label, operands differ]: the viewer's node
 * (flamegraph-viewer.js) with OLD's weight and how an instruction leaf
 * was matched (-1 for other frames; aligned, with 1 last where the
 * operands differ), NEW's values where both have the frame.
 */
static void flamegraph_diff__compact(struct flamegraph_diff *diff,
				     const struct flamegraph_node *old,
				     const struct flamegraph_node *new,
				     enum flamegraph_diff_how how, void *arg)
{
	struct flamegraph_diff_page *page = arg;
	const struct flamegraph_node *node = new ?: old;
	FILE *fp = page->fp;
	bool first = page->first;

	fputs(first ? "[" : ",[", fp);
	put_index(page, node->label);
	fprintf(fp, "%d,", flamegraph_node__page_flags(node));
	put_index(page, flamegraph_node__dso_name(node));
	fprintf(fp, "%" PRIu64 ",", new ? new->self : 0);
	flamegraph_node__put_page_addr(node, fp);
	fputs(",-1,[", fp);
	page->first = true;
	flamegraph_diff__children(diff, old, new, flamegraph_diff__compact, page);
	page->first = false;
	fprintf(fp, "],%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,", new ? new->samples : 0,
		old ? old->self : 0, old ? old->samples : 0,
		node->kind != FLAMEGRAPH_INSN ? -1 :
		how == FLAMEGRAPH_DIFF_OPERANDS ? FLAMEGRAPH_DIFF_ALIGNED : (int)how);
	if (old && new && strcmp(old->label ?: "", new->label ?: ""))
		put_index(page, old->label);
	else
		fputs("-1,", fp);
	/* put_index() ends with a comma: the last element follows. */
	fputs(how == FLAMEGRAPH_DIFF_OPERANDS ? "1]" : "0]", fp);
}

static void put_info(FILE *fp, const char *key, const char *value)
{
	if (!value)
		return;
	fprintf(fp, ",\"%s\":", key);
	json__put_string(fp, value, /*html_safe=*/true);
}

/* The page's data: the nodes first, in memory, for the strings they use. */
static int flamegraph_diff__write_data(FILE *fp, void *arg)
{
	struct flamegraph_diff *diff = arg;
	struct flamegraph_diff_page page = { .first = true, };
	char *nodes = NULL;
	size_t len = 0;
	int err;

	err = flamegraph_strings__init(&page.strings);
	if (err)
		return err;
	page.fp = open_memstream(&nodes, &len);
	if (!page.fp) {
		err = -ENOMEM;
		goto out;
	}
	err = flamegraph_diff__walk(diff, flamegraph_diff__compact, &page);
	if (fclose(page.fp) || page.err || err) {
		err = page.err ?: -ENOMEM;
		goto out;
	}
	fprintf(fp, "{\"v\":1,\"diff\":true,\"info\":{\"weight\":\"%s\"",
		flamegraph_weight__name(diff->new->weight));
	put_info(fp, "input", diff->new_path);
	put_info(fp, "base", diff->old_path);
	put_info(fp, "event", diff->labels->event);
	put_info(fp, "unit", diff->labels->unit);
	fputs("},\n\"strings\":", fp);
	flamegraph_strings__write(&page.strings, fp);
	fputs(",\n\"root\":", fp);
	fwrite(nodes, 1, len, fp);
	fputc('}', fp);
out:
	free(nodes);
	flamegraph_strings__exit(&page.strings);
	return err;
}

int flamegraph_diff__write_html(struct flamegraph_diff *diff, FILE *fp)
{
	struct flamegraph_info info = {
		.title = "perf flamegraph --diff",
	};

	return flamegraph__write_page(fp, &info, flamegraph_diff__write_data, diff);
}
