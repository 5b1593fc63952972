/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SRCLINE_H
#define __PERF_FLAMEGRAPH_SRCLINE_H

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

#endif /* __PERF_FLAMEGRAPH_SRCLINE_H */
