// SPDX-License-Identifier: GPL-2.0
/*
 * data-convert-pprof.c: perf data convert --to-pprof, and perf flamegraph
 * --format pprof: the samples of one event, resolved as perf report
 * resolves them, into pprof's profile.proto (util/pprof.h).
 */
#include "data-convert.h"
#include "callchain.h"
#include "data.h"
#include "debug.h"
#include "dso.h"
#include "event.h"
#include "evlist.h"
#include "evsel.h"
#include "machine.h"
#include "map.h"
#include "output-file.h"
#include "perf.h"
#include "pprof.h"
#include "session.h"
#include "symbol.h"
#include "thread.h"
#include "time-utils.h"
#include "tool.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/bitmap.h>
#include <linux/err.h>
#include <linux/kernel.h>

/*
 * One event's profile and its name (owned), as -e names it, else as
 * evsel__hybrid_name() does: the instances of a hybrid event are one.
 */
struct convert_pprof_event {
	struct pprof_profile	pp;
	char			*name;
};

/*
 * perf data convert --to-pprof: the session's tool. Each sample is
 * resolved as perf report resolves it (machine__resolve(), its filters,
 * then its callchain) and added to the profile of its event; the
 * profile written is that of opts->event, else the first event with
 * samples.
 */
struct convert_pprof {
	struct perf_tool	tool;
	struct perf_session	*session;
	const struct perf_data_convert_opts *opts;
	/*
	 * The events converted, each made at its first sample. Each evsel's
	 * priv is its event's, or ERR_PTR(-ENOENT) for an event not
	 * converted (not opts->event): decided once per evsel.
	 */
	struct convert_pprof_event **events;
	size_t			nr_events;
	DECLARE_BITMAP(cpu_bitmap, MAX_NR_CPUS);
	struct perf_time_interval *ptime_range;
	int			range_size;
	int			range_num;
	/*
	 * The time the recording spans: its samples', whatever their event,
	 * that --time keeps; not the off-CPU ones written at the end, which
	 * carry a made-up time past everything (util/bpf_off_cpu.c).
	 */
	u64			first_time;
	u64			last_time;
	u64			nr_filtered;
	u64			nr_unresolved;
	/*
	 * The main binary: the process that exec'd first (perf record's
	 * command), once it exec'd (0: none yet), and the map of the
	 * executable it last exec'd, found at the first executable mmap
	 * after the exec (main_exec: not found yet).
	 */
	u32			main_pid;
	bool			main_exec;
	struct map		*main_map;
};

/* Whether @evsel is @event: by its name, or its hybrid event's (@hybrid_name). */
static bool convert_pprof__is_event(struct evsel *evsel, const char *hybrid_name,
				    const char *event)
{
	return !strcmp(evsel__name(evsel), event) || !strcmp(hybrid_name, event);
}

/*
 * The profile of @evsel's event, made at its first sample. NULL for an
 * event not converted, or without memory (*@err).
 */
static struct pprof_profile *convert_pprof__profile(struct convert_pprof *c,
						    struct evsel *evsel, int *err)
{
	const struct perf_data_convert_opts *opts = c->opts;
	struct convert_pprof_event *ev = evsel->priv, **events;
	char *name;
	size_t i;

	*err = 0;
	if (ev)
		return IS_ERR(ev) ? NULL : &ev->pp;
	name = evsel__hybrid_name(evsel);
	if (!name)
		goto out_nomem;
	if (opts->event) {
		bool wanted = convert_pprof__is_event(evsel, name, opts->event);

		free(name);
		if (!wanted) {
			evsel->priv = ERR_PTR(-ENOENT);
			return NULL;
		}
		name = strdup(opts->event);
		if (!name)
			goto out_nomem;
	}
	for (i = 0; i < c->nr_events; i++) {
		if (!strcmp(c->events[i]->name, name)) {
			free(name);
			evsel->priv = c->events[i];
			return &c->events[i]->pp;
		}
	}
	ev = zalloc(sizeof(*ev));
	events = ev ? reallocarray(c->events, c->nr_events + 1, sizeof(*c->events)) : NULL;
	if (events)
		c->events = events;
	if (!events || pprof_profile__init(&ev->pp, name, evsel__period_unit(evsel))) {
		free(ev);
		free(name);
		goto out_nomem;
	}
	ev->name = name;
	ev->pp.period = evsel->core.attr.freq ? 0 : evsel->core.attr.sample_period;
	ev->pp.nr_srclines = opts->no_srcline ? 0 : PPROF_SRCLINES_MAX;
	ev->pp.demangle = opts->demangle;
	ev->pp.cpu_label = opts->cpu_label;
	c->events[c->nr_events++] = ev;
	evsel->priv = ev;
	return &ev->pp;
out_nomem:
	*err = -ENOMEM;
	return NULL;
}

