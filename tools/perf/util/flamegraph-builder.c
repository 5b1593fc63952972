// SPDX-License-Identifier: GPL-2.0
/*
 * perf flamegraph: the tree built in a second thread while the main
 * thread reads and resolves the events.
 *
 * The samples go to the thread in batches, each a run of records; the
 * main thread fills one batch while the thread walks those queued
 * before it.  A lock is taken once a batch, not once a sample.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <linux/align.h>
#include <linux/kernel.h>
#include <linux/time64.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "flamegraph.h"
#include "flamegraph-builder.h"
#include "flamegraph-prefetch.h"
#include "map.h"
#include "map_symbol.h"
#include "maps.h"
#include "mutex.h"

/* Bytes of records a batch holds, and batches queued at most. */
#define FLAMEGRAPH_BUILDER_BATCH	(256 * 1024)
#define FLAMEGRAPH_BUILDER_BATCHES	4

/*
 * A queued sample.  flamegraph_builder__account()'s is this alone, with
 * @nr_frames -1; flamegraph_builder__add()'s is a struct
 * flamegraph_builder_walk.
 */
struct flamegraph_builder_rec {
	u32	size;		/* bytes, this header included; a multiple of 8 */
	s32	nr_frames;
	long	leaf_slot;
};

/*
 * Then @rec.nr_frames frames, the instruction's frame if @has_insn, and
 * the comm, NUL-terminated, if @from_slot is -1.  The frames hold
 * references to their maps, taken when queued and dropped once walked:
 * the caller's own may be gone by then (its callchain cursor is reset
 * by the next sample).
 */
struct flamegraph_builder_walk {
	struct flamegraph_builder_rec	rec;
	long				from_slot;
	long				callers_slot;
	bool				has_insn;
	struct flamegraph_frame		frames[];
};

struct flamegraph_builder_batch {
	char	*buf;
	size_t	len;
};

struct flamegraph_builder {
	/* Guards @nr_queued, @nr_walked, @stop and @err. */
	struct mutex	lock;
	struct cond	queued;		/* @nr_queued grew, or @stop set */
	struct cond	walked;		/* @nr_walked grew */
	unsigned long	nr_queued;
	unsigned long	nr_walked;
	bool		stop;
	int		err;		/* the first walk's error */
	/* batches[nr_queued % FLAMEGRAPH_BUILDER_BATCHES] is being filled. */
	struct flamegraph_builder_batch batches[FLAMEGRAPH_BUILDER_BATCHES];
	/* The tree's owner's: the thread's until it is joined. */
	struct flamegraph *fg;
	struct flamegraph_node **leaves;
	size_t		nr_leaves;
	struct flamegraph_node **callers;
	size_t		nr_callers;
	struct flamegraph_prefetch *prefetch;
	u64		tree_ns;
	/* The main thread's. */
	pthread_t	thread;
	bool		threaded;	/* false: walked in the calling thread */
	int		seen_err;	/* @err, as of the last handoff */
};

static u64 flamegraph_builder__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

/* The node in @slot of @nodes, NULL for -1 or one out of range. */
static struct flamegraph_node *
flamegraph_builder__slot(struct flamegraph_node **nodes, size_t nr, long slot)
{
	return slot >= 0 && (size_t)slot < nr ? nodes[slot] : NULL;
}

static void flamegraph_builder__keep(struct flamegraph_node **nodes, size_t nr,
				     long slot, struct flamegraph_node *node)
{
	if (slot >= 0 && (size_t)slot < nr)
		nodes[slot] = node;
}

/* Drop the references a record's frames hold. */
static void flamegraph_builder__put(const struct flamegraph_builder_rec *rec)
{
	struct flamegraph_builder_walk *w;
	int i;

	if (rec->nr_frames < 0)
		return;
	w = container_of((struct flamegraph_builder_rec *)rec,
			 struct flamegraph_builder_walk, rec);
	for (i = 0; i < rec->nr_frames + w->has_insn; i++)
		map_symbol__exit(&w->frames[i].ms);
}

