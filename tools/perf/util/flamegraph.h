/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_H
#define __PERF_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>
#include <linux/hash.h>
#include <linux/rbtree.h>
#include <linux/types.h>
#include "flamegraph-arena.h"
#include "map_symbol.h"

struct dso;
struct flamegraph_slot;
struct hashmap;
struct machine;
struct map;

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
 */
enum flamegraph_kind {
	FLAMEGRAPH_ROOT,
	FLAMEGRAPH_COMM,
	FLAMEGRAPH_FUNC,
	FLAMEGRAPH_UNKNOWN,
	FLAMEGRAPH_INSN,
};

/**
 * struct flamegraph_node - one frame of the flame graph
 * @rb_node: link in the parent's @children
 * @kind: what the node stands for
 * @kernel: the frame is kernel code
 * @dso: the DSO of @ms.map, NULL without a map
 * @addr: FUNC: the symbol start; INSN: the sampled IP; both map-relative
 *        (dso) addresses as used by struct symbol, not memory addresses
 * @parent: the caller, NULL for the root
 * @comm: COMM nodes: the command name (owned)
 * @children: child nodes, keyed by kind, DSO, address and comm
 * @nr_children: number of entries in @children and @sorted
 * @hash: hash of what makes the node unique under its parent, for
 *        the flame graph's child lookup (struct flamegraph's @slots)
 * @sorted: @children in output order, set by flamegraph__finish()
 * @ms: FUNC, UNKNOWN and INSN nodes: the map and symbol of the first
 *      sample that created the node (references held); @ms.sym is NULL
 *      for UNKNOWN nodes and for INSN nodes whose IP has no symbol
 * @objdump_addr: INSN: address of the instruction as perf annotate and
 *                objdump print it; FUNC: the symbol start, likewise
 * @srcline: INSN nodes: "file:line" of the instruction where debug info
 *           has it, set by flamegraph__annotate() (owned), else NULL
 * @label: the text shown, set by flamegraph__finish() or, for an instruction,
 *         flamegraph__annotate(), with flamegraph__set_label(): memory of
 *         the tree's arena
 * @self: samples that ended at this node
 * @total: @self plus the totals of all children
 *
 * A lookup of a child compares @kind, @kernel, @dso, @addr and @parent
 * of the nodes on its way: they come first, with @rb_node, so that each
 * node on the way is one cache line read (64 bytes on x86-64).
 */
struct flamegraph_node {
	struct rb_node		rb_node;
	enum flamegraph_kind	kind;
	bool			kernel;
	const struct dso	*dso;
	u64			addr;
	struct flamegraph_node	*parent;
	char			*comm;
	struct rb_root		children;
	u32			nr_children;
	size_t			hash;
	struct flamegraph_node	**sorted;
	struct map_symbol	ms;
	u64			objdump_addr;
	char			*srcline;
	char			*label;
	u64			self;
	u64			total;
};

/**
 * struct flamegraph - a flame-graph tree and its counters
 * @root: the root node ("all")
 * @nr_nodes: nodes in the tree, the root included
 * @nr_insns: instruction leaves (FLAMEGRAPH_INSN nodes)
 * @insns: the instruction leaves, in the order they were made, so that
 *         what looks at each (flamegraph__annotate(),
 *         flamegraph__add_srclines()) needs no walk of the tree; NULL
 *         after flamegraph__finish(), which merges some
 * @alloc_insns: room in @insns
 * @nr_samples: samples added
 * @warned: what flamegraph__warn_once() has warned about, NULL until then
 * @slots: the children of nodes with many children (a function can have
 *          tens of thousands of instruction leaves), keyed by parent and
 *          identity: one probe where the parent's @children rbtree takes
 *          a walk.  Open addressing, linear probing, at most half full:
 *          a slot holds a node and its @hash, so that a probe reads one
 *          cache line and only a node whose hash matches.  NULL until
 *          first needed and after flamegraph__finish().
 * @slots_mask: number of @slots minus one (a power of two minus one)
 * @nr_slotted: nodes in @slots
 * @arena: the memory of the nodes, of their @sorted arrays and labels
 */
struct flamegraph {
	struct flamegraph_node	root;
	u64			nr_nodes;
	u64			nr_insns;
	struct flamegraph_node	**insns;
	size_t			alloc_insns;
	u64			nr_samples;
	struct hashmap		*warned;
	struct flamegraph_slot	*slots;
	size_t			slots_mask;
	size_t			nr_slotted;
	struct flamegraph_arena	arena;
};

