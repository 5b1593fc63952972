/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SESSION_H
#define __PERF_FLAMEGRAPH_SESSION_H

#include <stdio.h>
#include "flamegraph.h"

struct evsel;
struct perf_session;

/**
 * flamegraph__parse_format - the output format a user asked for
 * @format_str: --format's value ("html", "json" or "folded"), or NULL
 * @output: the output file name, whose extension picks the format when
 *          @format_str is NULL: .json, .folded or .txt, else html
 * @format: set to the format
 *
 * Return: 0, or -EINVAL after printing one line for an unknown format.
 */
int flamegraph__parse_format(const char *format_str, const char *output,
			     enum flamegraph_format *format);

/**
 * flamegraph__write_session - write a finished flame graph of a session
 * @fg: the flame graph, flamegraph__finish()ed
 * @fp: output stream
 * @format: the output format
 * @session: the session it was built from: the HTML page's header (host,
 *           command line, CPU, perf version, the file's time, and what
 *           perf report --header-only prints) is this session's, never
 *           ./perf.data's
 * @evsel: the event shown, or NULL
 * @tmpl: NULL, or the text of a d3-flame-graph template for html
 *
 * Shared by perf flamegraph and perf report --flamegraph.
 *
 * Return: 0 on success, or the writer's negative errno.
 */
int flamegraph__write_session(struct flamegraph *fg, FILE *fp,
			      enum flamegraph_format format,
			      struct perf_session *session,
			      struct evsel *evsel, const char *tmpl);

#endif /* __PERF_FLAMEGRAPH_SESSION_H */
