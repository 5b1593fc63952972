#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-options.py BASE SRC: no option the series adds to an existing
perf command changes what a command line of it meant.

BASE is the pristine base (build/base), SRC the tree perf is built from
(build/src: the base with patches/ applied and tools/ overlaid). Every
option table of tools/perf that both have (a struct option array of a
.c file; the argparse parser of a python script under scripts/python)
is compared: each long option a command line of the base could spell,
in full, abbreviated or negated, must still mean the same option, as
libsubcmd's parse_long_opt() (or argparse) resolves it. Exact names win;
a unique prefix is that option; a prefix of two is an error; "no-"
negates, and an option named "no-x" takes "x" too. An option added
that takes a spelling another option had (perf report --asm was
--asm-raw's) or makes a unique prefix ambiguous fails, as does a short
option given another meaning or an option removed. Tables that only
SRC has are new commands: nothing meant anything there before.

Each table that gains options is printed with them and "ok" or what
changed; the last line counts the problems, and the exit status is 1
if there are any. Not for upstream: this repository's check of its
series.
"""

import ast
import os
import re
import sys

NOAUTONEG = "PARSE_OPT_NOAUTONEG"


class Opt:
    """One entry of a struct option array, or one argparse action."""

    def __init__(self, long, short=None, argument=False, noautoneg=False, key=None):
        self.long = long
        self.short = short
        self.argument = argument        # OPTION_ARGUMENT: exact name only
        self.noautoneg = noautoneg
        self.key = key or long          # what the option is (argparse: dest)


TOKENS = re.compile(r"""//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'""", re.S)


def strip_comments(text):
    """The C text without comments, strings and char literals kept."""
    return TOKENS.sub(lambda m: " " if m.group(0)[0] == "/" else m.group(0), text)


def balanced(text, start, open_c, close_c):
    """The index just past the bracket closing the one at text[start]."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == open_c:
            depth += 1
        elif c == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def c_string(lit):
    """The value of a C string literal, or None for anything else."""
    lit = lit.strip()
    if not (lit.startswith('"') and lit.endswith('"')):
        return None
    return bytes(lit[1:-1], "utf-8").decode("unicode_escape")


def c_char(lit):
    """The short option of a char literal, or None (0, none)."""
    lit = lit.strip()
    m = re.fullmatch(r"'(\\.|[^'\\])'", lit)
    if not m:
        return None
    return bytes(m.group(1), "utf-8").decode("unicode_escape")


def split_args(text):
    """The top-level comma-separated arguments of a macro call's text."""
    args, depth, cur, i, n = [], 0, [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    args.append("".join(cur))
    return args


# parse-options.h's macros that don't take (short, long, ...).
FIXED = {
    "OPT__VERBOSE": [("v", "verbose")],
    "OPT__QUIET": [("q", "quiet")],
    "OPT__VERBOSITY": [("v", "verbose"), ("q", "quiet")],
    "OPT__DRY_RUN": [("n", "dry-run")],
    "OPT__ABBREV": [(None, "abbrev")],
}


def tree_macros(root):
    """Function-like macros of tools/perf that expand to option entries
    (OPTS_EVSWITCH()): name -> body, whose arguments don't matter."""
    macros = {}
    for d, _, files in os.walk(os.path.join(root, "tools/perf")):
        for f in files:
            if not f.endswith((".h", ".c")):
                continue
            try:
                text = open(os.path.join(d, f), errors="replace").read()
            except OSError:
                continue
            text = text.replace("\\\n", " ")
            for m in re.finditer(r"^[ \t]*#[ \t]*define[ \t]+(\w+)\(([^)]*)\)(.*)$",
                                 text, re.M):
                name, body = m.group(1), m.group(3)
                if name.startswith("OPT_") or not re.search(r"\bOPT_\w+\(|\bOPTION_\w+", body):
                    continue
                macros[name] = body
    return macros


def entries(body, macros, depth=0):
    """The options of an array's body, in order: (Opt or None for an
    unparsed entry, OPT_PARENT's array or None)."""
    opts, parent = [], None
    pat = re.compile(r"\b(OPT_\w+|OPTION_\w+|" +
                     "|".join(map(re.escape, macros)) + r")\s*(\(|,)" if macros else
                     r"\b(OPT_\w+|OPTION_\w+)\s*(\(|,)")
    i = 0
    while True:
        m = pat.search(body, i)
        if not m:
            break
        name = m.group(1)
        if name.startswith("OPTION_"):
            # { OPTION_CALLBACK, 's', "long", ... }: the entry is the braces.
            start = body.rfind("{", 0, m.start())
            if start < 0 or body[start + 1:m.start()].strip():
                i = m.end()
                continue
            end = balanced(body, start, "{", "}")
            args = split_args(body[start + 1:end - 1])
            if len(args) >= 3:
                long = c_string(args[2])
                if long is not None:
                    opts.append(Opt(long, c_char(args[1]), name == "OPTION_ARGUMENT",
                                    NOAUTONEG in body[start:end]))
            i = end
            continue
        if m.group(2) != "(":
            i = m.end()
            continue
        end = balanced(body, m.end() - 1, "(", ")")
        call = body[m.end():end - 1]
        i = end
        if name in macros:
            if depth < 5:
                sub, sub_parent = entries(macros[name], macros, depth + 1)
                opts += sub
                parent = parent or sub_parent
            continue
        if name in FIXED:
            opts += [Opt(long, short) for short, long in FIXED[name]]
            continue
        if name in ("OPT_END", "OPT_GROUP"):
            continue
        args = split_args(call)
        if name == "OPT_PARENT":
            parent = args[0].strip()
            continue
        if name == "OPT_ARGUMENT":
            long = c_string(args[0])
            opts.append(Opt(long, None, True) if long is not None else None)
            continue
        if len(args) < 2:
            opts.append(None)
            continue
        long = c_string(args[1])
        if long is None:
            if args[1].strip() not in ("NULL", "0"):
                opts.append(None)
            continue
        opts.append(Opt(long, c_char(args[0]), False, NOAUTONEG in call))
    return opts, parent


def c_tables(root, rel, macros):
    """The struct option arrays of one .c file: name -> (opts, parent)."""
    try:
        text = open(os.path.join(root, rel), errors="replace").read()
    except OSError:
        return {}
    if not re.search(r"\bstruct\s+option\b", text):
        return {}
    text = strip_comments(text)
    tables = {}
    for m in re.finditer(r"\bstruct\s+option\s+(\w+)\s*\[[^\]]*\]\s*=\s*\{", text):
        end = balanced(text, m.end() - 1, "{", "}")
        # Arrays of one name in several functions: options[], options#2[]...
        name, k = m.group(1), 1
        while name in tables:
            k += 1
            name = f"{m.group(1)}#{k}"
        tables[name] = entries(text[m.end():end - 1], macros)
    return tables


def dedup(opts):
    """One option per name, the first: an #if/#else pair lists a name
    twice, and only one of them is compiled in."""
    seen, out = set(), []
    for o in opts:
        if o is not None and o.long not in seen:
            seen.add(o.long)
            out.append(o)
    return out


def resolve_subcmd(opts, arg, parent=None):
    """What parse_long_opt() makes of --ARG (no '=value'): (key, unset),
    "ambiguous" or None (unknown)."""
    abbrev = ambiguous = None
    for o in opts:
        name = o.long
        rest = arg[len(name):] if arg.startswith(name) else None
        if o.argument:
            if rest == "":
                return (o.key, False)
            continue
        unset = False
        if rest is None:
            abbreviated = False
            matched = False
            if name.startswith("no-") and not o.noautoneg:
                if arg.startswith(name[3:]):
                    rest, unset, matched = arg[len(name) - 3:], True, True
                elif name[3:].startswith(arg):
                    unset, abbreviated = True, True
            if not matched and not abbreviated:
                if name.startswith(arg):
                    abbreviated = True
                elif "no-".startswith(arg) and not o.noautoneg:
                    unset, abbreviated = True, True
                elif not arg.startswith("no-") or o.noautoneg:
                    continue
                else:
                    unset = True
                    if arg[3:].startswith(name):
                        rest = arg[3 + len(name):]
                    elif name.startswith(arg[3:]):
                        abbreviated = True
                    else:
                        continue
            if abbreviated:
                if abbrev:
                    ambiguous = abbrev
                abbrev = (o.key, unset)
                continue
        if rest:
            continue
        return (o.key, unset)
    if ambiguous:
        return "ambiguous"
    if abbrev:
        return abbrev
    if parent is not None:
        return resolve_subcmd(parent, arg)
    return None


def candidates_subcmd(*tables):
    """Every --ARG worth resolving: each prefix of each name, negated too."""
    args = {"n", "no", "no-"}
    for opts in tables:
        for o in opts:
            names = [o.long] + ([o.long[3:]] if o.long.startswith("no-") else [])
            for name in names:
                for k in range(1, len(name) + 1):
                    args.add(name[:k])
                    args.add("no-" + name[:k])
    return sorted(args)


def spell(res):
    if res is None or res == "ambiguous":
        return res or "unknown"
    key, unset = res
    if unset and key.startswith("no-"):
        return f"--{key[3:]} (--{key} negated)"
    return "--" + ("no-" if unset else "") + key


def grouped(changes):
    """Lines of (argument, before, after) changes, the arguments of one
    change on one line: "--a --as meant --asm-raw, now ambiguous"."""
    groups = {}
    for arg, before, after in changes:
        groups.setdefault((before, after), []).append(arg)
    return [f"{' '.join(args)} meant {before}, now {after}"
            for (before, after), args in groups.items()]


def compare(old, new, old_parent=None, new_parent=None):
    """The problems of new against old: lines saying what changed."""
    changes = []
    for arg in candidates_subcmd(old, new, old_parent or [], new_parent or []):
        before = resolve_subcmd(old, arg, old_parent)
        if before is None or before == "ambiguous":
            continue
        after = resolve_subcmd(new, arg, new_parent)
        if after != before:
            changes.append(("--" + arg, spell(before), spell(after)))
    old_short, new_short = {}, {}
    for opts, short in ((old, old_short), (new, new_short)):
        for o in opts:
            if o.short and o.short not in short:
                short[o.short] = o.key
    for c, key in sorted(old_short.items()):
        if new_short.get(c) != key:
            changes.append(("-" + c, "--" + key,
                            "--" + new_short[c] if c in new_short else "unknown"))
    return grouped(changes)


# argparse: exact option strings win; else the "--" strings that start
# with the argument: one is it (its dest), several are an error.
def resolve_argparse(opts, arg, no_abbrev=False):
    arg = "--" + arg
    for o in opts:
        if o.long == arg:
            return o.key
    matches = [o for o in opts if o.long.startswith(arg)]
    if no_abbrev or not matches:
        return None
    if len(matches) > 1:
        return "ambiguous"
    return matches[0].key


def py_parsers(path):
    """The argparse parsers of a script: variable -> (long options, short
    options, no abbreviations), each option string an Opt keyed by its
    action's dest."""
    try:
        tree = ast.parse(open(path, errors="replace").read())
    except (OSError, SyntaxError):
        return {}
    parsers = {}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        if getattr(func, "attr", getattr(func, "id", None)) != "ArgumentParser":
            continue
        kws = {kw.arg: getattr(kw.value, "value", None) for kw in node.value.keywords}
        for t in node.targets:
            if isinstance(t, ast.Name):
                longs, shorts = [], []
                if kws.get("add_help", True) is not False:
                    longs.append(Opt("--help", key="help"))
                    shorts.append(Opt("-h", "h", key="help"))
                parsers[t.id] = (longs, shorts, kws.get("allow_abbrev", True) is False)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_argument"
                and isinstance(node.func.value, ast.Name) and node.func.value.id in parsers):
            continue
        longs, shorts, _ = parsers[node.func.value.id]
        strings = [a.value for a in node.args
                   if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        dest = None
        for kw in node.keywords:
            if kw.arg == "dest" and isinstance(kw.value, ast.Constant):
                dest = kw.value.value
        if dest is None:
            first = ([s for s in strings if s.startswith("--")] or strings or [""])[0]
            dest = first.lstrip("-").replace("-", "_")
        for s in strings:
            if s.startswith("--"):
                longs.append(Opt(s, key=dest))
            elif re.fullmatch(r"-\w", s):
                shorts.append(Opt(s, s[1], key=dest))
    return parsers


def walk(root, ext):
    out = set()
    for d, _, files in os.walk(os.path.join(root, "tools/perf")):
        for f in files:
            if f.endswith(ext):
                out.add(os.path.relpath(os.path.join(d, f), root))
    return out


def main():
    if len(sys.argv) != 3:
        print("usage: check-options.py BASE SRC", file=sys.stderr)
        return 2
    base, src = sys.argv[1], sys.argv[2]
    problems = compared = grown = 0
    unparsed = []

    def report(where, added, probs):
        nonlocal problems, grown
        if not added and not probs:
            return
        grown += 1
        print(f"{where}: " + (" ".join("+" + a for a in added) if added else "no option added") +
              (": ok" if not probs else ""))
        for p in probs:
            print(f"  {where}: {p}")
        problems += len(probs)

    old_macros, new_macros = tree_macros(base), tree_macros(src)
    for rel in sorted(walk(base, ".c") & walk(src, ".c")):
        old_tables = c_tables(base, rel, old_macros)
        if not old_tables:
            continue
        new_tables = c_tables(src, rel, new_macros)
        for name, (old_raw, old_parent) in sorted(old_tables.items()):
            compared += 1
            where = f"{rel} {name}[]"
            if name not in new_tables:
                report(where, [], ["the table is gone"])
                continue
            new_raw, new_parent = new_tables[name]
            if None in old_raw:
                unparsed.append(where)
            old, new = dedup(old_raw), dedup(new_raw)
            op = dedup(old_tables.get(old_parent, ([], None))[0]) if old_parent else None
            np = dedup(new_tables.get(new_parent, ([], None))[0]) if new_parent else None
            old_names = {o.long for o in old}
            added = [o.long for o in new if o.long not in old_names]
            new_names = {o.long for o in new}
            probs = [f"--{n} is gone" for n in sorted(old_names - new_names)]
            if new_raw.count(None) > old_raw.count(None):
                probs.append("an entry added whose long name is no string literal,"
                             " which this check can't read")
            probs += compare(old, new, op, np)
            report(where, added, probs)

    for rel in sorted(walk(base, ".py") & walk(src, ".py")):
        if "/scripts/python/" not in rel:
            continue
        old_parsers = py_parsers(os.path.join(base, rel))
        new_parsers = py_parsers(os.path.join(src, rel))
        for var, (old, old_short, old_exact) in sorted(old_parsers.items()):
            compared += 1
            where = f"{rel} {var}"
            if var not in new_parsers:
                report(where, [], ["the parser is gone"])
                continue
            new, new_short, new_exact = new_parsers[var]
            # Name an option by its first long string, as --help does.
            names = {}
            for o in old + new:
                names.setdefault(o.key, o.long)
            old_names = {o.long for o in old}
            added = [o.long[2:] for o in new if o.long not in old_names]
            probs = [f"{n} is gone" for n in sorted(old_names - {o.long for o in new})]
            args = {o.long[2:k] for o in old + new for k in range(3, len(o.long) + 1)}
            changes = []
            for arg in sorted(args):
                before = resolve_argparse(old, arg, old_exact)
                if before is None or before == "ambiguous":
                    continue
                after = resolve_argparse(new, arg, new_exact)
                if after != before:
                    changes.append(("--" + arg, names[before],
                                    names.get(after, after or "unknown")))
            old_s = {o.short: o.key for o in reversed(old_short)}
            new_s = {o.short: o.key for o in reversed(new_short)}
            changes += [("-" + c, names[k], names[new_s[c]] if c in new_s else "unknown")
                        for c, k in sorted(old_s.items()) if new_s.get(c) != k]
            probs += grouped(changes)
            report(where, added, probs)

    for u in unparsed:
        print(f"{u}: an entry whose long name is no string literal, not checked")
    print(f"{compared} option tables of the base compared, {grown} changed, "
          f"{problems} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
