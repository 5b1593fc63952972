// SPDX-License-Identifier: GPL-2.0
/*
 * Builtin flamegraph command: write the flame graph of a perf.data file,
 * with --asm the sampled instructions as its leaves.
 */
#include "builtin.h"
#include "perf.h"

#include "arch/common.h"
#include "util/annotate.h"
#include "util/callchain.h"
#include "util/data.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/dso-replaced.h"
#include "util/env.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/header.h"
#include "util/flamegraph.h"
#include "util/flamegraph-asm.h"
#include "util/flamegraph-builder.h"
#include "util/flamegraph-prefetch.h"
#include "util/flamegraph-cache.h"
#include "util/flamegraph-output.h"
#include "util/flamegraph-session.h"
#include "util/hashmap.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/path.h"
#include "util/session.h"
#include "util/srcline.h"
#include "util/strbuf.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "util/time-utils.h"
#include "util/tool.h"
#include "util/util.h"
#include "ui/progress.h"
#include "ui/util.h"

#include <subcmd/parse-options.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/time64.h>
#include <linux/zalloc.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct perf_flamegraph {
	struct perf_tool	tool;
	struct perf_session	*session;
	struct flamegraph	fg;
	struct flamegraph_output out;
	const char		*output;
	const char		*format_str;
	const char		*template_path;
	char			*template;
	const char		*event_name;
	const char		*cpu_list;
	DECLARE_BITMAP(cpu_bitmap, MAX_NR_CPUS);
	const char		*time_str;
	struct perf_time_interval *ptime_range;
	int			range_size;
	int			range_num;
	enum flamegraph_format	format;
	struct evsel		*evsel;
	bool			asm_leaves;
	char			no_disasm[160];
	/* Decodes the sampled symbols as they come; NULL: not used. */
	struct flamegraph_prefetch *prefetch;
	/* Builds the tree in a second thread; NULL until the first sample. */
	struct flamegraph_builder *builder;
	int			max_stack;
	struct flamegraph_frame	*frames;
	int			frames_alloc;
	u64			nr_filtered;
	u64			nr_unresolved;
	u64			nr_other_event;
	u64			nr_kernel_unmapped;
	struct hashmap		*checked_dsos;	/* dso__replaced_since_mmap() done */
	struct flamegraph_cache	*cache;		/* NULL: callchains not cacheable */
	/* The callers of sampled functions, seen or not; NULL: not used. */
	struct flamegraph_cache	*callers;
	unsigned int		cache_bits;	/* log2 of each cache's slots */
	bool			cache_checked;
};

/* At most 64k resolved samples, ~6.5 MB and the callchains. */
#define PERF_FLAMEGRAPH_CACHE_BITS	16
#define PERF_FLAMEGRAPH_CACHE_BITS_MIN	10

/*
 * No more slots than the file can have samples: a sample with a callchain
 * takes more than 64 bytes of it.  A pipe, whose size isn't known, gets
 * the most.  The slots are read at random, so all of their huge pages
 * are touched (flamegraph-arena.h): a small profile keeps small caches.
 */
