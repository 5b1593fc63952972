#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks for the perf flamegraph shell tests.

Compares the output of 'perf flamegraph' with what perf annotate, perf
script, nm, objdump and addr2line say about the same profile.  Each check prints what it
compared and exits non-zero on the first mismatch.
"""

import argparse
import collections
import json
import re
import subprocess
import sys


def fail(msg):
    print(f"FAIL: {msg}")
    sys.exit(1)


def walk(node, path=()):
    """Yield (path, node) for every node, path being the ancestors."""
    yield path, node
    for child in node["c"]:
        yield from walk(child, path + (node,))


def total(node, key="v"):
    """The node's total: its weight ("v") or its samples ("s")."""
    return node[key] + sum(total(c, key) for c in node["c"])


def frames(node, name, kind="func"):
    """Every node of KIND named NAME, depth first."""
    return [n for _, n in walk(node)
            if n["k"] == kind and n["n"] == name]


def heaviest(node, name):
    """The --diff frame of function NAME with the most weight in either
    recording: the call the program makes, not a stack a frame-pointer
    walk from a prologue (before the frame is set up) cut short."""
    return max(frames(node, name), key=lambda n: n["old"] + n["new"],
               default=None)


def pb_fields(data):
    """A protobuf message's fields: [(number, value)], a varint's value an
    int, a length-delimited one's its bytes (profile.proto uses no other
    wire type)."""
    i, out = 0, []

    def varint():
        nonlocal i
        v = s = 0
        while True:
            b = data[i]
            i += 1
            v |= (b & 0x7f) << s
            s += 7
            if b < 0x80:
                return v
    while i < len(data):
        tag = varint()
        if tag & 7 == 0:
            out.append((tag >> 3, varint()))
        elif tag & 7 == 2:
            n = varint()
            out.append((tag >> 3, data[i:i + n]))
            i += n
        else:
            raise SystemExit(f"wire type {tag & 7}")
    return out


def norm(text):
    return " ".join(text.split())


# The address as perf prints it ("%#" PRIx64): 0 without "0x", as in the
# code of a BPF program, whose image starts at 0.
INSN_RE = re.compile(r"^(.*) \[(0x[0-9a-f]+|0)\]$")
# " 26 :   1234:       shrq    $1, %rdx" with --show-nr-samples, the
# period in the same column with --show-total-period; no space after the
# address in the lines of a BPF program that libopcodes decodes.
ANNOTATE_RE = re.compile(r"^\s*(\d+)\s+:\s+([0-9a-f]+):\s*(.*?)\s*$")
HEADER_RE = re.compile(r"Disassembly of (.+) for ")
OBJDUMP_FUNC_RE = re.compile(r"^\s*:\s+\d+\s+[0-9a-f]{8,16} <(.+)>:$")
INPROCESS_FUNC_RE = re.compile(r"^\s*:\s+\d+\s+0x[0-9a-f]+ <(.+)>:$")


class Annotated(dict):
    """annotate()'s addresses, and the names of the functions perf
    annotate could not show (unshown)."""
    unshown = frozenset()


def func_name(node):
    """A frame's function name without the " (dso+0x...)" that tells two
    of the same name apart."""
    return re.sub(r" \([^()]*\+0x[0-9a-f]+\)$", "", node["n"])


