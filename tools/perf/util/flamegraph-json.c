// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of perf flamegraph, in the shape of upstream's
 * "perf script report flamegraph -f json": {"n", "l", "v", "c"} per node.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "flamegraph.h"

/* Length of the valid UTF-8 sequence at @s (RFC 3629), 0 if invalid. */
static int utf8_seq_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;

	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	}
	/* Overlong forms, UTF-16 surrogates and code points past U+10FFFF. */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return len;
}

void json__put_string(FILE *fp, const char *str, bool html_safe)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		int len = utf8_seq_len(s);

		if (len == 0) {
			fputs("\\ufffd", fp);
			s++;
			continue;
		}
		if (len > 1) {
			/* U+2028/U+2029 end a line in JavaScript before ES2019. */
			if (html_safe && s[0] == 0xe2 && s[1] == 0x80 &&
			    (s[2] == 0xa8 || s[2] == 0xa9))
				fprintf(fp, "\\u%04x", 0x2000 | (s[2] & 0x3f));
			else
				fwrite(s, 1, len, fp);
			s += len;
			continue;
		}
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '<': case '>': case '&':
			if (html_safe) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			fputc(*s, fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f)
				fprintf(fp, "\\u%04x", *s);
			else
				fputc(*s, fp);
			break;
		}
		s++;
	}
	fputc('"', fp);
}

static void flamegraph_node__write_json(const struct flamegraph_node *node,
					FILE *fp, bool html_safe)
{
	const char *dso = flamegraph_node__dso_name(node);
	u32 i;

	fputs("{\"n\":", fp);
	json__put_string(fp, node->label, html_safe);
	fprintf(fp, ",\"l\":\"%s\",\"v\":%" PRIu64 ",\"k\":\"%s\"",
		node->kernel ? "kernel" : "", node->self,
		flamegraph_node__kind_name(node));
	if (dso) {
		fputs(",\"d\":", fp);
		json__put_string(fp, dso, html_safe);
	}
	if (node->kind == FLAMEGRAPH_FUNC || node->kind == FLAMEGRAPH_INSN)
		fprintf(fp, ",\"a\":\"%#" PRIx64 "\"", node->objdump_addr);
	fputs(",\"c\":[", fp);
	for (i = 0; i < node->nr_children; i++) {
		if (i)
			fputc(',', fp);
		flamegraph_node__write_json(node->sorted[i], fp, html_safe);
	}
	fputs("]}", fp);
}

int flamegraph__write_json(struct flamegraph *fg, FILE *fp, bool html_safe)
{
	flamegraph_node__write_json(&fg->root, fp, html_safe);
	if (!html_safe)
		fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}
