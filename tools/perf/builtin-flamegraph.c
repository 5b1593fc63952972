// SPDX-License-Identifier: GPL-2.0
/*
 * builtin-flamegraph.c: write the flame graph of a perf.data file, with
 * --asm the sampled instructions as its leaves.
 */
#include "builtin.h"
#include "perf.h"

#include "util/annotate.h"
#include "util/build-id.h"
#include "util/callchain.h"
#include "util/config.h"
#include "util/data.h"
#include "util/data-convert.h"
#include "util/debug.h"
#include "util/dso.h"
#include "util/event.h"
#include "util/evlist.h"
#include "util/evsel.h"
#include "util/flamegraph.h"
#include "util/flamegraph-annotate.h"
#include "util/flamegraph-asm.h"
#include "util/flamegraph-diff.h"
#include "util/flamegraph-html.h"
#include "util/flamegraph-output.h"
#include "util/flamegraph-record.h"
#include "util/flamegraph-session.h"
#include "util/header.h"
#include "util/machine.h"
#include "util/map.h"
#include "util/output-file.h"
#include "util/session.h"
#include "util/strbuf.h"
#include "util/symbol.h"
#include "util/thread.h"
#include "util/time-utils.h"
#include "util/tool.h"
#include "util/util.h"
#include "ui/progress.h"

#include <subcmd/parse-options.h>
#include <linux/bitmap.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/zalloc.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*
 * One event's flame graph, made at its first sample: of one evsel, or of
 * all instances of a hybrid machine's event (evsel__hybrid_name()).
 * Each evsel's priv is its graph, or ERR_PTR(-ENOENT) if it has none.
 */
struct perf_flamegraph_event {
	struct flamegraph	fg;
	/* The event as -e named it, else evsel__hybrid_name(). */
	char			*name;
	/* Its place in -e's list. */
	int			nth;
	/* Its first evsel, the session's: what it counts, for --diff. */
	struct evsel		*evsel;
	/* What the writers say of it: its event, unit and view. */
	struct flamegraph_labels labels;
	struct strbuf		view;
};

/*
 * What reading one recording makes: -i's, or --diff's recording before;
 * perf_flamegraph__close() lets go of it all.
 */
struct perf_flamegraph_input {
	struct perf_session	*session;
	/*
	 * The graphs made, in the order of their first samples; once the
	 * events are read, those to write, the page's default first, and
	 * their trees for the writers.
	 */
	struct perf_flamegraph_event **events;
	int			nr_events;
	size_t			alloc_events;
	struct flamegraph	**graphs;
	int			nr_graphs;
	/* DSOs replaced since the recording, warned about once. */
	struct dso		**replaced;
	int			nr_replaced;
	size_t			alloc_replaced;
	/* --time's ranges, as perf report parses them. */
	struct perf_time_interval *ptime_range;
	int			range_size;
	int			range_num;
	u64			nr_other_event;
	/* All graphs' struct flamegraph_stats', once the events are read. */
	u64			nr_resolved;	/* not from a remembered stack */
	u64			nr_by_callers;	/* of which only the IP resolved */
};

struct perf_flamegraph {
	struct perf_tool	tool;
	struct perf_flamegraph_input in;
	/* --diff: the graph before, whose warnings are not said again. */
	struct flamegraph	*warned_with;
	struct output_file out;
	const char		*output;
	/* --diff's recording: the graph before, this one's after. */
	const char		*diff_base;
	const char		*format_str;
	enum flamegraph_format	format;
	const char		*template_path;
	char			*template;
	const char		*event_name;
	/* -e's events, split at the commas outside an event's "pmu/.../". */
	char			**event_names;
	int			nr_event_names;
	size_t			alloc_event_names;
	const char		*value_str;
	enum flamegraph_weight	weight;
	const char		*cpu_list;
	DECLARE_BITMAP(cpu_bitmap, MAX_NR_CPUS);
	const char		*time_str;
	bool			asm_leaves;
	/* With --asm, no objdump for the recording's architecture. */
	bool			no_objdump;
	/* --annotate-functions: how many functions carry their whole code. */
	unsigned int		annotate_functions;
	/* pprof: the hottest locations' source lines; the cpu as a label. */
	bool			srcline;
	/* --debuginfod, or flamegraph.debuginfod; and whether a server failed. */
	struct perf_debuginfod	debuginfod;
	char			*config_urls;
	bool			debuginfod_failed;
	bool			cpu_label;
	int			max_stack;	/* --max-stack's, INT_MAX if not given */
	bool			bad_option;	/* found only once the input was read */
	/* When they began: events, decoding, finish, write. */
	u64			phases[4];
};

static bool perf_flamegraph__listed(struct perf_flamegraph *pfg, const char *name, size_t len)
{
	int i;

	for (i = 0; i < pfg->nr_event_names; i++) {
		if (strlen(pfg->event_names[i]) == len && !strncmp(pfg->event_names[i], name, len))
			return true;
	}
	return false;
}

/*
 * Split -e's list at its commas, but not at those inside an event's
 * "pmu/term=a,term=b/".  Return: 0, or -ENOMEM.
 */
static int perf_flamegraph__split_events(struct perf_flamegraph *pfg)
{
	const char *s = pfg->event_name, *start = s;
	bool in_pmu = false;

	for (;; s++) {
		if (*s == '/')
			in_pmu = !in_pmu;
		if (*s && (*s != ',' || in_pmu))
			continue;
		if (s > start && !perf_flamegraph__listed(pfg, start, s - start)) {
			if (flamegraph__grow(&pfg->event_names, &pfg->alloc_event_names,
					     pfg->nr_event_names + 1, sizeof(*pfg->event_names)))
				return -ENOMEM;
			pfg->event_names[pfg->nr_event_names] = strndup(start, s - start);
			if (!pfg->event_names[pfg->nr_event_names])
				return -ENOMEM;
			pfg->nr_event_names++;
		}
		if (!*s)
			return 0;
		start = s + 1;
	}
}

/*
 * Which of -e's events @evsel is: named by its name, or, for an instance
 * of a hybrid event, by the event's (@event_name).  -1: none of them.
 */
static int perf_flamegraph__nth_event(struct perf_flamegraph *pfg, struct evsel *evsel,
				      const char *event_name)
{
	int i;

	/* An instance named in the list is its own graph, not its event's. */
	for (i = 0; i < pfg->nr_event_names; i++) {
		if (!strcmp(pfg->event_names[i], evsel__name(evsel)))
			return i;
	}
	for (i = 0; i < pfg->nr_event_names; i++) {
		if (!strcmp(pfg->event_names[i], event_name))
			return i;
	}
	return -1;
}

/* Whether each of -e's events is in @session's file; if not, say so. */
static bool perf_flamegraph__events_in(struct perf_flamegraph *pfg,
				       struct perf_session *session)
{
	struct evsel *pos;
	char *name;
	int i, nth;

