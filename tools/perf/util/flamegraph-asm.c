// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction leaves for perf flamegraph --asm: the text of the sampled
 * instruction, from perf's disasm layer, one disassembly per symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "annotate.h"
#include "arch/common.h"
#include "debug.h"
#include "disasm.h"
#include "dso.h"
#include "env.h"
#include "evsel.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "flamegraph-ranges.h"
#include "hashmap.h"
#include "map.h"
#include "maps.h"
#include "symbol.h"
#include "ui/progress.h"
#include "ui/util.h"

/*
 * The instruction leaves of one sampled symbol, wherever it was called;
 * the map and symbol of @func are the ones disassembled.
 */
struct flamegraph_sym_leaves {
	struct flamegraph_node	*func;
	struct flamegraph_node	**leaves;
	size_t			nr;
	size_t			alloc;
};

struct flamegraph_asm {
	struct flamegraph *fg;
	struct evsel	*evsel;
	const char	*no_disasm;
	struct hashmap	*syms;		/* struct symbol * -> sym_leaves */
	struct hashmap	*failed;	/* struct dso * that can't be disassembled */
	struct hashmap	*checked;	/* struct dso * whose failure was found */
};

/* One line from messages that span several. */
static void flatten(char *msg)
{
	char *src = msg, *dst = msg;

	while (*src) {
		char c = isspace(*src) ? ' ' : *src;

		src++;
		if (c == ' ' && (dst == msg || dst[-1] == ' '))
			continue;
		*dst++ = c;
	}
	while (dst > msg && dst[-1] == ' ')
		dst--;
	*dst = '\0';
}

static void flamegraph_asm__warn(struct flamegraph_asm *fa,
				 struct flamegraph_node *node,
				 const char *why)
{
	struct dso *dso = node->ms.map ? map__dso(node->ms.map) : NULL;

	if (!flamegraph__warn_once(fa->fg, dso, node->kernel))
		return;
	pr_warning("Warning: %s: %s; its instruction leaves show addresses only\n",
		   dso ? dso__long_name(dso) : node->kernel ? "[kernel]" : "[unknown]",
		   why);
}

static void flamegraph_asm__warn_unknown(struct flamegraph_asm *fa,
					 struct flamegraph_node *node)
{
	struct dso *dso = node->ms.map ? map__dso(node->ms.map) : NULL;
	const char *why = "no symbols: stripped, and no debuginfo for it was found";
	char buf[256];

	/* Work out why once per DSO, not once per leaf. */
	if (hashmap__add(fa->checked, dso ? (long)dso : node->kernel, 1))
		return;
	if (!dso && node->kernel) {
		why = "no kernel map in the recording";
	} else if (!dso) {
		why = "addresses outside any mapping";
	} else if (dso__loaded(dso) && *dso__load_errno(dso) == 0 &&
		   dso__has_symbols(dso)) {
		why = "no symbol covers the sampled addresses";
	} else if (*dso__load_errno(dso) &&
		   dso__strerror_load(dso, buf, sizeof(buf)) == 0) {
		flatten(buf);
		why = buf;
	} else if (is_perf_pid_map_name(dso__long_name(dso)) &&
		   access(dso__long_name(dso), R_OK)) {
		why = "JIT code with no perf map to name it (never written, or deleted)";
	} else if (!dso__has_symbols(dso) && !dso__is_kcore(dso) &&
		   access(dso__long_name(dso), R_OK)) {
		why = "binary not found, neither at its path nor in the build-id cache";
	}
	flamegraph_asm__warn(fa, node, why);
}

static int flamegraph_asm__collect(struct flamegraph_asm *fa,
				   struct flamegraph_node *node)
{
	struct rb_node *nd;

	for (nd = rb_first(&node->children); nd; nd = rb_next(nd)) {
		struct flamegraph_node *child;
		struct flamegraph_sym_leaves *sl = NULL;
		int err;

		child = rb_entry(nd, struct flamegraph_node, rb_node);
		if (child->kind != FLAMEGRAPH_INSN) {
			err = flamegraph_asm__collect(fa, child);
			if (err)
				return err;
			continue;
		}
		if (!child->ms.sym) {
			flamegraph_asm__warn_unknown(fa, child);
			continue;
		}
		if (!hashmap__find(fa->syms, child->ms.sym, &sl)) {
			sl = zalloc(sizeof(*sl));
			if (!sl)
				return -ENOMEM;
			sl->func = child;
			err = hashmap__add(fa->syms, child->ms.sym, sl);
			if (err) {
				free(sl);
				return err;
			}
		}
		if (sl->nr == sl->alloc) {
			size_t alloc = sl->alloc ? sl->alloc * 2 : 8;
			void *leaves = realloc(sl->leaves, alloc * sizeof(*sl->leaves));

			if (!leaves)
				return -ENOMEM;
			sl->leaves = leaves;
			sl->alloc = alloc;
		}
		sl->leaves[sl->nr++] = child;
	}
	return 0;
}

