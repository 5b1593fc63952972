// SPDX-License-Identifier: GPL-2.0
/*
 * pprof.c: one event's samples as pprof's profile.proto
 * (util/data-convert-pprof.c: perf data convert --to-pprof), for
 * pprof and the profile stores that read it: every callchain entry a
 * Location at its address, in the Mapping of its binary with its
 * build-id, so that an instruction-level view survives the export.
 */
#include "pprof.h"
#include "build-id.h"
#include "callchain.h"
#include "debug.h"
#include "dso.h"
#include "env.h"
#include "compress.h"
#include "hashmap.h"
#include "json.h"
#include "map.h"
#include "protobuf.h"
#include "srcline.h"
#include "strbuf.h"
#include "symbol.h"
#include "vdso.h"

#ifdef HAVE_LIBDW_SUPPORT
#include "dwarf-aux.h"
#endif

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

/* Field numbers of profile.proto. */
enum {
	PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION,
	PROFILE_FUNCTION, PROFILE_STRING_TABLE, PROFILE_TIME_NANOS = 9,
	PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD, PROFILE_COMMENT,
	PROFILE_DEFAULT_SAMPLE_TYPE,
};

enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT };

enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL };

enum { LABEL_KEY = 1, LABEL_STR, LABEL_NUM, LABEL_NUM_UNIT };

enum {
	MAPPING_ID = 1, MAPPING_MEMORY_START, MAPPING_MEMORY_LIMIT, MAPPING_FILE_OFFSET,
	MAPPING_FILENAME, MAPPING_BUILD_ID, MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES,
	MAPPING_HAS_LINE_NUMBERS, MAPPING_HAS_INLINE_FRAMES,
};

enum { LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE };

enum { LINE_FUNCTION_ID = 1, LINE_LINE };

enum {
	FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME,
	FUNCTION_START_LINE,
};

/* A binary's range in a process: its memory, its file offset there. */
struct pprof_mapping {
	u64		id;
	u64		start;
	u64		limit;
	u64		offset;
	struct dso	*dso;
	bool		has_functions;
	bool		has_line_numbers;
	bool		has_inline_frames;
};

struct pprof_function {
	u64		id;
	struct symbol	*sym;
	struct dso	*dso;
	u64		name;
	u64		system_name;
	u64		filename;
	u64		start_line;
};

/* What a Location's Line says: a function and, if known, its line there. */
struct pprof_line {
	u64		function_id;
	u64		line;
};

struct pprof_location {
	u64			id;
	u64			mapping_id;
	u64			address;
	struct map_symbol	ms;
	struct pprof_line	*lines;
	u32			nr_lines;
	/* Periods of the samples with it in their stack, for the hottest. */
	u64			weight;
};

struct pprof_sample {
	u64	*location_ids;	/* leaf first */
	u32	nr;
	u64	comm;
	s32	pid;
	s32	tid;
	s32	cpu;		/* -1: not a label */
	u64	period;
	u64	count;
};

/* A hash of @hash and @value, as the tables of util/hashmap want one. */
static inline size_t pprof__hash_combine(size_t hash, u64 value)
{
	return hash * 31 + value;
}

static size_t key_hash(long key, void *ctx __maybe_unused)
{
	return key;
}

static bool key_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return key1 == key2;
}

static size_t string_hash(long key, void *ctx __maybe_unused)
{
	return str_hash((const char *)key);
}

static bool string_equal(long key1, long key2, void *ctx __maybe_unused)
{
	return !strcmp((const char *)key1, (const char *)key2);
}

static size_t mapping_hash(long key, void *ctx __maybe_unused)
{
	const struct pprof_mapping *m = (const void *)key;
	size_t hash = pprof__hash_combine(dso__key(m->dso), m->start);

	hash = pprof__hash_combine(hash, m->limit);
	return pprof__hash_combine(hash, m->offset);
}

static bool mapping_equal(long a, long b, void *ctx __maybe_unused)
{
	const struct pprof_mapping *x = (const void *)a, *y = (const void *)b;

	return dso__key(x->dso) == dso__key(y->dso) &&
	       x->start == y->start && x->limit == y->limit &&
	       x->offset == y->offset;
}

static size_t location_hash(long key, void *ctx __maybe_unused)
{
	const struct pprof_location *l = (const void *)key;

	return pprof__hash_combine(l->mapping_id, l->address);
}

static bool location_equal(long a, long b, void *ctx __maybe_unused)
{
	const struct pprof_location *x = (const void *)a, *y = (const void *)b;

	return x->mapping_id == y->mapping_id && x->address == y->address;
}

