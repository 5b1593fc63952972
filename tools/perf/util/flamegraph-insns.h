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
 * flamegraph_decoder__new - what flamegraph__insn_starts() decodes with
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
 * flamegraph_decoder__open - open a decoder's capstone handle now
 * @d: a decoder from flamegraph_decoder__new()
 * @is_64bit: the handle for 64-bit code, else for 32-bit code
 *
 * Capstone sets up its global tables in the first cs_open() of the
 * process, which is not safe to race with another: a program that
 * decodes in several threads opens one handle before it starts them.
 *
 * Return: 0; -ENOENT (capstone can't, or perf has no capstone); -ENOMEM.
 */
int flamegraph_decoder__open(struct flamegraph_decoder *d, bool is_64bit);

/**
 * flamegraph__user_image - whether perf's disasm layer reads a DSO as a file
 * @dso: the DSO, or NULL
 *
 * Return: true for a user-space image: not the kernel, kcore, a
 * compressed module or BPF, whose bytes dso__data_read_offset() reads
 * at their map-relative addresses (file offsets).
 */
bool flamegraph__user_image(struct dso *dso);

/**
 * flamegraph_decoder__load - read a symbol's bytes into a decoder
 * @d: a decoder from flamegraph_decoder__new()
 * @dso: the symbol's DSO, a user-space image (flamegraph__user_image())
 * @machine: its machine, for reading the DSO's image
 * @sym: the symbol, its start and end map-relative addresses
 *
 * Reads the image symbol__disassemble() reads (dso__disassemble_filename():
 * the build-id cache's or the one at the DSO's path, never a separate
 * debuginfo file, whose code sections hold no bytes) through perf's dso
 * data layer, for flamegraph_decoder__code().
 *
 * Return: 0; -ENOENT when the image can't be read; -ENOMEM.
 */
int flamegraph_decoder__load(struct flamegraph_decoder *d, struct dso *dso,
			     struct machine *machine, struct symbol *sym);

/**
 * flamegraph__insn_starts - where each instruction of a symbol starts,
 *                           and whether capstone reads the symbol
 * @d: a decoder from flamegraph_decoder__new(), used by one thread at a
 *     time
 * @dso: the symbol's DSO, a user-space image (flamegraph__user_image()), x86
 * @machine: its machine, for reading the DSO's image
 * @sym: the symbol
 * @starts: set to a bitmap of @sym->end - @sym->start bits, bit N set when
 *          an instruction starts N bytes after @sym->start; free() it.
 *          NULL on error.
 *
 * perf annotate decodes a symbol from its start, and attributes an IP
 * inside an instruction to that instruction (its calc_percent() sums
 * [offset, next offset)); so does this, with capstone and without
 * operand details (see flamegraph__insn_start()).  Where capstone stops
 * before the symbol's end, perf's capstone path
 * (symbol__disassemble_capstone()) gives up on it and
 * symbol__disassemble() runs objdump: this says so, for such symbols to
 * share an objdump.  The symbol's bytes stay in @d for
 * flamegraph_decoder__code() until the next call.  It reads the DSO only
 * through perf's dso data layer, which locks its file descriptors and
 * caches: threads with a decoder each may decode at once, also while
 * another thread resolves samples.
 *
 * Return: 0; -ENOEXEC when capstone stops before the symbol's end;
 * -ENOENT when its image can't be read (or perf has no capstone);
 * -ENOMEM.
 */
int flamegraph__insn_starts(struct flamegraph_decoder *d, struct dso *dso,
			    struct machine *machine, struct symbol *sym,
			    unsigned long **starts);

/**
 * flamegraph__insn_start - the instruction that holds an IP
 * @starts: a bitmap from flamegraph__insn_starts()
 * @offset: the IP, as an offset from the symbol's start, below its end
 *
 * Return: the offset of the last instruction starting at or before
 * @offset, the one perf annotate attributes a sample at @offset to.
 */
u64 flamegraph__insn_start(const unsigned long *starts, u64 offset);

/**
 * flamegraph_decoder__code - the bytes flamegraph_decoder__load() read
 * @d: the decoder
 * @is_64bit: set to whether they are 64-bit code
 *
 * Return: the symbol's bytes, from its start to its end, owned by @d.
 */
const u8 *flamegraph_decoder__code(const struct flamegraph_decoder *d,
				   bool *is_64bit);

#endif /* __PERF_FLAMEGRAPH_INSNS_H */
