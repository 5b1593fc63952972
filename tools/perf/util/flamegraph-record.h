/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_RECORD_H
#define __PERF_FLAMEGRAPH_RECORD_H

/**
 * flamegraph_record__find_command - whether execvp() would find a command
 * @cmd: a path, or a name to look for in $PATH
 *
 * A mistyped option ('-f folded') ends perf flamegraph's options, so its
 * argument would be taken for the command to record: this says so before
 * anything is recorded.  A name is looked up with lookup_path(), where a
 * file of that name need only exist; an empty $PATH entry, which
 * lookup_path() skips, is the current directory, as for execvp().  With
 * $PATH unset, execvp()'s default path is not looked in: the command's
 * exec says what it finds.
 *
 * Return: 0 if @cmd is a path to a regular file that may be executed, or
 * a name found; else a negative errno: for a path, why (-EACCES for a
 * directory, as execve() says), for a name, -ENOENT.
 */
int flamegraph_record__find_command(const char *cmd);

/**
 * flamegraph_record__bad_option - a perf record option perf flamegraph
 *                                 can't pass on
 * @argc: the number of words in @argv
 * @argv: perf record's words, as for flamegraph__record()
 *
 * -o/--output among perf record's options (before "--", or anywhere
 * without one): the recording is perf flamegraph's -i.
 *
 * Return: the option as given, or NULL.
 */
const char *flamegraph_record__bad_option(int argc, const char **argv);

/**
 * flamegraph__record - record with perf record, then keep the recording
 * @path: where the recording goes (perf flamegraph's input)
 * @event: perf flamegraph's -e, passed on as perf record's (NULL: perf
 *         record's default, which falls back to a software clock where
 *         there is no PMU)
 * @argc: the number of words in @argv
 * @argv: perf record's words after perf flamegraph's own: its options
 *        (any but flamegraph_record__bad_option()'s), then "--" and
 *        the command, as in
 *        'perf flamegraph record -F 999 -- ./prog'; or, the short form,
 *        "--" or the command first and its arguments
 * @record: cmd_record(), which util/ can't name
 *
 * Into a file, not a pipe, so perf record writes the build-id table and
 * fills the build-id cache: the flame graph of the recording stays right
 * after a rebuild.  perf record's options come after '-g -o <file>' and
 * -e, so its own --call-graph wins.  @record runs in a child, as perf
 * record runs alone: its global state (symbol_conf, callchain_param,
 * symbol__exit()) and its atexit() handler, which dies of the signal
 * that ended the workload, stay there.  Its header's command line is the
 * one typed, perf flamegraph's, that perf.c keeps for perf record
 * (perf_cmdline_argv), not these words.  The recording goes to a new file
 * next to @path, which replaces @path only once perf record succeeded
 * (or was stopped by ^C, as on a terminal): a failed recording loses
 * nothing, and what was at @path is kept as <path>.old, as perf record
 * keeps it.  perf record names the new file when it ends; a line after
 * it names @path, where it went.
 *
 * A signal to perf flamegraph while it records (SIGINT, SIGTERM, SIGHUP,
 * SIGPIPE) goes to perf record, which writes what it has on SIGINT and
 * SIGTERM, as when run alone; flamegraph_record__exit() then dies of it.
 * The temp file is renamed or removed on every way out: where there is
 * nothing to render, perf flamegraph dies of the signal here.  A command
 * that exits non-zero or is killed is recorded all the same: one warning
 * says how it ended, and flamegraph_record__exit() gives its status.
 *
 * Return: 0, or a negative errno after one line that names the problem
 * (-EINVAL for a failed recording, -ENOENT for a command that can't be
 * run).
 */
int flamegraph__record(const char *path, const char *event, int argc, const char **argv,
		       int (*record)(int argc, const char **argv));

/**
 * flamegraph_record__exit - perf flamegraph's exit status after a recording
 * @status: what cmd_flamegraph() returns without one: 0, or a negative
 *          errno (perf.c makes it the exit status)
 *
 * Dies of the signal that stopped flamegraph__record(), as perf record
 * does.  Else @status if it is an error, else the recorded command's: its
 * exit status, or 128 + the signal that killed it.  @status without a
 * recording.
 *
 * Return: cmd_flamegraph()'s return value.
 */
int flamegraph_record__exit(int status);

#endif /* __PERF_FLAMEGRAPH_RECORD_H */