/*
 * The last instruction starting at or before @offset, as perf annotate's
 * calc_percent() sums the samples of [offset, next offset).
 */
static struct annotation_line *
annotation_lines__find(struct annotation_line **lines, size_t nr, s64 offset)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (lines[mid]->offset <= offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lines[lo - 1] : NULL;
}

/*
 * Label the leaves that @sym covers with the lines of its disassembly.
 * @range: @sym is a range of the leaves' symbol (flamegraph__sampled_ranges()):
 * each leaf in it must be the start of a line, else -EINVAL.
 */
static int flamegraph_sym_leaves__label(struct flamegraph_sym_leaves *sl,
					struct symbol *sym, bool range,
					struct annotation_line **lines,
					size_t nr, u64 start)
{
	size_t i;

	for (i = 0; i < sl->nr; i++) {
		struct flamegraph_node *leaf = sl->leaves[i];
		struct annotation_line *al;
		const char *text;
		char *label;

		if (range && (leaf->addr < sym->start || leaf->addr >= sym->end))
			continue;
		al = annotation_lines__find(lines, nr, leaf->addr - sym->start);
		if (range && (!al || al->offset != (s64)(leaf->addr - sym->start)))
			return -EINVAL;
		if (!al)
			continue;
		text = skip_spaces(al->line);
		leaf->objdump_addr = start + al->offset;
		if (asprintf(&label, "%s [%#" PRIx64 "]", text, leaf->objdump_addr) < 0)
			return -ENOMEM;
		free(leaf->label);
		leaf->label = label;
	}
	return 0;
}

/* Label the leaves in @sym from its disassembly, just made. */
static int flamegraph_asm__label(struct flamegraph_sym_leaves *sl,
				 struct symbol *sym, bool range)
{
	struct annotation *notes = symbol__annotation(sym);
	struct annotation_line **lines = NULL, *al;
	size_t nr = 0, alloc = 0;
	int err;

	list_for_each_entry(al, &notes->src->source, node) {
		if (al->offset < 0 || !al->line)
			continue;
		if (nr == alloc) {
			void *p;

			alloc = alloc ? alloc * 2 : 64;
			p = realloc(lines, alloc * sizeof(*lines));
			if (!p) {
				free(lines);
				return -ENOMEM;
			}
			lines = p;
		}
		lines[nr++] = al;
	}
	err = flamegraph_sym_leaves__label(sl, sym, range, lines, nr,
					   notes->src->start);
	free(lines);
	return err;
}

static int flamegraph_u64__cmp(const void *a, const void *b)
{
	u64 l = *(const u64 *)a, r = *(const u64 *)b;

	return l < r ? -1 : l > r;
}

/*
 * A large function with a few sampled instructions: disassemble the
 * ranges around them, each as a symbol of its own, where perf's
 * disassembler is in-process (capstone; --objdump turns it off).
 *
 * Return: 0 when every leaf was labelled, -ENOMEM, or -EAGAIN to
 * disassemble the whole symbol instead.
 */
static int flamegraph_asm__ranges(struct flamegraph_asm *fa,
				  struct flamegraph_sym_leaves *sl)
{
	struct map_symbol *ms = &sl->func->ms;
	struct symbol *sym = ms->sym;
	struct dso *dso = map__dso(ms->map);
	struct flamegraph_range *ranges;
	int saved_verbose = verbose;
	size_t i, nr = 0;
	int nr_ranges, err = 0;
	u64 *offsets;

	if (annotate_opts.objdump_path || !sl->func->dso ||
	    dso__kernel(dso) != DSO_SPACE__USER || dso__is_kcore(dso) ||
	    dso__needs_decompress(dso) ||
	    dso__binary_type(dso) == DSO_BINARY_TYPE__BPF_PROG_INFO ||
	    dso__binary_type(dso) == DSO_BINARY_TYPE__BPF_IMAGE ||
	    strcmp(perf_env__arch(evsel__env(fa->evsel)), "x86"))
		return -EAGAIN;

	offsets = calloc(sl->nr, sizeof(*offsets));
	if (!offsets)
		return -ENOMEM;
	for (i = 0; i < sl->nr; i++)
		offsets[i] = sl->leaves[i]->addr - sym->start;
	qsort(offsets, sl->nr, sizeof(*offsets), flamegraph_u64__cmp);
	for (i = 0; i < sl->nr; i++) {
		if (!nr || offsets[i] != offsets[nr - 1])
			offsets[nr++] = offsets[i];
	}
	nr_ranges = flamegraph__sampled_ranges(dso, maps__machine(ms->maps), sym,
					       offsets, nr, &ranges);
	free(offsets);
	if (nr_ranges <= 0)
		return nr_ranges ?: -EAGAIN;

