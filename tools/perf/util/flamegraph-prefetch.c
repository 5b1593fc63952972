// SPDX-License-Identifier: GPL-2.0
/*
 * perf flamegraph --asm: decoding the sampled symbols in a second thread
 * while the main thread reads the events, so that the disassembly after
 * them only has to make lines of the sampled instructions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "debuginfo.h"
#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-asm.h"
#include "flamegraph-insns.h"
#include "flamegraph-prefetch.h"
#include "hashmap.h"
#include "map.h"
#include "map_symbol.h"
#include "maps.h"
#include "mutex.h"
#include "symbol.h"

/*
 * The DWARF of a DSO with sampled symbols, for the HTML page's source
 * lines (flamegraph__add_srclines()), opened when the thread has no
 * symbol to decode, once the DSO has FLAMEGRAPH_PREFETCH_DWARF_LEAVES
 * instruction leaves: the page shows the lines of the hottest
 * instructions, and a DSO with few leaves seldom holds one, while its
 * DWARF may be large (libdw inflates its debug sections at open).
 */
struct flamegraph_prefetch_dwarf {
	struct dso		*dso;	/* a reference */
	char			*name;	/* flamegraph__dwarf_name(), NULL: none */
	size_t			nr_leaves;	/* the adding thread's */
	bool			queued;		/* guarded by the lock */
	bool			started;	/* guarded by the lock */
	/* The thread's, read after it is joined. */
	struct debuginfo	*dbg;	/* NULL: none found, or taken */
	bool			opened;
};

#define FLAMEGRAPH_PREFETCH_DWARF_LEAVES	64

/* One symbol to decode, and what flamegraph__insn_starts() made of it. */
struct flamegraph_prefetch_sym {
	struct dso	*dso;		/* a reference: it holds @sym */
	struct machine	*machine;
	struct symbol	*sym;
	unsigned long	*starts;
	u8		*code;		/* its bytes, with @starts */
	bool		is_64bit;
	int		err;
	struct flamegraph_prefetch_dwarf *dwarf;	/* its DSO's, or NULL */
};

struct flamegraph_prefetch {
	/*
	 * Guards the queues: @syms, @nr, @alloc, @next, @dwarfs (which only
	 * the adding thread changes), @nr_dwarfs_queued, @nr_dwarfs_started
	 * and @stop.
	 */
	struct mutex	lock;
	struct cond	added;	/* a symbol or DSO was queued, or @stop set */
	struct flamegraph_prefetch_sym **syms;
	size_t		nr;
	size_t		alloc;
	size_t		next;
	struct flamegraph_prefetch_dwarf **dwarfs;
	size_t		nr_dwarfs;
	size_t		alloc_dwarfs;
	size_t		nr_dwarfs_queued;
	size_t		nr_dwarfs_started;
	bool		stop;
	bool		want_dwarf;
	/*
	 * The adding thread's, then (once it is done) the finishing one's:
	 * symbol -> its entry, decoder, counts.
	 */
	struct hashmap	*index;
	struct flamegraph_decoder *decoder;
	bool		finished;
	size_t		nr_here;
	/* The thread's, read after it is joined. */
	pthread_t	thread;
	struct flamegraph_decoder *thread_decoder;
	size_t		nr_thread;
	size_t		nr_dwarf_opened;
};

/*
 * The thread's next symbol, else (*@dwarf) the next DSO whose DWARF to
 * open; false once it is told to stop and no DWARF is queued.  The
 * symbols left then are decoded by flamegraph_prefetch__finish(), the
 * DWARF queued is opened here: the DSOs with many leaves, whose lines
 * flamegraph__add_srclines() would look up anyway.
 */
static bool flamegraph_prefetch__next(struct flamegraph_prefetch *pf,
				      struct flamegraph_prefetch_sym **s,
				      struct flamegraph_prefetch_dwarf **dwarf)
{
	bool more;

	*s = NULL;
	*dwarf = NULL;
	mutex_lock(&pf->lock);
	while (pf->next == pf->nr && pf->nr_dwarfs_started == pf->nr_dwarfs_queued &&
	       !pf->stop)
		cond_wait(&pf->added, &pf->lock);
	more = pf->nr_dwarfs_started < pf->nr_dwarfs_queued || !pf->stop;
	if (!pf->stop && pf->next < pf->nr) {
		*s = pf->syms[pf->next++];
	} else if (more) {
		size_t i;

		for (i = 0; !*dwarf; i++) {
			if (pf->dwarfs[i]->queued && !pf->dwarfs[i]->started)
				*dwarf = pf->dwarfs[i];
		}
		(*dwarf)->started = true;
		pf->nr_dwarfs_started++;
	}
	mutex_unlock(&pf->lock);
	return more;
}

/*
 * The bitmap, and a copy of the bytes for the lines: read again through
 * perf's dso data layer after the events, they took 20 ms on cc-1M.
 */
static void flamegraph_prefetch_sym__decode(struct flamegraph_prefetch_sym *s,
					    struct flamegraph_decoder *d)
{
	size_t len = s->sym->end - s->sym->start;
	const u8 *code;

