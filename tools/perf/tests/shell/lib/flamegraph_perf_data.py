# SPDX-License-Identifier: GPL-2.0
"""Read and rewrite the records of a one-event perf.data file in place,
for the tests' helpers that make recordings no machine here records.

The layout is struct perf_file_header (tools/perf/util/header.h): the
attributes section (one struct perf_event_attr and its ids' file
section), then the data section, records with a struct
perf_event_header each.
"""
import struct
import sys


class PerfData:
    """A perf.data file open for reading and writing; attr is its one
    event's struct perf_event_attr, as bytes."""

    def __init__(self, path):
        self.path = path
        self.f = open(path, "r+b")
        hdr = self.f.read(104)
        if hdr[:8] != b"PERFILE2":
            sys.exit(f"{path}: not a perf.data file")
        attr_size, self.attrs_offset, attrs_size, self.data_offset, \
            self.data_size = struct.unpack_from("<QQQQQ", hdr, 16)
        if attrs_size != attr_size:
            sys.exit(f"{path}: one event only")
        self.f.seek(self.attrs_offset)
        self.attr = bytearray(self.f.read(attr_size))
        (self.sample_type,) = struct.unpack_from("<Q", self.attr, 24)
        (self.flags,) = struct.unpack_from("<Q", self.attr, 40)

    def write_attr(self):
        self.f.seek(self.attrs_offset)
        self.f.write(self.attr)

    def records(self):
        """(file offset, type, size) of each record, in file order."""
        pos, end = self.data_offset, self.data_offset + self.data_size
        while pos + 8 <= end:
            self.f.seek(pos)
            rtype, _, size = struct.unpack("<IHH", self.f.read(8))
            if size < 8:
                sys.exit(f"{self.path}: bad record at {pos}")
            yield pos, rtype, size
            pos += size

    def read(self, pos, size):
        self.f.seek(pos)
        return self.f.read(size)

    def write(self, pos, data):
        self.f.seek(pos)
        self.f.write(data)

    def close(self):
        self.f.close()
