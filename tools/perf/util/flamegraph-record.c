// SPDX-License-Identifier: GPL-2.0
/*
 * perf flamegraph record [<record options>] [-- <command>], and its short
 * form perf flamegraph [--] <command>: record with perf record first,
 * then render the recording.
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
 * Whether execve() would run @file: a regular file we may execute.
 * -EACCES, as from execve(), for a directory.
 */
static int program_check(const char *file)
{
	if (access(file, X_OK))
		return -errno;
	return is_regular_file(file) ? 0 : -EACCES;
}

int flamegraph__find_command(const char *cmd)
{
	const char *path = getenv("PATH") ?: "/bin:/usr/bin";
	char *dirs, *next, *dir, file[PATH_MAX];
	int err = -ENOENT;

	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/'))
		return program_check(cmd);
	dirs = strdup(path);
	if (!dirs)
		return 0;	/* let perf record tell */
	/* An empty entry is the current directory, as for execvp(). */
	for (next = dirs; next && err;) {
		dir = strsep(&next, ":");
		if (snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", cmd) <
		    (int)sizeof(file) && !program_check(file))
			err = 0;
	}
	free(dirs);
	return err;
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

/*
 * The command perf record is to run, for a check before anything is
 * recorded: the first word if it is no option (the short form), else the
 * word after "--".  NULL with no command (-a, -p: until ^C), or where
 * perf record's options and the command are not parted by "--".
 */
static const char *record_command(int argc, const char **argv)
{
	int i;

	if (argc && argv[0][0] != '-')
		return argv[0];
	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1 < argc ? argv[i + 1] : NULL;
	}
	return NULL;
}

const char *flamegraph_record__bad_option(int argc, const char **argv)
{
	int i;

	if (argc && argv[0][0] != '-')
		return NULL;
	for (i = 0; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-o") || !strncmp(argv[i], "--output", 8))
			return argv[i];
	}
	return NULL;
}

int flamegraph__record(const char *path, const char *event, int argc, const char **argv,
		       int (*record)(int argc, const char **argv))
{
	struct sigaction ign = { .sa_handler = SIG_IGN, }, old_int, old_term;
	const char **rec_argv, *cmd = record_command(argc, argv);
	char tmp[PATH_MAX];
	int i = 0, j, fd, status = 0;
	pid_t pid;

	if (cmd && flamegraph__find_command(cmd)) {
		pr_err("%s: no such command to record (options go before the command)\n", cmd);
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
	/* Six words of ours, perf record's, NULL. */
	rec_argv = calloc(6 + argc + 1, sizeof(*rec_argv));
	if (!rec_argv) {
		unlink(tmp);
		return -ENOMEM;
	}
	rec_argv[i++] = "record";
	/* Callchains, unless perf record's options say which after it. */
	rec_argv[i++] = "-g";
	rec_argv[i++] = "-o";
	rec_argv[i++] = tmp;
	if (event) {
		rec_argv[i++] = "-e";
		rec_argv[i++] = event;
	}
	for (j = 0; j < argc; j++)
		rec_argv[i++] = argv[j];

	/*
	 * ^C stops the command: perf record writes what it has and dies of
	 * the signal it got, as it does on a terminal; render that.
	 */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	/* What is buffered is written once, not once more by the child. */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/*
		 * exit(), not _exit(): perf record's atexit() handler dies of
		 * the signal that ended the workload, as perf record does.
		 */
		exit(record(i, rec_argv) ? 1 : 0);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(rec_argv);
	if (pid < 0 || !((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
			 (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT ||
						  WTERMSIG(status) == SIGTERM)))) {
		if (cmd)
			pr_err("perf record of '%s' failed, no flame graph written\n", cmd);
		else
			pr_err("perf record failed, no flame graph written\n");
		unlink(tmp);
		return -EINVAL;
	}
	return keep_recording(tmp, path);
}