/* What flamegraph__walk() in the main thread would have done. */
static int flamegraph_builder__walk_one(struct flamegraph_builder *b,
					const struct flamegraph_builder_rec *rec)
{
	const struct flamegraph_builder_walk *w;
	const struct flamegraph_frame *frames, *insn = NULL;
	struct flamegraph *fg = b->fg;
	struct flamegraph_node *node, *leaf;
	u64 nr_insns = fg->nr_insns;
	int nr;

	if (rec->nr_frames < 0) {
		leaf = flamegraph_builder__slot(b->leaves, b->nr_leaves, rec->leaf_slot);
		if (leaf)
			flamegraph__account(fg, leaf, 1);
		return 0;
	}

	w = container_of(rec, struct flamegraph_builder_walk, rec);
	frames = w->frames;
	nr = rec->nr_frames;
	if (w->has_insn)
		insn = &frames[nr];
	if (w->from_slot >= 0)
		node = flamegraph_builder__slot(b->callers, b->nr_callers, w->from_slot);
	else
		node = flamegraph__comm(fg, (const char *)&frames[nr + w->has_insn]);
	if (w->callers_slot >= 0 && nr > 0) {
		node = flamegraph__walk(fg, node, frames, nr - 1, NULL);
		flamegraph_builder__keep(b->callers, b->nr_callers, w->callers_slot, node);
		frames += nr - 1;
		nr = 1;
	}
	leaf = flamegraph__walk(fg, node, frames, nr, insn);
	flamegraph_builder__keep(b->leaves, b->nr_leaves, rec->leaf_slot, leaf);
	if (!leaf)
		return -ENOMEM;
	/* A new instruction leaf: its symbol may be new too. */
	if (insn && fg->nr_insns != nr_insns)
		flamegraph_prefetch__add(b->prefetch, &insn->ms);
	flamegraph__account(fg, leaf, 1);
	return 0;
}

/*
 * Walk @batch's records; with @put, drop their references too.  The
 * thread doesn't: the main thread, which took them, drops them when it
 * takes the batch back (flamegraph_builder__put_batch()), so that each
 * reference count stays in one CPU's cache.
 *
 * Return: 0, or the first record's error (-ENOMEM).
 */
static int flamegraph_builder__walk_batch(struct flamegraph_builder *b,
					  const struct flamegraph_builder_batch *batch,
					  bool put)
{
	u64 t0 = verbose > 0 ? flamegraph_builder__now_ns() : 0;
	size_t off;
	int err = 0;

	for (off = 0; off < batch->len;) {
		const struct flamegraph_builder_rec *rec = (void *)(batch->buf + off);
		int ret = flamegraph_builder__walk_one(b, rec);

		if (!err)
			err = ret;
		if (put)
			flamegraph_builder__put(rec);
		off += rec->size;
	}
	if (t0)
		b->tree_ns += flamegraph_builder__now_ns() - t0;
	return err;
}

/*
 * Keep the first error of a walk, and give the main thread its copy:
 * under the lock, as the thread may be walking.
 */
static void flamegraph_builder__walked(struct flamegraph_builder *b, int err)
{
	mutex_lock(&b->lock);
	if (!b->err)
		b->err = err;
	b->seen_err = b->err;
	mutex_unlock(&b->lock);
}

/* Drop the references of @batch's records, and empty it. */
static void flamegraph_builder__put_batch(struct flamegraph_builder_batch *batch)
{
	size_t off;

	for (off = 0; off < batch->len;) {
		const struct flamegraph_builder_rec *rec = (void *)(batch->buf + off);

		flamegraph_builder__put(rec);
		off += rec->size;
	}
	batch->len = 0;
}

static void *flamegraph_builder__thread(void *arg)
{
	struct flamegraph_builder *b = arg;
	int err;

	prctl(PR_SET_NAME, "perf-fg-tree", 0, 0, 0);
	mutex_lock(&b->lock);
	for (;;) {
		struct flamegraph_builder_batch *batch;

		while (b->nr_walked == b->nr_queued && !b->stop)
			cond_wait(&b->queued, &b->lock);
		if (b->nr_walked == b->nr_queued)
			break;
		batch = &b->batches[b->nr_walked % FLAMEGRAPH_BUILDER_BATCHES];
		mutex_unlock(&b->lock);

		err = flamegraph_builder__walk_batch(b, batch, /*put=*/false);

		mutex_lock(&b->lock);
		if (!b->err)
			b->err = err;
		b->nr_walked++;
		cond_signal(&b->walked);
	}
	mutex_unlock(&b->lock);
	return NULL;
}

