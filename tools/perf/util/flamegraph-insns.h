/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_INSNS_H
#define __PERF_FLAMEGRAPH_INSNS_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct dso;
struct flamegraph_decoder;
struct machine;
struct symbol;

/**
 * flamegraph_decoder__new - what flamegraph__sampled_insns() decodes with
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
 * flamegraph__sampled_insns - where a symbol's sampled instructions start,
 *                             and whether capstone reads the symbol
 * @d: a decoder from flamegraph_decoder__new()
 * @dso: the symbol's DSO, user space, x86
 * @machine: its machine, for reading the DSO's image
 * @sym: the symbol
 * @offsets: the sampled addresses, offsets from @sym->start, sorted and
 *           distinct
 * @nr: entries in @offsets
 * @starts: @nr entries, set to the offset of the instruction that holds
 *          each of @offsets, decoding @sym from its start
 *
 * perf annotate decodes a symbol from its start, and attributes an IP
 * inside an instruction to that instruction (its calc_percent() sums
 * [offset, next offset)); so does this, with capstone and without
 * operand details.  Where capstone stops before the symbol's end, perf's
 * capstone path (symbol__disassemble_capstone()) gives up on it and
 * symbol__disassemble() runs objdump: this says so, for such symbols to
 * share an objdump.  The symbol's bytes stay in @d for
 * flamegraph_decoder__code() until the next call.
 *
 * Return: 0; -ENOEXEC when capstone stops before the symbol's end;
 * -ENOENT when its image can't be read (or perf has no capstone);
 * -ENOMEM.
 */
int flamegraph__sampled_insns(struct flamegraph_decoder *d, struct dso *dso,
			      struct machine *machine, struct symbol *sym,
			      const u64 *offsets, size_t nr, u64 *starts);

/**
 * flamegraph_decoder__code - the bytes flamegraph__sampled_insns() read
 * @d: the decoder
 * @is_64bit: set to whether they are 64-bit code
 *
 * Return: the symbol's bytes, from its start to its end, owned by @d.
 */
const u8 *flamegraph_decoder__code(const struct flamegraph_decoder *d,
				   bool *is_64bit);

#endif /* __PERF_FLAMEGRAPH_INSNS_H */
