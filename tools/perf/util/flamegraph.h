/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_H
#define __PERF_FLAMEGRAPH_H

#include <stdbool.h>
#include <linux/rbtree.h>
#include <linux/types.h>
#include "map_symbol.h"

struct dso;
struct hashmap;
struct machine;
struct map;
struct perf_sample;

/**
 * enum flamegraph_kind - what a flame-graph node stands for
 * @FLAMEGRAPH_ROOT: the single root, labelled "all"
 * @FLAMEGRAPH_COMM: a command name (comm), the first level below the root
 * @FLAMEGRAPH_FUNC: a symbol, keyed by its DSO and start address, never by
 *                   name, so two static functions sharing a name stay apart
 * @FLAMEGRAPH_UNKNOWN: addresses without a symbol, one node per DSO, as
 *                      perf report shows them ("[unknown]")
 * @FLAMEGRAPH_INSN: the sampled instruction (--asm), a leaf under the
 *                   function or unknown node it was sampled in
 * @FLAMEGRAPH_TRUNCATED: "[truncated]", between a comm and the frames kept
 *                        of callchains that were cut, so that their
 *                        outermost frame doesn't look like a caller
 */
enum flamegraph_kind {
	FLAMEGRAPH_ROOT,
	FLAMEGRAPH_COMM,
	FLAMEGRAPH_FUNC,
	FLAMEGRAPH_UNKNOWN,
	FLAMEGRAPH_INSN,
	FLAMEGRAPH_TRUNCATED,
};

/**
 * struct flamegraph_insn - one sampled instruction, wherever it was called
 * @ms: the map and symbol of the IP (references held); @ms.sym is NULL
 *      for an IP that no symbol covers
 * @addr: the IP as a map-relative (dso) address, as struct symbol's
 * @objdump_addr: the IP as perf annotate and objdump print it
 *                (map__rip_2objdump())
 * @kernel: the IP is kernel code
 * @text: the instruction at @addr as the disassembler prints it (owned),
 *        set by flamegraph__decode_insns(); NULL where it can't be had
 * @srcline: "file:line" of the instruction (owned, freed with the tree),
 *           where a caller looked it up; else NULL
 * @weight: the weight (struct flamegraph_node's @self) of every leaf of
 *          this instruction, set by flamegraph__count_insns()
 *
 * Every leaf (FLAMEGRAPH_INSN node) of one IP points to its one
 * struct flamegraph_insn: each distinct IP is decoded once.
 */
struct flamegraph_insn {
	struct map_symbol	ms;
	u64			addr;
	u64			objdump_addr;
	bool			kernel;
	char			*text;
	char			*srcline;
	u64			weight;
};

/**
 * struct flamegraph_call - a call instruction, over all contexts
 * @weight: the weight of the samples whose stacks leave a frame of its
 *          function by it, each sample counted once however many of its
 *          frames do (recursion)
 * @samples: the number of those samples
 * @counted: its function's row has it (flamegraph__add_functions())
 *
 * Shared by the call sites (struct flamegraph_callsite) of every frame of
 * its function at the same address.
 */
struct flamegraph_call {
	u64	weight;
	u64	samples;
	bool	counted;
};

/**
 * struct flamegraph_callsite - a call out of a frame, and what went through it
 * @next: the next call site of the same node
 * @addr: the return address of the call, as a map-relative (dso) address,
 *        as struct symbol's: the caller's callchain entry, plus 1 where
 *        an unwinder gave the return address minus 1
 *        (struct flamegraph_frame's @unwound)
 * @weight: the weight of the samples whose stacks pass this node and
 *          leave it by this call (struct flamegraph_node's @self unit)
 * @samples: the number of those samples
 * @call: the call instruction, over all the contexts of its function
 *
 * Counted by flamegraph__account_callsites() for FUNC nodes, inlined ones
 * excepted, after flamegraph__track_callsites().
 */
struct flamegraph_callsite {
	struct flamegraph_callsite	*next;
	u64				addr;
	u64				weight;
	u64				samples;
	struct flamegraph_call		*call;
};

