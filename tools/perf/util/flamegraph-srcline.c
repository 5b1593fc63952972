// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of the hottest instructions of a flame graph: from libdw
 * where perf has it, else from perf's srcline code (addr2line); those of
 * whole functions as LLVM gave them to perf annotate, where it did.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "debug.h"
#include "debuginfo.h"
#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-srcline.h"
#include "map.h"
#include "srccode.h"
#include "srcline.h"

/*
 * The DWARF of a DSO, opened as perf probe opens it (util/debuginfo.c).
 * GNU addr2line, which perf's srcline code runs, reads all of a file's
 * DWARF before it answers; libdw reads the line table of the compilation
 * unit an address is in.
 */
struct srcline_dwarf {
	const struct dso	*dso;
	const char		*name;	/* the file the DWARF is read from */
	bool			lines;	/* perf looks for the DSO's lines */
	bool			opened;	/* @dbg was looked for */
	struct debuginfo	*dbg;	/* NULL: no DWARF found */
	time_t			built;	/* the binary's mtime; 0: unknown */
};

struct srcline_dwarfs {
	struct srcline_dwarf	*dwarfs;
	size_t			nr;
	size_t			alloc;
};

#ifdef HAVE_LIBDW_SUPPORT
/*
 * The file and line of @addr, an address of the file: the line table's
 * path, joined to the compilation directory where it is relative (as
 * perf's srcline code joins it), for the caller to free(); NULL where
 * the table has no line.
 */
static char *srcline_dwarf__file(struct srcline_dwarf *sd, u64 addr, int *nr)
{
	Dwfl_Line *line = dwfl_module_getsrc(sd->dbg->mod, addr + sd->dbg->bias);
	const char *file = NULL, *dir;
	char *path;

	*nr = 0;
	if (line)
		file = dwfl_lineinfo(line, NULL, nr, NULL, NULL, NULL);
	if (!file || *nr <= 0)
		return NULL;
	dir = file[0] != '/' ? dwfl_line_comp_dir(line) : NULL;
	if (!dir)
		return strdup(file);
	if (asprintf(&path, "%s/%s", dir, file) < 0)
		return NULL;
	return path;
}

#else
static char *srcline_dwarf__file(struct srcline_dwarf *sd __maybe_unused,
				 u64 addr __maybe_unused, int *nr)
{
	*nr = 0;
	return NULL;
}
#endif

/*
 * "file:line" of @file's @line, as perf's srcline code writes it by
 * default: the file's base name; NULL without memory.
 */
static char *srcline__short(const char *file, int line)
{
	const char *base = strrchr(file, '/');
	char *srcline;

	if (asprintf(&srcline, "%s:%d", base ? base + 1 : file, line) < 0)
		return NULL;
	return srcline;
}

/*
 * "file:line" of @addr, an address of the file (objdump's, addr2line's);
 * NULL where the line table has no line for it.
 */
static char *srcline_dwarf__srcline(struct srcline_dwarf *sd, u64 addr)
{
	char *file, *srcline;
	int nr;

	file = srcline_dwarf__file(sd, addr, &nr);
	if (!file)
		return NULL;
	srcline = srcline__short(file, nr);
	free(file);
	return srcline;
}

/* @dso's entry, its DWARF not yet opened; NULL without memory. */
static struct srcline_dwarf *srcline_dwarfs__find(struct srcline_dwarfs *sds,
						  struct dso *dso)
{
	/* What perf's srcline code gives addr2line (srcline_dso_name()). */
	const char *name = dso__symsrc_filename(dso) ?: dso__long_name(dso);
	struct srcline_dwarf *sd;
	struct stat st;
	size_t i;

	for (i = 0; i < sds->nr; i++) {
		if (dso__key(sds->dwarfs[i].dso) == dso__key(dso))
			return &sds->dwarfs[i];
	}
	if (flamegraph__grow(&sds->dwarfs, &sds->alloc, sds->nr + 1, sizeof(*sds->dwarfs)))
		return NULL;
	sd = &sds->dwarfs[sds->nr++];
	sd->dso = dso;
	sd->name = name;
	sd->lines = dso__has_srcline(dso) && name[0] != '[' && !is_perf_pid_map_name(name);
	sd->opened = false;
	sd->dbg = NULL;
	sd->built = !stat(dso__long_name(dso), &st) ? st.st_mtime : 0;
	return sd;
}

/* The DWARF of @sd's DSO, opened on first use; NULL where none is found. */
static struct debuginfo *srcline_dwarf__dbg(struct srcline_dwarf *sd)
{
	if (!sd->opened && sd->lines)
		sd->dbg = debuginfo__new(sd->name);
	sd->opened = true;
	return sd->dbg;
}

