// SPDX-License-Identifier: GPL-2.0
/*
 * The writers of perf flamegraph: JSON in the shape of upstream's "perf
 * script report flamegraph -f json" and folded stacks as flamegraph.pl
 * reads them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "debug.h"
#include "dso.h"
#include "build-id.h"
#include "flamegraph.h"
#include "flamegraph-output.h"
#include "json.h"
#include "map.h"
#include "symbol.h"

/*
 * The writers put one or more numbers per node: printf()'s format parsing
 * was a third of the JSON writer's time.
 */
void flamegraph__put_u64(FILE *fp, u64 v)
{
	char buf[20];	/* 18446744073709551615 */
	int i = sizeof(buf);

	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	fwrite(buf + i, 1, sizeof(buf) - i, fp);
}

void flamegraph__put_long(FILE *fp, long v)
{
	if (v < 0) {
		fputc('-', fp);
		flamegraph__put_u64(fp, -(u64)v);
		return;
	}
	flamegraph__put_u64(fp, v);
}

/* "%#" PRIx64: "0x" and lowercase digits, or "0". */
void flamegraph__put_hex(FILE *fp, u64 v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[18];	/* 0x and 16 digits */
	int i = sizeof(buf);

	/* printf()'s "%#x" has no 0x for zero. */
	if (!v) {
		fputc('0', fp);
		return;
	}
	do {
		buf[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	fwrite(buf + i, 1, sizeof(buf) - i, fp);
}

/* A node's kind, as JSON's "k" names it. */
static const char *flamegraph_node__kind_name(const struct flamegraph_node *node)
{
	static const char * const names[] = {
		[FLAMEGRAPH_ROOT]	= "root",
		[FLAMEGRAPH_COMM]	= "comm",
		[FLAMEGRAPH_FUNC]	= "func",
		[FLAMEGRAPH_UNKNOWN]	= "unknown",
		[FLAMEGRAPH_INSN]	= "insn",
		[FLAMEGRAPH_TRUNCATED]	= "truncated",
	};

	return names[node->kind];
}

void flamegraph_node__put_json_keys(const struct flamegraph_node *node, u64 self,
				    u64 samples, FILE *fp, bool html_safe,
				    const struct flamegraph *fg,
				    const struct flamegraph_labels *labels)
{
	const char *dso = flamegraph_node__dso_name(node);

	/* No fprintf() per node: its format parsing cost a third of the write. */
	fputs("\"n\":", fp);
	json__put_string(fp, node->label ?: "", html_safe);
	fputs(node->kernel ? ",\"l\":\"kernel\",\"v\":" : ",\"l\":\"\",\"v\":", fp);
	flamegraph__put_u64(fp, self);
	fputs(",\"s\":", fp);
	flamegraph__put_u64(fp, samples);
	if (fg) {
		fputs(",\"weight\":\"", fp);
		fputs(flamegraph_weight__name(fg->weight), fp);
		fputc('"', fp);
	}
	if (fg && labels->event) {
		fputs(",\"event\":", fp);
		json__put_string(fp, labels->event, html_safe);
	}
	if (fg && (labels->unit || fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES)) {
		fputs(",\"unit\":", fp);
		json__put_string(fp, fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES ? "samples" :
				 labels->unit, html_safe);
	}
	if (fg && labels->report_total) {
		fputs(",\"report_total\":", fp);
		flamegraph__put_u64(fp, labels->report_total);
	}
	fputs(",\"k\":\"", fp);
	fputs(flamegraph_node__kind_name(node), fp);
	fputc('"', fp);
	if (dso) {
		fputs(",\"d\":", fp);
		json__put_string(fp, dso, html_safe);
	}
	if (node->kind == FLAMEGRAPH_FUNC || node->kind == FLAMEGRAPH_INSN) {
		fputs(",\"a\":\"", fp);
		flamegraph__put_hex(fp, node->objdump_addr);
		fputc('"', fp);
	}
}

void flamegraph_node__put_callsites(const struct flamegraph_node *node, FILE *fp,
				    bool offsets)
{
	const struct flamegraph_callsite *cs;

	fputc('[', fp);
	for (cs = node->callsites; cs; cs = cs->next) {
		fputs(cs == node->callsites ? "[" : ",[", fp);
		if (offsets) {
			flamegraph__put_u64(fp, cs->addr - node->addr);
		} else {
			fputc('"', fp);
			flamegraph__put_hex(fp, node->objdump_addr + cs->addr - node->addr);
			fputc('"', fp);
		}
		fputc(',', fp);
		flamegraph__put_u64(fp, cs->weight);
		fputc(',', fp);
		flamegraph__put_u64(fp, cs->samples);
		fputc(']', fp);
	}
	fputc(']', fp);
}

void flamegraph_function_insn__put_weights(const struct flamegraph_function_insn *insn,
					   FILE *fp)
{
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->self);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->samples);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->calls);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->call_samples);
}