/**
 * struct flamegraph_function_insn - one instruction of a function's whole code
 * @addr: its address as perf annotate and objdump print it
 * @text: the instruction as the disassembler prints it (owned)
 * @srcline: "file:line" of it (owned), or NULL
 * @source: index of its file in struct flamegraph's @sources, or -1
 * @line: its line in that file, or 0
 * @self: the weight of the samples at this instruction, in all contexts,
 *        as perf annotate counts them
 * @samples: their number
 * @calls: for a call, the weight of the samples whose stacks leave the
 *         function through it (the next instruction is the return
 *         address), in all contexts; else 0
 * @call_samples: their number
 */
struct flamegraph_function_insn {
	u64	addr;
	char	*text;
	char	*srcline;
	int	source;
	u32	line;
	u64	self;
	u64	samples;
	u64	calls;
	u64	call_samples;
};

/**
 * struct flamegraph_fileloc - an instruction's source line, as perf
 *                             annotate's disassembler gave it
 * @file: the source file, the path LLVM's symbolizer (or objdump -l)
 *        gives (the line table's, joined to the compilation directory),
 *        owned; NULL where the debug info has no line for the instruction
 * @line: its line in @file, or 0
 */
struct flamegraph_fileloc {
	char	*file;
	u32	line;
};

/**
 * struct flamegraph_function - a sampled function and its whole code
 * @ms: its map and symbol (references held)
 * @start: the symbol start as perf annotate and objdump print it
 * @self: the weight of the samples in it, in all contexts
 * @samples: their number
 * @insns: every instruction of the symbol, in address order (owned)
 * @nr_insns: entries in @insns; 0 where the code can't be had
 * @filelocs: the source line of each of @insns that perf annotate's
 *            disassembler gave, until flamegraph__add_function_srclines()
 *            takes them (owned); NULL where it gave none
 * @why: with no @insns, why (owned); else NULL
 */
struct flamegraph_function {
	struct map_symbol		ms;
	u64				start;
	u64				self;
	u64				samples;
	struct flamegraph_function_insn	*insns;
	size_t				nr_insns;
	struct flamegraph_fileloc	*filelocs;
	char				*why;
};

/**
 * struct flamegraph_source - lines of a source file, as read when written
 * @path: the file, as the debug info names it, joined to the compilation
 *        directory where that is relative (owned)
 * @first: the number of the first line of @lines
 * @lines: the lines @first on, without their newline (owned, each too)
 * @nr_lines: entries in @lines; 0 where the file can't be read or changed
 *            since the binary was built
 * @why: with no @lines, why (owned); else NULL
 */
struct flamegraph_source {
	char	*path;
	u32	first;
	char	**lines;
	u32	nr_lines;
	char	*why;
};

/**
 * struct flamegraph_node - one frame of the flame graph
 * @rb_node: link in the parent's @children
 * @kind: what the node stands for
 * @kernel: the frame is kernel code
 * @dso: the DSO of the frame, NULL without a map
 * @addr: FUNC: the symbol start; INSN: the sampled IP; both map-relative
 *        (dso) addresses as used by struct symbol, not memory addresses
 * @parent: the caller, NULL for the root
 * @self: the weight of the samples that ended at this node: the sum of
 *        their periods, as perf report's Overhead, or their number
 *        (enum flamegraph_weight)
 * @samples: the number of samples that ended at this node
 * @inlined: FUNC nodes of an inlined function (--inline), which starts
 *           where its caller does: its name; else NULL
 * @hint: the child found last, tried first
 * @children: child nodes but instruction leaves, keyed by kind, DSO,
 *            address and comm
 * @leaves: the instruction leaves below the node, linked by @next
 * @next: the next of its parent's @leaves
 * @nr_children: number of nodes in @children and @leaves
 * @sorted: @children in output order, set by flamegraph__finish()
 * @comm: COMM nodes: the command name (owned)
 * @ms: FUNC and UNKNOWN nodes: the map and symbol of the first sample
 *      that created the node (references held); @ms.sym is NULL for
 *      UNKNOWN nodes
 * @insn: INSN nodes: the instruction
 * @objdump_addr: FUNC: the symbol start as perf annotate and objdump print
 *                it; INSN: the IP, likewise
 * @label: the text shown (owned), set by flamegraph__finish()
 * @total: @self plus the totals of all children, set by flamegraph__finish()
 * @total_samples: @samples plus those of all children, likewise
 * @callsites: FUNC nodes: the calls out of the frame that samples' stacks
 *             went through (flamegraph__track_callsites()), in no order
 * @function: FUNC nodes of a function in struct flamegraph's @functions:
 *            its index there plus one; else 0
 *
 * A walk down the tree compares the key of the nodes on its way (@kind,
 * @kernel, @dso, @addr; @parent for leaves, which are counted in @self):
 * they come first, with @rb_node, in the first 64 bytes.
 */
