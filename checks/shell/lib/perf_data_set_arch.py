#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Rewrite the architecture (HEADER_ARCH) of a perf.data file in place.

Makes a profile that says it was recorded on another architecture, for
tests of what perf does with foreign profiles. The file layout is
struct perf_file_header (tools/perf/util/header.h): the feature sections
follow the data section, one {offset, size} pair per feature bit set in
adds_features, in bit order; HEADER_ARCH is bit 6 and holds a u32 length
and a NUL-padded string of that length.
"""
import struct
import sys

HEADER_ARCH = 6


def main():
    path, arch = sys.argv[1], sys.argv[2].encode()
    with open(path, "r+b") as f:
        hdr = f.read(104)
        if hdr[:8] != b"PERFILE2":
            sys.exit(f"{path}: not a perf.data file")
        data_offset, data_size = struct.unpack_from("<QQ", hdr, 40)
        features = int.from_bytes(hdr[72:104], "little")
        if not features >> HEADER_ARCH & 1:
            sys.exit(f"{path}: no HEADER_ARCH")
        index = bin(features & ((1 << HEADER_ARCH) - 1)).count("1")
        f.seek(data_offset + data_size + 16 * index)
        offset, _ = struct.unpack("<QQ", f.read(16))
        f.seek(offset)
        (length,) = struct.unpack("<I", f.read(4))
        if len(arch) >= length:
            sys.exit(f"{path}: no room for {arch!r}")
        f.write(arch.ljust(length, b"\0"))


if __name__ == "__main__":
    main()