static unsigned int perf_flamegraph__cache_bits(struct perf_session *session)
{
	u64 max_samples = session->header.data_size / 64;
	unsigned int bits = PERF_FLAMEGRAPH_CACHE_BITS;

	while (max_samples && bits > PERF_FLAMEGRAPH_CACHE_BITS_MIN &&
	       max_samples < (1ULL << (bits - 1)))
		bits--;
	return bits;
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int perf_flamegraph__frames_grow(struct perf_flamegraph *pfg, int nr)
{
	struct flamegraph_frame *frames;
	int alloc;

	if (nr <= pfg->frames_alloc)
		return 0;
	alloc = pfg->frames_alloc ? pfg->frames_alloc * 2 : 128;
	while (alloc < nr)
		alloc *= 2;
	frames = realloc(pfg->frames, alloc * sizeof(*frames));
	if (!frames)
		return -ENOMEM;
	pfg->frames = frames;
	pfg->frames_alloc = alloc;
	return 0;
}

/*
 * The stack of a sample, outermost caller first, as perf resolves its
 * callchain (which, for precise events, agrees with the sample IP: see
 * util/callchain-precise.c).  Without a callchain the stack is the
 * sampled function alone.
 */
static int perf_flamegraph__stack(struct perf_flamegraph *pfg,
				  struct evsel *evsel, struct perf_sample *sample,
				  struct addr_location *al, struct machine *machine,
				  struct flamegraph_frame *sampled)
{
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct callchain_cursor_node *node;
	int nr = 0, i, err;

	if (symbol_conf.use_callchain && sample->callchain && cursor &&
	    thread__resolve_callchain(al->thread, cursor, evsel, sample,
				      NULL, NULL, pfg->max_stack) == 0) {
		callchain_cursor_commit(cursor);
		err = perf_flamegraph__frames_grow(pfg, cursor->nr + 1);
		if (err)
			return err;
		while ((node = callchain_cursor_current(cursor)) != NULL) {
			struct flamegraph_frame *frame = &pfg->frames[nr++];

			frame->ms = node->ms;
			frame->ip = node->ip;
			frame->kernel = flamegraph_frame__is_kernel(machine, node->ms.map,
								    node->ip);
			callchain_cursor_advance(cursor);
		}
	} else {
		err = perf_flamegraph__frames_grow(pfg, 1);
		if (err)
			return err;
	}

	if (nr == 0)
		pfg->frames[nr++] = *sampled;

	/* Callee first to caller first. */
	for (i = 0; i < nr / 2; i++) {
		struct flamegraph_frame tmp = pfg->frames[i];

		pfg->frames[i] = pfg->frames[nr - 1 - i];
		pfg->frames[nr - 1 - i] = tmp;
	}
	return nr;
}

static struct evsel *perf_flamegraph__select_evsel(struct perf_flamegraph *pfg,
						   struct evlist *evlist)
{
	struct evsel *pos;

	if (!pfg->event_name)
		return evlist__first(evlist);
	evlist__for_each_entry(evlist, pos) {
		if (!strcmp(evsel__name(pos), pfg->event_name))
			return pos;
	}
	return NULL;
}

/*
 * Frame-pointer callchains resolve from the sample alone (see struct
 * flamegraph_cache_key); DWARF callchains unwind a copy of the user
 * stack and LBR ones read the branch stack, which the key doesn't hold.
 */
static void perf_flamegraph__setup_cache(struct perf_flamegraph *pfg,
					 struct evsel *evsel)
{
	u64 type = evsel->core.attr.sample_type;

	pfg->cache_checked = true;
	pfg->cache_bits = perf_flamegraph__cache_bits(pfg->session);
	if ((type & (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER)) ||
	    evsel__has_branch_callstack(evsel) ||
	    callchain_param.record_mode == CALLCHAIN_DWARF ||
	    callchain_param.record_mode == CALLCHAIN_LBR)
		return;
	/* Out of memory: every sample is resolved, as without a cache. */
	pfg->cache = flamegraph_cache__new(pfg->cache_bits);
#ifndef HAVE_SKIP_CALLCHAIN_IDX
	/*
	 * See perf_flamegraph__callers_key().  Precise events have their
	 * callchain fixed up to agree with the IP (util/callchain-precise.c),
	 * --inline adds frames for the IP, guest code threads are not the
	 * ones the callchain is resolved in, and callchains in caller order
	 * are resolved from the other end.
	 */
	if (pfg->cache && !evsel->core.attr.precise_ip && !symbol_conf.inline_name &&
	    !symbol_conf.guest_code && callchain_param.order == ORDER_CALLEE)
		pfg->callers = flamegraph_cache__new(pfg->cache_bits);
#endif
}

/*
 * --asm: decode the sampled symbols in a second thread as their first
 * samples come (util/flamegraph-prefetch.h), where flamegraph__annotate()
 * would decode them itself.  Not when perf's unwinder reads the DSOs for
 * DWARF callchains: it looks into a DSO's data cache without the lock the
 * thread's reads insert under (__dso_cache__find()).
 */
static void perf_flamegraph__setup_prefetch(struct perf_flamegraph *pfg,
					    struct evsel *evsel)
{
	if (!pfg->asm_leaves || pfg->no_disasm[0] ||
	    (evsel->core.attr.sample_type & PERF_SAMPLE_STACK_USER) ||
	    callchain_param.record_mode == CALLCHAIN_DWARF ||
	    !flamegraph__decodes_in_process(&pfg->session->header.env))
		return;
	pfg->prefetch = flamegraph_prefetch__new(pfg->format == FLAMEGRAPH_HTML &&
						 !srcline_full_filename);
}

/*
 * The tree is built in a second thread (util/flamegraph-builder.h); a
 * cache's slot stands for the node the thread keeps for it.
 */
static int perf_flamegraph__setup_builder(struct perf_flamegraph *pfg)
{
	size_t nr_slots = (size_t)1 << pfg->cache_bits;

	pfg->builder = flamegraph_builder__new(&pfg->fg, pfg->cache ? nr_slots : 0,
					       pfg->callers ? nr_slots : 0,
					       pfg->prefetch);
	return pfg->builder ? 0 : -ENOMEM;
}

/*
 * perf loads a machine's kernel symbols at the first kernel address it
 * resolves, and that splits the kernel maps (maps__split_kallsyms()):
 * not while the builder reads maps.  A kernel sample, or a callchain
 * with kernel entries, may be the first.
 */
static void perf_flamegraph__sync_kernel(struct perf_flamegraph *pfg,
					 struct perf_sample *sample,
					 struct machine *machine)
{
	struct map *kmap = machine__kernel_map(machine);
	bool kernel = sample->cpumode != PERF_RECORD_MISC_USER;
	u64 i;

	if (!kmap || dso__loaded(map__dso(kmap)))
		return;
	/*
	 * The kernel stores a callchain's kernel part first, then the user
	 * part after its PERF_CONTEXT_USER marker (perf_callchain()): a
	 * user-only profile's samples end the scan at their first entry.
	 */
	for (i = 0; !kernel && sample->callchain && i < sample->callchain->nr; i++) {
		u64 ip = sample->callchain->ips[i];

		if (ip == PERF_CONTEXT_USER || ip == PERF_CONTEXT_GUEST_USER)
			break;
		kernel = ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_GUEST_KERNEL;
	}
	if (kernel)
		flamegraph_builder__sync(pfg->builder);
}

/*
 * A frame-pointer callchain is the sample's context marker and IP, then
 * its callers' return addresses.  perf resolves each entry on its own
 * (add_callchain_ip(): the map and symbol of the address, in the cpumode
 * of the PERF_CONTEXT_* marker before it), so where the callers go in
 * the tree depends on the entries after the IP alone, and the sampled
 * function's frame is the one machine__resolve() finds for the IP.
 * Samples with the same callers then share the node of the callers, and
 * only the sampled function and instruction are looked up under it.
 *
 * Return: true, with @key set, when @sample's callchain has that shape:
 * its own context marker, its IP, and no more entries than --max-stack.
 */
static bool perf_flamegraph__callers_key(struct perf_flamegraph *pfg,
					 struct flamegraph_cache_key *key,
					 struct perf_sample *sample,
					 struct machine *machine)
{
	struct ip_callchain *chain = sample->callchain;
	u64 marker;

	if (!pfg->callers || !chain || chain->nr < 2 ||
	    chain->nr > (u64)pfg->max_stack || chain->ips[1] != sample->ip)
		return false;
	if (sample->cpumode == PERF_RECORD_MISC_USER)
		marker = PERF_CONTEXT_USER;
	else if (sample->cpumode == PERF_RECORD_MISC_KERNEL)
		marker = PERF_CONTEXT_KERNEL;
	else
		return false;
	if (chain->ips[0] != marker)
		return false;
	flamegraph_cache_key__init(key, machine, sample->pid, sample->tid,
				   sample->cpumode, 0, chain->nr - 2, chain->ips + 2);
	return true;
}

/* Callchain entries that are addresses, not PERF_CONTEXT_* markers. */
static int perf_flamegraph__nr_addresses(struct ip_callchain *chain)
{
	int nr = 0;
	u64 i;

	for (i = 0; i < chain->nr; i++)
		nr += chain->ips[i] < PERF_CONTEXT_MAX;
	return nr;
}

static void perf_flamegraph__cache_key(struct flamegraph_cache_key *key,
				       struct perf_sample *sample,
				       struct machine *machine)
{
	struct ip_callchain *chain = sample->callchain;

	flamegraph_cache_key__init(key, machine, sample->pid, sample->tid,
				   sample->cpumode, sample->ip,
				   chain ? chain->nr : 0, chain ? chain->ips : NULL);
}

static int process_sample_event(const struct perf_tool *tool,
				union perf_event *event,
				struct perf_sample *sample,
				struct evsel *evsel,
				struct machine *machine)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	struct flamegraph_cache_value cached = { .filtered = false }, callers = cached;
	struct flamegraph_builder_sample bs = { .leaf_slot = -1, };
	struct flamegraph_cache_key key, callers_key;
	struct flamegraph_frame sampled;
	struct addr_location al;
	bool by_callers;
	long callers_slot = -1;
	int nr, ret = 0;

	if (!pfg->evsel) {
		pfg->evsel = perf_flamegraph__select_evsel(pfg, evsel->evlist);
		if (!pfg->evsel) {
			pr_err("event '%s' is not in the input\n", pfg->event_name);
			return -EINVAL;
		}
	}
	if (evsel != pfg->evsel) {
		pfg->nr_other_event++;
		return 0;
	}

	if ((pfg->cpu_list && (sample->cpu >= MAX_NR_CPUS ||
			       !test_bit(sample->cpu, pfg->cpu_bitmap))) ||
	    perf_time__ranges_skip_sample(pfg->ptime_range, pfg->range_num,
					  sample->time)) {
		pfg->nr_filtered++;
		return 0;
	}

	if (!pfg->cache_checked) {
		perf_flamegraph__setup_cache(pfg, evsel);
		perf_flamegraph__setup_prefetch(pfg, evsel);
		ret = perf_flamegraph__setup_builder(pfg);
		if (ret)
			return ret;
	}
	if (pfg->cache) {
		perf_flamegraph__cache_key(&key, sample, machine);
		bs.leaf_slot = flamegraph_cache__slot(pfg->cache, &key);
		if (flamegraph_cache__find(pfg->cache, &key, &cached)) {
			if (cached.filtered) {
				pfg->nr_filtered++;
				return 0;
			}
			if (cached.kernel_unmapped)
				pfg->nr_kernel_unmapped++;
			return flamegraph_builder__account(pfg->builder, bs.leaf_slot);
		}
	}

	perf_flamegraph__sync_kernel(pfg, sample, machine);
	addr_location__init(&al);
	if (machine__resolve(machine, &al, sample) < 0) {
		pr_debug("problem processing %d event, skipping it.\n",
			 event->header.type);
		pfg->nr_unresolved++;
		goto out;
	}
	if (al.filtered) {
		pfg->nr_filtered++;
		cached.filtered = true;
		goto out_cache;
	}

	sampled.ms.maps = thread__maps(al.thread);
	sampled.ms.map = al.map;
	sampled.ms.sym = al.sym;
	sampled.ip = sample->ip;
	sampled.kernel = flamegraph_frame__is_kernel(machine, al.map, sample->ip);

	if (sampled.kernel && !sampled.ms.map) {
		pfg->nr_kernel_unmapped++;
		cached.kernel_unmapped = true;
	}
	bs.insn = pfg->asm_leaves ? &sampled : NULL;
	by_callers = perf_flamegraph__callers_key(pfg, &callers_key, sample, machine);
	if (by_callers) {
		callers_slot = flamegraph_cache__slot(pfg->callers, &callers_key);
		if (flamegraph_cache__find(pfg->callers, &callers_key, &callers)) {
			bs.from_slot = callers_slot;
			bs.frames = &sampled;
			bs.nr_frames = 1;
			bs.callers_slot = -1;
			goto out_add;
		}
	}

	nr = perf_flamegraph__stack(pfg, evsel, sample, &al, machine, &sampled);
	if (nr < 0) {
		ret = nr;
		goto out;
	}
	/* Each entry gave one frame: the last one is the sampled function's. */
	if (by_callers && nr != perf_flamegraph__nr_addresses(sample->callchain))
		by_callers = false;
	bs.comm = thread__comm_str(al.thread);
	bs.from_slot = -1;
	bs.frames = pfg->frames;
	bs.nr_frames = nr;
	bs.callers_slot = by_callers ? callers_slot : -1;
	/* Failing to remember the callers only costs the next one a resolution. */
	if (by_callers)
		flamegraph_cache__add(pfg->callers, &callers_key, &callers);
out_add:
	ret = flamegraph_builder__add(pfg->builder, &bs);
	if (ret)
		goto out;
out_cache:
	/* Failing to cache only costs the next sample a resolution. */
	if (pfg->cache)
		flamegraph_cache__add(pfg->cache, &key, &cached);
out:
	addr_location__exit(&al);
	return ret;
}

