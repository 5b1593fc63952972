/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_RECORD_H
#define __PERF_FLAMEGRAPH_RECORD_H

#include <stdbool.h>

/**
 * flamegraph__command_exists - whether execvp() would find a command
 * @cmd: a path, or a name to look for in $PATH (execvp()'s default path
 *       when $PATH is unset)
 *
 * A mistyped option ('-f folded') ends perf flamegraph's options, so its
 * argument would be taken for the command to record: this says so before
 * anything is recorded.
 *
 * Return: true if @cmd is a regular file that may be executed; else
 * false, with errno saying why for a path (EACCES for a directory, as
 * execve() says).
 */
bool flamegraph__command_exists(const char *cmd);

/**
 * struct flamegraph_record_opts - what perf record is told, NULL/false
 *                                 for its defaults
 * @event: -e, the event (perf record's default falls back to a software
 *         clock where there is no PMU)
 * @freq: -F, the sampling frequency (a number, "max")
 * @count: -c, the sampling period
 * @call_graph: --call-graph, the callchain mode (default: -g, fp)
 * @pids: -p, processes to profile instead, for as long as the command runs
 * @all_cpus: -a, the whole machine while the command runs
 */
struct flamegraph_record_opts {
	const char	*event;
	const char	*freq;
	const char	*count;
	const char	*call_graph;
	const char	*pids;
	bool		all_cpus;
};

/**
 * flamegraph_record_opts__set - whether an option of perf record was given
 * @opts: the options
 *
 * Return: the name of the first option set that only a recording takes
 * (-F, --count, --call-graph, -p or -a), for "only with a command"; NULL if
 * none is.  -e isn't one: it also picks an event of the input.
 */
const char *flamegraph_record_opts__set(const struct flamegraph_record_opts *opts);

/**
 * flamegraph__record - record a command with perf record
 * @path: where the recording goes (perf flamegraph's input)
 * @opts: what perf record is told besides
 * @argc: the words of the command
 * @argv: the command and its arguments
 *
 * Into a file, not a pipe, so perf record writes the build-id table and
 * fills the build-id cache: the flame graph of the recording stays right
 * after a rebuild.  A child perf (this one, /proc/self/exe), not
 * cmd_record() in this process, so record's global state stays its own.
 * The recording goes to a new file next to @path, which replaces @path
 * only once perf record succeeded (or was stopped by ^C, as on a
 * terminal): a failed recording loses nothing, and what was at @path is
 * kept as <path>.old, as perf record keeps it.  perf record names the new
 * file when it ends; a line after it names @path, where it went.
 *
 * Return: 0, or a negative errno after one line that names the problem.
 */
int flamegraph__record(const char *path, const struct flamegraph_record_opts *opts,
		       int argc, const char **argv);

#endif /* __PERF_FLAMEGRAPH_RECORD_H */
