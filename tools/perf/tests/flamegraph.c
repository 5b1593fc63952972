// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the flame-graph tree and its writers with fake samples on the
 * fake machine of hists_common.c: keys, labels of functions sharing a
 * name, unknown frames, instruction leaves and the escaping of hostile
 * symbol names in JSON and folded output.
 */
#include <elf.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "util/debug.h"
#include "util/flamegraph.h"
#include "util/flamegraph-arena.h"
#include "util/flamegraph-builder.h"
#include "util/flamegraph-cache.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "tests/tests.h"
#include "tests/hists_common.h"

#define NO_SYM_IP	(FAKE_MAP_PERF + 16)

struct fake_frame {
	u64	ip;
	bool	kernel;
};

/* Resolve @ip in @thread as a sample would; references stay in @al. */
static void resolve(struct thread *thread, const struct fake_frame *ff,
		    struct addr_location *al, struct flamegraph_frame *frame)
{
	/* The fake machine maps [kernel] in each thread, as user space. */
	thread__find_symbol(thread, PERF_RECORD_MISC_USER, ff->ip, al);
	frame->ms.maps = thread__maps(thread);
	frame->ms.map = al->map;
	frame->ms.sym = al->sym;
	frame->ip = ff->ip;
	frame->kernel = ff->kernel;
}

/* Add a sample: @ffs outermost first, the last one is the sample IP. */
static int add_sample(struct flamegraph *fg, struct machine *machine,
		      pid_t pid, const struct fake_frame *ffs, int nr, bool insn,
		      struct symbol *sym_override)
{
	struct thread *thread = machine__findnew_thread(machine, pid, pid);
	struct flamegraph_frame frames[8];
	struct addr_location al[8];
	int i, err;

	for (i = 0; i < nr; i++) {
		addr_location__init(&al[i]);
		resolve(thread, &ffs[i], &al[i], &frames[i]);
	}
	if (sym_override)
		frames[nr - 1].ms.sym = sym_override;
	err = flamegraph__add(fg, thread__comm_str(thread), frames, nr,
			      insn ? &frames[nr - 1] : NULL);
	for (i = 0; i < nr; i++)
		addr_location__exit(&al[i]);
	thread__put(thread);
	return err;
}

/*
 * @fg written in @fmt (FLAMEGRAPH_HTML: its HTML-safe JSON, or with
 * @page the whole page), to free(); NULL when it could not be written.
 */
static char *write_to_string(struct flamegraph *fg, enum flamegraph_format fmt,
			     const struct flamegraph_info *page)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int err;

	if (!fp)
		return NULL;
	if (page)
		err = flamegraph__write_html(fg, fp, page);
	else if (fmt == FLAMEGRAPH_FOLDED)
		err = flamegraph__write_folded(fg, fp);
	else
		err = flamegraph__write_json(fg, fp, fmt == FLAMEGRAPH_HTML);
	fclose(fp);
	if (err)
		zfree(&buf);
	return buf;
}

/* Is there a leaf with these keys, in the order the JSON writer uses? */
static bool json_has_leaf(const char *json, const char *n, const char *l,
			  int v, const char *k, const char *d, const char *a)
{
	char node[256];

	snprintf(node, sizeof(node),
		 "{\"n\":\"%s\",\"l\":\"%s\",\"v\":%d,\"k\":\"%s\",\"d\":\"%s\",\"a\":\"%s\",\"c\":[]}",
		 n, l, v, k, d, a);
	return strstr(json, node);
}

static const struct fake_frame record[] = {
	{ FAKE_IP_PERF_MAIN, false }, { FAKE_IP_PERF_RUN_COMMAND, false },
	{ FAKE_IP_PERF_CMD_RECORD + 4, false },
};

static const struct fake_frame record_other_ip[] = {
	{ FAKE_IP_PERF_MAIN, false }, { FAKE_IP_PERF_RUN_COMMAND, false },
	{ FAKE_IP_PERF_CMD_RECORD + 8, false },
};

