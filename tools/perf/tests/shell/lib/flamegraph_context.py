#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks of perf flamegraph --asm's functions table (annotate in context)
against perf annotate, perf script, objdump and addr2line, on a recording
of lib/flamegraph_context.c.

  flamegraph_context.py --perf PERF --data P.DATA --json FG.JSON --binary PROG
      [--source FILE] [--max N]

Prints one "ok: ..." line per check, or "FAILED: ..." and exits 1.
"""
import argparse
import bisect
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import flamegraph_check as fc  # noqa: E402  pylint: disable=wrong-import-position


def fail(msg):
    print(f"FAILED: {msg}")
    sys.exit(1)


def frames_of(tree, dso):
    """(path of labels from the comm, node) of every frame with an "F"."""
    out = []

    def walk(node, path):
        if "F" in node:
            out.append((path, node))
        for c in node.get("c", []):
            walk(c, path + [c["n"]])
    for comm in tree["c"]:
        walk(comm, [comm["n"]])
    return [(p, n) for p, n in out if n.get("d") == dso]


def script_samples(perf, data):
    """Each sample's comm and callchain, outermost caller first, as
    (symbol, offset from it, is kernel) triples: perf script -F
    ip,sym,symoff."""
    out = subprocess.run([perf, "script", "--no-inline", "-i", data, "-F", "comm,ip,sym,symoff"],
                         capture_output=True, text=True, check=True)
    samples, comm, chain = [], None, []
    for line in out.stdout.splitlines() + [""]:
        if line.strip() and line.startswith(("\t", " ")):
            parts = line.split(None, 1)
            kernel = int(parts[0], 16) >= 1 << 63
            sym = parts[1].strip() if len(parts) > 1 else "[unknown]"
            name, _, off = sym.rpartition("+0x")
            chain.append((name, int(off, 16), kernel) if name else (sym, None, kernel))
            continue
        if comm is not None:
            samples.append((comm, chain[::-1]))
        comm, chain = (line.strip(), []) if line.strip() else (None, [])
    return samples


def check_code(args, fns, ranges):
    """Each function's code is whole: objdump's instructions of its symbol."""
    by_name = {name: (start, end) for start, (end, name) in ranges.items()}
    for fn in fns:
        if fn["n"] not in by_name or fn["d"] != os.path.basename(args.binary):
            continue
        start, end = by_name[fn["n"]]
        if int(fn["a"], 16) != start:
            fail(f"{fn['n']}: start {fn['a']}, nm says {start:#x}")
        want = fc.objdump_lines(args.binary, start, end)
        got = {int(i[0], 16): i[1] for i in fn["i"]}
        if sorted(got) != sorted(want):
            fail(f"{fn['n']}: addresses {sorted(got)[:8]}..., objdump {sorted(want)[:8]}...")
        for addr, text in want.items():
            if not fc.same_mnemonic(fc.norm(got[addr]).split()[0], text.split()[0]):
                fail(f"{fn['n']} {addr:#x}: {got[addr]!r}, objdump {text!r}")
    work = next((f for f in fns if f["n"] == "work" and
                 f["d"] == os.path.basename(args.binary)), None)
    if not work:
        fail("work() is not in the functions table")
    unsampled = [i for i in work["i"] if i[6] == 0]
    if not unsampled or not any(i[6] for i in work["i"]):
        fail("work() has no unsampled instruction, or no sampled one")
    print(f"ok: the code of {len([f for f in fns if f['n'] in by_name])} functions is whole, "
          f"as objdump decodes their symbols (work: {len(work['i'])} instructions, "
          f"{len(unsampled)} never sampled)")


def check_annotate(args, fns):
    """All-contexts self = perf annotate's periods and samples, and its text."""
    dso = os.path.basename(args.binary)
    periods = fc.annotate(args.perf, args.data, dso, period=True)
    counts = fc.annotate(args.perf, args.data, dso)
    seen = 0
    # perf annotate's addresses are the program's: another DSO's function
    # (ld.so's, sampled at exit) may have code at the same offsets.
    for fn in (f for f in fns if f["d"] == dso):
        for i in fn["i"]:
            addr = int(i[0], 16)
            if addr not in counts:
                continue
            seen += 1
            if fc.norm(i[1]) != counts[addr][1]:
                fail(f"{fn['n']} {addr:#x}: text {i[1]!r}, perf annotate {counts[addr][1]!r}")
            if i[5] != periods[addr][0] or i[6] != counts[addr][0]:
                fail(f"{fn['n']} {addr:#x}: {i[5]} period, {i[6]} samples; perf annotate "
                     f"{periods[addr][0]}, {counts[addr][0]}")
    if seen < len(counts):
        fail(f"{len(counts) - seen} instructions perf annotate shows are not in the table")
    print(f"ok: all contexts: {seen} instructions agree with perf annotate on text, "
          "period and samples")