	for (i = 0; i < pfg->nr_event_names; i++) {
		nth = -1;
		evlist__for_each_entry(session->evlist, pos) {
			name = evsel__hybrid_name(pos);
			nth = name ? perf_flamegraph__nth_event(pfg, pos, name) : -1;
			free(name);
			if (nth == i)
				break;
		}
		if (nth != i) {
			pr_err("event '%s' is not in %s\n", pfg->event_names[i],
			       session->data->path);
			return false;
		}
	}
	return true;
}

/*
 * Frame-pointer callchains resolve from the sample alone (struct
 * flamegraph_stack_key); DWARF callchains unwind a copy of the user stack
 * and LBR ones read the branch stack, which the key doesn't hold.
 */
static bool perf_flamegraph__stacks_by_key(struct evsel *evsel)
{
	return !(evsel->core.attr.sample_type &
		 (PERF_SAMPLE_STACK_USER | PERF_SAMPLE_REGS_USER)) &&
	       !evsel__has_branch_callstack(evsel) &&
	       callchain_param.record_mode != CALLCHAIN_DWARF &&
	       callchain_param.record_mode != CALLCHAIN_LBR;
}

/*
 * Where the callers of a sampled function go depends on the callchain
 * after its IP alone: perf resolves each entry on its own
 * (add_callchain_ip()), in the cpumode of the PERF_CONTEXT_* marker
 * before it.  That holds for precise events too, as long as the
 * callchain starts with the sample IP (flamegraph__add_sample()):
 * callchain__fixup_precise_ip() then leaves it as it is.  Not with --inline
 * (more frames for the IP), guest code, callchains in caller order or
 * with a skipped entry (HAVE_SKIP_CALLCHAIN_IDX).
 */
static bool perf_flamegraph__callers_by_key(struct evsel *evsel)
{
#ifdef HAVE_SKIP_CALLCHAIN_IDX
	return false;
#else
	return perf_flamegraph__stacks_by_key(evsel) && !symbol_conf.inline_name &&
	       !symbol_conf.guest_code && callchain_param.order == ORDER_CALLEE;
#endif
}

/*
 * How many callchain entries to resolve: --max-stack's, else all that
 * the recording holds, as the kernel cut them; a DWARF unwinder's buffer
 * is as deep as perf report's default, PERF_MAX_STACK_DEPTH.
 */
static int perf_flamegraph__max_stack(struct perf_flamegraph *pfg, struct evsel *evsel)
{
	if (pfg->max_stack == INT_MAX &&
	    (evsel->core.attr.sample_type & PERF_SAMPLE_STACK_USER))
		return PERF_MAX_STACK_DEPTH;
	return pfg->max_stack;
}

static void perf_flamegraph_event__delete(struct perf_flamegraph_event *pfe)
{
	if (pfe) {
		flamegraph__exit(&pfe->fg);
		strbuf_release(&pfe->view);
		free(pfe->name);
		free(pfe);
	}
}

/*
 * Whether the graphs carry the whole code of their hottest functions:
 * the JSON and the page (d3-flame-graph's template has the JSON's tree).
 */
static bool perf_flamegraph__functions(struct perf_flamegraph *pfg)
{
	return pfg->asm_leaves && pfg->annotate_functions && !pfg->diff_base &&
	       flamegraph_format__has_code(pfg->format);
}

/*
 * The graph of @evsel's samples, made at the first sample of its event:
 * -e's events', else every event's, perf report's default of the first
 * with samples being known only at the end.  NULL for an event not to
 * show, or no memory (*@err).
 */
static struct perf_flamegraph_event *perf_flamegraph__event(struct perf_flamegraph *pfg,
							    struct evsel *evsel, int *err)
{
	struct perf_flamegraph_event *pfe = evsel->priv, **events;
	char *name;
	int i, nth = 0;

	*err = 0;
	if (pfe)
		return IS_ERR(pfe) ? NULL : pfe;
	name = evsel__hybrid_name(evsel);
	if (!name)
		goto out_nomem;
	if (pfg->nr_event_names) {
		nth = perf_flamegraph__nth_event(pfg, evsel, name);
		if (nth < 0) {
			free(name);
			evsel->priv = ERR_PTR(-ENOENT);
			return NULL;
		}
		free(name);
		name = strdup(pfg->event_names[nth]);
		if (!name)
			goto out_nomem;
	}
	/* The other instance of a hybrid event, or of -e's, made it. */
	for (i = 0; i < pfg->in.nr_events; i++) {
		if ((pfg->nr_event_names || strcmp(name, evsel__name(evsel))) &&
		    !strcmp(pfg->in.events[i]->name, name)) {
			free(name);
			evsel->priv = pfg->in.events[i];
			return evsel->priv;
		}
	}
	if (flamegraph__grow(&pfg->in.events, &pfg->in.alloc_events, pfg->in.nr_events + 1,
			     sizeof(*pfg->in.events)))
		goto out_free;
	events = pfg->in.events;
	pfe = zalloc(sizeof(*pfe));
	if (!pfe || flamegraph__init(&pfe->fg, pfg->weight)) {
		free(pfe);
		goto out_free;
	}
	if (perf_flamegraph__functions(pfg) && flamegraph__track_callsites(&pfe->fg)) {
		flamegraph__exit(&pfe->fg);
		free(pfe);
		goto out_free;
	}
	strbuf_init(&pfe->view, 0);
	pfe->name = name;
	pfe->nth = nth;
	pfe->evsel = evsel;
	pfe->fg.sample_opts = (struct flamegraph_sample_opts){
		.max_stack	= perf_flamegraph__max_stack(pfg, evsel),
		.callchains	= symbol_conf.use_callchain,
		.stacks_by_key	= perf_flamegraph__stacks_by_key(evsel),
		.callers_by_key	= perf_flamegraph__callers_by_key(evsel),
		.insn_leaves	= pfg->asm_leaves,
	};
	pfe->labels.event = pfe->name;
	pfe->labels.unit = evsel__period_unit(evsel);
	events[pfg->in.nr_events++] = pfe;
	evsel->priv = pfe;
	return pfe;
out_free:
	free(name);
out_nomem:
	*err = -ENOMEM;
	return NULL;
}

/* Whether @sample is one to show: the --cpu and --time filters. */
static bool perf_flamegraph__wanted(struct perf_flamegraph *pfg,
				    struct perf_flamegraph_event *pfe,
				    struct perf_sample *sample)
{
	if ((pfg->cpu_list && (sample->cpu >= MAX_NR_CPUS ||
			       !test_bit(sample->cpu, pfg->cpu_bitmap))) ||
	    perf_time__ranges_skip_sample(pfg->in.ptime_range, pfg->in.range_num,
					  sample->time)) {
		pfe->fg.stats.nr_filtered++;
		return false;
	}
	return true;
}

static int process_sample_event(const struct perf_tool *tool,
				union perf_event *event __maybe_unused,
				struct perf_sample *sample,
				struct machine *machine)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	struct perf_flamegraph_event *pfe;
	int ret = 0;

	pfe = perf_flamegraph__event(pfg, sample->evsel, &ret);
	if (!pfe) {
		pfg->in.nr_other_event++;
		return ret;
	}
	if (!perf_flamegraph__wanted(pfg, pfe, sample))
		return 0;
	return flamegraph__add_sample(&pfe->fg, sample, machine);
}

