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
        elif name in ("phases", "nodes", "nodes-noasm", "resolved"):
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
        if "resolved" in ex:
            print(f"Samples resolved by perf: {ex['resolved']} (frame-pointer "
                  "callchains only; a process's MMAP, COMM, FORK or EXIT "
                  "makes its stacks resolve again).\n")
        targets(data, times, ex)
        nodes = ex.get("nodes")
        sizes = [(fn, sz) for (k, fn), sz in
                 ((k, v) for k, v in ex.items() if isinstance(k, tuple))
                 if k == "size"]
        if nodes and sizes:
            # fg.html is the graph without --asm: its own frame count.
            per = {fn: int(ex.get("nodes-noasm", nodes)) if fn == "fg.html"
                   else int(nodes) for fn, _ in sizes}
            print("Output: " + ", ".join(
                f"{fn} {sz} bytes ({sz / per[fn]:.0f} per frame)"
                for fn, sz in sorted(sizes)) + ".\n")
    if os.environ.get("SELF") and os.path.exists(os.environ["SELF"]):
        self_profile(os.environ["SELF"])


def targets(data, times, ex):
    """The targets of make bench, from the medians of this run."""
    def med(name, i):
        t = times.get((data, name))
        return statistics.median(x[i] for x in t) if t else None

    asm, plain = med("flamegraph --asm (json)", 0), med("flamegraph", 0)
    script, py = med("perf script", 0), med("flamegraph.py (json)", 1)
    asm_cpu, rss = med("flamegraph --asm (json)", 1), med("flamegraph --asm (json)", 2)
    report_rss = med("report -g none", 2)
    if None in (asm, plain, script, py, asm_cpu, rss, report_rss):
        return
    rows = [
        ("--asm (json) wall / perf script wall", f"{asm / script:.2f}", "<= 0.70"),
        ("--asm (json) wall / without --asm", f"{asm / plain:.2f}", "<= 1.30"),
        ("flamegraph.py CPU / --asm (json) CPU", f"{py / asm_cpu:.1f}", ">= 12"),
        ("--asm (json) peak RSS / report -g none's", f"{rss / report_rss:.2f}", "<= 1.00"),
    ]
    # The whole code of the 100 hottest functions (--annotate-functions): a
    # cost of about the same size on any profile, whose targets are the
    # ~1M-sample one's; the others show the ratios alone.
    big = data == "cc-1M"
    html, html0 = med("flamegraph --asm (html)", 0), med("flamegraph --asm --annotate-functions=0 (html)", 0)
    size, size0 = ex.get(("size", "fg-asm.html")), ex.get(("size", "fg-asm0.html"))
    if html and html0:
        rows.append(("--asm (html) wall / with --annotate-functions=0", f"{html / html0:.2f}",
                     "<= 1.10" if big else "(cc-1M's)"))
    if size and size0:
        rows.append(("--asm page size / with --annotate-functions=0", f"{size / size0:.2f}",
                     "<= 1.25" if big else "(cc-1M's)"))
    print("| target | this run | wanted |")
    print("|---|---:|---:|")
    for what, got, want in rows:
        print(f"| {what} | {got} | {want} |")
    print()


# What perf flamegraph --asm calls, and perf's own code under it.
PARTS = [
    ("perf_session__process_events", "reading and resolving events"),
    ("machine__resolve", "resolving the sample IP (perf)"),
    ("__thread__resolve_callchain", "resolving callchains (perf)"),
    ("flamegraph__find_stack", "stacks and callers seen before"),
    ("flamegraph__walk", "the tree"),
    ("flamegraph__decode_insns", "decoding the sampled instructions"),
    ("flamegraph__add_srclines", "source lines of the hottest instructions"),
    ("flamegraph__finish", "labels, totals, sorting"),
    ("flamegraph__write_session", "writing the HTML"),
    ("perf_session__delete", "freeing perf's session"),
    ("flamegraph__exit", "freeing the tree"),
]


def self_profile(path):
    """Inclusive shares of PARTS and the hottest functions, from folded."""
    total, incl, own = 0, collections.Counter(), collections.Counter()
    comms = collections.Counter()
    for line in open(path):
        stack, n = line.rstrip("\n").rsplit(" ", 1)
        n = int(n)
        comms[stack.split(";")[0]] += n
        frames = stack.split(";")[1:]
        total += n
        for name in {f for f in frames}:
            incl[name] += n
        if frames:
            own[frames[-1]] += n
    if not total:
        return
    print("## Where perf flamegraph --asm spends its time (cc-1M)\n")
    print(f"`perf record -g` of `perf flamegraph --asm` on cc-1M, {total} "
          "samples, shown by perf flamegraph itself (the `--asm` graph is "
          "build/bench/self.html). Shares of the run, one thread; libc's "
          "allocator, zlib and LLVM have no frame pointers, so some of "
          "their samples appear outside their callers.\n")
    print("| function | what | share |")
    print("|---|---|---:|")
    for fn, what in PARTS:
        if incl[fn]:
            print(f"| `{fn}` | {what} | {100 * incl[fn] / total:.1f}% |")
    if comms["objdump"]:
        print(f"| (objdump) | the objdump processes, on the other CPU | "
              f"{100 * comms['objdump'] / total:.1f}% |")
    dis = incl["flamegraph__decode_insns"] + comms["objdump"]
    print(f"\nDecoding, all of it (in perf and in objdump processes): "
          f"{100 * dis / total:.1f}% of the samples.")
    print("\nHottest functions (self):", ", ".join(
        f"`{fn}` {100 * n / total:.1f}%" for fn, n in own.most_common(10)) + ".\n")


if __name__ == "__main__":
    main()