static size_t sample_hash(long key, void *ctx __maybe_unused)
{
	const struct pprof_sample *s = (const void *)key;
	size_t hash = pprof__hash_combine(s->comm, s->pid);
	u32 i;

	hash = pprof__hash_combine(hash, s->tid);
	hash = pprof__hash_combine(hash, s->cpu);
	for (i = 0; i < s->nr; i++)
		hash = pprof__hash_combine(hash, s->location_ids[i]);
	return hash;
}

static bool sample_equal(long a, long b, void *ctx __maybe_unused)
{
	const struct pprof_sample *x = (const void *)a, *y = (const void *)b;

	return x->comm == y->comm && x->pid == y->pid && x->tid == y->tid && x->cpu == y->cpu &&
	       x->nr == y->nr &&
	       !memcmp(x->location_ids, y->location_ids, x->nr * sizeof(*x->location_ids));
}

/* Make room for @need entries of @size in *@array, which has room for *@alloc. */
static int pprof__grow(void *array, size_t *alloc, size_t need, size_t size)
{
	void **p = array, *grown;
	size_t n = max(need, 2 * *alloc);

	if (need <= *alloc)
		return 0;
	grown = reallocarray(*p, n, size);
	if (!grown)
		return -ENOMEM;
	*p = grown;
	*alloc = n;
	return 0;
}

/* Append @entry to @array, @nr long, with room for @alloc. */
static int pprof__append(void *array, size_t *nr, size_t *alloc, void *entry)
{
	void ***a = array;

	if (pprof__grow(a, alloc, *nr + 1, sizeof(**a)))
		return -ENOMEM;
	(*a)[(*nr)++] = entry;
	return 0;
}

/*
 * Index @value by @key in @index, a table of @pp. Without memory, @pp
 * is in error: its next pprof_profile__add_sample() or
 * pprof_profile__write() says so.
 */
static void pprof__index(struct pprof_profile *pp, struct hashmap *index, long key,
			 long value)
{
	if (hashmap__add(index, key, value))
		pp->err = -ENOMEM;
}

/* A failed allocation: @pp is in error (pprof__index()). Return: 0. */
static u64 pprof__nomem(struct pprof_profile *pp)
{
	pp->err = -ENOMEM;
	return 0;
}

/*
 * A copy of @str that is valid UTF-8, as profile.proto's strings must be:
 * each byte that is not part of valid UTF-8 becomes U+FFFD, as
 * json__put_string() writes it.  NULL without memory.
 */
static char *pprof__utf8_dup(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);
	/* Each invalid byte becomes three. */
	char *out = malloc(3 * len + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		int n = utf8_seq_len(s);

		if (n) {
			memcpy(o, s, n);
			o += n;
			s += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
		}
	}
	*o = '\0';
	return out;
}

/* The index of @s in the string table, added if new; 0 ("") without memory. */
static u64 pprof__string(struct pprof_profile *pp, const char *s)
{
	long idx;
	char *copy;

	if (hashmap__find(pp->string_index, s, &idx))
		return idx;
	/* Keyed by its valid form, which may be there already. */
	copy = pprof__utf8_dup(s);
	if (!copy)
		return pprof__nomem(pp);
	if (hashmap__find(pp->string_index, copy, &idx)) {
		free(copy);
		return idx;
	}
	idx = pp->nr_strings;
	if (pprof__append(&pp->strings, &pp->nr_strings, &pp->alloc_strings, copy)) {
		free(copy);
		return pprof__nomem(pp);
	}
	pprof__index(pp, pp->string_index, (long)copy, idx);
	return idx;
}

int pprof_profile__init(struct pprof_profile *pp, const char *event, const char *unit)
{
	memset(pp, 0, sizeof(*pp));
	pp->event = event;
	pp->unit = unit;
	pp->string_index = hashmap__new(string_hash, string_equal, NULL);
	pp->mapping_index = hashmap__new(mapping_hash, mapping_equal, NULL);
	pp->location_index = hashmap__new(location_hash, location_equal, NULL);
	pp->function_index = hashmap__new(key_hash, key_equal, NULL);
	pp->inline_index = hashmap__new(key_hash, key_equal, NULL);
	pp->sample_index = hashmap__new(sample_hash, sample_equal, NULL);
	if (IS_ERR(pp->string_index) || IS_ERR(pp->mapping_index) ||
	    IS_ERR(pp->location_index) || IS_ERR(pp->function_index) ||
	    IS_ERR(pp->inline_index) ||
	    IS_ERR(pp->sample_index)) {
		pprof_profile__exit(pp);
		return -ENOMEM;
	}
	/* The table's first string is "", as profile.proto wants. */
	pprof__string(pp, "");
	if (pp->nr_strings == 1)
		return 0;
	pprof_profile__exit(pp);
	return -ENOMEM;
}

