/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_OUTPUT_FILE_H
#define __PERF_OUTPUT_FILE_H

#include <stdio.h>
#include <sys/types.h>

/**
 * struct output_file - an output that replaces a file only once written whole
 * @path: the output as the user named it; "-" is stdout
 * @target: the regular file to replace, NULL to write @path in place
 * @tmp: the temporary file next to @target while writing
 * @mode: permissions for @target: those of the file it replaces, or
 *        0666 less the umask for a new one
 * @fp: the stream being written, over @fd
 * @fd: the file descriptor written
 * @errnum: the errno of the first write or close of @fd that failed, 0
 *          if none did: stdio keeps only that one did (ferror())
 */
struct output_file {
	const char	*path;
	char		*target;
	char		*tmp;
	mode_t		mode;
	FILE		*fp;
	int		fd;
	int		errnum;
};

/**
 * output_file__init - check an output before any work is done
 * @out: the output to set up
 * @path: the output file name; "-" is stdout
 *
 * A regular file, new or existing, is written to a temporary file in its
 * directory and renamed over it, so a failed run never leaves a
 * half-written file over the previous one; a symbolic link to a regular
 * file has its target replaced that way and stays a link.  Anything else
 * (a pipe, a device, any file of /dev or /proc) is written in place, as
 * is an existing writable file in a directory that is not writable;
 * /dev/stdout is stdout, as "-" is.
 *
 * Return: 0, or a negative errno after printing one line that names the
 * problem: an empty name, a directory, a directory that does not exist or
 * can't be written, an existing file that can't be written (-EACCES, as
 * the shell's > refuses it, though its directory would let a new file
 * be renamed over it).
 */
int output_file__init(struct output_file *out, const char *path);

/**
 * output_file__open - open the stream to write to
 * @out: an output set up by output_file__init()
 *
 * Return: the stream (owned by @out), or NULL after printing why.
 */
FILE *output_file__open(struct output_file *out);

/**
 * output_file__close - finish writing
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
int output_file__close(struct output_file *out, int err);

/**
 * output_file__exit - free what output_file__init() allocated
 * @out: the output
 */
void output_file__exit(struct output_file *out);

/**
 * output_file__refuse_input - refuse to write over what the command reads
 * @path: the output file name; "-" is stdout
 * @input: a file the command reads; "-" is stdin
 *
 * Return: 0 unless @path and @input name the same file (the same device
 * and inode, whatever the names); then -EINVAL after printing one line
 * that says so.
 */
int output_file__refuse_input(const char *path, const char *input);

#endif /* __PERF_OUTPUT_FILE_H */
