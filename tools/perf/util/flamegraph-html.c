// SPDX-License-Identifier: GPL-2.0
/*
 * The HTML page of a flame graph: the viewer (util/flamegraph-viewer.*)
 * around the graphs' data, or a d3-flame-graph template filled in.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/build_bug.h>
#include <linux/err.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "flamegraph.h"
#include "flamegraph-html.h"
#include "flamegraph-output.h"
#include "hashmap.h"
#include "json.h"
#include "strbuf.h"

#include <util/flamegraph-viewer.h>

/* Text in HTML element content or attribute values: never markup. */
static void html__put_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			fputc(*s, fp);
			break;
		}
	}
}

int flamegraph_strings__init(struct flamegraph_strings *hs)
{
	*hs = (struct flamegraph_strings){
		.index = hashmap__new(flamegraph__str_hash, flamegraph__str_equal, NULL),
	};
	if (IS_ERR(hs->index)) {
		hs->index = NULL;
		return -ENOMEM;
	}
	return 0;
}

void flamegraph_strings__exit(struct flamegraph_strings *hs)
{
	hashmap__free(hs->index);
	zfree(&hs->strings);
}

void flamegraph_strings__write(const struct flamegraph_strings *hs, FILE *fp)
{
	size_t i;

	fputc('[', fp);
	for (i = 0; i < hs->nr; i++) {
		if (i)
			fputc(',', fp);
		json__put_string(fp, hs->strings[i], /*html_safe=*/true);
	}
	fputc(']', fp);
}

long flamegraph_strings__add(struct flamegraph_strings *hs, const char *s)
{
	long idx;

	if (!s)
		return -1;
	if (hashmap__find(hs->index, s, &idx))
		return idx;
	if (flamegraph__grow(&hs->strings, &hs->alloc, hs->nr + 1, sizeof(*hs->strings)))
		return -ENOMEM;
	if (hashmap__add(hs->index, s, hs->nr))
		return -ENOMEM;
	hs->strings[hs->nr] = s;
	return hs->nr++;
}

static int flamegraph_node__collect(const struct flamegraph_node *node,
				    struct flamegraph_strings *hs)
{
	u32 i;

	if (flamegraph_strings__add(hs, node->label) < -1 ||
	    flamegraph_strings__add(hs, flamegraph_node__dso_name(node)) < -1 ||
	    flamegraph_strings__add(hs, flamegraph_node__srcline(node)) < -1)
		return -ENOMEM;
	for (i = 0; i < node->nr_children; i++) {
		if (flamegraph_node__collect(node->sorted[i], hs))
			return -ENOMEM;
	}
	return 0;
}

int flamegraph_node__page_flags(const struct flamegraph_node *node)
{
	int flags = node->kind;

	BUILD_BUG_ON(FLAMEGRAPH_TRUNCATED > FLAMEGRAPH_PAGE_KIND_MASK);
	if (node->kernel)
		flags |= FLAMEGRAPH_PAGE_KERNEL;
	if (flamegraph_node__is_jit(node))
		flags |= FLAMEGRAPH_PAGE_JIT;
	return flags;
}

void flamegraph_node__put_page_addr(const struct flamegraph_node *node, FILE *fp)
{
	fputc('"', fp);
	if (node->kind == FLAMEGRAPH_FUNC || node->kind == FLAMEGRAPH_INSN)
		flamegraph__put_hex(fp, node->objdump_addr);
	fputc('"', fp);
}

/*
 * [label, flags, dso, self, addr, srcline, [children], samples], and for
 * a frame of a function with its code on the page, its index and call
 * sites: see the viewer.
 */
static void flamegraph_node__write_compact(const struct flamegraph_node *node,
					   struct flamegraph_strings *hs, FILE *fp)
{
	long label, dso, srcline;
	u32 i;

	/* Collected before: found, not added. */
	label = flamegraph_strings__add(hs, node->label);
	dso = flamegraph_strings__add(hs, flamegraph_node__dso_name(node));
	srcline = flamegraph_strings__add(hs, flamegraph_node__srcline(node));
	/* No fprintf() per node: see flamegraph__put_u64(). */
	fputc('[', fp);
	flamegraph__put_long(fp, label);
	fputc(',', fp);
	flamegraph__put_long(fp, flamegraph_node__page_flags(node));
	fputc(',', fp);
	flamegraph__put_long(fp, dso);
	fputc(',', fp);
	flamegraph__put_u64(fp, node->self);
	fputc(',', fp);
	flamegraph_node__put_page_addr(node, fp);
	fputc(',', fp);
	flamegraph__put_long(fp, srcline);
	fputs(",[", fp);
	for (i = 0; i < node->nr_children; i++) {
		if (i)
			fputc(',', fp);
		flamegraph_node__write_compact(node->sorted[i], hs, fp);
	}
	fputs("],", fp);
	flamegraph__put_u64(fp, node->samples);
	if (node->function) {
		fputc(',', fp);
		flamegraph__put_u64(fp, node->function - 1);
		fputc(',', fp);
		flamegraph_node__put_callsites(node, fp, /*offsets=*/true);
	}
	fputc(']', fp);
}