void pprof_profile__exit(struct pprof_profile *pp)
{
	size_t i;

	for (i = 0; i < pp->nr_strings; i++)
		free(pp->strings[i]);
	for (i = 0; i < pp->nr_mappings; i++) {
		dso__put(pp->mappings[i]->dso);
		free(pp->mappings[i]);
	}
	for (i = 0; i < pp->nr_locations; i++) {
		map_symbol__exit(&pp->locations[i]->ms);
		free(pp->locations[i]->lines);
		free(pp->locations[i]);
	}
	for (i = 0; i < pp->nr_functions; i++) {
		dso__put(pp->functions[i]->dso);
		free(pp->functions[i]);
	}
	for (i = 0; i < pp->nr_pprof_samples; i++) {
		free(pp->samples[i]->location_ids);
		free(pp->samples[i]);
	}
	free(pp->strings);
	free(pp->mappings);
	free(pp->locations);
	free(pp->functions);
	free(pp->samples);
	free(pp->ids);
	hashmap__free(pp->string_index);
	hashmap__free(pp->mapping_index);
	hashmap__free(pp->location_index);
	hashmap__free(pp->function_index);
	hashmap__free(pp->inline_index);
	hashmap__free(pp->sample_index);
	memset(pp, 0, sizeof(*pp));
}

/* The Mapping of @map, added if new: its id, 0 for none. */
static u64 pprof__mapping(struct pprof_profile *pp, struct map *map)
{
	struct pprof_mapping key, *m;

	if (!map || !map__dso(map))
		return 0;
	key.dso = map__dso(map);
	key.start = map__start(map);
	key.limit = map__end(map);
	key.offset = map__pgoff(map);
	if (hashmap__find(pp->mapping_index, &key, &m))
		return m->id;
	m = malloc(sizeof(*m));
	if (!m)
		return pprof__nomem(pp);
	*m = key;
	m->id = pp->nr_mappings + 1;
	m->has_functions = false;
	m->has_line_numbers = false;
	m->has_inline_frames = false;
	m->dso = dso__get(key.dso);
	if (pprof__append(&pp->mappings, &pp->nr_mappings, &pp->alloc_mappings, m)) {
		dso__put(m->dso);
		free(m);
		return pprof__nomem(pp);
	}
	pprof__index(pp, pp->mapping_index, (long)m, (long)m);
	return m->id;
}

/*
 * A symbol's name as pprof wants both: demangled, and as the binary has
 * it. perf demangles as it loads symbols (symbol_conf.demangle): loaded
 * without, @pp->demangle demangles each function's once here, as
 * dso__demangle_sym() would have (the kernel's as demangle_kernel says).
 */
static void pprof__function_names(struct pprof_profile *pp, struct pprof_function *f)
{
	bool kernel = f->dso && dso__kernel(f->dso);
	char *demangled = NULL;

	if (kernel ? symbol_conf.demangle_kernel : pp->demangle)
		demangled = demangle_sym(f->sym->name);
	f->system_name = pprof__string(pp, f->sym->name);
	f->name = demangled ? pprof__string(pp, demangled) : f->system_name;
	free(demangled);
}

/* The Function of @ms's symbol, added if new: its id, 0 for none. */
static u64 pprof__function(struct pprof_profile *pp, const struct map_symbol *ms,
			   u64 mapping_id)
{
	struct pprof_function *f;

	if (!ms->sym || !ms->map)
		return 0;
	if (hashmap__find(pp->function_index, ms->sym, &f))
		return f->id;
	f = zalloc(sizeof(*f));
	if (!f)
		return pprof__nomem(pp);
	f->id = pp->nr_functions + 1;
	f->sym = ms->sym;
	f->dso = dso__get(map__dso(ms->map));
	pprof__function_names(pp, f);
	if (pprof__append(&pp->functions, &pp->nr_functions, &pp->alloc_functions, f)) {
		dso__put(f->dso);
		free(f);
		return pprof__nomem(pp);
	}
	pprof__index(pp, pp->function_index, (long)ms->sym, (long)f);
	if (mapping_id)
		pp->mappings[mapping_id - 1]->has_functions = true;
	return f->id;
}

/* The Location of a callchain entry, added if new; NULL without memory. */
static struct pprof_location *pprof__location(struct pprof_profile *pp,
					      const struct callchain_cursor_node *node)
{
	struct pprof_location key = {
		.mapping_id = pprof__mapping(pp, node->ms.map),
		.address = node->ip,
	}, *l;
	u64 function_id;

	if (hashmap__find(pp->location_index, &key, &l))
		return l;
	l = zalloc(sizeof(*l));
	if (!l)
		return NULL;
	*l = key;
	l->id = pp->nr_locations + 1;
	l->ms.map = map__get(node->ms.map);
	l->ms.sym = node->ms.sym;
	function_id = pprof__function(pp, &node->ms, l->mapping_id);
	if (function_id) {
		l->lines = zalloc(sizeof(*l->lines));
		if (!l->lines)
			goto out_free;
		l->lines[0].function_id = function_id;
		l->nr_lines = 1;
	}
	if (pprof__append(&pp->locations, &pp->nr_locations, &pp->alloc_locations, l))
		goto out_free;
	pprof__index(pp, pp->location_index, (long)l, (long)l);
	return l;
out_free:
	map__put(l->ms.map);
	free(l->lines);
	free(l);
	return NULL;
}

