/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_PREFETCH_H
#define __PERF_FLAMEGRAPH_PREFETCH_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

struct debuginfo;
struct dso;
struct flamegraph_prefetch;
struct map_symbol;
struct symbol;

/**
 * flamegraph_prefetch__new - decode sampled symbols while events are read
 * @dwarf: also open the DWARF of each DSO with sampled symbols, for
 *         flamegraph__add_srclines(), when there is nothing to decode
 *
 * perf flamegraph --asm decodes each sampled symbol of a user-space
 * image from its start (flamegraph__insn_starts()) to find its sampled
 * instructions.  That needs no more than the symbol, known from its
 * first sample on: a thread started here decodes the symbols given to
 * flamegraph_prefetch__add() while the main thread goes on reading
 * events.  It only reads DSOs through perf's dso data layer and decodes
 * with a capstone handle of its own; it starts no process.  With @dwarf,
 * it opens the DWARF of each of their DSOs that has 64 instruction leaves
 * as flamegraph__add_srclines() would (debuginfo__new() of
 * flamegraph__dwarf_name(): libdw opens the files), where it has no
 * symbol to decode.
 *
 * Return: the prefetcher, to free with flamegraph_prefetch__delete();
 * NULL when perf has no capstone, or no thread or memory could be had
 * (then flamegraph__annotate() decodes every symbol itself).
 */
struct flamegraph_prefetch *flamegraph_prefetch__new(bool dwarf);

/**
 * flamegraph_prefetch__add - decode a sampled symbol in the background
 * @pf: the prefetcher, or NULL
 * @ms: the map and symbol of a sample IP; nothing is done for a NULL
 *      symbol, a symbol given before, or one not in a user-space image
 *      (flamegraph__user_image())
 *
 * Takes a reference to the symbol's DSO, which holds the symbol, until
 * flamegraph_prefetch__delete().  Called from one thread, the one that
 * builds the tree (util/flamegraph-builder.h), and not after
 * flamegraph_prefetch__finish().  Failing to queue the symbol (out of
 * memory) only leaves it to flamegraph__annotate().
 */
void flamegraph_prefetch__add(struct flamegraph_prefetch *pf,
			      const struct map_symbol *ms);

/**
 * flamegraph_prefetch__finish - stop the thread, decode what it hasn't
 * @pf: the prefetcher, or NULL
 *
 * Stops the thread after the symbol it is decoding and the DWARF queued
 * to be opened (flamegraph_prefetch__new()), waits for it, then decodes
 * the queued symbols it had not taken, in the calling thread:
 * never both at once, as two threads reading one DSO would race in
 * perf's dso data cache, which is looked up without a lock.  Call it
 * before anything starts a process (objdump): perf's run_command() pipes
 * are not meant for threads.
 */
void flamegraph_prefetch__finish(struct flamegraph_prefetch *pf);

/**
 * flamegraph_prefetch__starts - the instruction starts of a decoded symbol
 * @pf: the prefetcher, finished (flamegraph_prefetch__finish()), or NULL
 * @sym: the symbol
 * @starts: set to the bitmap flamegraph__insn_starts() made, owned by @pf
 *          (NULL unless the return is 0)
 * @code: set to the symbol's bytes, from its start to its end, as
 *        flamegraph_decoder__code() gave them, owned by @pf (NULL unless
 *        the return is 0)
 * @is_64bit: set to whether they are 64-bit code (when the return is 0)
 *
 * Return: what flamegraph__insn_starts() returned for @sym (0, -ENOEXEC,
 * -ENOENT, -ENOMEM), or -ESRCH when @sym was not decoded here.
 */
int flamegraph_prefetch__starts(struct flamegraph_prefetch *pf,
				const struct symbol *sym,
				const unsigned long **starts,
				const u8 **code, bool *is_64bit);

/**
 * flamegraph_prefetch__take_dwarf - the DWARF of a DSO, opened ahead
 * @pf: the prefetcher, finished, or NULL
 * @dso: the DSO
 * @dbg: set to its DWARF, NULL when none was found; the caller owns it
 *       (debuginfo__delete())
 *
 * Return: true when the thread opened (or looked for) @dso's DWARF and
 * it was not taken before; false otherwise, with @dbg unchanged.
 */
bool flamegraph_prefetch__take_dwarf(struct flamegraph_prefetch *pf,
				     const struct dso *dso,
				     struct debuginfo **dbg);

/**
 * flamegraph_prefetch__nr_decoded - symbols decoded, for perf flamegraph -v
 * @pf: the prefetcher, finished, or NULL
 * @in_thread: set to how many of them the thread decoded while the
 *             events were read, the rest were decoded by
 *             flamegraph_prefetch__finish() after them
 *
 * Return: the number of symbols decoded.
 */
size_t flamegraph_prefetch__nr_decoded(const struct flamegraph_prefetch *pf,
				       size_t *in_thread);

/**
 * flamegraph_prefetch__delete - stop the thread, and free everything
 * @pf: the prefetcher, or NULL
 *
 * Stops the thread if flamegraph_prefetch__finish() didn't (the symbols
 * it hadn't taken are not decoded), and puts the DSO references
 * flamegraph_prefetch__add() took.
 */
void flamegraph_prefetch__delete(struct flamegraph_prefetch *pf);

#endif /* __PERF_FLAMEGRAPH_PREFETCH_H */
