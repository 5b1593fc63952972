/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_DSO_REPLACED_H
#define __PERF_DSO_REPLACED_H

#include <stdbool.h>
#include <stddef.h>

struct dso;

/**
 * dso__replaced_since_mmap - is the file at a DSO's path another file than
 *                            the one that was mapped when recording?
 * @dso: a user-space DSO, with the identity (dso_id) of the MMAP2 record
 *       that created it
 * @msg: buffer for a one-line reason, written only when true is returned
 * @size: size of @msg in bytes
 *
 * A DSO with a build-id is perf's own business: symsrc__init() rejects a
 * file whose build-id differs, and the build-id cache supplies the one
 * recorded.  Without a build-id (pipe mode writes no build-id table, and
 * some binaries have no build-id note) the device and inode numbers of the
 * MMAP2 record are the only identity left.  The inode number is compared,
 * then the inode generation (FS_IOC_GETVERSION, where the file system has
 * it), as file systems give the number of a deleted file to the next new
 * one: a linker writing a new binary over the old path often gets the
 * same number.  The device is not compared: btrfs subvolumes and
 * overlayfs give stat() other device numbers than the kernel puts in
 * MMAP2 records; and overlayfs with xino sets the high bits of st_ino, so
 * only the low 32 bits of the inode numbers are compared.
 *
 * Not checked: DSOs without an inode in their record (anonymous memory,
 * the kernel, MMAP records), files that can't be stat()ed (perf's own
 * missing-binary handling applies) and everything with --symfs, whose
 * copies have inodes of their own.  A binary overwritten in place keeps
 * its inode and is not detected.
 *
 * Return: true if the file at the DSO's path is not the one mapped.
 */
bool dso__replaced_since_mmap(struct dso *dso, char *msg, size_t size);

#endif /* __PERF_DSO_REPLACED_H */
