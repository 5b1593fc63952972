// SPDX-License-Identifier: GPL-2.0
/*
 * Writing a flame graph without ever leaving a half-written file where
 * the user's previous output was: see flamegraph-output.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "flamegraph-output.h"

static int output_error(const char *path, int errnum)
{
	pr_err("cannot write %s: %s\n", path, strerror(errnum));
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

static int flamegraph_output__set_target(struct flamegraph_output *out,
					 const char *target, mode_t mode)
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

int flamegraph_output__init(struct flamegraph_output *out, const char *path)
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

	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return output_error(path, errno);
		mask = umask(0);
		umask(mask);
		return flamegraph_output__set_target(out, path, 0666 & ~mask);
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
	return flamegraph_output__set_target(out, path, st.st_mode & 07777);
}

/*
 * The writers put a character at a time: take the stream's lock once, not
 * in every call, as glibc does in a process that has had a second thread
 * (the symbol prefetcher's), even after it ended.  Held until
 * flamegraph_output__close().
 */
static FILE *flamegraph_output__lock(FILE *fp)
{
	if (fp)
		flockfile(fp);
	return fp;
}

FILE *flamegraph_output__open(struct flamegraph_output *out)
{
	char *copy;
	int fd;

	if (!out->target) {
		out->fp = strcmp(out->path, "-") ? fopen(out->path, "w") : stdout;
		if (!out->fp)
			output_error(out->path, errno);
		return flamegraph_output__lock(out->fp);
	}

	copy = strdup(out->target);
	if (!copy || asprintf(&out->tmp, "%s/.perf-flamegraph.XXXXXX", dirname(copy)) < 0) {
		free(copy);
		out->tmp = NULL;
		output_error(out->path, ENOMEM);
		return NULL;
	}
	free(copy);
	fd = mkstemp(out->tmp);
	if (fd < 0) {
		output_error(out->path, errno);
		zfree(&out->tmp);
		return NULL;
	}
	if (!fchmod(fd, out->mode))
		out->fp = fdopen(fd, "w");
	if (!out->fp) {
		output_error(out->path, errno);
		close(fd);
		unlink(out->tmp);
		zfree(&out->tmp);
	}
	return flamegraph_output__lock(out->fp);
}

int flamegraph_output__close(struct flamegraph_output *out, int err)
{
	if (out->fp) {
		int ret;

		funlockfile(out->fp);
		ret = out->fp == stdout ? fflush(stdout) : fclose(out->fp);

		/* The stream's own error says more than a writer's -EIO. */
		if (ret && (!err || err == -EIO))
			err = -errno;
		out->fp = NULL;
	}
	if (!err && out->tmp && rename(out->tmp, out->target))
		err = -errno;
	if (out->tmp) {
		if (err)
			unlink(out->tmp);
		zfree(&out->tmp);
	}
	if (err)
		output_error(out->path, -err);
	return err;
}

void flamegraph_output__exit(struct flamegraph_output *out)
{
	zfree(&out->target);
	zfree(&out->tmp);
}
