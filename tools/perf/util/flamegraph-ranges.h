/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_RANGES_H
#define __PERF_FLAMEGRAPH_RANGES_H

#include <linux/types.h>

struct dso;
struct flamegraph_decoder;
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
 * flamegraph_decoder__new - what flamegraph__sampled_ranges() decodes with
 *
 * Return: a decoder (capstone handles opened when first needed, kept for
 * every symbol), to free with flamegraph_decoder__delete(); NULL when
 * out of memory or perf is built without capstone.
 */
struct flamegraph_decoder *flamegraph_decoder__new(void);

/**
 * flamegraph_decoder__delete - close a decoder's handles and free it
 * @d: the decoder, or NULL
 */
void flamegraph_decoder__delete(struct flamegraph_decoder *d);

/**
 * flamegraph__sampled_ranges - the parts of a symbol that hold its sampled
 *                              instructions, and whether capstone reads it
 * @d: a decoder from flamegraph_decoder__new()
 * @dso: the symbol's DSO, user space, x86
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
 * symbol, at a fraction of the cost for large functions.  Where capstone
 * stops before the symbol's end, perf's capstone path
 * (symbol__disassemble_capstone()) gives up on it and
 * symbol__disassemble() runs objdump: this says so, for such symbols to
 * share an objdump.
 *
 * Return: the number of ranges; 0 when the symbol is better disassembled
 * whole (smaller than 1 kB, the ranges would cover most of it, its image
 * can't be read, or a sampled address is not an instruction start);
 * -ENOEXEC when capstone stops before its end; -ENOMEM.
 */
int flamegraph__sampled_ranges(struct flamegraph_decoder *d, struct dso *dso,
			       struct machine *machine, struct symbol *sym,
			       const u64 *offsets, size_t nr,
			       struct flamegraph_range **ranges);

#endif /* __PERF_FLAMEGRAPH_RANGES_H */