struct flamegraph_node {
	struct rb_node		rb_node;
	enum flamegraph_kind	kind;
	bool			kernel;
	const struct dso	*dso;
	u64			addr;
	struct flamegraph_node	*parent;
	u64			self;
	u64			samples;
	const char		*inlined;
	struct flamegraph_node	*hint;
	struct rb_root		children;
	struct flamegraph_node	*leaves;
	struct flamegraph_node	*next;
	u32			nr_children;
	struct flamegraph_node	**sorted;
	char			*comm;
	struct map_symbol	ms;
	struct flamegraph_insn	*insn;
	u64			objdump_addr;
	char			*label;
	u64			total;
	u64			total_samples;
	struct flamegraph_callsite *callsites;
	u32			function;
};

/**
 * enum flamegraph_weight - what a node's value sums
 * @FLAMEGRAPH_WEIGHT_PERIOD: the periods of its samples, so that shares
 *                            are perf report's Overhead (the default)
 * @FLAMEGRAPH_WEIGHT_SAMPLES: its samples, one each, as upstream's
 *                             flamegraph.py counts them
 */
enum flamegraph_weight {
	FLAMEGRAPH_WEIGHT_PERIOD,
	FLAMEGRAPH_WEIGHT_SAMPLES,
};

/**
 * struct flamegraph_sample_opts - how flamegraph__add_sample() reads a sample
 * @max_stack: callchain entries to resolve, at least 1:
 *             thread__resolve_callchain()'s max_stack, perf report's
 *             --max-stack
 * @callchains: resolve the sample's callchain (symbol_conf.use_callchain);
 *              else a stack is the sampled function alone
 * @stacks_by_key: the sample's callchain, as recorded, tells its stack
 *                 (struct flamegraph_stack_key): a frame-pointer
 *                 callchain, which perf resolves from the sample alone;
 *                 not a DWARF unwinder's copy of the user stack, nor an
 *                 LBR call stack, which the key doesn't hold
 * @callers_by_key: likewise, the callchain after the sample IP tells the
 *                  node of the sampled function's callers: perf resolves
 *                  each callchain entry on its own (add_callchain_ip());
 *                  not with --inline (more frames for the IP), guest code,
 *                  callchains in caller order or with a skipped entry
 * @insn_leaves: each stack ends in an instruction leaf, the instruction at
 *               the sample IP (perf flamegraph --asm)
 *
 * The caller decides these from its options and the event (struct evsel's
 * attr, callchain_param) when it makes the graph, before the first sample.
 */
struct flamegraph_sample_opts {
	int			max_stack;
	bool			callchains;
	bool			stacks_by_key;
	bool			callers_by_key;
	bool			insn_leaves;
};