/**
 * struct flamegraph_frame - one entry of a stack passed to flamegraph__add()
 * @ms: map and symbol of the entry (borrowed; flamegraph__add() takes its
 *      own references when it creates a node)
 * @ip: memory address of the entry, as in a sample or callchain
 * @kernel: the address is kernel code
 */
struct flamegraph_frame {
	struct map_symbol	ms;
	u64			ip;
	bool			kernel;
};

/**
 * flamegraph__init - initialize an empty flame graph
 * @fg: the flame graph
 */
void flamegraph__init(struct flamegraph *fg);

/**
 * flamegraph__exit - free every node and drop the references they hold
 * @fg: the flame graph
 */
void flamegraph__exit(struct flamegraph *fg);

/**
 * flamegraph__add - account one sample
 * @fg: the flame graph
 * @comm: command name of the sampled thread
 * @frames: the stack, outermost caller first, sampled function last
 * @nr_frames: entries in @frames; 0 accounts the sample to @comm alone
 * @insn: NULL, or the sample IP and what it resolves to: add an
 *        instruction leaf under the last frame, keyed by the map-relative
 *        IP.  Its symbol, not the last frame's (which may be an inlined
 *        function with --inline), is the one disassembled.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add(struct flamegraph *fg, const char *comm,
		    const struct flamegraph_frame *frames, int nr_frames,
		    const struct flamegraph_frame *insn);

/**
 * flamegraph__add_samples - account samples that share one stack
 * @fg: the flame graph
 * @comm: command name of the sampled thread
 * @frames: the stack, as for flamegraph__add()
 * @nr_frames: entries in @frames
 * @insn: NULL, or the sampled instruction, as for flamegraph__add()
 * @nr_samples: how many samples had this stack
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_samples(struct flamegraph *fg, const char *comm,
			    const struct flamegraph_frame *frames, int nr_frames,
			    const struct flamegraph_frame *insn, u64 nr_samples);

/**
 * flamegraph__comm - the node of a command name, under the root
 * @fg: the flame graph
 * @comm: command name of the sampled thread, NULL for "[unknown]"
 *
 * Return: the node, owned by @fg (created if new), or NULL when out of
 * memory.
 */
struct flamegraph_node *flamegraph__comm(struct flamegraph *fg, const char *comm);

/**
 * flamegraph__walk - the node a stack ends at, from a node on its path
 * @fg: the flame graph
 * @node: where the stack starts: a node from flamegraph__comm() or this
 * @frames: the rest of the stack, outermost caller first
 * @nr_frames: entries in @frames
 * @insn: NULL, or the sampled instruction, as for flamegraph__add()
 *
 * flamegraph__leaf() in parts: a caller that knows the node of the
 * first part of a stack (the callers of the sampled function, say) walks
 * only the rest.  Creates the nodes that are new, counts nothing.
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
 * flamegraph__leaf - the node a stack ends at
 * @fg: the flame graph
 * @comm: command name of the sampled thread
 * @frames: the stack, as for flamegraph__add()
 * @nr_frames: entries in @frames
 * @insn: NULL, or the sampled instruction, as for flamegraph__add()
 *
 * Creates the nodes of the path that are new, counts nothing.  The node
 * stays valid until flamegraph__finish() or flamegraph__exit().
 *
 * Return: the leaf, owned by @fg, or NULL when out of memory.
 */
struct flamegraph_node *flamegraph__leaf(struct flamegraph *fg, const char *comm,
					 const struct flamegraph_frame *frames,
					 int nr_frames,
					 const struct flamegraph_frame *insn);

/**
 * flamegraph__account - count samples in a leaf
 * @fg: the flame graph
 * @leaf: a node from flamegraph__leaf()
 * @nr_samples: how many samples ended there
 */
static inline void flamegraph__account(struct flamegraph *fg,
				       struct flamegraph_node *leaf,
				       u64 nr_samples)
{
	leaf->self += nr_samples;
	fg->nr_samples += nr_samples;
}