static const struct fake_frame bash_malloc[] = {
	{ FAKE_IP_BASH_MAIN, false }, { FAKE_IP_BASH_XMALLOC, false },
	{ FAKE_IP_LIBC_MALLOC, false },
};

static const struct fake_frame perf_syscall[] = {
	{ FAKE_IP_PERF_MAIN, false }, { FAKE_IP_KERNEL_SYS_PERF_EVENT_OPEN, true },
};

static const struct fake_frame perf_no_sym[] = {
	{ FAKE_IP_PERF_MAIN, false }, { NO_SYM_IP, false },
};

/*
 * Comms, then functions by label, then unknown frames; both mains are
 * qualified because two functions (in perf and bash) share the name.
 */
static const char expected_folded[] =
	"bash;main (bash+0x2bc);xmalloc;malloc 1\n"
	"perf;main (perf+0x2bc);evil:name </script>\xad 1\n"
	"perf;main (perf+0x2bc);run_command;cmd_record;[0x388] 2\n"
	"perf;main (perf+0x2bc);run_command;cmd_record;[0x38c] 1\n"
	"perf;main (perf+0x2bc);sys_perf_event_open 1\n"
	"perf;main (perf+0x2bc);[unknown];[0x10] 1\n";

/* The deepest node of the first path of @node. */
static struct flamegraph_node *first_leaf(struct flamegraph_node *node)
{
	while (!RB_EMPTY_ROOT(&node->children))
		node = rb_entry(rb_first(&node->children), struct flamegraph_node, rb_node);
	return node;
}

/*
 * Two IPs that flamegraph__annotate() finds in one instruction (an IP in
 * the middle of it) must end as one leaf with both samples.
 */
static int test_merge_insns(struct machine *machine)
{
	struct flamegraph_node *a, *b;
	struct flamegraph fg;
	char *folded = NULL;
	int err = TEST_FAIL;

	flamegraph__init(&fg);
	if (add_sample(&fg, machine, FAKE_PID_PERF1, record, 3, true, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_PERF1, record_other_ip, 3, true, NULL))
		goto out;
	/* As flamegraph__annotate() labels them: one instruction at 0x388. */
	a = first_leaf(&fg.root);
	b = rb_entry(rb_next(&a->rb_node), struct flamegraph_node, rb_node);
	if (a->kind != FLAMEGRAPH_INSN || b->kind != FLAMEGRAPH_INSN)
		goto out;
	b->objdump_addr = a->objdump_addr;
	if (flamegraph__set_label(&fg, a, "insn [%#x]", 0x388) ||
	    flamegraph__set_label(&fg, b, "insn [%#x]", 0x388) ||
	    flamegraph__finish(&fg))
		goto out;
	folded = write_to_string(&fg, FLAMEGRAPH_FOLDED, NULL);
	if (fg.nr_insns == 1 && fg.nr_nodes == 6 && folded &&
	    !strcmp(folded, "perf;main;run_command;cmd_record;insn [0x388] 2\n"))
		err = TEST_OK;
	else
		pr_debug("merged: %" PRIu64 " insns, %" PRIu64 " nodes:\n%s\n",
			 fg.nr_insns, fg.nr_nodes, folded ?: "");
out:
	free(folded);
	flamegraph__exit(&fg);
	return err;
}

/*
 * The page: its data is the compact form with a string table, where the
 * hostile name is one escaped string, and no markup but the page's own.
 */