/*
 * Whether --time keeps @sample; if so, widen the time the recording spans
 * to it, whatever its event.
 */
static bool convert_pprof__in_time(struct convert_pprof *c, struct perf_sample *sample)
{
	if (perf_time__ranges_skip_sample(c->ptime_range, c->range_num, sample->time))
		return false;
	if (sample->time && !evsel__is_offcpu_event(sample->evsel)) {
		if (!c->first_time || sample->time < c->first_time)
			c->first_time = sample->time;
		c->last_time = max(c->last_time, sample->time);
	}
	return true;
}

/*
 * How many callchain entries to resolve: opts->max_stack, else all that
 * the recording holds, as the kernel cut them; a DWARF unwinder's buffer
 * is as deep as perf report's default, PERF_MAX_STACK_DEPTH.
 */
static int convert_pprof__max_stack(struct convert_pprof *c, struct evsel *evsel)
{
	if (c->opts->max_stack)
		return c->opts->max_stack;
	return evsel->core.attr.sample_type & PERF_SAMPLE_STACK_USER ?
	       PERF_MAX_STACK_DEPTH : INT_MAX;
}

/*
 * @sample's callchain in the thread's cursor as perf resolves it (for
 * precise events, in agreement with the sample IP:
 * callchain__fixup_precise_ip()), else the sampled function alone.
 * Return: the cursor, or NULL without memory.
 */
static struct callchain_cursor *convert_pprof__callchain(struct convert_pprof *c,
							 struct perf_sample *sample,
							 struct addr_location *al)
{
	struct callchain_cursor *cursor = get_tls_callchain_cursor();
	struct map_symbol ms = { .thread = al->thread, .map = al->map, .sym = al->sym, };

	if (!cursor)
		return NULL;
	if (sample->callchain &&
	    !thread__resolve_callchain(al->thread, cursor, sample, NULL, NULL,
				       convert_pprof__max_stack(c, sample->evsel)) && cursor->nr)
		return cursor;
	callchain_cursor_reset(cursor);
	if (callchain_cursor_append(cursor, sample->ip, &ms, false, NULL, 0, 0, 0, NULL))
		return NULL;
	return cursor;
}

static int convert_pprof__sample(const struct perf_tool *tool, union perf_event *event,
				 struct perf_sample *sample, struct machine *machine)
{
	struct convert_pprof *c = container_of(tool, struct convert_pprof, tool);
	const char *cpu_list = c->opts->cpu_list;
	bool in_time = convert_pprof__in_time(c, sample);
	struct callchain_cursor *cursor;
	struct pprof_profile *pp;
	struct addr_location al;
	int err;

	pp = convert_pprof__profile(c, sample->evsel, &err);
	if (!pp)
		return err;
	if (!in_time || (cpu_list && (sample->cpu >= MAX_NR_CPUS ||
				      !test_bit(sample->cpu, c->cpu_bitmap)))) {
		c->nr_filtered++;
		return 0;
	}
	addr_location__init(&al);
	if (machine__resolve(machine, &al, sample) < 0) {
		pr_debug("problem processing %d event, skipping it.\n", event->header.type);
		c->nr_unresolved++;
		goto out;
	}
	if (al.filtered) {
		c->nr_filtered++;
		goto out;
	}
	cursor = convert_pprof__callchain(c, sample, &al);
	if (!cursor || pprof_profile__add_sample(pp, cursor, thread__comm_str(al.thread),
						 sample->pid, sample->tid, sample->cpu,
						 sample->time, sample->period))
		err = -ENOMEM;
out:
	addr_location__exit(&al);
	return err;
}

/* The map a user-space MMAP or MMAP2 event made (a reference), or NULL. */
static struct map *convert_pprof__user_map(struct machine *machine, union perf_event *event,
					   u32 pid, u32 tid, u64 start)
{
	u8 cpumode = event->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct map *map = NULL;
	struct addr_location al;
	struct thread *thread;

	if (cpumode != PERF_RECORD_MISC_USER)
		return NULL;
	thread = machine__find_thread(machine, pid, tid);
	if (!thread)
		return NULL;
	addr_location__init(&al);
	if (thread__find_map(thread, cpumode, start, &al))
		map = map__get(al.map);
	addr_location__exit(&al);
	thread__put(thread);
	return map;
}

/*
 * The main binary (pprof_profile__set_main()): the executable the
 * command perf record ran exec'd, the one it ran last if it exec'd
 * another (taskset, env, nice, a script's interpreter). The kernel maps
 * the executable first of all in an exec: the first executable mmap of
 * the process after its exec is the executable's code.
 */
