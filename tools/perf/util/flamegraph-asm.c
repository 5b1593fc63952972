// SPDX-License-Identifier: GPL-2.0
/*
 * Instruction leaves for perf flamegraph --asm: the text of each sampled
 * instruction, decoded at its IP by the disassembler perf annotate uses.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "annotate.h"
#include "arch/common.h"
#include "build-id.h"
#include "capstone.h"
#include "debug.h"
#include "disasm.h"
#include "dso.h"
#include "dump-insn.h"
#include "env.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "llvm.h"
#include "map.h"
#include "maps.h"
#include "symbol.h"
#include "thread.h"
#include "ui/progress.h"
#include "ui/util.h"
#include "vdso.h"

struct flamegraph_asm {
	struct flamegraph	*fg;
	struct annotate_args	args;
	/* The map and symbol of the instruction decoded, for @args. */
	struct map_symbol	ms;
	/*
	 * perf annotate's disassemblers (annotate.disassemblers, LLVM,
	 * capstone, then objdump by default): LLVM and capstone decline
	 * when an objdump was asked for (--objdump, or a cross objdump).
	 */
	bool			in_process;
	bool			objdump_ok;
	/* Why nothing can be decoded, when neither can. */
	char			no_decoder[160];
	/* The in-process ones, for 32- and 64-bit code, as needed. */
	struct llvm_insn_decoder *llvm[2];
	bool			no_llvm[2];
	struct capstone_insn_decoder *capstone[2];
	bool			no_capstone[2];
	/* The instructions capstone left to objdump, of one DSO. */
	struct flamegraph_insn	**objdump;
	size_t			nr_objdump;
	size_t			nr_decoded;
	size_t			nr_objdumps;
	/* The image LLVM names branch targets from (flamegraph_asm__start_dso()). */
	char			filename[PATH_MAX];
	/*
	 * flamegraph_asm__decode_insn()'s DSO of the moment (a reference)
	 * and whether its code can be read.
	 */
	struct dso		*dso;
	bool			dso_readable;
};

/*
 * Once per DSO: why its instruction leaves have no text.  The leaves of
 * one DSO go one way: all of them, or with @some those the message says.
 */
static void flamegraph_asm__vwarn(struct flamegraph_asm *fa,
				  const struct flamegraph_insn *insn, bool some,
				  const char *fmt, va_list ap)
{
	struct dso *dso = insn->ms.map ? map__dso(insn->ms.map) : NULL;
	char why[512];

	if (!flamegraph__warn_once(fa->fg, dso, insn->kernel))
		return;
	vscnprintf(why, sizeof(why), fmt, ap);
	pr_warning("Warning: %s: %s; %s show addresses only\n",
		   dso ? flamegraph_dso__name(dso) : insn->kernel ? "[kernel]" : "[unknown]",
		   why, some ? "those leaves" : "its instruction leaves");
}

static void flamegraph_asm__warn(struct flamegraph_asm *fa,
				 const struct flamegraph_insn *insn,
				 const char *fmt, ...) __printf(3, 4);

static void flamegraph_asm__warn(struct flamegraph_asm *fa,
				 const struct flamegraph_insn *insn,
				 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	flamegraph_asm__vwarn(fa, insn, /*some=*/false, fmt, ap);
	va_end(ap);
}

static void flamegraph_asm__warn_some(struct flamegraph_asm *fa,
				      const struct flamegraph_insn *insn,
				      const char *fmt, ...) __printf(3, 4);

static void flamegraph_asm__warn_some(struct flamegraph_asm *fa,
				      const struct flamegraph_insn *insn,
				      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	flamegraph_asm__vwarn(fa, insn, /*some=*/true, fmt, ap);
	va_end(ap);
}

/* perf's binutils lookup fails through ui__error(): keep that for -v. */
static int flamegraph_asm__quiet_error(const char *format, va_list args)
{
	veprintf(1, verbose, format, args);
	return 0;
}

static struct perf_error_ops flamegraph_asm__quiet_eops = {
	.error		= flamegraph_asm__quiet_error,
	.warning	= flamegraph_asm__quiet_error,
};