/*
 * A binary rebuilt since the recording, with no build-id to tell it by,
 * would give the samples functions and instructions that never ran:
 * check each user-space DSO when it is first mapped, before anything
 * loads its symbols, and keep it unloaded if its file was replaced.
 */
static void perf_flamegraph__check_dso(struct perf_flamegraph *pfg,
				       struct dso *dso)
{
	char why[256];

	/* Once per DSO, however many processes map it. */
	if (dso__loaded(dso) ||
	    hashmap__add(pfg->checked_dsos, flamegraph__dso_key(dso), 1))
		return;
	if (!dso__replaced_since_mmap(dso, why, sizeof(why)))
		return;

	/* No symbols from the wrong file: addresses instead. */
	dso__set_loaded(dso);
	if (!flamegraph__warn_once(&pfg->fg, dso, /*kernel=*/false))
		return;
	pr_warning("Warning: %s: %s, and the recording has no build-id to find the binary that ran; its frames show [unknown]%s\n",
		   dso__long_name(dso), why,
		   pfg->asm_leaves ? " and its instruction leaves addresses" : "");
}

/*
 * An event that changes how addresses resolve, or which thread and comm
 * a PID and TID are: samples resolved before it no longer tell where
 * later ones go.  Those of process @pid only, unless it is the kernel's
 * (-1: kernel maps, modules) or the idle task's.
 */
