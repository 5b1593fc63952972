/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_HTML_H
#define __PERF_FLAMEGRAPH_HTML_H

#include <stdio.h>
#include <linux/types.h>

#include "flamegraph-output.h"

struct flamegraph;
struct flamegraph_node;
struct hashmap;

/*
 * The flags of a page's node ([label, flags, dso, ...]), as
 * flamegraph-viewer.js reads them: the node's kind (enum flamegraph_kind)
 * in the low bits, then whether it is kernel code and JIT code.
 */
#define FLAMEGRAPH_PAGE_KIND_MASK	7
#define FLAMEGRAPH_PAGE_KERNEL		8
#define FLAMEGRAPH_PAGE_JIT		16

/**
 * flamegraph_node__page_flags - a node's flags on the page
 * @node: the node
 *
 * Return: its kind, FLAMEGRAPH_PAGE_KERNEL and FLAMEGRAPH_PAGE_JIT ored.
 */
int flamegraph_node__page_flags(const struct flamegraph_node *node);

/**
 * flamegraph_node__put_page_addr - write a node's address on the page
 * @node: the node
 * @fp: output stream
 *
 * A function's or an instruction's objdump address as "0x..." in
 * quotes (the hover card shows it as it is), "" for other nodes.
 */
void flamegraph_node__put_page_addr(const struct flamegraph_node *node, FILE *fp);

/**
 * struct flamegraph_strings - the string table of a page's data
 * @index: each string's index in @strings (a util/hashmap)
 * @strings: the strings, each once (borrowed: they must outlive the table)
 * @nr: entries in @strings
 * @alloc: room in @strings
 *
 * The viewer's nodes name their label, DSO and source line by index:
 * a name many frames share is written once.
 */
struct flamegraph_strings {
	struct hashmap	*index;
	const char	**strings;
	size_t		nr;
	size_t		alloc;
};

/**
 * flamegraph_strings__init - an empty string table
 * @hs: the table
 *
 * Return: 0, or -ENOMEM.
 */
int flamegraph_strings__init(struct flamegraph_strings *hs);

/**
 * flamegraph_strings__add - a string's index in the table, added if new
 * @hs: the table
 * @s: the string (borrowed), or NULL
 *
 * Return: its index, -1 for NULL, or -ENOMEM.
 */
long flamegraph_strings__add(struct flamegraph_strings *hs, const char *s);

/**
 * flamegraph_strings__write - write the table as a JSON array, html-safe
 * @hs: the table
 * @fp: output stream
 */
void flamegraph_strings__write(const struct flamegraph_strings *hs, FILE *fp);

/**
 * flamegraph_strings__exit - free the table (not its strings)
 * @hs: the table
 */
void flamegraph_strings__exit(struct flamegraph_strings *hs);

/**
 * flamegraph__write_page - a page of the viewer around some data
 * @fp: output stream
 * @info: the page's title
 * @write_data: writes the page's data, the JSON the viewer reads (see
 *              util/flamegraph-viewer.js), html-safe; returns 0 or -errno
 * @arg: for @write_data
 *
 * Return: 0, @write_data's error, or -EIO when writing failed.
 */
int flamegraph__write_page(FILE *fp, const struct flamegraph_info *info,
			   int (*write_data)(FILE *fp, void *arg), void *arg);

/**
 * flamegraph__write_html - write a self-contained interactive page of one graph
 * @fg: a finished flame graph
 * @labels: its event, unit and view, for the page's header
 * @fp: output stream
 * @info: what the page header shows about the recording
 *
 * The page embeds its own CSS and JavaScript (util/flamegraph-viewer.*)
 * and the tree as compact JSON with a string table, and makes no network
 * request.  Names are data, never markup.
 *
 * Return: 0 on success, -ENOMEM, -EIO when writing failed.
 */
int flamegraph__write_html(struct flamegraph *fg, const struct flamegraph_labels *labels,
			   FILE *fp, const struct flamegraph_info *info);

/**
 * flamegraph__write_pages - write a page of several graphs
 * @graphs: finished flame graphs, one per event, the page's default at [0]
 * @labels: each graph's event, unit and view, as @graphs
 * @nr_graphs: entries in @graphs and @labels, at least 1
 * @fp: output stream
 * @info: what the page header shows about the recording
 *
 * As flamegraph__write_html(), the page offering a switch between the
 * graphs when there are several.
 *
 * Return: 0 on success, -ENOMEM, -EIO when writing failed.
 */
int flamegraph__write_pages(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			    int nr_graphs, FILE *fp, const struct flamegraph_info *info);

/**
 * flamegraph__read_template - read a d3-flame-graph HTML template
 * @path: the template's file (--template)
 * @tmpl: set to its text, to free()
 *
 * Return: 0, or -EINVAL after one line that names the problem: the file
 * can't be read, is a directory, is over 16 MB (a device without end),
 * or has no "/\*\* @flamegraph_json **\/" to replace.
 */
int flamegraph__read_template(const char *path, char **tmpl);

/**
 * flamegraph__write_template - fill in a d3-flame-graph HTML template
 * @fg: a finished flame graph
 * @labels: what the tree's root says about it
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
int flamegraph__write_template(struct flamegraph *fg,
			       const struct flamegraph_labels *labels, FILE *fp,
			       const char *tmpl, const struct flamegraph_info *info);

#endif /* __PERF_FLAMEGRAPH_HTML_H */