/*
 * A binary rebuilt since the recording, with no build-id to tell it by,
 * would give the samples functions and instructions that never ran:
 * check each user-space DSO when it is first mapped, before anything
 * loads its symbols or reads its code.
 */
static void perf_flamegraph__check_dso(struct perf_flamegraph *pfg,
				       struct dso *dso)
{
	char why[256];

	if (!dso__reject_if_replaced(dso, why, sizeof(why)))
		return;
	/* Remembered so that the graph written warns of it no more. */
	if (!flamegraph__grow(&pfg->in.replaced, &pfg->in.alloc_replaced, pfg->in.nr_replaced + 1,
			      sizeof(*pfg->in.replaced)))
		pfg->in.replaced[pfg->in.nr_replaced++] = dso__get(dso);
	pr_warning("Warning: %s: %s, and the recording has no build-id to find the binary that ran; its frames show [unknown]%s\n",
		   dso__long_name(dso), why,
		   pfg->asm_leaves ? " and its instruction leaves addresses" : "");
}

/*
 * An event that changes how a process's addresses resolve, or its comm:
 * what its stacks resolved to before no longer holds.  -1: the kernel's
 * maps, everyone's.
 */
static void perf_flamegraph__forget(const struct perf_tool *tool, s32 pid)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	int i;

	for (i = 0; i < pfg->in.nr_events; i++)
		flamegraph__forget_stacks(&pfg->in.events[i]->fg, pid);
}

static int process_mmap_event(const struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct machine *machine)
{
	perf_flamegraph__forget(tool, event->mmap.pid);
	return perf_event__process_mmap(tool, event, sample, machine);
}

static int process_comm_event(const struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct machine *machine)
{
	perf_flamegraph__forget(tool, event->comm.pid);
	return perf_event__process_comm(tool, event, sample, machine);
}

static int process_fork_event(const struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct machine *machine)
{
	perf_flamegraph__forget(tool, event->fork.pid);
	return perf_event__process_fork(tool, event, sample, machine);
}

static int process_exit_event(const struct perf_tool *tool, union perf_event *event,
			      struct perf_sample *sample, struct machine *machine)
{
	perf_flamegraph__forget(tool, event->fork.pid);
	return perf_event__process_exit(tool, event, sample, machine);
}

static int process_ksymbol_event(const struct perf_tool *tool, union perf_event *event,
				 struct perf_sample *sample, struct machine *machine)
{
	perf_flamegraph__forget(tool, -1);
	return perf_event__process_ksymbol(tool, event, sample, machine);
}

