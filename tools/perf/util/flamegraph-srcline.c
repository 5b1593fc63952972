// SPDX-License-Identifier: GPL-2.0
/*
 * Source lines of the hottest instruction leaves of a flame graph: from
 * libdw where perf has it, else from perf's srcline code (addr2line).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "debug.h"
#include "debuginfo.h"
#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "flamegraph-prefetch.h"
#include "map.h"
#include "srcline.h"

/* An instruction leaf, and the instruction (DSO, objdump address) it is. */
struct insn_ref {
	struct flamegraph_node	*leaf;
	const struct dso	*dso;
	u64			addr;
};

/* The leaves of one instruction: refs[first, first + nr). */
struct insn_group {
	size_t	first;
	size_t	nr;
	u64	samples;
};

struct insn_refs {
	struct insn_ref	*refs;
	size_t		nr;
};

/* Leaves whose text the disassembler gave: they have an objdump address. */
static int insn_refs__collect(struct insn_refs *ir, struct flamegraph *fg)
{
	u64 i;

	ir->refs = calloc(fg->nr_insns ?: 1, sizeof(*ir->refs));
	if (!ir->refs)
		return -ENOMEM;
	for (i = 0; i < fg->nr_insns; i++) {
		struct flamegraph_node *leaf = fg->insns[i];

		if (!leaf->label || !leaf->ms.sym || !leaf->ms.map)
			continue;
		ir->refs[ir->nr++] = (struct insn_ref){
			.leaf = leaf,
			.dso  = map__dso(leaf->ms.map),
			.addr = leaf->objdump_addr,
		};
	}
	return 0;
}

static int insn_ref__cmp(const void *a, const void *b)
{
	const struct insn_ref *l = a, *r = b;
	long ld = flamegraph__dso_key(l->dso), rd = flamegraph__dso_key(r->dso);

	if (ld != rd)
		return ld < rd ? -1 : 1;
	if (l->addr != r->addr)
		return l->addr < r->addr ? -1 : 1;
	return 0;
}

static int insn_group__cmp_samples(const void *a, const void *b)
{
	const struct insn_group *l = a, *r = b;

	if (l->samples != r->samples)
		return l->samples > r->samples ? -1 : 1;
	return l->first < r->first ? -1 : 1;
}

/*
 * The DWARF of a DSO, opened as perf probe opens it (util/debuginfo.c:
 * the distro's debug file for its build-id or path, else the file perf's
 * srcline code would give addr2line).  GNU addr2line, which perf's
 * srcline code runs, reads all of a file's DWARF before it answers (0.15
 * s for glibc's debug file, 0.8 s for a libpython built with -g); libdw
 * reads the line table of the compilation unit an address is in.
 */
struct srcline_dwarf {
	const struct dso	*dso;
	struct debuginfo	*dbg;	/* NULL: no DWARF found */
};

/* The DWARF of the DSOs looked up in one call. */
struct srcline_dwarfs {
	struct srcline_dwarf	*dwarfs;
	size_t			nr;
	size_t			nr_ahead;	/* opened while events were read */
};

#ifdef HAVE_DWARF_SUPPORT
/*
 * "file:line" of @addr, an address of the file (objdump's, addr2line's),
 * written as perf's srcline code writes it by default: the file's base
 * name.  NULL where the line table has no line for it.
 */
static char *srcline_dwarf__srcline(struct srcline_dwarf *sd, u64 addr)
{
	Dwfl_Line *line = dwfl_module_getsrc(sd->dbg->mod, addr + sd->dbg->bias);
	const char *file = NULL, *base;
	char *srcline;
	int nr = 0;

	if (line)
		file = dwfl_lineinfo(line, NULL, &nr, NULL, NULL, NULL);
	if (!file || nr <= 0)
		return NULL;
	base = strrchr(file, '/');
	if (base)
		file = base + 1;
	if (asprintf(&srcline, "%s:%d", file, nr) < 0)
		return NULL;
	return srcline;
}
#else
static char *srcline_dwarf__srcline(struct srcline_dwarf *sd __maybe_unused,
				    u64 addr __maybe_unused)
{
	return NULL;
}
#endif

const char *flamegraph__dwarf_name(const struct dso *dso)
{
	/* What perf's srcline code gives addr2line (srcline_dso_name()). */
	const char *name = dso__symsrc_filename(dso) ?: dso__long_name(dso);

	if (!dso__has_srcline(dso) || name[0] == '[' || is_perf_pid_map_name(name))
		return NULL;
	return name;
}

/*
 * The DWARF of @dso, opened on first use (or taken from @pf, which may
 * have opened it while the events were read); NULL without memory.
 */
static struct srcline_dwarf *srcline_dwarfs__find(struct srcline_dwarfs *sds,
						  struct dso *dso,
						  struct flamegraph_prefetch *pf)
{
	struct srcline_dwarf *sd;
	const char *name;
	size_t i;

