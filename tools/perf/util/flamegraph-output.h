/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_OUTPUT_H
#define __PERF_FLAMEGRAPH_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include <linux/types.h>

struct flamegraph;
struct flamegraph_function;
struct flamegraph_function_insn;
struct flamegraph_node;

/**
 * enum flamegraph_format - output formats of the writers
 * @FLAMEGRAPH_HTML: self-contained interactive HTML page
 * @FLAMEGRAPH_JSON: the JSON tree of perf script report flamegraph -f json
 * @FLAMEGRAPH_FOLDED: one "frame;frame;...;leaf count" line per stack
 * @FLAMEGRAPH_PPROF: pprof's gzip-compressed profile.proto, every sample
 *                    IP and callchain entry a location at its address
 *                    (bt_convert__perf2pprof())
 */
enum flamegraph_format {
	FLAMEGRAPH_HTML,
	FLAMEGRAPH_JSON,
	FLAMEGRAPH_FOLDED,
	FLAMEGRAPH_PPROF,
};

/**
 * flamegraph__parse_format - the output format a user asked for
 * @format_str: --format's value ("html", "json", "folded" or "pprof"), or
 *              NULL
 * @output: the output file name, whose extension picks the format when
 *          @format_str is NULL: .json, .folded or .txt, .pb.gz or .pprof
 *          (pprof's own names for its files), .html or .htm, else html
 * @format: set to the format
 *
 * A @format_str that is not the format @output's extension names is
 * written as asked, after a one-line warning.
 *
 * Return: 0, or -EINVAL after printing one line for an unknown format.
 */
int flamegraph__parse_format(const char *format_str, const char *output,
			     enum flamegraph_format *format);

/**
 * flamegraph_format__name - the name of a format, as --format takes it
 * @format: the format
 *
 * Return: "html", "json", "folded" or "pprof".
 */
const char *flamegraph_format__name(enum flamegraph_format format);

/**
 * flamegraph_format__has_code - whether a format carries whole functions
 * @format: the format
 *
 * The JSON and the page carry the whole code of the hottest functions
 * and the source lines of the hottest instructions beside the tree
 * (flamegraph__add_code()); folded stacks and pprof profiles don't.
 *
 * Return: true for FLAMEGRAPH_HTML and FLAMEGRAPH_JSON.
 */
bool flamegraph_format__has_code(enum flamegraph_format format);

/**
 * struct flamegraph_info - what the HTML header says about the recording
 * @title: page title
 * @input: path of the perf.data file read
 * @hostname: host the profile was recorded on, or NULL
 * @cmdline: command line of perf record, or NULL
 * @cpu: the recording machine's CPU description, or NULL
 * @date: when the recording was made, or NULL (pipe input)
 * @version: the perf version that recorded it, or NULL
 * @header: what perf report --header-only prints for the recording, or
 *          NULL
 * @date_buf: where flamegraph_info__init() writes @date
 */
struct flamegraph_info {
	const char *title;
	const char *input;
	const char *hostname;
	const char *cmdline;
	const char *cpu;
	const char *date;
	const char *version;
	const char *header;
	char date_buf[64];
};

/**
 * struct flamegraph_labels - what the writers say about a graph besides
 *                            its tree, made by the command that built it
 * @event: the name of the event whose samples these are (borrowed); NULL
 *         where not known
 * @unit: the unit of its periods (evsel__period_unit()) (borrowed); NULL
 *        where not known
 * @view: how the graph differs from the recording's (filters, samples
 *        left out), for the page's header (borrowed); NULL: it doesn't
 * @report_total: perf report --flamegraph: the total period perf report's
 *                percentages are of (hists__total_period(): what filters
 *                and --percent-limit left out is in it), for the page to
 *                show them beside its own shares; 0 elsewhere
 */
struct flamegraph_labels {
	const char	*event;
	const char	*unit;
	const char	*view;
	u64		report_total;
};

/**
 * flamegraph__write_json - write the tree as JSON
 * @fg: a finished flame graph
 * @labels: what the root says about it
 * @fp: output stream
 * @html_safe: also escape '<', '>' and '&' so the text can be embedded in
 *             an HTML <script> element
 *
 * Keys per node: "n" label, "l" library type ("kernel" or ""), "v" value
 * of the samples ending at the node (@fg's weight: their periods, or
 * their number), "c" children, as upstream's flamegraph.py writes them;
 * plus "s" the number of those samples, "k" kind, "d" DSO and "a"
 * objdump address where known, and in the root "weight", the name of
 * @fg's weight (flamegraph_weight__name()), "event", @labels' event,
 * and "unit", that of "v": "samples", or with periods @labels' unit
 * (evsel__period_unit(): "ns" for time), and for perf report
 * --flamegraph "report_total", @labels' @report_total.  With @fg's
 * @functions set, the root also has their table
 * (flamegraph__put_functions()), and each of their frames "F", its
 * function's index in it, and "x", its call sites
 * (flamegraph_node__put_callsites()).
 * Strings are valid UTF-8 (RFC 8259): invalid bytes become U+FFFD.
 *
 * Return: 0 on success, -EIO when writing failed.
 */
int flamegraph__write_json(struct flamegraph *fg, const struct flamegraph_labels *labels,
			   FILE *fp, bool html_safe);