int pprof_profile__add_sample(struct pprof_profile *pp, struct callchain_cursor *cursor,
			      const char *comm, s32 pid, s32 tid, u32 cpu, u64 time, u64 period)
{
	u64 nr = cursor->nr, i;
	struct pprof_sample key = {
		.nr = nr, .pid = pid, .tid = tid, .cpu = pp->cpu_label ? (s32)cpu : -1,
	}, *s;
	struct callchain_cursor_node *node;

	if (pprof__grow(&pp->ids, &pp->alloc_ids, nr, sizeof(*pp->ids)))
		return -ENOMEM;
	callchain_cursor_commit(cursor);
	for (i = 0; (node = callchain_cursor_current(cursor)) != NULL; i++) {
		struct pprof_location *l = pprof__location(pp, node);

		if (!l)
			return -ENOMEM;
		l->weight += period;
		/* pprof's stacks are the leaf first, perf's unless ORDER_CALLER. */
		pp->ids[callchain_param.order == ORDER_CALLEE ? i : nr - 1 - i] = l->id;
		callchain_cursor_advance(cursor);
	}
	key.location_ids = pp->ids;
	key.comm = pprof__string(pp, comm ?: "");
	if (!hashmap__find(pp->sample_index, &key, &s)) {
		s = malloc(sizeof(*s));
		if (!s)
			return -ENOMEM;
		*s = key;
		s->period = 0;
		s->count = 0;
		s->location_ids = memdup(pp->ids, nr * sizeof(*pp->ids) ?: 1);
		if (!s->location_ids ||
		    pprof__append(&pp->samples, &pp->nr_pprof_samples, &pp->alloc_pprof_samples,
				  s)) {
			free(s->location_ids);
			free(s);
			return -ENOMEM;
		}
		pprof__index(pp, pp->sample_index, (long)s, (long)s);
	}
	s->period += period;
	s->count++;
	pp->nr_samples++;
	if (time && (!pp->first_time || time < pp->first_time))
		pp->first_time = time;
	if (time > pp->last_time)
		pp->last_time = time;
	return pp->err;
}

static int pprof__cmp_weight(const void *a, const void *b)
{
	const struct pprof_location *x = *(void * const *)a, *y = *(void * const *)b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->id < y->id ? -1 : 1;
}

/*
 * struct pprof_decl - where a function is declared: DW_AT_decl_file, its
 * path as the line table has it (or NULL), and DW_AT_decl_line (or 0).
 */
struct pprof_decl {
	char		*file;
	unsigned int	line;
};

static void pprof_decls__free(struct pprof_decl *decls, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(decls[i].file);
	free(decls);
}

#ifdef HAVE_LIBDW_SUPPORT
struct pprof_decls_walk {
	struct pprof_decl	*decls;
	size_t			nr;
	size_t			alloc;
	int			err;
};

/* cu_walk_functions_at()'s callback: one function's declaration. */
static int pprof_decls__add(Dwarf_Die *die, void *arg)
{
	struct pprof_decls_walk *walk = arg;
	struct pprof_decl *decl;
	const char *file = die_get_decl_file(die);
	int line;

	if (pprof__grow(&walk->decls, &walk->alloc, walk->nr + 1, sizeof(*walk->decls)))
		goto out_nomem;
	decl = &walk->decls[walk->nr];
	decl->file = NULL;
	if (file) {
		decl->file = strdup(file);
		if (!decl->file)
			goto out_nomem;
	}
	decl->line = dwarf_decl_line(die, &line) == 0 && line > 0 ? line : 0;
	walk->nr++;
	return DWARF_CB_OK;
out_nomem:
	walk->err = -ENOMEM;
	return DWARF_CB_ABORT;
}

/* dwfl_getmodules()'s callback: the first module, the only one. */
static int pprof_decls__module(Dwfl_Module *mod, void **userdata __maybe_unused,
			       const char *name __maybe_unused,
			       Dwarf_Addr start __maybe_unused, void *arg)
{
	*(Dwfl_Module **)arg = mod;
	return DWARF_CB_ABORT;
}

