// SPDX-License-Identifier: GPL-2.0
/*
 * perf report --flamegraph: the flame graph of exactly what the report
 * shows, built from its hist entries and their callchain trees with the
 * flame-graph tree and writers perf flamegraph uses.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/rbtree.h>
#include <linux/zalloc.h>

#include "callchain.h"
#include "comm.h"
#include "debug.h"
#include "evlist.h"
#include "evsel.h"
#include "flamegraph.h"
#include "flamegraph-annotate.h"
#include "flamegraph-report.h"
#include "flamegraph-session.h"
#include "hist.h"
#include "machine.h"
#include "map.h"
#include "maps.h"
#include "session.h"
#include "sort.h"
#include "strbuf.h"
#include "symbol.h"
#include "thread.h"
#include "util.h"

/* The frames of one path through an entry's callchain tree. */
struct flamegraph_path {
	struct flamegraph	*fg;
	struct machine		*machine;
	const char		*comm;
	bool			kernel;
	bool			caller;
	bool			asm_leaves;
	int			max_entries;
	struct flamegraph_frame	*frames;
	int			nr;
	size_t			alloc;
	u64			nr_added;
	u64			period_added;
};

static int flamegraph_path__push(struct flamegraph_path *path,
				 struct callchain_list *chain)
{
	struct flamegraph_frame *frame;

	if (flamegraph__grow(&path->frames, &path->alloc, path->nr + 1, sizeof(*path->frames)))
		return -ENOMEM;
	frame = &path->frames[path->nr++];
	frame->ms = chain->ms;
	frame->ip = chain->ip;
	frame->kernel = flamegraph_frame__is_kernel(path->machine, chain->ms.map,
						    chain->ip);
	frame->unwound = false;
	return 0;
}

/*
 * Add @count samples, whose periods sum to @period, whose callchain is
 * the path to here.  The path is in the report's callchain order: caller
 * first, or callee first for an inverted graph; the sampled instruction
 * is the callee end, once the entries of another context than the
 * entry's have been dropped from it (flamegraph_frames__sampled()).  A
 * path of none but those is left to the entry's own symbol.
 */
static int flamegraph_path__add(struct flamegraph_path *path, unsigned int count,
				u64 period)
{
	struct flamegraph_frame *frames = path->frames, *insn = NULL;
	struct flamegraph_node *leaf;
	int nr = path->nr;

	if (path->caller) {
		nr = flamegraph_frames__sampled(frames, nr, path->kernel);
	} else {
		while (nr > 0 && frames->kernel != path->kernel) {
			frames++;
			nr--;
		}
	}
	if (!nr)
		return 0;
	if (path->asm_leaves)
		insn = &frames[path->caller ? nr - 1 : 0];
	leaf = flamegraph__leaf(path->fg, path->comm,
				path->max_entries && path->nr == path->max_entries,
				frames, nr, insn);
	if (!leaf)
		return -ENOMEM;
	flamegraph__account(path->fg, leaf, count, period);
	flamegraph__account_callsites(path->fg, NULL, count, period);
	path->nr_added += count;
	path->period_added += period;
	return 0;
}

static int flamegraph_path__walk(struct flamegraph_path *path,
				 struct callchain_node *node)
{
	struct callchain_list *chain;
	struct rb_node *nd;
	int depth = path->nr, err = 0;

	list_for_each_entry(chain, &node->val, list) {
		err = flamegraph_path__push(path, chain);
		if (err)
			return err;
	}
	if (node->count && path->nr)
		err = flamegraph_path__add(path, node->count, node->hit);
	for (nd = rb_first(&node->rb_root_in); nd && !err; nd = rb_next(nd))
		err = flamegraph_path__walk(path, rb_entry(nd, struct callchain_node,
							   rb_node_in));
	path->nr = depth;
	return err;
}

static int flamegraph__add_entry(struct flamegraph_path *path,
				 struct hist_entry *he)
{
	u64 nr_samples = he->stat.nr_events;
	struct flamegraph_frame self = {
		.ms	= he->ms,
		.ip	= he->ip,
	};
	int err = 0;

	path->comm = he->comm ? comm__str(he->comm) : NULL;
	path->machine = he->thread ? maps__machine(thread__maps(he->thread)) : NULL;
	path->kernel = flamegraph_frame__is_kernel(path->machine, he->ms.map, he->ip);
	path->nr = 0;
	path->nr_added = 0;
	path->period_added = 0;
	if (symbol_conf.use_callchain)
		err = flamegraph_path__walk(path, &he->callchain->node);