/*
 * The functions of flamegraph__put_functions() more compactly, as a
 * page of a large profile carries tens of thousands of instructions:
 * each instruction [offset from the start, text, source, line], and
 * its "file:line" only where it has no source; its numbers, in "w",
 * only where one is not 0: [index in "i", self weight, samples, weight
 * called through it, samples likewise].
 */
static void flamegraph__put_page_functions(const struct flamegraph *fg, FILE *fp)
{
	size_t i, j;

	fputs("\"functions\":[", fp);
	for (i = 0; i < fg->nr_functions; i++) {
		const struct flamegraph_function *fn = &fg->functions[i];
		bool first = true;

		fputs(i ? ",\n{" : "{", fp);
		flamegraph_function__put_json_keys(fn, fp, /*html_safe=*/true);
		fputs(",\"i\":[", fp);
		for (j = 0; j < fn->nr_insns; j++) {
			const struct flamegraph_function_insn *insn = &fn->insns[j];

			fputs(j ? ",[" : "[", fp);
			flamegraph__put_u64(fp, insn->addr - fn->start);
			fputc(',', fp);
			json__put_string(fp, insn->text, /*html_safe=*/true);
			fputc(',', fp);
			flamegraph__put_long(fp, insn->source);
			fputc(',', fp);
			flamegraph__put_u64(fp, insn->line);
			if (insn->source < 0 && insn->srcline) {
				fputc(',', fp);
				json__put_string(fp, insn->srcline, /*html_safe=*/true);
			}
			fputc(']', fp);
		}
		fputs("],\"w\":[", fp);
		for (j = 0; j < fn->nr_insns; j++) {
			const struct flamegraph_function_insn *insn = &fn->insns[j];

			if (!insn->self && !insn->calls)
				continue;
			fputs(first ? "[" : ",[", fp);
			first = false;
			flamegraph__put_u64(fp, j);
			flamegraph_function_insn__put_weights(insn, fp);
			fputc(']', fp);
		}
		fputs("]}", fp);
	}
	fputs("],", fp);
	flamegraph__put_sources(fg, fp, /*html_safe=*/true);
}

static void html__put_info(FILE *fp, bool *first, const char *key,
			   const char *value)
{
	if (!value || *value == '\0')
		return;
	fprintf(fp, "%s\"%s\":", *first ? "" : ",", key);
	json__put_string(fp, value, /*html_safe=*/true);
	*first = false;
}

/* The graph's own part of the page's info: its event, unit and view. */
static void html__put_graph_info(FILE *fp, bool *first, const struct flamegraph *fg,
				 const struct flamegraph_labels *labels, bool with_weight)
{
	html__put_info(fp, first, "event", labels->event);
	if (with_weight)
		html__put_info(fp, first, "weight", flamegraph_weight__name(fg->weight));
	html__put_info(fp, first, "unit", labels->unit);
	html__put_info(fp, first, "view", labels->view);
	if (labels->report_total) {
		fprintf(fp, "%s\"report_total\":%" PRIu64, *first ? "" : ",",
			labels->report_total);
		*first = false;
	}
}

/*
 * One graph: its event, unit and view in "info" and its tree as "root".
 * Several: each with its own in "graphs", the first shown first.
 */
/* The graphs of flamegraph__write_pages(), for flamegraph__write_data(). */
struct flamegraph_pages {
	struct flamegraph		**graphs;
	const struct flamegraph_labels	*labels;
	int				nr_graphs;
	const struct flamegraph_info	*info;
};

static int flamegraph__write_data(FILE *fp, void *arg)
{
	struct flamegraph_pages *pages = arg;
	struct flamegraph **graphs = pages->graphs;
	const struct flamegraph_labels *labels = pages->labels;
	const struct flamegraph_info *info = pages->info;
	int nr_graphs = pages->nr_graphs;
	struct flamegraph_strings hs;
	bool first = true;
	int err, g;

	err = flamegraph_strings__init(&hs);
	if (err)
		return err;
	for (g = 0; g < nr_graphs && !err; g++)
		err = flamegraph_node__collect(&graphs[g]->root, &hs);
	if (err)
		goto out;

	fputs("{\"v\":1,\"info\":{", fp);
	html__put_info(fp, &first, "input", info->input);
	html__put_info(fp, &first, "host", info->hostname);
	if (nr_graphs == 1)
		html__put_graph_info(fp, &first, graphs[0], &labels[0], /*with_weight=*/true);
	else
		html__put_info(fp, &first, "weight", flamegraph_weight__name(graphs[0]->weight));
	html__put_info(fp, &first, "cmdline", info->cmdline);
	html__put_info(fp, &first, "cpu", info->cpu);
	html__put_info(fp, &first, "date", info->date);
	html__put_info(fp, &first, "version", info->version);
	html__put_info(fp, &first, "header", info->header);
	fputs("},\n\"strings\":", fp);
	flamegraph_strings__write(&hs, fp);
	if (nr_graphs == 1) {
		fputs(",\n\"root\":", fp);
		flamegraph_node__write_compact(&graphs[0]->root, &hs, fp);
		if (graphs[0]->nr_functions) {
			fputs(",\n", fp);
			flamegraph__put_page_functions(graphs[0], fp);
		}
	} else {
		fputs(",\n\"graphs\":[", fp);
		for (g = 0; g < nr_graphs; g++) {
			first = true;
			fputs(g ? ",\n{\"info\":{" : "{\"info\":{", fp);
			html__put_graph_info(fp, &first, graphs[g], &labels[g],
					     /*with_weight=*/false);
			fputs("},\"root\":", fp);
			flamegraph_node__write_compact(&graphs[g]->root, &hs, fp);
			if (graphs[g]->nr_functions) {
				fputs(",\n", fp);
				flamegraph__put_page_functions(graphs[g], fp);
			}
			fputc('}', fp);
		}
		fputc(']', fp);
	}
	fputc('}', fp);
out:
	flamegraph_strings__exit(&hs);
	return err;
}