def context_counts(samples, path, starts):
    """Of the samples whose stack passes the frame at @path (comm first):
    those that end there, by sampled IP, and those that go on, by the
    frame's return address, objdump's (not where a user frame went into
    the kernel: its entry is where it stopped, not a call)."""
    self_at, calls = collections.Counter(), collections.Counter()
    for comm, chain in samples:
        names = [comm] + [c[0] for c in chain]
        if names[:len(path)] != path:
            continue
        sym, off, kernel = chain[len(path) - 2]
        if sym not in starts or off is None:
            continue
        if len(names) == len(path):
            self_at[starts[sym] + off] += 1
        elif chain[len(path) - 1][2] == kernel:
            calls[starts[sym] + off] += 1
    return self_at, calls


def check_context(args, tree, fns, ranges, samples):
    """This context: the leaves and call sites of each frame of the
    program's functions, counted from perf script."""
    starts = {name: start for start, (end, name) in ranges.items()}
    # The program's own functions: crtstuff's (__do_global_dtors_aux, a
    # sample at exit may hit it) have no size for nm to give.
    frames = [(p, n) for p, n in frames_of(tree, os.path.basename(args.binary))
              if fns[n["F"]]["n"] in starts]
    if not frames:
        fail("no frame of the program has a function")
    by_caller, two_sites = {}, None
    for path, node in frames:
        fn = fns[node["F"]]
        if fn["n"] != path[-1].split(" (")[0]:
            fail(f"frame {path[-1]!r} names function {fn['n']!r}")
        self_at, calls = context_counts(samples, path, starts)
        leaves = collections.Counter()
        for c in node["c"]:
            if c.get("k") == "insn":
                leaves[int(c["a"], 16)] += c["s"]
        if leaves != self_at:
            fail(f"{';'.join(path)}: leaves {dict(leaves)}, perf script {dict(self_at)}")
        got = collections.Counter({int(x[0], 16): x[2] for x in node["x"]})
        if got != calls:
            fail(f"{';'.join(path)}: call sites {dict(got)}, perf script {dict(calls)}")
        if path[-1] == "work":
            by_caller[path[-2]] = by_caller.get(path[-2], 0) + sum(leaves.values())
        # The heaviest two_sites frame, by its path on a tie: a sample in
        # its prologue, before it pushed its frame pointer, makes a tiny
        # second one under main's caller, with no call sites.
        weight = sum(leaves.values()) + sum(got.values())
        if path[-1] == "two_sites" and (two_sites is None or
                                        (weight, path) > two_sites[:2]):
            two_sites = (weight, path, fn, got)
    # A sample before work() pushed its frame pointer has main as its caller.
    if by_caller.get("two_sites", 0) == by_caller.get("one_site", 0):
        fail(f"work()'s self in its two callers: {by_caller}")
    if two_sites is None:
        fail("no frame of two_sites()")
    _, _, fn, got = two_sites
    calls = [j for j, i in enumerate(fn["i"]) if "call" in i[1] and "<work>" in i[1]]
    if len(calls) != 2:
        fail(f"two_sites() calls work() {len(calls)} times, not 2")
    hot, cold = (got.get(int(fn["i"][j + 1][0], 16), 0) for j in calls)
    if not hot > cold > 0:
        fail(f"two_sites(): the hot call site has {hot} samples, the cold one {cold}")
    for j in calls:
        ret = fn["i"][j + 1][0]
        total = sum(x[2] for _, n in frames for x in n["x"]
                    if fns[n["F"]]["n"] == "two_sites" and x[0] == ret)
        if fn["i"][j][8] != total:
            fail(f"two_sites() {fn['i'][j][0]}: all contexts {fn['i'][j][8]} samples, "
                 f"its frames' sum {total}")
    print(f"ok: this context: {len(frames)} frames' leaves and call sites agree with perf script; "
          f"work() has {by_caller['two_sites']} samples under two_sites, "
          f"{by_caller['one_site']} under one_site; two_sites()'s hot call {hot}, cold {cold}")


