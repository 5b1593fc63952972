// SPDX-License-Identifier: GPL-2.0
/*
 * Where the instructions of a symbol start, decoding it from its start as
 * perf annotate does, and whether perf's capstone path reads it at all or
 * leaves it to objdump.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bitmap.h>
#include <linux/zalloc.h>

#include "dso.h"
#include "flamegraph-insns.h"
#include "symbol.h"

#ifdef HAVE_LIBCAPSTONE_SUPPORT
#include <capstone/capstone.h>
#endif

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
#endif

int flamegraph_decoder__open(struct flamegraph_decoder *d __maybe_unused,
			     bool is_64bit __maybe_unused)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	int h = flamegraph_decoder__handle(d, is_64bit);

	return h < 0 ? h : 0;
#else
	return -ENOENT;
#endif
}

bool flamegraph__user_image(struct dso *dso)
{
	return dso && dso__kernel(dso) == DSO_SPACE__USER && !dso__is_kcore(dso) &&
	       !dso__needs_decompress(dso) &&
	       dso__binary_type(dso) != DSO_BINARY_TYPE__BPF_PROG_INFO &&
	       dso__binary_type(dso) != DSO_BINARY_TYPE__BPF_IMAGE;
}

int flamegraph_decoder__load(struct flamegraph_decoder *d, struct dso *dso,
			     struct machine *machine, struct symbol *sym)
{
	size_t len = sym->end - sym->start;

	/*
	 * The image symbol__disassemble() reads (dso__disassemble_filename()):
	 * the build-id cache's or the one at the DSO's path, never a separate
	 * debuginfo file, whose code sections hold no bytes.
	 */
	if (dso__binary_type(dso) != DSO_BINARY_TYPE__BUILD_ID_CACHE &&
	    dso__binary_type(dso) != DSO_BINARY_TYPE__SYSTEM_PATH_DSO)
		return -ENOENT;
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
	if (dso != d->last_dso) {
		d->last_is_64bit = dso__type(dso, machine) == DSO__TYPE_64BIT;
		d->last_dso = dso;
	}
	return 0;
}

const u8 *flamegraph_decoder__code(const struct flamegraph_decoder *d,
				   bool *is_64bit)
{
	*is_64bit = d->last_is_64bit;
	return d->buf;
}

int flamegraph__insn_starts(struct flamegraph_decoder *d __maybe_unused,
			    struct dso *dso __maybe_unused,
			    struct machine *machine __maybe_unused,
			    struct symbol *sym __maybe_unused,
			    unsigned long **starts)
{
#ifdef HAVE_LIBCAPSTONE_SUPPORT
	size_t size = sym->end - sym->start;
	const u8 *code;
	u64 addr = 0;
	cs_insn *insn;
	int h;

	*starts = NULL;
	/* bitmap_zalloc() counts bits in an int. */
	if (!size || size > INT_MAX)
		return -ENOENT;
	h = flamegraph_decoder__load(d, dso, machine, sym);
	if (h)
		return h;
	h = flamegraph_decoder__handle(d, d->last_is_64bit);
	if (h < 0)
		return h;
	insn = d->insn[h];
	*starts = bitmap_zalloc(size);
	if (!*starts)
		return -ENOMEM;

	/*
	 * Decode all of it, as perf's capstone path does: where capstone
	 * stops early, perf annotate falls back to objdump, and so must we.
	 */
	code = d->buf;
	while (cs_disasm_iter(d->handle[h], &code, &size, &addr, insn))
		__set_bit(insn->address, *starts);
	if (size) {
		zfree(starts);
		return -ENOEXEC;
	}
	return 0;
#else
	*starts = NULL;
	return -ENOENT;
#endif
}

u64 flamegraph__insn_start(const unsigned long *starts, u64 offset)
{
	/* Bit 0 is set: the symbol's first instruction starts there. */
	while (offset && !test_bit(offset, starts))
		offset--;
	return offset;
}
