/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_PPROF_H
#define __PERF_PPROF_H

#include <stdio.h>
#include <linux/types.h>

struct callchain_cursor;
struct hashmap;
struct map;
struct perf_env;

/*
 * The locations whose source lines a profile looks up, at most: the
 * heaviest (struct pprof_profile's nr_srclines).
 */
#define PPROF_SRCLINES_MAX	256

/**
 * struct pprof_profile - one event's samples, as pprof's profile.proto
 * @event: the event's name, the sample type (borrowed)
 * @unit: the unit of its periods, evsel__period_unit()'s (borrowed)
 * @period: the event's sample period, or 0 where it varies (perf record
 *          -F): the profile's period
 * @first_time: the earliest sample's time (perf_clock ns), 0 if none;
 *              the caller may set the recording's, of all its events, before
 *              pprof_profile__write(): the profile's start and duration
 *              (an off-CPU event's samples all carry the recording's end)
 * @last_time: the latest sample's, likewise
 * @nr_samples: samples added
 * @nr_srclines: locations whose line was looked up, at most
 *               (pprof_profile__write()); 0: none
 * @cpu_label: label each sample with its cpu too (a sample of pprof's
 *             per cpu besides)
 * @demangle: the symbols were loaded with symbol_conf.demangle off, so
 *            that their names are the binaries' (each Function's
 *            system_name): demangle each for its name, as perf would have
 *
 * The rest is private: the tables of the profile's strings, mappings,
 * locations, functions and samples, each entry once, by what tells it
 * apart (see pprof_profile__add_sample()).
 */
struct pprof_profile {
	const char		*event;
	const char		*unit;
	u64			period;
	u64			first_time;
	u64			last_time;
	u64			nr_samples;
	unsigned int		nr_srclines;
	bool			cpu_label;
	bool			demangle;
	/* private: */
	int			err;
	struct hashmap		*string_index;
	char			**strings;
	size_t			nr_strings;
	size_t			alloc_strings;
	struct hashmap		*mapping_index;
	struct pprof_mapping	**mappings;
	size_t			nr_mappings;
	size_t			alloc_mappings;
	u64			main_mapping;
	struct hashmap		*location_index;
	struct pprof_location	**locations;
	size_t			nr_locations;
	size_t			alloc_locations;
	struct hashmap		*function_index;
	struct hashmap		*inline_index;
	struct pprof_function	**functions;
	size_t			nr_functions;
	size_t			alloc_functions;
	struct hashmap		*sample_index;
	struct pprof_sample	**samples;
	size_t			nr_pprof_samples;
	size_t			alloc_pprof_samples;
	u64			*ids;
	size_t			alloc_ids;
};

/**
 * pprof_profile__init - an empty profile of one event
 * @pp: the profile
 * @event: the event's name (borrowed: it must outlive @pp)
 * @unit: its periods' unit (borrowed)
 *
 * Return: 0, or -ENOMEM.
 */
int pprof_profile__init(struct pprof_profile *pp, const char *event, const char *unit);

/**
 * pprof_profile__exit - free a profile's tables
 * @pp: the profile
 */
void pprof_profile__exit(struct pprof_profile *pp);

/**
 * pprof_profile__add_sample - add a resolved sample
 * @pp: the profile
 * @cursor: the sample's callchain as thread__resolve_callchain() left it,
 *          in callchain_param.order, or the sample IP's entry alone
 * @comm: the thread's comm (copied)
 * @pid: its process
 * @tid: the thread
 * @cpu: the cpu it ran on, a label where @pp->cpu_label
 * @time: the sample's time (perf_clock ns), for the profile's duration
 * @period: the sample's period, in @pp's unit
 *
 * Each entry is a Location: its memory address, as the process saw it,
 * in the Mapping of its map (start, limit, file offset, the DSO's name and
 * build-id), with the Function of its symbol, if any (perf's symbol: its
 * start and end, never its name, tell it apart). The sample is one of
 * pprof's per distinct stack, comm, pid and tid (and cpu), its values
 * the sum of the periods and the number of samples.
 *
 * Return: 0, or -ENOMEM.
 */
int pprof_profile__add_sample(struct pprof_profile *pp, struct callchain_cursor *cursor,
			      const char *comm, s32 pid, s32 tid, u32 cpu, u64 time, u64 period);

/**
 * pprof_profile__set_main - say which binary is the main one
 * @pp: the profile
 * @map: the map of the main binary's executable code in its process
 *
 * pprof takes the profile's first Mapping for the main binary: it
 * names the profile after it ("File:"), as the stores and the web UI
 * do. The caller says which: perf data convert's is the executable of
 * the command perf record ran. @map's
 * Mapping is added if it has no samples (a profile of a command whose
 * samples are in its children, or in its libraries), and written
 * first. Without it the main binary is the user-space one where the
 * most samples ended.
 *
 * Return: 0, -EINVAL for a map without a DSO, or -ENOMEM.
 */
int pprof_profile__set_main(struct pprof_profile *pp, struct map *map);

/**
 * pprof_profile__write - write the profile, gzip-compressed
 * @pp: the profile
 * @env: the recording's header (perf_session__env()): host, perf
 *       version, command line for the comments, and its clock data for
 *       the start time where perf record wrote it (-k, --clockid): no
 *       start time without
 * @fp: where to write
 *
 * profile.proto of https://github.com/google/pprof/blob/main/proto/:
 * sample types the event in its unit and "samples" (count), the event's
 * the default; period type and period; time and duration; one Mapping,
 * Location and Function per distinct one, the main binary's Mapping
 * first (pprof_profile__set_main()), the vDSO's named "[vdso]" as
 * perf names it, not after the temporary copy perf reads; the hottest
 * locations' source lines from perf's srcline code (@pp->nr_srclines of
 * them) and the functions inlined there as more Lines, innermost first
 * (a Function each, by name); a Function's file and start line where
 * DWARF declares it (DW_AT_decl_file, DW_AT_decl_line), never those of
 * code inlined into it. Compressed with zlib
 * (gzip, as pprof writes it) where perf is built with it, else plain.
 *
 * Return: 0, -ENOMEM (now, or in an earlier call that added to @pp), or
 * -EIO if a write failed.
 */
int pprof_profile__write(struct pprof_profile *pp, struct perf_env *env, FILE *fp);

#endif /* __PERF_PPROF_H */