static int test_html_page(struct flamegraph *fg)
{
	struct flamegraph_info info = {
		.title	 = "t<i>tle",
		.input	 = "in.data",
		.header	 = "# hostname : <b>h</b>\n",
	};
	char *buf, *data, *end;
	int err = TEST_FAIL, nr_scripts;

	buf = write_to_string(fg, FLAMEGRAPH_HTML, &info);
	if (!buf)
		return TEST_FAIL;
	data = strstr(buf, "<script type=\"application/json\" id=\"fg-data\">");
	end = data ? strstr(data, "</script>") : NULL;
	if (!data || !end)
		goto out;
	data = strchr(data, '>') + 1;
	*end = '\0';
	/* No markup inside the data, whatever the names hold. */
	if (strpbrk(data, "<>&"))
		goto out;
	if (!strstarts(data, "{\"v\":1,\"info\":{\"input\":\"in.data\",") ||
	    !strstr(data, "\"header\":\"# hostname : \\u003cb\\u003eh\\u003c/b\\u003e\\n\"") ||
	    !strstr(data, ",\"evil;name\\n\\u003c/script\\u003e\\ufffd\",") ||
	    !strstr(data, "\"root\":[0,0,-1,0,\"\",-1,[[1,1,-1,0,\"\",-1,["))
		goto out;
	/* The title is text; the page has exactly its two scripts. */
	*end = '<';
	if (strstr(buf, "t<i>tle") || !strstr(buf, "<title>t&lt;i&gt;tle</title>"))
		goto out;
	for (data = buf, nr_scripts = 0; (data = strstr(data, "<script")); data++)
		nr_scripts++;
	if (nr_scripts != 2)
		goto out;
	err = TEST_OK;
out:
	if (err)
		pr_debug("html page:\n%s\n", buf ?: "");
	free(buf);
	return err;
}

/*
 * The HTML page's string table holds each string once, in the order the
 * nodes are written, through the growth of its index: @fg has @nr
 * distinct address leaves "[0x<addr>]" from 0x2000 on, 4 bytes apart,
 * each under two comms.
 */
static int test_html_strings(struct flamegraph *fg, int nr)
{
	struct flamegraph_info info = { .input = "in.data", };
	char *buf, *strings, *end, *p, label[32];
	int i, err = TEST_FAIL;

	buf = write_to_string(fg, FLAMEGRAPH_HTML, &info);
	if (!buf)
		return TEST_FAIL;
	strings = strstr(buf, "\"strings\":[");
	end = strings ? strstr(strings, "],\n\"root\":") : NULL;
	if (!end)
		goto out;
	*end = '\0';
	for (p = strings, i = 0; (p = strstr(p, "\"[0x")); p++)
		i++;
	if (i != nr)
		goto out;
	for (p = strings, i = 0; i < nr; i++) {
		scnprintf(label, sizeof(label), "\"[%#x]\"", 0x2000 + 4 * i);
		p = strstr(p, label);
		if (!p)
			goto out;
	}
	err = TEST_OK;
out:
	if (err)
		pr_debug("html strings: %s\n", buf ?: "");
	free(buf);
	return err;
}

/*
 * Parents with more children than a walk of their rbtree is cheap for:
 * looked up by hash (flamegraph__child()), in a table that grows several
 * times on the way.  Two parents with the same addresses under them keep
 * theirs apart.  Same counts, same order.
 */
#define MANY_CHILDREN	3000

static int test_many_children(void)
{
	static const char * const comms[] = { "many", "more" };
	struct flamegraph_frame frame = { .ip = 0x1000 };
	struct flamegraph_frame insn = { .ip = 0 };
	struct flamegraph fg;
	int i, c, round, err = TEST_FAIL;

	flamegraph__init(&fg);
	for (round = 0; round < 2; round++) {
		/* Backwards, then forwards: the tree keeps them in IP order. */
		for (i = 0; i < MANY_CHILDREN; i++) {
			for (c = 0; c < 2; c++) {
				insn.ip = 0x2000 + 4 * (round ? i : MANY_CHILDREN - 1 - i);
				if (flamegraph__add_samples(&fg, comms[c], &frame, 1, &insn,
							    c + 1))
					goto out;
			}
		}
	}
	if (flamegraph__finish(&fg))
		goto out;
	/* all, two comms, their [unknown], and the address leaves */
	if (fg.nr_nodes != 5 + 2 * MANY_CHILDREN || fg.nr_insns != 2 * MANY_CHILDREN ||
	    fg.root.total != 2 * 3 * MANY_CHILDREN || fg.root.nr_children != 2)
		goto out;
	for (c = 0; c < 2; c++) {
		struct flamegraph_node *parent = fg.root.sorted[c]->sorted[0];

		if (strcmp(fg.root.sorted[c]->comm, comms[c]) ||
		    parent->nr_children != MANY_CHILDREN)
			goto out;
		for (i = 0; i < MANY_CHILDREN; i++) {
			struct flamegraph_node *leaf = parent->sorted[i];

			if (leaf->self != 2 * (u64)(c + 1) ||
			    leaf->addr != 0x2000 + 4 * (u64)i)
				goto out;
		}
	}
	err = test_html_strings(&fg, MANY_CHILDREN);
out:
	flamegraph__exit(&fg);
	return err;
}