int flamegraph__lookup_objdump(struct perf_env *env, char **path)
{
	int registered, err;

	registered = perf_error__register(&flamegraph_asm__quiet_eops) == 0;
	err = perf_env__lookup_objdump(env, path);
	if (registered)
		perf_error__unregister(&flamegraph_asm__quiet_eops);
	return err;
}

/*
 * The disassemblers perf annotate would use for @env's code: those of
 * annotate.disassemblers in its order, LLVM and capstone unless an
 * objdump was asked for (--objdump, or a cross objdump for a recording
 * of another architecture: annotate_opts.objdump_path, as the command
 * set it), then objdump, unless @no_objdump: never the host objdump for
 * foreign code.
 */
static void flamegraph_asm__choose(struct flamegraph_asm *fa, struct perf_env *env,
				   bool no_objdump)
{
	const char *arch = perf_env__arch(env);
	size_t i;

	fa->args.options = &annotate_opts;
	fa->args.ms = &fa->ms;
	fa->in_process = !annotate_opts.objdump_path;
	for (i = 0; i < ARRAY_SIZE(annotate_opts.disassemblers); i++)
		fa->objdump_ok |= annotate_opts.disassemblers[i] == PERF_DISASM_OBJDUMP &&
				  !no_objdump;
	if (!fa->in_process && !fa->objdump_ok)
		scnprintf(fa->no_decoder, sizeof(fa->no_decoder),
			  "recorded on %s, and no objdump for %s was found (set CROSS_COMPILE or use --objdump)",
			  arch, arch);
}

/* LLVM's and capstone's decoders set up as perf annotate's, kept for every DSO. */
static struct llvm_insn_decoder *flamegraph_asm__llvm(struct flamegraph_asm *fa,
						      bool is_64bit)
{
	if (!fa->llvm[is_64bit] && !fa->no_llvm[is_64bit] && fa->args.arch) {
		fa->llvm[is_64bit] = llvm_insn_decoder__new(&fa->args, is_64bit);
		fa->no_llvm[is_64bit] = !fa->llvm[is_64bit];
	}
	return fa->llvm[is_64bit];
}

static struct capstone_insn_decoder *flamegraph_asm__capstone(struct flamegraph_asm *fa,
							      bool is_64bit)
{
	if (!fa->capstone[is_64bit] && !fa->no_capstone[is_64bit]) {
		fa->capstone[is_64bit] = capstone_insn_decoder__new(&fa->args, is_64bit);
		fa->no_capstone[is_64bit] = !fa->capstone[is_64bit];
	}
	return fa->capstone[is_64bit];
}

/*
 * Keep @text, a line of a disassembler, as perf annotate shows it
 * (strim()med, as disasm_line__parse() leaves it), its tabs as spaces:
 * a label is one line of plain text.
 */
static int flamegraph_insn__set_text(struct flamegraph_insn *insn, char *text)
{
	char *p;

	for (p = text; *p; p++) {
		if (*p == '\t')
			*p = ' ';
	}
	free(insn->text);
	insn->text = strdup(strim(text));
	return insn->text ? 0 : -ENOMEM;
}

/*
 * Whether @dso's code can be read, and if not why, in @why.  The file
 * perf's dso data access reads is the build-id cache's copy, else the
 * file at the DSO's path: with a build-id, that file must have it.
 */
static bool flamegraph_asm__readable(struct dso *dso, struct machine *machine,
				     char *why, size_t size)
{
	char path[PATH_MAX];
	struct build_id bid;
	u8 byte;

	if (dso__kernel(dso) != DSO_SPACE__USER &&
	    dso__symtab_type(dso) == DSO_BINARY_TYPE__KALLSYMS && !dso__is_kcore(dso)) {
		scnprintf(why, size,
			  "no vmlinux or kcore to read the kernel's code from (use -k, or perf record --kcore)");
		return false;
	}
	if (is_perf_pid_map_name(dso__long_name(dso))) {
		scnprintf(why, size,
			  "JIT code in anonymous memory, of which the recording has no image (perf inject --jit makes one from a jitdump)");
		return false;
	}
	if (dso__data_read_offset(dso, machine, 0, &byte, 1) != 1) {
		scnprintf(why, size,
			  "its code can't be read: the binary is neither at its path nor in the build-id cache");
		return false;
	}
	if (!dso__has_build_id(dso) ||
	    dso__binary_type(dso) != DSO_BINARY_TYPE__SYSTEM_PATH_DSO ||
	    dso__read_binary_type_filename(dso, dso__binary_type(dso),
					   machine ? machine->root_dir : (char *)"",
					   path, sizeof(path)))
		return true;
	if (filename__read_build_id(path, &bid) > 0 && !dso__build_id_equal(dso, &bid)) {
		scnprintf(why, size,
			  "the binary at %s is not the one recorded (another build-id), and the build-id cache has no copy",
			  path);
		return false;
	}
	return true;
}

