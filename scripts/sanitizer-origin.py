#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sanitizer-origin.py LOG: exit 0 if a sanitizer report in LOG starts in
our code (builtin-flamegraph.c, util/flamegraph*, and the precise-callchain
fixup in util/callchain.c, told by its functions' names), 1 otherwise. A
report starts in the first stack frame that is not in the sanitizer runtime
or a system library; UBSan names its file directly (so a UBSan report in the
fixup counts as perf's own)."""

import re
import sys

OURS = re.compile(r"(builtin-flamegraph|util/flamegraph|callchain__fixup_)")
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ in (\S+) (\S+)")
UBSAN = re.compile(r"^(\S+?):\d+:\d+: runtime error")


def origins(lines):
    first = None
    for line in lines:
        m = UBSAN.match(line)
        if m:
            yield m.group(1)
            continue
        if "ERROR: AddressSanitizer" in line or "leak of" in line:
            first = None
            continue
        m = FRAME.match(line)
        if m and first is None:
            where = m.group(2)
            if "libsanitizer" in where or where.startswith("/lib") or \
               where.startswith("/usr/lib") or where.startswith("("):
                continue
            first = where
            yield m.group(1) + " " + where


def main():
    with open(sys.argv[1], errors="replace") as f:
        lines = f.read().splitlines()
    sys.exit(0 if any(OURS.search(o) for o in origins(lines)) else 1)


if __name__ == "__main__":
    main()
