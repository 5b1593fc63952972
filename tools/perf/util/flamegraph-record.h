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
 * flamegraph__record - record a command with perf record -g
 * @path: where the recording goes (perf flamegraph's input)
 * @event: perf record's -e, or NULL for its default event (which falls
 *         back to a software clock where there is no PMU)
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
 * kept as <path>.old, as perf record keeps it.
 *
 * Return: 0, or a negative errno after one line that names the problem.
 */
int flamegraph__record(const char *path, const char *event, int argc,
		       const char **argv);

#endif /* __PERF_FLAMEGRAPH_RECORD_H */
