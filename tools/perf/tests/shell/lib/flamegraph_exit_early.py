#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Move every EXIT event of a recording a little earlier in time.

A task's last samples can come after its PERF_RECORD_EXIT in time order,
as perf processes events: perf report keeps the task's thread, and so
its comm, for them (symbol_conf.keep_exited_threads).  A recording of
short-lived children made on a quiet machine rarely has such samples;
this makes them: each EXIT's time, and the time of its sample_id
trailer (which perf orders events by), goes back by USEC microseconds.

Usage: flamegraph_exit_early.py PERF_DATA USEC
rewrites PERF_DATA in place and prints how many EXIT events moved.

The layout is struct perf_file_header (tools/perf/util/header.h), one
struct perf_event_attr, and PERF_RECORD_EXIT as perf_event.h lays it
out: header, pid, ppid, tid, ptid, time, then the sample_id of
sample_id_all.
"""
import struct
import sys

PERF_RECORD_EXIT = 4
SAMPLE_TID, SAMPLE_TIME = 1 << 1, 1 << 2


def main():
    path, shift = sys.argv[1], int(sys.argv[2]) * 1000
    moved = 0
    with open(path, "r+b") as f:
        hdr = f.read(104)
        if hdr[:8] != b"PERFILE2":
            sys.exit(f"{path}: not a perf.data file")
        attr_size, attrs_offset, attrs_size, data_offset, data_size = \
            struct.unpack_from("<QQQQQ", hdr, 16)
        if attrs_size != attr_size:
            sys.exit(f"{path}: one event only")
        f.seek(attrs_offset)
        attr = f.read(attr_size)
        (sample_type,) = struct.unpack_from("<Q", attr, 24)
        (flags,) = struct.unpack_from("<Q", attr, 40)
        if not flags & 1 << 18 or not sample_type & SAMPLE_TIME:
            sys.exit(f"{path}: no sample_id_all with a time")
        # Offsets in the record: the sample_id after the 32 bytes of the
        # EXIT itself, { pid, tid } first if SAMPLE_TID, then the time.
        trailer_time = 32 + (8 if sample_type & SAMPLE_TID else 0)
        pos, end = data_offset, data_offset + data_size
        while pos + 8 <= end:
            f.seek(pos)
            rtype, _, size = struct.unpack("<IHH", f.read(8))
            if size < 8:
                sys.exit(f"{path}: bad record at {pos}")
            if rtype == PERF_RECORD_EXIT and size >= trailer_time + 8:
                f.seek(pos + 24)
                (time,) = struct.unpack("<Q", f.read(8))
                for off in (24, trailer_time):
                    f.seek(pos + off)
                    f.write(struct.pack("<Q", max(time - shift, 0)))
                moved += 1
            pos += size
    print(moved)


if __name__ == "__main__":
    main()
