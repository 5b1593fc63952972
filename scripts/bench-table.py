#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn scripts/bench-flamegraph.sh's results.txt into the Markdown of
Documentation/benchmarks.md."""
import collections
import os
import platform
import statistics
import subprocess
import sys


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    perf = subprocess.run([os.environ.get("PERF", "perf"), "version"],
                          capture_output=True, text=True).stdout.strip()
    return (f"{os.cpu_count()} CPUs ({cpu}), {platform.system()} "
            f"{platform.release()}, {perf}")


def main():
    path, runs = sys.argv[1], int(sys.argv[2])
    times = collections.defaultdict(list)
    extra = collections.defaultdict(dict)
    order, profiles = [], []
    samples = {}
    for line in open(path):
        data, nr, name, rest = line.rstrip("\n").split("|", 3)
        samples[data] = nr
        if data not in profiles:
            profiles.append(data)
        if rest.startswith("execve "):
            extra[data][(name, "procs")] = int(rest.split()[1]) - 1
        elif name in ("phases", "nodes"):
            extra[data][name] = rest
        elif name == "size":
            fn, size = rest.split()
            extra[data][("size", fn)] = int(size)
        else:
            wall, user, sys_, rss = rest.split()
            times[(data, name)].append((float(wall), float(user) + float(sys_),
                                        int(rss) / 1024))
            if name not in order:
                order.append(name)

    print("# perf flamegraph benchmarks\n")
    print("Written by `make bench` (scripts/bench-flamegraph.sh); rerun it to "
          "reproduce. Medians of", runs, "runs, the commands run in alternation.")
    print(f"\nMachine: {machine()}.\n")
    print("Profiles (cpu-clock, period 100 us, frame-pointer call graphs unless "
          "named dwarf): `xz -9` of 50 MB of random bytes; the same at a 10 us "
          "period (ten times the samples, the same stacks); two python3 "
          "processes encoding and decoding JSON; gcc -O2 of a generated file "
          "of 2000 functions, two at a time; python3 with `--call-graph dwarf`.\n")
    for data in profiles:
        ex = extra[data]
        print(f"## {data}: {samples[data]} samples, {ex.get('nodes', '?')} "
              "frames in the --asm flame graph\n")
        print("| command | wall s | user+sys s | peak RSS MB | wall / perf script "
              "| processes started |")
        print("|---|---:|---:|---:|---:|---:|")
        base = statistics.median(t[0] for t in times[(data, "perf script")])
        for name in order:
            t = times[(data, name)]
            wall = statistics.median(x[0] for x in t)
            cpu = statistics.median(x[1] for x in t)
            rss = statistics.median(x[2] for x in t)
            procs = ex.get((name, "procs"), "?")
            print(f"| {name} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | "
                  f"{wall / base if base else 0:.2f} | {procs} |")
        print()
        if "phases" in ex:
            print(f"perf flamegraph --asm (html) with -v: {ex['phases']} "
                  "(milliseconds; -v itself adds some).\n")
        nodes = ex.get("nodes")
        sizes = [(fn, sz) for (k, fn), sz in
                 ((k, v) for k, v in ex.items() if isinstance(k, tuple))
                 if k == "size"]
        if nodes and sizes:
            print("Output: " + ", ".join(
                f"{fn} {sz} bytes ({sz / int(nodes):.0f} per frame)"
                for fn, sz in sorted(sizes)) + ".\n")


if __name__ == "__main__":
    main()