	/* Samples without a callchain: the entry's own symbol. */
	self.kernel = he->level != '.';
	if (!err && path->nr_added < nr_samples) {
		struct flamegraph_node *leaf;

		leaf = flamegraph__leaf(path->fg, path->comm, /*truncated=*/false, &self, 1, NULL);
		if (!leaf)
			return -ENOMEM;
		flamegraph__account(path->fg, leaf, nr_samples - path->nr_added,
				    he->stat.period > path->period_added ?
				    he->stat.period - path->period_added : 0);
	}
	return err;
}

int flamegraph__add_hists(struct flamegraph *fg, struct hists *hists,
			  float min_pcnt, bool caller, bool asm_leaves,
			  int max_entries)
{
	struct flamegraph_path path = {
		.fg	     = fg,
		.caller	     = caller,
		.asm_leaves  = asm_leaves,
		.max_entries = max_entries,
	};
	struct rb_node *nd;
	int err = 0;

	for (nd = rb_first_cached(&hists->entries); nd && !err; nd = rb_next(nd)) {
		struct hist_entry *he = rb_entry(nd, struct hist_entry, rb_node);

		if (he->filtered || hist_entry__get_percent_limit(he) < min_pcnt)
			continue;
		err = flamegraph__add_entry(&path, he);
	}
	free(path.frames);
	return err;
}

int flamegraph_report__setup(struct flamegraph_report *fr)
{
	int err;

	err = flamegraph__parse_format(NULL, fr->path, &fr->format);
	if (err)
		return err;
	/* pprof's locations are addresses, which perf report's entries merged. */
	if (fr->format == FLAMEGRAPH_PPROF) {
		pr_err("--flamegraph=%s: pprof profiles come from perf flamegraph --format pprof\n",
		       fr->path);
		return -EINVAL;
	}
	return output_file__init(&fr->out, fr->path);
}

int flamegraph_report__count(struct flamegraph_report *fr, struct evsel *evsel)
{
	int idx = evsel->core.idx;

	if (idx >= fr->nr_events) {
		if (flamegraph__grow(&fr->nr_read, &fr->alloc_events, idx + 1,
				     sizeof(*fr->nr_read)))
			return -ENOMEM;
		memset(fr->nr_read + fr->nr_events, 0,
		       (idx + 1 - fr->nr_events) * sizeof(*fr->nr_read));
		fr->nr_events = idx + 1;
	}
	fr->nr_read[idx]++;
	return 0;
}

/*
 * What the page says of the view: the report's filters, what they left
 * out, and that a -g callee graph is inverted.
 */
static int flamegraph_report__view(struct flamegraph_report *fr, struct strbuf *sb,
				   const struct flamegraph *fg, struct evsel *evsel,
				   float min_pcnt)
{
	u64 nr_read = evsel->core.idx < fr->nr_events ? fr->nr_read[evsel->core.idx] : 0;
	int err = flamegraph__describe_filters(sb);

	if (!err && fr->symbol_filter)
		err = strbuf_addf(sb, "%s--symbol-filter %s", sb->len ? ", " : "",
				  fr->symbol_filter);
	if (!err && fr->cpu_list)
		err = strbuf_addf(sb, "%s--cpu %s", sb->len ? ", " : "", fr->cpu_list);
	if (!err && fr->time_str)
		err = strbuf_addf(sb, "%s--time %s", sb->len ? ", " : "", fr->time_str);
	if (!err && min_pcnt > 0)
		err = strbuf_addf(sb, "%s--percent-limit %g", sb->len ? ", " : "", min_pcnt);
	if (!err && sb->len && nr_read >= fg->nr_samples)
		err = strbuf_addf(sb, ": %" PRIu64 " of %" PRIu64 " samples left out",
				  nr_read - fg->nr_samples, nr_read);
	if (!err && callchain_param.order == ORDER_CALLEE)
		err = strbuf_addf(sb, "%s%s", sb->len ? "; " : "",
				  "inverted (-g callee): sampled functions at the root");
	return err;
}

/* The first event with entries, as perf report --stdio shows first; or NULL. */
static struct evsel *flamegraph_report__evsel(struct perf_session *session)
{
	struct evsel *pos;