def check_srclines(args, tree, fns):
    """Each instruction's line is addr2line's; the source text is the file's."""
    dso = os.path.basename(args.binary)
    mine = [f for f in fns if f["d"] == dso]
    addrs = [i[0] for f in mine for i in f["i"]]
    out = subprocess.run(["addr2line", "-e", args.binary] + addrs,
                         capture_output=True, text=True, check=True).stdout.splitlines()
    sources = tree["sources"]
    lines = open(args.source, encoding="utf-8").read().split("\n") if args.source else None
    nr = 0
    for (fn, insn), want in zip(((f, i) for f in mine for i in f["i"]), out):
        file, _, line = want.rpartition(":")
        line = line.split(" ")[0]
        if file == "??" or line in ("?", "0"):
            if insn[2] is not None:
                fail(f"{fn['n']} {insn[0]}: {insn[2]}, addr2line has no line")
            continue
        if insn[2] != f"{os.path.basename(file)}:{line}" or insn[4] != int(line):
            fail(f"{fn['n']} {insn[0]}: {insn[2]} (line {insn[4]}), addr2line {want}")
        src = sources[insn[3]]
        if os.path.realpath(src["f"]) != os.path.realpath(file):
            fail(f"{fn['n']} {insn[0]}: source {src['f']}, addr2line {file}")
        if lines is not None and args.stale is None:
            if src["lines"][insn[4] - src["first"]] != lines[insn[4] - 1]:
                fail(f"{file}:{line}: {src['lines'][insn[4] - src['first']]!r}, "
                     f"the file has {lines[insn[4] - 1]!r}")
        nr += 1
    if not nr:
        fail("no instruction has a source line")
    if args.stale is not None:
        src = next(s for s in sources if os.path.realpath(s["f"]) ==
                   os.path.realpath(args.source))
        if src["lines"] or args.stale not in src.get("why", ""):
            fail(f"{src['f']}: lines {len(src['lines'])}, why {src.get('why')!r}, "
                 f"wanted none and {args.stale!r}")
        print(f"ok: {src['f']}: not interleaved: {src['why']}")
        return
    print(f"ok: {nr} instructions' source lines are addr2line's, their text the file's")


def script_chains(perf, data):
    """Each sample's comm, period and callchain, outermost caller first,
    as (symbol, offset from it, is kernel, DSO's file name) tuples: perf
    script -F comm,period,ip,sym,symoff,dso."""
    out = subprocess.run([perf, "script", "--no-inline", "-i", data, "-F",
                          "comm,period,ip,sym,symoff,dso"],
                         capture_output=True, text=True, check=True)
    samples, head, chain = [], None, []
    for line in out.stdout.splitlines() + [""]:
        if line.strip() and line.startswith(("\t", " ")) and head is not None:
            parts = line.split(None, 1)
            kernel = int(parts[0], 16) >= 1 << 63
            sym, _, dso = (parts[1] if len(parts) > 1 else "[unknown]").rpartition(" (")
            dso = os.path.basename(dso.rstrip().rstrip(")"))
            name, _, off = sym.strip().rpartition("+0x")
            chain.append((name, int(off, 16), kernel, dso) if name else
                         (sym.strip(), None, kernel, dso))
            continue
        if head is not None:
            samples.append((head[0], int(head[1]), chain[::-1]))
        head, chain = (line.strip().rsplit(None, 1) if line.strip() else None), []
    return samples