	s->err = flamegraph__insn_starts(d, s->dso, s->machine, s->sym,
					 &s->starts);
	if (s->err)
		return;
	code = flamegraph_decoder__code(d, &s->is_64bit);
	s->code = memdup(code, len);
	if (!s->code) {
		zfree(&s->starts);
		s->err = -ENOMEM;
	}
}

static void *flamegraph_prefetch__thread(void *arg)
{
	struct flamegraph_prefetch *pf = arg;
	struct flamegraph_prefetch_dwarf *dwarf;
	struct flamegraph_prefetch_sym *s;

	/* Its own comm, as perf top's UI thread: top -H, perf record -s. */
	prctl(PR_SET_NAME, "perf-fg-decode", 0, 0, 0);
	while (flamegraph_prefetch__next(pf, &s, &dwarf)) {
		if (s) {
			flamegraph_prefetch_sym__decode(s, pf->thread_decoder);
			pf->nr_thread++;
			continue;
		}
		/* libdw opens the file itself: no dso data cache is read. */
		if (dwarf->name)
			dwarf->dbg = debuginfo__new(dwarf->name);
		dwarf->opened = true;
		pf->nr_dwarf_opened++;
	}
	return NULL;
}

struct flamegraph_prefetch *flamegraph_prefetch__new(bool dwarf)
{
	struct flamegraph_prefetch *pf = zalloc(sizeof(*pf));

	if (!pf)
		return NULL;
	pf->want_dwarf = dwarf;
	pf->index = hashmap__new(flamegraph__ptr_hash, flamegraph__ptr_equal, NULL);
	pf->decoder = flamegraph_decoder__new();
	pf->thread_decoder = flamegraph_decoder__new();
	/* Capstone's first cs_open() sets up its tables: here, not racing. */
	if (IS_ERR(pf->index) || !pf->decoder || !pf->thread_decoder ||
	    flamegraph_decoder__open(pf->thread_decoder, /*is_64bit=*/true))
		goto out_free;
	mutex_init(&pf->lock);
	cond_init(&pf->added);
	if (pthread_create(&pf->thread, NULL, flamegraph_prefetch__thread, pf)) {
		cond_destroy(&pf->added);
		mutex_destroy(&pf->lock);
		goto out_free;
	}
	return pf;

out_free:
	if (!IS_ERR(pf->index))
		hashmap__free(pf->index);
	flamegraph_decoder__delete(pf->decoder);
	flamegraph_decoder__delete(pf->thread_decoder);
	free(pf);
	return NULL;
}

/*
 * The DWARF entry of @dso, made on its first symbol.  Its name is found
 * here: the thread adding symbols runs between the events that could
 * change it.  NULL when out of memory.
 */
static struct flamegraph_prefetch_dwarf *
flamegraph_prefetch__dwarf(struct flamegraph_prefetch *pf, struct dso *dso)
{
	struct flamegraph_prefetch_dwarf *dwarf;
	const char *name;
	size_t i;

	/* Only this function changes @dwarfs: read here without the lock. */
	for (i = 0; i < pf->nr_dwarfs; i++) {
		if (flamegraph__dso_key(pf->dwarfs[i]->dso) == flamegraph__dso_key(dso))
			return pf->dwarfs[i];
	}
	dwarf = zalloc(sizeof(*dwarf));
	if (!dwarf)
		return NULL;
	name = flamegraph__dwarf_name(dso);
	dwarf->name = name ? strdup(name) : NULL;
	if (name && !dwarf->name)
		goto out_free;

	mutex_lock(&pf->lock);
	if (pf->nr_dwarfs == pf->alloc_dwarfs) {
		size_t alloc = pf->alloc_dwarfs ? pf->alloc_dwarfs * 2 : 16;
		void *dwarfs = realloc(pf->dwarfs, alloc * sizeof(*pf->dwarfs));

		if (!dwarfs) {
			mutex_unlock(&pf->lock);
			goto out_free;
		}
		pf->dwarfs = dwarfs;
		pf->alloc_dwarfs = alloc;
	}
	dwarf->dso = dso__get(dso);
	pf->dwarfs[pf->nr_dwarfs++] = dwarf;
	mutex_unlock(&pf->lock);
	return dwarf;

out_free:
	free(dwarf->name);
	free(dwarf);
	return NULL;
}

/* One more instruction leaf in @dwarf's DSO: enough to open its DWARF? */
static void flamegraph_prefetch__count_leaf(struct flamegraph_prefetch *pf,
					    struct flamegraph_prefetch_dwarf *dwarf)
{
	if (!dwarf || ++dwarf->nr_leaves != FLAMEGRAPH_PREFETCH_DWARF_LEAVES)
		return;
	mutex_lock(&pf->lock);
	dwarf->queued = true;
	pf->nr_dwarfs_queued++;
	cond_signal(&pf->added);
	mutex_unlock(&pf->lock);
}