/*
 * The arena: zeroed memory, aligned as asked, objects that don't
 * overlap, chunks chained (more than one 2 MiB chunk's worth) and an
 * object bigger than a chunk.
 */
static int test_arena(void)
{
	struct flamegraph_arena arena = { .chunks = NULL };
	static const size_t sizes[] = { 1, 24, 160, 8, 4000 };
	static const size_t aligns[] = { 0, 16, 64, 4096 };
	char *prev = NULL, *p;
	size_t prev_size = 0, total = 0, i, j;
	int err = TEST_FAIL;

	for (i = 0; total < (5UL << 20); i++) {
		size_t size = sizes[i % ARRAY_SIZE(sizes)];
		size_t align = aligns[i % ARRAY_SIZE(aligns)];

		p = flamegraph_arena__zalloc(&arena, size, align);
		if (!p) {
			pr_debug("arena: no memory for %zu bytes\n", size);
			goto out;
		}
		if ((uintptr_t)p % (align ?: 16)) {
			pr_debug("arena: %p is not aligned to %zu\n", p, align);
			goto out;
		}
		for (j = 0; j < size; j++) {
			if (p[j])
				goto out;
		}
		/* In one chunk, each after the one before; filled, so it shows. */
		if (prev && p > prev && p < prev + prev_size)
			goto out;
		memset(p, 0xa5, size);
		prev = p;
		prev_size = size;
		total += size;
	}
	TEST_ASSERT_VAL("chunks", arena.chunks && arena.cur);
	p = flamegraph_arena__zalloc(&arena, 3UL << 20, 64);
	TEST_ASSERT_VAL("bigger than a chunk", p && !p[0] && !p[(3UL << 20) - 1]);
	memset(p, 0xa5, 3UL << 20);
	TEST_ASSERT_VAL("not a power of two", !flamegraph_arena__zalloc(&arena, 8, 48));
	TEST_ASSERT_VAL("no size", !flamegraph_arena__zalloc(&arena, 0, 16));
	TEST_ASSERT_VAL("too big", !flamegraph_arena__zalloc(&arena, SIZE_MAX - 8, 16));
	err = TEST_OK;
out:
	flamegraph_arena__exit(&arena);
	TEST_ASSERT_VAL("empty again", !arena.chunks && !arena.cur);
	return err;
}

/* Frames deeper than a batch of the builder holds (256 KiB). */
#define DEEP_FRAMES	7000
/* Samples of a leaf seen before, 16 bytes each: more than a batch. */
#define MANY_SAMPLES	20000

/*
 * The builder's thread makes the tree the calling thread would: the same
 * samples, given as the sample handler gives them (a cache's slot for a
 * leaf or callers seen before), make the same folded output as
 * flamegraph__add().
 */
