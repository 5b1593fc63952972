#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite a pipe recording (perf record -o -) as an older perf writes
one: without header features or build-ids, so that nothing but the paths
of its kernel module maps says which kernel it was made on.

  perf_data_pipe_old.py IN OUT [MODULE-PATH]

Record IN with --no-buildid-mmap: the kernel's map must have no
build-id. OUT gets IN's records but for its PERF_RECORD_HEADER_FEATURE
and PERF_RECORD_HEADER_BUILD_ID events and its kernel module maps; with MODULE-PATH (e.g.
/lib/modules/4.9.0-4-amd64/kernel/fs/ext4/ext4.ko), one module map of
that path follows the kernel's map, as perf record synthesizes them.

A pipe recording is a struct perf_pipe_file_header (the magic, then its
size, 16) and events, each a struct perf_event_header (u32 type, u16
misc, u16 size). A PERF_RECORD_MMAP is pid and tid (u32), start, len and
pgoff (u64), the file name NUL-padded to 8 bytes, then the sample_id of
the events' sample_id_all, as long as the kernel map's.
"""
import struct
import sys

PERF_RECORD_MMAP = 1
PERF_RECORD_MMAP2 = 10
PERF_RECORD_HEADER_BUILD_ID = 67
PERF_RECORD_HEADER_FEATURE = 80
PERF_RECORD_MISC_CPUMODE_MASK = 7
PERF_RECORD_MISC_KERNEL = 1
PERF_RECORD_MISC_MMAP_BUILD_ID = 1 << 14
KERNEL_MAP = b"[kernel.kallsyms]"
# Where x86_64 loads modules; elsewhere right after the kernel map.
MODULES_START = 0xffffffffc0000000
MODULE_SIZE = 0x80000


def mmap_fields(rtype, rec):
    """pid, start, len and the file name and its end of an MMAP or MMAP2."""
    pid, _, start, length = struct.unpack_from("<IIQQ", rec, 8)
    name_at = 40 if rtype == PERF_RECORD_MMAP else 72
    end = rec.index(b"\0", name_at)
    return pid, start, length, rec[name_at:end], end


def main():
    src, dst = sys.argv[1], sys.argv[2]
    module = sys.argv[3].encode() if len(sys.argv) > 3 else None
    with open(src, "rb") as f:
        data = f.read()
    magic, hdr_size = struct.unpack_from("<8sQ", data, 0)
    if magic != b"PERFILE2" or hdr_size != 16:
        sys.exit(f"{src}: not a pipe recording")
    out = [data[:16]]
    pos, kernel_maps = 16, 0
    while pos + 8 <= len(data):
        rtype, misc, size = struct.unpack_from("<IHH", data, pos)
        if size < 8 or pos + size > len(data):
            sys.exit(f"{src}: bad event at {pos}")
        rec = bytearray(data[pos:pos + size])
        pos += size
        if rtype in (PERF_RECORD_HEADER_FEATURE, PERF_RECORD_HEADER_BUILD_ID):
            continue
        if rtype not in (PERF_RECORD_MMAP, PERF_RECORD_MMAP2) or \
           misc & PERF_RECORD_MISC_CPUMODE_MASK != PERF_RECORD_MISC_KERNEL:
            out.append(bytes(rec))
            continue
        pid, start, length, name, end = mmap_fields(rtype, rec)
        if not name.startswith(KERNEL_MAP):
            continue                # a module map of the recording kernel
        if rtype == PERF_RECORD_MMAP2 and misc & PERF_RECORD_MISC_MMAP_BUILD_ID:
            sys.exit(f"{src}: a kernel build-id: record with --no-buildid-mmap")
        kernel_maps += 1
        if module is None:
            out.append(bytes(rec))
            continue
        # The module after the kernel, the kernel's map ending below it.
        mod_start = MODULES_START
        if not start < MODULES_START:
            mod_start = (start + length + 0xfff) & ~0xfff
            if mod_start + MODULE_SIZE > 1 << 64 or mod_start <= start:
                sys.exit(f"{src}: no room for a module after the kernel map")
        elif start + length > mod_start or start + length < start:
            struct.pack_into("<Q", rec, 24, mod_start - start)
        out.append(bytes(rec))
        sample_id = rec[(end + 8) & ~7:]
        name_room = (len(module) + 8) & ~7
        mmap = struct.pack("<IHH", PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL,
                           40 + name_room + len(sample_id))
        mmap += struct.pack("<IIQQQ", pid, 0, mod_start, MODULE_SIZE, 0)
        out.append(mmap + module.ljust(name_room, b"\0") + sample_id)
    if kernel_maps != 1:
        sys.exit(f"{src}: {kernel_maps} kernel maps, not one")
    with open(dst, "wb") as f:
        f.write(b"".join(out))


if __name__ == "__main__":
    main()
