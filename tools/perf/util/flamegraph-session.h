/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SESSION_H
#define __PERF_FLAMEGRAPH_SESSION_H

struct flamegraph_info;
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
