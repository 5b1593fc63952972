/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_DIFF_H
#define __PERF_FLAMEGRAPH_DIFF_H

#include <stdio.h>

struct flamegraph;

/**
 * flamegraph_diff__write_folded - two graphs' stacks, each with both weights
 * @old: the finished graph before (perf flamegraph --diff's file)
 * @new: the finished graph after (perf flamegraph -i's file)
 * @fp: where to write
 *
 * One line per stack that ended there in either graph, "frames old new",
 * as FlameGraph's difffolded.pl writes them (flamegraph.pl and inferno
 * read them): the frames as flamegraph__write_folded() names them, then
 * the stack's weight in @old and in @new (periods or samples, as each
 * graph counts them; 0 where the stack is not in it). NEW's stacks come
 * first, in its order, then those only OLD has. A frame is the same
 * frame in both when its kind, its DSO's short name and its label are:
 * frames by function name (with the start address where a DSO has the
 * name twice), instruction leaves by their text and address, so an
 * instruction matches only in the same build of its binary.
 *
 * Return: 0, or -EIO if a write failed.
 */
int flamegraph_diff__write_folded(struct flamegraph *old, struct flamegraph *new, FILE *fp);

/**
 * flamegraph_diff__write_json - the two graphs as one tree, with both weights
 * @old: the finished graph before
 * @new: the finished graph after
 * @fp: where to write
 *
 * NEW's tree with OLD's frames added where NEW has none (with 0 after):
 * every node an object with "n" (label), "kind", "dso", "match" ("both",
 * "old" or "new": in which graphs the frame is), "old" and "new" (its
 * total weight in each), "old_share" and "new_share" (that weight in
 * percent of its graph's total, so runs of different lengths compare),
 * "delta" (new_share - old_share, in points) and "c" (its children).
 * Frames are matched as by flamegraph_diff__write_folded().
 *
 * Return: 0, or -EIO if a write failed.
 */
int flamegraph_diff__write_json(struct flamegraph *old, struct flamegraph *new, FILE *fp);

#endif /* __PERF_FLAMEGRAPH_DIFF_H */
