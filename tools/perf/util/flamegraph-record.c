// SPDX-License-Identifier: GPL-2.0
/*
 * perf flamegraph -- <command>: record the command with perf record
 * first, then render the recording.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debug.h"
#include "flamegraph-record.h"
#include "path.h"
#include "util.h"

/*
 * A file execve() would run: a regular file we may execute.  Else false,
 * errno saying why (EACCES, as from execve(), for a directory).
 */
static bool is_program(const char *file)
{
	if (access(file, X_OK))
		return false;
	if (!is_regular_file(file)) {
		errno = EACCES;
		return false;
	}
	return true;
}

bool flamegraph__command_exists(const char *cmd)
{
	const char *path = getenv("PATH") ?: "/bin:/usr/bin";
	char *dirs, *next, *dir, file[PATH_MAX];
	bool found = false;

	if (!*cmd)
		return false;
	if (strchr(cmd, '/'))
		return is_program(cmd);
	dirs = strdup(path);
	if (!dirs)
		return true;	/* let perf record tell */
	/* An empty entry is the current directory, as for execvp(). */
	for (next = dirs; next && !found;) {
		dir = strsep(&next, ":");
		if (snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", cmd) <
		    (int)sizeof(file))
			found = is_program(file);
	}
	free(dirs);
	return found;
}

/*
 * Put a finished recording at @path as perf record would have: what was
 * there before is kept as <path>.old (util/data.c's check_backup()).
 */
static int keep_recording(const char *tmp, const char *path)
{
	char oldname[PATH_MAX] = "";
	struct stat st;
	int err;

	if (!stat(path, &st) && st.st_size) {
		snprintf(oldname, sizeof(oldname), "%s.old", path);
		if (rm_rf_perf_data(oldname) || rename(path, oldname)) {
			err = errno ?: EEXIST;
			pr_err("cannot keep %s as %s (%s); the recording is %s\n",
			       path, oldname, strerror(err), tmp);
			return -err;
		}
	}
	if (rename(tmp, path)) {
		err = errno;
		pr_err("cannot rename %s to %s: %s\n", tmp, path, strerror(err));
		return -err;
	}
	/* perf record named the file it wrote, which is gone: say where it is. */
	if (!quiet)
		fprintf(stderr, "[ perf flamegraph: the recording is %s%s%s%s ]\n", path,
			*oldname ? " (the one before: " : "", oldname, *oldname ? ")" : "");
	return 0;
}

const char *flamegraph_record_opts__set(const struct flamegraph_record_opts *opts)
{
	if (opts->freq)
		return "-F";
	if (opts->count)
		return "--count";
	if (opts->call_graph)
		return "--call-graph";
	if (opts->pids)
		return "-p";
	return opts->all_cpus ? "-a" : NULL;
}

int flamegraph__record(const char *path, const struct flamegraph_record_opts *opts,
		       int argc, const char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN, }, old_int, old_term;
	const char **rec_argv;
	char tmp[PATH_MAX];
	int i = 0, j, fd, status = 0;
	pid_t pid;

	if (!flamegraph__command_exists(argv[0])) {
		pr_err("%s: no such command to record (options go before the command)\n",
		       argv[0]);
		return -ENOENT;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0) {
		fd = -errno;
		pr_err("cannot create a file next to %s: %s\n", path, strerror(-fd));
		return fd;
	}
	close(fd);
	/* 16 words of perf record's at the most, the command, NULL. */
	rec_argv = calloc(16 + argc + 1, sizeof(*rec_argv));
	if (!rec_argv) {
		unlink(tmp);
		return -ENOMEM;
	}
	/* The perf that runs now, not whichever is first in $PATH. */
	rec_argv[i++] = "/proc/self/exe";
	rec_argv[i++] = "record";
	if (opts->call_graph) {
		rec_argv[i++] = "--call-graph";
		rec_argv[i++] = opts->call_graph;
	} else {
		rec_argv[i++] = "-g";
	}
	rec_argv[i++] = "-o";
	rec_argv[i++] = tmp;
	if (opts->event) {
		rec_argv[i++] = "-e";
		rec_argv[i++] = opts->event;
	}
	if (opts->freq) {
		rec_argv[i++] = "-F";
		rec_argv[i++] = opts->freq;
	}
	if (opts->count) {
		rec_argv[i++] = "-c";
		rec_argv[i++] = opts->count;
	}
	if (opts->pids) {
		rec_argv[i++] = "-p";
		rec_argv[i++] = opts->pids;
	}
	if (opts->all_cpus)
		rec_argv[i++] = "-a";
	rec_argv[i++] = "--";
	for (j = 0; j < argc; j++)
		rec_argv[i++] = argv[j];

	/*
	 * ^C stops the command: perf record writes what it has and dies of
	 * the signal it got, as it does on a terminal; render that.
	 */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execv(rec_argv[0], (char **)rec_argv);
		pr_err("cannot run perf record: %s\n", strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(rec_argv);
	if (pid < 0 || !((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
			 (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT ||
						  WTERMSIG(status) == SIGTERM)))) {
		pr_err("perf record of '%s' failed, no flame graph written\n", argv[0]);
		unlink(tmp);
		return -EINVAL;
	}
	return keep_recording(tmp, path);
}
