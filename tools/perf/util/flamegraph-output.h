/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_OUTPUT_H
#define __PERF_FLAMEGRAPH_OUTPUT_H

#include <stdio.h>
#include <sys/types.h>

/**
 * struct flamegraph_output - where a flame graph is written
 * @path: the output as the user named it; "-" is stdout
 * @target: the regular file to replace, NULL to write @path in place
 * @tmp: the temporary file next to @target while writing
 * @mode: permissions for @target: those of the file it replaces, or
 *        0666 less the umask for a new one
 * @fp: the stream being written
 */
struct flamegraph_output {
	const char	*path;
	char		*target;
	char		*tmp;
	mode_t		mode;
	FILE		*fp;
};

/**
 * flamegraph_output__init - check an output before any work is done
 * @out: the output to set up
 * @path: the output file name; "-" is stdout
 *
 * A regular file, new or existing, is written to a temporary file in its
 * directory and renamed over it, so a failed run never leaves a
 * half-written file over the previous one; a symbolic link to a regular
 * file has its target replaced that way and stays a link.  Anything else
 * (stdout, a pipe, a device, /dev/stdout) is written in place, as is an
 * existing writable file in a directory that is not writable.
 *
 * Return: 0, or a negative errno after printing one line that names the
 * problem: an empty name, a directory, a directory that does not exist or
 * can't be written.
 */
int flamegraph_output__init(struct flamegraph_output *out, const char *path);

/**
 * flamegraph_output__open - open the stream to write to
 * @out: an output set up by flamegraph_output__init()
 *
 * Return: the stream (owned by @out), or NULL after printing why.
 */
FILE *flamegraph_output__open(struct flamegraph_output *out);

/**
 * flamegraph_output__close - finish writing
 * @out: an opened output
 * @err: 0 if everything was written, else a negative errno
 *
 * Closes the stream and, when all went well, renames the temporary file
 * over the target; otherwise removes the temporary file, so the previous
 * output stays as it was.
 *
 * Return: @err, or the negative errno of what failed while closing or
 * renaming, after printing it.
 */
int flamegraph_output__close(struct flamegraph_output *out, int err);

/**
 * flamegraph_output__exit - free what flamegraph_output__init() allocated
 * @out: the output
 */
void flamegraph_output__exit(struct flamegraph_output *out);

#endif /* __PERF_FLAMEGRAPH_OUTPUT_H */