static int process_mmap2_event(const struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	u8 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct addr_location al;
	struct thread *thread;
	int err;

	perf_flamegraph__forget(tool, event->mmap2.pid);
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

static void perf_flamegraph__setup_callchain(struct perf_session *session)
{
	struct evlist *evlist = session->evlist;

	if (evlist && evlist__nr_entries(evlist))
		callchain_param_setup(evlist__combined_sample_type(evlist),
				      perf_session__e_machine(session, /*e_flags=*/NULL));
}

static int process_attr(const struct perf_tool *tool, union perf_event *event,
			struct evlist **pevlist)
{
	struct perf_flamegraph *pfg = container_of(tool, struct perf_flamegraph, tool);
	int err = perf_event__process_attr(tool, event, pevlist);

	if (!err)
		perf_flamegraph__setup_callchain(pfg->in.session);
	return err;
}

/* Pipe mode: HEADER_LAST_FEATURE marks the end of the features. */
static int process_feature_event(const struct perf_tool *tool,
				 struct perf_session *session,
				 union perf_event *event)
{
	if (event->feat.feat_id < HEADER_LAST_FEATURE)
		return perf_event__process_feature(tool, session, event);
	if (event->feat.feat_id != HEADER_LAST_FEATURE) {
		pr_err("invalid feature ID %" PRI_lu64 " in the input\n",
		       event->feat.feat_id);
		return -EINVAL;
	}
	return 0;
}

/* How a graph differs from the recording's: the filters, what they left out. */
static int perf_flamegraph_event__view(struct perf_flamegraph *pfg,
				       struct perf_flamegraph_event *pfe)
{
	struct strbuf *sb = &pfe->view;
	int err = flamegraph__describe_filters(sb);

	if (!err && pfg->cpu_list)
		err = strbuf_addf(sb, "%s--cpu %s", sb->len ? ", " : "", pfg->cpu_list);
	if (!err && pfg->time_str)
		err = strbuf_addf(sb, "%s--time %s", sb->len ? ", " : "", pfg->time_str);
	if (!err && sb->len)
		err = strbuf_addf(sb, ": %" PRIu64 " of %" PRIu64 " samples left out",
				  pfe->fg.stats.nr_filtered,
				  pfe->fg.stats.nr_filtered + pfe->fg.nr_samples);
	pfe->labels.view = sb->len ? sb->buf : NULL;
	return err;
}

/* What the writers say of a graph of ours besides its tree. */
static struct flamegraph_labels *perf_flamegraph__labels(struct flamegraph *fg)
{
	return &container_of(fg, struct perf_flamegraph_event, fg)->labels;
}

static int perf_flamegraph__write(struct perf_flamegraph *pfg)
{
	struct flamegraph_labels *labels = calloc(pfg->in.nr_graphs, sizeof(*labels));
	int err, i;

	if (!labels)
		return -ENOMEM;
	for (i = 0; i < pfg->in.nr_graphs; i++)
		labels[i] = *perf_flamegraph__labels(pfg->in.graphs[i]);
	err = flamegraph__write_session(&pfg->out, pfg->in.graphs, labels, pfg->in.nr_graphs,
					pfg->format, pfg->in.session, pfg->template);
	free(labels);
	return err;
}

/* A DSO with a build-id whose frames no symbol names, and their samples. */
struct perf_flamegraph_unnamed_dso {
	const struct dso	*dso;
	u64			samples;
};

struct perf_flamegraph_unnamed {
	struct flamegraph	*fg;	/* whose warnings were said */
	struct perf_flamegraph_unnamed_dso *dsos;
	size_t			nr;
	size_t			alloc;
};

#ifdef HAVE_DEBUGINFOD_SUPPORT
static const bool perf_flamegraph__have_debuginfod = true;
#else
static const bool perf_flamegraph__have_debuginfod;
#endif

static void perf_flamegraph__add_unnamed(const struct dso *dso, u64 samples, void *data)
{
	struct perf_flamegraph_unnamed *unnamed = data;
	size_t i;

	if (!dso__has_build_id(dso))
		return;
	/* --diff: a DSO of both recordings is one, by its build-id. */
	for (i = 0; i < unnamed->nr; i++)
		if (unnamed->dsos[i].dso == dso ||
		    dso__build_id_equal(unnamed->dsos[i].dso, dso__bid(dso)))
			break;
	if (i == unnamed->nr) {
		/* One warning per DSO: one that said why before says this. */
		if (!flamegraph__warn_once(unnamed->fg, dso, /*kernel=*/false) ||
		    flamegraph__grow(&unnamed->dsos, &unnamed->alloc, i + 1,
				     sizeof(*unnamed->dsos)))
			return;
		unnamed->dsos[unnamed->nr++] = (struct perf_flamegraph_unnamed_dso){
			.dso = dso,
		};
	}
	unnamed->dsos[i].samples += samples;
}

static int perf_flamegraph__cmp_unnamed(const void *a, const void *b)
{
	const struct perf_flamegraph_unnamed_dso *l = a, *r = b;

	return l->samples < r->samples ? 1 : l->samples > r->samples ? -1 : 0;
}

/*
 * A stripped binary's frames are [unknown]: say that its debug file
 * would name them, and that debuginfod could fetch it by the recorded
 * build-id, or that it has none.  After a server failed to answer, that
 * was said.
 */
static void perf_flamegraph__warn_unnamed(struct perf_flamegraph *pfg,
					  struct flamegraph **graphs, int nr_graphs)
{
	struct perf_flamegraph_unnamed unnamed = { .dsos = NULL, };
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	if (pfg->debuginfod_failed)
		return;
	for (i = 0; i < (size_t)nr_graphs; i++) {
		unnamed.fg = graphs[i];
		flamegraph__unnamed(unnamed.fg, perf_flamegraph__add_unnamed, &unnamed);
	}
	if (!unnamed.nr)
		goto out;
	qsort(unnamed.dsos, unnamed.nr, sizeof(*unnamed.dsos), perf_flamegraph__cmp_unnamed);
	for (i = 0; i < unnamed.nr && i < 3; i++)
		strbuf_addf(&sb, "%s%s (%llu sample%s)", i ? ", " : "",
			    flamegraph_dso__name(unnamed.dsos[i].dso),
			    (unsigned long long)unnamed.dsos[i].samples,
			    unnamed.dsos[i].samples == 1 ? "" : "s");
	if (unnamed.nr > 3)
		strbuf_addf(&sb, " and %zu more DSOs", unnamed.nr - 3);
	if (pfg->debuginfod.set)
		pr_warning("Warning: no symbols name the frames of %s, and debuginfod has no debug file for their build-ids\n",
			   sb.buf ?: "");
	else if (perf_flamegraph__have_debuginfod)
		pr_warning("Warning: no symbols name the frames of %s: --debuginfod could fetch their debug files by their build-ids\n",
			   sb.buf ?: "");
	strbuf_release(&sb);
out:
	free(unnamed.dsos);
}

/* What the graphs' frames lack, said once for all of them. */
static void perf_flamegraph__warn(struct perf_flamegraph *pfg,
				  struct flamegraph **graphs, int nr_graphs)
{
	u64 unmapped = 0;
	int i;

	for (i = 0; i < nr_graphs; i++)
		unmapped += flamegraph__kernel_unmapped(graphs[i]);
	/*
	 * perf record finds no kernel map when /proc/kallsyms hides the
	 * kernel's addresses (kernel.kptr_restrict): say why kernel frames
	 * have no names.
	 */
	if (unmapped)
		pr_warning("Warning: %llu kernel samples have no kernel map, so no names; was kernel.kptr_restrict set when recording?\n",
			   (unsigned long long)unmapped);
	perf_flamegraph__warn_unnamed(pfg, graphs, nr_graphs);
}

static void perf_flamegraph__summary(struct perf_flamegraph *pfg)
{
	struct perf_flamegraph_event *pfe;
	int i;

	perf_flamegraph__warn(pfg, pfg->in.graphs, pfg->in.nr_graphs);
	if (quiet)
		return;
	fputs("perf flamegraph: ", stderr);
	for (i = 0; i < pfg->in.nr_events; i++) {
		pfe = pfg->in.events[i];
		fprintf(stderr, "%s%" PRIu64 " samples of '%s'", i ? "; " : "",
			pfe->fg.nr_samples, pfe->name);
		if (pfe->fg.stats.nr_filtered || pfe->fg.stats.nr_unresolved)
			fprintf(stderr, " (%" PRIu64 " filtered, %" PRIu64 " unresolved)",
				pfe->fg.stats.nr_filtered, pfe->fg.stats.nr_unresolved);
		fprintf(stderr, ", %" PRIu64 " frames, %" PRIu64 " instruction leaves",
			pfe->fg.nr_nodes - 1, pfe->fg.nr_leaves);
	}
	if (pfg->in.nr_other_event)
		fprintf(stderr, ", %" PRIu64 " samples of other events skipped",
			pfg->in.nr_other_event);
	fprintf(stderr, ", wrote %s (%s)\n",
		strcmp(pfg->output, "-") ? pfg->output : "stdout",
		flamegraph_format__name(pfg->format));
}

static int perf_flamegraph_event__cmp(const void *a, const void *b)
{
	const struct perf_flamegraph_event *x = *(void * const *)a, *y = *(void * const *)b;

	return x->nth - y->nth;
}

/*
 * The graphs to write: those of -e's events, in its order, else that of
 * the first event in the recording with samples, as perf report shows
 * first; the others are freed, their samples counted as skipped.
 * -ENODATA, after saying why, if one asked for is empty (its samples
 * were all filtered, or there were none): an empty flame graph is never
 * what the user asked for.
 */
static int perf_flamegraph__choose_graphs(struct perf_flamegraph *pfg)
{
	struct perf_flamegraph_event *pfe, *chosen = NULL;
	struct evsel *pos;
	int i, j, err = 0;

	if (!pfg->nr_event_names) {
		/* The first with samples, else the first seen, for its numbers. */
		evlist__for_each_entry(pfg->in.session->evlist, pos) {
			pfe = IS_ERR_OR_NULL(pos->priv) ? NULL : pos->priv;
			if (pfe && (!chosen || (!chosen->fg.nr_samples && pfe->fg.nr_samples)))
				chosen = pfe;
		}
	}
	for (i = 0; i < pfg->in.nr_events; i++) {
		pfe = pfg->in.events[i];
		pfg->in.nr_resolved += pfe->fg.stats.nr_resolved;
		pfg->in.nr_by_callers += pfe->fg.stats.nr_by_callers;
		if (!pfg->nr_event_names && pfe != chosen) {
			pfg->in.nr_other_event += pfe->fg.nr_samples + pfe->fg.stats.nr_filtered +
					       pfe->fg.stats.nr_unresolved;
			perf_flamegraph_event__delete(pfe);
			continue;
		}
		pfg->in.events[pfg->in.nr_graphs++] = pfe;
	}
	pfg->in.nr_events = pfg->in.nr_graphs;
	/* The samples are all read: nothing asks an evsel for its graph again. */
	evlist__for_each_entry(pfg->in.session->evlist, pos)
		pos->priv = NULL;
	/* A pipe's events are all known now. */
	if (!perf_flamegraph__events_in(pfg, pfg->in.session))
		return -EINVAL;
	qsort(pfg->in.events, pfg->in.nr_events, sizeof(*pfg->in.events),
	      perf_flamegraph_event__cmp);
	/* Each graph to show has samples: -e's events', else the chosen one. */
	for (i = 0; i < max(pfg->nr_event_names, 1); i++) {
		pfe = i < pfg->in.nr_events ? pfg->in.events[i] : NULL;
		if (pfe && pfe->nth != i)
			pfe = NULL;
		if (!pfe || !pfe->fg.nr_samples) {
			pr_err("no samples of '%s' to show in %s (%" PRIu64 " filtered, %"
			       PRIu64 " unresolved)\n",
			       pfe ? pfe->name : pfg->nr_event_names ? pfg->event_names[i] :
			       "any event",
			       pfg->in.session->data->path, pfe ? pfe->fg.stats.nr_filtered : 0,
			       pfe ? pfe->fg.stats.nr_unresolved : 0);
			return -ENODATA;
		}
	}
	pfg->in.graphs = calloc(pfg->in.nr_events, sizeof(*pfg->in.graphs));
	if (!pfg->in.graphs)
		return -ENOMEM;
	for (i = 0; i < pfg->in.nr_events && !err; i++) {
		pfe = pfg->in.events[i];
		pfg->in.graphs[i] = &pfe->fg;
		if (i || pfg->warned_with)
			flamegraph__share_warnings(&pfe->fg, i ? pfg->in.graphs[0] :
						   pfg->warned_with);
		for (j = 0; j < pfg->in.nr_replaced; j++)
			flamegraph__warn_once(&pfe->fg, pfg->in.replaced[j], /*kernel=*/false);
		err = perf_flamegraph_event__view(pfg, pfe);
	}
	return err;
}

/*
 * The signal that stopped perf flamegraph after any recording: ^C, a
 * supervisor's SIGTERM, a closed terminal or a reader gone (SIGPIPE).
 */
static sig_atomic_t perf_flamegraph__signal;

/* The signals that end perf flamegraph, as flamegraph__record()'s. */
static const int perf_flamegraph__signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, };