static void srcline_dwarfs__exit(struct srcline_dwarfs *sds)
{
	size_t i;

	for (i = 0; i < sds->nr; i++)
		debuginfo__delete(sds->dwarfs[i].dbg);
	free(sds->dwarfs);
}

/*
 * "file:line" of @insn, or NULL where there is none: libdw's line where
 * it reads the DSO's DWARF (not with --full-source-path: the line table
 * holds paths relative to the compilation directory, which perf's
 * srcline code joins), else perf's srcline code's (NULL for its "??:0").
 */
static char *flamegraph_insn__srcline(struct flamegraph_insn *insn,
				      struct srcline_dwarfs *sds)
{
	struct dso *dso = map__dso(insn->ms.map);
	struct srcline_dwarf *sd = NULL;
	char *srcline;

	if (!srcline_full_filename)
		sd = srcline_dwarfs__find(sds, dso);
	if (sd && srcline_dwarf__dbg(sd))
		return srcline_dwarf__srcline(sd, insn->objdump_addr);
	srcline = get_srcline(dso, insn->objdump_addr, insn->ms.sym,
			      /*show_sym=*/false, /*show_addr=*/false,
			      insn->objdump_addr);
	if (srcline && srcline != SRCLINE_UNKNOWN && strstarts(srcline, "??"))
		zfree_srcline(&srcline);
	return srcline == SRCLINE_UNKNOWN ? NULL : srcline;
}

/* Most samples first; address order among equals, for stable output. */
static int flamegraph_insn__cmp_samples(const void *a, const void *b)
{
	const struct flamegraph_insn *l = *(const struct flamegraph_insn **)a;
	const struct flamegraph_insn *r = *(const struct flamegraph_insn **)b;

	if (l->weight != r->weight)
		return l->weight > r->weight ? -1 : 1;
	if (l->objdump_addr != r->objdump_addr)
		return l->objdump_addr < r->objdump_addr ? -1 : 1;
	return 0;
}

int flamegraph__add_srclines(struct flamegraph *fg, unsigned int max)
{
	struct srcline_dwarfs sds = { .dwarfs = NULL, };
	struct flamegraph_insn **hot;
	size_t nr = 0, nr_lines = 0, i;

	hot = calloc(fg->nr_insns ?: 1, sizeof(*hot));
	if (!hot)
		return -ENOMEM;
	flamegraph__count_insns(fg);
	for (i = 0; i < fg->nr_insns; i++) {
		if (fg->insns[i]->text && fg->insns[i]->ms.sym)
			hot[nr++] = fg->insns[i];
	}
	qsort(hot, nr, sizeof(*hot), flamegraph_insn__cmp_samples);
	for (i = 0; i < nr && i < max; i++) {
		hot[i]->srcline = flamegraph_insn__srcline(hot[i], &sds);
		nr_lines += !!hot[i]->srcline;
	}
	pr_debug("perf flamegraph: source lines: %zu of the %zu hottest instructions, from the DWARF of %zu DSOs\n",
		 nr_lines, min_t(size_t, nr, max), sds.nr);
	srcline_dwarfs__exit(&sds);
	free(hot);
	return 0;
}

/* fg->sources as they are added: room, and the age of each file's binary. */
struct flamegraph_sources {
	size_t	alloc;
	time_t	*built;	/* the newest binary built from the file; 0: unknown */
	size_t	alloc_built;
};

/* The index of @path in fg->sources, added if new; -ENOMEM. */
static int flamegraph__source(struct flamegraph *fg, const char *path,
			      struct flamegraph_sources *fs)
{
	struct flamegraph_source *src;
	size_t i;

	for (i = fg->nr_sources; i-- > 0;) {
		if (!strcmp(fg->sources[i].path, path))
			return i;
	}
	if (flamegraph__grow(&fg->sources, &fs->alloc, fg->nr_sources + 1, sizeof(*fg->sources)))
		return -ENOMEM;
	if (flamegraph__grow(&fs->built, &fs->alloc_built, fg->nr_sources + 1,
			     sizeof(*fs->built)))
		return -ENOMEM;
	src = &fg->sources[fg->nr_sources];
	*src = (struct flamegraph_source){ .path = strdup(path), };
	if (!src->path)
		return -ENOMEM;
	fs->built[fg->nr_sources] = 0;
	return fg->nr_sources++;
}

/*
 * The file and line of @fn's instruction @i: the one perf annotate's
 * disassembler gave (taken from @fn->filelocs), else libdw's; the file
 * for the caller to free(), NULL where there is none.
 */
static char *flamegraph_function__file(struct flamegraph_function *fn, size_t i,
				       struct srcline_dwarf *sd, int *line)
{
	char *file;

