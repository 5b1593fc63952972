// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of a large sampled function that perf flamegraph --asm needs
 * disassembled: a few sampled instructions of a 100 kB function don't
 * need its 25,000 instructions parsed into perf's disasm lines.  And,
 * decoding the same way, whether perf's capstone path will read a symbol
 * at all or leave it to objdump.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
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

#ifdef HAVE_LIBCAPSTONE_SUPPORT
/* A symbol decoded from its start, one instruction at a time. */
struct flamegraph_decoder {
	csh		handle;
	cs_insn		*insn;
	u8		*buf;
	const u8	*code;
	size_t		size;
	u64		addr;
};

/*
 * Read @sym's bytes and open capstone on them, without operand details.
 * Return: 0, -ENOMEM, or -ENOENT when the image can't be read or
 * capstone can't be opened.
 */
static int flamegraph_decoder__init(struct flamegraph_decoder *d,
				    struct dso *dso, struct machine *machine,
				    struct symbol *sym)
{
	u64 len = sym->end - sym->start;
	cs_mode mode;

	memset(d, 0, sizeof(*d));
	d->buf = malloc(len);
	if (!d->buf)
		return -ENOMEM;
	/* Map-relative addresses of user-space DSOs are file offsets. */
	if (dso__data_read_offset(dso, machine, sym->start, d->buf, len) != (ssize_t)len)
		goto out_free;
	mode = dso__type(dso, machine) == DSO__TYPE_64BIT ? CS_MODE_64 : CS_MODE_32;
	if (cs_open(CS_ARCH_X86, mode, &d->handle) != CS_ERR_OK)
		goto out_free;
	d->insn = cs_malloc(d->handle);
	if (!d->insn) {
		cs_close(&d->handle);
		zfree(&d->buf);
		return -ENOMEM;
	}
	d->code = d->buf;
	d->size = len;
	return 0;
out_free:
	zfree(&d->buf);
	return -ENOENT;
}

/* The next instruction in d->insn; false at the end or where capstone stops. */
static bool flamegraph_decoder__next(struct flamegraph_decoder *d)
{
	return cs_disasm_iter(d->handle, &d->code, &d->size, &d->addr, d->insn);
}

static void flamegraph_decoder__exit(struct flamegraph_decoder *d)
{
	cs_free(d->insn, 1);
	cs_close(&d->handle);
	zfree(&d->buf);
}
#endif

int flamegraph__capstone_decodes(struct dso *dso __maybe_unused,
				 struct machine *machine __maybe_unused,
				 struct symbol *sym __maybe_unused)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	struct flamegraph_decoder d;
	int err = flamegraph_decoder__init(&d, dso, machine, sym);

	if (err)
		return err;
	while (flamegraph_decoder__next(&d))
		;
	err = d.size == 0;
	flamegraph_decoder__exit(&d);
	return err;
#else
	return -EOPNOTSUPP;
#endif
}

int flamegraph__sampled_ranges(struct dso *dso __maybe_unused,
			       struct machine *machine __maybe_unused,
			       struct symbol *sym, const u64 *offsets, size_t nr,
			       struct flamegraph_range **ranges)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	u64 len = sym->end - sym->start, covered = 0;
	struct flamegraph_range *r;
	struct flamegraph_decoder d;
	size_t i = 0;
	int nr_ranges = 0, err;

	*ranges = NULL;
	if (len < FLAMEGRAPH_RANGES_MIN_SYMBOL || !nr)
		return 0;
	r = calloc(nr, sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = flamegraph_decoder__init(&d, dso, machine, sym);
	if (err) {
		free(r);
		return err == -ENOMEM ? err : 0;
	}

	/*
	 * Decode all of it, as perf's capstone path does: where capstone
	 * stops early, perf annotate falls back to objdump, and so must we.
	 */
	while (flamegraph_decoder__next(&d)) {
		u64 start = d.insn->address, end = start + d.insn->size;

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
	if (d.size || i != nr ||
	    nr_ranges * FLAMEGRAPH_RANGES_COST + covered >= len) {
		nr_ranges = 0;
	} else {
		*ranges = r;
		r = NULL;
	}
	free(r);
	flamegraph_decoder__exit(&d);
	return nr_ranges;
#else
	*ranges = NULL;
	return 0;
#endif
}
