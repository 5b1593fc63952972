/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SAMPLE_H
#define __PERF_FLAMEGRAPH_SAMPLE_H

struct flamegraph;
struct machine;
struct perf_sample;

/**
 * flamegraph__add_sample - add a sample to the tree, counted at its leaf
 * @fg: the flame graph, its @sample_opts set
 * @sample: the sample, of an event whose samples @fg shows, its @evsel set
 *          (borrowed)
 * @machine: the machine the sample is of, which resolves its addresses
 *
 * The way of a sample into the tree, as perf report's
 * process_sample_event() makes it with machine__resolve() and
 * hist_entry_iter__add(): a sample whose stack (or its callers', with
 * @sample_opts' @callers_by_key) was seen before goes where that one went
 * (flamegraph__find_stack()); else machine__resolve() resolves its IP,
 * thread__resolve_callchain() its callchain, up to @sample_opts'
 * @max_stack entries, and the tree remembers where it went
 * (flamegraph__add_stack()).  The stack is cut above the sampled function
 * to the sample IP's context (flamegraph_frames__sampled()), under a
 * "[truncated]" node if the callchain was cut, and with @sample_opts'
 * @insn_leaves ends in the instruction at the sample IP.  Its period
 * counts at its leaf (flamegraph__account()) and on its call sites
 * (flamegraph__account_callsites()).
 *
 * From the event itself (@sample's @evsel attr), as the recording made
 * it: whether a callchain was cut, as many addresses as the kernel keeps
 * (attr.sample_max_stack, else PERF_MAX_STACK_DEPTH) or a DWARF unwinder
 * stopped at @max_stack user frames (PERF_SAMPLE_STACK_USER); and
 * whether the user entries of its callchain are a DWARF unwinder's
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER and
 * exclude_callchain_user), whose callers' addresses are the return
 * address minus 1 (struct flamegraph_frame's @unwound).
 *
 * @fg's @stats count what became of the sample.  A sample that
 * machine__resolve() fails on, or that perf's filters leave out, is not
 * an error.
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph__add_sample(struct flamegraph *fg, struct perf_sample *sample,
			   struct machine *machine);

#endif /* __PERF_FLAMEGRAPH_SAMPLE_H */
