/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SESSION_H
#define __PERF_FLAMEGRAPH_SESSION_H

#include "flamegraph-output.h"

struct flamegraph;
struct flamegraph_labels;
struct output_file;
struct perf_session;
struct strbuf;

/**
 * flamegraph_info__init - what a page's header says about a recording
 * @info: to fill
 * @session: the session the graphs were built from
 *
 * The title "perf flamegraph", the input's path, the recording's host,
 * CPU, perf version and command line (HEADER_CMDLINE), the file's time
 * (as perf report --header's "captured on"; none for a pipe), and what
 * perf report --header-only prints: this recording's, never
 * ./perf.data's.  What can't be had without memory is left NULL.
 * Release with flamegraph_info__exit().
 */
void flamegraph_info__init(struct flamegraph_info *info, struct perf_session *session);

/**
 * flamegraph_info__exit - free what flamegraph_info__init() allocated
 * @info: as flamegraph_info__init() filled it
 */
void flamegraph_info__exit(struct flamegraph_info *info);

/**
 * flamegraph__write_session - write the graphs of a session to an output
 * @out: set up by output_file__init()
 * @graphs: finished flame graphs, one per event, the page's default at [0]
 * @labels: each graph's event, unit and view
 * @nr_graphs: entries in @graphs and @labels
 * @format: the output format
 * @session: the session they were made from, for the page's header
 *           (flamegraph_info__init())
 * @tmpl: NULL, or the text of a d3-flame-graph template, for an HTML
 *        output of one graph
 *
 * The write of perf flamegraph and perf report --flamegraph: opens @out,
 * writes, and closes it, which replaces the previous output only if all
 * was written (output_file__close()).
 *
 * Return: 0 on success, else a negative errno, said in one line.
 */
int flamegraph__write_session(struct output_file *out, struct flamegraph **graphs,
			      const struct flamegraph_labels *labels, int nr_graphs,
			      enum flamegraph_format format, struct perf_session *session,
			      const char *tmpl);

/**
 * flamegraph__describe_filters - perf report's sample filters in words
 * @sb: where to append them, as "--comms perf, --dsos libc.so.6"
 *
 * The filters of symbol_conf that perf report and perf flamegraph take
 * from their options (--comms, --pid, --tid, --dsos, --symbols), for the
 * page's header: a filtered graph says so.
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph__describe_filters(struct strbuf *sb);

#endif /* __PERF_FLAMEGRAPH_SESSION_H */
