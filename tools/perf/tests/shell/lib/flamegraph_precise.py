#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a frame-pointer recording look like one of a precise event.

With precise events the sample IP is the instruction that caused the
event, but the kernel takes the callchain at the interrupt, which may be
past that instruction: after a call, its top entry is the first
instruction of the callee, and the sampled function is missing.

Usage: flamegraph_precise.py PERF_DATA CALLEE
rewrites PERF_DATA in place so that its event is precise
(attr.precise_ip = 2) and, for every other sample whose callchain starts
with its context marker and its IP, that entry is CALLEE, the address of
the start of a function (a non-PIE binary's, as nm prints it).  perf
puts the IP back (callchain__fixup_precise_ip() in util/callchain.c): the
flame graph of the rewritten file must be the one of the original.

The file is read and written through flamegraph_perf_data.py.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flamegraph_perf_data import PerfData, PERF_RECORD_SAMPLE  # noqa: E402

PERF_CONTEXT_MAX = (1 << 64) - 4095


def main():
    path, callee = sys.argv[1], int(sys.argv[2], 16)
    changed = nth = 0
    data = PerfData(path)
    ip_off, off = data.sample_offsets()
    struct.pack_into("<Q", data.attr, 40, data.flags | 2 << 15)
    data.write_attr()
    for pos, rtype, size in data.records():
        if rtype != PERF_RECORD_SAMPLE:
            continue
        body = data.read(pos + 8, size - 8)
        (ip,) = struct.unpack_from("<Q", body, ip_off)
        (nr,) = struct.unpack_from("<Q", body, off)
        ips = struct.unpack_from(f"<{nr}Q", body, off + 8)
        nth += 1
        if nr >= 2 and ips[0] >= PERF_CONTEXT_MAX and ips[1] == ip and nth % 2:
            data.write(pos + 8 + off + 16, struct.pack("<Q", callee))
            changed += 1
    data.close()
    print(f"{changed} of {nth} samples' callchains made to start at {callee:#x}")


if __name__ == "__main__":
    main()