/*
 * perf annotate's line for @insn, its @len bytes at @code, in @line, by
 * the first in-process disassembler of annotate.disassemblers that can
 * decode it, up to objdump, which decodes what is left in a batch; after
 * flamegraph_asm__start_dso() for its DSO.
 * Return: the instruction's length in bytes, 0 where none can.
 */
static int flamegraph_asm__line(struct flamegraph_asm *fa, const struct map_symbol *ms,
				const u8 *code, size_t len, u64 objdump_addr,
				char *line, size_t size)
{
	struct dso *dso = map__dso(ms->map);
	bool is_64bit = dso__is_64_bit(dso);
	struct capstone_insn_decoder *cs;
	struct llvm_insn_decoder *llvm;
	size_t i;
	int ret;

	if (!fa->in_process)
		return 0;
	fa->ms = *ms;
	for (i = 0; i < ARRAY_SIZE(annotate_opts.disassemblers); i++) {
		switch (annotate_opts.disassemblers[i]) {
		case PERF_DISASM_LLVM:
			llvm = flamegraph_asm__llvm(fa, is_64bit);
			ret = llvm ? llvm_insn_decoder__line(llvm, dso, fa->filename, code, len,
							     objdump_addr, line, size) : -1;
			if (ret > 0)
				return ret;
			break;
		case PERF_DISASM_CAPSTONE:
			cs = flamegraph_asm__capstone(fa, is_64bit);
			ret = cs ? capstone_insn_decoder__line(cs, &fa->args, code, len,
							       objdump_addr, line, size) : -1;
			if (ret > 0)
				return ret;
			break;
		case PERF_DISASM_OBJDUMP:
		case PERF_DISASM_UNKNOWN:
		default:
			return 0;
		}
	}
	return 0;
}

/*
 * As perf annotate, for the DSO of @ms: the machine's arch, and the image
 * LLVM names branch targets from, in @fa->filename.
 */
static void flamegraph_asm__start_dso(struct flamegraph_asm *fa, const struct map_symbol *ms)
{
	if (map_symbol__get_arch((struct map_symbol *)ms, &fa->args.arch))
		fa->args.arch = NULL;
	if (dso__disassemble_filename(map__dso(ms->map), fa->filename, sizeof(fa->filename)))
		fa->filename[0] = '\0';
}

/*
 * perf annotate's line for the instruction at @addr, a map-relative
 * address of @ms's map, by an in-process disassembler, after
 * flamegraph_asm__start_dso().  Return: its length, 0 where none can.
 */
static int flamegraph_asm__insn_line(struct flamegraph_asm *fa, const struct map_symbol *ms,
				     struct machine *machine, u64 addr, char *line, size_t size)
{
	u8 code[MAXINSN];
	ssize_t len;

	/* Only objdump may decode (--objdump): no bytes to read. */
	if (!fa->in_process)
		return 0;
	len = dso__data_read_offset(map__dso(ms->map), machine, addr, code, sizeof(code));
	if (len <= 0)
		return 0;
	return flamegraph_asm__line(fa, ms, code, len, map__rip_2objdump(ms->map, addr),
				    line, size);
}

/*
 * objdump over @fa->objdump, the instructions of one DSO that were not
 * decoded in-process, sorted by address: one run for all of them, on the
 * image perf annotate disassembles (map__objdump_insns()).
 */
