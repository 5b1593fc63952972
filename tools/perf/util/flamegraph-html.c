// SPDX-License-Identifier: GPL-2.0
/*
 * HTML output of perf flamegraph: one self-contained page, the viewer's
 * markup, CSS and JavaScript (util/flamegraph-viewer.{html,css,js})
 * embedded, the tree embedded as compact JSON with a string table, no
 * network request.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dso.h"
#include "flamegraph.h"
#include "hashmap.h"
#include "map.h"

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

/* A slot of the string table's index: open addressing, linear probing. */
struct html_slot {
	const char	*s;		/* NULL: empty */
	u32		hash;		/* str_hash(@s), compared before @s */
	u32		idx;		/* index of @s in the table */
};

/*
 * The strings of the page, each once, and for each node in the order
 * they are written the indexes of its label, DSO and source line: one
 * lookup per string of a node, when the nodes are collected.  Most
 * strings are instruction labels seen once: the index keeps each one's
 * hash, so that a probe reads another string only when the hashes match
 * and growing reads none.
 */
struct html_strings {
	struct html_slot *slots;
	size_t		mask;		/* number of slots - 1 */
	const char	**strings;
	size_t		nr;
	size_t		alloc;
	const char	*last;		/* the string looked up last ... */
	long		last_idx;	/* ... and its index */
	long		*order;		/* 3 per node, in write order */
	size_t		nr_order;
	size_t		alloc_order;
	size_t		pos;		/* next in @order when writing */
};

#define HTML_STRINGS_MIN_SLOTS	4096

static struct html_slot *html_strings__probe(struct html_slot *slots,
					     size_t mask, const char *s,
					     u32 hash)
{
	size_t i;

	for (i = hash & mask; slots[i].s; i = (i + 1) & mask) {
		if (slots[i].hash == hash && s && !strcmp(slots[i].s, s))
			break;
	}
	return &slots[i];
}

/* Twice the slots, at most half of them used: a probe stays short. */
static int html_strings__grow(struct html_strings *hs)
{
	size_t nr_slots = hs->slots ? (hs->mask + 1) * 2 : HTML_STRINGS_MIN_SLOTS;
	struct html_slot *slots = calloc(nr_slots, sizeof(*slots));
	size_t i;

	if (!slots)
		return -ENOMEM;
	for (i = 0; hs->slots && i <= hs->mask; i++) {
		if (hs->slots[i].s)
			*html_strings__probe(slots, nr_slots - 1, NULL,
					     hs->slots[i].hash) = hs->slots[i];
	}
	free(hs->slots);
	hs->slots = slots;
	hs->mask = nr_slots - 1;
	return 0;
}

/* Index of @s in the table, added if new; -1 for NULL or out of memory. */
static long html_strings__add(struct html_strings *hs, const char *s)
{
	struct html_slot *slot;
	u32 hash;

	if (!s)
		return -1;
	/* The DSO name of siblings is the same string. */
	if (s == hs->last)
		return hs->last_idx;
	if ((!hs->slots || hs->nr >= (hs->mask + 1) / 2) &&
	    html_strings__grow(hs))
		return -1;
	hash = str_hash(s);
	slot = html_strings__probe(hs->slots, hs->mask, s, hash);
	if (slot->s) {
		hs->last = s;
		return hs->last_idx = slot->idx;
	}
	if (hs->nr == hs->alloc) {
		size_t alloc = hs->alloc ? hs->alloc * 2 : 256;
		void *p = realloc(hs->strings, alloc * sizeof(*hs->strings));

		if (!p)
			return -1;
		hs->strings = p;
		hs->alloc = alloc;
	}
	*slot = (struct html_slot){ .s = s, .hash = hash, .idx = hs->nr, };
	hs->strings[hs->nr] = s;
	hs->last = s;
	hs->last_idx = hs->nr;
	return hs->nr++;
}

/* Note @s (NULL for none) as the next string of the nodes written. */
static int html_strings__order(struct html_strings *hs, const char *s)
{
	long idx = -1;

	if (s) {
		idx = html_strings__add(hs, s);
		if (idx < 0)
			return -ENOMEM;
	}
	if (hs->nr_order == hs->alloc_order) {
		size_t alloc = hs->alloc_order ? hs->alloc_order * 2 : 768;
		void *p = realloc(hs->order, alloc * sizeof(*hs->order));

		if (!p)
			return -ENOMEM;
		hs->order = p;
		hs->alloc_order = alloc;
	}
	hs->order[hs->nr_order++] = idx;
	return 0;
}

