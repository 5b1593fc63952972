/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_REPORT_H
#define __PERF_FLAMEGRAPH_REPORT_H

#include <stdbool.h>
#include <linux/types.h>
#include "flamegraph-output.h"
#include "output-file.h"

struct evsel;
struct flamegraph;
struct hists;
struct perf_session;

/**
 * flamegraph__add_hists - add what perf report shows of one event
 * @fg: the flame graph
 * @hists: perf report's hists of the event, collapsed and resorted for
 *         output, built without children (no cumulation)
 * @min_pcnt: perf report's --percent-limit: entries below it are left
 *            out, as hists__fprintf() leaves them out
 * @caller: callchains are in caller order (-g caller): the graph is
 *          rooted at the outermost callers; in callee order (-g callee)
 *          at the sampled functions, with their callers above them, as
 *          perf report's callee-based call graphs are
 * @asm_leaves: add the sampled instruction (the callee end of each
 *              callchain) as a leaf: needs callchains keyed by address
 *              (CCKEY_ADDRESS), or entries merge different IPs
 * @max_entries: a callchain of exactly this many entries was cut at its
 *               outer end (the kernel's limit): it goes under a
 *               "[truncated]" node, as in perf flamegraph; 0 for none
 *
 * Entries filtered out by perf report (--comm, --pid, --tid, --dsos,
 * --symbols, --parent with --exclude-other, ...) are skipped.  Each
 * remaining entry adds its samples along its callchain tree (struct
 * callchain_node's count), and the samples whose callchain was empty to
 * the entry's own symbol.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_hists(struct flamegraph *fg, struct hists *hists,
			  float min_pcnt, bool caller, bool asm_leaves,
			  int max_entries);

/**
 * struct flamegraph_report - perf report --flamegraph[=file] [--flamegraph-asm]
 * @path: the output file; NULL when no flame graph was asked for
 * @asm_leaves: --flamegraph-asm
 * @no_objdump: with --flamegraph-asm, no objdump for the recording's
 *              architecture: set by perf report (flamegraph__lookup_objdump())
 * @format: from @path's extension, as in perf flamegraph
 * @out: @path, checked before the report starts
 * @time_str: perf report's --time, named on the page (borrowed)
 * @cpu_list: its --cpu, likewise
 * @symbol_filter: its --symbol-filter, likewise
 * @nr_read: the samples read of each event (by evsel->core.idx), before
 *           --time and --cpu skip any: flamegraph_report__count()
 * @nr_events: entries in @nr_read
 * @alloc_events: room in @nr_read (flamegraph__grow())
 */
struct flamegraph_report {
	const char		*path;
	bool			asm_leaves;
	bool			no_objdump;
	const char		*time_str;
	const char		*cpu_list;
	const char		*symbol_filter;
	u64			*nr_read;
	int			nr_events;
	size_t			alloc_events;
	enum flamegraph_format	format;
	struct output_file out;
};

/**
 * flamegraph_report__setup - check the output's format and open it
 * @fr: the options as parsed
 *
 * Call after option parsing, before the session is processed.  perf
 * report sets up what the flame graph needs of it itself: no children
 * (cumulation), caller-ordered callchains unless -g gave an order, and
 * with --flamegraph-asm callchains keyed by address and perf annotate's
 * disassemblers.
 *
 * Return: 0, or a negative errno after one line naming the problem.
 */
int flamegraph_report__setup(struct flamegraph_report *fr);

/**
 * flamegraph_report__count - count a sample read, before any filter
 * @fr: set up by flamegraph_report__setup()
 * @evsel: the sample's event
 *
 * Call for every sample perf report reads, before its --time and --cpu
 * skip it, so the page can say how many samples the report left out.
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph_report__count(struct flamegraph_report *fr, struct evsel *evsel);

/**
 * flamegraph_report__write - write the flame graph of a finished report
 * @fr: set up by flamegraph_report__setup()
 * @session: the report's session, its hists collapsed and resorted
 * @min_pcnt: perf report's --percent-limit
 * @max_stack: perf report's --max-stack, the callchain entries it resolved
 *
 * Takes the first event that has entries, says which on stderr with the
 * samples, frames and instruction leaves written.  The page's view names
 * the report's filters (--comm, --pid, --tid, --dsos, --symbols,
 * --symbol-filter, --cpu, --time, --percent-limit) and the samples they
 * left out of those read (flamegraph_report__count()), and its
 * @report_total is the total perf report's percentages are of
 * (hists__total_period()).
 *
 * Return: 0, or a negative errno after one line naming the problem.
 */
int flamegraph_report__write(struct flamegraph_report *fr,
			     struct perf_session *session, float min_pcnt,
			     int max_stack);

/**
 * flamegraph_report__exit - release what flamegraph_report__setup() took
 * @fr: the flame graph options
 */
void flamegraph_report__exit(struct flamegraph_report *fr);

#endif /* __PERF_FLAMEGRAPH_REPORT_H */