/*
 * Where the functions at @addr, an address of @dso's file (objdump's,
 * addr2line's), are declared, in *@decls, outermost first: the function
 * @addr is in (the one a symbol names, not one inlined into it), then
 * each function inlined there, down to the innermost; the reverse of
 * perf's srcline code's inline list (dso__parse_addr_inlines()).
 *
 * From the DSO's DWARF, through the libdw session perf's srcline code
 * opened for it (dso__libdw_dwfl()), as it walks the functions at an
 * address (cu_walk_functions_at()): each function's DW_AT_decl_file and
 * DW_AT_decl_line, those of its abstract origin or specification where
 * it has none of its own. Not the lines of the code at @addr: those of
 * code inlined there are in other functions, and other files.
 *
 * Return: how many, 0 (and *@decls NULL) without libdw, DWARF for @addr,
 * or memory. Free them with pprof_decls__free().
 */
static size_t pprof__decls(struct dso *dso, u64 addr, struct pprof_decl **decls)
{
	struct pprof_decls_walk walk = { .decls = NULL, };
	Dwfl *dwfl = dso__libdw_dwfl(dso);
	Dwfl_Module *mod = NULL;
	Dwarf_Addr bias, cu_bias;
	Dwarf_Die *cu_die;

	*decls = NULL;
	if (!dwfl)
		return 0;
	/*
	 * The session holds the DSO alone, where libdw put it: @addr, the
	 * file's, is @addr + bias there (a shared object's bias is not 0).
	 */
	dwfl_getmodules(dwfl, pprof_decls__module, &mod, 0);
	if (!mod || !dwfl_module_getdwarf(mod, &bias))
		return 0;
	cu_die = dwfl_module_addrdie(mod, addr + bias, &cu_bias);
	if (!cu_die)
		return 0;
	cu_walk_functions_at(cu_die, addr, pprof_decls__add, &walk);
	if (walk.err) {
		pprof_decls__free(walk.decls, walk.nr);
		return 0;
	}
	*decls = walk.decls;
	return walk.nr;
}
#else
static size_t pprof__decls(struct dso *dso __maybe_unused, u64 addr __maybe_unused,
			   struct pprof_decl **decls)
{
	*decls = NULL;
	return 0;
}
#endif

/*
 * The Function of an inlined function, by its name: its id, 0 for none.
 * Its file and first line: where DWARF says it is declared (@decl), else
 * @file, where its code inlined at a location is.
 */
static u64 pprof__inline_function(struct pprof_profile *pp, const char *name,
				  const char *file, const struct pprof_decl *decl)
{
	u64 idx = pprof__string(pp, name);
	struct pprof_function *f;

	if (hashmap__find(pp->inline_index, idx, &f))
		return f->id;
	f = zalloc(sizeof(*f));
	if (!f)
		return pprof__nomem(pp);
	f->id = pp->nr_functions + 1;
	f->name = idx;
	f->system_name = idx;
	if (decl && decl->file)
		file = decl->file;
	f->filename = file ? pprof__string(pp, file) : 0;
	f->start_line = decl ? decl->line : 0;
	if (pprof__append(&pp->functions, &pp->nr_functions, &pp->alloc_functions, f)) {
		free(f);
		return pprof__nomem(pp);
	}
	pprof__index(pp, pp->inline_index, idx, (long)f);
	return f->id;
}

/*
 * The functions inlined at @l's address, from perf's srcline code
 * (perf report --inline's): one Line each, innermost first, with the
 * line in it, then @l's function with the line of the outermost call.
 * @decls: where DWARF says the functions there are declared, outermost
 * first (pprof__decls()), @nr_decls of them. Return: the file of
 * the outermost call, @l's function's own (free it), or NULL.
 */
static char *pprof__add_inlines(struct pprof_profile *pp, struct pprof_location *l,
				u64 objdump_addr, const struct pprof_decl *decls,
				size_t nr_decls)
{
	struct inline_node *node = dso__parse_addr_inlines(map__dso(l->ms.map), objdump_addr,
							   l->ms.sym);
	struct pprof_line *lines = NULL;
	struct inline_list *ilist;
	char *outer_file = NULL;
	u32 nr = 0, i = 0;

	if (!node)
		return NULL;
	list_for_each_entry(ilist, &node->val, list)
		nr++;
	if (nr < 2)
		goto out;
	lines = calloc(nr, sizeof(*lines));
	if (!lines)
		goto out;
	list_for_each_entry(ilist, &node->val, list) {
		char *colon = ilist->srcline ? strrchr(ilist->srcline, ':') : NULL;
		char *file = NULL;

		if (colon && ilist->srcline != SRCLINE_UNKNOWN) {
			lines[i].line = strtoul(colon + 1, NULL, 10);
			file = strndup(ilist->srcline, colon - ilist->srcline);
		}
		/* The last, outermost, is the symbol's own. */
		if (i + 1 == nr) {
			lines[i].function_id = l->lines[0].function_id;
			outer_file = file;
			file = NULL;
		} else {
			lines[i].function_id = pprof__inline_function(pp, ilist->symbol ?
								      ilist->symbol->name : "??",
								      file, nr_decls == nr ?
								      &decls[nr - 1 - i] : NULL);
		}
		free(file);
		if (!lines[i++].function_id)
			goto out;
	}
	free(l->lines);
	l->lines = lines;
	l->nr_lines = nr;
	lines = NULL;
	pp->mappings[l->mapping_id - 1]->has_inline_frames = true;
out:
	free(lines);
	inline_node__delete(node);
	return outer_file;
}

