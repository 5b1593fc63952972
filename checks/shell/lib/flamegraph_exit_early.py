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

PERF_RECORD_EXIT is read as perf_event.h lays it out: header, pid,
ppid, tid, ptid, time, then the sample_id of sample_id_all; the file
through flamegraph_perf_data.py.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flamegraph_perf_data import PerfData  # noqa: E402

PERF_RECORD_EXIT = 4
SAMPLE_TID, SAMPLE_TIME = 1 << 1, 1 << 2


def main():
    path, shift = sys.argv[1], int(sys.argv[2]) * 1000
    moved = 0
    data = PerfData(path)
    if not data.flags & 1 << 18 or not data.sample_type & SAMPLE_TIME:
        sys.exit(f"{path}: no sample_id_all with a time")
    # Offsets in the record: the sample_id after the 32 bytes of the EXIT
    # itself, { pid, tid } first if SAMPLE_TID, then the time.
    trailer_time = 32 + (8 if data.sample_type & SAMPLE_TID else 0)
    for pos, rtype, size in data.records():
        if rtype != PERF_RECORD_EXIT or size < trailer_time + 8:
            continue
        (time,) = struct.unpack("<Q", data.read(pos + 24, 8))
        for off in (24, trailer_time):
            data.write(pos + off, struct.pack("<Q", max(time - shift, 0)))
        moved += 1
    data.close()
    print(moved)


if __name__ == "__main__":
    main()
