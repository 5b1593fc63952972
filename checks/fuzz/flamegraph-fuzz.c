// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the flame-graph tree and its three writers
 * (util/flamegraph.c, util/flamegraph-output.c, util/flamegraph-html.c):
 * arbitrary symbol names, comms and callchains, and the call sites of
 * their frames.
 *
 * Built by 'make fuzz' in the repository's top directory, not by perf's
 * build.  Frames carry symbols but no map, as for addresses outside any
 * mapping, so the map and maps functions below must never see one.
 *
 * Input: a table of up to 16 symbols (a length byte, then the name), then
 * samples: a control byte (frame count in the low 3 bits, an instruction
 * leaf in bit 3, kernel frames in bit 4), a comm (a length byte, then the
 * bytes) and a byte per frame choosing a symbol (>= 16: no symbol).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/addr_location.h"
#include "util/callchain.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/flamegraph.h"
#include "util/flamegraph-html.h"
#include "util/flamegraph-output.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/maps.h"
#include "util/map_symbol.h"
#include "util/symbol.h"
#include "util/thread.h"

#define NR_SYMS		16
#define MAX_FRAMES	8

void map__put(struct map *map)
{
	if (map)
		abort();
}

struct maps *maps__get(struct maps *maps)
{
	if (maps)
		abort();
	return NULL;
}

void map_symbol__exit(struct map_symbol *ms)
{
	if (ms->map || ms->thread)
		abort();
}

u64 map__rip_2objdump(const struct map *map __maybe_unused, u64 rip __maybe_unused)
{
	abort();
}

struct thread *thread__get(struct thread *thread)
{
	if (thread)
		abort();
	return NULL;
}

/* No frame has a DSO, so no build-id to print. */
bool build_id__is_defined(const struct build_id *bid __maybe_unused)
{
	abort();
}

int build_id__snprintf(const struct build_id *build_id __maybe_unused,
		       char *bf __maybe_unused, size_t bf_size __maybe_unused)
{
	abort();
}

/* flamegraph_frame__is_kernel() is not called here. */
int machine__get_kernel_start(struct machine *machine __maybe_unused)
{
	abort();
}

/* flamegraph__add_sample() reads perf samples: none here. */
int machine__resolve(struct machine *machine __maybe_unused,
		     struct addr_location *al __maybe_unused,
		     struct perf_sample *sample __maybe_unused)
{
	abort();
}

int __thread__resolve_callchain(struct thread *thread __maybe_unused,
				struct callchain_cursor *cursor __maybe_unused,
				struct perf_sample *sample __maybe_unused,
				struct symbol **parent __maybe_unused,
				struct addr_location *root_al __maybe_unused,
				int max_stack __maybe_unused,
				bool symbols __maybe_unused)
{
	abort();
}

struct callchain_cursor *get_tls_callchain_cursor(void)
{
	abort();
}

void addr_location__init(struct addr_location *al __maybe_unused)
{
	abort();
}

void addr_location__exit(struct addr_location *al __maybe_unused)
{
	abort();
}

const char *thread__comm_str(struct thread *thread __maybe_unused)
{
	abort();
}

/* flamegraph-output.c's output-file functions print with pr_err(). */
int verbose;

int eprintf(int level __maybe_unused, int var __maybe_unused,
	    const char *fmt __maybe_unused, ...)
{
	return 0;
}

/* No frame has a map here, so no DSO to ask about. */
bool is_perf_pid_map_name(const char *dso_name __maybe_unused)
{
	abort();
}

struct input {
	const uint8_t	*data;
	size_t		size;
};

static int input__byte(struct input *in)
{
	if (!in->size)
		return -1;
	in->size--;
	return *in->data++;
}

/* A NUL-terminated copy of the next length-prefixed string. */
static char *input__string(struct input *in)
{
	int len = input__byte(in);
	char *s;

	if (len < 0 || (size_t)len > in->size)
		return NULL;
	s = malloc(len + 1);
	if (!s)
		abort();
	memcpy(s, in->data, len);
	s[len] = '\0';
	in->data += len;
	in->size -= len;
	return s;
}

static bool utf8_valid(const unsigned char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 :
			   c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;

		if (!n || i + n > len)
			return false;
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
		}
		if (c < 0x20)
			return false;
		i += n;
	}
	return true;
}