void flamegraph_prefetch__add(struct flamegraph_prefetch *pf,
			      const struct map_symbol *ms)
{
	struct flamegraph_prefetch_sym *s;
	struct dso *dso;

	if (!pf || pf->finished || !ms->sym || !ms->map)
		return;
	if (hashmap__find(pf->index, ms->sym, &s)) {
		flamegraph_prefetch__count_leaf(pf, s->dwarf);
		return;
	}
	dso = map__dso(ms->map);
	if (!flamegraph__user_image(dso))
		return;
	s = zalloc(sizeof(*s));
	if (!s)
		return;
	s->dso = dso__get(dso);
	s->machine = maps__machine(ms->maps);
	s->sym = ms->sym;
	if (pf->want_dwarf)
		s->dwarf = flamegraph_prefetch__dwarf(pf, dso);
	if (hashmap__add(pf->index, s->sym, s))
		goto out_free;

	mutex_lock(&pf->lock);
	if (pf->nr == pf->alloc) {
		size_t alloc = pf->alloc ? pf->alloc * 2 : 256;
		void *syms = realloc(pf->syms, alloc * sizeof(*pf->syms));

		if (!syms) {
			mutex_unlock(&pf->lock);
			hashmap__delete(pf->index, s->sym, NULL, NULL);
			goto out_free;
		}
		pf->syms = syms;
		pf->alloc = alloc;
	}
	pf->syms[pf->nr++] = s;
	cond_signal(&pf->added);
	mutex_unlock(&pf->lock);
	flamegraph_prefetch__count_leaf(pf, s->dwarf);
	return;

out_free:
	dso__put(s->dso);
	free(s);
}

/*
 * Stop the thread after the symbol it is decoding and the DWARF queued,
 * and wait for it.
 */
static void flamegraph_prefetch__stop(struct flamegraph_prefetch *pf)
{
	bool joined;

	mutex_lock(&pf->lock);
	joined = pf->stop;
	pf->stop = true;
	cond_signal(&pf->added);
	mutex_unlock(&pf->lock);
	if (!joined)
		pthread_join(pf->thread, NULL);
}

void flamegraph_prefetch__finish(struct flamegraph_prefetch *pf)
{
	if (!pf || pf->finished)
		return;
	flamegraph_prefetch__stop(pf);
	/*
	 * What it didn't take, here, after it: not beside it, as two
	 * threads reading one DSO would race in perf's dso data cache,
	 * which is looked up without a lock (__dso_cache__find()).
	 */
	for (; pf->next < pf->nr; pf->next++) {
		flamegraph_prefetch_sym__decode(pf->syms[pf->next], pf->decoder);
		pf->nr_here++;
	}
	pf->finished = true;
}

int flamegraph_prefetch__starts(struct flamegraph_prefetch *pf,
				const struct symbol *sym,
				const unsigned long **starts,
				const u8 **code, bool *is_64bit)
{
	struct flamegraph_prefetch_sym *s;

	*starts = NULL;
	*code = NULL;
	if (!pf || !pf->finished || !hashmap__find(pf->index, sym, &s))
		return -ESRCH;
	*starts = s->starts;
	*code = s->code;
	*is_64bit = s->is_64bit;
	return s->err;
}

bool flamegraph_prefetch__take_dwarf(struct flamegraph_prefetch *pf,
				     const struct dso *dso,
				     struct debuginfo **dbg)
{
	size_t i;

	if (!pf || !pf->finished)
		return false;
	for (i = 0; i < pf->nr_dwarfs; i++) {
		struct flamegraph_prefetch_dwarf *dwarf = pf->dwarfs[i];

		if (flamegraph__dso_key(dwarf->dso) != flamegraph__dso_key(dso) ||
		    !dwarf->opened)
			continue;
		*dbg = dwarf->dbg;
		dwarf->dbg = NULL;
		dwarf->opened = false;
		return true;
	}
	return false;
}

size_t flamegraph_prefetch__nr_decoded(const struct flamegraph_prefetch *pf,
				       size_t *in_thread)
{
	*in_thread = pf ? pf->nr_thread : 0;
	return pf ? pf->nr_thread + pf->nr_here : 0;
}

void flamegraph_prefetch__delete(struct flamegraph_prefetch *pf)
{
	size_t i;

	if (!pf)
		return;
	/* Unfinished (no samples, an error): what is left stays undecoded. */
	flamegraph_prefetch__stop(pf);
	for (i = 0; i < pf->nr; i++) {
		struct flamegraph_prefetch_sym *s = pf->syms[i];

		free(s->starts);
		free(s->code);
		dso__put(s->dso);
		free(s);
	}
	free(pf->syms);
	for (i = 0; i < pf->nr_dwarfs; i++) {
		struct flamegraph_prefetch_dwarf *dwarf = pf->dwarfs[i];

		debuginfo__delete(dwarf->dbg);
		dso__put(dwarf->dso);
		free(dwarf->name);
		free(dwarf);
	}
	free(pf->dwarfs);
	hashmap__free(pf->index);
	flamegraph_decoder__delete(pf->decoder);
	flamegraph_decoder__delete(pf->thread_decoder);
	cond_destroy(&pf->added);
	mutex_destroy(&pf->lock);
	free(pf);
}