static void json__put_string_or_null(FILE *fp, const char *str, bool html_safe)
{
	if (str)
		json__put_string(fp, str, html_safe);
	else
		fputs("null", fp);
}

void flamegraph_function__put_json_keys(const struct flamegraph_function *fn, FILE *fp,
					bool html_safe)
{
	struct dso *dso = map__dso(fn->ms.map);
	char bid[SBUILD_ID_SIZE];

	fputs("\"n\":", fp);
	json__put_string(fp, fn->ms.sym->name, html_safe);
	fputs(",\"d\":", fp);
	json__put_string(fp, dso__short_name(dso), html_safe);
	if (dso__has_build_id(dso)) {
		build_id__snprintf(dso__bid(dso), bid, sizeof(bid));
		fputs(",\"b\":\"", fp);
		fputs(bid, fp);
		fputc('"', fp);
	}
	fputs(",\"a\":\"", fp);
	flamegraph__put_hex(fp, fn->start);
	fputs("\",\"v\":", fp);
	flamegraph__put_u64(fp, fn->self);
	fputs(",\"s\":", fp);
	flamegraph__put_u64(fp, fn->samples);
	if (fn->why) {
		fputs(",\"why\":", fp);
		json__put_string(fp, fn->why, html_safe);
	}
}

static void flamegraph_function__write_json(const struct flamegraph_function *fn, FILE *fp,
					    bool html_safe)
{
	size_t i;

	fputc('{', fp);
	flamegraph_function__put_json_keys(fn, fp, html_safe);
	fputs(",\"i\":[", fp);
	for (i = 0; i < fn->nr_insns; i++) {
		const struct flamegraph_function_insn *insn = &fn->insns[i];

		fputs(i ? ",\n[\"" : "\n[\"", fp);
		flamegraph__put_hex(fp, insn->addr);
		fputs("\",", fp);
		json__put_string(fp, insn->text, html_safe);
		fputc(',', fp);
		json__put_string_or_null(fp, insn->srcline, html_safe);
		fputc(',', fp);
		flamegraph__put_long(fp, insn->source);
		fputc(',', fp);
		flamegraph__put_u64(fp, insn->line);
		flamegraph_function_insn__put_weights(insn, fp);
		fputc(']', fp);
	}
	fputs("]}", fp);
}

void flamegraph__put_sources(const struct flamegraph *fg, FILE *fp, bool html_safe)
{
	size_t i, j;

	fputs("\"sources\":[", fp);
	for (i = 0; i < fg->nr_sources; i++) {
		const struct flamegraph_source *src = &fg->sources[i];

		fputs(i ? ",\n{\"f\":" : "{\"f\":", fp);
		json__put_string(fp, src->path, html_safe);
		fputs(",\"first\":", fp);
		flamegraph__put_u64(fp, src->first);
		if (src->why) {
			fputs(",\"why\":", fp);
			json__put_string(fp, src->why, html_safe);
		}
		fputs(",\"lines\":[", fp);
		for (j = 0; j < src->nr_lines; j++) {
			if (j)
				fputc(',', fp);
			json__put_string(fp, src->lines[j], html_safe);
		}
		fputs("]}", fp);
	}
	fputc(']', fp);
}