/**
 * flamegraph__set_label - set the text a node is shown with
 * @fg: the flame graph that holds @node
 * @node: the node
 * @fmt: printf()-style format of the text, and its arguments
 *
 * The text is kept in @fg's arena, freed with the tree by
 * flamegraph__exit(), not on its own: a label set before is dropped
 * there.  Formatted on the stack and copied, which costs a quarter of
 * what asprintf() and free() cost for each of the hundreds of thousands
 * of labels of a large profile.
 *
 * Return: 0 on success, -ENOMEM, or -EINVAL when vsnprintf() can't
 * format @fmt.
 */
int flamegraph__set_label(struct flamegraph *fg, struct flamegraph_node *node,
			  const char *fmt, ...) __printf(3, 4);

/**
 * flamegraph__finish - compute totals, labels and the output order
 * @fg: the flame graph
 *
 * Call once, after all samples were added and instruction leaves were
 * labelled (flamegraph__annotate()), before any writer.  Instruction
 * leaves of one parent that got the same instruction are merged.
 * Functions whose names are shared by other sampled functions get their
 * DSO and start address appended to the label, so the two can be told
 * apart.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__finish(struct flamegraph *fg);

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
 * flamegraph__ptr_hash - hashmap hash of a pointer key (a struct symbol *,
 *                        struct dso *, ...)
 * @key: the pointer, as a long
 * @ctx: unused
 *
 * Return: the key shifted right by 4: allocations are 16-byte aligned.
 */
size_t flamegraph__ptr_hash(long key, void *ctx);

/**
 * flamegraph__hash_mix - fold a 64-bit value into a hash
 * @hash: the hash so far
 * @val: the value to add
 *
 * A multiply by the golden ratio (as linux/hash.h) and a shift, for the
 * keys of the tree's and the cache's tables.
 *
 * Return: the new hash.
 */
static inline size_t flamegraph__hash_mix(size_t hash, u64 val)
{
	hash = (hash ^ val) * GOLDEN_RATIO_64;
	return hash ^ (hash >> 29);
}

/**
 * flamegraph__ptr_equal - hashmap equality of pointer keys
 * @key1: a pointer, as a long
 * @key2: another
 * @ctx: unused
 *
 * Return: whether they are the same pointer.
 */
bool flamegraph__ptr_equal(long key1, long key2, void *ctx);

/**
 * flamegraph__warn_once - whether a warning about a DSO is still due
 * @fg: the flame graph
 * @dso: the DSO the warning is about, or NULL for addresses outside any map
 * @kernel: with @dso NULL, kernel (true) or user-space addresses
 *
 * Every reason a frame or leaf can't be named (a replaced binary, no
 * symbols, no disassembler) is reported once per DSO, by whichever part
 * finds it first.
 *
 * Return: true the first time it is called for @dso (or @kernel), when
 * the caller should print its warning; false after that.
 */
/**
 * flamegraph__dso_key - what tells a dso from another, to compare or hash
 * (not perf's struct dso_id, the identity of the file a dso was read from)
 * @dso: the dso, or NULL
 *
 * perf built with ASan checks reference counts (REFCNT_CHECKING, see
 * libperf's rc_check.h): each reference to a dso is then a pointer of its
 * own, and two references to one dso (those of two maps of a DSO, or of a
 * process and its fork's copy) are unequal pointers.  This is the object
 * they share, as RC_CHK_EQUAL() compares them; without the checking, @dso
 * itself.
 *
 * Return: the object's address as a number, to compare or hash; 0 for a
 * NULL @dso.
 */
long flamegraph__dso_key(const struct dso *dso);

bool flamegraph__warn_once(struct flamegraph *fg, const struct dso *dso,
			   bool kernel);

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
 * flamegraph_node__kind_name - name of a node's kind in JSON and HTML
 * @node: the node
 *
 * Return: "root", "comm", "func", "unknown" or "insn".
 */
const char *flamegraph_node__kind_name(const struct flamegraph_node *node);

/**
 * enum flamegraph_format - output formats of the writers
 * @FLAMEGRAPH_HTML: self-contained interactive HTML page
 * @FLAMEGRAPH_JSON: the JSON tree of perf script report flamegraph -f json
 * @FLAMEGRAPH_FOLDED: one "frame;frame;...;leaf count" line per stack
 */
enum flamegraph_format {
	FLAMEGRAPH_HTML,
	FLAMEGRAPH_JSON,
	FLAMEGRAPH_FOLDED,
};

