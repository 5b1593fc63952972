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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "arch/common.h"
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

/* An empty $PATH entry: the current directory, for execvp(). */
static bool path_has_cwd(const char *path)
{
	return !*path || *path == ':' || strstr(path, "::") || path[strlen(path) - 1] == ':';
}

int flamegraph_record__find_command(const char *cmd)
{
	const char *path = getenv("PATH");

	if (!*cmd)
		return -ENOENT;
	if (strchr(cmd, '/'))
		return program_check(cmd);
	/* execvp()'s default path: what runs it says. */
	if (!path)
		return 0;
	if (lookup_path(cmd) || (path_has_cwd(path) && !program_check(cmd)))
		return 0;
	return -ENOENT;
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
			pr_err("cannot keep %s as %s: %s\n", path, oldname, strerror(err));
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

/*
 * The one-step recording's end, for flamegraph_record__exit(): the signal
 * perf flamegraph got while perf record ran, the command's exit status or
 * the signal that killed it.
 */
static sig_atomic_t record_signal;
static pid_t record_pid;
static int record_status, record_killed;

/* The signals that end perf flamegraph while it records, ^C's first. */
static const int record_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, };

/*
 * A supervisor's signal is for perf record too: it ends the recording
 * as it would end perf record alone, which writes what it has on SIGINT
 * and SIGTERM and dies of SIGHUP and SIGPIPE.
 */
static void record__signal(int sig)
{
	pid_t pid = READ_ONCE(record_pid);

	if (!READ_ONCE(record_signal))
		WRITE_ONCE(record_signal, sig);
	if (pid > 0)
		kill(pid, sig);
}

static void record__die(int sig)
{
	signal(sig, SIG_DFL);
	raise(sig);
}

int flamegraph_record__exit(int status)
{
	if (record_signal)
		record__die(record_signal);
	if (status)
		return status;
	/* perf record dies of it; a shell says 128 + its number. */
	if (record_killed)
		return 128 + record_killed;
	return record_status;
}

/*
 * From before the temp file is there until it is renamed or removed, a
 * signal to perf flamegraph goes to perf record (^C on a terminal reaches
 * both), and none ends perf flamegraph with the temp file left behind.
 * Blocked until the child is known; @old and @old_mask are what was.
 */
static void record_signals__catch(struct sigaction *old, sigset_t *old_mask)
{
	struct sigaction act = { .sa_handler = record__signal, };
	sigset_t mask;
	size_t i;

	sigemptyset(&mask);
	for (i = 0; i < ARRAY_SIZE(record_signals); i++)
		sigaddset(&mask, record_signals[i]);
	act.sa_mask = mask;
	sigprocmask(SIG_BLOCK, &mask, old_mask);
	for (i = 0; i < ARRAY_SIZE(record_signals); i++) {
		sigaction(record_signals[i], NULL, &old[i]);
		/* perf record catches ^C and SIGTERM, nohup's SIGHUP stays ignored. */
		if (i < 2 || old[i].sa_handler != SIG_IGN)
			sigaction(record_signals[i], &act, NULL);
	}
}

static void record_signals__restore(const struct sigaction *old, const sigset_t *old_mask)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(record_signals); i++)
		sigaction(record_signals[i], &old[i], NULL);
	sigprocmask(SIG_SETMASK, old_mask, NULL);
}

/*
 * Run @record, perf record, with @rec_argv in a child, its signals as
 * perf record alone has them (@old, @old_mask), and wait for it.  Its
 * recording, at @tmp, goes to @path if it ended as perf record keeps one.
 * Return: 0, -EINVAL if perf record failed or died, or a -errno.
 */