static int test_builder(struct machine *machine)
{
	struct thread *perf = machine__findnew_thread(machine, FAKE_PID_PERF1, FAKE_PID_PERF1);
	struct thread *bash = machine__findnew_thread(machine, FAKE_PID_BASH, FAKE_PID_BASH);
	struct flamegraph_frame rec[3], other[3], malloc_frames[3], *deep;
	struct addr_location al[9];
	struct flamegraph direct, built;
	struct flamegraph_builder *b = NULL;
	char *want = NULL, *got = NULL;
	int i, err = TEST_FAIL;

	flamegraph__init(&direct);
	flamegraph__init(&built);
	deep = calloc(DEEP_FRAMES, sizeof(*deep));
	for (i = 0; i < 9; i++)
		addr_location__init(&al[i]);
	if (!perf || !bash || !deep)
		goto out;
	for (i = 0; i < 3; i++) {
		resolve(perf, &record[i], &al[i], &rec[i]);
		resolve(perf, &record_other_ip[i], &al[3 + i], &other[i]);
		resolve(bash, &bash_malloc[i], &al[6 + i], &malloc_frames[i]);
	}
	for (i = 0; i < DEEP_FRAMES; i++)
		deep[i] = rec[0];

	if (flamegraph__add(&direct, "perf", rec, 3, &rec[2]) ||
	    flamegraph__add_samples(&direct, "perf", rec, 3, &rec[2], MANY_SAMPLES) ||
	    flamegraph__add(&direct, "perf", other, 3, &other[2]) ||
	    flamegraph__add(&direct, "bash", malloc_frames, 3, NULL) ||
	    flamegraph__add(&direct, "perf", deep, DEEP_FRAMES, &deep[0]) ||
	    flamegraph__add(&direct, "perf", other, 3, &other[2]))
		goto out;

	b = flamegraph_builder__new(&built, 2, 1, NULL);
	if (!b)
		goto out;
	{
		/* A new stack: its callers in slot 0, its leaf in slot 0. */
		struct flamegraph_builder_sample first = {
			.comm = "perf", .from_slot = -1, .frames = rec, .nr_frames = 3,
			.insn = &rec[2], .callers_slot = 0, .leaf_slot = 0,
		};
		/* The same callers, another IP: from callers slot 0. */
		struct flamegraph_builder_sample by_callers = {
			.from_slot = 0, .frames = &other[2], .nr_frames = 1,
			.insn = &other[2], .callers_slot = -1, .leaf_slot = 1,
		};
		struct flamegraph_builder_sample no_slots = {
			.comm = "bash", .from_slot = -1, .frames = malloc_frames,
			.nr_frames = 3, .callers_slot = -1, .leaf_slot = -1,
		};
		struct flamegraph_builder_sample too_deep = {
			.comm = "perf", .from_slot = -1, .frames = deep,
			.nr_frames = DEEP_FRAMES, .insn = &deep[0],
			.callers_slot = -1, .leaf_slot = -1,
		};

		if (flamegraph_builder__add(b, &first))
			goto out;
		/* Batches full: walked by the thread, not at a sync. */
		for (i = 0; i < MANY_SAMPLES; i++) {
			if (flamegraph_builder__account(b, 0))
				goto out;
		}
		if (flamegraph_builder__add(b, &by_callers) ||
		    flamegraph_builder__add(b, &no_slots) ||
		    flamegraph_builder__add(b, &too_deep) ||
		    flamegraph_builder__account(b, 1) ||
		    flamegraph_builder__finish(b))
			goto out;
	}
	if (built.nr_samples != 5 + MANY_SAMPLES || built.nr_nodes != direct.nr_nodes ||
	    built.nr_insns != direct.nr_insns ||
	    flamegraph__finish(&direct) || flamegraph__finish(&built))
		goto out;
	want = write_to_string(&direct, FLAMEGRAPH_FOLDED, NULL);
	got = write_to_string(&built, FLAMEGRAPH_FOLDED, NULL);
	if (want && got && !strcmp(want, got))
		err = TEST_OK;
out:
	if (err)
		pr_debug("flame graph builder test failed:\n%s\nexpected:\n%s\n",
			 got ?: "(none)", want ?: "(none)");
	flamegraph_builder__delete(b);
	flamegraph__exit(&built);
	flamegraph__exit(&direct);
	for (i = 0; i < 9; i++)
		addr_location__exit(&al[i]);
	free(deep);
	free(want);
	free(got);
	thread__put(perf);
	thread__put(bash);
	return err;
}

