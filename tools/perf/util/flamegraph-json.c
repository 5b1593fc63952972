// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of perf flamegraph, in the shape of upstream's
 * "perf script report flamegraph -f json": {"n", "l", "v", "c"} per node.
 */
#include <errno.h>
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

/* Whether @c, an ASCII character, goes into a JSON string as it is. */
static bool json__is_plain(unsigned char c, bool html_safe)
{
	if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
		return false;
	return !html_safe || (c != '<' && c != '>' && c != '&');
}

void json__put_string(FILE *fp, const char *str, bool html_safe)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		const unsigned char *run = s;
		int len;

		/* What needs no escaping, in one write. */
		while (json__is_plain(*s, html_safe))
			s++;
		if (s > run)
			fwrite(run, 1, s - run, fp);
		if (!*s)
			break;
		len = utf8_seq_len(s);
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
		default:
			/* Controls, DEL, and <, >, & in a page. */
			fprintf(fp, "\\u%04x", *s);
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

	/* No fprintf() per node: its format parsing cost a third of the write. */
	fputs("{\"n\":", fp);
	json__put_string(fp, node->label, html_safe);
	fputs(node->kernel ? ",\"l\":\"kernel\",\"v\":" : ",\"l\":\"\",\"v\":", fp);
	flamegraph__put_u64(fp, node->self);
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
