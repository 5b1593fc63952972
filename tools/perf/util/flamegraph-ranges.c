// SPDX-License-Identifier: GPL-2.0
/*
 * The parts of a large sampled function that perf flamegraph --asm needs
 * disassembled: a few sampled instructions of a 100 kB function don't
 * need its 25,000 instructions parsed into perf's disasm lines.  And,
 * from the same decoding, whether perf's capstone path will read a
 * symbol at all or leave it to objdump.
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
/*
 * Sampled instructions closer than this share a range: disassembling the
 * bytes between them costs less than one more range does.
 */
#define FLAMEGRAPH_RANGES_GAP		256
/*
 * What one more disassembly costs (finding the image, opening it,
 * reading the ELF program headers, a capstone handle) in bytes of
 * instructions disassembled, roughly, as measured on gcc's cc1.
 */
#define FLAMEGRAPH_RANGES_COST		256

/*
 * Capstone handles for 64- and 32-bit x86 code, opened when first needed
 * and kept for every symbol (opening one, and its first decoding, which
 * builds capstone's instruction table, costs about what decoding a small
 * function does), and a buffer for the symbol's bytes.
 */
struct flamegraph_decoder {
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	csh		handle[2];
	cs_insn		*insn[2];
	bool		open[2];
#endif
	u8		*buf;
	size_t		alloc;
	/* The last DSO's dso__type(), which reads its ELF header. */
	const struct dso *last_dso;
	bool		last_is_64bit;
};

struct flamegraph_decoder *flamegraph_decoder__new(void)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	return zalloc(sizeof(struct flamegraph_decoder));
#else
	return NULL;
#endif
}

void flamegraph_decoder__delete(struct flamegraph_decoder *d)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	int i;

	if (!d)
		return;
	for (i = 0; i < 2; i++) {
		if (!d->open[i])
			continue;
		cs_free(d->insn[i], 1);
		cs_close(&d->handle[i]);
	}
	free(d->buf);
	free(d);
#else
	free(d);
#endif
}

#ifdef HAVE_LIBCAPSTONE_SUPPORT
/* The handle for @is_64bit code, without operand details. */
static int flamegraph_decoder__handle(struct flamegraph_decoder *d, bool is_64bit)
{
	int i = is_64bit;

	if (d->open[i])
		return i;
	if (cs_open(CS_ARCH_X86, is_64bit ? CS_MODE_64 : CS_MODE_32,
		    &d->handle[i]) != CS_ERR_OK)
		return -ENOENT;
	d->insn[i] = cs_malloc(d->handle[i]);
	if (!d->insn[i]) {
		cs_close(&d->handle[i]);
		return -ENOMEM;
	}
	d->open[i] = true;
	return i;
}

/* @sym's bytes in d->buf.  Return: 0, -ENOMEM, or -ENOENT (unreadable). */
static int flamegraph_decoder__read(struct flamegraph_decoder *d,
				    struct dso *dso, struct machine *machine,
				    struct symbol *sym)
{
	size_t len = sym->end - sym->start;

	if (len > d->alloc) {
		u8 *buf = realloc(d->buf, len);

		if (!buf)
			return -ENOMEM;
		d->buf = buf;
		d->alloc = len;
	}
	/* Map-relative addresses of user-space DSOs are file offsets. */
	if (dso__data_read_offset(dso, machine, sym->start, d->buf, len) != (ssize_t)len)
		return -ENOENT;
	return 0;
}
#endif

int flamegraph__sampled_ranges(struct flamegraph_decoder *d __maybe_unused,
			       struct dso *dso __maybe_unused,
			       struct machine *machine __maybe_unused,
			       struct symbol *sym __maybe_unused,
			       const u64 *offsets __maybe_unused,
			       size_t nr __maybe_unused,
			       struct flamegraph_range **ranges)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	u64 len = sym->end - sym->start, covered = 0, addr = 0;
	struct flamegraph_range *r;
	bool boundaries = true;
	const u8 *code;
	size_t size, i = 0;
	int nr_ranges = 0, h;
	cs_insn *insn;

	*ranges = NULL;
	if (!nr)
		return 0;
	h = flamegraph_decoder__read(d, dso, machine, sym);
	if (h)
		return h == -ENOMEM ? h : 0;
	if (dso != d->last_dso) {
		d->last_is_64bit = dso__type(dso, machine) == DSO__TYPE_64BIT;
		d->last_dso = dso;
	}
	h = flamegraph_decoder__handle(d, d->last_is_64bit);
	if (h < 0)
		return h == -ENOMEM ? h : 0;
	insn = d->insn[h];
	r = calloc(nr, sizeof(*r));
	if (!r)
		return -ENOMEM;

	/*
	 * Decode all of it, as perf's capstone path does: where capstone
	 * stops early, perf annotate falls back to objdump, and so must we.
	 */
	code = d->buf;
	size = len;
	while (cs_disasm_iter(d->handle[h], &code, &size, &addr, insn)) {
		u64 start = insn->address, end = start + insn->size;

		/* Inside an instruction: perf annotate sums it to that one. */
		for (; i < nr && offsets[i] < start; i++)
			boundaries = false;
		if (i == nr || offsets[i] != start)
			continue;
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
	if (size) {
		nr_ranges = -ENOEXEC;
	} else if (!boundaries || i != nr || len < FLAMEGRAPH_RANGES_MIN_SYMBOL ||
		   nr_ranges * FLAMEGRAPH_RANGES_COST + covered >= len) {
		nr_ranges = 0;
	} else {
		*ranges = r;
		r = NULL;
	}
	free(r);
	return nr_ranges;
#else
	*ranges = NULL;
	return 0;
#endif
}