/**
 * struct flamegraph_stats - what became of the samples given to
 *                           flamegraph__add_sample()
 * @nr_resolved: samples machine__resolve() resolved, rather than going
 *               where a sample of the same stack went
 * @nr_by_callers: of those, samples of whose callchain only the IP was
 *                 resolved, their callers' node found where it went before
 * @nr_unresolved: samples machine__resolve() failed on: not in the tree
 * @nr_filtered: samples left out of the tree by perf's filters (struct
 *               addr_location's @filtered: --comm, --dso, --symbols),
 *               and those the caller's own filters leave out, which it
 *               counts here
 */
struct flamegraph_stats {
	u64			nr_resolved;
	u64			nr_by_callers;
	u64			nr_unresolved;
	u64			nr_filtered;
};

/**
 * struct flamegraph - a flame-graph tree and its counters
 * @root: the root node ("all")
 * @nr_nodes: nodes in the tree, the root included
 * @nr_leaves: instruction leaves (FLAMEGRAPH_INSN nodes)
 * @weight: what the nodes' @self and @total sum
 * @nr_samples: samples added
 * @sample_opts: how flamegraph__add_sample() reads a sample, set by the
 *               caller after flamegraph__init(), before the first sample
 * @stats: what became of the samples given to flamegraph__add_sample()
 * @frames: the callchain of the sample being added, outermost caller first
 * @alloc_frames: room in @frames
 * @insns: the distinct sampled instructions, in no particular order, for
 *         flamegraph__decode_insns() and whoever else looks up what is
 *         at their addresses
 * @nr_insns: entries in @insns
 * @alloc_insns: room in @insns
 * @insn_index: @insns by DSO and IP
 * @leaves: the instruction leaves, by parent and instruction: a function
 *          may have thousands
 * @stacks: the node of each stack seen (flamegraph__find_stack())
 * @generations: per PID, how often its stacks were forgotten
 * @generation: how often all stacks were forgotten
 * @warned: what flamegraph__warn_once() has warned about
 * @warn_with: NULL, or the graph whose @warned is used instead
 * @callsite_index: the call sites of all nodes, by node and address;
 *                  NULL unless flamegraph__track_callsites() was called
 * @call_index: the call instructions of those call sites, by DSO and
 *              address, likewise
 * @nr_accounted: calls of flamegraph__account_callsites(), each sample's
 *                number, so that a sample counts once on a call
 *                instruction that several of its frames left by
 * @path: the call sites of the stack walked last, for
 *        flamegraph__account_callsites() and flamegraph__add_stack()
 * @nr_path: entries in @path
 * @alloc_path: room in @path
 * @functions: the sampled functions whose whole code the writers carry,
 *             set by flamegraph__add_functions() (owned)
 * @nr_functions: entries in @functions
 * @sources: the source files of their instructions (owned)
 * @nr_sources: entries in @sources
 */
struct flamegraph {
	struct flamegraph_node	root;
	u64			nr_nodes;
	u64			nr_leaves;
	enum flamegraph_weight	weight;
	u64			nr_samples;
	struct flamegraph_sample_opts sample_opts;
	struct flamegraph_stats	stats;
	struct flamegraph_frame	*frames;
	size_t			alloc_frames;
	struct flamegraph_insn	**insns;
	size_t			nr_insns;
	size_t			alloc_insns;
	struct hashmap		*insn_index;
	struct hashmap		*leaves;
	struct hashmap		*stacks;
	struct hashmap		*generations;
	u64			generation;
	struct hashmap		*warned;
	struct flamegraph	*warn_with;
	struct hashmap		*callsite_index;
	struct hashmap		*call_index;
	u64			nr_accounted;
	struct flamegraph_callsite **path;
	size_t			nr_path;
	size_t			alloc_path;
	struct flamegraph_function *functions;
	size_t			nr_functions;
	struct flamegraph_source *sources;
	size_t			nr_sources;
};

/**
 * struct flamegraph_frame - one entry of a stack passed to flamegraph__leaf()
 * @ms: map and symbol of the entry (borrowed; the tree takes its own
 *      references when it keeps them)
 * @ip: memory address of the entry, as in a sample or callchain
 * @kernel: the address is kernel code
 * @unwound: @ip is the return address minus 1, as perf's DWARF unwinders
 *           give a caller's entry (dwfl_frame_pc()'s !isactivation), so
 *           that it resolves to the call's function and line; frame-pointer
 *           callchains hold the return address itself
 */
