// SPDX-License-Identifier: GPL-2.0
/*
 * Tests of the flame-graph tree and its writers with fake samples on the
 * fake machine of hists_common.c: keys, labels of functions sharing a
 * name, unknown frames, instruction leaves, the stacks the tree
 * remembers, and the escaping of hostile symbol names in JSON, folded
 * output and the HTML page.
 */
#include <elf.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "util/debug.h"
#include "util/flamegraph.h"
#include "util/flamegraph-html.h"
#include "util/flamegraph-output.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "tests/tests.h"
#include "tests/hists_common.h"

#define NO_SYM_IP	(FAKE_MAP_PERF + 16)

/*
 * Whether a check holds; if not, its name and what was seen, with -v:
 * the test case fails on the first that doesn't.
 */
static bool fg_check(bool ok, const char *name, const char *fmt, ...) __printf(3, 4);

static bool fg_check(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		return true;
	pr_debug("FAILED check '%s': ", name);
	va_start(ap, fmt);
	veprintf(1, verbose, fmt, ap);
	va_end(ap);
	pr_debug("\n");
	return false;
}

struct fake_frame {
	u64	ip;
	bool	kernel;
};

/* The fake machine and a flame graph, for one test case. */
struct fg_test {
	struct machines	machines;
	struct machine	*machine;
	struct flamegraph fg;
	struct symbol	*evil;		/* a name like markup, for add_samples() */
	bool		truncated;	/* stacks added are cut ones */
};

static int fg_test__init_weight(struct fg_test *t, enum flamegraph_weight weight)
{
	t->evil = NULL;
	t->truncated = false;
	machines__init(&t->machines);
	t->machine = setup_fake_machine(&t->machines);
	if (!t->machine || flamegraph__init(&t->fg, weight)) {
		machines__exit(&t->machines);
		return -1;
	}
	return 0;
}

static int fg_test__init(struct fg_test *t)
{
	return fg_test__init_weight(t, FLAMEGRAPH_WEIGHT_PERIOD);
}

static void fg_test__exit(struct fg_test *t)
{
	flamegraph__exit(&t->fg);
	machines__exit(&t->machines);
	if (t->evil)
		symbol__delete(t->evil);
}

/*
 * Add @nr_samples samples of @pid, whose periods sum to @period: @ffs
 * outermost first, the last one is the sample IP; with @insn an
 * instruction leaf; @sym_override names the sampled function instead of
 * the fake machine's symbol.
 */
static int add_sample_period(struct fg_test *t, pid_t pid, const struct fake_frame *ffs,
			     int nr, bool insn, struct symbol *sym_override,
			     u64 nr_samples, u64 period)
{
	struct thread *thread = machine__findnew_thread(t->machine, pid, pid);
	struct flamegraph_frame frames[8];
	struct addr_location al[8];
	struct flamegraph_node *leaf;
	int i;

	for (i = 0; i < nr; i++) {
		addr_location__init(&al[i]);
		/* The fake machine maps [kernel] in each thread, as user space. */
		thread__find_symbol(thread, PERF_RECORD_MISC_USER, ffs[i].ip, &al[i]);
		frames[i] = (struct flamegraph_frame){
			.ms	= { .thread = thread, .map = al[i].map,
				    .sym = al[i].sym, },
			.ip	= ffs[i].ip,
			.kernel	= ffs[i].kernel,
		};
	}
	if (sym_override)
		frames[nr - 1].ms.sym = sym_override;
	leaf = flamegraph__leaf(&t->fg, thread__comm_str(thread), t->truncated, frames, nr,
				insn ? &frames[nr - 1] : NULL);
	if (leaf)
		flamegraph__account(&t->fg, leaf, nr_samples, period);
	for (i = 0; i < nr; i++)
		addr_location__exit(&al[i]);
	thread__put(thread);
	return leaf ? 0 : -1;
}