def function_totals(tree, key):
    """Each function's weight (@key "v") or samples ("s") in all contexts:
    its frames', a frame inside another of it (recursion) counted once, as
    the page's all-contexts shares count them."""
    out = collections.Counter()

    def walk(node, inside):
        if "F" in node and node["F"] not in inside:
            out[node["F"]] += fc.total(node, key)
        inner = inside | {node["F"]} if "F" in node else inside
        for c in node["c"]:
            walk(c, inner)
    walk(tree, frozenset())
    return out


def check_calls(args, tree, fns, samples, unwound):
    """The call sites of each frame of the program's functions and each
    call's row in all contexts, from perf script's callchains: a caller's
    entry is in the call instruction (the return address minus 1, from a
    DWARF unwinder: @unwound) or right after it (frame pointers).  Each
    call row counts a sample once, however many frames of a recursion
    passed it; no share passes 100%.  Returns {call address: samples}."""
    ranges = fc.nm_ranges(args.binary)
    starts = {name: start for start, (end, name) in ranges.items()}
    code = fc.objdump_lines(args.binary)
    addrs = sorted(code)

    def insn_at(addr):
        """The instruction that holds @addr, and the one after it."""
        j = bisect.bisect_right(addrs, addr) - 1
        return addrs[j], addrs[j + 1] if j + 1 < len(addrs) else None

    mine = {f["n"] for f in fns if f["d"] == os.path.basename(args.binary)} & set(starts)
    per_frame = collections.defaultdict(collections.Counter)
    through, period = collections.Counter(), collections.Counter()
    for comm, per, chain in samples:
        calls = set()
        for k in range(len(chain) - 1):
            sym, off, kernel, dso = chain[k]
            if (sym not in mine or off is None or chain[k + 1][2] != kernel or
                    dso != os.path.basename(args.binary)):
                continue
            call, ret = insn_at(starts[sym] + off - (0 if unwound else 1))
            if not code[call].startswith("call"):
                fail(f"perf script: {sym}+{off:#x} is in {code[call]!r} at {call:#x}, "
                     "not a call")
            per_frame[tuple([comm] + [c[0] for c in chain[:k + 1]])][ret] += 1
            calls.add(call)
        for call in calls:
            through[call] += 1
            period[call] += per
    frames = [(p, n) for p, n in frames_of(tree, os.path.basename(args.binary))
              if fns[n["F"]]["n"] in mine]
    if not frames:
        fail("no frame of the program has a function")
    nr_sites = 0
    for path, node in frames:
        # "_start (ctx+0x1070)": a name that two DSOs have.
        path = [label.split(" (")[0] for label in path]
        got = collections.Counter({int(x[0], 16): x[2] for x in node["x"]})
        for ret in got:
            if not code.get(insn_at(ret - 1)[0], "").startswith("call"):
                fail(f"{';'.join(path)}: call site {ret:#x} is no return address: "
                     f"objdump has {code.get(insn_at(ret - 1)[0])!r} before it")
        if got != per_frame[tuple(path)]:
            fail(f"{';'.join(path)}: call sites {dict(got)}, "
                 f"perf script {dict(per_frame[tuple(path)])}")
        if sum(x[1] for x in node["x"]) > fc.total(node):
            fail(f"{';'.join(path)}: its calls weigh more than the frame")
        nr_sites += len(got)
    weights, counts = function_totals(tree, "v"), function_totals(tree, "s")
    rows = {}
    for j, fn in enumerate(fns):
        for i in fn["i"]:
            if i[7] > weights[j] or i[8] > counts[j] or i[5] > weights[j]:
                fail(f"{fn['n']} {i[0]}: calls {i[7]} ({i[8]} samples), self {i[5]}, "
                     f"of {weights[j]} ({counts[j]} samples) in all its frames: over 100%")
            if fn["n"] not in mine or fn["d"] != os.path.basename(args.binary):
                continue
            addr = int(i[0], 16)
            if i[8] and not code[addr].startswith("call"):
                fail(f"{fn['n']} {i[0]}: {i[8]} samples through {code[addr]!r}, no call")
            if (i[8], i[7]) != (through[addr], period[addr]):
                fail(f"{fn['n']} {i[0]} {i[1]!r}: calls {i[7]} ({i[8]} samples); "
                     f"perf script: {period[addr]} ({through[addr]} samples) pass it")
            if i[8]:
                rows[addr] = i[8]
    print(f"ok: {'DWARF' if unwound else 'frame-pointer'} callchains: {nr_sites} call sites of "
          f"{len(frames)} frames and {len(rows)} call rows agree with perf script's "
          f"{len(samples)} samples, each counted once per call; no share over 100%")
    return rows, code, starts


