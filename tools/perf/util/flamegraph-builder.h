/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_BUILDER_H
#define __PERF_FLAMEGRAPH_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct flamegraph;
struct flamegraph_frame;
struct flamegraph_builder;
struct flamegraph_prefetch;

/**
 * struct flamegraph_builder_sample - where one resolved sample goes
 * @comm: the sample's comm, the walk's start when @from_slot is -1
 *        (copied)
 * @from_slot: the callers slot whose node the walk starts at, or -1
 * @frames: the stack, outermost caller first (copied)
 * @nr_frames: entries in @frames
 * @insn: the sampled instruction's frame (--asm), or NULL (copied)
 * @callers_slot: the callers slot to keep the node of @frames but the last
 *                in, or -1
 * @leaf_slot: the leaf slot to keep the leaf in, or -1
 *
 * Slots stand for nodes that the thread has not made yet: the caller
 * numbers them (the slots of its caches of resolved samples and of
 * callers), a later sample refers to an earlier one's node by its slot.
 */
struct flamegraph_builder_sample {
	const char			*comm;
	long				from_slot;
	const struct flamegraph_frame	*frames;
	int				nr_frames;
	const struct flamegraph_frame	*insn;
	long				callers_slot;
	long				leaf_slot;
};

/**
 * flamegraph_builder__new - build a flame graph's tree in a second thread
 * @fg: the flame graph; the thread owns its tree until
 *      flamegraph_builder__finish()
 * @nr_leaf_slots: leaf slots (struct flamegraph_builder_sample)
 * @nr_callers_slots: callers slots
 * @prefetch: given each symbol of a new instruction leaf, or NULL
 *
 * perf's session, machine and callchain code is not thread-safe, so the
 * main thread reads and resolves the events; this thread walks the tree
 * with the frames resolved, which is mostly waiting on memory, a node per
 * level.  The samples are queued in order and walked in order: the tree
 * is the one flamegraph__walk() in the main thread would make.
 *
 * The thread reads the frames' maps, DSOs and symbols (and takes
 * references to maps when it makes nodes): call flamegraph_builder__sync()
 * before perf changes or frees any of them, that is before it processes
 * an MMAP, MMAP2, COMM, FORK, EXIT or KSYMBOL event, and before it first
 * loads a machine's kernel symbols (which splits the kernel maps).
 *
 * Return: the builder, to free with flamegraph_builder__delete(); NULL
 * when no memory or thread could be had (then add the samples to @fg in
 * the calling thread).
 */
struct flamegraph_builder *flamegraph_builder__new(struct flamegraph *fg,
						   size_t nr_leaf_slots,
						   size_t nr_callers_slots,
						   struct flamegraph_prefetch *prefetch);

/**
 * flamegraph_builder__add - queue a resolved sample
 * @b: the builder
 * @s: the sample: its frames, where its walk starts and which of the nodes
 *     to keep in which slots
 *
 * Counts the sample in its leaf, and gives flamegraph_prefetch__add() the
 * symbol of a new instruction leaf.
 *
 * Return: 0, or the first error the thread met (-ENOMEM).
 */
int flamegraph_builder__add(struct flamegraph_builder *b,
			    const struct flamegraph_builder_sample *s);

/**
 * flamegraph_builder__account - queue a sample whose leaf is in a slot
 * @b: the builder
 * @leaf_slot: the leaf slot an earlier sample with the same key filled
 *
 * Return: 0, or the first error the thread met (-ENOMEM).
 */
int flamegraph_builder__account(struct flamegraph_builder *b, long leaf_slot);

/**
 * flamegraph_builder__sync - wait until the queued samples are in the tree
 * @b: the builder, or NULL
 *
 * The thread then waits, reading nothing, until more samples are queued.
 */
void flamegraph_builder__sync(struct flamegraph_builder *b);

/**
 * flamegraph_builder__finish - add what is queued, then stop the thread
 * @b: the builder, or NULL
 *
 * The tree is the calling thread's again afterwards.
 *
 * Return: 0, or the first error the thread met (-ENOMEM).
 */
int flamegraph_builder__finish(struct flamegraph_builder *b);

/**
 * flamegraph_builder__tree_ns - time spent walking the tree, for -v
 * @b: the builder, finished
 *
 * Return: nanoseconds (CLOCK_MONOTONIC), counted only with -v.
 */
u64 flamegraph_builder__tree_ns(const struct flamegraph_builder *b);

/**
 * flamegraph_builder__delete - stop the thread if still running, and free
 * @b: the builder, or NULL
 *
 * What is queued and not yet walked is dropped.
 */
void flamegraph_builder__delete(struct flamegraph_builder *b);

#endif /* __PERF_FLAMEGRAPH_BUILDER_H */