static int flamegraph_asm__objdump(struct flamegraph_asm *fa)
{
	struct flamegraph_insn *first = fa->objdump[0];
	const char *objdump = annotate_opts.objdump_path ?: "objdump";
	char **texts = calloc(fa->nr_objdump, sizeof(*texts));
	u64 *addrs = calloc(fa->nr_objdump, sizeof(*addrs));
	size_t i;
	int ret = -ENOMEM;

	if (!texts || !addrs)
		goto out_free;
	for (i = 0; i < fa->nr_objdump; i++)
		addrs[i] = fa->objdump[i]->addr;
	ret = map__objdump_insns(first->ms.map, addrs, texts, fa->nr_objdump, &fa->nr_objdumps);
	for (i = 0; i < fa->nr_objdump; i++)
		fa->objdump[i]->text = texts[i];
	if (ret > 0) {
		for (i = 0; fa->objdump[i]->text; i++)
			;
		flamegraph_asm__warn_some(fa, fa->objdump[i],
					  "%s decoded no instruction at %d sampled addresses, the first %#"
					  PRIx64, objdump, ret, fa->objdump[i]->objdump_addr);
	} else if (ret == SYMBOL_ANNOTATE_ERRNO__NO_OBJDUMP) {
		flamegraph_asm__warn(fa, first, "cannot run %s", objdump);
	} else if (ret == -1) {
		flamegraph_asm__warn(fa, first, "cannot decompress it");
	} else if (ret < 0 && ret != -ENOMEM) {
		flamegraph_asm__warn(fa, first, "no image of it to disassemble");
	}
	if (ret != -ENOMEM)
		ret = 0;
out_free:
	free(addrs);
	free(texts);
	return ret;
}

/*
 * With -vv: whether perf annotate, which decodes a symbol from its start,
 * shows an instruction at each sampled IP of it; where data in the code
 * puts its sweep out of step, it shows another instruction there.
 * @insns are the symbol's sampled instructions, by address.
 */
static void flamegraph_asm__check_sweep(struct flamegraph_insn **insns, size_t nr)
{
	const struct map_symbol *ms = &insns[0]->ms;
	char **lines;
	u64 *addrs;
	ssize_t n = flamegraph__disassemble_symbol(ms, &lines, &addrs, NULL), j = 0;
	size_t i;

	for (i = 0; i < nr && n > 0; i++) {
		while (j < n && addrs[j] < insns[i]->objdump_addr)
			j++;
		if (j == n || addrs[j] != insns[i]->objdump_addr) {
			pr_debug("perf flamegraph: %s (%s): perf annotate decodes it from its start and finds no instruction at the sample IP %#"
				 PRIx64 "; the leaf is the instruction that starts there\n",
				 ms->sym->name, dso__short_name(map__dso(ms->map)),
				 insns[i]->objdump_addr);
			break;
		}
	}
	for (j = 0; j < n; j++)
		free(lines[j]);
	free(lines);
	free(addrs);
}

/*
 * With -vv, name the symbols among @insns (by address) that perf
 * annotate's sweep reads out of step with a sample IP.
 */
static void flamegraph_asm__check_sweeps(struct flamegraph_insn **insns, size_t nr)
{
	size_t i, j;

	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && insns[j]->ms.sym == insns[i]->ms.sym; j++)
			;
		if (insns[i]->ms.sym)
			flamegraph_asm__check_sweep(insns + i, j - i);
	}
}

/* Decode the instructions of one DSO (NULL: outside any map), by address. */
/*
 * The instructions of a BPF program, by its DSO's symbol: what perf
 * annotate shows of it (symbol__annotate()), which is perf's BPF
 * disassembler's (libopcodes on the JITed image, where perf is built
 * with libbfd), else LLVM's or capstone's text of the JITed image.
 * Return: 0, the text of the @insns perf annotate shows set, the others
 * left to be decoded as any code, as all are when this perf keeps no
 * annotation per symbol (symbol__annotation_init() was not called); a
 * negative errno.
 */