/* The cache of resolved samples: equal keys hit, any difference misses. */
static int test_cache(void)
{
	/* One slot: every lookup compares with the key there. */
	struct flamegraph_cache *cache = flamegraph_cache__new(0);
	struct flamegraph_cache_value va = { .filtered = true, },
				      vb = { .kernel_unmapped = true, }, got;
	const struct flamegraph_cache_stats *st;
	struct flamegraph_cache_key ka, kb;
	u64 ips[] = { PERF_CONTEXT_USER, 0x401126, 0x401174 };
	u64 same[] = { PERF_CONTEXT_USER, 0x401126, 0x401174 };
	u64 other[] = { PERF_CONTEXT_USER, 0x401126, 0x401178 };
	int err = TEST_FAIL;

	TEST_ASSERT_VAL("No memory", cache);
	flamegraph_cache_key__init(&ka, NULL, 10, 11, PERF_RECORD_MISC_USER,
				   0x401126, 3, ips);
	if (flamegraph_cache__slot(cache, &ka) != 0 ||
	    flamegraph_cache__find(cache, &ka, &got) ||
	    flamegraph_cache__add(cache, &ka, &va) ||
	    !flamegraph_cache__find(cache, &ka, &got) || (!got.filtered || got.kernel_unmapped))
		goto out;
	/* Another callchain, thread, or cpumode: not the same sample. */
	flamegraph_cache_key__init(&kb, NULL, 10, 11, PERF_RECORD_MISC_USER,
				   0x401126, 3, other);
	if (flamegraph_cache__find(cache, &kb, &got))
		goto out;
	flamegraph_cache_key__init(&kb, NULL, 10, 12, PERF_RECORD_MISC_USER,
				   0x401126, 3, ips);
	if (flamegraph_cache__find(cache, &kb, &got))
		goto out;
	flamegraph_cache_key__init(&kb, NULL, 10, 11, PERF_RECORD_MISC_KERNEL,
				   0x401126, 3, ips);
	if (flamegraph_cache__find(cache, &kb, &got))
		goto out;
	/* The cache keeps its own copy of the callchain. */
	ips[2] = 0;
	flamegraph_cache_key__init(&kb, NULL, 10, 11, PERF_RECORD_MISC_USER,
				   0x401126, 3, same);
	if (!flamegraph_cache__find(cache, &kb, &got) || (!got.filtered || got.kernel_unmapped))
		goto out;
	ips[2] = 0x401174;

	/* One slot: another key takes it over. */
	flamegraph_cache_key__init(&kb, NULL, 10, 11, PERF_RECORD_MISC_USER,
				   0x500000, 3, ips);
	if (flamegraph_cache__add(cache, &kb, &vb) ||
	    flamegraph_cache__find(cache, &ka, &got) ||
	    !flamegraph_cache__find(cache, &kb, &got) || (got.filtered || !got.kernel_unmapped))
		goto out;

	/* Another process's events leave it; its own forget it. */
	flamegraph_cache__flush_pid(cache, 12);
	if (!flamegraph_cache__find(cache, &kb, &got) || (got.filtered || !got.kernel_unmapped))
		goto out;
	flamegraph_cache__flush_pid(cache, 10);
	if (flamegraph_cache__find(cache, &kb, &got) ||
	    flamegraph_cache__add(cache, &kb, &vb) ||
	    !flamegraph_cache__find(cache, &kb, &got) || (got.filtered || !got.kernel_unmapped))
		goto out;

	/* An event that changes the machine empties it. */
	flamegraph_cache__flush(cache);
	if (flamegraph_cache__find(cache, &kb, &got))
		goto out;
	st = flamegraph_cache__stats(cache);
	if (st->hits != 5 || st->misses != 7 || st->flushes != 1 ||
	    st->pid_flushes != 2)
		goto out;
	err = TEST_OK;
out:
	if (err)
		pr_debug("flame graph cache test failed\n");
	flamegraph_cache__delete(cache);
	return err;
}

