// SPDX-License-Identifier: GPL-2.0
/*
 * The way of a sample into the flame-graph tree, as builtin-report.c's
 * process_sample_event() makes it into hists: resolved by perf
 * (machine__resolve(), thread__resolve_callchain()), then walked into
 * the tree (util/flamegraph.c), which knows no perf_sample or evsel.
 */
#include <errno.h>
#include <linux/kernel.h>

#include "addr_location.h"
#include "callchain.h"
#include "debug.h"
#include "event.h"
#include "evsel.h"
#include "flamegraph.h"
#include "flamegraph-sample.h"
#include "machine.h"
#include "sample.h"
#include "thread.h"

/*
 * The key of the sampled function's callers (@sample_key's callchain is
 * its own context marker, its IP, then its callers' return addresses, no
 * more than max_stack): where they go depends on the callchain after the
 * IP alone.  That holds for precise events too, as long as the callchain
 * starts with the sample IP: callchain__fixup_precise_ip() then leaves it
 * as it is.  Return: false for other callchains.
 */
static bool flamegraph__callers_key(const struct flamegraph *fg,
				    struct flamegraph_stack_key *key,
				    const struct flamegraph_stack_key *sample_key)
{
	u64 marker = sample_key->cpumode == PERF_RECORD_MISC_USER ? PERF_CONTEXT_USER :
		     sample_key->cpumode == PERF_RECORD_MISC_KERNEL ? PERF_CONTEXT_KERNEL : 0;

	if (!fg->sample_opts.callers_by_key || !marker || sample_key->nr < 2 ||
	    sample_key->nr > (u64)fg->sample_opts.max_stack ||
	    sample_key->ips[0] != marker || sample_key->ips[1] != sample_key->ip)
		return false;
	*key = *sample_key;
	key->callers = true;
	key->ip = 0;
	key->nr -= 2;
	key->ips += 2;
	return true;
}

/* Callchain entries that are addresses, not PERF_CONTEXT_* markers. */
static u64 flamegraph_stack_key__nr_addresses(const struct flamegraph_stack_key *key)
{
	u64 i, nr = 0;

	for (i = 0; i < key->nr; i++)
		nr += key->ips[i] < PERF_CONTEXT_MAX;
	return nr;
}

/*
 * Whether a callchain (its @key, and the @nr frames in fg->frames that
 * perf made of it) was cut: it holds exactly as many addresses as the
 * kernel keeps (perf record's fp,<size>, else perf_event_max_stack,
 * whose value at record time the recording doesn't hold: its default;
 * recorded with a higher one, a callchain holds more, and the cut is
 * missed, not invented), or more than max_stack; or a DWARF unwinder
 * stopped at max_stack user frames.
 */
static bool flamegraph__truncated(const struct flamegraph *fg, const struct evsel *evsel,
				  const struct flamegraph_stack_key *key, u64 nr)
{
	u64 limit = evsel->core.attr.sample_max_stack ?: PERF_MAX_STACK_DEPTH;
	u64 nr_kept = flamegraph_stack_key__nr_addresses(key), nr_user = 0, i;
	u64 max_stack = fg->sample_opts.max_stack;

	if (nr_kept == limit || nr_kept > max_stack)
		return true;
	if (!(evsel->core.attr.sample_type & PERF_SAMPLE_STACK_USER))
		return false;
	for (i = 0; i < nr; i++)
		nr_user += !fg->frames[i].kernel;
	return nr_user >= max_stack;
}

/*
 * Whether perf unwound @sample's user stack from its copy of it
 * (thread__resolve_callchain_unwind()), with a kernel callchain that has
 * no user entries, so that every user entry of its callchain is the
 * unwinder's.  Those of the callers hold the return address minus 1
 * (libdw's and libunwind's, for the call's line), unlike the return
 * addresses of the kernel's frame-pointer callchains.
 */
static bool flamegraph__unwound(const struct perf_sample *sample)
{
	const struct perf_event_attr *attr = &sample->evsel->core.attr;
	u64 both = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

	return (attr->sample_type & both) == both && attr->exclude_callchain_user &&
	       sample->user_regs && sample->user_regs->regs && sample->user_stack.size;
}

/*
 * @sample's callchain, as perf resolves it (for precise events, in
 * agreement with the sample IP: callchain__fixup_precise_ip()), into
 * fg->frames, outermost caller first, down to the sampled function, the
 * sample IP's (in the @kernel context or not), as in perf report.
 * Return: the number of frames, 0 without a callchain, or -ENOMEM.
 */