	if (fn->filelocs) {
		file = fn->filelocs[i].file;
		*line = fn->filelocs[i].line;
		fn->filelocs[i].file = NULL;
		return file;
	}
	return srcline_dwarf__file(sd, fn->insns[i].addr, line);
}

/*
 * Each instruction's line, and the file it is in, of @fn: LLVM gave
 * them as it disassembled @fn for perf annotate (its symbolizer reads
 * the DWARF of the file perf's symbols come from), libdw reads them
 * where another disassembler did, perf's srcline code where there is no
 * DWARF or with --full-source-path.
 */
static int flamegraph_function__srclines(struct flamegraph *fg, struct flamegraph_function *fn,
					 struct srcline_dwarfs *sds, struct flamegraph_sources *fs)
{
	struct srcline_dwarf *sd = NULL;
	size_t i;

	if (!srcline_full_filename)
		sd = srcline_dwarfs__find(sds, map__dso(fn->ms.map));
	for (i = 0; i < fn->nr_insns; i++) {
		struct flamegraph_function_insn *insn = &fn->insns[i];
		int line, source;
		char *file;

		if (!sd || !sd->lines || (!fn->filelocs && !srcline_dwarf__dbg(sd))) {
			struct flamegraph_insn probe = {
				.ms = fn->ms,
				.objdump_addr = insn->addr,
			};

			insn->srcline = flamegraph_insn__srcline(&probe, sds);
			continue;
		}
		file = flamegraph_function__file(fn, i, sd, &line);
		if (!file)
			continue;
		source = flamegraph__source(fg, file, fs);
		if (source >= 0) {
			insn->srcline = srcline__short(file, line);
			if (!insn->srcline)
				source = -ENOMEM;
		}
		free(file);
		if (source < 0)
			return source;
		insn->source = source;
		insn->line = line;
		fs->built[source] = max(fs->built[source], sd->built);
	}
	return 0;
}

/*
 * The lines @src's instructions name, read as perf script -F srccode
 * reads them (util/srccode.c), unless the file changed since the newest
 * binary built from it (@built, 0 where unknown) or is shorter.
 */
static int flamegraph_source__read(struct flamegraph_source *src, u32 last, time_t built)
{
	struct stat st;
	u32 line;

	if (stat(src->path, &st)) {
		src->why = strdup("not on this machine");
		return src->why ? 0 : -ENOMEM;
	}
	if (built && st.st_mtime > built) {
		src->why = strdup("changed since the binary was built");
		return src->why ? 0 : -ENOMEM;
	}
	src->lines = calloc(last - src->first + 1, sizeof(*src->lines));
	if (!src->lines)
		return -ENOMEM;
	for (line = src->first; line <= last; line++) {
		int len;
		char *text = find_sourceline(src->path, line, &len);

		if (!text) {
			while (src->nr_lines)
				free(src->lines[--src->nr_lines]);
			zfree(&src->lines);
			if (asprintf(&src->why, "changed since the binary was built: no line %u",
				     last) < 0) {
				src->why = NULL;
				return -ENOMEM;
			}
			return 0;
		}
		src->lines[src->nr_lines] = strndup(text, len);
		if (!src->lines[src->nr_lines])
			return -ENOMEM;
		src->nr_lines++;
	}
	return 0;
}

int flamegraph__add_function_srclines(struct flamegraph *fg)
{
	struct srcline_dwarfs sds = { .dwarfs = NULL, };
	struct flamegraph_sources fs = { .built = NULL, };
	u32 *last = NULL;
	size_t i, j;
	int err = 0;

	for (i = 0; i < fg->nr_functions && !err; i++)
		err = flamegraph_function__srclines(fg, &fg->functions[i], &sds, &fs);
	last = calloc(fg->nr_sources ?: 1, sizeof(*last));
	if (!err && !last)
		err = -ENOMEM;
	for (i = 0; i < fg->nr_functions && !err; i++) {
		for (j = 0; j < fg->functions[i].nr_insns; j++) {
			const struct flamegraph_function_insn *insn = &fg->functions[i].insns[j];
			struct flamegraph_source *src;

			if (insn->source < 0)
				continue;
			src = &fg->sources[insn->source];
			if (!src->first || insn->line < src->first)
				src->first = insn->line;
			last[insn->source] = max(last[insn->source], insn->line);
		}
	}
	for (i = 0; i < fg->nr_sources && !err; i++)
		err = flamegraph_source__read(&fg->sources[i], last[i], fs.built[i]);
	srcline_dwarfs__exit(&sds);
	free(fs.built);
	free(last);
	return err;
}
