// SPDX-License-Identifier: GPL-2.0
/*
 * Precise events with frame-pointer callchains: the callchain perf
 * resolves must agree with the sample IP.  Synthesized samples on the
 * fake machine of hists_common.c, one per kind of sampled instruction.
 */
#include <inttypes.h>
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <string.h>

#include "util/callchain.h"
#include "util/debug.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/parse-events.h"
#include "util/sample.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "tests/tests.h"
#include "tests/hists_common.h"

#define MAIN		FAKE_IP_PERF_MAIN
#define RUN_COMMAND	FAKE_IP_PERF_RUN_COMMAND
#define CMD_RECORD	FAKE_IP_PERF_CMD_RECORD
#define SCHEDULE	FAKE_IP_KERNEL_SCHEDULE
#define MAX_IPS		8

struct expect {
	const char	*sym;
	u64		ip;
};

struct precise_case {
	const char	*name;
	int		precise_ip;
	u64		sample_ip;
	u64		ips[MAX_IPS];		/* ended by 0 */
	struct expect	want[MAX_IPS];		/* ended by a NULL sym */
};

static const struct precise_case cases[] = {
	{
		.name = "ordinary instruction: next instruction replaced",
		.precise_ip = 1, .sample_ip = CMD_RECORD + 4,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD + 6, RUN_COMMAND + 10, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 4 },
			  { "run_command", RUN_COMMAND + 10 }, { "main", MAIN + 10 } },
	},
	{
		.name = "call: callee entry replaced, caller restored",
		.precise_ip = 2, .sample_ip = RUN_COMMAND + 20,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD, MAIN + 10 },
		.want = { { "run_command", RUN_COMMAND + 20 }, { "main", MAIN + 10 } },
	},
	{
		.name = "return: sampled function inserted above its caller",
		.precise_ip = 2, .sample_ip = CMD_RECORD + 90,
		.ips = { PERF_CONTEXT_USER, RUN_COMMAND + 30, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 90 },
			  { "run_command", RUN_COMMAND + 30 }, { "main", MAIN + 10 } },
	},
	{
		.name = "jump inside the function: target replaced",
		.precise_ip = 1, .sample_ip = CMD_RECORD + 60,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD + 20, RUN_COMMAND + 10, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 60 },
			  { "run_command", RUN_COMMAND + 10 }, { "main", MAIN + 10 } },
	},
	{
		.name = "tail call: jump target replaced by the jumping function",
		.precise_ip = 1, .sample_ip = RUN_COMMAND + 40,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD, MAIN + 10 },
		.want = { { "run_command", RUN_COMMAND + 40 }, { "main", MAIN + 10 } },
	},
	{
		.name = "callchain from another context: kernel entries dropped",
		.precise_ip = 3, .sample_ip = CMD_RECORD + 4,
		.ips = { PERF_CONTEXT_KERNEL, SCHEDULE + 10, PERF_CONTEXT_USER,
			 CMD_RECORD + 6, RUN_COMMAND + 10, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 4 },
			  { "run_command", RUN_COMMAND + 10 }, { "main", MAIN + 10 } },
	},
	{
		.name = "callchain that agrees: unchanged",
		.precise_ip = 2, .sample_ip = CMD_RECORD + 4,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD + 4, RUN_COMMAND + 10, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 4 },
			  { "run_command", RUN_COMMAND + 10 }, { "main", MAIN + 10 } },
	},
	{
		.name = "event that is not precise: unchanged",
		.precise_ip = 0, .sample_ip = CMD_RECORD + 4,
		.ips = { PERF_CONTEXT_USER, CMD_RECORD + 6, RUN_COMMAND + 10, MAIN + 10 },
		.want = { { "cmd_record", CMD_RECORD + 6 },
			  { "run_command", RUN_COMMAND + 10 }, { "main", MAIN + 10 } },
	},
};

static int check_case(const struct precise_case *tc, struct machine *machine,
		      struct evsel *evsel)
{
	struct {
		struct ip_callchain chain;
		u64 ips[MAX_IPS];
	} cc;
	struct perf_sample sample = {
		.evsel	 = evsel,
		.pid	 = FAKE_PID_PERF1,
		.tid	 = FAKE_PID_PERF1,
		.ip	 = tc->sample_ip,
		.cpumode = PERF_RECORD_MISC_USER,
		.callchain = &cc.chain,
	};
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct callchain_cursor_node *node;
	struct thread *thread;
	int i, err = TEST_FAIL;

	for (cc.chain.nr = 0; cc.chain.nr < MAX_IPS && tc->ips[cc.chain.nr]; cc.chain.nr++)
		cc.ips[cc.chain.nr] = tc->ips[cc.chain.nr];

	evsel->core.attr.precise_ip = tc->precise_ip;
	thread = machine__findnew_thread(machine, sample.pid, sample.tid);
	if (!thread || !cursor ||
	    thread__resolve_callchain(thread, cursor, &sample, NULL, NULL,
				      PERF_MAX_STACK_DEPTH))
		goto out;

	callchain_cursor_commit(cursor);
	for (i = 0; (node = callchain_cursor_current(cursor)) != NULL; i++) {
		const char *name = node->ms.sym ? node->ms.sym->name : "[unknown]";

		pr_debug("  %#" PRIx64 " %s\n", node->ip, name);
		if (i >= MAX_IPS || !tc->want[i].sym ||
		    strcmp(name, tc->want[i].sym) || node->ip != tc->want[i].ip)
			goto out_mismatch;
		callchain_cursor_advance(cursor);
	}
	if (i < MAX_IPS && tc->want[i].sym)
		goto out_mismatch;
	err = TEST_OK;
	goto out;

out_mismatch:
	pr_debug("%s: entry %d differs\n", tc->name, i);
out:
	thread__put(thread);
	return err;
}

static int test__callchain_precise(struct test_suite *test __maybe_unused,
				   int subtest __maybe_unused)
{
	struct evlist *evlist = evlist__new();
	struct machines machines;
	struct machine *machine;
	int err = TEST_FAIL;
	size_t i;

	TEST_ASSERT_VAL("No memory", evlist);
	if (parse_event(evlist, "cpu-clock"))
		goto out_evlist;

	machines__init(&machines);
	machine = setup_fake_machine(&machines);
	if (!machine)
		goto out;

	/* Every case, so that -v shows all that disagree. */
	err = TEST_OK;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		pr_debug("%s\n", cases[i].name);
		if (check_case(&cases[i], machine, evlist__first(evlist)))
			err = TEST_FAIL;
	}
out:
	machines__exit(&machines);
out_evlist:
	evlist__put(evlist);
	return err;
}

DEFINE_SUITE("Precise callchains agree with the sample IP", callchain_precise);
