/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ASM_H
#define __PERF_FLAMEGRAPH_ASM_H

#include <stdbool.h>
#include <stddef.h>

struct dso;
struct evsel;
struct flamegraph;
struct flamegraph_prefetch;
struct perf_env;

/**
 * flamegraph__find_objdump - the objdump for a recording's architecture
 * @env: the recording's perf_env
 * @no_disasm: set to why nothing can be disassembled, or "" if something
 *             can: pass it to flamegraph__annotate() when not empty
 * @size: size of @no_disasm in bytes
 *
 * Unless --objdump gave one, finds the objdump as perf annotate does
 * (perf_env__lookup_objdump(): the host's for a native recording, else
 * $CROSS_COMPILE or a cross objdump in $PATH) and sets
 * annotate_opts.objdump_path.  perf annotate stops without one; here a
 * profile of another architecture keeps address leaves and a warning,
 * never the host objdump's reading of foreign code.  perf's own error
 * message is shown only with -v.
 */
void flamegraph__find_objdump(struct perf_env *env, char *no_disasm,
			      size_t size);

/**
 * flamegraph__annotate - label the instruction leaves of a flame graph
 * @fg: the flame graph, all samples added, not yet finished
 * @evsel: the event the samples belong to; symbol__annotate() takes the
 *         architecture from its session's perf_env
 * @no_disasm: NULL, or why nothing can be disassembled (a profile of
 *             another architecture and no objdump for it): then every
 *             leaf keeps its address and each DSO's warning says this
 * @prefetch: NULL, or the symbols decoded while the samples were added
 *            (flamegraph_prefetch__new(), when
 *            flamegraph__decodes_in_process()): finished here first, the
 *            others are decoded here
 *
 * Each sampled symbol is disassembled once, through perf's disasm layer
 * (symbol__annotate()), so the build-id cache, --symfs, kcore, the
 * disassembler choice (capstone, objdump), --objdump and -M apply exactly
 * as in perf annotate.  A symbol of a user-space image that capstone
 * reads to its end (the ones perf annotate gives capstone) is instead
 * decoded once from its start, its image read through perf's dso data
 * layer (build-id cache, --symfs), and only its sampled instructions are
 * made into lines, by perf annotate's code (disasm_capstone__line()).
 * objdump, unless given by --objdump or found for another architecture
 * (annotate_opts.objdump_path set), runs without -S (no leaf shows
 * source lines) and with --dwarf=follow-links, so that a stripped
 * binary's debug file still names jump and call targets as with -S.
 * A leaf gets the text of the instruction whose range holds its IP, the
 * instruction perf annotate attributes the sample to, and that
 * instruction's objdump address: "<insn> [0x<addr>]";
 * flamegraph__finish() then merges leaves that got the same instruction.
 *
 * Where the text can't be had (no symbol, the binary is missing, no
 * disassembler works) the leaf keeps its "[0x<addr>]" label and one
 * warning per DSO says why.  The disassemblers' own error messages are
 * shown only with -v.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__annotate(struct flamegraph *fg, struct evsel *evsel,
			 const char *no_disasm,
			 struct flamegraph_prefetch *prefetch);

/**
 * flamegraph__decodes_in_process - whether flamegraph__annotate() decodes
 *                                  user-space symbols itself
 * @env: the recording's perf_env, for its architecture
 *
 * True when perf's disasm layer gives symbols to capstone: perf has
 * capstone and not LLVM (which it would try first), no objdump path is
 * set (--objdump, a cross objdump: capstone is then off, as in perf
 * annotate), and the recording is of x86.  Only then is decoding the
 * sampled symbols while the events are read (flamegraph_prefetch__new())
 * of any use.
 *
 * Return: true or false.
 */
bool flamegraph__decodes_in_process(struct perf_env *env);

/* The hot instructions table of the HTML page shows 100. */
#define FLAMEGRAPH_SRCLINES_MAX	256

/**
 * flamegraph__add_srclines - source lines for the hottest instructions
 * @fg: the flame graph, instruction leaves labelled by
 *      flamegraph__annotate(), not yet finished
 * @max: how many instructions at most, the ones with the most samples
 * @pf: the prefetcher, finished, whose DWARF opened ahead is used, or NULL
 *
 * Sets @srcline ("file:line") of the instruction leaves of the @max
 * hottest instructions (an instruction: its DSO and objdump address,
 * wherever it was called from), where debug info has a line.  The line
 * is libdw's where perf is built with it and finds the DSO's DWARF, as
 * perf probe does (util/debuginfo.c: the distro's debug file for its
 * build-id or path, else the file, and its debug link): the line
 * table's file, base name, and line.  Elsewhere, and with
 * --full-source-path, it is perf's srcline code's (addr2line: the path
 * joined to the compilation directory), which answers one
 * address at a time, so looking up every instruction of a large profile
 * takes seconds: the hot ones are those a reader looks at.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_srclines(struct flamegraph *fg, unsigned int max,
			     struct flamegraph_prefetch *pf);

/**
 * flamegraph__dwarf_name - the file to look up a DSO's source lines in
 * @dso: the DSO
 *
 * Return: the file perf's srcline code would give addr2line for @dso
 * (srcline_dso_name(): the file perf read its symbols from, else its
 * path), owned by @dso; NULL for a DSO without one ([vdso], a JIT's
 * perf map) or whose lines perf's srcline code found none of before.
 */
const char *flamegraph__dwarf_name(const struct dso *dso);

#endif /* __PERF_FLAMEGRAPH_ASM_H */