struct flamegraph_builder *flamegraph_builder__new(struct flamegraph *fg,
						   size_t nr_leaf_slots,
						   size_t nr_callers_slots,
						   struct flamegraph_prefetch *prefetch)
{
	struct flamegraph_builder *b = zalloc(sizeof(*b));
	size_t i;

	if (!b)
		return NULL;
	b->fg = fg;
	b->prefetch = prefetch;
	b->nr_leaves = nr_leaf_slots;
	b->nr_callers = nr_callers_slots;
	b->leaves = calloc(nr_leaf_slots ?: 1, sizeof(*b->leaves));
	b->callers = calloc(nr_callers_slots ?: 1, sizeof(*b->callers));
	if (!b->leaves || !b->callers)
		goto out_free;
	for (i = 0; i < FLAMEGRAPH_BUILDER_BATCHES; i++) {
		b->batches[i].buf = malloc(FLAMEGRAPH_BUILDER_BATCH);
		if (!b->batches[i].buf)
			goto out_free;
	}
	mutex_init(&b->lock);
	cond_init(&b->queued);
	cond_init(&b->walked);
	/* No thread: each batch is walked here when it is full. */
	b->threaded = !pthread_create(&b->thread, NULL, flamegraph_builder__thread, b);
	return b;

out_free:
	for (i = 0; i < FLAMEGRAPH_BUILDER_BATCHES; i++)
		free(b->batches[i].buf);
	free(b->leaves);
	free(b->callers);
	free(b);
	return NULL;
}

/* Hand the batch being filled to the thread, and take the next one. */
static void flamegraph_builder__queue(struct flamegraph_builder *b)
{
	struct flamegraph_builder_batch *batch;

	batch = &b->batches[b->nr_queued % FLAMEGRAPH_BUILDER_BATCHES];
	if (!b->threaded) {
		flamegraph_builder__walked(b, flamegraph_builder__walk_batch(b, batch,
									     /*put=*/true));
		batch->len = 0;
		return;
	}
	mutex_lock(&b->lock);
	b->nr_queued++;
	cond_signal(&b->queued);
	while (b->nr_queued - b->nr_walked >= FLAMEGRAPH_BUILDER_BATCHES)
		cond_wait(&b->walked, &b->lock);
	b->seen_err = b->err;
	mutex_unlock(&b->lock);
	/* Walked by the thread: its references are dropped here. */
	flamegraph_builder__put_batch(&b->batches[b->nr_queued % FLAMEGRAPH_BUILDER_BATCHES]);
}

void flamegraph_builder__sync(struct flamegraph_builder *b)
{
	struct flamegraph_builder_batch *batch;
	bool idle;

	if (!b)
		return;
	batch = &b->batches[b->nr_queued % FLAMEGRAPH_BUILDER_BATCHES];
	if (!b->threaded) {
		if (batch->len)
			flamegraph_builder__queue(b);
		return;
	}
	mutex_lock(&b->lock);
	idle = b->nr_walked == b->nr_queued;
	mutex_unlock(&b->lock);
	/*
	 * The thread has walked all it was given, and waits for more: the
	 * batch being filled is walked here, without waking it and waiting
	 * for it, which would cost more than a short batch when events that
	 * need a sync come close together (a build's many short processes).
	 * The lock orders this walk after its last and before its next one.
	 */
	if (idle) {
		flamegraph_builder__walked(b, flamegraph_builder__walk_batch(b, batch,
									     /*put=*/true));
		batch->len = 0;
		return;
	}
	if (batch->len)
		flamegraph_builder__queue(b);
	mutex_lock(&b->lock);
	while (b->nr_walked != b->nr_queued)
		cond_wait(&b->walked, &b->lock);
	b->seen_err = b->err;
	mutex_unlock(&b->lock);
}

/* Room for a record of @size bytes in the batch being filled. */
static void *flamegraph_builder__reserve(struct flamegraph_builder *b, size_t size)
{
	struct flamegraph_builder_batch *batch;

	batch = &b->batches[b->nr_queued % FLAMEGRAPH_BUILDER_BATCHES];
	if (batch->len + size > FLAMEGRAPH_BUILDER_BATCH) {
		flamegraph_builder__queue(b);
		batch = &b->batches[b->nr_queued % FLAMEGRAPH_BUILDER_BATCHES];
	}
	batch->len += size;
	return batch->buf + batch->len - size;
}

