// SPDX-License-Identifier: GPL-2.0
/*
 * Tell whether the binary at a DSO's path was replaced since it was
 * mapped, for DSOs that have no build-id to tell it by.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "dso.h"
#include "dso-replaced.h"
#include "symbol.h"

/*
 * The inode's generation, which tells a new file from an old one that had
 * the same inode number: file systems reuse the numbers of deleted files
 * at once.  -1 where the file system doesn't say (FS_IOC_GETVERSION).
 */
static s64 file__generation(const char *path)
{
	unsigned int gen;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	err = ioctl(fd, FS_IOC_GETVERSION, &gen);
	close(fd);
	return err ? -1 : (s64)gen;
}

bool dso__replaced_since_mmap(struct dso *dso, char *msg, size_t size)
{
	const struct dso_id *id = dso__id(dso);
	const char *path = dso__long_name(dso);
	struct stat st;
	s64 gen;

	if (dso__has_build_id(dso) || id->ino == 0)
		return false;
	if (symbol_conf.symfs && *symbol_conf.symfs)
		return false;
	if (path[0] != '/' || stat(path, &st) || !S_ISREG(st.st_mode))
		return false;
	if ((u32)st.st_ino != (u32)id->ino) {
		snprintf(msg, size,
			 "replaced since the recording (inode %" PRIu64 ", recorded %" PRIu64 ")",
			 (u64)st.st_ino, id->ino);
		return true;
	}
	/*
	 * Synthesized MMAP2 records (/proc/PID/maps) have no generation,
	 * and those of perf inject --jit a made-up one (util/jitdump.c).
	 */
	if (id->ino_generation == 0 ||
	    (id->ino_generation == 1 && strstr(path, "/jitted-")))
		return false;
	gen = file__generation(path);
	if (gen < 0 || (u32)gen == (u32)id->ino_generation)
		return false;
	snprintf(msg, size,
		 "replaced since the recording (inode generation %llu, recorded %llu)",
		 (unsigned long long)gen, (unsigned long long)id->ino_generation);
	return true;
}
