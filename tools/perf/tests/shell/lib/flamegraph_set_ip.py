#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Move samples to an instruction no timer interrupt hits reliably.

Usage: flamegraph_set_ip.py PERF_DATA LOW HIGH IP N
rewrites PERF_DATA in place: the first N samples whose IP is in
[LOW, HIGH) get IP as their IP and as the callchain entry that held it
(a frame-pointer callchain's first after its context marker), as if the
program had been interrupted there.  Addresses in hex, a non-PIE
binary's, as nm prints them.

PERF_RECORD_SAMPLE is read as perf_event.h lays it out for the
sample_type; the file through flamegraph_perf_data.py.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flamegraph_perf_data import PerfData  # noqa: E402

PERF_RECORD_SAMPLE = 9
# sample_type bits before the callchain, in the order of the record.
SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME = 1 << 16, 1 << 0, 1 << 1, 1 << 2
SAMPLE_ADDR, SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU = 1 << 3, 1 << 6, 1 << 9, 1 << 7
SAMPLE_PERIOD, SAMPLE_READ, SAMPLE_CALLCHAIN = 1 << 8, 1 << 4, 1 << 5
BEFORE = [SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR,
          SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_PERIOD]


def main():
    path = sys.argv[1]
    low, high, new = (int(x, 16) for x in sys.argv[2:5])
    want = int(sys.argv[5])
    changed = 0
    data = PerfData(path)
    sample_type = data.sample_type
    if not sample_type & SAMPLE_IP or not sample_type & SAMPLE_CALLCHAIN or \
            sample_type & SAMPLE_READ:
        sys.exit(f"{path}: an IP, a callchain and no read values wanted")
    ip_off = 8 if sample_type & SAMPLE_IDENTIFIER else 0
    off = 8 * sum(1 for b in BEFORE if sample_type & b)
    for pos, rtype, size in data.records():
        if rtype != PERF_RECORD_SAMPLE or changed == want:
            continue
        body = data.read(pos + 8, size - 8)
        (ip,) = struct.unpack_from("<Q", body, ip_off)
        (nr,) = struct.unpack_from("<Q", body, off)
        ips = struct.unpack_from(f"<{nr}Q", body, off + 8)
        if not low <= ip < high or ip not in ips[:2]:
            continue
        data.write(pos + 8 + ip_off, struct.pack("<Q", new))
        data.write(pos + 8 + off + 8 + 8 * ips.index(ip), struct.pack("<Q", new))
        changed += 1
    data.close()
    if changed != want:
        sys.exit(f"{path}: {changed} samples in [{low:#x}, {high:#x}), not {want}")
    print(f"{changed} samples moved to {new:#x}")


if __name__ == "__main__":
    main()