void flamegraph__put_functions(const struct flamegraph *fg, FILE *fp, bool html_safe)
{
	size_t i;

	fputs("\"functions\":[", fp);
	for (i = 0; i < fg->nr_functions; i++) {
		if (i)
			fputs(",\n", fp);
		flamegraph_function__write_json(&fg->functions[i], fp, html_safe);
	}
	fputs("],", fp);
	flamegraph__put_sources(fg, fp, html_safe);
}

/*
 * @fg, @labels: for the root, the graph whose weight, event and unit it
 * names; NULL below.
 */
static void flamegraph_node__write_json(const struct flamegraph_node *node,
					FILE *fp, bool html_safe,
					const struct flamegraph *fg,
					const struct flamegraph_labels *labels)
{
	u32 i;

	fputc('{', fp);
	flamegraph_node__put_json_keys(node, node->self, node->samples, fp, html_safe, fg,
				       labels);
	if (fg && fg->nr_functions) {
		fputc(',', fp);
		flamegraph__put_functions(fg, fp, html_safe);
	}
	if (node->function) {
		fputs(",\"F\":", fp);
		flamegraph__put_u64(fp, node->function - 1);
		fputs(",\"x\":", fp);
		flamegraph_node__put_callsites(node, fp, /*offsets=*/false);
	}
	fputs(",\"c\":[", fp);
	for (i = 0; i < node->nr_children; i++) {
		if (i)
			fputc(',', fp);
		flamegraph_node__write_json(node->sorted[i], fp, html_safe, NULL, NULL);
	}
	fputs("]}", fp);
}

int flamegraph__write_json(struct flamegraph *fg, const struct flamegraph_labels *labels,
			   FILE *fp, bool html_safe)
{
	flamegraph_node__write_json(&fg->root, fp, html_safe, fg, labels);
	if (!html_safe)
		fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}

/*
 * Frames are separated by ';' and stacks by newlines: keep names whole.
 * Bytes that are not valid UTF-8 become U+FFFD, as in JSON.
 */
static void folded__put_name(FILE *fp, const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	while (*s) {
		const unsigned char *run = s;
		int len;

		/* What needs no change, in one write. */
		while (*s && *s < 0x80 && *s != ';' && *s != '\n' && *s != '\r')
			s++;
		if (s > run)
			fwrite(run, 1, s - run, fp);
		if (!*s)
			break;
		if (*s < 0x80) {
			fputc(*s == ';' ? ':' : ' ', fp);
			s++;
			continue;
		}
		len = utf8_seq_len(s);
		if (len)
			fwrite(s, 1, len, fp);
		else
			fputs("\xef\xbf\xbd", fp);
		s += len ?: 1;
	}
}

void flamegraph_node__write_folded_path(const struct flamegraph_node *node, FILE *fp)
{
	if (node->parent && node->parent->kind != FLAMEGRAPH_ROOT) {
		flamegraph_node__write_folded_path(node->parent, fp);
		fputc(';', fp);
	}
	folded__put_name(fp, node->label);
}

/* @event: NULL, or the first frame of every line. */
static void flamegraph_node__write_folded(const struct flamegraph_node *node,
					  FILE *fp, const char *event)
{
	u32 i;

	if (node->self && node->kind != FLAMEGRAPH_ROOT) {
		if (event) {
			folded__put_name(fp, event);
			fputc(';', fp);
		}
		flamegraph_node__write_folded_path(node, fp);
		fputc(' ', fp);
		flamegraph__put_u64(fp, node->self);
		fputc('\n', fp);
	}
	for (i = 0; i < node->nr_children; i++)
		flamegraph_node__write_folded(node->sorted[i], fp, event);
}

