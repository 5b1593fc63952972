#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite the kernel release (HEADER_OSRELEASE) of a perf.data file in
place, and the kernel's build-id (in HEADER_BUILD_ID) if one is given.

  perf_data_set_release.py FILE RELEASE [BUILD-ID]

Makes a recording that says it was made on another kernel, for tests of
what perf does with another kernel's recordings. The file layout is
struct perf_file_header (tools/perf/util/header.h): the feature sections
follow the data section, one {offset, size} pair per feature bit set in
adds_features, in bit order. HEADER_OSRELEASE is bit 4 and holds a u32
length and a NUL-padded string of that length; HEADER_BUILD_ID is bit 2
and holds struct perf_record_header_build_id events: a header, a pid,
20 bytes of build-id and 4 more, and a NUL-padded file name.
"""
import struct
import sys

HEADER_BUILD_ID = 2
HEADER_OSRELEASE = 4


def section(f, features, data_end, bit):
    """(offset, size) of feature BIT's section."""
    if not features >> bit & 1:
        sys.exit(f"{f.name}: no feature {bit}")
    f.seek(data_end + 16 * bin(features & ((1 << bit) - 1)).count("1"))
    return struct.unpack("<QQ", f.read(16))


def main():
    path, release = sys.argv[1], sys.argv[2].encode()
    bid = bytes.fromhex(sys.argv[3]) if len(sys.argv) > 3 else None
    with open(path, "r+b") as f:
        hdr = f.read(104)
        if hdr[:8] != b"PERFILE2":
            sys.exit(f"{path}: not a perf.data file")
        data_offset, data_size = struct.unpack_from("<QQ", hdr, 40)
        features = int.from_bytes(hdr[72:104], "little")
        data_end = data_offset + data_size
        offset, _ = section(f, features, data_end, HEADER_OSRELEASE)
        f.seek(offset)
        (length,) = struct.unpack("<I", f.read(4))
        if len(release) >= length:
            sys.exit(f"{path}: no room for {release!r}")
        f.write(release.ljust(length, b"\0"))
        if bid is None:
            return
        offset, size = section(f, features, data_end, HEADER_BUILD_ID)
        f.seek(offset)
        ids = f.read(size)
        pos = 0
        while pos + 8 <= len(ids):
            _, _, ev_size = struct.unpack_from("<IHH", ids, pos)
            if ev_size < 36:
                break
            name = ids[pos + 36:pos + ev_size].split(b"\0")[0]
            if name == b"[kernel.kallsyms]":
                f.seek(offset + pos + 12)
                f.write(bid[:20].ljust(20, b"\0"))
                return
            pos += ev_size
        sys.exit(f"{path}: no build-id of [kernel.kallsyms]")


if __name__ == "__main__":
    main()