/*
 * The file and first line of @f, a symbol's function, the first time
 * one of its locations has a source line: where DWARF says it is
 * declared (@decl), else @file, that of its own code at the location.
 * Never the file of code inlined into it, which is another function's.
 */
static void pprof__function_decl(struct pprof_profile *pp, struct pprof_function *f,
				 const struct pprof_decl *decl, const char *file)
{
	if (f->filename)
		return;
	if (decl && decl->file)
		file = decl->file;
	f->filename = file ? pprof__string(pp, file) : 0;
	f->start_line = decl ? decl->line : 0;
}

/*
 * The source lines of the hottest @max locations: perf's srcline code's
 * file and line for the address (DWARF), and the functions inlined
 * there; each function's file and first line, where it is declared.
 */
static void pprof__add_srclines(struct pprof_profile *pp, unsigned int max)
{
	struct pprof_location **hot;
	size_t i, nr = 0;

	if (!max || !pp->nr_locations)
		return;
	hot = memdup(pp->locations, pp->nr_locations * sizeof(*hot));
	if (!hot)
		return;
	qsort(hot, pp->nr_locations, sizeof(*hot), pprof__cmp_weight);
	for (i = 0; i < pp->nr_locations && nr < max; i++) {
		struct pprof_location *l = hot[i];
		struct pprof_decl *decls;
		struct pprof_function *f;
		unsigned int line = 0;
		char *file, *outer_file;
		size_t nr_decls;
		u64 objdump_addr;

		if (!l->nr_lines)
			continue;
		nr++;
		/* Memory address to the map's, then to objdump's, as perf annotate. */
		objdump_addr = map__rip_2objdump(l->ms.map, map__map_ip(l->ms.map, l->address));
		file = get_srcline_split(map__dso(l->ms.map), objdump_addr, &line);
		if (!file || file == SRCLINE_UNKNOWN || strstarts(file, "??") || !line) {
			if (file != SRCLINE_UNKNOWN)
				free(file);
			continue;
		}
		l->lines[0].line = line;
		f = pp->functions[l->lines[0].function_id - 1];
		pp->mappings[l->mapping_id - 1]->has_line_numbers = true;
		nr_decls = pprof__decls(map__dso(l->ms.map), objdump_addr, &decls);
		outer_file = pprof__add_inlines(pp, l, objdump_addr, decls, nr_decls);
		/* @file is that of the innermost function inlined here. */
		pprof__function_decl(pp, f, nr_decls ? &decls[0] : NULL, outer_file ?: file);
		pprof_decls__free(decls, nr_decls);
		free(outer_file);
		free(file);
	}
	free(hot);
}

int pprof_profile__set_main(struct pprof_profile *pp, struct map *map)
{
	if (!map || !map__dso(map))
		return -EINVAL;
	pp->main_mapping = pprof__mapping(pp, map);
	return pp->main_mapping ? 0 : -ENOMEM;
}

/*
 * pprof takes the first Mapping for the main binary (its "File:"): the
 * caller's (pprof_profile__set_main()), else the user-space one where
 * the most samples ended. Its id, 0 without memory.
 */
static u64 pprof__main_mapping(struct pprof_profile *pp)
{
	u64 *weight;
	size_t i, best = 0;

	if (pp->main_mapping)
		return pp->main_mapping;
	weight = calloc(pp->nr_mappings + 1, sizeof(*weight));
	if (!weight)
		return 0;
	for (i = 0; i < pp->nr_pprof_samples; i++) {
		const struct pprof_sample *s = pp->samples[i];

		if (s->nr)
			weight[pp->locations[s->location_ids[0] - 1]->mapping_id] += s->period;
	}
	for (i = 1; i <= pp->nr_mappings; i++) {
		if (!dso__kernel(pp->mappings[i - 1]->dso) && weight[i] > weight[best])
			best = i;
	}
	free(weight);
	return best;
}

/* The id a Mapping is written with: @main's and the first's swapped. */
static u64 pprof__mapping_id(u64 id, u64 main)
{
	if (!main || !id)
		return id;
	return id == main ? 1 : id == 1 ? main : id;
}

static void pprof__value_type(struct protobuf *pb, u32 field, u64 type, u64 unit)
{
	struct protobuf vt;

	protobuf__init(&vt);
	protobuf__varint(&vt, VALUE_TYPE_TYPE, type);
	protobuf__varint(&vt, VALUE_TYPE_UNIT, unit);
	protobuf__message(pb, field, &vt);
	protobuf__exit(&vt);
}