def annotate(perf, data, dso, objdump=None, style=None, period=False, symbol=None):
    """objdump address -> (samples, text, whole) for @dso, from perf
    annotate (of the functions named @symbol alone, if given); (period,
    text, whole) with @period.  whole is the name of
    the function when perf annotate gave it to objdump whole, after an
    in-process disassembler stopped on bytes it can't decode (the
    padding after _init, which has no size of its own): perf flamegraph
    decodes each sampled address, as documented, with that disassembler,
    whose text differs from objdump's."""
    extra = ["--objdump", objdump] if objdump else []
    extra += ["-M", style] if style else []
    extra += ["--show-total-period" if period else "-n"]
    extra += [symbol] if symbol else []
    out = subprocess.run([perf, "annotate", "--stdio", "-i", data] + extra,
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        fail(f"perf annotate exited {out.returncode}: {out.stderr[-300:]}")
    result = Annotated()
    # "Couldn't annotate _init:": a function no disassembler of
    # annotate.disassemblers decodes whole, shown not at all.
    result.unshown = set(re.findall(r"^Couldn't annotate (.+):$", out.stderr, re.M))
    cur = whole = None
    # A perf whose annotate decodes with objdump alone (no LLVM or
    # capstone, annotate.disassemblers=objdump) gives no function to it
    # whole: every one is objdump's, in perf flamegraph too.
    in_process = any(INPROCESS_FUNC_RE.match(l) for l in out.stdout.splitlines())
    for line in out.stdout.splitlines():
        hdr = HEADER_RE.search(line)
        if hdr:
            cur, whole = hdr.group(1), None
            continue
        # objdump's "0000000000001000 <_init>:", where LLVM and capstone
        # print "0x1000 <_init>:".
        fn = OBJDUMP_FUNC_RE.match(line)
        if fn and not objdump and in_process:
            whole = fn.group(1)
            continue
        m = ANNOTATE_RE.match(line)
        if m and cur and cur.endswith(dso):
            addr = int(m.group(2), 16)
            count, text = int(m.group(1)), norm(m.group(3))
            old = result.get(addr)
            result[addr] = ((old[0] if old else 0) + count, text, whole)
    return result


def nr_samples(perf, data, event=None):
    cmd = [perf, "script", "-G", "-F", "event", "-i", data]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    if event:
        lines = [l for l in lines if l.strip().rstrip(":") == event]
    return len(lines)


def nm_ranges(binary):
    """objdump start address -> (end, name) of the function symbols.
    One without a size (crtstuff's __do_global_dtors_aux, which a
    sample at exit may hit) ends where the next symbol starts."""
    out = subprocess.run(["nm", "-S", "-n", "--defined-only", binary],
                         capture_output=True, text=True, check=True)
    ranges, starts = {}, []
    for line in out.stdout.splitlines():
        f = line.split()
        if len(f) >= 3:
            starts.append(int(f[0], 16))
        if len(f) == 4 and f[2] in "tTwW":
            start = int(f[0], 16)
            ranges[start] = (start + int(f[1], 16), f[3])
        elif len(f) == 3 and f[1] in "tTwW":
            ranges.setdefault(int(f[0], 16), (None, f[2]))
    for start, (end, name) in ranges.items():
        if end is None:
            end = min((s for s in starts if s > start), default=start + 1)
            ranges[start] = (end, name)
    return ranges


OBJDUMP_LINE_RE = re.compile(r"^\s*([0-9a-f]+):\s+(.*?)\s*$")


def objdump_lines(binary, start=None, stop=None):
    """objdump address -> text, from objdump -d of @binary or a range of it."""
    cmd = ["objdump", "-d", "--no-show-raw-insn"]
    if start is not None:
        cmd += [f"--start-address={start:#x}", f"--stop-address={stop:#x}"]
    out = subprocess.run(cmd + [binary], capture_output=True, text=True, check=True)
    insns = {}
    for line in out.stdout.splitlines():
        m = OBJDUMP_LINE_RE.match(line)
        if m and m.group(2):
            insns[int(m.group(1), 16)] = norm(m.group(2))
    return insns


class Objdump:
    """The instruction objdump prints at an address of @binary when it
    starts decoding there.  One sweep of the whole binary gives most of
    them: where it has an instruction at an address, decoding from that
    address gives the same one.  An address the sweep went past (data in
    code put it out of step) gets an objdump of its own, started there."""

    def __init__(self, binary):
        self.binary = binary
        self.sweep = objdump_lines(binary)

    def at(self, addr):
        if addr not in self.sweep:
            self.sweep[addr] = objdump_lines(self.binary, addr, addr + 16).get(addr)
        return self.sweep[addr]


# capstone 4 names the 64-bit move between a general register and an
# XMM register (66 REX.W 0F 6E/7E) movd, objdump movq.
ALIASES = {("movd", "movq"), ("movq", "movd")}


def same_mnemonic(ours, theirs):
    """capstone says movq where objdump says mov: an AT&T size suffix aside."""
    if ours == theirs or (ours, theirs) in ALIASES:
        return True
    longer, shorter = (ours, theirs) if len(ours) > len(theirs) else (theirs, ours)
    return (len(longer) == len(shorter) + 1 and longer.startswith(shorter) and
            longer[-1] in "bwlq")


def check_objdump(args, tree):
    """The leaves are the instructions objdump prints at their addresses of
    @binary, with or without a symbol above them: the same mnemonic, and
    objdump's very text (but the spaces after commas) for the mnemonics
    matching --objdump-exact."""
    objdump = Objdump(args.objdump_binary)
    exact = re.compile(args.objdump_exact) if args.objdump_exact else None
    nr = nr_exact = 0
    for parent, leaf in insn_leaves(tree, args.dso):
        if parent.get("k") not in ("func", "unknown"):
            fail(f"{leaf['n']!r} hangs under a {parent.get('k')} node")
        m = INSN_RE.match(leaf["n"])
        if not m or not m.group(1):
            fail(f"leaf without instruction text: {leaf['n']!r}")
        addr = int(leaf["a"], 16)
        if int(m.group(2), 16) != addr:
            fail(f"label address {m.group(2)} != \"a\" {leaf['a']}")
        text = objdump.at(addr)
        if not text:
            fail(f"{leaf['n']!r}: objdump prints nothing at {addr:#x} "
                 f"in {args.objdump_binary}")
        ours = norm(m.group(1))
        if not same_mnemonic(ours.split()[0], text.split()[0]):
            fail(f"{leaf['n']!r} is not objdump's {text!r} at {addr:#x} "
                 f"in {args.objdump_binary}")
        # The operands too: LLVM's and capstone's text puts a space
        # after each comma, objdump's none.
        if exact and exact.match(text.split()[0]):
            if re.sub(r", ", ",", ours) != re.sub(r", ", ",", text):
                fail(f"{addr:#x}: {ours!r}, objdump prints {text!r}")
            nr_exact += 1
        nr += 1
    if nr == 0:
        fail("no instruction leaves to compare with objdump")
    if exact and nr_exact == 0:
        fail(f"no leaf of {args.dso} is an instruction matching {args.objdump_exact!r}")
    print(f"{nr} instruction leaves are objdump's instructions at their addresses "
          f"of {args.objdump_binary}" +
          (f", {nr_exact} with objdump's text" if exact else ""))


def insn_leaves(tree, dso):
    for path, node in walk(tree):
        if node.get("k") == "insn" and node.get("d") == dso:
            yield path[-1], node


def check_leaves(tree):
    """Each sampled address is one instruction: one leaf per address under
    a frame, labelled with that address ("[0x...]" alone without text).
    A frame without a symbol in a DSO is "[unknown] (<dso>)"."""
    nr = 0
    for _, node in walk(tree):
        if node.get("k") == "unknown" and "d" in node and \
           node["n"] != f"[unknown] ({node['d']})":
            fail(f"frame {node['n']!r} of {node['d']} without a symbol")
        seen = set()
        for leaf in node["c"]:
            if leaf.get("k") != "insn":
                continue
            m = INSN_RE.match(leaf["n"]) or re.match(r"^()\[(0x[0-9a-f]+|0)\]$", leaf["n"])
            if not m or m.group(2) != leaf.get("a"):
                fail(f"leaf {leaf['n']!r} is not labelled with its address {leaf.get('a')}")
            if leaf["a"] in seen:
                fail(f"two leaves for {leaf['a']} under {node['n']!r}")
            seen.add(leaf["a"])
            nr += 1
    print(f"{nr} instruction leaves, one per sampled address of their frame")


def check_annotate(args, tree):
    key, unit = ("v", "period") if args.annotate_period else ("s", "samples")
    ann = annotate(args.perf, args.data, args.dso, args.annotate_objdump,
                   args.annotate_style, args.annotate_period)
    if not ann:
        fail(f"perf annotate shows no instructions of {args.dso}")
    # perf annotate --stdio shows no function of a DSO after one it
    # couldn't annotate (dso__annotate_warned()): ask for those by name.
    missing = {func_name(parent) for parent, leaf in insn_leaves(tree, args.dso)
               if parent.get("k") != "unknown" and int(leaf["a"], 16) not in ann}
    for name in sorted(missing - ann.unshown):
        more = annotate(args.perf, args.data, args.dso, args.annotate_objdump,
                        args.annotate_style, args.annotate_period, symbol=name)
        added = [ann.setdefault(addr, value) for addr, value in more.items()
                 if addr not in ann]
        ann.unshown |= more.unshown
        if added:
            print(f"{name}: perf annotate shows it alone, not after a function "
                  "of its DSO that it couldn't annotate")
    counts = {}
    whole, unshown = set(), set()
    nr = 0
    for parent, leaf in insn_leaves(tree, args.dso):
        if parent.get("k") == "unknown":
            # No symbol: perf annotate can't show it, objdump can (below).
            continue
        m = INSN_RE.match(leaf["n"])
        if not m or not m.group(1):
            fail(f"leaf without instruction text: {leaf['n']!r}")
        addr = int(m.group(2), 16)
        if int(leaf["a"], 16) != addr:
            fail(f"label address {m.group(2)} != \"a\" {leaf['a']}")
        if addr not in ann and func_name(parent) in ann.unshown:
            unshown.add(func_name(parent))
            continue
        if addr not in ann:
            fail(f"{leaf['n']!r}: perf annotate has no instruction at {addr:#x}")
        if ann[addr][2]:
            whole.add(ann[addr][2])
        elif not args.annotate_counts and norm(m.group(1)) != ann[addr][1]:
            fail(f"{addr:#x}: flamegraph {m.group(1)!r} != annotate {ann[addr][1]!r}")
        if parent.get("k") != "func":
            fail(f"{leaf['n']!r} hangs under a {parent.get('k')} node")
        counts[addr] = counts.get(addr, 0) + leaf[key]
        nr += 1
    if nr == 0:
        fail(f"no instruction leaves for {args.dso}")
    for addr, (count, text, _) in ann.items():
        if counts.get(addr, 0) != count:
            fail(f"{addr:#x} {text!r}: flamegraph {counts.get(addr, 0)} {unit}, "
                 f"annotate {count}")
    print(f"{nr} instruction leaves of {args.dso} agree with perf annotate "
          f"on {'' if args.annotate_counts else 'text and on '}the {unit} "
          f"of {len(counts)} addresses")
    if whole:
        print("the samples alone where perf annotate gives a function to objdump whole: "
              + ", ".join(sorted(whole)))
    if unshown:
        print("not compared, as perf annotate can't show them: " + ", ".join(sorted(unshown)))


# "    98.94%        200039          2059  faults  [.] many"
REPORT_RE = re.compile(r"^\s*([0-9.]+)%\s+(\d+)\s+(\d+)\s+(\S+)\s+\[.\] (.*?)\s*$")


def check_report_periods(args, tree):
    """The period and samples of each function of @dso, and its share of
    the total period, are perf report's (--no-children, sorted by dso and
    symbol); so are the totals. The periods must vary, or weighing by
    samples would pass too."""
    out = subprocess.run([args.perf, "report", "--no-inline", "--stdio", "-i", args.data,
                          "--no-children", "-g", "none", "--sort", "dso,sym",
                          "-F", "overhead,period,sample,dso,sym"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        fail(f"perf report exited {out.returncode}: {out.stderr[-300:]}")
    want, all_period, all_samples = {}, 0, 0
    event = None
    for line in out.stdout.splitlines():
        # perf report shows each event in a section of its own.
        m = re.match(r"# Samples: .* of event '(.*)'$", line)
        if m:
            event = m.group(1)
        m = REPORT_RE.match(line)
        if not m or (args.event and event != args.event):
            continue
        share, period, samples, dso, sym = m.groups()
        all_period += int(period)
        all_samples += int(samples)
        if dso == args.dso:
            # Functions that share a name (statics): one line each.
            old = want.get(sym, (0.0, 0, 0, 0))
            want[sym] = (old[0] + float(share), old[1] + int(period),
                         old[2] + int(samples), old[3] + 1)
    if total(tree) != all_period or total(tree, "s") != all_samples:
        fail(f"flame graph: period {total(tree)} in {total(tree, 's')} samples, "
             f"perf report: {all_period} in {all_samples}")
    got = {}
    for _, node in walk(tree):
        if node.get("k") != "func" or node.get("d") != args.dso:
            continue
        # Functions that share a name carry their DSO offset: drop it.
        name = re.sub(r" \([^()]*\+0x[0-9a-f]+\)$", "", node["n"])
        insns = [c for c in node["c"] if c["k"] == "insn"]
        period, samples = got.get(name, (0, 0))
        got[name] = (period + node["v"] + sum(c["v"] for c in insns),
                     samples + node["s"] + sum(c["s"] for c in insns))
    got = {k: v for k, v in got.items() if v != (0, 0)}
    if set(got) != set(want):
        fail(f"functions of {args.dso}: {sorted(got)}, perf report: {sorted(want)}")
    for sym, (share, period, samples, nr) in want.items():
        ours = got[sym]
        if ours != (period, samples) or \
                abs(100.0 * period / all_period - share) > 0.005 * nr:
            fail(f"{sym}: period {ours[0]} in {ours[1]} samples, perf report "
                 f"{share}%: {period} in {samples}")
    if all(period == samples for _, period, samples, _ in want.values()):
        fail(f"every sample of {args.dso} has period 1: periods do not vary")
    print(f"{len(want)} functions of {args.dso}: perf report's period, samples "
          f"and share of {all_period} in {all_samples} samples")


def check_ranges(args, tree):
    ranges = nm_ranges(args.binary)
    nr = 0
    for parent, leaf in insn_leaves(tree, args.dso):
        if parent.get("k") != "func":
            fail(f"{leaf['n']!r} of {args.dso} has no function")
        start = int(parent["a"], 16)
        if start not in ranges:
            fail(f"{parent['n']!r}: no symbol starts at {start:#x} in nm")
        end, name = ranges[start]
        if not parent["n"].startswith(name):
            fail(f"{parent['n']!r} at {start:#x} is {name} in nm")
        addr = int(leaf["a"], 16)
        if not start <= addr < end:
            fail(f"{leaf['n']!r} outside {name} [{start:#x}, {end:#x})")
        nr += 1
    print(f"{nr} instruction leaves lie inside their function's symbol range")


def check_same_name(args, tree):
    nodes = {}
    for _, node in walk(tree):
        if node.get("k") == "func" and node["n"].split(" ")[0] == args.same_name:
            nodes.setdefault(node["a"], []).append(node)
    if len(nodes) != 2:
        fail(f"expected two {args.same_name} functions, got {sorted(nodes)}")
    labels = {n["n"] for group in nodes.values() for n in group}
    if len(labels) != 2:
        fail(f"the two {args.same_name} functions share labels: {labels}")
    for addr, group in nodes.items():
        mine = {c["a"] for n in group for c in n["c"] if c.get("k") == "insn"}
        for other, ogroup in nodes.items():
            if other == addr:
                continue
            theirs = {c["a"] for n in ogroup for c in n["c"] if c.get("k") == "insn"}
            if mine & theirs:
                fail(f"{args.same_name}@{addr} shares instructions with @{other}")
    print(f"two {args.same_name} functions: {sorted(labels)}")


def folded_total(path):
    tot = 0
    stacks = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            frames, count = line.rstrip("\n").rsplit(" ", 1)
            if not frames:
                fail(f"empty stack in {path}")
            tot += int(count)
            stacks += 1
    return tot, stacks


def script_stacks(perf, data, inline=False):
    """Samples per stack, comm then outermost caller first, from perf script."""
    # perf flamegraph shows no inline frames unless --inline: nor may
    # the references, which show them by default.
    out = subprocess.run([perf, "script", "--inline" if inline else "--no-inline", "-i", data,
                          "-F", "comm,ip,sym"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        fail(f"perf script exited {out.returncode}: {out.stderr[-300:]}")
    stacks = collections.Counter()
    comm, frames = None, []
    for line in out.stdout.splitlines() + [""]:
        if line.strip() and line.startswith(("\t", " ")):
            parts = line.split(None, 1)
            frames.append(parts[1].strip() if len(parts) > 1 else "[unknown]")
            continue
        if comm is not None:
            stacks[";".join([comm] + frames[::-1])] += 1
        comm, frames = (line.strip(), []) if line.strip() else (None, [])
    return stacks


def check_script_stacks(args):
    """Every sample's stack (no --asm) is the callchain perf script prints."""
    want = script_stacks(args.perf, args.data, args.script_inline)
    got = collections.Counter()
    with open(args.script_folded, encoding="utf-8") as f:
        for line in f:
            stack, n = line.rsplit(" ", 1)
            frames = stack.split(";")
            # A stack the kernel cut, at its default 127 entries, hangs
            # under [truncated]: perf script shows its 127 frames.
            if len(frames) > 1 and frames[1] == "[truncated]":
                del frames[1]
                if len(frames) - 1 != 127:
                    fail(f"{len(frames) - 1} frames under [truncated]: {stack[:200]}")
            elif len(frames) - 1 == 127:
                fail(f"127 frames, the kernel's limit, not under [truncated]: {stack[:200]}")
            # Functions that share a name carry their DSO offset, and a
            # frame without a symbol its DSO ("[unknown] ([vdso])"):
            # perf script says neither.
            got[";".join(re.sub(r"^\[unknown\] \([^()]*\)$", "[unknown]",
                                re.sub(r" \([^()]*\+0x[0-9a-f]+\)$", "", frame))
                         for frame in frames)] += int(n)
    # A callchain with an invalid context marker resolves to nothing:
    # perf script prints no stack, perf flamegraph (like perf report)
    # counts the sample in its own function.
    empty = collections.Counter()
    for key in [k for k in want if ";" not in k]:
        empty[key] += want.pop(key)
    for key in [k for k in got if (got[k] > want[k] and k.count(";") == 1 and
                                   empty[k.split(";")[0]] > 0)]:
        n = min(got[key] - want[key], empty[key.split(";")[0]])
        empty[key.split(";")[0]] -= n
        got[key] -= n
    got = +got
    if got != want or sum(empty.values()):
        diff = [(k, got[k], want[k]) for k in set(got) | set(want) if got[k] != want[k]]
        fail(f"{len(diff)} stacks differ from perf script's, e.g. {diff[:3]}")
    print(f"{sum(got.values())} samples in {len(got)} stacks, each as perf script's callchain")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--perf", default="perf")
    ap.add_argument("--data", required=True)
    ap.add_argument("--json", required=True)
    ap.add_argument("--dso")
    ap.add_argument("--binary")
    ap.add_argument("--same-name")
    ap.add_argument("--folded")
    ap.add_argument("--html")
    ap.add_argument("--event")
    ap.add_argument("--annotate", action="store_true")
    ap.add_argument("--annotate-objdump")
    ap.add_argument("--annotate-style")
    # perf annotate decodes a symbol with objdump when capstone can't
    # decode all of it, perf flamegraph each address with capstone where
    # it can: compare the samples alone, the text with --objdump-binary.
    ap.add_argument("--annotate-counts", action="store_true")
    # Compare periods with perf annotate --show-total-period, not samples.
    ap.add_argument("--annotate-period", action="store_true")
    ap.add_argument("--report-periods", action="store_true")
    ap.add_argument("--script-folded")
    # It was written with --inline: so is perf script's.
    ap.add_argument("--script-inline", action="store_true")
    ap.add_argument("--objdump-binary")
    ap.add_argument("--objdump-exact", metavar="MNEMONIC_REGEX")
    args = ap.parse_args()

    with open(args.json, encoding="utf-8") as f:
        tree = json.load(f)
    if tree["n"] != "all":
        fail(f"root is {tree['n']!r}")

    want = nr_samples(args.perf, args.data, args.event)
    got = total(tree, "s")
    if got != want or want == 0:
        fail(f"{got} samples in the flame graph, {want} in {args.data}")
    print(f"JSON parses; its {got} samples equal perf script's")
    weight = total(tree)
    check_leaves(tree)

    if args.annotate:
        check_annotate(args, tree)
    if args.report_periods:
        check_report_periods(args, tree)
    if args.script_folded:
        check_script_stacks(args)
    if args.binary:
        check_ranges(args, tree)
    if args.objdump_binary:
        check_objdump(args, tree)
    if args.same_name:
        check_same_name(args, tree)
    if args.folded:
        tot, stacks = folded_total(args.folded)
        leaves = sum(1 for _, n in walk(tree) if n["v"])
        if tot != weight or stacks != leaves:
            fail(f"folded: {tot} ({tree['weight']}) in {stacks} stacks, "
                 f"JSON: {weight} in {leaves}")
        print(f"folded output: {tot} ({tree['weight']}) in {stacks} stacks, as JSON")
    if args.html:
        with open(args.html, encoding="utf-8") as f:
            html = f.read()
        if re.search(r"<(link|img|iframe|script|object|embed)[^>]*\s(src|href|data)\s*=|"
                     r"https?://|//cdn|@import|\bfetch\(|XMLHttpRequest|WebSocket",
                     html):
            fail("HTML references an external resource")
        data = re.search(r'<script type="application/json" id="fg-data">(.*?)</script>',
                         html, re.S)
        if not data:
            fail("HTML embeds no data")
        page = json.loads(data.group(1))
        if expand(page["root"], page["strings"], page["info"], page) != tree:
            fail("HTML does not embed the JSON tree")
        print(f"HTML is self-contained and embeds the same tree "
              f"({len(page['strings'])} distinct strings)")
        if args.binary and args.dso:
            check_srclines(args, page)


def check_srclines(args, page):
    """The source lines of @dso's hot instructions in the HTML page are
    addr2line's for the same addresses of @binary (base name:line)."""
    strings, got = page["strings"], {}

    def walk_compact(node):
        label, flags, dso, _self, addr, srcline, kids, _samples = node[:8]
        if flags & 7 == KINDS.index("insn") and srcline >= 0 and \
           dso >= 0 and strings[dso] == args.dso:
            got[addr] = strings[srcline]
        for k in kids:
            walk_compact(k)
    walk_compact(page["root"])
    if not got:
        fail(f"no source lines for the instructions of {args.dso}")
    addrs = sorted(got)
    out = subprocess.run(["addr2line", "-e", args.binary] + addrs,
                         capture_output=True, text=True, check=True)
    for addr, line in zip(addrs, out.stdout.splitlines()):
        path, _, nr = line.split(" (discriminator")[0].rpartition(":")
        want = f"{path.rsplit('/', 1)[-1]}:{nr}"
        if got[addr] != want:
            fail(f"{addr}: source line {got[addr]!r}, addr2line says {want!r}")
    print(f"{len(got)} hot instructions of {args.dso}: addr2line's source lines")


KINDS = ["root", "comm", "func", "unknown", "insn", "truncated"]


def page_functions(page):
    """The page's "functions" as the JSON writes them: each instruction
    [address, text, file:line, source, line, self, samples, calls,
    call samples]; see tools/perf/util/flamegraph-viewer.js."""
    out = []
    for fn in page.get("functions", []):
        rows = []
        for e in fn["i"]:
            src = page["sources"][e[2]] if e[2] >= 0 else None
            srcline = e[4] if len(e) > 4 else \
                f"{src['f'].rsplit('/', 1)[-1]}:{e[3]}" if src else None
            rows.append([hex(int(fn["a"], 16) + e[0]), e[1], srcline, e[2], e[3],
                         0, 0, 0, 0])
        for w in fn["w"]:
            rows[w[0]][5:] = w[1:]
        out.append({k: v for k, v in fn.items() if k not in ("i", "w")} | {"i": rows})
    return out


def expand(node, strings, info=None, page=None):
    """The HTML's compact node as the JSON writer writes it: see
    tools/perf/util/flamegraph-viewer.js for the layout; the root's
    weight, event, unit and report_total are in the page's info, its
    functions and sources in @page."""
    label, flags, dso, self_, addr, _srcline, kids, samples = node[:8]
    out = {"n": strings[label], "l": "kernel" if flags & 8 else "",
           "v": self_, "s": samples}
    if info:
        out["weight"] = info["weight"]
        if "event" in info:
            out["event"] = info["event"]
        if info["weight"] == "samples":
            out["unit"] = "samples"
        elif "unit" in info:
            out["unit"] = info["unit"]
        if "report_total" in info:
            out["report_total"] = info["report_total"]
    if info and page and page.get("functions"):
        out["functions"] = page_functions(page)
        out["sources"] = page["sources"]
    out["k"] = KINDS[flags & 7]
    if dso >= 0:
        out["d"] = strings[dso]
    if addr:
        out["a"] = addr
    if len(node) == 10:
        start = int(page["functions"][node[8]]["a"], 16)
        out["F"] = node[8]
        out["x"] = [[hex(start + x[0]), x[1], x[2]] for x in node[9]]
    out["c"] = [expand(k, strings, page=page) for k in kids]
    return out

if __name__ == "__main__":
    main()
