// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of a large sampled function that perf flamegraph --asm needs
 * disassembled: a few sampled instructions of a 100 kB function don't
 * need its 25,000 instructions parsed into perf's disasm lines.
 */
#include <errno.h>
#include <stdlib.h>
#include <linux/zalloc.h>

#include "dso.h"
#include "flamegraph-ranges.h"
#include "symbol.h"

#ifdef HAVE_LIBCAPSTONE_SUPPORT
#include <capstone/capstone.h>
#endif

/* Smaller symbols are disassembled whole: ranges would not pay. */
#define FLAMEGRAPH_RANGES_MIN_SYMBOL	1024
/* Sampled instructions closer than this share a range. */
#define FLAMEGRAPH_RANGES_GAP		64
/*
 * What one more disassembly costs (finding the image, opening it,
 * reading the ELF program headers, a capstone handle) in bytes of
 * instructions disassembled, roughly, as measured on gcc's cc1.
 */
#define FLAMEGRAPH_RANGES_COST		256

int flamegraph__sampled_ranges(struct dso *dso __maybe_unused,
			       struct machine *machine __maybe_unused,
			       struct symbol *sym, const u64 *offsets, size_t nr,
			       struct flamegraph_range **ranges)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	u64 len = sym->end - sym->start, covered = 0, addr = 0;
	struct flamegraph_range *r = NULL;
	cs_insn *insn = NULL;
	const u8 *code;
	u8 *buf = NULL;
	size_t size, i = 0;
	int nr_ranges = 0;
	csh handle;
	cs_mode mode;

	*ranges = NULL;
	if (len < FLAMEGRAPH_RANGES_MIN_SYMBOL || !nr)
		return 0;
	buf = malloc(len);
	if (!buf)
		return -ENOMEM;
	/* Map-relative addresses of user-space DSOs are file offsets. */
	if (dso__data_read_offset(dso, machine, sym->start, buf, len) != (ssize_t)len)
		goto out_free;
	mode = dso__type(dso, machine) == DSO__TYPE_64BIT ? CS_MODE_64 : CS_MODE_32;
	if (cs_open(CS_ARCH_X86, mode, &handle) != CS_ERR_OK)
		goto out_free;
	insn = cs_malloc(handle);
	r = calloc(nr, sizeof(*r));
	if (!insn || !r) {
		nr_ranges = -ENOMEM;
		goto out_close;
	}

	/*
	 * Decode all of it, as perf's capstone path does: where capstone
	 * stops early, perf annotate falls back to objdump, and so must we.
	 */
	code = buf;
	size = len;
	while (cs_disasm_iter(handle, &code, &size, &addr, insn)) {
		u64 start = insn->address, end = start + insn->size;

		if (i == nr || offsets[i] > start)
			continue;
		/* Inside an instruction: perf annotate sums it to that one. */
		if (offsets[i] < start)
			break;
		if (nr_ranges && start - r[nr_ranges - 1].end < FLAMEGRAPH_RANGES_GAP) {
			covered += end - r[nr_ranges - 1].end;
			r[nr_ranges - 1].end = end;
		} else {
			r[nr_ranges].start = start;
			r[nr_ranges++].end = end;
			covered += end - start;
		}
		i++;
	}
	if (size || i != nr ||
	    nr_ranges * FLAMEGRAPH_RANGES_COST + covered >= len) {
		nr_ranges = 0;
		goto out_close;
	}
	*ranges = r;
	r = NULL;
out_close:
	free(r);
	if (insn)
		cs_free(insn, 1);
	cs_close(&handle);
out_free:
	free(buf);
	return nr_ranges;
#else
	*ranges = NULL;
	return 0;
#endif
}