def check_dwarf(args, tree, fns):
    """--call-graph dwarf gives the call sites -g gives: every call of
    the program to its own functions is passed in both."""
    fp_tree = json.load(open(args.fp_json, encoding="utf-8"))
    got = {}
    for name, unwound, data, t in (("-g", False, args.fp_data, fp_tree),
                                   ("dwarf", True, args.data, tree)):
        rows, code, starts = check_calls(args, t, t["functions"],
                                         script_chains(args.perf, data), unwound)
        got[name] = rows
    want = {a for a, text in code.items()
            if text.startswith("call") and
            any(text.endswith(f"<{f}>") for f in ("work", "two_sites", "one_site"))}
    if len(want) != 5:
        fail(f"objdump: {len(want)} calls of work, two_sites and one_site, not 5")
    for name, rows in got.items():
        if not want <= set(rows):
            fail(f"{name}: no samples through the calls at "
                 f"{sorted(hex(a) for a in want - set(rows))}")
    print(f"ok: -g and dwarf: the program's {len(want)} calls all have samples: "
          + ", ".join(f"{a:#x} {got['-g'][a]}/{got['dwarf'][a]}" for a in sorted(want)))


def check_recursion(args, tree, fns):
    """A recursive fib(): each call row counts a sample once."""
    rows, code, starts = check_calls(args, tree, fns, script_chains(args.perf, args.data),
                                     False)
    fib = [a for a, text in code.items() if text.startswith("call") and
           text.endswith("<fib>") and starts["fib"] <= a < starts["fib_loop"]]
    if len(fib) != 2 or not all(rows.get(a) for a in fib):
        fail(f"fib()'s recursive calls {[hex(a) for a in fib]}: samples {rows}")
    print(f"ok: fib()'s recursive calls: {', '.join(f'{a:#x} {rows[a]}' for a in fib)} "
          "samples, each once")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--data", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--source")
    ap.add_argument("--stale", help="the source changed: the reason expected")
    ap.add_argument("--max", type=int, help="--annotate-functions given")
    ap.add_argument("--dwarf", action="store_true",
                    help="--data is a --call-graph dwarf recording; --fp-data "
                         "and --fp-json a -g one")
    ap.add_argument("--fp-data")
    ap.add_argument("--fp-json")
    ap.add_argument("--recursion", action="store_true", help="the fib mode's recording")
    args = ap.parse_args()

    with open(args.json, encoding="utf-8") as f:
        tree = json.load(f)
    fns = tree.get("functions")
    if not fns:
        fail("no functions table")
    ranges = {s: r for s, r in fc.nm_ranges(args.binary).items()
              if r[1] in ("work", "two_sites", "one_site", "main")}
    if args.dwarf:
        check_dwarf(args, tree, fns)
        return
    if args.recursion:
        check_recursion(args, tree, fns)
        return
    if args.max is not None:
        if len(fns) != args.max:
            fail(f"--annotate-functions={args.max}: {len(fns)} functions")
        names = {fns[n["F"]]["n"] for _, n in frames_of(tree, os.path.basename(args.binary))}
        print(f"ok: --annotate-functions={args.max}: the table has {len(fns)}, "
              f"frames of {sorted(names)} name it")
        return
    check_code(args, fns, ranges)
    check_srclines(args, tree, fns)
    if args.stale is not None:
        return
    check_annotate(args, fns)
    check_context(args, tree, fns, ranges, script_samples(args.perf, args.data))


if __name__ == "__main__":
    main()