	if (verbose <= 0)
		verbose = -1;
	for (i = 0; i < (size_t)nr_ranges && !err; i++) {
		struct map_symbol range_ms = *ms;
		struct symbol *range;

		range = symbol__new(sym->start + ranges[i].start,
				    ranges[i].end - ranges[i].start,
				    sym->binding, sym->type, sym->name);
		if (!range) {
			err = -ENOMEM;
			break;
		}
		range_ms.sym = range;
		err = symbol__annotate(&range_ms, fa->evsel, NULL) ? -EAGAIN :
		      flamegraph_asm__label(sl, range, true);
		if (err == -EINVAL)
			err = -EAGAIN;
		/* Frees its disassembly too. */
		symbol__delete(range);
	}
	verbose = saved_verbose;
	free(ranges);
	return err;
}

static int flamegraph_asm__disassemble(struct flamegraph_asm *fa,
				       struct flamegraph_sym_leaves *sl)
{
	struct map_symbol *ms = &sl->func->ms;
	struct dso *dso = map__dso(ms->map);
	struct annotation *notes = symbol__annotation(ms->sym);
	int saved_verbose = verbose;
	int err;

	/*
	 * A DSO that could not be disassembled for one symbol (no image, no
	 * disassembler) won't be for the next: don't start objdump again
	 * for each of its symbols.
	 */
	if (hashmap__find(fa->failed, dso, NULL))
		return 0;
	if (fa->no_disasm) {
		hashmap__add(fa->failed, dso, 1);
		flamegraph_asm__warn(fa, sl->func, fa->no_disasm);
		return 0;
	}
	if (dso__symtab_type(dso) == DSO_BINARY_TYPE__JAVA_JIT) {
		hashmap__add(fa->failed, dso, 1);
		flamegraph_asm__warn(fa, sl->func,
				     "JIT code named by a perf map has no image to disassemble");
		return 0;
	}

	err = flamegraph_asm__ranges(fa, sl);
	if (err != -EAGAIN)
		return err;

	/* One warning per DSO below, the details only with -v. */
	if (verbose <= 0)
		verbose = -1;
	err = symbol__annotate(ms, fa->evsel, NULL);
	verbose = saved_verbose;
	if (err) {
		const char *why = "no disassembler could read it";
		char buf[512];

		/* -1 is what the disassemblers return for any failure. */
		if (err != -1) {
			symbol__strerror_disassemble(ms, err, buf, sizeof(buf));
			flatten(buf);
			why = buf;
		}
		hashmap__add(fa->failed, dso, 1);
		flamegraph_asm__warn(fa, sl->func, why);
		return 0;
	}

	err = flamegraph_asm__label(sl, ms->sym, false);
	/* The text is in the labels now: free the disassembly. */
	annotated_source__purge(notes->src);
	return err;
}

int flamegraph__annotate(struct flamegraph *fg, struct evsel *evsel,
			 const char *no_disasm)
{
	struct flamegraph_asm fa = {
		.fg	   = fg,
		.evsel	   = evsel,
		.no_disasm = no_disasm,
	};
	struct hashmap_entry *cur;
	struct ui_progress prog;
	size_t bkt;
	int err;

	fa.syms = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	fa.failed = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	fa.checked = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	if (IS_ERR(fa.syms) || IS_ERR(fa.failed) || IS_ERR(fa.checked)) {
		err = -ENOMEM;
		goto out;
	}

	err = flamegraph_asm__collect(&fa, &fg->root);
	ui_progress__init(&prog, hashmap__size(fa.syms), "Disassembling...");
	hashmap__for_each_entry(fa.syms, cur, bkt) {
		struct flamegraph_sym_leaves *sl = cur->pvalue;

		if (!err)
			err = flamegraph_asm__disassemble(&fa, sl);
		free(sl->leaves);
		free(sl);
		ui_progress__update(&prog, 1);
	}
	ui_progress__finish();
out:
	hashmap__free(fa.syms);
	hashmap__free(fa.failed);
	hashmap__free(fa.checked);
	return err;
}

/* perf's binutils lookup fails through ui__error(): keep that for -v. */
static int flamegraph__quiet_error(const char *format, va_list args)
{
	veprintf(1, verbose, format, args);
	return 0;
}

static struct perf_error_ops flamegraph__quiet_eops = {
	.error		= flamegraph__quiet_error,
	.warning	= flamegraph__quiet_error,
};

void flamegraph__find_objdump(struct perf_env *env, char *no_disasm,
			      size_t size)
{
	const char *arch = perf_env__arch(env);
	int registered, err;

	no_disasm[0] = '\0';
	if (annotate_opts.objdump_path)
		return;
	registered = perf_error__register(&flamegraph__quiet_eops) == 0;
	err = perf_env__lookup_objdump(env, &annotate_opts.objdump_path);
	if (registered)
		perf_error__unregister(&flamegraph__quiet_eops);
	if (!err)
		return;
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	/* Capstone, in-process, reads x86 code on any host. */
	if (!strcmp(arch, "x86"))
		return;
#endif
	scnprintf(no_disasm, size,
		  "recorded on %s, and no objdump for %s was found (set CROSS_COMPILE or use --objdump)",
		  arch, arch);
}