int flamegraph__write_folded(struct flamegraph *fg, FILE *fp)
{
	flamegraph_node__write_folded(&fg->root, fp, NULL);
	return ferror(fp) ? -EIO : 0;
}

/* The format the extension of @output names; -1: none. */
static int flamegraph__named_format(const char *output)
{
	const char *ext = strrchr(output, '.');

	if (!ext)
		return -1;
	if (!strcasecmp(ext, ".json"))
		return FLAMEGRAPH_JSON;
	if (!strcasecmp(ext, ".folded") || !strcasecmp(ext, ".txt"))
		return FLAMEGRAPH_FOLDED;
	if (!strcasecmp(ext, ".pprof") ||
	    (!strcasecmp(ext, ".gz") && ext - output >= 3 && !strncasecmp(ext - 3, ".pb", 3)))
		return FLAMEGRAPH_PPROF;
	if (!strcasecmp(ext, ".html") || !strcasecmp(ext, ".htm"))
		return FLAMEGRAPH_HTML;
	return -1;
}

int flamegraph__parse_format(const char *format_str, const char *output,
			     enum flamegraph_format *format)
{
	int named = flamegraph__named_format(output);

	if (!format_str) {
		*format = named < 0 ? FLAMEGRAPH_HTML : named;
		return 0;
	}
	if (!strcmp(format_str, "html"))
		*format = FLAMEGRAPH_HTML;
	else if (!strcmp(format_str, "json"))
		*format = FLAMEGRAPH_JSON;
	else if (!strcmp(format_str, "folded"))
		*format = FLAMEGRAPH_FOLDED;
	else if (!strcmp(format_str, "pprof"))
		*format = FLAMEGRAPH_PPROF;
	else
		goto out_unknown;
	/* As asked, but a file whose name says otherwise misleads its reader. */
	if (named >= 0 && (enum flamegraph_format)named != *format)
		pr_warning("Warning: writing %s into %s, whose name says %s\n", format_str,
			   output, flamegraph_format__name(named));
	return 0;

out_unknown:
	pr_err("unknown --format '%s': use html, json, folded or pprof\n", format_str);
	return -EINVAL;
}

const char *flamegraph_format__name(enum flamegraph_format format)
{
	static const char * const names[] = {
		[FLAMEGRAPH_HTML]	= "html",
		[FLAMEGRAPH_JSON]	= "json",
		[FLAMEGRAPH_FOLDED]	= "folded",
		[FLAMEGRAPH_PPROF]	= "pprof",
	};

	return names[format];
}

bool flamegraph_format__has_code(enum flamegraph_format format)
{
	return format == FLAMEGRAPH_HTML || format == FLAMEGRAPH_JSON;
}

int flamegraph__write_trees(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			    int nr_graphs, FILE *fp, enum flamegraph_format format)
{
	int i;

	switch (format) {
	case FLAMEGRAPH_JSON:
		if (nr_graphs == 1)
			return flamegraph__write_json(graphs[0], &labels[0], fp,
						      /*html_safe=*/false);
		/* Several: an array of their trees, each root naming its event. */
		for (i = 0; i < nr_graphs; i++) {
			fputs(i ? ",\n" : "[", fp);
			flamegraph_node__write_json(&graphs[i]->root, fp, false, graphs[i],
						    &labels[i]);
		}
		fputs("]\n", fp);
		return ferror(fp) ? -EIO : 0;
	case FLAMEGRAPH_FOLDED:
		if (nr_graphs == 1)
			return flamegraph__write_folded(graphs[0], fp);
		/* Several: each line's first frame names its event. */
		for (i = 0; i < nr_graphs; i++)
			flamegraph_node__write_folded(&graphs[i]->root, fp, labels[i].event);
		return ferror(fp) ? -EIO : 0;
	case FLAMEGRAPH_HTML:
	case FLAMEGRAPH_PPROF:
	default:
		return -EINVAL;
	}
}