/*
 * Give the signals perf_flamegraph__sig_handler() catches their default
 * action back, SIGPIPE too with @pipe_too; an ignored one stays ignored.
 * Async-signal-safe (sigaction() and signal()), for the handler.
 */
static void perf_flamegraph__default_signals(bool pipe_too);

/*
 * Stop reading, as ^C stops perf report's: perf flamegraph writes
 * nothing then, lets go of what it has (the output's temp file, the
 * copy of the vDSO that perf's machine keeps in /tmp) and dies of the
 * signal in perf_flamegraph__die().  A second SIGINT, SIGTERM or SIGHUP
 * ends it at once; not SIGPIPE, which each write to a closed pipe raises.
 */
static void perf_flamegraph__sig_handler(int sig)
{
	if (!READ_ONCE(perf_flamegraph__signal))
		WRITE_ONCE(perf_flamegraph__signal, sig);
	session_done = 1;
	perf_flamegraph__default_signals(/*pipe_too=*/false);
}

static void perf_flamegraph__default_signals(bool pipe_too)
{
	struct sigaction old;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(perf_flamegraph__signals); i++) {
		int sig = perf_flamegraph__signals[i];

		if ((pipe_too || sig != SIGPIPE) && !sigaction(sig, NULL, &old) &&
		    old.sa_handler == perf_flamegraph__sig_handler)
			signal(sig, SIG_DFL);
	}
}

/*
 * Catch the signals, unless one came already (its handler gave the
 * others their default action back).  A signal ignored when perf
 * started (nohup, ^C of a background job) stays ignored.
 */
static void perf_flamegraph__catch_signals(void)
{
	struct sigaction act = {
		.sa_handler = perf_flamegraph__sig_handler,
		.sa_flags = SA_RESTART,
	};
	struct sigaction old;
	size_t i;

	if (READ_ONCE(perf_flamegraph__signal))
		return;
	for (i = 0; i < ARRAY_SIZE(perf_flamegraph__signals); i++) {
		int sig = perf_flamegraph__signals[i];

		if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sig, &act, NULL);
	}
}

/*
 * While --debuginfod downloads: a signal ends perf flamegraph at once, as
 * before, where cancelling the query (libdebuginfod's progress function)
 * would leave a cached miss that keeps the next run from asking.
 */
static void perf_flamegraph__release_signals(void)
{
	perf_flamegraph__default_signals(/*pipe_too=*/true);
}

/* After the clean-up: die of the signal, so a shell sees 128 + its number. */
static void perf_flamegraph__die(void)
{
	int sig = READ_ONCE(perf_flamegraph__signal);

	if (sig) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
}

/* The session's samples into finished graphs: what is written or compared. */
static int perf_flamegraph__build(struct perf_flamegraph *pfg)
{
	struct perf_session *session = pfg->in.session;
	unsigned int nr_functions;
	u64 *t = pfg->phases;
	int err, i;

	if (pfg->cpu_list) {
		err = perf_session__cpu_bitmap(session, pfg->cpu_list, pfg->cpu_bitmap);
		if (err)
			return err;
	}
	if (pfg->time_str) {
		err = perf_time__parse_for_ranges(pfg->time_str, session, &pfg->in.ptime_range,
						  &pfg->in.range_size, &pfg->in.range_num);
		if (err < 0) {
			/* Said in words by perf: a bad command line. */
			pfg->bad_option = err == -EINVAL;
			return err;
		}
	}
	perf_flamegraph__setup_callchain(session);
	if (!perf_data__is_pipe(session->data) && !perf_flamegraph__events_in(pfg, session))
		return -EINVAL;

	t[0] = rdclock();
	err = perf_session__process_events(session);
	if (err) {
		pr_err("failed to process the events of %s\n", session->data->path);
		return err;
	}
	/* Stopped: what was read is not the recording, nothing is written. */
	if (READ_ONCE(perf_flamegraph__signal))
		return -EINTR;
	err = perf_flamegraph__choose_graphs(pfg);
	if (err)
		return err;

	t[1] = rdclock();
	/* As builtin-annotate.c, unless --objdump named one: a cross objdump. */
	if (pfg->asm_leaves && !annotate_opts.objdump_path)
		pfg->no_objdump = flamegraph__lookup_objdump(perf_session__env(session),
							     &annotate_opts.objdump_path) < 0;
	nr_functions = perf_flamegraph__functions(pfg) ? pfg->annotate_functions : 0;
	for (i = 0; i < pfg->in.nr_graphs && pfg->asm_leaves && !err; i++)
		err = flamegraph__add_code(pfg->in.graphs[i], perf_session__env(session),
					   pfg->format, pfg->no_objdump, nr_functions);
	if (err)
		return err;
	t[2] = rdclock();
	for (i = 0; i < pfg->in.nr_graphs && !err; i++)
		err = flamegraph__finish(pfg->in.graphs[i]);
	if (err)
		return err;
	t[3] = rdclock();
	/* Stopped while decoding: the output stays as it was. */
	return READ_ONCE(perf_flamegraph__signal) ? -EINTR : 0;
}

