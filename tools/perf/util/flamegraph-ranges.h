/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_RANGES_H
#define __PERF_FLAMEGRAPH_RANGES_H

#include <linux/types.h>

struct dso;
struct machine;
struct symbol;

/**
 * struct flamegraph_range - part of a symbol to disassemble
 * @start: first byte, an offset from the symbol start
 * @end: one past the last byte, likewise
 */
struct flamegraph_range {
	u64	start;
	u64	end;
};

/**
 * flamegraph__sampled_ranges - the parts of a large symbol that hold its
 *                              sampled instructions
 * @dso: the symbol's DSO, user space
 * @machine: its machine, for reading the DSO's image
 * @sym: the symbol
 * @offsets: the sampled addresses, offsets from @sym->start, sorted and
 *           distinct
 * @nr: entries in @offsets
 * @ranges: set to an array of ranges, each starting and ending on an
 *          instruction boundary of @sym decoded from its start, to free
 *          with free()
 *
 * perf annotate decodes a symbol from its start; so does this, with
 * capstone and without operand details, to find where each sampled
 * instruction starts and ends.  Disassembling only the ranges then gives
 * the sampled instructions the same text as disassembling the whole
 * symbol, at a fraction of the cost for large functions.  Only for x86
 * code, with perf built with capstone.
 *
 * Return: the number of ranges; 0 when the symbol is better disassembled
 * whole (small, the ranges would cover most of it, not x86, no capstone,
 * its image can't be read, or a sampled address is not an instruction
 * start); -ENOMEM.
 */
int flamegraph__sampled_ranges(struct dso *dso, struct machine *machine,
			       struct symbol *sym, const u64 *offsets, size_t nr,
			       struct flamegraph_range **ranges);

/**
 * flamegraph__capstone_decodes - whether capstone decodes a symbol to its end
 * @dso: the symbol's DSO, user space, x86
 * @machine: its machine, for reading the DSO's image
 * @sym: the symbol
 *
 * perf's capstone path (symbol__disassemble_capstone()) gives up on a
 * symbol where capstone stops before its end, and symbol__disassemble()
 * then runs objdump on it: this tells in advance, decoding without
 * operand details, so that such symbols can share an objdump.
 *
 * Return: 1 if it decodes to its end, 0 if capstone stops early,
 * -ENOENT if the image can't be read, -ENOMEM, or -EOPNOTSUPP without
 * capstone.
 */
int flamegraph__capstone_decodes(struct dso *dso, struct machine *machine,
				 struct symbol *sym);

#endif /* __PERF_FLAMEGRAPH_RANGES_H */