struct flamegraph_frame {
	struct map_symbol	ms;
	u64			ip;
	bool			kernel;
	bool			unwound;
};

/**
 * flamegraph_weight__name - the name of a weight, as --value takes it
 * @weight: the weight
 *
 * Return: "period" or "samples", a static string.
 */
const char *flamegraph_weight__name(enum flamegraph_weight weight);

/**
 * flamegraph__init - initialize an empty flame graph
 * @fg: the flame graph
 * @weight: what its nodes' values sum
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph__init(struct flamegraph *fg, enum flamegraph_weight weight);

/**
 * flamegraph__exit - free every node and drop the references they hold
 * @fg: the flame graph
 */
void flamegraph__exit(struct flamegraph *fg);

/**
 * flamegraph__leaf - the node a stack ends at, created as needed
 * @fg: the flame graph
 * @comm: command name of the sampled thread, NULL for "[unknown]"
 * @truncated: the callchain was cut (the recording's or --max-stack's
 *             limit): the stack goes below a "[truncated]" node
 * @frames: the stack, outermost caller first, sampled function last
 * @nr_frames: entries in @frames; 0 ends the stack at @comm
 * @insn: NULL, or the sample IP and what it resolves to: the stack ends
 *        in an instruction leaf under the last frame, keyed by the
 *        map-relative IP.  Its symbol, not the last frame's (which may be
 *        an inlined function with --inline), is the one of the
 *        instruction.
 *
 * Counts nothing: see flamegraph__account().  The node stays valid until
 * flamegraph__exit().
 *
 * Return: the leaf, owned by @fg, or NULL when out of memory.
 */
struct flamegraph_node *flamegraph__leaf(struct flamegraph *fg, const char *comm,
					 bool truncated,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn);

/**
 * flamegraph__walk - the node a stack ends at, from a node on its way
 * @fg: the flame graph
 * @node: where the rest of the stack starts: a node of @fg, or NULL
 * @frames: the rest of the stack, outermost caller first
 * @nr_frames: entries in @frames
 * @insn: NULL, or the sampled instruction, as for flamegraph__leaf()
 *
 * flamegraph__leaf() in parts: a caller that knows the node of the first
 * part of a stack (the callers of the sampled function) walks the rest.
 *
 * Return: the last node, owned by @fg, or NULL when out of memory or
 * @node is NULL.
 */
struct flamegraph_node *flamegraph__walk(struct flamegraph *fg,
					 struct flamegraph_node *node,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn);

/**
 * flamegraph__account - count samples that ended at a leaf
 * @fg: the flame graph
 * @leaf: a node from flamegraph__leaf()
 * @nr_samples: how many samples
 * @period: the sum of their periods (struct perf_sample's @period), in
 *          the event's unit: ns for clock events, else events counted
 */
void flamegraph__account(struct flamegraph *fg, struct flamegraph_node *leaf,
			 u64 nr_samples, u64 period);

/**
 * flamegraph__track_callsites - count the calls out of each frame
 * @fg: the flame graph, no sample added yet
 *
 * From then on, each stack walked (flamegraph__leaf()) notes the call
 * site of each of its frames but the last, its callchain entry (the
 * return address), for flamegraph__account_callsites() to count: which
 * call in a function, in the frame's calling context, leads to the
 * weight below it.
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph__track_callsites(struct flamegraph *fg);

struct flamegraph_stack;

/**
 * flamegraph__account_callsites - count samples on the call sites of a stack
 * @fg: the flame graph
 * @stack: the stack the samples went the way of (flamegraph__find_stack(),
 *         flamegraph__add_stack()), or NULL for the stack walked last
 * @nr_samples: how many samples
 * @period: the sum of their periods, as flamegraph__account()'s
 *
 * Does nothing unless flamegraph__track_callsites() was called.
 */
