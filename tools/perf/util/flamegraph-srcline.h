/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SRCLINE_H
#define __PERF_FLAMEGRAPH_SRCLINE_H

#include <stddef.h>
#include <linux/types.h>

struct flamegraph;

/* The hot instructions table of the HTML page shows 100. */
#define FLAMEGRAPH_SRCLINES_MAX	256

/**
 * flamegraph__add_srclines - source lines of the hottest instructions
 * @fg: the flame graph, its instructions decoded by
 *      flamegraph__decode_insns(), not yet finished
 * @max: how many instructions at most, those with the most samples
 *
 * Sets the @srcline ("file:line") of the @max hottest instructions that
 * have a symbol, where debug info has a line for them.  The line is
 * libdw's where perf is built with it and finds the DSO's DWARF, as perf
 * probe does (util/debuginfo.c: the distro's debug file for its build-id
 * or path, else the file, and its debug link): the line table's file,
 * base name, and line.  Elsewhere, and with --full-source-path, it is
 * perf's srcline code's (addr2line: the path joined to the compilation
 * directory), which answers one address at a time: the hot instructions
 * are those a reader looks at.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_srclines(struct flamegraph *fg, unsigned int max);

/**
 * flamegraph__add_function_srclines - source lines of whole functions
 * @fg: the flame graph, its @functions set (flamegraph__add_functions())
 *
 * Sets each of their instructions' @srcline, as flamegraph__add_srclines()
 * does, and where the DWARF gives the line, its @source and @line: the
 * file as the line table names it (joined to the compilation directory
 * where it is relative), an entry of @fg's @sources.  The lines are those
 * LLVM gave as it disassembled the functions for perf annotate (the
 * function's @filelocs, llvm_addr2line()), which has read the DWARF
 * already; libdw's where another disassembler decoded them.  Each file's
 * lines from the first to the last its instructions name are read when
 * this is called, as perf script -F srccode reads them (util/srccode.c),
 * so that the page shows them without the file; not those of a file
 * modified after the newest binary its lines are of, nor of one shorter
 * than a line named: its @why says so.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_function_srclines(struct flamegraph *fg);

#endif /* __PERF_FLAMEGRAPH_SRCLINE_H */