static void convert_pprof__main_mmap(struct convert_pprof *c, struct map *map, u32 pid,
				     bool exec)
{
	if (!map || !c->main_exec || pid != c->main_pid || !exec)
		return;
	map__put(c->main_map);
	c->main_map = map__get(map);
	c->main_exec = false;
}

static int convert_pprof__mmap(const struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct convert_pprof *c = container_of(tool, struct convert_pprof, tool);
	int err = perf_event__process_mmap(tool, event, sample, machine);
	struct map *map;

	if (err || !c->main_exec)
		return err;
	map = convert_pprof__user_map(machine, event, event->mmap.pid, event->mmap.tid,
				      event->mmap.start);
	convert_pprof__main_mmap(c, map, event->mmap.pid,
				 !(event->header.misc & PERF_RECORD_MISC_MMAP_DATA));
	map__put(map);
	return 0;
}

/*
 * A binary rebuilt since the recording, with no build-id to tell it by,
 * would give the samples functions that never ran.
 */
static void convert_pprof__check_dso(struct dso *dso)
{
	char why[256];

	if (!dso__reject_if_replaced(dso, why, sizeof(why)))
		return;
	pr_warning("Warning: %s: %s, and the recording has no build-id to find the binary that ran; its frames show [unknown]\n",
		   dso__long_name(dso), why);
}

static int convert_pprof__mmap2(const struct perf_tool *tool, union perf_event *event,
				struct perf_sample *sample, struct machine *machine)
{
	struct convert_pprof *c = container_of(tool, struct convert_pprof, tool);
	int err = perf_event__process_mmap2(tool, event, sample, machine);
	struct map *map;