static int flamegraph_node__collect(const struct flamegraph_node *node,
				    struct html_strings *hs)
{
	u32 i;

	if (html_strings__order(hs, node->label) ||
	    html_strings__order(hs, flamegraph_node__dso_name(node)) ||
	    html_strings__order(hs, node->srcline))
		return -ENOMEM;
	for (i = 0; i < node->nr_children; i++) {
		if (flamegraph_node__collect(node->sorted[i], hs))
			return -ENOMEM;
	}
	return 0;
}

/* The index flamegraph_node__collect() found, in the same order. */
static long html_strings__next(struct html_strings *hs)
{
	return hs->order[hs->pos++];
}

/* [label, flags, dso, self, addr, srcline, [children]]: see the viewer. */
static void flamegraph_node__write_compact(const struct flamegraph_node *node,
					   struct html_strings *hs, FILE *fp)
{
	int flags = node->kind;
	long label, dso, srcline;
	u32 i;

	if (node->kernel)
		flags |= 8;
	if (flamegraph_node__is_jit(node))
		flags |= 16;
	label = html_strings__next(hs);
	dso = html_strings__next(hs);
	srcline = html_strings__next(hs);
	/* No fprintf() per node: see flamegraph__put_u64(). */
	fputc('[', fp);
	flamegraph__put_long(fp, label);
	fputc(',', fp);
	flamegraph__put_long(fp, flags);
	fputc(',', fp);
	flamegraph__put_long(fp, dso);
	fputc(',', fp);
	flamegraph__put_u64(fp, node->self);
	fputs(",\"", fp);
	if (node->kind == FLAMEGRAPH_FUNC || node->kind == FLAMEGRAPH_INSN)
		flamegraph__put_hex(fp, node->objdump_addr);
	fputs("\",", fp);
	flamegraph__put_long(fp, srcline);
	fputs(",[", fp);
	for (i = 0; i < node->nr_children; i++) {
		if (i)
			fputc(',', fp);
		flamegraph_node__write_compact(node->sorted[i], hs, fp);
	}
	fputs("]]", fp);
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

static int flamegraph__write_data(struct flamegraph *fg, FILE *fp,
				  const struct flamegraph_info *info)
{
	struct html_strings hs = { .slots = NULL, };
	bool first = true;
	size_t i;
	int err;

	err = flamegraph_node__collect(&fg->root, &hs);
	if (err)
		goto out;

	fputs("{\"v\":1,\"info\":{", fp);
	html__put_info(fp, &first, "input", info->input);
	html__put_info(fp, &first, "host", info->hostname);
	html__put_info(fp, &first, "event", info->event);
	html__put_info(fp, &first, "cmdline", info->cmdline);
	html__put_info(fp, &first, "cpu", info->cpu);
	html__put_info(fp, &first, "date", info->date);
	html__put_info(fp, &first, "version", info->version);
	html__put_info(fp, &first, "header", info->header);
	fputs("},\n\"strings\":[", fp);
	for (i = 0; i < hs.nr; i++) {
		if (i)
			fputc(',', fp);
		json__put_string(fp, hs.strings[i], /*html_safe=*/true);
	}
	fputs("],\n\"root\":", fp);
	flamegraph_node__write_compact(&fg->root, &hs, fp);
	fputc('}', fp);
out:
	free(hs.slots);
	free(hs.strings);
	free(hs.order);
	return err;
}

int flamegraph__write_html(struct flamegraph *fg, FILE *fp,
			   const struct flamegraph_info *info)
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
	err = flamegraph__write_data(fg, fp, info);
	if (err)
		return err;
	fprintf(fp, "</script>\n<script>\n%s</script>\n</body></html>\n",
		flamegraph_viewer_js);
	return ferror(fp) ? -EIO : 0;
}

static const char flamegraph_json_marker[] = "/** @flamegraph_json **/";
static const char options_json_marker[] = "/** @options_json **/";

int flamegraph__write_template(struct flamegraph *fg, FILE *fp,
			       const char *tmpl,
			       const struct flamegraph_info *info)
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
			flamegraph__write_json(fg, fp, /*html_safe=*/true);
			p = next + strlen(flamegraph_json_marker);
		} else {
			fputs("{\"colorscheme\":\"blue-green\",\"context\":", fp);
			json__put_string(fp, info->header ?: "", /*html_safe=*/true);
			fputc('}', fp);
			p = next + strlen(options_json_marker);
		}
	}
	return ferror(fp) ? -EIO : 0;
}
