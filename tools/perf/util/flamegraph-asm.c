// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction leaves for perf flamegraph --asm: the text of the sampled
 * instruction, from perf's disasm layer, one disassembly per symbol.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/kernel.h>
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
#include "flamegraph-insns.h"
#include "flamegraph-prefetch.h"
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
	struct flamegraph_decoder *decoder;	/* NULL: no capstone */
	/* Symbols decoded while the events were read, or NULL. */
	struct flamegraph_prefetch *prefetch;
	struct arch	*arch;		/* of the recording */
	/* perf annotate's capstone, for 32- and 64-bit code, as needed. */
	struct disasm_capstone *capstone[2];
	bool		no_capstone[2];	/* disasm_capstone__new() failed */
	/* For -v: symbols decoded here, their lines, and the rest. */
	size_t		nr_decoded;
	size_t		nr_prefetched;
	size_t		nr_lines;
	size_t		nr_whole;
	size_t		nr_spans;
	/* Symbols that perf's disasm layer gives to objdump, batched. */
	struct flamegraph_sym_leaves **objdump;
	size_t		nr_objdump;
	size_t		alloc_objdump;
};

/*
 * One objdump for symbols of a DSO closer than this: about what starting
 * one costs (it reads the symbol table, and the debuginfo for -S) in
 * bytes of code disassembled.  gcc's cc1 with --objdump, 3,408 sampled
 * symbols: 3,408 objdumps took 442 s; 137, 87 and 72 objdumps (32, 64
 * and 128 kB) 28, 23 and 28 s.
 */
#define FLAMEGRAPH_OBJDUMP_GAP		(64 * 1024)
/* Bounds the disasm lines held at once: ~200 bytes per instruction. */
#define FLAMEGRAPH_OBJDUMP_SPAN_MAX	(256 * 1024)

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
	long id = flamegraph__dso_key(dso);
	const char *why = "no symbols: stripped, and no debuginfo for it was found";
	char buf[256];

	/* Work out why once per DSO, not once per leaf. */
	if (hashmap__add(fa->checked, id ?: node->kernel, 1))
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