/**
 * flamegraph_function__put_json_keys - write what a function is
 * @fn: a function of a graph's @functions
 * @fp: output stream
 * @html_safe: as flamegraph__write_json()'s
 *
 * The keys "n", "d", "b", "a", "v", "s" and "why" of
 * flamegraph__put_functions(), without braces.
 */
void flamegraph_function__put_json_keys(const struct flamegraph_function *fn, FILE *fp,
					bool html_safe);

/**
 * flamegraph_function_insn__put_weights - write an instruction's numbers
 * @insn: an instruction of a function of a graph's @functions
 * @fp: output stream
 *
 * ",self,samples,calls,call_samples", as flamegraph__put_functions()'s
 * instructions end.
 */
void flamegraph_function_insn__put_weights(const struct flamegraph_function_insn *insn,
					   FILE *fp);

/**
 * flamegraph__put_sources - write a graph's source files
 * @fg: a finished flame graph, its @sources set
 *      (flamegraph__add_function_srclines())
 * @fp: output stream
 * @html_safe: as flamegraph__write_json()'s
 *
 * The key "sources" of flamegraph__put_functions().
 */
void flamegraph__put_sources(const struct flamegraph *fg, FILE *fp, bool html_safe);

/**
 * flamegraph__put_functions - write a graph's functions and their sources
 * @fg: a finished flame graph, its @functions set
 *      (flamegraph__add_functions())
 * @fp: output stream
 * @html_safe: as flamegraph__write_json()'s
 *
 * Writes the JSON keys "functions", an array of each function's "n"
 * symbol name, "d" DSO, "b" build-id where it has one, "a" start, "v"
 * and "s" its self weight and samples in all contexts, "why" where its
 * code can't be had, and "i" its instructions, each an array [objdump
 * address, text, "file:line" or null, index in "sources" or -1, line,
 * self weight, samples, weight called through it, samples likewise];
 * and "sources", an array of each file's "f" path, "first" line number,
 * "lines" from it on, and "why" where they can't be shown.
 */
void flamegraph__put_functions(const struct flamegraph *fg, FILE *fp, bool html_safe);

/**
 * flamegraph_node__put_callsites - write a frame's call sites
 * @node: a FUNC node whose function is in its graph's @functions
 * @fp: output stream
 * @offsets: each return address as its offset from the function's start
 *           (a number), as the page has them; else as objdump prints it
 *           (a hexadecimal string), as the JSON has them
 *
 * As a JSON array of [return address, weight, samples]: what left the
 * frame through the call before that address, in this frame's context.
 */
void flamegraph_node__put_callsites(const struct flamegraph_node *node, FILE *fp,
				    bool offsets);

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
 * flamegraph_node__write_folded_path - write a node's stack as folded does
 * @node: a node of a finished flame graph, not its root
 * @fp: output stream
 *
 * Its frames from the outermost (the comm) to @node, as
 * flamegraph__write_folded() writes them before a line's count.
 */
void flamegraph_node__write_folded_path(const struct flamegraph_node *node, FILE *fp);

/**
 * flamegraph_node__put_json_keys - write a node's keys as the JSON writer does
 * @node: the node
 * @self: its "v", the weight of the samples that end at it
 * @samples: its "s", their number
 * @fp: output stream
 * @html_safe: as for flamegraph__write_json()
 * @fg: for the root, the graph whose "weight" it names; NULL below
 * @labels: for the root, its "event", "unit" and "report_total"; NULL
 *          below
 *
 * "n", "l", "v", "s", the root's keys, "k", "d" and "a", as
 * flamegraph__write_json() documents them, without the braces and "c":
 * the --diff writer adds its keys after them.
 */
void flamegraph_node__put_json_keys(const struct flamegraph_node *node, u64 self,
				    u64 samples, FILE *fp, bool html_safe,
				    const struct flamegraph *fg,
				    const struct flamegraph_labels *labels);

/**
 * flamegraph__put_u64 - write a number in decimal
 * @fp: output stream
 * @v: the number
 *
 * The writers put one or more numbers per node: printf()'s format
 * parsing was a third of the JSON writer's time.
 */
void flamegraph__put_u64(FILE *fp, u64 v);

/**
 * flamegraph__put_long - write a signed number in decimal
 * @fp: output stream
 * @v: the number
 */
void flamegraph__put_long(FILE *fp, long v);

/**
 * flamegraph__put_hex - write a number as printf()'s "%#" PRIx64 does
 * @fp: output stream
 * @v: the number: "0x" and lowercase digits, or "0"
 */
void flamegraph__put_hex(FILE *fp, u64 v);

/**
 * flamegraph__write_trees - write finished flame graphs as JSON or folded
 * @graphs: the graphs, flamegraph__finish()ed, one per event
 * @labels: each graph's event, unit and view, as @graphs
 * @nr_graphs: entries in @graphs and @labels, at least 1
 * @fp: output stream
 * @format: FLAMEGRAPH_JSON or FLAMEGRAPH_FOLDED
 *
 * One graph is written as flamegraph__write_json() and _folded() write
 * it.  Several: JSON is an array of their trees, folded lines start with
 * a frame that names their event.
 *
 * Return: 0 on success, -EINVAL for another format, -EIO when writing
 * failed.
 */
int flamegraph__write_trees(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			    int nr_graphs, FILE *fp, enum flamegraph_format format);

#endif /* __PERF_FLAMEGRAPH_OUTPUT_H */