void flamegraph__account_callsites(struct flamegraph *fg,
				   const struct flamegraph_stack *stack,
				   u64 nr_samples, u64 period);

/**
 * flamegraph__count_insns - sum the weight of each instruction's leaves
 * @fg: the flame graph
 *
 * Sets each struct flamegraph_insn's @weight: done once, not for each
 * sample, as the leaves count them.
 */
void flamegraph__count_insns(struct flamegraph *fg);

/**
 * struct flamegraph_stack_key - what decides where a sample goes in the tree
 * @machine: the machine of the sample
 * @pid: its process, whose maps resolve its addresses
 * @tid: its thread, whose comm is the first frame
 * @cpumode: the sample's cpumode (PERF_RECORD_MISC_*)
 * @callers: the key is of the sampled function's callers only: @ip is 0
 *           and @ips the callchain after the sample IP
 * @ip: the sample IP
 * @nr: entries in @ips
 * @ips: the callchain as recorded, PERF_CONTEXT_* markers included
 *
 * For frame-pointer callchains, perf resolves a sample from these alone,
 * as long as the process's maps and comm don't change.
 */
struct flamegraph_stack_key {
	const struct machine	*machine;
	s32			pid;
	s32			tid;
	u8			cpumode;
	bool			callers;
	u64			ip;
	u64			nr;
	const u64		*ips;
};

/**
 * flamegraph__find_stack - a stack seen before
 * @fg: the flame graph
 * @key: the sample's key
 *
 * Return: what flamegraph__add_stack() remembered for @key (owned by @fg),
 * or NULL if @key was not seen since its process's stacks were last
 * forgotten (flamegraph__forget_stacks()).
 */
struct flamegraph_stack *flamegraph__find_stack(struct flamegraph *fg,
						const struct flamegraph_stack_key *key);

/**
 * flamegraph__add_stack - remember where a stack went
 * @fg: the flame graph
 * @key: the sample's key; the tree copies @key->ips
 * @node: the leaf from flamegraph__leaf(), the node of the callers for a
 *        @key->callers key, or NULL for a sample that was filtered out
 *
 * With flamegraph__track_callsites(), the stack keeps the call sites of
 * the stack walked last, which went to @node (none for a NULL @node).
 *
 * Return: the stack (owned by @fg), or NULL when out of memory (only the
 * next sample of @key pays for it).
 */
struct flamegraph_stack *flamegraph__add_stack(struct flamegraph *fg,
					       const struct flamegraph_stack_key *key,
					       struct flamegraph_node *node);

/**
 * flamegraph_stack__node - the node remembered for a stack
 * @stack: from flamegraph__find_stack() or flamegraph__add_stack()
 *
 * Return: the node given to flamegraph__add_stack().
 */
struct flamegraph_node *flamegraph_stack__node(const struct flamegraph_stack *stack);

/**
 * flamegraph__forget_stacks - stop trusting what stacks resolved to
 * @fg: the flame graph
 * @pid: the process whose maps or comm changed (an MMAP, COMM, FORK or
 *       EXIT of it), or -1 for all of them (the kernel's maps changed)
 *
 * Stacks of other processes stay: a new process starting costs nothing
 * to the others.
 */
void flamegraph__forget_stacks(struct flamegraph *fg, s32 pid);