	evlist__for_each_entry(session->evlist, pos) {
		if (evsel__hists(pos)->nr_entries)
			return pos;
	}
	return NULL;
}

/*
 * The tree of @evsel's entries, as perf report shows them: its
 * callchains in the order perf report's -g gives, those above
 * --percent-limit.
 */
static int flamegraph_report__build(struct flamegraph_report *fr, struct flamegraph *fg,
				    struct evsel *evsel, float min_pcnt, int max_stack)
{
	bool caller = callchain_param.order == ORDER_CALLER;
	int max_entries = evsel->core.attr.sample_max_stack ?: PERF_MAX_STACK_DEPTH;
	int err;

	/*
	 * Callchains the kernel cut, at perf record's path,<size> or else its
	 * default limit, lost their outermost callers.  A lower --max-stack
	 * keeps the outermost ones in caller order, and in callee order the
	 * cut end is not below the comm: no marker can say where.
	 */
	if ((max_stack > 0 && max_stack < max_entries) || !caller)
		max_entries = 0;
	/* Call sites are those of callchains in caller order alone. */
	if (fr->asm_leaves && flamegraph_format__has_code(fr->format) && caller) {
		err = flamegraph__track_callsites(fg);
		if (err)
			return err;
	}
	return flamegraph__add_hists(fg, evsel__hists(evsel), min_pcnt, caller,
				     fr->asm_leaves, max_entries);
}

int flamegraph_report__write(struct flamegraph_report *fr,
			     struct perf_session *session, float min_pcnt,
			     int max_stack)
{
	struct evsel *evsel = flamegraph_report__evsel(session);
	struct strbuf view = STRBUF_INIT;
	struct flamegraph fg, *graph = &fg;
	struct flamegraph_labels labels = { .event = NULL, };
	int err;

	err = output_file__refuse_input(fr->path, session->data->path);
	if (err)
		return err;
	if (!evsel) {
		pr_err("no samples to show in %s\n", session->data->path);
		return -ENODATA;
	}
	if (fr->asm_leaves && !symbol_conf.use_callchain) {
		pr_err("--flamegraph-asm needs callchains: record with -g\n");
		return -EINVAL;
	}
	err = flamegraph__init(&fg, FLAMEGRAPH_WEIGHT_PERIOD);
	if (err)
		return err;
	err = flamegraph_report__build(fr, &fg, evsel, min_pcnt, max_stack);
	if (!err && fg.nr_samples == 0) {
		/* "--flamegraph out.html" makes out.html perf report's symbol filter. */
		pr_err("no samples of '%s' left to show in %s%s%s%s\n",
		       evsel__name(evsel), session->data->path,
		       fr->symbol_filter ? " with the symbol filter '" : "",
		       fr->symbol_filter ?: "", fr->symbol_filter ? "'" : "");
		err = -ENODATA;
	}
	if (!err && fr->asm_leaves)
		err = flamegraph__add_code(&fg, perf_session__env(session), fr->format,
					   fr->no_objdump, FLAMEGRAPH_FUNCTIONS_DEFAULT);
	if (!err)
		err = flamegraph__finish(&fg);
	if (!err)
		err = flamegraph_report__view(fr, &view, &fg, evsel, min_pcnt);
	if (err)
		goto out;
	labels.event = evsel__name(evsel);
	labels.unit = evsel__period_unit(evsel);
	labels.view = view.len ? view.buf : NULL;
	/* perf report's percentages, which the page shows beside its own. */
	labels.report_total = hists__total_period(evsel__hists(evsel));
	err = flamegraph__write_session(&fr->out, &graph, &labels, 1, fr->format, session,
					/*tmpl=*/NULL);
	/* perf report -q says nothing but errors. */
	if (!err && !quiet)
		fprintf(stderr, "perf report: %" PRIu64 " samples of '%s', %" PRIu64
			" frames, %" PRIu64 " instruction leaves, wrote %s\n",
			fg.nr_samples, evsel__name(evsel), fg.nr_nodes - 1,
			fg.nr_leaves, fr->path);
out:
	strbuf_release(&view);
	flamegraph__exit(&fg);
	return err;
}

void flamegraph_report__exit(struct flamegraph_report *fr)
{
	zfree(&fr->nr_read);
	fr->nr_events = 0;
	fr->alloc_events = 0;
	output_file__exit(&fr->out);
}