static int __cmd_flamegraph(struct perf_flamegraph *pfg)
{
	u64 *t = pfg->phases, end;
	int err = perf_flamegraph__build(pfg);

	if (!err)
		err = perf_flamegraph__write(pfg);
	if (err)
		return err;
	end = rdclock();
	/* Where the time went, phase by phase, at -v. */
	pr_debug("perf flamegraph: phases (ms): events %.1f, disassembly %.1f, finish %.1f, write %.1f\n",
		 (t[1] - t[0]) / 1e6, (t[2] - t[1]) / 1e6, (t[3] - t[2]) / 1e6,
		 (end - t[3]) / 1e6);
	pr_debug("perf flamegraph: %llu samples resolved (%llu of them under callers seen before), the others counted where a sample of the same stack went\n",
		 (unsigned long long)pfg->in.nr_resolved,
		 (unsigned long long)pfg->in.nr_by_callers);
	perf_flamegraph__summary(pfg);
	return 0;
}

/*
 * An input directory is one perf record --dir wrote, with a data file in
 * it: say what another one is, where perf would say "<dir>/data: No such
 * file or directory".
 */
static bool input_is_readable(const char *path)
{
	char data[PATH_MAX];
	struct stat st;

	if (!strcmp(path, "-") || stat(path, &st) || !S_ISDIR(st.st_mode))
		return true;
	if (snprintf(data, sizeof(data), "%s/data", path) < (int)sizeof(data) &&
	    !access(data, F_OK))
		return true;
	pr_err("%s: a directory, not a perf.data file\n", path);
	return false;
}

/*
 * --debuginfod: before any DSO's symbols load, a pass over the events
 * marks the DSOs of the samples' IPs and callchains, as perf buildid-list
 * --with-hits does, and what debuginfod has for them goes into the
 * build-id cache, where the pass that makes the graph finds it.  A
 * server that failed was said; the graph is made without.
 * Return: 0, or perf_session__new()'s error for input it can't read,
 * which it said.
 */
static int perf_flamegraph__fetch_debuginfod(struct perf_flamegraph *pfg,
					     struct perf_data *data)
{
	struct perf_session *session;
	struct perf_tool tool;
	int ret, nr;

	if (perf_data__is_pipe(data)) {
		pr_warning("Warning: --debuginfod: a pipe is read once, and its DSOs' symbols load as it is read: no server was asked\n");
		return 0;
	}
	perf_tool__init(&tool, /*ordered_events=*/true);
	tool.sample   = build_id__mark_dso_hit;
	tool.mmap     = perf_event__process_mmap;
	tool.mmap2    = perf_event__process_mmap2;
	tool.fork     = perf_event__process_fork;
	tool.exit     = perf_event__exit_del_thread;
	tool.attr     = perf_event__process_attr;
	tool.build_id = perf_event__process_build_id;
	session = perf_session__new(data, &tool);
	if (IS_ERR(session))
		return PTR_ERR(session);
	ret = symbol__init(perf_session__env(session));
	if (!ret)
		ret = perf_session__process_events(session);
	if (!ret) {
		nr = perf_session__fetch_debuginfod(session);
		pr_debug("debuginfod: %d DSOs added to the build-id cache\n", nr);
		pfg->debuginfod_failed = nr < 0;
	}
	perf_session__delete(session);
	return ret;
}

/*
 * --format pprof: perf data convert --to-pprof's profile, with the
 * options given (symbol_conf's filters apply as they were set).
 */
static int perf_flamegraph__pprof(struct perf_flamegraph *pfg, struct perf_data *data)
{
	struct perf_data_convert_opts opts = {
		.force		= data->force,
		.time_str	= pfg->time_str,
		.event		= pfg->event_name,
		.cpu_list	= pfg->cpu_list,
		.max_stack	= pfg->max_stack == INT_MAX ? 0 : pfg->max_stack,
		.cpu_label	= pfg->cpu_label,
		.no_srcline	= !pfg->srcline,
		/* The binaries' names, for each Function's system_name. */
		.demangle	= symbol_conf.demangle,
		.setup_callchain = perf_flamegraph__setup_callchain,
		.tool		= "perf flamegraph",
	};
	int err;

	if (!input_is_readable(data->path))
		return -EISDIR;
	/* One frame per address: the profile adds inlined functions as Lines. */
	symbol_conf.inline_name = false;
	symbol_conf.demangle = false;
	symbol_conf.try_vmlinux_path = true;
	/* Stopped already: no download, the session stops at once. */
	if (pfg->debuginfod.set && !READ_ONCE(perf_flamegraph__signal)) {
		perf_flamegraph__release_signals();
		err = perf_flamegraph__fetch_debuginfod(pfg, data);
		perf_flamegraph__catch_signals();
		if (err)
			return err;
	}
	return bt_convert__perf2pprof(data->path, pfg->output, &opts);
}

/* A session of @data for @pfg's tool, its symbols set up. */
static int perf_flamegraph__open(struct perf_flamegraph *pfg, struct perf_data *data)
{
	int err;

	if (!input_is_readable(data->path))
		return -EISDIR;
	/* Stopped already: no download, the session stops at once. */
	if (pfg->debuginfod.set && !READ_ONCE(perf_flamegraph__signal)) {
		perf_flamegraph__release_signals();
		err = perf_flamegraph__fetch_debuginfod(pfg, data);
		perf_flamegraph__catch_signals();
		if (err)
			return err;
	}

	perf_tool__init(&pfg->tool, /*ordered_events=*/true);
	pfg->tool.sample	 = process_sample_event;
	pfg->tool.mmap		 = process_mmap_event;
	pfg->tool.mmap2		 = process_mmap2_event;
	pfg->tool.comm		 = process_comm_event;
	pfg->tool.exit		 = process_exit_event;
	pfg->tool.fork		 = process_fork_event;
	pfg->tool.namespaces	 = perf_event__process_namespaces;
	pfg->tool.ksymbol	 = process_ksymbol_event;
	pfg->tool.attr		 = process_attr;
	pfg->tool.build_id	 = perf_event__process_build_id;
#ifdef HAVE_LIBTRACEEVENT
	pfg->tool.tracing_data	 = perf_event__process_tracing_data;
#endif
	pfg->tool.id_index	 = perf_event__process_id_index;
	pfg->tool.feature	 = process_feature_event;
	pfg->tool.ordering_requires_timestamps = true;

	pfg->in.session = perf_session__new(data, &pfg->tool);
	if (IS_ERR(pfg->in.session)) {
		err = PTR_ERR(pfg->in.session);
		pfg->in.session = NULL;
		return err;
	}
	symbol_conf.try_vmlinux_path = true;
	return symbol__init(perf_session__env(pfg->in.session));
}

/*
 * Forget what perf_flamegraph__open() and reading a session made, keeping
 * the options: after freeing it, or in a copy that reads another input.
 */
static void perf_flamegraph__forget_input(struct perf_flamegraph *pfg)
{
	memset(&pfg->in, 0, sizeof(pfg->in));
}

