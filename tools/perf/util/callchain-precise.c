// SPDX-License-Identifier: GPL-2.0
/*
 * Frame-pointer callchains of precise events: make the top of the
 * callchain agree with the sample IP.  See callchain-precise.h for the
 * rules.
 */
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "addr_location.h"
#include "callchain-precise.h"
#include "event.h"
#include "map.h"
#include "sample.h"
#include "symbol.h"
#include "thread.h"

enum fixup {
	FIXUP_NONE,	/* the entry is the sample IP */
	FIXUP_REPLACE,	/* the entry stands for the sampled function */
	FIXUP_INSERT,	/* the entry is the caller's: add the sample IP */
};

static bool cpumode_is_user(u8 cpumode)
{
	return cpumode == PERF_RECORD_MISC_USER ||
	       cpumode == PERF_RECORD_MISC_GUEST_USER;
}

static enum fixup callchain__fixup_kind(struct thread *thread,
					const struct perf_sample *sample,
					u8 cpumode, u64 ip)
{
	struct addr_location sampled, top;
	enum fixup fixup = FIXUP_REPLACE;

	if (ip == sample->ip)
		return FIXUP_NONE;

	addr_location__init(&sampled);
	addr_location__init(&top);
	thread__find_symbol(thread, sample->cpumode, sample->ip, &sampled);
	thread__find_symbol(thread, cpumode, ip, &top);

	/*
	 * Without both symbols there is no telling a return from the rest:
	 * trust the sample IP and invent no frame.
	 */
	if (sampled.sym && top.sym &&
	    (sampled.map != top.map || sampled.sym != top.sym) &&
	    map__unmap_ip(top.map, top.sym->start) != ip)
		fixup = FIXUP_INSERT;

	addr_location__exit(&top);
	addr_location__exit(&sampled);
	return fixup;
}

struct ip_callchain *callchain__fixup_precise_ip(struct thread *thread,
						 const struct perf_sample *sample)
{
	const struct ip_callchain *chain = sample->callchain;
	bool sample_user = cpumode_is_user(sample->cpumode);
	u8 cpumode = PERF_RECORD_MISC_KERNEL;
	u64 i, first, keep_from = 0, n = 0;
	struct ip_callchain *fixed;
	enum fixup fixup;

	/* The first entry of the sample's context. */
	for (i = 0; i < chain->nr; i++) {
		u64 ip = chain->ips[i];

		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_USER) {
				cpumode = PERF_RECORD_MISC_USER;
				/* Drop the kernel part of a user sample. */
				if (sample_user)
					keep_from = i;
			} else if (ip == PERF_CONTEXT_KERNEL) {
				cpumode = PERF_RECORD_MISC_KERNEL;
			} else if (ip == PERF_CONTEXT_GUEST_USER) {
				cpumode = PERF_RECORD_MISC_GUEST_USER;
			} else if (ip == PERF_CONTEXT_GUEST_KERNEL) {
				cpumode = PERF_RECORD_MISC_GUEST_KERNEL;
			}
			continue;
		}
		if (cpumode_is_user(cpumode) == sample_user)
			break;
		/* A kernel sample whose callchain starts in user space. */
		if (!sample_user)
			return NULL;
	}
	if (i == chain->nr)
		return NULL;
	first = i;

	fixup = callchain__fixup_kind(thread, sample, cpumode, chain->ips[first]);
	if (fixup == FIXUP_NONE && keep_from == 0)
		return NULL;

	fixed = malloc(sizeof(*fixed) + (chain->nr + 1) * sizeof(u64));
	if (!fixed)
		return NULL;

	for (i = keep_from; i < first; i++)
		fixed->ips[n++] = chain->ips[i];
	if (fixup != FIXUP_NONE)
		fixed->ips[n++] = sample->ip;
	i = fixup == FIXUP_REPLACE ? first + 1 : first;
	memcpy(&fixed->ips[n], &chain->ips[i], (chain->nr - i) * sizeof(u64));
	fixed->nr = n + chain->nr - i;
	return fixed;
}