static void perf_flamegraph__machine_changed(const struct perf_tool *tool,
					     s32 pid)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);

	struct flamegraph_cache *caches[] = { pfg->cache, pfg->callers };
	size_t i;

	/* The builder may be reading what the event changes. */
	flamegraph_builder__sync(pfg->builder);
	for (i = 0; i < ARRAY_SIZE(caches); i++) {
		if (!caches[i])
			continue;
		if (pid > 0)
			flamegraph_cache__flush_pid(caches[i], pid);
		else
			flamegraph_cache__flush(caches[i]);
	}
}

static int process_mmap_event(const struct perf_tool *tool,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine)
{
	perf_flamegraph__machine_changed(tool, event->mmap.pid);
	return perf_event__process_mmap(tool, event, sample, machine);
}

static int process_comm_event(const struct perf_tool *tool,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine)
{
	perf_flamegraph__machine_changed(tool, event->comm.pid);
	return perf_event__process_comm(tool, event, sample, machine);
}

static int process_fork_event(const struct perf_tool *tool,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine)
{
	perf_flamegraph__machine_changed(tool, event->fork.pid);
	return perf_event__process_fork(tool, event, sample, machine);
}

static int process_exit_event(const struct perf_tool *tool,
			      union perf_event *event,
			      struct perf_sample *sample,
			      struct machine *machine)
{
	perf_flamegraph__machine_changed(tool, event->fork.pid);
	return perf_event__process_exit(tool, event, sample, machine);
}

static int process_ksymbol_event(const struct perf_tool *tool,
				 union perf_event *event,
				 struct perf_sample *sample,
				 struct machine *machine)
{
	perf_flamegraph__machine_changed(tool, -1);
	return perf_event__process_ksymbol(tool, event, sample, machine);
}