/**
 * flamegraph__add_sample - add a sample to the tree, counted at its leaf
 * @fg: the flame graph, its @sample_opts set
 * @sample: the sample, of an event whose samples @fg shows, its @evsel set
 *          (borrowed)
 * @machine: the machine the sample is of, which resolves its addresses
 *
 * The way of a sample into the tree, as perf report's
 * process_sample_event() makes it with machine__resolve() and
 * hist_entry_iter__add(): a sample whose stack (or its callers', with
 * @sample_opts' @callers_by_key) was seen before goes where that one went
 * (flamegraph__find_stack()); else machine__resolve() resolves its IP,
 * thread__resolve_callchain() its callchain, up to @sample_opts'
 * @max_stack entries, and the tree remembers where it went
 * (flamegraph__add_stack()).  The stack is cut above the sampled function
 * to the sample IP's context (flamegraph_frames__sampled()), under a
 * "[truncated]" node if the callchain was cut, and with @sample_opts'
 * @insn_leaves ends in the instruction at the sample IP.  Its period
 * counts at its leaf (flamegraph__account()) and on its call sites
 * (flamegraph__account_callsites()).
 *
 * From the event itself (@sample's @evsel attr), as the recording made
 * it: whether a callchain was cut, as many addresses as the kernel keeps
 * (attr.sample_max_stack, else PERF_MAX_STACK_DEPTH) or a DWARF unwinder
 * stopped at @max_stack user frames (PERF_SAMPLE_STACK_USER); and
 * whether the user entries of its callchain are a DWARF unwinder's
 * (PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER and
 * exclude_callchain_user), whose callers' addresses are the return
 * address minus 1 (struct flamegraph_frame's @unwound).
 *
 * @fg's @stats count what became of the sample.  A sample that
 * machine__resolve() fails on, or that perf's filters leave out, is not
 * an error.
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph__add_sample(struct flamegraph *fg, struct perf_sample *sample,
			   struct machine *machine);

/**
 * flamegraph__finish - compute totals, labels and the output order
 * @fg: the flame graph
 *
 * Call once, after all samples were added and instructions decoded
 * (flamegraph__decode_insns()), before any writer.  Functions whose names
 * are shared by other sampled functions get their DSO and start address
 * appended to the label, so the two can be told apart.  Frames of inlined
 * functions (--inline) are labelled "name (inlined)", as perf report and
 * perf script print them: their address is their caller's, and an inlined
 * copy of a function does not make its name ambiguous.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__finish(struct flamegraph *fg);

/**
 * flamegraph__kernel_unmapped - samples that ended in kernel code with no map
 * @fg: a finished flame graph
 *
 * perf record finds no kernel map when /proc/kallsyms hides the kernel's
 * addresses (kernel.kptr_restrict): such samples have no names.
 *
 * Return: their number (samples, not periods, whatever the graph's
 * weight).
 */
u64 flamegraph__kernel_unmapped(const struct flamegraph *fg);

/**
 * typedef flamegraph_unnamed_fn - a DSO with frames no symbol names
 * @dso: the DSO
 * @samples: samples under such frames of it
 * @data: flamegraph__unnamed()'s
 */
typedef void (*flamegraph_unnamed_fn)(const struct dso *dso, u64 samples,
				      void *data);

/**
 * flamegraph__unnamed - the user-space frames that no symbol names
 * @fg: a finished flame graph
 * @fn: called for each outermost [unknown] frame in a DSO: a frame of one
 *      under another of the same DSO was counted with it
 * @data: passed to @fn
 *
 * A DSO without a symbol table (a stripped binary) names none of its
 * frames but those of its exported functions: perf can name them from
 * its debug file, which debuginfod may have.
 */
void flamegraph__unnamed(const struct flamegraph *fg, flamegraph_unnamed_fn fn,
			 void *data);

/**
 * flamegraph_frame__is_kernel - whether a callchain entry is kernel code
 * @machine: the machine of the sample
 * @map: the entry's map, or NULL when the address is in none
 * @ip: the entry's memory address
 *
 * Return: true for kernel and kernel module maps, and, without a map, for
 * addresses in the machine's kernel range.
 */
bool flamegraph_frame__is_kernel(struct machine *machine, struct map *map,
				 u64 ip);

/**
 * flamegraph_frames__sampled - how many frames of a callchain end at the
 *                              sampled function
 * @frames: the callchain's frames, outermost caller first
 * @nr: how many there are
 * @kernel: the sample IP is kernel code
 *
 * A callchain can start with entries of another context than the sample
 * IP's: an LBR call stack takes its kernel part from the interrupt, which
 * can come in the kernel after a precise event's user instruction.  perf
 * report charges the sample to the function of the sample IP; so does the
 * flame graph: those entries at the callee end are dropped.
 *
 * Return: the number of frames to keep, from the start of @frames; 0 when
 * none is of the sample IP's context.
 */