static int flamegraph_asm__bpf(struct flamegraph_insn **insns, size_t nr)
{
	struct annotation *notes = NULL;
	struct annotation_line *al;
	struct symbol *sym = NULL;
	size_t i;
	int err;

	if (!symbol_conf.init_annotation)
		return 0;
	for (i = 0; i < nr; i++) {
		if (!insns[i]->ms.sym)
			continue;
		if (insns[i]->ms.sym != sym) {
			sym = insns[i]->ms.sym;
			notes = symbol__annotation(sym);
			err = symbol__annotate(&insns[i]->ms, /*evsel=*/NULL, /*parch=*/NULL);
			if (err) {
				pr_debug("%s: perf annotate can't show it (%d)\n", sym->name, err);
				notes = NULL;
			}
		}
		if (!notes || !notes->src)
			continue;
		list_for_each_entry(al, &notes->src->source, node) {
			char *line;

			if (al->offset != (s64)(insns[i]->addr - sym->start))
				continue;
			line = strdup(al->line);
			err = line ? flamegraph_insn__set_text(insns[i], line) : -ENOMEM;
			free(line);
			if (err)
				return err;
			break;
		}
	}
	return 0;
}

static int flamegraph_asm__dso(struct flamegraph_asm *fa,
			       struct flamegraph_insn **insns, size_t nr)
{
	struct flamegraph_insn *first = insns[0];
	struct dso *dso = first->ms.map ? map__dso(first->ms.map) : NULL;
	struct machine *machine = maps__machine(thread__maps(first->ms.thread));
	char why[PATH_MAX + 128], line[512];
	size_t i;
	int err = 0;

	if (!dso) {
		flamegraph_asm__warn(fa, first, first->kernel ?
				     "no kernel map in the recording" :
				     "addresses outside any mapping");
		return 0;
	}
	if (!fa->in_process && !fa->objdump_ok) {
		flamegraph_asm__warn(fa, first, "%s", fa->no_decoder);
		return 0;
	}
	if (!flamegraph_asm__readable(dso, machine, why, sizeof(why))) {
		flamegraph_asm__warn(fa, first, "%s", why);
		return 0;
	}
	if (dso__binary_type(dso) == DSO_BINARY_TYPE__BPF_PROG_INFO) {
		err = flamegraph_asm__bpf(insns, nr);
		if (err)
			return err;
	}
	flamegraph_asm__start_dso(fa, &first->ms);

	fa->nr_objdump = 0;
	for (i = 0; i < nr && !err; i++) {
		/* A BPF program's, from perf annotate. */
		if (insns[i]->text)
			continue;
		if (flamegraph_asm__insn_line(fa, &insns[i]->ms, machine, insns[i]->addr,
					      line, sizeof(line)) > 0) {
			fa->nr_decoded++;
			err = flamegraph_insn__set_text(insns[i], line);
		} else if (fa->objdump_ok) {
			fa->objdump[fa->nr_objdump++] = insns[i];
		}
	}
	if (!err && fa->nr_objdump)
		err = flamegraph_asm__objdump(fa);
	if (!err && verbose > 1 && fa->in_process)
		flamegraph_asm__check_sweeps(insns, nr);
	return err;
}

/*
 * The source file of an annotation line's @fileloc, whose line is
 * @line_nr: LLVM's is the file's path, objdump's (-l) the path, ':', the
 * line and maybe " (discriminator N)".  Return: a copy to free(), NULL
 * without memory.
 */
static char *fileloc__file(const char *fileloc, int line_nr)
{
	char suffix[16];
	const char *at = fileloc, *end = NULL;
	size_t len;

	len = scnprintf(suffix, sizeof(suffix), ":%d", line_nr);
	while ((at = strstr(at, suffix)) != NULL) {
		if (at[len] == '\0' || at[len] == ' ')
			end = at;
		at += len;
	}
	return end ? strndup(fileloc, end - fileloc) : strdup(fileloc);
}

ssize_t flamegraph__disassemble_symbol(const struct map_symbol *ms, char ***lines, u64 **addrs,
				       struct flamegraph_fileloc **filelocs)
{
	struct flamegraph_fileloc *loc = NULL;
	struct annotation *notes;
	struct annotation_line *al;
	char **text = NULL, *line;
	u64 start, *at = NULL;
	size_t nr = 0, alloc_text = 0, alloc_at = 0, alloc_loc = 0, nr_files = 0, i;
	int err = 0;