/* What perf_flamegraph__open() and reading the session made. */
static void perf_flamegraph__close(struct perf_flamegraph *pfg)
{
	int i;

	perf_session__delete(pfg->in.session);
	for (i = 0; i < pfg->in.nr_events; i++)
		perf_flamegraph_event__delete(pfg->in.events[i]);
	free(pfg->in.events);
	free(pfg->in.graphs);
	for (i = 0; i < pfg->in.nr_replaced; i++)
		dso__put(pfg->in.replaced[i]);
	free(pfg->in.replaced);
	free(pfg->in.ptime_range);
	perf_flamegraph__forget_input(pfg);
}

/*
 * --diff: the graph of the recording before, made with the same options,
 * then this one's, written as one.
 */
static int perf_flamegraph__diff(struct perf_flamegraph *pfg)
{
	struct perf_flamegraph old = *pfg;
	struct flamegraph_diff diff = { .old = NULL, };
	struct flamegraph *graphs[2];
	struct perf_data data = {
		.path  = pfg->diff_base,
		.mode  = PERF_DATA_MODE_READ,
		.force = pfg->in.session->data->force,
	};
	FILE *fp;
	int err;

	/* Only the options are old's: what reading makes is its own. */
	perf_flamegraph__forget_input(&old);
	err = perf_flamegraph__open(&old, &data);
	if (!err)
		err = perf_flamegraph__build(&old);
	if (!err) {
		pfg->warned_with = old.in.graphs[0];
		err = perf_flamegraph__build(pfg);
	}
	if (err)
		goto out;
	/*
	 * Two events' weights (ns against cycles) are said, not refused;
	 * events are one by what they count (__evsel__match(), a hybrid
	 * PMU's bits aside), as perf diff pairs them: cpu/cycles/P is cycles.
	 */
	if (!__evsel__match(pfg->in.events[0]->evsel, old.in.events[0]->evsel->core.attr.type,
			    old.in.events[0]->evsel->core.attr.config))
		pr_warning("Warning: --diff: samples of '%s' in %s, of '%s' in %s\n",
			   perf_flamegraph__labels(old.in.graphs[0])->event ?: "?", pfg->diff_base,
			   perf_flamegraph__labels(pfg->in.graphs[0])->event ?: "?",
			   pfg->in.session->data->path);
	diff.old = old.in.graphs[0];
	diff.new = pfg->in.graphs[0];
	graphs[0] = diff.old;
	graphs[1] = diff.new;
	pfg->debuginfod_failed |= old.debuginfod_failed;
	perf_flamegraph__warn(pfg, graphs, 2);
	diff.old_path = pfg->diff_base;
	diff.new_path = pfg->in.session->data->path;
	diff.labels = perf_flamegraph__labels(diff.new);
	/* Instruction leaves are paired across a rebuild only with --asm. */
	diff.align = pfg->asm_leaves;
	fp = output_file__open(&pfg->out);
	if (!fp) {
		err = -EIO;
		goto out;
	}
	if (pfg->format == FLAMEGRAPH_JSON)
		err = flamegraph_diff__write_json(&diff, fp);
	else if (pfg->format == FLAMEGRAPH_FOLDED)
		err = flamegraph_diff__write_folded(&diff, fp);
	else
		err = flamegraph_diff__write_html(&diff, fp);
	err = output_file__close(&pfg->out, err);
	if (!err && !quiet)
		fprintf(stderr, "perf flamegraph: %" PRIu64 " samples of '%s' before (%s), %" PRIu64
			" after (%s), wrote %s (%s, two weights)\n",
			old.in.graphs[0]->nr_samples,
			perf_flamegraph__labels(old.in.graphs[0])->event ?: "?", pfg->diff_base,
			pfg->in.graphs[0]->nr_samples, pfg->in.session->data->path,
			strcmp(pfg->output, "-") ? pfg->output : "stdout",
			flamegraph_format__name(pfg->format));
out:
	perf_flamegraph__close(&old);
	return err;
}

/* flamegraph.debuginfod, as perf record's record.debuginfod. */
static int perf_flamegraph__config(const char *var, const char *value, void *cb)
{
	struct perf_flamegraph *pfg = cb;

	if (strcmp(var, "flamegraph.debuginfod"))
		return 0;
	free(pfg->config_urls);
	pfg->config_urls = strdup(value);
	if (!pfg->config_urls)
		return -ENOMEM;
	pfg->debuginfod.urls = pfg->config_urls;
	pfg->debuginfod.set = true;
	return 0;
}