/* Nodes with samples, and the ';' their folded lines must hold. */
static void count_stacks(const struct flamegraph_node *node, int depth,
			 size_t *stacks, size_t *semicolons)
{
	u32 i;

	if (node->self && node->kind != FLAMEGRAPH_ROOT) {
		(*stacks)++;
		*semicolons += depth - 1;
	}
	for (i = 0; i < node->nr_children; i++)
		count_stacks(node->sorted[i], depth + 1, stacks, semicolons);
}

static char *write_out(struct flamegraph *fg, int what, size_t *len)
{
	struct flamegraph_labels labels = { .event = "fuzz", .unit = "ns", };
	struct flamegraph_info info = { .title = "fuzz", };
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);

	if (!fp)
		abort();
	if (what == 0)
		flamegraph__write_json(fg, &labels, fp, false);
	else if (what == 1)
		flamegraph__write_json(fg, &labels, fp, true);
	else if (what == 2)
		flamegraph__write_folded(fg, fp);
	else
		flamegraph__write_html(fg, &labels, fp, &info);
	fclose(fp);
	return buf;
}

static void check_outputs(struct flamegraph *fg)
{
	size_t len, stacks = 0, semicolons = 0, lines = 0, seps = 0, i;
	char *out;

	if (fg->root.total_samples != fg->nr_samples || fg->root.total < fg->nr_samples)
		abort();

	out = write_out(fg, 0, &len);
	if (!utf8_valid((unsigned char *)out, len - 1) || out[len - 1] != '\n')
		abort();
	free(out);

	out = write_out(fg, 1, &len);
	if (!utf8_valid((unsigned char *)out, len) || memchr(out, '<', len) ||
	    memchr(out, '>', len) || memchr(out, '&', len))
		abort();
	free(out);

	count_stacks(&fg->root, 0, &stacks, &semicolons);
	out = write_out(fg, 2, &len);
	for (i = 0; i < len; i++) {
		lines += out[i] == '\n';
		seps += out[i] == ';';
	}
	if (lines != stacks || seps != semicolons)
		abort();
	free(out);

	free(write_out(fg, 3, &len));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { .data = data, .size = size, };
	struct symbol *syms[NR_SYMS] = { NULL, };
	struct flamegraph_frame frames[MAX_FRAMES];
	struct flamegraph_node *leaf;
	struct flamegraph fg;
	int nr_syms, ctl, i;

	nr_syms = input__byte(&in);
	nr_syms = nr_syms < 0 ? 0 : nr_syms % (NR_SYMS + 1);
	for (i = 0; i < nr_syms; i++) {
		char *name = input__string(&in);
		size_t len;

		if (!name)
			break;
		/* Names may repeat: symbols are told apart by their start. */
		len = strlen(name);
		syms[i] = calloc(1, sizeof(*syms[i]) + len + 1);
		if (!syms[i])
			abort();
		syms[i]->start = 0x1000 * (i + 1);
		syms[i]->end = syms[i]->start + 0x100;
		memcpy(syms[i]->name, name, len + 1);
		free(name);
	}

	if (flamegraph__init(&fg, FLAMEGRAPH_WEIGHT_PERIOD) || flamegraph__track_callsites(&fg))
		abort();
	while ((ctl = input__byte(&in)) >= 0) {
		char *comm = input__string(&in);
		int nr = ctl & 7;

		if (!comm)
			break;
		for (i = 0; i < nr; i++) {
			int pick = input__byte(&in);
			struct symbol *sym = pick >= 0 && pick < NR_SYMS ? syms[pick] : NULL;

			memset(&frames[i], 0, sizeof(frames[i]));
			frames[i].ms.sym = sym;
			frames[i].ip = sym ? sym->start + (pick & 0xf) : 0xdead0000 + pick;
			frames[i].kernel = ctl & 0x10;
		}
		leaf = flamegraph__leaf(&fg, comm, ctl & 0x40, frames, nr,
					(ctl & 8) && nr ? &frames[nr - 1] : NULL);
		if (!leaf)
			abort();
		flamegraph__account(&fg, leaf, 1, 1 + (ctl & 0x20));
		flamegraph__account_callsites(&fg, NULL, 1, 1 + (ctl & 0x20));
		free(comm);
	}
	if (flamegraph__finish(&fg))
		abort();
	check_outputs(&fg);
	flamegraph__exit(&fg);
	for (i = 0; i < NR_SYMS; i++)
		free(syms[i]);
	return 0;
}
