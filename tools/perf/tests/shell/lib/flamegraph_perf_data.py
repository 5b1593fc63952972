# SPDX-License-Identifier: GPL-2.0
"""Read and rewrite the records of a perf.data file in place, for the
tests' helpers that make recordings no machine here records.

The layout is struct perf_file_header (tools/perf/util/header.h): the
attributes section (per event, a struct perf_event_attr and its ids'
file section), then the data section, records with a struct
perf_event_header each, then the feature sections, whose table of
struct perf_file_section follows the data, one per bit set in the
header's adds_features, in bit order.
"""
import struct
import sys


HEADER_EVENT_DESC = 12
PERF_RECORD_SAMPLE = 9
# The PERF_SAMPLE_* fields before the callchain, in the order of
# PERF_RECORD_SAMPLE in perf_event.h, each a u64; READ is of variable size.
SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME = 1 << 16, 1 << 0, 1 << 1, 1 << 2
SAMPLE_ADDR, SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU = 1 << 3, 1 << 6, 1 << 9, 1 << 7
SAMPLE_PERIOD, SAMPLE_READ, SAMPLE_CALLCHAIN = 1 << 8, 1 << 4, 1 << 5
BEFORE_CALLCHAIN = [SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR,
                    SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_PERIOD]


class PerfData:
    """A perf.data file open for reading and writing; attrs are its
    events' struct perf_event_attr (with their ids' file section), as
    bytes, attr the first's."""

    def __init__(self, path, one_event=True):
        self.path = path
        self.f = open(path, "r+b")
        hdr = self.f.read(104)
        if hdr[:8] != b"PERFILE2":
            sys.exit(f"{path}: not a perf.data file")
        self.attr_size, self.attrs_offset, attrs_size, self.data_offset, \
            self.data_size = struct.unpack_from("<QQQQQ", hdr, 16)
        if one_event and attrs_size != self.attr_size:
            sys.exit(f"{path}: one event only")
        (self.features,) = struct.unpack_from("<32s", hdr, 72)
        self.f.seek(self.attrs_offset)
        self.attrs = [bytearray(self.f.read(self.attr_size))
                      for _ in range(attrs_size // self.attr_size)]
        self.attr = self.attrs[0]
        (self.sample_type,) = struct.unpack_from("<Q", self.attr, 24)
        (self.flags,) = struct.unpack_from("<Q", self.attr, 40)

    def write_attr(self, nth=0):
        self.f.seek(self.attrs_offset + nth * self.attr_size)
        self.f.write(self.attrs[nth])

    def feature(self, feat):
        """(file offset, size) of a feature section, or None."""
        bits = int.from_bytes(self.features, "little")
        if not bits >> feat & 1:
            return None
        nth = bin(bits & ((1 << feat) - 1)).count("1")
        self.f.seek(self.data_offset + self.data_size + 16 * nth)
        return struct.unpack("<QQ", self.f.read(16))

    def event_descs(self):
        """Each event's entry in HEADER_EVENT_DESC, as file offsets: its
        struct perf_event_attr (of the section's attr size), and its name,
        a u32 length, then the name padded with NULs to it:
        (attr offset, attr size, name offset, name room)."""
        pos, _ = self.feature(HEADER_EVENT_DESC)
        nr, attr_size = struct.unpack("<II", self.read(pos, 8))
        pos += 8
        descs = []
        for _ in range(nr):
            nr_ids, length = struct.unpack("<II", self.read(pos + attr_size, 8))
            descs.append((pos, attr_size, pos + attr_size + 8, length))
            pos += attr_size + 8 + length + 8 * nr_ids
        return descs

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

    def sample_offsets(self):
        """The offsets of the IP and of the callchain in the body of a
        PERF_RECORD_SAMPLE (after its header) of the first event; exits
        unless it has both and no read values."""
        st = self.sample_type
        if not st & SAMPLE_IP or not st & SAMPLE_CALLCHAIN or st & SAMPLE_READ:
            sys.exit(f"{self.path}: an IP, a callchain and no read values wanted")
        return (8 if st & SAMPLE_IDENTIFIER else 0,
                8 * sum(1 for b in BEFORE_CALLCHAIN if st & b))

    def read(self, pos, size):
        self.f.seek(pos)
        return self.f.read(size)

    def write(self, pos, data):
        self.f.seek(pos)
        self.f.write(data)

    def close(self):
        self.f.close()