/*
 * A label: a string, else a number. pprof drops a number 0 without a
 * unit (a proto3 default, as if not there): numbers get one, their key.
 */
static void pprof__label(struct protobuf *pb, struct protobuf *label, u64 key, u64 str,
			 s64 num)
{
	protobuf__reset(label);
	protobuf__varint(label, LABEL_KEY, key);
	if (str) {
		protobuf__varint(label, LABEL_STR, str);
	} else {
		protobuf__varint(label, LABEL_NUM, num);
		protobuf__varint(label, LABEL_NUM_UNIT, key);
	}
	protobuf__message(pb, SAMPLE_LABEL, label);
}

static void pprof__put_samples(struct pprof_profile *pp, struct protobuf *pb)
{
	u64 comm = pprof__string(pp, "comm"), pid = pprof__string(pp, "pid");
	u64 tid = pprof__string(pp, "tid"), cpu = pprof__string(pp, "cpu");
	struct protobuf msg, label;
	size_t i;

	protobuf__init(&msg);
	protobuf__init(&label);
	for (i = 0; i < pp->nr_pprof_samples; i++) {
		const struct pprof_sample *s = pp->samples[i];
		u64 values[2] = { s->period, s->count };

		protobuf__reset(&msg);
		protobuf__packed(&msg, SAMPLE_LOCATION_ID, s->location_ids, s->nr);
		protobuf__packed(&msg, SAMPLE_VALUE, values, 2);
		pprof__label(&msg, &label, comm, s->comm, 0);
		pprof__label(&msg, &label, pid, 0, s->pid);
		pprof__label(&msg, &label, tid, 0, s->tid);
		if (s->cpu >= 0)
			pprof__label(&msg, &label, cpu, 0, s->cpu);
		protobuf__message(pb, PROFILE_SAMPLE, &msg);
	}
	protobuf__exit(&msg);
	protobuf__exit(&label);
}

/*
 * A Mapping's file: the DSO's path, but for the vDSO, which perf reads
 * from a temporary copy it deletes: its name, "[vdso]", as perf
 * buildid-list, perf report and the flame graphs have it.
 */
static const char *pprof__mapping_filename(struct dso *dso)
{
	return dso__is_vdso(dso) ? dso__short_name(dso) : dso__long_name(dso);
}

static void pprof__put_mappings(struct pprof_profile *pp, struct protobuf *pb, u64 main)
{
	struct protobuf msg;
	size_t i;

	protobuf__init(&msg);
	for (i = 1; i <= pp->nr_mappings; i++) {
		/* In the order of the ids written. */
		const struct pprof_mapping *m = pp->mappings[pprof__mapping_id(i, main) - 1];
		char bid[SBUILD_ID_SIZE] = "";

		if (dso__has_build_id(m->dso))
			build_id__snprintf(dso__bid(m->dso), bid, sizeof(bid));
		protobuf__reset(&msg);
		protobuf__varint(&msg, MAPPING_ID, i);
		protobuf__varint(&msg, MAPPING_MEMORY_START, m->start);
		protobuf__varint(&msg, MAPPING_MEMORY_LIMIT, m->limit);
		protobuf__varint(&msg, MAPPING_FILE_OFFSET, m->offset);
		protobuf__varint(&msg, MAPPING_FILENAME,
				 pprof__string(pp, pprof__mapping_filename(m->dso)));
		protobuf__varint(&msg, MAPPING_BUILD_ID, pprof__string(pp, bid));
		protobuf__varint(&msg, MAPPING_HAS_FUNCTIONS, m->has_functions);
		protobuf__varint(&msg, MAPPING_HAS_FILENAMES, m->has_line_numbers);
		protobuf__varint(&msg, MAPPING_HAS_LINE_NUMBERS, m->has_line_numbers);
		protobuf__varint(&msg, MAPPING_HAS_INLINE_FRAMES, m->has_inline_frames);
		protobuf__message(pb, PROFILE_MAPPING, &msg);
	}
	protobuf__exit(&msg);
}

static void pprof__put_locations(struct pprof_profile *pp, struct protobuf *pb,
				 u64 main)
{
	struct protobuf msg, line;
	size_t i;
	u32 j;

	protobuf__init(&msg);
	protobuf__init(&line);
	for (i = 0; i < pp->nr_locations; i++) {
		const struct pprof_location *l = pp->locations[i];

		protobuf__reset(&msg);
		protobuf__varint(&msg, LOCATION_ID, l->id);
		if (l->mapping_id)
			protobuf__varint(&msg, LOCATION_MAPPING_ID,
					 pprof__mapping_id(l->mapping_id, main));
		protobuf__varint(&msg, LOCATION_ADDRESS, l->address);
		for (j = 0; j < l->nr_lines; j++) {
			protobuf__reset(&line);
			protobuf__varint(&line, LINE_FUNCTION_ID, l->lines[j].function_id);
			if (l->lines[j].line)
				protobuf__varint(&line, LINE_LINE, l->lines[j].line);
			protobuf__message(&msg, LOCATION_LINE, &line);
		}
		protobuf__message(pb, PROFILE_LOCATION, &msg);
	}
	protobuf__exit(&msg);
	protobuf__exit(&line);
}