static int record__run(int (*record)(int argc, const char **argv), int argc,
		       const char **rec_argv, const struct sigaction *old,
		       const sigset_t *old_mask, const char *tmp, const char *path)
{
	/* What perf record returned, which its exit status can't say. */
	int *child_ret = mmap(NULL, sizeof(*child_ret), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int status = 0, ret = 0;
	pid_t pid;
	size_t i;

	if (child_ret == MAP_FAILED)
		return -ENOMEM;
	*child_ret = INT_MIN;
	/* What is buffered is written once, not once more by the child. */
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* perf record's own, as run alone: SIGINT and SIGTERM its. */
		for (i = 0; i < ARRAY_SIZE(record_signals); i++)
			signal(record_signals[i], i < 2 ? SIG_DFL : old[i].sa_handler);
		sigprocmask(SIG_SETMASK, old_mask, NULL);
		*child_ret = record(argc, rec_argv);
		/*
		 * exit(), not _exit(): perf record's atexit() handler dies of
		 * the signal it got or that ended the workload.
		 */
		exit(*child_ret ? 1 : 0);
	}
	if (pid < 0) {
		ret = -errno;
		pr_err("cannot start perf record: %s\n", strerror(-ret));
	}
	WRITE_ONCE(record_pid, pid);
	/* A signal before the child was known is its too. */
	if (pid > 0 && READ_ONCE(record_signal))
		kill(pid, READ_ONCE(record_signal));
	sigprocmask(SIG_SETMASK, old_mask, NULL);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	WRITE_ONCE(record_pid, 0);
	if (pid > 0) {
		/* The command's end, for the warning and the exit status. */
		if (*child_ret >= 0)
			record_status = *child_ret;
		if (WIFSIGNALED(status))
			record_killed = WTERMSIG(status);
		/* perf record dies of SIGPIPE or SIGHUP before it ends. */
		if (*child_ret >= 0 && record_killed != SIGPIPE && record_killed != SIGHUP)
			ret = keep_recording(tmp, path);
		else
			ret = -EINVAL;
	}
	munmap(child_ret, sizeof(*child_ret));
	return ret;
}

/* Say how the recording of @cmd ended, @ret being record__run()'s. */
static int record__end(const char *cmd, int ret)
{
	if (ret && !record_signal && (record_killed == SIGPIPE || record_killed == SIGHUP))
		record_signal = record_killed;
	/* Nothing to render: die of the signal now, with nothing left behind. */
	if (ret && record_signal)
		record__die(record_signal);
	if (ret == -EINVAL) {
		if (cmd)
			pr_err("perf record of '%s' failed, no flame graph written\n", cmd);
		else
			pr_err("perf record failed, no flame graph written\n");
	}
	if (ret || record_signal) {
		/* Stopped as perf record is stopped: render what it wrote. */
	} else if (record_killed) {
		pr_warning("Warning: '%s' was killed by signal %d (%s)\n",
			   cmd ?: "the command", record_killed, strsignal(record_killed));
	} else if (record_status) {
		pr_warning("Warning: '%s' exited with status %d\n",
			   cmd ?: "the command", record_status);
	}
	return ret;
}

int flamegraph__record(const char *path, const char *event, int argc, const char **argv,
		       int (*record)(int argc, const char **argv))
{
	struct sigaction old[ARRAY_SIZE(record_signals)];
	const char **rec_argv, *cmd = record_command(argc, argv);
	char tmp[PATH_MAX];
	int i = 0, j, fd, ret;
	sigset_t old_mask;

	if (cmd && flamegraph_record__find_command(cmd)) {
		pr_err("%s: no such command to record (options go before the command)\n", cmd);
		return -ENOENT;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	/* Six words of ours, perf record's, NULL. */
	rec_argv = calloc(6 + argc + 1, sizeof(*rec_argv));
	if (!rec_argv)
		return -ENOMEM;

	record_signals__catch(old, &old_mask);
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		record_signals__restore(old, &old_mask);
		free(rec_argv);
		pr_err("cannot create a file next to %s: %s\n", path, strerror(-ret));
		return ret;
	}
	close(fd);
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

	ret = record__run(record, i, rec_argv, old, &old_mask, tmp, path);
	/* No temp file stays, whatever ended the recording. */
	if (ret)
		unlink(tmp);
	record_signals__restore(old, &old_mask);
	free(rec_argv);
	return record__end(cmd, ret);
}
