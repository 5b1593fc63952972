/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ASM_H
#define __PERF_FLAMEGRAPH_ASM_H

#include <stdbool.h>

struct evsel;
struct flamegraph;

/**
 * flamegraph__annotate - label the instruction leaves of a flame graph
 * @fg: the flame graph, all samples added, not yet finished
 * @evsel: the event the samples belong to; symbol__annotate() takes the
 *         architecture from its session's perf_env
 * @no_disasm: NULL, or why nothing can be disassembled (a profile of
 *             another architecture and no objdump for it): then every
 *             leaf keeps its address and each DSO's warning says this
 * @srclines: also look up the source file and line of each instruction
 *            (perf's srcline code: addr2line, one process per DSO)
 *
 * Each sampled symbol is disassembled once, through perf's disasm layer
 * (symbol__annotate()), so the build-id cache, --symfs, kcore, the
 * disassembler choice (capstone, objdump), --objdump and -M apply exactly
 * as in perf annotate.  A leaf gets the text of the instruction whose
 * range holds its IP, the instruction perf annotate attributes the sample
 * to, and that instruction's objdump address: "<insn> [0x<addr>]";
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
			 const char *no_disasm, bool srclines);

#endif /* __PERF_FLAMEGRAPH_ASM_H */
