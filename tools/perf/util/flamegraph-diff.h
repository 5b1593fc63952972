/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_DIFF_H
#define __PERF_FLAMEGRAPH_DIFF_H

#include <stdbool.h>
#include <stdio.h>

struct flamegraph;
struct flamegraph_labels;
struct hashmap;

/**
 * struct flamegraph_diff - two finished graphs of a workload, to write as one
 * @old: the graph before (perf flamegraph --diff's file)
 * @new: the graph after (perf flamegraph -i's file)
 * @align: pair the instruction leaves of two builds of a function by
 *         aligning its code (perf flamegraph --asm); false: only leaves
 *         of one build, by address and text
 * @old_path: @old's recording, for the HTML page's header
 * @new_path: @new's recording, likewise
 * @labels: @new's event and unit, which the writers name
 * @sources: private, the writers' own: what keeps functions of one name
 *           apart, by symbol
 *
 * A frame is the same frame in both when its kind, its DSO's short name
 * and its label are; a function when its name is and, in one build of
 * its DSO (one build-id), its start address; across a rebuild, where
 * either DSO has the name twice (static functions of several files), its
 * source file where perf's srcline code finds it for both (DWARF, else
 * the symbol table's file symbols: get_srcline_split() of its start, the
 * base name), and its rank in address order among the functions of that
 * name and file. An instruction leaf is the same when its
 * label is (its text and address: the same build of its binary), else,
 * under a function found in both, when aligning the two disassemblies of
 * that function pairs their addresses: each function's instructions as
 * perf annotate shows them (flamegraph__disassemble_symbol(), each build
 * from its own build-id cache entry), the two instruction lists aligned
 * as a longest common subsequence of their texts with numbers (addresses,
 * offsets, displacements) left out, so an instruction inserted by a
 * rebuild is new and the loop around it keeps its identity; then those
 * left whose text is once in each build are paired too (instructions an
 * optimisation level reordered); then, between two instructions the
 * common subsequence paired (or the function's start or end), where as
 * many are left unpaired in each build, the k-th left of each with the
 * k-th of the other when their mnemonics and the shapes of their
 * operands agree (their texts with each %register as one): a rebuild
 * that renamed a register (imulq %rcx, %rax, then imulq %rsi, %rax)
 * keeps the instruction's place. Such a pair is "aligned" with its
 * operands marked as differing.
 */
struct flamegraph_diff {
	struct flamegraph	*old;
	struct flamegraph	*new;
	bool			align;
	const char		*old_path;
	const char		*new_path;
	const struct flamegraph_labels *labels;
	struct hashmap		*sources;
};

/**
 * flamegraph_diff__write_folded - the two graphs' stacks, each with both weights
 * @diff: the two graphs
 * @fp: where to write
 *
 * One line per stack that ended there in either graph, "frames old new",
 * as FlameGraph's difffolded.pl writes them (flamegraph.pl and inferno
 * read them): the frames as flamegraph__write_folded() names them (NEW's
 * where both have the frame), then the stack's weight in @old and in @new
 * (periods or samples, as each graph counts them; 0 where the stack is
 * not in it). NEW's stacks come first, in its order, then those only OLD
 * has.
 *
 * Return: 0, -ENOMEM, or -EIO if a write failed.
 */
int flamegraph_diff__write_folded(struct flamegraph_diff *diff, FILE *fp);

/**
 * flamegraph_diff__write_json - the two graphs as one tree, with both weights
 * @diff: the two graphs
 * @fp: where to write
 *
 * NEW's tree with OLD's frames added where NEW has none: every node an
 * object with the keys flamegraph__write_json() writes ("n", NEW's
 * label where both have the frame, "l", "v" and "s", NEW's weight and
 * samples ending at it, "k", "d", "a", and in the root "weight",
 * "event" and "unit"), and "match" ("both", "old" or "new": in which
 * graphs the frame is),
 * for instruction leaves "how" ("address": the same address and text,
 * "aligned": paired by aligning the disassemblies, "unmatched") and, for
 * an aligned leaf whose registers differ, "operands": "differ", "old_n"
 * (OLD's label, where it differs: an aligned leaf's address before),
 * "old" and "new" (its total weight in each), "old_share" and "new_share"
 * (that weight in percent of its graph's total, so runs of different
 * lengths compare), "delta" (new_share - old_share, in points) and "c"
 * (its children).
 *
 * Return: 0, -ENOMEM, or -EIO if a write failed.
 */
int flamegraph_diff__write_json(struct flamegraph_diff *diff, FILE *fp);

/**
 * flamegraph_diff__write_html - the two graphs as one page of the viewer
 * @diff: the two graphs
 * @fp: where to write
 *
 * The viewer's page (flamegraph__write_page()) of NEW's tree with OLD's
 * frames added, each node with both weights and, for an instruction leaf,
 * how it was matched (the card says "aligned (operands differ)" for a
 * register renamed): the viewer colours frames by the change of their
 * share, red grew, blue shrank, and can draw OLD's shape instead.
 *
 * Return: 0, -ENOMEM, or -EIO if a write failed.
 */
int flamegraph_diff__write_html(struct flamegraph_diff *diff, FILE *fp);

#endif /* __PERF_FLAMEGRAPH_DIFF_H */