static int test__flamegraph(struct test_suite *test __maybe_unused,
			    int subtest __maybe_unused)
{
	struct symbol *evil = symbol__new(FAKE_SYM_OFFSET2 + 50, 10, STB_LOCAL,
					  STT_FUNC, "evil;name\n</script>\xad");
	struct machines machines;
	struct machine *machine;
	struct flamegraph fg;
	char *json = NULL, *html = NULL, *folded = NULL;
	int err = TEST_FAIL;

	TEST_ASSERT_VAL("No memory", evil);
	machines__init(&machines);
	machine = setup_fake_machine(&machines);
	if (!machine)
		goto out;

	flamegraph__init(&fg);
	if (add_sample(&fg, machine, FAKE_PID_PERF1, record, 3, true, NULL) ||
	    /* Another process of the same comm: the same frames. */
	    add_sample(&fg, machine, FAKE_PID_PERF2, record, 3, true, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_PERF1, record_other_ip, 3, true, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_BASH, bash_malloc, 3, false, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_PERF1, perf_syscall, 2, false, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_PERF1, perf_no_sym, 2, true, NULL) ||
	    add_sample(&fg, machine, FAKE_PID_PERF1, perf_no_sym, 2, false, evil))
		goto out_fg;
	TEST_ASSERT_VAL("finish", flamegraph__finish(&fg) == 0);

	TEST_ASSERT_VAL("samples", fg.nr_samples == 7 && fg.root.total == 7);
	/*
	 * all, 2 comms, 2 mains, run_command, cmd_record, 2 insns, xmalloc,
	 * malloc, sys_perf_event_open, [unknown], its insn, evil
	 */
	TEST_ASSERT_VAL("nodes", fg.nr_nodes == 15);
	TEST_ASSERT_VAL("insns", fg.nr_insns == 3);

	folded = write_to_string(&fg, FLAMEGRAPH_FOLDED, NULL);
	TEST_ASSERT_VAL("folded", folded);
	if (strcmp(folded, expected_folded)) {
		pr_debug("folded output:\n%s\nexpected:\n%s\n", folded, expected_folded);
		goto out_fg;
	}

	json = write_to_string(&fg, FLAMEGRAPH_JSON, NULL);
	TEST_ASSERT_VAL("json", json);
	TEST_ASSERT_VAL("root",
			strstarts(json, "{\"n\":\"all\",\"l\":\"\",\"v\":0,\"k\":\"root\","));
	TEST_ASSERT_VAL("hostile name in JSON",
			strstr(json, "\"n\":\"evil;name\\n</script>\\ufffd\""));
	TEST_ASSERT_VAL("kernel frame",
			json_has_leaf(json, "sys_perf_event_open", "kernel", 1, "func",
				      "[kernel]", "0x384"));
	TEST_ASSERT_VAL("insn leaf",
			json_has_leaf(json, "[0x388]", "", 2, "insn", "perf", "0x388"));

	html = write_to_string(&fg, FLAMEGRAPH_HTML, NULL);
	TEST_ASSERT_VAL("html-safe json", html);
	TEST_ASSERT_VAL("no markup in html-safe JSON",
			!strchr(html, '<') && !strchr(html, '>') && !strchr(html, '&'));
	TEST_ASSERT_VAL("escaped hostile name",
			strstr(html, "\"n\":\"evil;name\\n\\u003c/script\\u003e\\ufffd\""));
	TEST_ASSERT_VAL("html page", test_html_page(&fg) == TEST_OK);
	err = test_merge_insns(machine);
	if (err == TEST_OK)
		err = test_many_children();
	if (err == TEST_OK)
		err = test_builder(machine);
	if (err == TEST_OK)
		err = test_cache();
	if (err == TEST_OK)
		err = test_arena();
out_fg:
	flamegraph__exit(&fg);
out:
	free(json);
	free(html);
	free(folded);
	symbol__delete(evil);
	machines__exit(&machines);
	return err;
}

DEFINE_SUITE("Flame graph tree and writers", flamegraph);