int flamegraph__write_page(FILE *fp, const struct flamegraph_info *info,
			   int (*write_data)(FILE *fp, void *arg), void *arg)
{
	int err;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n", fp);
	/* No request leaves the page, whatever it holds. */
	fputs("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n", fp);
	fputs("<title>", fp);
	html__put_text(fp, info->title ?: "perf flamegraph");
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>",
		flamegraph_viewer_css);
	html__put_text(fp, info->title ?: "perf flamegraph");
	fprintf(fp, "</h1>\n%s", flamegraph_viewer_body);
	fputs("<script type=\"application/json\" id=\"fg-data\">", fp);
	err = write_data(fp, arg);
	if (err)
		return err;
	fprintf(fp, "</script>\n<script>\n%s</script>\n</body></html>\n",
		flamegraph_viewer_js);
	return ferror(fp) ? -EIO : 0;
}

int flamegraph__write_pages(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			    int nr_graphs, FILE *fp, const struct flamegraph_info *info)
{
	struct flamegraph_pages pages = {
		.graphs	   = graphs,
		.labels	   = labels,
		.nr_graphs = nr_graphs,
		.info	   = info,
	};

	return flamegraph__write_page(fp, info, flamegraph__write_data, &pages);
}

int flamegraph__write_html(struct flamegraph *fg, const struct flamegraph_labels *labels,
			   FILE *fp, const struct flamegraph_info *info)
{
	return flamegraph__write_pages(&fg, labels, 1, fp, info);
}

static const char flamegraph_json_marker[] = "/** @flamegraph_json **/";
static const char options_json_marker[] = "/** @options_json **/";

/* d3-flame-graph's template is 60 KB: more is no template (/dev/zero). */
#define FLAMEGRAPH_TEMPLATE_MAX	(16 << 20)

/*
 * Read whole, to its end, up to FLAMEGRAPH_TEMPLATE_MAX: filename__read_str()
 * stops at the first byte >= 0x80, and the d3-flame-graph template holds
 * UTF-8; strbuf_read() has no limit.
 */
int flamegraph__read_template(const char *path, char **tmpl)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[BUFSIZ];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		pr_err("--template %s: %s\n", path, strerror(errno));
		goto out_err;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("--template %s: is a directory\n", path);
		goto out_err;
	}
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || strbuf_add(&sb, buf, n)) {
			pr_err("--template %s: cannot read it\n", path);
			goto out_err;
		}
		if (sb.len > FLAMEGRAPH_TEMPLATE_MAX) {
			pr_err("--template %s: larger than %d MB, no template\n", path,
			       FLAMEGRAPH_TEMPLATE_MAX >> 20);
			goto out_err;
		}
	}
	close(fd);
	/* NULL for an empty file: nothing was read into the buffer. */
	*tmpl = strbuf_detach(&sb, NULL);
	if (!*tmpl || !strstr(*tmpl, flamegraph_json_marker)) {
		pr_err("--template %s: no %s in it to replace\n", path,
		       flamegraph_json_marker);
		return -EINVAL;
	}
	return 0;
out_err:
	if (fd >= 0)
		close(fd);
	strbuf_release(&sb);
	return -EINVAL;
}

int flamegraph__write_template(struct flamegraph *fg,
			       const struct flamegraph_labels *labels, FILE *fp,
			       const char *tmpl, const struct flamegraph_info *info)
{
	const char *p = tmpl;

	if (!strstr(tmpl, flamegraph_json_marker))
		return -EINVAL;
	while (*p) {
		const char *tree = strstr(p, flamegraph_json_marker);
		const char *opts = strstr(p, options_json_marker);
		const char *next = tree;

		if (!next || (opts && opts < next))
			next = opts;
		if (!next) {
			fputs(p, fp);
			break;
		}
		fwrite(p, 1, next - p, fp);
		if (next == tree) {
			flamegraph__write_json(fg, labels, fp, /*html_safe=*/true);
			p = next + strlen(flamegraph_json_marker);
		} else {
			fputs("{\"colorscheme\":\"blue-green\",\"context\":", fp);
			json__put_string(fp, info->header, /*html_safe=*/true);
			fputc('}', fp);
			p = next + strlen(options_json_marker);
		}
	}
	return ferror(fp) ? -EIO : 0;
}