/* As add_sample_period(), each sample of period 1. */
static int add_sample(struct fg_test *t, pid_t pid, const struct fake_frame *ffs,
		      int nr, bool insn, struct symbol *sym_override, u64 nr_samples)
{
	return add_sample_period(t, pid, ffs, nr, insn, sym_override, nr_samples,
				 nr_samples);
}

/*
 * @fg written in @fmt (FLAMEGRAPH_HTML: its HTML-safe JSON, or with
 * @page the whole page), to free(); NULL when it could not be written.
 */
static char *write_to_string(struct flamegraph *fg, enum flamegraph_format fmt,
			     const struct flamegraph_info *page)
{
	struct flamegraph_labels labels = { .event = NULL, };
	char *buf = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&buf, &size);
	int err;

	if (!fp)
		return NULL;
	if (page)
		err = flamegraph__write_html(fg, &labels, fp, page);
	else if (fmt == FLAMEGRAPH_FOLDED)
		err = flamegraph__write_folded(fg, fp);
	else
		err = flamegraph__write_json(fg, &labels, fp, fmt == FLAMEGRAPH_HTML);
	fclose(fp);
	if (err)
		zfree(&buf);
	return buf;
}

/* Is there a leaf with these keys, in the order the JSON writer uses? */
static bool json_has_leaf(const char *json, const char *n, const char *l,
			  int v, int s, const char *k, const char *d, const char *a)
{
	char node[256];

	snprintf(node, sizeof(node),
		 "{\"n\":\"%s\",\"l\":\"%s\",\"v\":%d,\"s\":%d,\"k\":\"%s\",\"d\":\"%s\",\"a\":\"%s\",\"c\":[]}",
		 n, l, v, s, k, d, a);
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

/* cmd_record's instruction at +4, reached from main directly. */
static const struct fake_frame record_from_main[] = {
	{ FAKE_IP_PERF_MAIN, false }, { FAKE_IP_PERF_CMD_RECORD + 4, false },
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
 * Seven samples: two processes of perf, bash, a kernel frame, an address
 * without a symbol, and a symbol named like markup (@evil).
 */
static int add_samples(struct fg_test *t)
{
	struct symbol *evil = symbol__new(FAKE_SYM_OFFSET2 + 50, 10, STB_LOCAL,
					  STT_FUNC, "evil;name\n</script>\xad");

	t->evil = evil;
	if (!evil ||
	    add_sample(t, FAKE_PID_PERF1, record, 3, true, NULL, 1) ||
	    /* Another process of the same comm: the same frames. */
	    add_sample(t, FAKE_PID_PERF2, record, 3, true, NULL, 1) ||
	    add_sample(t, FAKE_PID_PERF1, record_other_ip, 3, true, NULL, 1) ||
	    add_sample(t, FAKE_PID_BASH, bash_malloc, 3, false, NULL, 1) ||
	    add_sample(t, FAKE_PID_PERF1, perf_syscall, 2, false, NULL, 1) ||
	    add_sample(t, FAKE_PID_PERF1, perf_no_sym, 2, true, NULL, 1) ||
	    add_sample(t, FAKE_PID_PERF1, perf_no_sym, 2, false, evil, 1))
		return -1;
	return flamegraph__finish(&t->fg);
}

/*
 * Comms, then functions by label, then unknown frames with their DSO;
 * both mains are qualified because two functions (in perf and bash)
 * share the name, and the byte that isn't UTF-8 is U+FFFD.  The leaves
 * have no text: nothing decoded them.
 */
static const char expected_folded[] =
	"bash;main (bash+0x2bc);xmalloc;malloc 1\n"
	"perf;main (perf+0x2bc);evil:name </script>\xef\xbf\xbd 1\n"
	"perf;main (perf+0x2bc);run_command;cmd_record;[0x388] 2\n"
	"perf;main (perf+0x2bc);run_command;cmd_record;[0x38c] 1\n"
	"perf;main (perf+0x2bc);sys_perf_event_open 1\n"
	"perf;main (perf+0x2bc);[unknown] (perf);[0x10] 1\n";

static int test__flamegraph_tree(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct fg_test t;
	char *folded = NULL;
	int err = TEST_FAIL;

	if (fg_test__init(&t))
		return TEST_FAIL;
	if (!fg_check(add_samples(&t) == 0, "add samples", "out of memory"))
		goto out;
	if (!fg_check(t.fg.nr_samples == 7 && t.fg.root.total == 7, "samples",
		      "%" PRIu64 " added, %" PRIu64 " in the tree",
		      t.fg.nr_samples, t.fg.root.total))
		goto out;
	/*
	 * all, 2 comms, 2 mains, run_command, cmd_record, 2 insns, xmalloc,
	 * malloc, sys_perf_event_open, [unknown], its insn, evil
	 */
	if (!fg_check(t.fg.nr_nodes == 15, "nodes", "%" PRIu64, t.fg.nr_nodes))
		goto out;
	if (!fg_check(t.fg.nr_leaves == 3, "leaves", "%" PRIu64, t.fg.nr_leaves))
		goto out;
	if (!fg_check(t.fg.nr_insns == 3, "distinct instructions", "%zu", t.fg.nr_insns))
		goto out;
	folded = write_to_string(&t.fg, FLAMEGRAPH_FOLDED, NULL);
	if (!fg_check(folded && !strcmp(folded, expected_folded), "folded",
		      "got:\n%s\nexpected:\n%s", folded ?: "", expected_folded))
		goto out;
	err = TEST_OK;
out:
	free(folded);
	fg_test__exit(&t);
	return err;
}

/* The root node of an empty-period graph, as flamegraph__write_json() starts it. */
static const char json_root[] =
	"{\"n\":\"all\",\"l\":\"\",\"v\":0,\"s\":0,\"weight\":\"period\",\"k\":\"root\",";

static int test__flamegraph_json(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	char *json = NULL, *html = NULL;
	struct fg_test t;
	int err = TEST_FAIL;

	if (fg_test__init(&t))
		return TEST_FAIL;
	if (!fg_check(add_samples(&t) == 0, "add samples", "out of memory"))
		goto out;
	json = write_to_string(&t.fg, FLAMEGRAPH_JSON, NULL);
	html = write_to_string(&t.fg, FLAMEGRAPH_HTML, NULL);
	if (!fg_check(json && html, "written", "out of memory"))
		goto out;
	if (!fg_check(strstarts(json, json_root), "root", "%.80s", json))
		goto out;
	if (!fg_check(strstr(json, "\"n\":\"evil;name\\n</script>\\ufffd\""),
		      "hostile name, valid UTF-8", "%s", json))
		goto out;
	if (!fg_check(json_has_leaf(json, "sys_perf_event_open", "kernel", 1, 1, "func",
				    "[kernel]", "0x384"),
		      "kernel frame", "%s", json))
		goto out;
	if (!fg_check(json_has_leaf(json, "[0x388]", "", 2, 2, "insn", "perf", "0x388"),
		      "instruction leaf", "%s", json))
		goto out;
	if (!fg_check(!strchr(html, '<') && !strchr(html, '>') && !strchr(html, '&'),
		      "no markup in HTML-safe JSON", "%s", html))
		goto out;
	if (!fg_check(strstr(html, "\"n\":\"evil;name\\n\\u003c/script\\u003e\\ufffd\""),
		      "escaped hostile name", "%s", html))
		goto out;
	err = TEST_OK;
out:
	free(json);
	free(html);
	fg_test__exit(&t);
	return err;
}

/*
 * The page: its data is the compact form with a string table, where the
 * hostile name is one escaped string, and no markup but the page's own.
 */
static int test__flamegraph_html(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	struct flamegraph_info info = {
		.title	 = "t<i>tle",
		.input	 = "in.data",
		.header	 = "# hostname : <b>h</b>\n",
	};
	static const char escaped_header[] =
		"\"header\":\"# hostname : \\u003cb\\u003eh\\u003c/b\\u003e\\n\"";
	char *buf = NULL, *data, *end, *p;
	int err = TEST_FAIL, nr_scripts = 0;
	struct fg_test t;

	if (fg_test__init(&t))
		return TEST_FAIL;
	if (!fg_check(add_samples(&t) == 0, "add samples", "out of memory"))
		goto out;
	buf = write_to_string(&t.fg, FLAMEGRAPH_HTML, &info);
	if (!fg_check(buf, "written", "out of memory"))
		goto out;
	data = strstr(buf, "<script type=\"application/json\" id=\"fg-data\">");
	end = data ? strstr(data, "</script>") : NULL;
	if (!fg_check(data && end, "data element", "%s", buf))
		goto out;
	data = strchr(data, '>') + 1;
	*end = '\0';
	if (!fg_check(!strpbrk(data, "<>&"), "no markup inside the data", "%s", data))
		goto out;
	if (!fg_check(strstarts(data, "{\"v\":1,\"info\":{\"input\":\"in.data\","), "info", "%s",
		      data))
		goto out;
	if (!fg_check(strstr(data, escaped_header), "escaped header", "%s", data))
		goto out;
	if (!fg_check(strstr(data, ",\"evil;name\\n\\u003c/script\\u003e\\ufffd\","),
		      "hostile name, one string", "%s", data))
		goto out;
	if (!fg_check(strstr(data, "\"root\":[0,0,-1,0,\"\",-1,[[1,1,-1,0,\"\",-1,["),
		      "compact root", "%s", data))
		goto out;
	*end = '<';
	if (!fg_check(!strstr(buf, "t<i>tle") && strstr(buf, "<title>t&lt;i&gt;tle</title>"),
		      "title as text", "%.300s", buf))
		goto out;
	for (p = buf; (p = strstr(p, "<script")); p++)
		nr_scripts++;
	if (!fg_check(nr_scripts == 2, "the page's two scripts", "%d", nr_scripts))
		goto out;
	err = TEST_OK;
out:
	free(buf);
	fg_test__exit(&t);
	return err;
}

/*
 * An IP reached on two paths is two leaves of one instruction: decoded
 * once, its samples the sum of both; another IP of the same function is
 * another instruction.
 */
static int test__flamegraph_insns(struct test_suite *test __maybe_unused,
				  int subtest __maybe_unused)
{
	struct flamegraph_insn *at4 = NULL;
	struct fg_test t;
	size_t i;
	int err = TEST_FAIL;

	if (fg_test__init(&t))
		return TEST_FAIL;
	if (!fg_check(!add_sample(&t, FAKE_PID_PERF1, record, 3, true, NULL, 2) &&
		      !add_sample(&t, FAKE_PID_PERF1, record_from_main, 2, true, NULL, 3) &&
		      !add_sample(&t, FAKE_PID_PERF2, record_other_ip, 3, true, NULL, 5),
		      "add samples", "out of memory"))
		goto out;
	if (!fg_check(t.fg.nr_leaves == 3, "leaves", "%" PRIu64, t.fg.nr_leaves))
		goto out;
	if (!fg_check(t.fg.nr_insns == 2, "instructions", "%zu", t.fg.nr_insns))
		goto out;
	for (i = 0; i < t.fg.nr_insns; i++) {
		if (t.fg.insns[i]->objdump_addr == FAKE_SYM_OFFSET3 + 4)
			at4 = t.fg.insns[i];
	}
	if (!fg_check(at4, "instruction at cmd_record+4", "not found"))
		goto out;
	flamegraph__count_insns(&t.fg);
	if (!fg_check(at4->weight == 5, "its weight", "%" PRIu64, at4->weight))
		goto out;
	if (!fg_check(at4->ms.sym && !strcmp(at4->ms.sym->name, "cmd_record"), "its symbol", "%s",
		      at4->ms.sym ? at4->ms.sym->name : "none"))
		goto out;
	if (!fg_check(at4->addr == FAKE_SYM_OFFSET3 + 4, "map-relative IP", "%#" PRIx64, at4->addr))
		goto out;
	err = TEST_OK;
out:
	fg_test__exit(&t);
	return err;
}

/*
 * The stacks the tree remembers: a key seen gives its node back (NULL
 * for a filtered sample) until its process's maps or comm change; a
 * change in another process forgets nothing of it; a change of the
 * kernel's maps forgets everyone's.  The leaves of IPs under callers
 * seen before go with their callers.
 */
static int test__flamegraph_stacks(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	u64 ips[] = { PERF_CONTEXT_USER, FAKE_IP_PERF_CMD_RECORD, FAKE_IP_PERF_MAIN };
	u64 other_ips[] = { PERF_CONTEXT_USER, FAKE_IP_PERF_CMD_RECORD, FAKE_IP_PERF_RUN_COMMAND };
	struct flamegraph_stack_key a = {
		.pid = FAKE_PID_PERF1, .tid = FAKE_PID_PERF1,
		.cpumode = PERF_RECORD_MISC_USER, .ip = FAKE_IP_PERF_CMD_RECORD,
		.nr = ARRAY_SIZE(ips), .ips = ips,
	}, b = a, other = a, filtered = a, callers = a;
	struct flamegraph_stack *sa, *sb, *sc;
	struct flamegraph_node *leaf = NULL, *func;
	struct addr_location al;
	struct thread *thread;
	struct fg_test t;
	int err = TEST_FAIL;

	if (fg_test__init(&t))
		return TEST_FAIL;
	/* cmd_record, sampled at +4 under main and run_command below. */
	addr_location__init(&al);
	thread = machine__findnew_thread(t.machine, FAKE_PID_PERF1, FAKE_PID_PERF1);
	thread__find_symbol(thread, PERF_RECORD_MISC_USER, FAKE_IP_PERF_CMD_RECORD + 4, &al);
	a.machine = t.machine;
	b.machine = t.machine;
	other.machine = t.machine;
	filtered.machine = t.machine;
	b.pid = FAKE_PID_PERF2;
	b.tid = FAKE_PID_PERF2;
	other.ips = other_ips;
	filtered.tid = FAKE_PID_PERF1 + 1;
	callers.machine = t.machine;
	callers.callers = true;
	callers.ip = 0;
	callers.ips = ips + 2;
	callers.nr = 1;
	if (!fg_check(!add_sample(&t, FAKE_PID_PERF1, record, 3, true, NULL, 1), "leaf",
		      "out of memory"))
		goto out;
	leaf = rb_entry(rb_first(&t.fg.root.children), struct flamegraph_node, rb_node);
	func = leaf->hint->hint->hint;
	if (!fg_check(func && func->ms.sym == al.sym, "the sampled function's node", "%p", func))
		goto out;
	if (!fg_check(!flamegraph__find_stack(&t.fg, &a), "not seen", "found"))
		goto out;
	sa = flamegraph__add_stack(&t.fg, &a, leaf);
	sb = flamegraph__add_stack(&t.fg, &b, leaf);
	if (!fg_check(sa && sb && flamegraph__add_stack(&t.fg, &filtered, NULL),
		      "remember", "out of memory"))
		goto out;
	if (!fg_check(flamegraph__find_stack(&t.fg, &a) == sa &&
		      flamegraph_stack__node(sa) == leaf, "seen", "not found"))
		goto out;
	if (!fg_check(!flamegraph__find_stack(&t.fg, &other), "other callchain", "found"))
		goto out;
	sc = flamegraph__find_stack(&t.fg, &filtered);
	if (!fg_check(sc && !flamegraph_stack__node(sc), "filtered", "%p", sc))
		goto out;
	if (!fg_check(!flamegraph__find_stack(&t.fg, &callers), "callers apart from stacks",
		      "found"))
		goto out;
	sc = flamegraph__add_stack(&t.fg, &callers, func->parent);
	if (!fg_check(sc && flamegraph__find_stack(&t.fg, &callers) == sc &&
		      flamegraph_stack__node(sc) == func->parent, "callers", "not found"))
		goto out;
	flamegraph__forget_stacks(&t.fg, FAKE_PID_PERF2);
	if (!fg_check(!flamegraph__find_stack(&t.fg, &b), "forgotten", "found"))
		goto out;
	if (!fg_check(flamegraph__find_stack(&t.fg, &a), "another process's kept", "lost"))
		goto out;
	if (!fg_check(flamegraph__add_stack(&t.fg, &b, leaf) == sb &&
		      flamegraph__find_stack(&t.fg, &b) == sb, "again", "not found"))
		goto out;
	flamegraph__forget_stacks(&t.fg, FAKE_PID_PERF1);
	if (!fg_check(!flamegraph__find_stack(&t.fg, &callers) &&
		      flamegraph__find_stack(&t.fg, &b) == sb,
		      "callers forgotten with their process", "found"))
		goto out;
	flamegraph__forget_stacks(&t.fg, -1);
	if (!fg_check(!flamegraph__find_stack(&t.fg, &a) && !flamegraph__find_stack(&t.fg, &b),
		      "the kernel's maps changed", "found"))
		goto out;
	err = TEST_OK;
out:
	addr_location__exit(&al);
	thread__put(thread);
	fg_test__exit(&t);
	return err;
}

/*
 * A parent with thousands of instruction leaves (a hot loop of a big
 * function), added out of order, under two comms: each leaf in address
 * order with its own count; the HTML page's string table holds each
 * label once, in the order the nodes are written.
 */
#define MANY_CHILDREN	3000

static int test__flamegraph_many(struct test_suite *test __maybe_unused,
				 int subtest __maybe_unused)
{
	static const char * const comms[] = { "many", "more" };
	struct flamegraph_info info = { .input = "in.data", };
	struct flamegraph_frame frame = { .ip = 0x1000 }, insn = { .ip = 0 };
	struct flamegraph_node *leaf;
	char *buf = NULL, *strings, *end, *p, label[32];
	int i, c, round, nr, err = TEST_FAIL;
	struct flamegraph fg;

	if (flamegraph__init(&fg, FLAMEGRAPH_WEIGHT_PERIOD))
		return TEST_FAIL;
	for (round = 0; round < 2; round++) {
		for (i = 0; i < MANY_CHILDREN; i++) {
			for (c = 0; c < 2; c++) {
				insn.ip = 0x2000 + 4 * (round ? i : MANY_CHILDREN - 1 - i);
				leaf = flamegraph__leaf(&fg, comms[c], false, &frame, 1, &insn);
				if (!fg_check(leaf, "add", "out of memory"))
					goto out;
				flamegraph__account(&fg, leaf, c + 1, c + 1);
			}
		}
	}
	if (!fg_check(!flamegraph__finish(&fg), "finish", "out of memory"))
		goto out;
	/* all, two comms, their [unknown], and the address leaves */
	if (!fg_check(fg.nr_nodes == 5 + 2 * MANY_CHILDREN, "nodes", "%" PRIu64, fg.nr_nodes))
		goto out;
	if (!fg_check(fg.nr_insns == MANY_CHILDREN, "instructions", "%zu", fg.nr_insns))
		goto out;
	if (!fg_check(fg.root.total == 2 * 3 * MANY_CHILDREN, "total", "%" PRIu64, fg.root.total))
		goto out;
	for (c = 0; c < 2; c++) {
		struct flamegraph_node *parent = fg.root.sorted[c]->sorted[0];

		if (!fg_check(!strcmp(fg.root.sorted[c]->comm, comms[c]), "comm", "%s",
			      fg.root.sorted[c]->comm))
			goto out;
		if (!fg_check(parent->nr_children == MANY_CHILDREN, "children", "%u",
			      parent->nr_children))
			goto out;
		for (i = 0; i < MANY_CHILDREN; i++) {
			leaf = parent->sorted[i];
			if (!fg_check(leaf->self == 2 * (u64)(c + 1) &&
				      leaf->addr == 0x2000 + 4 * (u64)i,
				      "leaf in address order, own count",
				      "%d: %#" PRIx64 ": %" PRIu64, i, leaf->addr, leaf->self))
				goto out;
		}
	}
	buf = write_to_string(&fg, FLAMEGRAPH_HTML, &info);
	strings = buf ? strstr(buf, "\"strings\":[") : NULL;
	end = strings ? strstr(strings, "],\n\"root\":") : NULL;
	if (!fg_check(end, "string table", "%.200s", buf ?: ""))
		goto out;
	*end = '\0';
	for (p = strings, nr = 0; (p = strstr(p, "\"[0x")); p++)
		nr++;
	if (!fg_check(nr == MANY_CHILDREN, "each label once", "%d", nr))
		goto out;
	for (p = strings, i = 0; i < MANY_CHILDREN; i++) {
		scnprintf(label, sizeof(label), "\"[%#x]\"", 0x2000 + 4 * i);
		p = strstr(p, label);
		if (!fg_check(p, "in write order", "%s", label))
			goto out;
	}
	err = TEST_OK;
out:
	free(buf);
	flamegraph__exit(&fg);
	return err;
}

/*
 * Frames sum their samples' periods, as perf report's Overhead, and
 * count the samples beside; or, weighed by samples, count them alone.
 */
static int test__flamegraph_weight(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	static const enum flamegraph_weight weights[] = {
		FLAMEGRAPH_WEIGHT_PERIOD, FLAMEGRAPH_WEIGHT_SAMPLES,
	};
	static const char * const expected[] = {
		"perf;main (perf+0x2bc);run_command;cmd_record;[0x388] 1000\n"
		"perf;main (perf+0x2bc);run_command;cmd_record;[0x38c] 30\n",
		"perf;main (perf+0x2bc);run_command;cmd_record;[0x388] 1\n"
		"perf;main (perf+0x2bc);run_command;cmd_record;[0x38c] 3\n",
	};
	static const char * const leaves[] = {
		"{\"n\":\"[0x388]\",\"l\":\"\",\"v\":1000,\"s\":1,",
		"{\"n\":\"[0x388]\",\"l\":\"\",\"v\":1,\"s\":1,",
	};
	char *folded = NULL, *json = NULL;
	int err = TEST_FAIL;
	struct fg_test t;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(weights); i++) {
		bool by_period = weights[i] == FLAMEGRAPH_WEIGHT_PERIOD;
		u64 total = by_period ? 6030 : 5;

		if (fg_test__init_weight(&t, weights[i]))
			return TEST_FAIL;
		if (!fg_check(!add_sample_period(&t, FAKE_PID_PERF1, record, 3, true,
						 NULL, 1, 1000) &&
			      !add_sample_period(&t, FAKE_PID_PERF1, record_other_ip, 3,
						 true, NULL, 3, 30) &&
			      !add_sample_period(&t, FAKE_PID_BASH, bash_malloc, 3, false,
						 NULL, 1, 5000) &&
			      !flamegraph__finish(&t.fg), "add samples", "out of memory"))
			goto out;
		if (!fg_check(t.fg.nr_samples == 5 && t.fg.root.total_samples == 5 &&
			      t.fg.root.total == total, "totals",
			      "%s: %" PRIu64 " samples, %" PRIu64 " in the tree, total %" PRIu64,
			      flamegraph_weight__name(weights[i]), t.fg.nr_samples,
			      t.fg.root.total_samples, t.fg.root.total))
			goto out;
		folded = write_to_string(&t.fg, FLAMEGRAPH_FOLDED, NULL);
		json = write_to_string(&t.fg, FLAMEGRAPH_JSON, NULL);
		if (!fg_check(folded && strstr(folded, expected[i]), "folded",
			      "got:\n%s\nexpected in it:\n%s", folded ?: "", expected[i]))
			goto out;
		if (!fg_check(json && strstr(json, leaves[i]) &&
			      strstr(json, by_period ? "\"weight\":\"period\"" :
						       "\"weight\":\"samples\""),
			      "JSON value and samples", "%s", json ?: ""))
			goto out;
		zfree(&folded);
		zfree(&json);
		fg_test__exit(&t);
	}
	return TEST_OK;
out:
	free(folded);
	free(json);
	fg_test__exit(&t);
	return err;
}

static int test__flamegraph_truncated(struct test_suite *test __maybe_unused,
				      int subtest __maybe_unused)
{
	static const char whole[] = "perf;main (perf+0x2bc);run_command;cmd_record;[0x388] 1000\n";
	static const char cut[] = "perf;[truncated];run_command;cmd_record;[0x388] 70\n";
	static const char marker[] =
		"{\"n\":\"[truncated]\",\"l\":\"\",\"v\":0,\"s\":0,\"k\":\"truncated\",\"c\":[";
	char *folded = NULL, *json = NULL;
	int err = TEST_FAIL;
	struct fg_test t;

	if (fg_test__init(&t))
		return TEST_FAIL;
	/* The same stack whole, and cut: main() is gone from the cut one. */
	if (!fg_check(!add_sample_period(&t, FAKE_PID_PERF1, record, 3, true, NULL, 1, 1000) &&
		      !add_sample_period(&t, FAKE_PID_BASH, bash_malloc, 3, false, NULL, 1, 5),
		      "add samples", "out of memory"))
		goto out;
	t.truncated = true;
	if (!fg_check(!add_sample_period(&t, FAKE_PID_PERF1, record + 1, 2, true, NULL, 7, 70) &&
		      !flamegraph__finish(&t.fg), "add cut samples", "out of memory"))
		goto out;
	folded = write_to_string(&t.fg, FLAMEGRAPH_FOLDED, NULL);
	json = write_to_string(&t.fg, FLAMEGRAPH_JSON, NULL);
	if (!fg_check(folded && strstr(folded, whole) && strstr(folded, cut),
		      "folded", "got:\n%s\nexpected in it:\n%s%s", folded ?: "", whole, cut))
		goto out;
	if (!fg_check(json && strstr(json, marker), "JSON marker", "%s", json ?: ""))
		goto out;
	if (!fg_check(t.fg.root.total_samples == 9 && t.fg.root.total == 1075, "totals",
		      "%" PRIu64 " samples, total %" PRIu64, t.fg.root.total_samples,
		      t.fg.root.total))
		goto out;
	err = TEST_OK;
out:
	free(folded);
	free(json);
	fg_test__exit(&t);
	return err;
}

static struct test_case tests__flamegraph[] = {
	TEST_CASE("Frames keyed by DSO and symbol start, folded output", flamegraph_tree),
	TEST_CASE("JSON output and hostile names", flamegraph_json),
	TEST_CASE("HTML page", flamegraph_html),
	TEST_CASE("One instruction per sampled IP", flamegraph_insns),
	TEST_CASE("Stacks remembered per process", flamegraph_stacks),
	TEST_CASE("Thousands of leaves under one function", flamegraph_many),
	TEST_CASE("Frames weighed by period or by samples", flamegraph_weight),
	TEST_CASE("Cut stacks under [truncated]", flamegraph_truncated),
	{ .name = NULL, }
};

struct test_suite suite__flamegraph = {
	.desc = "Flame graph tree and writers",
	.test_cases = tests__flamegraph,
};