	*lines = NULL;
	*addrs = NULL;
	if (filelocs)
		*filelocs = NULL;
	if (!symbol_conf.init_annotation || !ms->map || !ms->sym || ms->sym->end <= ms->sym->start)
		return 0;
	notes = symbol__annotation(ms->sym);
	err = symbol__annotate((struct map_symbol *)ms, /*evsel=*/NULL, /*parch=*/NULL);
	if (err) {
		pr_debug("%s: perf annotate can't show it (%d)\n", ms->sym->name, err);
		err = 0;
		goto out;
	}
	start = map__rip_2objdump(ms->map, ms->sym->start);
	list_for_each_entry(al, &notes->src->source, node) {
		struct flamegraph_insn insn = { .text = NULL, };

		/* Source lines, which objdump -S puts between the instructions. */
		if (al->offset < 0)
			continue;
		if (flamegraph__grow(&text, &alloc_text, nr + 1, sizeof(*text)) ||
		    flamegraph__grow(&at, &alloc_at, nr + 1, sizeof(*at)) ||
		    (filelocs && flamegraph__grow(&loc, &alloc_loc, nr + 1, sizeof(*loc)))) {
			err = -ENOMEM;
			goto out;
		}
		if (filelocs) {
			loc[nr].file = NULL;
			loc[nr].line = 0;
			if (al->fileloc && al->line_nr > 0) {
				loc[nr].file = fileloc__file(al->fileloc, al->line_nr);
				loc[nr].line = al->line_nr;
				if (!loc[nr].file) {
					err = -ENOMEM;
					goto out;
				}
				nr_files++;
			}
		}
		line = strdup(al->line);
		err = line ? flamegraph_insn__set_text(&insn, line) : -ENOMEM;
		free(line);
		if (err) {
			if (loc)
				free(loc[nr].file);
			goto out;
		}
		text[nr] = insn.text;
		at[nr++] = start + al->offset;
	}
out:
	/* The notes are perf annotate's cache: the lines are copied. */
	if (notes->src)
		annotated_source__purge(notes->src);
	if (err || !nr) {
		for (i = 0; i < nr; i++) {
			free(text[i]);
			if (loc)
				free(loc[i].file);
		}
		free(text);
		free(at);
		free(loc);
		return err;
	}
	*lines = text;
	*addrs = at;
	/* None: another disassembler, or no line in the DWARF LLVM read. */
	if (filelocs && nr_files)
		*filelocs = loc;
	else
		free(loc);
	return nr;
}

bool flamegraph__symbol_code_missing(const struct map_symbol *ms, struct perf_env *env,
				     char *why, size_t size)
{
	struct flamegraph_asm fa = { .fg = NULL, };
	struct dso *dso = ms->map ? map__dso(ms->map) : NULL;

	if (!dso || !ms->sym || !ms->thread) {
		scnprintf(why, size, "no map or symbol for its addresses");
		return true;
	}
	flamegraph_asm__choose(&fa, env, /*no_objdump=*/false);
	if (!fa.in_process) {
		scnprintf(why, size, "%s", fa.no_decoder[0] ? fa.no_decoder :
			  "an objdump was asked for, which runs once per DSO for the leaves, not for each function");
		return true;
	}
	return !flamegraph_asm__readable(dso, maps__machine(thread__maps(ms->thread)),
					 why, size);
}

struct flamegraph_asm *flamegraph_asm__new(struct perf_env *env)
{
	struct flamegraph_asm *fa = zalloc(sizeof(*fa));

	if (fa)
		flamegraph_asm__choose(fa, env, /*no_objdump=*/true);
	return fa;
}

void flamegraph_asm__delete(struct flamegraph_asm *fa)
{
	size_t i;

	if (!fa)
		return;
	for (i = 0; i < ARRAY_SIZE(fa->llvm); i++) {
		llvm_insn_decoder__delete(fa->llvm[i]);
		capstone_insn_decoder__delete(fa->capstone[i]);
	}
	dso__put(fa->dso);
	free(fa);
}