	if (err)
		return err;
	map = convert_pprof__user_map(machine, event, event->mmap2.pid, event->mmap2.tid,
				      event->mmap2.start);
	if (!map)
		return 0;
	convert_pprof__main_mmap(c, map, event->mmap2.pid, event->mmap2.prot & PROT_EXEC);
	if (!(event->header.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
		convert_pprof__check_dso(map__dso(map));
	map__put(map);
	return 0;
}

static int convert_pprof__comm(const struct perf_tool *tool, union perf_event *event,
			       struct perf_sample *sample, struct machine *machine)
{
	struct convert_pprof *c = container_of(tool, struct convert_pprof, tool);

	/* The first process to exec is the command perf record ran. */
	if ((event->header.misc & PERF_RECORD_MISC_COMM_EXEC) &&
	    (!c->main_pid || event->comm.pid == c->main_pid)) {
		c->main_pid = event->comm.pid;
		c->main_exec = true;
	}
	return perf_event__process_comm(tool, event, sample, machine);
}

static int convert_pprof__attr(const struct perf_tool *tool, union perf_event *event,
			       struct evlist **pevlist)
{
	struct convert_pprof *c = container_of(tool, struct convert_pprof, tool);
	int err = perf_event__process_attr(tool, event, pevlist);

	if (!err && c->session && c->opts->setup_callchain)
		c->opts->setup_callchain(c->session);
	return err;
}

/* The profile to write: opts->event's, else the first event's with samples. */
static struct pprof_profile *convert_pprof__chosen(struct convert_pprof *c)
{
	struct convert_pprof_event *ev;
	struct evsel *evsel;

	evlist__for_each_entry(c->session->evlist, evsel) {
		ev = evsel->priv;
		if (!IS_ERR_OR_NULL(ev) && ev->pp.nr_samples)
			return &ev->pp;
	}
	return NULL;
}

/* Whether opts->event is in the recording, by its name or its hybrid event's. */
static bool convert_pprof__has_event(struct convert_pprof *c)
{
	struct evsel *evsel;
	bool found = false;
	char *name;

	evlist__for_each_entry(c->session->evlist, evsel) {
		name = evsel__hybrid_name(evsel);
		found = name && convert_pprof__is_event(evsel, name, c->opts->event);
		free(name);
		if (found)
			break;
	}
	return found;
}

static int convert_pprof__write(struct convert_pprof *c, const char *path)
{
	struct pprof_profile *pp = convert_pprof__chosen(c);
	struct output_file out;
	FILE *fp;
	int err;

	if (!pp) {
		pr_err("no samples of '%s' to convert in %s (%" PRIu64 " filtered, %" PRIu64
		       " unresolved)\n", c->opts->event ?: "any event", c->session->data->path,
		       c->nr_filtered, c->nr_unresolved);
		return -ENODATA;
	}
	pp->first_time = c->first_time;
	pp->last_time = c->last_time;
	err = c->main_map ? pprof_profile__set_main(pp, c->main_map) : 0;
	if (err)
		return err;
	err = output_file__init(&out, path);
	if (err)
		return err;
	fp = output_file__open(&out);
	err = fp ? pprof_profile__write(pp, perf_session__env(c->session), fp) : -EIO;
	err = output_file__close(&out, err);
	output_file__exit(&out);
	if (err || quiet)
		return err;
	if (c->opts->tool)
		fprintf(stderr, "%s: %" PRIu64
			" samples of '%s', %zu locations, wrote %s (pprof)\n",
			c->opts->tool, pp->nr_samples, pp->event, pp->nr_locations,
			strcmp(path, "-") ? path : "stdout");
	else
		fprintf(stderr, "[ perf data convert: Converted '%s' into pprof '%s': %" PRIu64
			" samples of '%s', %zu locations in %zu mappings ]\n",
			c->session->data->path, strcmp(path, "-") ? path : "stdout",
			pp->nr_samples, pp->event, pp->nr_locations, pp->nr_mappings);
	return 0;
}

/* What the options ask of the session: -e's event, --cpu, --time, -g. */
static int convert_pprof__setup(struct convert_pprof *c)
{
	const struct perf_data_convert_opts *opts = c->opts;
	struct perf_data *data = c->session->data;
	int err;

	if (opts->event && !perf_data__is_pipe(data) && !convert_pprof__has_event(c)) {
		pr_err("event '%s' is not in %s\n", opts->event, data->path);
		return -EINVAL;
	}
	if (opts->cpu_list) {
		err = perf_session__cpu_bitmap(c->session, opts->cpu_list, c->cpu_bitmap);
		if (err)
			return err;
	}
	if (opts->time_str) {
		err = perf_time__parse_for_ranges(opts->time_str, c->session, &c->ptime_range,
						  &c->range_size, &c->range_num);
		if (err < 0)
			return err;
	}
	if (opts->setup_callchain)
		opts->setup_callchain(c->session);
	return 0;
}

static void convert_pprof__exit(struct convert_pprof *c)
{
	struct evsel *evsel;
	size_t i;

	evlist__for_each_entry(c->session->evlist, evsel)
		evsel->priv = NULL;
	for (i = 0; i < c->nr_events; i++) {
		pprof_profile__exit(&c->events[i]->pp);
		free(c->events[i]->name);
		free(c->events[i]);
	}
	free(c->events);
	free(c->ptime_range);
	map__put(c->main_map);
	perf_session__delete(c->session);
}

int bt_convert__perf2pprof(const char *input, const char *to_pprof,
			   struct perf_data_convert_opts *opts)
{
	struct perf_data data = {
		.path	= input,
		.mode	= PERF_DATA_MODE_READ,
		.force	= opts->force,
	};
	struct convert_pprof c = { .opts = opts, };
	int err;

	if (opts->all) {
		pr_err("--all: a pprof profile holds the samples of one event\n");
		return -EINVAL;
	}
	if (opts->tod) {
		pr_err("--tod: a pprof profile's time is the time of day already\n");
		return -EINVAL;
	}
	perf_tool__init(&c.tool, /*ordered_events=*/true);
	c.tool.sample		= convert_pprof__sample;
	c.tool.mmap		= convert_pprof__mmap;
	c.tool.mmap2		= convert_pprof__mmap2;
	c.tool.comm		= convert_pprof__comm;
	c.tool.exit		= perf_event__process_exit;
	c.tool.fork		= perf_event__process_fork;
	c.tool.namespaces	= perf_event__process_namespaces;
	c.tool.ksymbol		= perf_event__process_ksymbol;
	c.tool.attr		= convert_pprof__attr;
	c.tool.build_id		= perf_event__process_build_id;
#ifdef HAVE_LIBTRACEEVENT
	c.tool.tracing_data	= perf_event__process_tracing_data;
#endif
	c.tool.id_index		= perf_event__process_id_index;
	c.tool.feature		= perf_event__process_feature;
	c.tool.ordering_requires_timestamps = true;

	c.session = perf_session__new(&data, &c.tool);
	if (IS_ERR(c.session))
		return PTR_ERR(c.session);
	err = symbol__init(perf_session__env(c.session));
	if (err)
		goto out;
	err = convert_pprof__setup(&c);
	if (!err) {
		err = perf_session__process_events(c.session);
		if (err)
			pr_err("failed to process the events of %s\n", data.path);
		/* Stopped by the command's signal handler: no profile of a part. */
		else if (session_done())
			err = -EINTR;
	}
	if (!err)
		err = convert_pprof__write(&c, to_pprof);
out:
	convert_pprof__exit(&c);
	return err;
}