int flamegraph_frames__sampled(const struct flamegraph_frame *frames, int nr,
			       bool kernel);

/*
 * util/hashmap callbacks for the flame-graph units' tables: keys that are
 * NUL-terminated strings, compared by their text; and keys that are
 * their own hash (a pointer, a hash computed beforehand), compared as
 * numbers.
 */
size_t flamegraph__str_hash(long key, void *ctx);
bool flamegraph__str_equal(long key1, long key2, void *ctx);
size_t flamegraph__key_hash(long key, void *ctx);
bool flamegraph__key_equal(long key1, long key2, void *ctx);

/**
 * flamegraph__grow - make room in an array that grows
 * @array: the address of the array's pointer (realloc()ed; NULL when it
 *         has no room yet)
 * @alloc: its room, in entries; updated
 * @need: the entries it must have room for
 * @size: an entry's size in bytes
 *
 * The one way the flame-graph units grow their arrays: the room is
 * doubled, from 16 entries, until @need fit, so an array filled one entry
 * at a time is copied O(log n) times, as libbpf_ensure_mem() does.  What
 * is added is not zeroed.
 *
 * Return: 0, or -ENOMEM with @array and @alloc as they were.
 */
int flamegraph__grow(void *array, size_t *alloc, size_t need, size_t size);

/* A hash of @hash and @value, as libbpf combines them (hash_bits() mixes). */
static inline size_t flamegraph__hash_combine(size_t hash, u64 value)
{
	return hash * 31 + value;
}

/**
 * flamegraph__warn_once - whether a warning about a DSO is still due
 * @fg: the flame graph
 * @dso: the DSO the warning is about, or NULL for addresses outside any map
 * @kernel: with @dso NULL, kernel (true) or user-space addresses
 *
 * Every reason a frame or leaf can't be named (a replaced binary, no
 * symbols, no disassembler) is reported once per DSO, by whichever part
 * finds it first: per build-id (else path), so that one binary in two
 * sessions (two recordings compared) is one DSO.
 *
 * Return: true the first time it is called for @dso (or @kernel); false
 * after that.
 */
bool flamegraph__warn_once(struct flamegraph *fg, const struct dso *dso,
			   bool kernel);

/**
 * flamegraph__share_warnings - warn once for all the graphs of a session
 * @fg: a graph
 * @with: the graph whose warnings @fg's flamegraph__warn_once() counts
 *        from now on, as if they were its own; not to be freed before @fg
 *        is done with
 *
 * A session's DSOs are the same for each of its events' graphs, and
 * two recordings of a program share most of theirs: what was said about
 * one is not said again for the next.
 */
void flamegraph__share_warnings(struct flamegraph *fg, struct flamegraph *with);

/**
 * flamegraph_node__dso_name - short name of the DSO of a node
 * @node: the node
 *
 * Return: the DSO's short name, or NULL for the root and comm nodes and
 * for addresses outside any map.
 */
const char *flamegraph_node__dso_name(const struct flamegraph_node *node);

/**
 * flamegraph_node__is_jit - whether a node is JIT-compiled code
 * @node: the node
 *
 * Return: true if its DSO is a /tmp/perf-PID.map (perf's name for
 * anonymous executable memory) or a jitted-PID-N.so image written by
 * perf inject --jit.
 */
bool flamegraph_node__is_jit(const struct flamegraph_node *node);

/**
 * flamegraph_node__srcline - the source line shown for a node
 * @node: the node
 *
 * Return: "file:line" of an instruction leaf's instruction where one was
 * looked up (struct flamegraph_insn's @srcline), else NULL.
 */
const char *flamegraph_node__srcline(const struct flamegraph_node *node);

#endif /* __PERF_FLAMEGRAPH_H */
