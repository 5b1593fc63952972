#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a recording of two instances of one software event look like one
of a hybrid machine's cycles, as perf record -e cycles opens it there:
once per core type, on each core PMU.

Usage: flamegraph_hybrid.py PERF_DATA
rewrites PERF_DATA, recorded with -e cpu-clock,cpu-clock, in place: the
first event becomes cpu_core/cycles/, the second cpu_atom/cycles/, both
PERF_TYPE_HARDWARE with PERF_COUNT_HW_CPU_CYCLES and the PMU's type in
the config above PERF_PMU_TYPE_SHIFT (4 and 10, as on an Alder Lake), in
the attributes section and in HEADER_EVENT_DESC, which names them.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from flamegraph_perf_data import PerfData  # noqa: E402

PERF_TYPE_HARDWARE = 0
PERF_PMU_TYPE_SHIFT = 32
INSTANCES = [(b"cpu_core/cycles/", 4), (b"cpu_atom/cycles/", 10)]


def main():
    data = PerfData(sys.argv[1], one_event=False)
    descs = data.event_descs()
    if len(data.attrs) != 2 or len(descs) != 2:
        sys.exit(f"{data.path}: not a recording of two events")
    for nth, (name, pmu_type) in enumerate(INSTANCES):
        attr = data.attrs[nth]
        struct.pack_into("<I", attr, 0, PERF_TYPE_HARDWARE)
        struct.pack_into("<Q", attr, 8, pmu_type << PERF_PMU_TYPE_SHIFT)
        data.write_attr(nth)
        attr_pos, attr_size, name_pos, room = descs[nth]
        data.write(attr_pos, attr[:attr_size])
        if len(name) >= room:
            sys.exit(f"{data.path}: no room for the name {name}")
        data.write(name_pos, name.ljust(room, b"\0"))
    data.close()


if __name__ == "__main__":
    main()