int flamegraph_builder__account(struct flamegraph_builder *b, long leaf_slot)
{
	struct flamegraph_builder_rec *rec = flamegraph_builder__reserve(b, sizeof(*rec));

	rec->size = sizeof(*rec);
	rec->nr_frames = -1;
	rec->leaf_slot = leaf_slot;
	return b->seen_err;
}

int flamegraph_builder__add(struct flamegraph_builder *b,
			    const struct flamegraph_builder_sample *s)
{
	size_t comm_len = s->from_slot < 0 ? strlen(s->comm ?: "[unknown]") + 1 : 0;
	size_t nr = s->nr_frames + !!s->insn, i;
	size_t size = ALIGN(sizeof(struct flamegraph_builder_walk) +
			    nr * sizeof(struct flamegraph_frame) + comm_len, 8);
	struct flamegraph_builder_walk *w;

	/* Too deep for a batch: walked here, once the thread has caught up. */
	if (size > FLAMEGRAPH_BUILDER_BATCH) {
		w = malloc(size);
		if (!w)
			return -ENOMEM;
	} else {
		w = flamegraph_builder__reserve(b, size);
	}
	w->rec.size = size;
	w->rec.nr_frames = s->nr_frames;
	w->rec.leaf_slot = s->leaf_slot;
	w->from_slot = s->from_slot;
	w->callers_slot = s->callers_slot;
	w->has_insn = !!s->insn;
	memcpy(w->frames, s->frames, s->nr_frames * sizeof(*s->frames));
	if (s->insn)
		w->frames[s->nr_frames] = *s->insn;
	for (i = 0; i < nr; i++) {
		w->frames[i].ms.maps = maps__get(w->frames[i].ms.maps);
		w->frames[i].ms.map = map__get(w->frames[i].ms.map);
	}
	if (comm_len)
		memcpy(&w->frames[nr], s->comm ?: "[unknown]", comm_len);

	if (size > FLAMEGRAPH_BUILDER_BATCH) {
		struct flamegraph_builder_batch one = { .buf = (char *)w, .len = size, };

		flamegraph_builder__sync(b);
		flamegraph_builder__walked(b, flamegraph_builder__walk_batch(b, &one,
									     /*put=*/true));
		free(w);
	}
	return b->seen_err;
}

/* Stop the thread once it has walked what is queued, and wait for it. */
static void flamegraph_builder__stop(struct flamegraph_builder *b)
{
	if (!b->threaded)
		return;
	mutex_lock(&b->lock);
	b->stop = true;
	cond_signal(&b->queued);
	mutex_unlock(&b->lock);
	pthread_join(b->thread, NULL);
	b->threaded = false;
}

int flamegraph_builder__finish(struct flamegraph_builder *b)
{
	if (!b)
		return 0;
	flamegraph_builder__sync(b);
	flamegraph_builder__stop(b);
	return b->err;
}

u64 flamegraph_builder__tree_ns(const struct flamegraph_builder *b)
{
	return b ? b->tree_ns : 0;
}

void flamegraph_builder__delete(struct flamegraph_builder *b)
{
	size_t i;

	if (!b)
		return;
	if (b->threaded) {
		/* Drop what is queued: the thread stops after its batch. */
		mutex_lock(&b->lock);
		b->nr_queued = b->nr_walked + (b->nr_queued != b->nr_walked);
		mutex_unlock(&b->lock);
		flamegraph_builder__stop(b);
	}
	/*
	 * The references of the records the thread walked, of those not
	 * walked, and of the batch being filled: every batch with records.
	 */
	for (i = 0; i < FLAMEGRAPH_BUILDER_BATCHES; i++)
		flamegraph_builder__put_batch(&b->batches[i]);
	cond_destroy(&b->queued);
	cond_destroy(&b->walked);
	mutex_destroy(&b->lock);
	for (i = 0; i < FLAMEGRAPH_BUILDER_BATCHES; i++)
		free(b->batches[i].buf);
	free(b->leaves);
	free(b->callers);
	free(b);
}
