#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Move samples to an instruction no timer interrupt hits reliably.

Usage: flamegraph_set_ip.py PERF_DATA LOW HIGH IP N
rewrites PERF_DATA in place: the first N samples whose IP is in
[LOW, HIGH) get IP as their IP and as the callchain entry that held it
(a frame-pointer callchain's first after its context marker), as if the
program had been interrupted there.  Addresses in hex, a non-PIE
binary's, as nm prints them.

The file is read and written through flamegraph_perf_data.py.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flamegraph_perf_data import PerfData, PERF_RECORD_SAMPLE  # noqa: E402


def main():
    path = sys.argv[1]
    low, high, new = (int(x, 16) for x in sys.argv[2:5])
    want = int(sys.argv[5])
    changed = 0
    data = PerfData(path)
    ip_off, off = data.sample_offsets()
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
