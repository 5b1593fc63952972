// SPDX-License-Identifier: GPL-2.0
/*
 * perf flamegraph --asm: decoding the sampled symbols in a second thread
 * while the main thread reads the events, so that the disassembly after
 * them only has to make lines of the sampled instructions.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <linux/err.h>
#include <linux/zalloc.h>

#include "dso.h"
#include "flamegraph.h"
#include "flamegraph-insns.h"
#include "flamegraph-prefetch.h"
#include "hashmap.h"
#include "map.h"
#include "map_symbol.h"
#include "maps.h"
#include "mutex.h"
#include "symbol.h"

/* One symbol to decode, and what flamegraph__insn_starts() made of it. */
struct flamegraph_prefetch_sym {
	struct dso	*dso;		/* a reference: it holds @sym */
	struct machine	*machine;
	struct symbol	*sym;
	unsigned long	*starts;
	int		err;
};

struct flamegraph_prefetch {
	/* Guards the queue: @syms, @nr, @alloc, @next and @stop. */
	struct mutex	lock;
	struct cond	added;	/* a symbol was queued, or @stop set */
	struct flamegraph_prefetch_sym **syms;
	size_t		nr;
	size_t		alloc;
	size_t		next;
	bool		stop;
	/* The creating thread's: symbol -> its entry, decoder, counts. */
	struct hashmap	*index;
	struct flamegraph_decoder *decoder;
	bool		finished;
	size_t		nr_here;
	/* The thread's, read after it is joined. */
	pthread_t	thread;
	struct flamegraph_decoder *thread_decoder;
	size_t		nr_thread;
};

/* The thread's next symbol: NULL once it is told to stop. */
static struct flamegraph_prefetch_sym *
flamegraph_prefetch__next(struct flamegraph_prefetch *pf)
{
	struct flamegraph_prefetch_sym *s = NULL;

	mutex_lock(&pf->lock);
	while (pf->next == pf->nr && !pf->stop)
		cond_wait(&pf->added, &pf->lock);
	if (!pf->stop)
		s = pf->syms[pf->next++];
	mutex_unlock(&pf->lock);
	return s;
}

static void flamegraph_prefetch_sym__decode(struct flamegraph_prefetch_sym *s,
					    struct flamegraph_decoder *d)
{
	s->err = flamegraph__insn_starts(d, s->dso, s->machine, s->sym,
					 &s->starts);
}

static void *flamegraph_prefetch__thread(void *arg)
{
	struct flamegraph_prefetch *pf = arg;
	struct flamegraph_prefetch_sym *s;

	while ((s = flamegraph_prefetch__next(pf)) != NULL) {
		flamegraph_prefetch_sym__decode(s, pf->thread_decoder);
		pf->nr_thread++;
	}
	return NULL;
}

struct flamegraph_prefetch *flamegraph_prefetch__new(void)
{
	struct flamegraph_prefetch *pf = zalloc(sizeof(*pf));

	if (!pf)
		return NULL;
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

void flamegraph_prefetch__add(struct flamegraph_prefetch *pf,
			      const struct map_symbol *ms)
{
	struct flamegraph_prefetch_sym *s;
	struct dso *dso;

	if (!pf || pf->finished || !ms->sym || !ms->map)
		return;
	if (hashmap__find(pf->index, ms->sym, NULL))
		return;
	dso = map__dso(ms->map);
	if (!flamegraph__user_image(dso))
		return;
	s = zalloc(sizeof(*s));
	if (!s)
		return;
	s->dso = dso__get(dso);
	s->machine = maps__machine(ms->maps);
	s->sym = ms->sym;
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
	return;

out_free:
	dso__put(s->dso);
	free(s);
}

/* Stop the thread after the symbol it is decoding, and wait for it. */
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
				const unsigned long **starts)
{
	struct flamegraph_prefetch_sym *s;

	*starts = NULL;
	if (!pf || !pf->finished || !hashmap__find(pf->index, sym, &s))
		return -ESRCH;
	*starts = s->starts;
	return s->err;
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
		dso__put(s->dso);
		free(s);
	}
	free(pf->syms);
	hashmap__free(pf->index);
	flamegraph_decoder__delete(pf->decoder);
	flamegraph_decoder__delete(pf->thread_decoder);
	cond_destroy(&pf->added);
	mutex_destroy(&pf->lock);
	free(pf);
}
