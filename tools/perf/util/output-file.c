// SPDX-License-Identifier: GPL-2.0
/*
 * An output file that a command replaces only once it was written whole:
 * see output-file.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "output-file.h"

static int output_error(const char *path, int errnum)
{
	pr_err("cannot write %s: %s\n", strcmp(path, "-") ? path : "stdout", strerror(errnum));
	return -errnum;
}

/* Can a file be created in the directory of @path? */
static int dir_writable(const char *path)
{
	char *copy = strdup(path);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = access(dirname(copy), W_OK | X_OK) ? -errno : 0;
	free(copy);
	return ret;
}

static int output_file__set_target(struct output_file *out, const char *target, mode_t mode)
{
	int err = dir_writable(target);

	if (err == -EACCES || err == -EROFS) {
		/* No new file can go there, but the old one may be written. */
		if (access(target, W_OK) == 0)
			return 0;
	}
	if (err)
		return output_error(out->path, -err);
	out->target = strdup(target);
	out->mode = mode;
	return out->target ? 0 : -ENOMEM;
}

int output_file__init(struct output_file *out, const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	mode_t mask;

	memset(out, 0, sizeof(*out));
	out->path = path;
	if (!*path) {
		pr_err("the output file name is empty\n");
		return -EINVAL;
	}
	if (!strcmp(path, "-"))
		return 0;
	/*
	 * /dev/stdout is the command's stdout, whatever it is (a file the
	 * shell opened to append to, too); the other files of /dev and
	 * /proc (/proc/self/fd/N) are written where they are, never
	 * replaced by a rename.
	 */
	if (!strcmp(path, "/dev/stdout")) {
		out->path = "-";
		return 0;
	}
	if (strstarts(path, "/dev/") || strstarts(path, "/proc/"))
		return 0;

	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return output_error(path, errno);
		mask = umask(0);
		umask(mask);
		return output_file__set_target(out, path, 0666 & ~mask);
	}
	if (S_ISLNK(st.st_mode)) {
		/* Replace what the link points to, if a regular file. */
		if (!realpath(path, real) || stat(real, &st) || !S_ISREG(st.st_mode))
			return 0;
		path = real;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("the output %s is a directory\n", out->path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	/* Not replaced by a rename where the shell's > would refuse it. */
	if (access(path, W_OK))
		return output_error(out->path, errno);
	return output_file__set_target(out, path, st.st_mode & 07777);
}

/* Whether SIGPIPE is ignored: an EPIPE then raised no signal. */
static bool sigpipe_ignored(void)
{
	struct sigaction sa;

	return !sigaction(SIGPIPE, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

/*
 * All of @buf, or an error: stdio takes a short count for one, and a
 * pipe's write is cut short by a signal (SIGPIPE, once its reader went).
 */
static ssize_t output_file__write_fd(void *cookie, const char *buf, size_t size)
{
	struct output_file *out = cookie;
	size_t done = 0;

	/* After an error, no more: each write to a closed pipe is a SIGPIPE. */
	if (out->errnum)
		return 0;
	while (done < size) {
		ssize_t n = write(out->fd, buf + done, size - done);

		if (n > 0) {
			done += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (!out->errnum)
			out->errnum = n < 0 ? errno : EIO;
		break;
	}
	/* fopencookie(3): a count short of @size is a write error. */
	return done;
}

static int output_file__close_fd(void *cookie)
{
	struct output_file *out = cookie;

	if (out->fd == STDOUT_FILENO || !close(out->fd))
		return 0;
	if (!out->errnum)
		out->errnum = errno;
	return -1;
}

/* A stream over @out->fd that keeps the errno of a failed write. */
static FILE *output_file__stream(struct output_file *out)
{
	cookie_io_functions_t io = {
		.write = output_file__write_fd,
		.close = output_file__close_fd,
	};

	out->errnum = 0;
	out->fp = fopencookie(out, "w", io);
	return out->fp;
}

FILE *output_file__open(struct output_file *out)
{
	char *copy;

	if (!out->target) {
		out->fd = strcmp(out->path, "-") ?
			  open(out->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) :
			  STDOUT_FILENO;
		if (out->fd < 0 || !output_file__stream(out)) {
			output_error(out->path, errno);
			if (out->fd > STDOUT_FILENO)
				close(out->fd);
		}
		return out->fp;
	}

	copy = strdup(out->target);
	if (!copy || asprintf(&out->tmp, "%s/.perf-output.XXXXXX", dirname(copy)) < 0) {
		free(copy);
		out->tmp = NULL;
		output_error(out->path, ENOMEM);
		return NULL;
	}
	free(copy);
	out->fd = mkstemp(out->tmp);
	if (out->fd < 0) {
		output_error(out->path, errno);
		zfree(&out->tmp);
		return NULL;
	}
	if (fchmod(out->fd, out->mode) || !output_file__stream(out)) {
		output_error(out->path, errno);
		close(out->fd);
		unlink(out->tmp);
		zfree(&out->tmp);
	}
	return out->fp;
}

int output_file__close(struct output_file *out, int err)
{
	if (out->fp) {
		int ret = fclose(out->fp);

		/* The write's own error says more than a writer's -EIO. */
		if ((ret || out->errnum) && (!err || err == -EIO))
			err = -(out->errnum ?: EIO);
		out->fp = NULL;
	}
	if (!err && out->tmp && rename(out->tmp, out->target))
		err = -errno;
	if (out->tmp) {
		if (err)
			unlink(out->tmp);
		zfree(&out->tmp);
	}
	/*
	 * A reader gone ("| head"): unless SIGPIPE is ignored, its signal
	 * came and the command dies of it, quietly, as perf does.
	 */
	if (err && !(err == -EPIPE && !sigpipe_ignored()))
		output_error(out->path, -err);
	return err;
}

void output_file__exit(struct output_file *out)
{
	zfree(&out->target);
	zfree(&out->tmp);
}

int output_file__refuse_input(const char *path, const char *input)
{
	struct stat in, out;

	if (!strcmp(path, "-") || !strcmp(input, "-") ||
	    stat(input, &in) || stat(path, &out) ||
	    in.st_dev != out.st_dev || in.st_ino != out.st_ino)
		return 0;
	pr_err("the output %s is the input: refusing to overwrite it\n", path);
	return -EINVAL;
}