static int flamegraph__callchain(struct flamegraph *fg, struct perf_sample *sample,
				 struct addr_location *al, struct machine *machine,
				 bool kernel)
{
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct callchain_cursor_node *node;
	bool unwound, user = false;
	u64 nr = 0, user_ip = 0;

	if (!fg->sample_opts.callchains || !sample->callchain || !cursor ||
	    thread__resolve_callchain(al->thread, cursor, sample, NULL, NULL,
				      fg->sample_opts.max_stack) || !cursor->nr)
		return 0;
	if (flamegraph__grow(&fg->frames, &fg->alloc_frames, cursor->nr, sizeof(*fg->frames)))
		return -ENOMEM;
	unwound = flamegraph__unwound(sample);
	/* Callee first in the cursor, caller first in the tree. */
	callchain_cursor_commit(cursor);
	while ((node = callchain_cursor_current(cursor)) != NULL) {
		struct flamegraph_frame *frame = &fg->frames[cursor->nr - 1 - nr++];

		*frame = (struct flamegraph_frame){
			.ms	= node->ms,
			.ip	= node->ip,
			.kernel	= flamegraph_frame__is_kernel(machine, node->ms.map, node->ip),
		};
		/*
		 * The unwinder's first entry, and its inlined functions'
		 * (--inline), is where the thread was, the user registers'
		 * IP; the rest are its callers'.
		 */
		if (unwound && !frame->kernel) {
			if (!user) {
				user = true;
				user_ip = node->ip;
			}
			frame->unwound = node->ip != user_ip;
		}
		callchain_cursor_advance(cursor);
	}
	return flamegraph_frames__sampled(fg->frames, nr, kernel);
}

/*
 * The leaf of a resolved sample (@al): its callchain's frames, else the
 * sampled function alone; with insn_leaves, the instruction at the
 * sample IP below it.  Callers seen before (@callers, the node they went
 * to) are not resolved again.  Else, with @callers_of set, and one frame
 * per callchain entry of @key, the last the sampled function's,
 * *@callers_of is set to the node of its callers.
 */
static struct flamegraph_node *flamegraph__resolve(struct flamegraph *fg,
						   struct perf_sample *sample,
						   const struct flamegraph_stack_key *key,
						   struct flamegraph_node *callers,
						   struct flamegraph_node **callers_of,
						   struct addr_location *al,
						   struct machine *machine)
{
	struct flamegraph_frame ip = {
		.ms	= { .thread = al->thread, .map = al->map, .sym = al->sym, },
		.ip	= sample->ip,
		.kernel	= flamegraph_frame__is_kernel(machine, al->map, sample->ip),
	};
	const struct flamegraph_frame *insn = fg->sample_opts.insn_leaves ? &ip : NULL;
	struct flamegraph_node *leaf;
	int nr;

	if (callers)
		return flamegraph__walk(fg, callers, &ip, 1, insn);
	nr = flamegraph__callchain(fg, sample, al, machine, ip.kernel);
	if (nr < 0)
		return NULL;
	leaf = flamegraph__leaf(fg, thread__comm_str(al->thread),
				nr && flamegraph__truncated(fg, sample->evsel, key, nr),
				nr ? fg->frames : &ip, nr ?: 1, insn);
	if (leaf && callers_of && (u64)nr == flamegraph_stack_key__nr_addresses(key))
		*callers_of = insn ? leaf->parent->parent : leaf->parent;
	return leaf;
}

int flamegraph__add_sample(struct flamegraph *fg, struct perf_sample *sample,
			   struct machine *machine)
{
	struct flamegraph_stack_key key = {
		.machine = machine,
		.pid	 = sample->pid,
		.tid	 = sample->tid,
		.cpumode = sample->cpumode,
		.ip	 = sample->ip,
		.nr	 = sample->callchain ? sample->callchain->nr : 0,
		.ips	 = sample->callchain ? sample->callchain->ips : NULL,
	}, callers_key;
	struct flamegraph_node *leaf = NULL, *callers_node = NULL;
	struct flamegraph_stack *stack = NULL;
	struct addr_location al;
	bool by_callers;
	int ret = 0;

	/* A stack seen before goes where it went; callers seen before, likewise. */
	by_callers = flamegraph__callers_key(fg, &callers_key, &key);
	if (by_callers) {
		stack = flamegraph__find_stack(fg, &callers_key);
		callers_node = stack ? flamegraph_stack__node(stack) : NULL;
	} else if (fg->sample_opts.stacks_by_key) {
		stack = flamegraph__find_stack(fg, &key);
		if (stack) {
			leaf = flamegraph_stack__node(stack);
			goto out_account;
		}
	}

	fg->stats.nr_resolved++;
	fg->stats.nr_by_callers += !!callers_node;
	addr_location__init(&al);
	if (machine__resolve(machine, &al, sample) < 0) {
		pr_debug("problem processing %d event, skipping it.\n", PERF_RECORD_SAMPLE);
		fg->stats.nr_unresolved++;
		goto out;
	}
	if (!al.filtered) {
		leaf = flamegraph__resolve(fg, sample, &key, callers_node,
					   by_callers ? &callers_node : NULL, &al, machine);
		if (!leaf) {
			ret = -ENOMEM;
			goto out;
		}
	}
	/* Failing to remember costs only the next sample a resolution. */
	if (by_callers) {
		if (!stack && callers_node)
			stack = flamegraph__add_stack(fg, &callers_key, callers_node);
	} else if (fg->sample_opts.stacks_by_key) {
		flamegraph__add_stack(fg, &key, leaf);
	}
	addr_location__exit(&al);
out_account:
	if (leaf) {
		flamegraph__account(fg, leaf, 1, sample->period);
		flamegraph__account_callsites(fg, stack, 1, sample->period);
	} else {
		fg->stats.nr_filtered++;
	}
	return 0;
out:
	addr_location__exit(&al);
	return ret;
}