static int process_mmap2_event(const struct perf_tool *tool,
			       union perf_event *event,
			       struct perf_sample *sample,
			       struct machine *machine)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	u8 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct addr_location al;
	struct thread *thread;
	int err;

	perf_flamegraph__machine_changed(tool, event->mmap2.pid);
	err = perf_event__process_mmap2(tool, event, sample, machine);
	if (err || cpumode != PERF_RECORD_MISC_USER ||
	    (event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		return err;

	thread = machine__find_thread(machine, event->mmap2.pid, event->mmap2.tid);
	if (!thread)
		return 0;
	addr_location__init(&al);
	if (thread__find_map(thread, cpumode, event->mmap2.start, &al))
		perf_flamegraph__check_dso(pfg, map__dso(al.map));
	addr_location__exit(&al);
	thread__put(thread);
	return 0;
}

static void perf_flamegraph__setup_callchain(struct evlist *evlist)
{
	if (!evlist || evlist->core.nr_entries == 0)
		return;
	callchain_param_setup(evlist__combined_sample_type(evlist),
			      perf_env__arch(evlist->env));
}

static int process_attr(const struct perf_tool *tool, union perf_event *event,
			struct evlist **pevlist)
{
	int err = perf_event__process_attr(tool, event, pevlist);

	if (!err)
		perf_flamegraph__setup_callchain(*pevlist);
	return err;
}

/* Pipe mode: HEADER_LAST_FEATURE marks the end of the features. */
static int process_feature_event(struct perf_session *session,
				 union perf_event *event)
{
	if (event->feat.feat_id < HEADER_LAST_FEATURE)
		return perf_event__process_feature(session, event);
	if (event->feat.feat_id != HEADER_LAST_FEATURE) {
		pr_err("invalid feature ID %" PRI_lu64 " in the input\n",
		       event->feat.feat_id);
		return -EINVAL;
	}
	return 0;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int perf_flamegraph__output(struct perf_flamegraph *pfg)
{
	FILE *fp = flamegraph_output__open(&pfg->out);

	if (!fp)
		return -EIO;
	return flamegraph_output__close(&pfg->out,
					flamegraph__write_session(&pfg->fg, fp, pfg->format,
								  pfg->session, pfg->evsel,
								  pfg->template));
}

/*
 * Read whole with strbuf_read(): filename__read_str() stops at the first
 * byte >= 0x80 (io__get_char() sign-extends it), and the d3-flame-graph
 * template holds UTF-8.
 */
static int perf_flamegraph__read_template(struct perf_flamegraph *pfg)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd;

	if (pfg->format != FLAMEGRAPH_HTML) {
		pr_err("--template: only for html output\n");
		return -EINVAL;
	}
	fd = open(pfg->template_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		pr_err("--template %s: %s\n", pfg->template_path, strerror(errno));
		goto out_err;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("--template %s: is a directory\n", pfg->template_path);
		goto out_err;
	}
	if (strbuf_read(&sb, fd, st.st_size) < 0) {
		pr_err("--template %s: cannot read it\n", pfg->template_path);
		goto out_err;
	}
	close(fd);
	pfg->template = strbuf_detach(&sb, NULL);
	if (!strstr(pfg->template, "/** @flamegraph_json **/")) {
		pr_err("--template %s: no /** @flamegraph_json **/ in it to replace\n",
		       pfg->template_path);
		return -EINVAL;
	}
	return 0;
out_err:
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	return -EINVAL;
}

static const char * const format_names[] = {
	[FLAMEGRAPH_HTML]	= "html",
	[FLAMEGRAPH_JSON]	= "json",
	[FLAMEGRAPH_FOLDED]	= "folded",
};

/*
 * perf's ui_progress on a plain terminal: one line, rewritten in place,
 * for the phases that take long (reading events, disassembling).  Set up
 * only when stderr is a terminal, so logs and pipes stay clean.
 */
static void stderr_progress__update(struct ui_progress *p)
{
	fprintf(stderr, "\r%s %3" PRIu64 "%%", p->title,
		p->total ? min(p->curr, p->total) * 100 / p->total : 100);
	fflush(stderr);
}

static void stderr_progress__finish(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

static struct ui_progress_ops stderr_progress__ops = {
	.update = stderr_progress__update,
	.finish = stderr_progress__finish,
};

static int __cmd_flamegraph(struct perf_flamegraph *pfg)
{
	struct perf_session *session = pfg->session;
	u64 t[5];
	int err;

	if (pfg->asm_leaves && !annotate_opts.objdump_path)
		flamegraph__find_objdump(&session->header.env, pfg->no_disasm,
					 sizeof(pfg->no_disasm));

	if (pfg->cpu_list) {
		err = perf_session__cpu_bitmap(session, pfg->cpu_list, pfg->cpu_bitmap);
		if (err)
			return err;
	}
	if (pfg->time_str) {
		err = perf_time__parse_for_ranges(pfg->time_str, session,
						  &pfg->ptime_range,
						  &pfg->range_size,
						  &pfg->range_num);
		if (err < 0)
			return err;
	}

	perf_flamegraph__setup_callchain(session->evlist);
	if (pfg->event_name && !perf_data__is_pipe(session->data)) {
		pfg->evsel = perf_flamegraph__select_evsel(pfg, session->evlist);
		if (!pfg->evsel) {
			pr_err("event '%s' is not in %s\n", pfg->event_name,
			       session->data->path);
			return -EINVAL;
		}
	}

	t[0] = now_ns();
	err = perf_session__process_events(session);
	if (!err)
		err = flamegraph_builder__finish(pfg->builder);
	t[1] = now_ns();
	if (pfg->cache) {
		const struct flamegraph_cache_stats *st = flamegraph_cache__stats(pfg->cache);

		pr_debug("perf flamegraph: resolved samples cache: %" PRIu64 " hits, %"
			 PRIu64 " misses, %" PRIu64 " flushes (%" PRIu64 " of one process)\n",
			 st->hits, st->misses, st->flushes + st->pid_flushes,
			 st->pid_flushes);
	}
	if (pfg->callers) {
		const struct flamegraph_cache_stats *st = flamegraph_cache__stats(pfg->callers);

		pr_debug("perf flamegraph: callers cache: %" PRIu64 " hits, %" PRIu64 " misses\n",
			 st->hits, st->misses);
	}
	/*
	 * The builder kept their slots' nodes, which flamegraph__finish()
	 * changes: not to be used from here on.  Freed at the end, so that the
	 * disassembly's allocations don't land in the holes of their
	 * callchain buffers (the disassembly was ~20% slower that way).
	 */
	if (err) {
		pr_err("failed to process the events of %s\n", session->data->path);
		return err;
	}
	/* An empty flame graph is never what the user asked for. */
	if (pfg->fg.nr_samples == 0) {
		pr_err("no samples of '%s' to show in %s (%" PRIu64 " filtered, %"
		       PRIu64 " unresolved)\n",
		       pfg->evsel ? evsel__name(pfg->evsel) : "any event",
		       session->data->path, pfg->nr_filtered, pfg->nr_unresolved);
		return -ENODATA;
	}

	/*
	 * perf record finds no kernel map when /proc/kallsyms hides the
	 * kernel's addresses (kernel.kptr_restrict): say why kernel frames
	 * have no names.
	 */
	if (pfg->nr_kernel_unmapped) {
		pr_warning("Warning: %llu kernel samples have no kernel map, so no names; was kernel.kptr_restrict set when recording?\n",
			   (unsigned long long)pfg->nr_kernel_unmapped);
	}

	if (pfg->asm_leaves && pfg->evsel) {
		err = flamegraph__annotate(&pfg->fg, pfg->evsel,
					   pfg->no_disasm[0] ? pfg->no_disasm : NULL,
					   pfg->prefetch);
		if (!err && pfg->format == FLAMEGRAPH_HTML)
			err = flamegraph__add_srclines(&pfg->fg, FLAMEGRAPH_SRCLINES_MAX,
						       pfg->prefetch);
		if (err)
			return err;
	}
	t[2] = now_ns();
	err = flamegraph__finish(&pfg->fg);
	if (err)
		return err;

	t[3] = now_ns();
	err = perf_flamegraph__output(pfg);
	if (err)
		return err;
	t[4] = now_ns();
	/* Where the time went, for make bench. */
	pr_debug("perf flamegraph: phases (ms): events %.1f (of which tree %.1f), disassembly %.1f, finish %.1f, write %.1f\n",
		 (t[1] - t[0]) / 1e6, flamegraph_builder__tree_ns(pfg->builder) / 1e6,
		 (t[2] - t[1]) / 1e6,
		 (t[3] - t[2]) / 1e6, (t[4] - t[3]) / 1e6);

	if (quiet)
		return 0;
	fprintf(stderr, "perf flamegraph: %" PRIu64 " samples of '%s'",
		pfg->fg.nr_samples,
		pfg->evsel ? evsel__name(pfg->evsel) : "no event");
	if (pfg->nr_filtered || pfg->nr_unresolved)
		fprintf(stderr, " (%" PRIu64 " filtered, %" PRIu64 " unresolved)",
			pfg->nr_filtered, pfg->nr_unresolved);
	if (pfg->nr_other_event)
		fprintf(stderr, ", %" PRIu64 " samples of other events skipped",
			pfg->nr_other_event);
	fprintf(stderr, ", %" PRIu64 " frames, %" PRIu64 " instruction leaves, wrote %s (%s)\n",
		pfg->fg.nr_nodes - 1, pfg->fg.nr_insns,
		strcmp(pfg->output, "-") ? pfg->output : "stdout",
		format_names[pfg->format]);
	return 0;
}

/*
 * What /bin/sh would split or expand in the objdump command perf's disasm
 * layer writes (util/disasm.c), where the path is not quoted.
 */
#define OBJDUMP_SHELL_CHARS	" \t\n'\"\\$`;&|<>*?()[]{}#"

/*
 * A file execve() would run: a regular file we may execute.  Else false,
 * errno saying why (EACCES, as from execve(), for a directory).
 */
static bool perf_flamegraph__is_program(const char *file)
{
	if (access(file, X_OK))
		return false;
	if (!is_regular_file(file)) {
		errno = EACCES;
		return false;
	}
	return true;
}

/*
 * Whether execvp() would find @cmd: a path, or a name in $PATH (execvp()'s
 * default when $PATH is unset).  A mistyped option ('-f folded') ends the
 * options, so its argument would be taken for the command to record.
 */
static bool perf_flamegraph__command_exists(const char *cmd)
{
	const char *path = getenv("PATH") ?: "/bin:/usr/bin";
	char *dirs, *next, *dir, file[PATH_MAX];
	bool found = false;

	if (!*cmd)
		return false;
	if (strchr(cmd, '/'))
		return perf_flamegraph__is_program(cmd);
	dirs = strdup(path);
	if (!dirs)
		return true;	/* let perf record tell */
	/* An empty entry is the current directory, as for execvp(). */
	for (next = dirs; next && !found;) {
		dir = strsep(&next, ":");
		if (snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", cmd) <
		    (int)sizeof(file))
			found = perf_flamegraph__is_program(file);
	}
	free(dirs);
	return found;
}

/*
 * Put a finished recording at @path as perf record would have: what was
 * there before is kept as <path>.old (util/data.c's check_backup()).
 */
static int perf_flamegraph__keep_recording(const char *tmp, const char *path)
{
	char oldname[PATH_MAX];
	struct stat st;
	int err;

	if (!stat(path, &st) && st.st_size) {
		snprintf(oldname, sizeof(oldname), "%s.old", path);
		if (rm_rf_perf_data(oldname) || rename(path, oldname)) {
			err = errno ?: EEXIST;
			pr_err("cannot keep %s as %s (%s); the recording is %s\n",
			       path, oldname, strerror(err), tmp);
			return -err;
		}
	}
	if (rename(tmp, path)) {
		err = errno;
		pr_err("cannot rename %s to %s: %s\n", tmp, path, strerror(err));
		return -err;
	}
	return 0;
}

/*
 * perf flamegraph -- <command>: record it first, as perf script flamegraph
 * does, with call graphs and perf record's default event (which falls
 * back to a software clock where there is no PMU).  A file, not a pipe,
 * so perf record writes the build-id table and fills the build-id cache:
 * the flame graph of this recording stays right after a rebuild.  A child
 * perf, not cmd_record() here, so record's global state stays its own.
 * It records into a new file next to @path, which replaces @path only
 * once perf record succeeded: a failed recording loses nothing.
 */
static int perf_flamegraph__record(const char *path, const char *event,
				   int argc, const char **argv)
{
	const char **rec_argv;
	struct sigaction ign = { .sa_handler = SIG_IGN, }, old_int, old_term;
	char tmp[PATH_MAX];
	int i = 0, j, fd, status = 0;
	pid_t pid;

	if (!perf_flamegraph__command_exists(argv[0])) {
		pr_err("%s: no such command to record (options go before the command)\n",
		       argv[0]);
		return -ENOENT;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0) {
		fd = -errno;
		pr_err("cannot create a file next to %s: %s\n", path, strerror(-fd));
		return fd;
	}
	close(fd);
	rec_argv = calloc(argc + 9, sizeof(*rec_argv));
	if (!rec_argv) {
		unlink(tmp);
		return -ENOMEM;
	}
	/* The perf that runs now, not whichever is first in $PATH. */
	rec_argv[i++] = "/proc/self/exe";
	rec_argv[i++] = "record";
	rec_argv[i++] = "-g";
	rec_argv[i++] = "-o";
	rec_argv[i++] = tmp;
	if (event) {
		rec_argv[i++] = "-e";
		rec_argv[i++] = event;
	}
	rec_argv[i++] = "--";
	for (j = 0; j < argc; j++)
		rec_argv[i++] = argv[j];

	/*
	 * ^C stops the command: perf record writes what it has and dies of
	 * the signal it got, as it does on a terminal; render that.
	 */
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGTERM, &ign, &old_term);
	pid = fork();
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execv(rec_argv[0], (char **)rec_argv);
		pr_err("cannot run perf record: %s\n", strerror(errno));
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(rec_argv);
	if (pid < 0 || !((WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
			 (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT ||
						  WTERMSIG(status) == SIGTERM)))) {
		pr_err("perf record of '%s' failed, no flame graph written\n",
		       argv[0]);
		unlink(tmp);
		return -EINVAL;
	}
	return perf_flamegraph__keep_recording(tmp, path);
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct perf_flamegraph pfg = {
		.output	   = "flamegraph.html",
		.max_stack = PERF_MAX_STACK_DEPTH,
	};
	struct perf_data data = {
		.mode  = PERF_DATA_MODE_READ,
	};
	const char *disassembler_style = NULL, *objdump_path = NULL;
	struct perf_debuginfod debuginfod = { .set = false, };
	const char * const flamegraph_usage[] = {
		"perf flamegraph [<options>]",
		"perf flamegraph [<options>] [--] <command> [<args>]",
		NULL
	};
	const struct option options[] = {
	OPT_STRING('i', "input", &input_name, "file", "input file name"),
	OPT_STRING('o', "output", &pfg.output, "file",
		   "output file name, - for stdout (default: flamegraph.html)"),
	OPT_STRING(0, "format", &pfg.format_str, "html|json|folded",
		   "output format (default: from the output's extension, else html)"),
	OPT_STRING(0, "template", &pfg.template_path, "file",
		   "write html into this d3-flame-graph template, as flamegraph.py --template"),
	OPT_BOOLEAN('f', "force", &data.force, "don't complain, do it"),
	OPT_BOOLEAN(0, "asm", &pfg.asm_leaves,
		    "add the sampled instructions as leaves"),
	OPT_STRING('e', "event", &pfg.event_name, "event",
		   "event whose samples to show (default: the first)"),
	OPT_INTEGER(0, "max-stack", &pfg.max_stack,
		    "maximum number of callchain entries to use"),
	OPT_STRING('c', "comms", &symbol_conf.comm_list_str, "comm[,comm...]",
		   "only consider samples of these comms"),
	OPT_STRING(0, "pid", &symbol_conf.pid_list_str, "pid[,pid...]",
		   "only consider samples of these pids"),
	OPT_STRING(0, "tid", &symbol_conf.tid_list_str, "tid[,tid...]",
		   "only consider samples of these tids"),
	OPT_STRING('d', "dsos", &symbol_conf.dso_list_str, "dso[,dso...]",
		   "only consider samples in these dsos"),
	OPT_STRING('S', "symbols", &symbol_conf.sym_list_str, "symbol[,symbol...]",
		   "only consider samples in these symbols"),
	OPT_STRING('C', "cpu", &pfg.cpu_list, "cpu",
		   "list of cpus to profile"),
	OPT_STRING(0, "time", &pfg.time_str, "str",
		   "Time span of interest (start,stop), as in perf report"),
	OPT_INCR('v', "verbose", &verbose,
		 "be more verbose (show symbol address, etc)"),
	OPT_BOOLEAN('q', "quiet", &quiet, "do not show any warnings or messages"),
	OPT_STRING('k', "vmlinux", &symbol_conf.vmlinux_name,
		   "file", "vmlinux pathname"),
	OPT_BOOLEAN(0, "ignore-vmlinux", &symbol_conf.ignore_vmlinux,
		    "don't load vmlinux even if found"),
	OPT_STRING(0, "kallsyms", &symbol_conf.kallsyms_name, "file",
		   "kallsyms pathname"),
	OPT_STRING(0, "symfs", &symbol_conf.symfs, "directory",
		   "Look for files with symbols relative to this directory"),
	OPT_STRING(0, "objdump", &objdump_path, "path",
		   "objdump binary to use for disassembly and annotations"),
	OPT_STRING('M', "disassembler-style", &disassembler_style,
		   "disassembler style",
		   "Specify disassembler style (e.g. -M intel for intel syntax)"),
	OPT_BOOLEAN(0, "asm-raw", &annotate_opts.show_asm_raw,
		    "Display raw encoding of assembly instructions"),
	OPT_BOOLEAN(0, "demangle", &symbol_conf.demangle,
		    "Demangle symbol names (default: on)"),
	OPT_BOOLEAN(0, "inline", &symbol_conf.inline_name,
		    "Show inline function frames"),
	OPT_END()
	};
	int ret;

	annotation_options__init();
	annotation_config__init();
	symbol_conf.inline_name = false;
	symbol_conf.use_callchain = true;

	argc = parse_options(argc, argv, options, flamegraph_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION);
	if (argc && input_name && !strcmp(input_name, "-")) {
		pr_err("-i -: a command is recorded into a file, not a pipe\n");
		ret = -EINVAL;
		goto out;
	}

	/* As perf record by default: no debuginfod server is asked. */
	perf_debuginfod_setup(&debuginfod);

	if (quiet)
		perf_quiet_option();
	else if (verbose <= 0 && isatty(STDERR_FILENO))
		ui_progress__ops = &stderr_progress__ops;

	if (pfg.max_stack < 1) {
		pr_err("--max-stack %d: use at least 1\n", pfg.max_stack);
		ret = -EINVAL;
		goto out;
	}

	ret = flamegraph__parse_format(pfg.format_str, pfg.output, &pfg.format);
	if (ret)
		goto out;
	if (pfg.template_path) {
		ret = perf_flamegraph__read_template(&pfg);
		if (ret)
			goto out;
	}

	if (disassembler_style) {
		annotate_opts.disassembler_style = strdup(disassembler_style);
		if (!annotate_opts.disassembler_style)
			return -ENOMEM;
	}
	if (objdump_path) {
		/*
		 * perf's disasm layer runs it with /bin/sh, which searches
		 * $PATH, and would split or expand what it doesn't quote.
		 */
		if (strpbrk(objdump_path, OBJDUMP_SHELL_CHARS)) {
			pr_err("--objdump '%s': perf runs objdump through /bin/sh, which would split or expand this name\n",
			       objdump_path);
			ret = -EINVAL;
			goto out;
		}
		if (!perf_flamegraph__command_exists(objdump_path)) {
			pr_err("--objdump '%s': %s\n", objdump_path,
			       strchr(objdump_path, '/') ? strerror(errno) :
			       "no such program in $PATH");
			ret = -EINVAL;
			goto out;
		}
		annotate_opts.objdump_path = strdup(objdump_path);
		if (!annotate_opts.objdump_path)
			return -ENOMEM;
	}

	ret = symbol__validate_sym_arguments();
	if (ret)
		goto out;

	data.path = input_name ?: "perf.data";
	if (strcmp(data.path, "-") && strcmp(pfg.output, "-") &&
	    same_file(data.path, pfg.output)) {
		pr_err("the output %s is the input: refusing to overwrite it\n",
		       pfg.output);
		ret = -EINVAL;
		goto out;
	}

	ret = flamegraph_output__init(&pfg.out, pfg.output);
	if (ret)
		goto out;

	/* The output was checked first: no recording for nothing. */
	if (argc) {
		ret = perf_flamegraph__record(data.path, pfg.event_name,
					      argc, argv);
		if (ret)
			goto out;
	}

	perf_tool__init(&pfg.tool, /*ordered_events=*/true);
	pfg.tool.sample		 = process_sample_event;
	pfg.tool.mmap		 = process_mmap_event;
	pfg.tool.mmap2		 = process_mmap2_event;
	pfg.tool.comm		 = process_comm_event;
	pfg.tool.exit		 = process_exit_event;
	pfg.tool.fork		 = process_fork_event;
	pfg.tool.namespaces	 = perf_event__process_namespaces;
	pfg.tool.ksymbol	 = process_ksymbol_event;
	pfg.tool.attr		 = process_attr;
	pfg.tool.build_id	 = perf_event__process_build_id;
#ifdef HAVE_LIBTRACEEVENT
	pfg.tool.tracing_data	 = perf_event__process_tracing_data;
#endif
	pfg.tool.id_index	 = perf_event__process_id_index;
	pfg.tool.feature	 = process_feature_event;
	pfg.tool.ordering_requires_timestamps = true;

	flamegraph__init(&pfg.fg);
	pfg.checked_dsos = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	if (IS_ERR(pfg.checked_dsos)) {
		ret = PTR_ERR(pfg.checked_dsos);
		pfg.checked_dsos = NULL;
		goto out_fg;
	}

	pfg.session = perf_session__new(&data, &pfg.tool);
	if (IS_ERR(pfg.session)) {
		ret = PTR_ERR(pfg.session);
		pfg.session = NULL;
		goto out_fg;
	}

	/* Room for disassembly in every symbol, only when it will be used. */
	if (pfg.asm_leaves) {
		ret = symbol__annotation_init();
		if (ret < 0)
			goto out_delete;
	}

	symbol_conf.try_vmlinux_path = true;
	ret = symbol__init(&pfg.session->header.env);
	if (ret < 0)
		goto out_delete;

	ret = __cmd_flamegraph(&pfg);

out_delete:
	perf_session__delete(pfg.session);
out_fg:
	flamegraph_cache__delete(pfg.cache);
	flamegraph_cache__delete(pfg.callers);
	flamegraph_builder__delete(pfg.builder);
	flamegraph_prefetch__delete(pfg.prefetch);
	flamegraph__exit(&pfg.fg);
	hashmap__free(pfg.checked_dsos);
	free(pfg.frames);
	zfree(&pfg.ptime_range);
out:
	flamegraph_output__exit(&pfg.out);
	free(pfg.template);
	annotation_options__exit();
	return ret;
}