	for (i = 0; i < sds->nr; i++) {
		if (flamegraph__dso_key(sds->dwarfs[i].dso) == flamegraph__dso_key(dso))
			return &sds->dwarfs[i];
	}
	sd = realloc(sds->dwarfs, (sds->nr + 1) * sizeof(*sd));
	if (!sd)
		return NULL;
	sds->dwarfs = sd;
	sd = &sd[sds->nr++];
	sd->dso = dso;
	sd->dbg = NULL;
	if (flamegraph_prefetch__take_dwarf(pf, dso, &sd->dbg)) {
		sds->nr_ahead++;
		return sd;
	}
	name = flamegraph__dwarf_name(dso);
	if (name)
		sd->dbg = debuginfo__new(name);
	return sd;
}

/*
 * libdw's "file:line" of @addr in @dso in *@srcline (NULL where its line
 * table has none).  Return: false where no DWARF of @dso was found, and
 * with --full-source-path: the line table holds paths relative to the
 * compilation directory, which perf's srcline code (addr2line) joins.
 */
static bool srcline_dwarfs__srcline(struct srcline_dwarfs *sds, struct dso *dso,
				    u64 addr, char **srcline,
				    struct flamegraph_prefetch *pf)
{
	struct srcline_dwarf *sd;

	if (srcline_full_filename)
		return false;
	sd = srcline_dwarfs__find(sds, dso, pf);
	if (!sd || !sd->dbg)
		return false;
	*srcline = srcline_dwarf__srcline(sd, addr);
	return true;
}

static void srcline_dwarfs__exit(struct srcline_dwarfs *sds)
{
	size_t i;

	for (i = 0; i < sds->nr; i++)
		debuginfo__delete(sds->dwarfs[i].dbg);
	free(sds->dwarfs);
}

/*
 * "file:line", or NULL where there is none: libdw's line where it reads
 * the DSO's DWARF, else perf's srcline code's (NULL for its "??:0").
 */
static char *insn_ref__srcline(const struct insn_ref *ref,
			       struct srcline_dwarfs *sds,
			       struct flamegraph_prefetch *pf)
{
	struct flamegraph_node *leaf = ref->leaf;
	struct dso *dso = map__dso(leaf->ms.map);
	char *srcline;

	if (srcline_dwarfs__srcline(sds, dso, ref->addr, &srcline, pf))
		return srcline;
	srcline = get_srcline(dso, ref->addr, leaf->ms.sym,
			      /*show_sym=*/false, /*show_addr=*/false, ref->addr);
	if (srcline && srcline != SRCLINE_UNKNOWN && strstarts(srcline, "??"))
		zfree_srcline(&srcline);
	return srcline == SRCLINE_UNKNOWN ? NULL : srcline;
}

int flamegraph__add_srclines(struct flamegraph *fg, unsigned int max,
			     struct flamegraph_prefetch *pf)
{
	struct insn_refs ir = { .refs = NULL, };
	struct srcline_dwarfs sds = { .dwarfs = NULL, };
	struct insn_group *groups = NULL;
	size_t nr_groups = 0, nr_lines = 0, i, j;
	int err;

	err = insn_refs__collect(&ir, fg);
	if (err || !ir.nr)
		goto out;
	qsort(ir.refs, ir.nr, sizeof(*ir.refs), insn_ref__cmp);

	groups = calloc(ir.nr, sizeof(*groups));
	if (!groups) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < ir.nr; i++) {
		if (!i || insn_ref__cmp(&ir.refs[i - 1], &ir.refs[i]))
			groups[nr_groups++].first = i;
		groups[nr_groups - 1].nr++;
		groups[nr_groups - 1].samples += ir.refs[i].leaf->self;
	}
	qsort(groups, nr_groups, sizeof(*groups), insn_group__cmp_samples);

	for (i = 0; i < nr_groups && i < max; i++) {
		struct insn_ref *first = &ir.refs[groups[i].first];
		char *srcline = insn_ref__srcline(first, &sds, pf);

		nr_lines += !!srcline;
		for (j = 0; srcline && j < groups[i].nr; j++) {
			struct flamegraph_node *leaf = first[j].leaf;

			free(leaf->srcline);
			leaf->srcline = strdup(srcline);
			if (!leaf->srcline)
				err = -ENOMEM;
		}
		free(srcline);
	}
	pr_debug("perf flamegraph: source lines: %zu of the %zu hottest instructions, from the DWARF of %zu DSOs (%zu of them opened ahead)\n",
		 nr_lines, min_t(size_t, nr_groups, max), sds.nr, sds.nr_ahead);
out:
	srcline_dwarfs__exit(&sds);
	free(groups);
	free(ir.refs);
	return err;
}