/**
 * struct flamegraph_info - what the HTML header says about the recording
 * @title: page title
 * @input: path of the perf.data file read
 * @event: name of the event whose samples are shown
 * @hostname: host the profile was recorded on, or NULL
 * @cmdline: command line of perf record, or NULL
 * @cpu: the recording machine's CPU description, or NULL
 * @date: when the recording was made, or NULL (pipe input)
 * @version: the perf version that recorded it, or NULL
 * @header: what perf report --header-only prints for the recording, or
 *          NULL
 */
struct flamegraph_info {
	const char *title;
	const char *input;
	const char *event;
	const char *hostname;
	const char *cmdline;
	const char *cpu;
	const char *date;
	const char *version;
	const char *header;
};

/**
 * flamegraph__write_json - write the tree as JSON
 * @fg: a finished flame graph
 * @fp: output stream
 * @html_safe: also escape '<', '>' and '&' so the text can be embedded in
 *             an HTML <script> element
 *
 * Keys per node: "n" label, "l" library type ("kernel" or ""), "v" samples
 * ending at the node, "c" children, as upstream's flamegraph.py writes
 * them; plus "k" kind, "d" DSO and "a" objdump address where known.
 * Strings are valid UTF-8 (RFC 8259): invalid bytes become U+FFFD.
 *
 * Return: 0 on success, -EIO when writing failed.
 */
int flamegraph__write_json(struct flamegraph *fg, FILE *fp, bool html_safe);

/**
 * flamegraph__write_folded - write one line per distinct stack
 * @fg: a finished flame graph
 * @fp: output stream
 *
 * Lines are "comm;frame;...;leaf count" as flamegraph.pl and inferno read
 * them.  A ';' inside a name becomes ':' and a line break a space, so
 * every name stays one frame.
 *
 * Return: 0 on success, -EIO when writing failed.
 */
int flamegraph__write_folded(struct flamegraph *fg, FILE *fp);

/**
 * flamegraph__write_html - write a self-contained interactive page
 * @fg: a finished flame graph
 * @fp: output stream
 * @info: what the page header shows about the recording
 *
 * The page embeds its own CSS and JavaScript and the JSON tree and makes
 * no network request.  Names are data, never markup.
 *
 * Return: 0 on success, -EIO when writing failed.
 */
int flamegraph__write_html(struct flamegraph *fg, FILE *fp,
			   const struct flamegraph_info *info);

/**
 * flamegraph__write_template - fill in a d3-flame-graph HTML template
 * @fg: a finished flame graph
 * @fp: output stream
 * @tmpl: the template's text, as upstream's flamegraph.py reads it
 *        (d3-flame-graph's d3-flamegraph-base.html)
 * @info: its "context" option is @info->header
 *
 * As flamegraph.py: "/\*\* @flamegraph_json **\/" becomes the tree as
 * flamegraph__write_json() writes it, "/\*\* @options_json **\/" the
 * options {"colorscheme": "blue-green", "context": header}; both escaped
 * for a <script> element.
 *
 * Return: 0 on success, -EINVAL if the template lacks the tree's marker,
 * -EIO when writing failed.
 */
int flamegraph__write_template(struct flamegraph *fg, FILE *fp,
			       const char *tmpl,
			       const struct flamegraph_info *info);

/**
 * json__put_string - write a JSON string literal
 * @fp: output stream
 * @s: NUL-terminated bytes, any encoding
 * @html_safe: escape '<', '>' and '&' as \u00XX as well
 *
 * Control characters are escaped; bytes that are not valid UTF-8 are
 * replaced by U+FFFD, so the output is always valid RFC 8259 JSON.
 */
void json__put_string(FILE *fp, const char *s, bool html_safe);

/**
 * flamegraph__put_u64 - write a number in decimal, as printf()'s "%" PRIu64
 * @fp: output stream
 * @v: the number
 *
 * The writers put one or more numbers per node: printf()'s format parsing
 * was a third of the JSON writer's time.
 */
void flamegraph__put_u64(FILE *fp, u64 v);

/**
 * flamegraph__put_long - write a signed number in decimal, as "%ld"
 * @fp: output stream
 * @v: the number
 */
void flamegraph__put_long(FILE *fp, long v);

/**
 * flamegraph__put_hex - write a number in hexadecimal, as "%#" PRIx64
 * @fp: output stream
 * @v: the number (an address): "0x" and lowercase digits, or "0"
 */
void flamegraph__put_hex(FILE *fp, u64 v);

#endif /* __PERF_FLAMEGRAPH_H */