int cmd_flamegraph(int argc, const char **argv)
{
	struct perf_flamegraph pfg = {
		.output	   = "flamegraph.html",
		.max_stack = INT_MAX,
	};
	struct perf_data data = {
		.mode  = PERF_DATA_MODE_READ,
	};
	const char *disassembler_style = NULL, *objdump_path = NULL, *bad_option;
	unsigned int max_stack = INT_MAX;
	const char * const flamegraph_usage[] = {
		"perf flamegraph [<options>]",
		"perf flamegraph [<options>] record [<record options>] [-- <command> [<args>]]",
		"perf flamegraph [<options>] [--] <command> [<args>]",
		NULL
	};
	const struct option options[] = {
	OPT_STRING('i', "input", &input_name, "file", "input file name"),
	OPT_STRING('o', "output", &pfg.output, "file",
		   "output file name, - for stdout (default: flamegraph.html)"),
	OPT_STRING(0, "format", &pfg.format_str, "html|json|folded|pprof",
		   "output format (default: from the output's extension, else html)"),
	OPT_STRING(0, "diff", &pfg.diff_base, "file",
		   "the recording before: each frame with its weight in it and in -i's"),
	OPT_STRING(0, "template", &pfg.template_path, "file",
		   "write html into this d3-flame-graph template, as flamegraph.py --template"),
	OPT_BOOLEAN('f', "force", &data.force, "don't complain, do it"),
	OPT_BOOLEAN(0, "asm", &pfg.asm_leaves,
		    "add the sampled instructions as leaves"),
	OPT_UINTEGER(0, "annotate-functions", &pfg.annotate_functions,
		     "with --asm, the whole code of the n hottest functions (0: none)"),
	OPT_STRING('e', "event", &pfg.event_name, "event[,event...]",
		   "events to show, a graph each (default: the first with samples)"),
	OPT_STRING(0, "value", &pfg.value_str, "period|samples",
		   "what a frame's width sums (default: period, as perf report's Overhead)"),
	OPT_UINTEGER(0, "max-stack", &max_stack,
		     "maximum number of callchain entries to use (default: all recorded)"),
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
	OPT_STRING('C', "cpu", &pfg.cpu_list, "cpu[,cpu...]",
		   "only consider samples on these cpus (e.g. 0,2-3)"),
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
	OPT_STRING_OPTARG_SET(0, "debuginfod", &pfg.debuginfod.urls,
			      &pfg.debuginfod.set, "debuginfod urls",
			      "Enable debuginfod data retrieval from DEBUGINFOD_URLS or specified urls",
			      "system"),
	OPT_BOOLEAN(0, "srcline", &pfg.srcline,
		    "pprof: source lines of the hottest locations (default: on)"),
	OPT_BOOLEAN(0, "cpu-label", &pfg.cpu_label,
		    "pprof: label the samples with their cpu too"),
	OPT_END()
	};
	bool usage = false;
	int ret = 0, i;

	annotation_options__init();
	annotation_config__init();
	symbol_conf.inline_name = false;
	symbol_conf.use_callchain = true;
	/* The tree reads callchains callee first, whatever perfconfig says. */
	callchain_param.order = ORDER_CALLEE;
	/* A task's samples after its EXIT are its own, as in perf report. */
	symbol_conf.keep_exited_threads = true;
	pfg.srcline = true;
	pfg.annotate_functions = FLAMEGRAPH_FUNCTIONS_DEFAULT;

	ret = perf_config(perf_flamegraph__config, &pfg);
	if (ret)
		goto out;
	/* "--" kept: 'perf flamegraph -- record' records a program named record. */
	argc = parse_options(argc, argv, options, flamegraph_usage,
			     PARSE_OPT_STOP_AT_NON_OPTION | PARSE_OPT_KEEP_DASHDASH);
	if (argc == 1 && !strcmp(argv[0], "--")) {
		pr_err("--: name a command to record after it\n");
		goto out_usage;
	}
	if (argc && input_name && !strcmp(input_name, "-")) {
		pr_err("-i -: a recording goes into a file, not a pipe\n");
		goto out_usage;
	}
	bad_option = argc && !strcmp(argv[0], "record") ?
		     flamegraph_record__bad_option(argc - 1, argv + 1) : NULL;
	if (bad_option) {
		pr_err("record %s: the recording is perf flamegraph's input, named with -i before record (a command's own %s goes after --)\n",
		       bad_option, bad_option);
		goto out_usage;
	}
	/* As perf record: no debuginfod server is asked unless told to. */
	perf_debuginfod_setup(&pfg.debuginfod);
	if (quiet)
		perf_quiet_option();
	else if (verbose <= 0 && isatty(STDERR_FILENO))
		stdio_progress__init();

	if (pfg.value_str && !strcmp(pfg.value_str, "samples")) {
		pfg.weight = FLAMEGRAPH_WEIGHT_SAMPLES;
	} else if (pfg.value_str && strcmp(pfg.value_str, "period")) {
		pr_err("--value %s: use period or samples\n", pfg.value_str);
		goto out_usage;
	}
	if (max_stack < 1) {
		pr_err("--max-stack %u: use at least 1\n", max_stack);
		goto out_usage;
	}
	pfg.max_stack = min(max_stack, (unsigned int)INT_MAX);
	if (flamegraph__parse_format(pfg.format_str, pfg.output, &pfg.format))
		goto out_usage;
	if (pfg.event_name) {
		ret = perf_flamegraph__split_events(&pfg);
		if (ret)
			goto out;
		if (!pfg.nr_event_names) {
			pr_err("-e '%s': name an event\n", pfg.event_name);
			goto out_usage;
		}
	}
	if (pfg.diff_base) {
		if (pfg.template_path) {
			pr_err("--diff: the d3-flame-graph template has no place for two weights\n");
			goto out_usage;
		}
		if (pfg.nr_event_names > 1) {
			pr_err("--diff: compares one event\n");
			goto out_usage;
		}
		if (output_file__refuse_input(pfg.output, pfg.diff_base))
			goto out_usage;
	}
	if (pfg.cpu_label && pfg.format != FLAMEGRAPH_PPROF) {
		pr_err("--cpu-label: only for pprof output\n");
		goto out_usage;
	}
	if (pfg.format == FLAMEGRAPH_PPROF) {
		if (pfg.diff_base) {
			pr_err("--diff: a pprof profile holds one recording (pprof -diff_base compares two)\n");
			goto out_usage;
		}
		if (pfg.nr_event_names > 1) {
			pr_err("--format pprof: a profile of one event\n");
			goto out_usage;
		}
	}
	if (pfg.template_path) {
		if (pfg.format != FLAMEGRAPH_HTML) {
			pr_err("--template: only for html output\n");
			goto out_usage;
		}
		if (pfg.nr_event_names > 1) {
			pr_err("--template: a d3-flame-graph template holds one event\n");
			goto out_usage;
		}
		ret = flamegraph__read_template(pfg.template_path, &pfg.template);
		if (ret)
			goto out;
	}
	if (disassembler_style) {
		annotate_opts.disassembler_style = strdup(disassembler_style);
		if (!annotate_opts.disassembler_style) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (objdump_path) {
		ret = flamegraph_record__find_command(objdump_path);
		if (ret) {
			pr_err("--objdump '%s': %s\n", objdump_path,
			       strchr(objdump_path, '/') ? strerror(-ret) :
			       "no such program in $PATH");
			goto out_usage;
		}
		annotate_opts.objdump_path = strdup(objdump_path);
		if (!annotate_opts.objdump_path) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (symbol__validate_sym_arguments())
		goto out_usage;
	/*
	 * A function's whole code (the functions table, --diff's pairing)
	 * and a BPF program's leaves are perf annotate's: its notes.
	 */
	if (pfg.asm_leaves) {
		ret = symbol__annotation_init();
		if (ret)
			goto out;
	}

	data.path = input_name ?: "perf.data";
	if (output_file__refuse_input(pfg.output, data.path))
		goto out_usage;
	ret = output_file__init(&pfg.out, pfg.output);
	if (ret)
		goto out;
	/* The output was checked first: no recording for nothing. */
	if (argc) {
		/* After record, perf record's words; else the short form's command. */
		int sub = !strcmp(argv[0], "record");

		ret = flamegraph__record(data.path, pfg.event_name, argc - sub, argv + sub,
					 cmd_record);
		if (ret)
			goto out;
	}

	perf_flamegraph__catch_signals();
	if (pfg.format == FLAMEGRAPH_PPROF) {
		ret = perf_flamegraph__pprof(&pfg, &data);
		goto out;
	}
	ret = perf_flamegraph__open(&pfg, &data);
	if (!ret)
		ret = pfg.diff_base ? perf_flamegraph__diff(&pfg) : __cmd_flamegraph(&pfg);
	perf_flamegraph__close(&pfg);
	usage = pfg.bad_option;
	goto out;
out_usage:
	/* A command line parse_options() took, but that makes no sense. */
	usage = true;
out:
	for (i = 0; i < pfg.nr_event_names; i++)
		free(pfg.event_names[i]);
	free(pfg.event_names);
	output_file__exit(&pfg.out);
	free(pfg.template);
	free(pfg.config_urls);
	annotation_options__exit();
	perf_flamegraph__die();
	/*
	 * A negative errno for perf.c, as other commands return; or a
	 * recorded command's exit status, or the signal that stopped its
	 * recording, as perf record returns them.
	 */
	if (usage)
		ret = -EINVAL;
	else if (ret > 0)
		ret = -1;
	return flamegraph_record__exit(ret);
}