int flamegraph_asm__decode_insn(struct flamegraph_asm *fa, const struct map_symbol *ms,
				u64 addr, char **text)
{
	struct dso *dso = ms->map ? map__dso(ms->map) : NULL;
	struct flamegraph_insn insn = { .text = NULL, };
	struct machine *machine;
	char why[PATH_MAX + 128], line[512];
	int err;

	*text = NULL;
	if (!dso || !ms->thread || !fa->in_process)
		return -ENOENT;
	machine = maps__machine(thread__maps(ms->thread));
	if (!RC_CHK_EQUAL(fa->dso, dso)) {
		dso__put(fa->dso);
		fa->dso = dso__get(dso);
		fa->dso_readable = flamegraph_asm__readable(dso, machine, why, sizeof(why));
		if (!fa->dso_readable)
			pr_debug("%s: %s\n", flamegraph_dso__name(dso), why);
		flamegraph_asm__start_dso(fa, ms);
	}
	if (!fa->dso_readable ||
	    flamegraph_asm__insn_line(fa, ms, machine, addr, line, sizeof(line)) <= 0)
		return -ENOENT;
	err = flamegraph_insn__set_text(&insn, line);
	*text = insn.text;
	return err;
}

/* By DSO, kernel or not, then address: a DSO's instructions together. */
static int flamegraph_insn__cmp(const void *a, const void *b)
{
	const struct flamegraph_insn *l = *(const struct flamegraph_insn **)a;
	const struct flamegraph_insn *r = *(const struct flamegraph_insn **)b;
	long ld = dso__key(l->ms.map ? map__dso(l->ms.map) : NULL);
	long rd = dso__key(r->ms.map ? map__dso(r->ms.map) : NULL);

	if (ld != rd)
		return ld < rd ? -1 : 1;
	if (l->kernel != r->kernel)
		return l->kernel ? 1 : -1;
	if (l->objdump_addr != r->objdump_addr)
		return l->objdump_addr < r->objdump_addr ? -1 : 1;
	return 0;
}

static bool flamegraph_insn__same_dso(const struct flamegraph_insn *a,
				      const struct flamegraph_insn *b)
{
	return a->kernel == b->kernel &&
	       dso__key(a->ms.map ? map__dso(a->ms.map) : NULL) ==
	       dso__key(b->ms.map ? map__dso(b->ms.map) : NULL);
}

int flamegraph__decode_insns(struct flamegraph *fg, struct perf_env *env, bool no_objdump)
{
	struct flamegraph_asm fa = { .fg = fg, };
	struct ui_progress prog;
	size_t i, j;
	int err = 0;

	if (!fg->nr_insns)
		return 0;
	flamegraph_asm__choose(&fa, env, no_objdump);
	fa.objdump = calloc(fg->nr_insns, sizeof(*fa.objdump));
	if (!fa.objdump)
		return -ENOMEM;
	qsort(fg->insns, fg->nr_insns, sizeof(*fg->insns), flamegraph_insn__cmp);

	ui_progress__init(&prog, fg->nr_insns, "Decoding instructions...");
	for (i = 0; i < fg->nr_insns && !err; i = j) {
		for (j = i + 1; j < fg->nr_insns; j++) {
			if (!flamegraph_insn__same_dso(fg->insns[i], fg->insns[j]))
				break;
		}
		err = flamegraph_asm__dso(&fa, fg->insns + i, j - i);
		ui_progress__update(&prog, j - i);
	}
	ui_progress__finish();
	pr_debug("perf flamegraph: %zu distinct sampled instructions, %zu decoded in-process, %zu objdumps\n",
		 fg->nr_insns, fa.nr_decoded, fa.nr_objdumps);

	for (i = 0; i < ARRAY_SIZE(fa.llvm); i++) {
		llvm_insn_decoder__delete(fa.llvm[i]);
		capstone_insn_decoder__delete(fa.capstone[i]);
	}
	free(fa.objdump);
	return err;
}

const char *flamegraph_dso__name(const struct dso *dso)
{
	/* dso__is_vdso() reads its name alone. */
	return dso__is_vdso((struct dso *)dso) ? dso__short_name(dso) : dso__long_name(dso);
}