static void pprof__put_functions(struct pprof_profile *pp, struct protobuf *pb)
{
	struct protobuf msg;
	size_t i;

	protobuf__init(&msg);
	for (i = 0; i < pp->nr_functions; i++) {
		const struct pprof_function *f = pp->functions[i];

		protobuf__reset(&msg);
		protobuf__varint(&msg, FUNCTION_ID, f->id);
		protobuf__varint(&msg, FUNCTION_NAME, f->name);
		protobuf__varint(&msg, FUNCTION_SYSTEM_NAME, f->system_name);
		if (f->filename)
			protobuf__varint(&msg, FUNCTION_FILENAME, f->filename);
		if (f->start_line)
			protobuf__varint(&msg, FUNCTION_START_LINE, f->start_line);
		protobuf__message(pb, PROFILE_FUNCTION, &msg);
	}
	protobuf__exit(&msg);
}

/* Comments: what perf report --header says first. */
static void pprof__put_comments(struct pprof_profile *pp, struct protobuf *pb,
				struct perf_env *env)
{
	char *s;
	int i;

	if (env->hostname && asprintf(&s, "host: %s", env->hostname) >= 0) {
		protobuf__varint(pb, PROFILE_COMMENT, pprof__string(pp, s));
		free(s);
	}
	if (env->version && asprintf(&s, "perf version: %s", env->version) >= 0) {
		protobuf__varint(pb, PROFILE_COMMENT, pprof__string(pp, s));
		free(s);
	}
	if (env->nr_cmdline > 0) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "cmdline:");
		for (i = 0; i < env->nr_cmdline; i++)
			strbuf_addf(&sb, " %s", env->cmdline_argv[i]);
		if (sb.buf)
			protobuf__varint(pb, PROFILE_COMMENT, pprof__string(pp, sb.buf));
		strbuf_release(&sb);
	}
}

/* @len bytes of @buf to @fp, gzip-compressed where perf has zlib. */
static int pprof__put_gzip(const char *buf, size_t len, FILE *fp)
{
#ifdef HAVE_ZLIB_SUPPORT
	return gzip_compress_to_stream(buf, len, fp);
#else
	fwrite(buf, 1, len, fp);
	return ferror(fp) ? -EIO : 0;
#endif
}

int pprof_profile__write(struct pprof_profile *pp, struct perf_env *env, FILE *fp)
{
	u64 event = pprof__string(pp, pp->event);
	u64 unit = pprof__string(pp, !strcmp(pp->unit, "ns") ? "nanoseconds" : pp->unit);
	u64 duration = pp->last_time - pp->first_time, main;
	struct protobuf pb;
	size_t i;
	int err;

	if (pp->err)
		return pp->err;
	pprof__add_srclines(pp, pp->nr_srclines);
	main = pprof__main_mapping(pp);
	protobuf__init(&pb);
	pprof__value_type(&pb, PROFILE_SAMPLE_TYPE, event, unit);
	pprof__value_type(&pb, PROFILE_SAMPLE_TYPE, pprof__string(pp, "samples"),
			  pprof__string(pp, "count"));
	pprof__put_samples(pp, &pb);
	pprof__put_mappings(pp, &pb, main);
	pprof__put_locations(pp, &pb, main);
	pprof__put_functions(pp, &pb);
	/* The recording's start: its clock data maps perf_clock to the time of day. */
	if (env->clock.enabled && pp->first_time >= env->clock.clockid_ns)
		protobuf__varint(&pb, PROFILE_TIME_NANOS,
				 env->clock.tod_ns + (pp->first_time - env->clock.clockid_ns));
	protobuf__varint(&pb, PROFILE_DURATION_NANOS, duration);
	pprof__value_type(&pb, PROFILE_PERIOD_TYPE, event, unit);
	if (pp->period)
		protobuf__varint(&pb, PROFILE_PERIOD, pp->period);
	pprof__put_comments(pp, &pb, env);
	protobuf__varint(&pb, PROFILE_DEFAULT_SAMPLE_TYPE, event);
	/* Last: the fields above added their strings. */
	for (i = 0; i < pp->nr_strings; i++)
		protobuf__bytes(&pb, PROFILE_STRING_TABLE, pp->strings[i], strlen(pp->strings[i]));
	err = pb.err ?: pp->err ?: pprof__put_gzip(pb.buf, pb.len, fp);
	protobuf__exit(&pb);
	return err;
}