/* Each instruction leaf, under its symbol (fa->syms). */
static int flamegraph_asm__collect(struct flamegraph_asm *fa)
{
	struct flamegraph *fg = fa->fg;
	u64 i;

	for (i = 0; i < fg->nr_insns; i++) {
		struct flamegraph_node *child = fg->insns[i];
		struct flamegraph_sym_leaves *sl = NULL;
		int err;

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

/* How the lines of a disassembly relate to the leaves' symbol. */
enum flamegraph_label_mode {
	/* The symbol itself. */
	FLAMEGRAPH_LABEL_WHOLE,
	/* A span of symbols: each leaf's line is in the leaves' symbol. */
	FLAMEGRAPH_LABEL_SPAN,
};

/*
 * Label the leaves of @sl that @sym covers with the lines of its
 * disassembly (map-relative addresses; @start is the objdump address of
 * @sym->start).  A leaf whose line can't be had that way (@mode) fails
 * it with -EINVAL.
 */
static int flamegraph_sym_leaves__label(struct flamegraph *fg,
					struct flamegraph_sym_leaves *sl,
					struct symbol *sym,
					enum flamegraph_label_mode mode,
					struct annotation_line **lines,
					size_t nr, u64 start)
{
	struct symbol *own = sl->func->ms.sym;
	s64 min = own->start - sym->start;
	size_t i;

	for (i = 0; i < sl->nr; i++) {
		struct flamegraph_node *leaf = sl->leaves[i];
		s64 offset = leaf->addr - sym->start;
		struct annotation_line *al;
		const char *text;

		if (mode == FLAMEGRAPH_LABEL_SPAN &&
		    (leaf->addr < own->start || leaf->addr >= own->end))
			return -EINVAL;
		al = annotation_lines__find(lines, nr, offset);
		if (mode == FLAMEGRAPH_LABEL_SPAN && (!al || al->offset < min))
			return -EINVAL;
		if (!al)
			continue;
		text = skip_spaces(al->line);
		leaf->objdump_addr = start + al->offset;
		if (flamegraph__set_label(fg, leaf, "%s [%#" PRIx64 "]", text,
					  leaf->objdump_addr))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The instruction lines of @sym's disassembly, just made, in address
 * order: an array to free() in *@lines.  Return: their number, -ENOMEM.
 */
static ssize_t flamegraph_asm__lines(struct symbol *sym,
				     struct annotation_line ***lines)
{
	struct annotation *notes = symbol__annotation(sym);
	struct annotation_line *al;
	size_t nr = 0, alloc = 0;

	*lines = NULL;
	list_for_each_entry(al, &notes->src->source, node) {
		if (al->offset < 0 || !al->line)
			continue;
		if (nr == alloc) {
			void *p;

			alloc = alloc ? alloc * 2 : 64;
			p = realloc(*lines, alloc * sizeof(**lines));
			if (!p) {
				zfree(lines);
				return -ENOMEM;
			}
			*lines = p;
		}
		(*lines)[nr++] = al;
	}
	return nr;
}

/* Label the leaves in @sym from its disassembly, just made. */
static int flamegraph_asm__label(struct flamegraph *fg,
				 struct flamegraph_sym_leaves *sl,
				 struct symbol *sym,
				 enum flamegraph_label_mode mode)
{
	struct annotation_line **lines;
	ssize_t nr = flamegraph_asm__lines(sym, &lines);
	int err;

	if (nr < 0)
		return nr;
	err = flamegraph_sym_leaves__label(fg, sl, sym, mode, lines, nr,
					   symbol__annotation(sym)->src->start);
	free(lines);
	return err;
}

/*
 * Whether to leave @sl's DSO alone: it failed for another symbol (no
 * image, no disassembler) and won't do better for this one, or nothing
 * can read it.  Warns once per DSO.
 */
static bool flamegraph_asm__skip(struct flamegraph_asm *fa,
				 struct flamegraph_sym_leaves *sl)
{
	struct dso *dso = map__dso(sl->func->ms.map);

	/* Don't start objdump again for each of its symbols. */
	if (hashmap__find(fa->failed, flamegraph__dso_key(dso), NULL))
		return true;
	if (fa->no_disasm) {
		hashmap__add(fa->failed, flamegraph__dso_key(dso), 1);
		flamegraph_asm__warn(fa, sl->func, fa->no_disasm);
		return true;
	}
	if (dso__symtab_type(dso) == DSO_BINARY_TYPE__JAVA_JIT) {
		hashmap__add(fa->failed, flamegraph__dso_key(dso), 1);
		flamegraph_asm__warn(fa, sl->func,
				     "JIT code named by a perf map has no image to disassemble");
		return true;
	}
	return false;
}

/*
 * Whether perf's disasm layer gives every symbol to objdump, as
 * symbol__disassemble() does after LLVM and capstone: capstone is off
 * with an objdump path (--objdump, a cross objdump) or not built in.
 */
static bool flamegraph_asm__objdump_only(void)
{
#if defined(HAVE_LIBLLVM_SUPPORT)
	return false;
#elif defined(HAVE_LIBCAPSTONE_SUPPORT)
	return annotate_opts.objdump_path;
#else
	return true;
#endif
}

/* Whether symbol__disassemble() tries LLVM before capstone. */
static bool flamegraph_asm__llvm_first(void)
{
#ifdef HAVE_LIBLLVM_SUPPORT
	return true;
#else
	return false;
#endif
}

/* A capstone handle set up as perf annotate's, kept for every symbol. */
static struct disasm_capstone *
flamegraph_asm__capstone(struct flamegraph_asm *fa, struct annotate_args *args,
			 bool is_64bit)
{
	if (!fa->capstone[is_64bit] && !fa->no_capstone[is_64bit]) {
		fa->capstone[is_64bit] = disasm_capstone__new(args, is_64bit);
		fa->no_capstone[is_64bit] = !fa->capstone[is_64bit];
	}
	return fa->capstone[is_64bit];
}

/*
 * Label @sl's leaves with capstone's line for each sampled instruction,
 * @starts the bitmap of where its instructions start, @code the symbol's
 * bytes.  Return: 0, -EAGAIN to disassemble it whole, -ENOMEM.
 */
static int flamegraph_asm__label_insns(struct flamegraph_asm *fa,
				       struct flamegraph_sym_leaves *sl,
				       const unsigned long *starts,
				       const u8 *code, bool is_64bit)
{
	struct map_symbol *ms = &sl->func->ms;
	struct annotate_args args = {
		.arch	 = fa->arch,
		.ms	 = *ms,
		.evsel	 = fa->evsel,
		.options = &annotate_opts,
	};
	u64 start = map__rip_2objdump(ms->map, ms->sym->start);
	u64 len = ms->sym->end - ms->sym->start;
	struct disasm_capstone *dc;
	const char *text = NULL;
	char line[512];
	u64 done = ULLONG_MAX;	/* no instruction decoded yet */
	size_t i;

	dc = flamegraph_asm__capstone(fa, &args, is_64bit);
	if (!dc)
		return -EAGAIN;
	/* The leaves are sorted by address: one decoding per instruction. */
	for (i = 0; i < sl->nr; i++) {
		struct flamegraph_node *leaf = sl->leaves[i];
		u64 insn;

		if (leaf->addr < ms->sym->start || leaf->addr >= ms->sym->end)
			goto out_undo;
		/* An IP inside an instruction: perf annotate sums it to that one. */
		insn = flamegraph__insn_start(starts, leaf->addr - ms->sym->start);
		if (insn != done) {
			if (disasm_capstone__line(dc, &args, code + insn, len - insn,
						  start + insn, line, sizeof(line)) < 0)
				goto out_undo;
			/* As disasm_line__parse() leaves it: strim()med. */
			text = strim(line);
			done = insn;
			fa->nr_lines++;
		}
		leaf->objdump_addr = start + insn;
		if (flamegraph__set_label(fa->fg, leaf, "%s [%#" PRIx64 "]", text,
					  leaf->objdump_addr))
			return -ENOMEM;
	}
	return 0;

out_undo:
	/* symbol__annotate() relabels them all, or none if it fails too. */
	while (i--) {
		struct flamegraph_node *leaf = sl->leaves[i];

		leaf->label = NULL;
		leaf->objdump_addr = map__rip_2objdump(ms->map, leaf->addr);
	}
	return -EAGAIN;
}

/*
 * A symbol perf's disasm layer gives to capstone: decoded once, in
 * process (while the events were read, by the prefetcher, or now), and
 * its sampled instructions' lines made as perf annotate makes them
 * (disasm_capstone__line()), without parsing the rest of it into disasm
 * lines.
 *
 * Return: 0 when every leaf was labelled; -ENOEXEC when perf's disasm
 * layer gives the symbol to objdump (capstone is off, or stops before
 * its end); -EAGAIN to disassemble it whole through symbol__annotate()
 * (not a user-space image, not x86, LLVM first, its image unreadable);
 * -ENOMEM.
 */
static int flamegraph_asm__insns(struct flamegraph_asm *fa,
				 struct flamegraph_sym_leaves *sl)
{
	struct map_symbol *ms = &sl->func->ms;
	struct dso *dso = ms->map ? map__dso(ms->map) : NULL;
	struct machine *machine = maps__machine(ms->maps);
	const unsigned long *starts;
	unsigned long *own = NULL;
	const u8 *code = NULL;
	bool is_64bit = false;
	int ret;

	if (!flamegraph__user_image(dso))
		return -EAGAIN;
	if (flamegraph_asm__objdump_only())
		return -ENOEXEC;
	/* LLVM reads it first, with lines of its own. */
	if (flamegraph_asm__llvm_first() || !fa->decoder || !fa->arch ||
	    !arch__is(fa->arch, "x86"))
		return -EAGAIN;

	ret = flamegraph_prefetch__starts(fa->prefetch, ms->sym, &starts, &code,
					  &is_64bit);
	if (ret == -ESRCH || ret == -ENOMEM) {
		ret = flamegraph__insn_starts(fa->decoder, dso, machine, ms->sym, &own);
		starts = own;
		code = flamegraph_decoder__code(fa->decoder, &is_64bit);
	} else if (!ret) {
		fa->nr_prefetched++;
	}
	if (!ret)
		ret = flamegraph_asm__label_insns(fa, sl, starts, code, is_64bit);
	if (!ret)
		fa->nr_decoded++;
	else if (ret == -ENOENT)
		ret = -EAGAIN;
	free(own);
	return ret;
}

/* Disassemble @sl's symbol whole, as perf annotate does. */
static int flamegraph_asm__whole(struct flamegraph_asm *fa,
				 struct flamegraph_sym_leaves *sl)
{
	struct map_symbol *ms = &sl->func->ms;
	struct annotation *notes = symbol__annotation(ms->sym);
	struct dso *dso = map__dso(ms->map);
	int saved_verbose = verbose;
	int err;

	if (flamegraph_asm__skip(fa, sl))
		return 0;
	fa->nr_whole++;
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
		hashmap__add(fa->failed, flamegraph__dso_key(dso), 1);
		flamegraph_asm__warn(fa, sl->func, why);
		return 0;
	}

	err = flamegraph_asm__label(fa->fg, sl, ms->sym, FLAMEGRAPH_LABEL_WHOLE);
	/* The text is in the labels now: free the disassembly. */
	annotated_source__purge(notes->src);
	return err;
}

static int flamegraph_asm__defer(struct flamegraph_asm *fa,
				 struct flamegraph_sym_leaves *sl)
{
	if (fa->nr_objdump == fa->alloc_objdump) {
		size_t alloc = fa->alloc_objdump ? fa->alloc_objdump * 2 : 16;
		void *p = realloc(fa->objdump, alloc * sizeof(*fa->objdump));

		if (!p)
			return -ENOMEM;
		fa->objdump = p;
		fa->alloc_objdump = alloc;
	}
	fa->objdump[fa->nr_objdump++] = sl;
	return 0;
}

/* By DSO, then by address. */
static int flamegraph_sym_leaves__cmp(const void *a, const void *b)
{
	const struct flamegraph_sym_leaves *l = *(void * const *)a;
	const struct flamegraph_sym_leaves *r = *(void * const *)b;
	u64 ls = l->func->ms.sym->start, rs = r->func->ms.sym->start;
	long ld = flamegraph__dso_key(l->func->dso);
	long rd = flamegraph__dso_key(r->func->dso);

	if (ld != rd)
		return ld < rd ? -1 : 1;
	return ls < rs ? -1 : ls > rs;
}

/*
 * Disassemble @nr symbols of a DSO, sorted by address, with one objdump
 * over [their first start, @end): what perf annotate shows for each of
 * them, as objdump reads a symbol the same wherever it starts.  Any that
 * isn't labelled so (a leaf whose line would be in another symbol, or no
 * disassembly at all) is disassembled alone, with its own warnings.
 */
static int flamegraph_asm__span(struct flamegraph_asm *fa,
				struct flamegraph_sym_leaves **sls, size_t nr,
				u64 end)
{
	struct map_symbol ms = sls[0]->func->ms;
	char *saved_objdump = annotate_opts.objdump_path;
	char objdump[] = "objdump";
	struct annotation_line **lines = NULL;
	int saved_verbose = verbose;
	struct symbol *span = NULL;
	ssize_t nr_lines = 0;
	size_t i;
	int err = 0;

	if (nr > 1 && !flamegraph_asm__skip(fa, sls[0])) {
		span = symbol__new(ms.sym->start, end - ms.sym->start,
				   ms.sym->binding, ms.sym->type, ms.sym->name);
		if (!span)
			return -ENOMEM;
		ms.sym = span;
		if (verbose <= 0)
			verbose = -1;
		/* Capstone gave up on each of them, or is off already. */
		if (!saved_objdump)
			annotate_opts.objdump_path = objdump;
		fa->nr_spans++;
		if (!symbol__annotate(&ms, fa->evsel, NULL))
			nr_lines = flamegraph_asm__lines(span, &lines);
		annotate_opts.objdump_path = saved_objdump;
		verbose = saved_verbose;
		err = nr_lines < 0 ? nr_lines : 0;
	}
	for (i = 0; i < nr && !err; i++) {
		err = -EINVAL;
		if (nr_lines > 0)
			err = flamegraph_sym_leaves__label(fa->fg, sls[i], span,
							   FLAMEGRAPH_LABEL_SPAN, lines, nr_lines,
							   symbol__annotation(span)->src->start);
		if (err == -EINVAL)
			err = flamegraph_asm__whole(fa, sls[i]);
	}
	free(lines);
	if (span)
		symbol__delete(span);
	return err;
}

/*
 * The symbols objdump reads, in as few objdumps as pays: one for those
 * of a DSO closer than FLAMEGRAPH_OBJDUMP_GAP to each other, up to
 * FLAMEGRAPH_OBJDUMP_SPAN_MAX of code, not one each.
 */
static int flamegraph_asm__objdump_batches(struct flamegraph_asm *fa)
{
	size_t i, j;
	int err = 0;

	if (!fa->nr_objdump)
		return 0;
	qsort(fa->objdump, fa->nr_objdump, sizeof(*fa->objdump),
	      flamegraph_sym_leaves__cmp);
	for (i = 0; i < fa->nr_objdump && !err; i = j) {
		struct map_symbol *first = &fa->objdump[i]->func->ms;
		u64 end = first->sym->end;

		for (j = i + 1; j < fa->nr_objdump; j++) {
			struct map_symbol *ms = &fa->objdump[j]->func->ms;

			/* The same DSO, mapped from the same offset. */
			if (flamegraph__dso_key(map__dso(ms->map)) !=
			    flamegraph__dso_key(map__dso(first->map)) ||
			    map__pgoff(ms->map) != map__pgoff(first->map) ||
			    ms->sym->start >= end + FLAMEGRAPH_OBJDUMP_GAP ||
			    ms->sym->end > first->sym->start + FLAMEGRAPH_OBJDUMP_SPAN_MAX)
				break;
			end = max(end, ms->sym->end);
		}
		err = flamegraph_asm__span(fa, &fa->objdump[i], j - i, end);
	}
	return err;
}

/* Disassemble @sl's symbol, or keep it for an objdump it shares. */
static int flamegraph_asm__symbol(struct flamegraph_asm *fa,
				  struct flamegraph_sym_leaves *sl)
{
	int err;

	if (flamegraph_asm__skip(fa, sl))
		return 0;
	err = flamegraph_asm__insns(fa, sl);
	if (err == -ENOEXEC)
		return flamegraph_asm__defer(fa, sl);
	return err == -EAGAIN ? flamegraph_asm__whole(fa, sl) : err;
}

/* By address, for the lines and spans to find theirs. */
static int flamegraph_node__addr_cmp(const void *a, const void *b)
{
	const struct flamegraph_node *l = *(void * const *)a;
	const struct flamegraph_node *r = *(void * const *)b;

	return l->addr < r->addr ? -1 : l->addr > r->addr;
}

bool flamegraph__decodes_in_process(struct perf_env *env)
{
	const char *arch = perf_env__arch(env);

	return !flamegraph_asm__objdump_only() && !flamegraph_asm__llvm_first() &&
	       arch && !strcmp(arch, "x86");
}

int flamegraph__annotate(struct flamegraph *fg, struct evsel *evsel,
			 const char *no_disasm,
			 struct flamegraph_prefetch *prefetch)
{
	struct flamegraph_asm fa = {
		.fg	   = fg,
		.evsel	   = evsel,
		.no_disasm = no_disasm,
		.prefetch  = prefetch,
	};
	struct flamegraph_sym_leaves **order = NULL;
	bool saved_src = annotate_opts.annotate_src;
	bool saved_links = annotate_opts.follow_debug_links;
	struct hashmap_entry *cur;
	const char *arch;
	struct ui_progress prog;
	size_t bkt, i, nr = 0;
	int err;

	/* Before any objdump starts: no thread beside perf's run_command(). */
	flamegraph_prefetch__finish(prefetch);
	fa.syms = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	fa.failed = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	fa.checked = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	if (IS_ERR(fa.syms) || IS_ERR(fa.failed) || IS_ERR(fa.checked)) {
		err = -ENOMEM;
		goto out;
	}

	/*
	 * The leaves show no source lines: objdump's -S would decode the
	 * DWARF line tables of each binary it reads (0.25 s for glibc's),
	 * only to name jump and call targets with the symbols of a separate
	 * debug file, which GNU objdump also reads without it.  --objdump,
	 * or a cross objdump, may not be GNU objdump: it keeps perf
	 * annotate's -S.
	 */
	if (!annotate_opts.objdump_path) {
		annotate_opts.annotate_src = false;
		annotate_opts.follow_debug_links = true;
	}
	/* Out of memory, or no capstone: all through symbol__annotate(). */
	fa.decoder = flamegraph_decoder__new();
	arch = perf_env__arch(evsel__env(evsel));
	fa.arch = arch ? arch__find(arch) : NULL;
	err = flamegraph_asm__collect(&fa);
	/* A DSO's symbols in address order: its image is read front to back. */
	order = calloc(hashmap__size(fa.syms) ?: 1, sizeof(*order));
	if (!order && !err)
		err = -ENOMEM;
	if (order) {
		hashmap__for_each_entry(fa.syms, cur, bkt)
			order[nr++] = cur->pvalue;
		qsort(order, nr, sizeof(*order), flamegraph_sym_leaves__cmp);
	}
	ui_progress__init(&prog, nr, "Disassembling...");
	for (i = 0; i < nr && !err; i++) {
		struct flamegraph_sym_leaves *sl = order[i];

		qsort(sl->leaves, sl->nr, sizeof(*sl->leaves),
		      flamegraph_node__addr_cmp);
		err = flamegraph_asm__symbol(&fa, sl);
		ui_progress__update(&prog, 1);
	}
	free(order);
	if (!err)
		err = flamegraph_asm__objdump_batches(&fa);
	ui_progress__finish();
	hashmap__for_each_entry(fa.syms, cur, bkt) {
		struct flamegraph_sym_leaves *sl = cur->pvalue;

		free(sl->leaves);
		free(sl);
	}
	if (prefetch) {
		size_t in_thread, ahead = flamegraph_prefetch__nr_decoded(prefetch, &in_thread);

		pr_debug("perf flamegraph: decoded ahead: %zu symbols, %zu by the second thread while the events were read, %zu after them\n",
			 ahead, in_thread, ahead - in_thread);
	}
	pr_debug("perf flamegraph: disassembly: %zu symbols decoded here (%zu of them ahead; %zu instruction lines), %zu disassembled whole, %zu objdump batches\n",
		 fa.nr_decoded, fa.nr_prefetched, fa.nr_lines, fa.nr_whole, fa.nr_spans);
	free(fa.objdump);
	flamegraph_decoder__delete(fa.decoder);
	disasm_capstone__delete(fa.capstone[0]);
	disasm_capstone__delete(fa.capstone[1]);
out:
	annotate_opts.annotate_src = saved_src;
	annotate_opts.follow_debug_links = saved_links;
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
