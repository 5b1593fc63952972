/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_SRCLINE_H
#define __PERF_FLAMEGRAPH_SRCLINE_H

#include <stddef.h>
#include <linux/types.h>

struct dso;
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
 * does, and where libdw gives the line, its @source and @line: the file
 * as the line table names it (joined to the compilation directory where
 * it is relative), an entry of @fg's @sources.  Each file's
 * lines from the first to the last its instructions name are read when
 * this is called, as perf script -F srccode reads them (util/srccode.c),
 * so that the page shows them without the file; not those of a file
 * modified after the newest binary its lines are of, nor of one shorter
 * than a line named: its @why says so.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_function_srclines(struct flamegraph *fg);

/**
 * struct flamegraph_decl - where a function is declared
 * @file: DW_AT_decl_file, its path as the line table has it, or NULL
 * @line: DW_AT_decl_line, or 0
 */
struct flamegraph_decl {
	char		*file;
	unsigned int	line;
};

/**
 * flamegraph__decls - where the functions at an address are declared
 * @dso: the DSO
 * @addr: an address of its file (objdump's, addr2line's)
 * @decls: set to the functions, outermost first: the function @addr is
 *         in (the one a symbol names, not one inlined into it), then
 *         each function inlined there, down to the innermost; the
 *         reverse of perf's srcline code's inline list
 *         (dso__parse_addr_inlines())
 *
 * From the DSO's DWARF, through the libdw session perf's srcline code
 * opened for it (dso__libdw_dwfl()), as it walks the functions at an
 * address (cu_walk_functions_at()): each function's DW_AT_decl_file and
 * DW_AT_decl_line, those of its abstract origin or specification where
 * it has none of its own.  Not the lines of the code at @addr: those of
 * code inlined there are in other functions, and other files.
 *
 * Return: how many, 0 (and *@decls NULL) without libdw, DWARF for
 * @addr, or memory.  Free them with flamegraph_decls__free().
 */
size_t flamegraph__decls(struct dso *dso, u64 addr, struct flamegraph_decl **decls);

/**
 * flamegraph_decls__free - free what flamegraph__decls() returned
 * @decls: the declarations
 * @nr: how many
 */
void flamegraph_decls__free(struct flamegraph_decl *decls, size_t nr);

#endif /* __PERF_FLAMEGRAPH_SRCLINE_H */
