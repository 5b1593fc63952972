// SPDX-License-Identifier: GPL-2.0
/*
 * JSON string literals of any bytes, for perf's JSON writers.
 */
#include "json.h"

int utf8_seq_len(const unsigned char *s)
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

/* Whether @c, an ASCII character, goes into a JSON string as it is. */
static bool json__is_plain(unsigned char c, bool html_safe)
{
	if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
		return false;
	return !html_safe || (c != '<' && c != '>' && c != '&');
}

void json__put_string(FILE *fp, const char *str, bool html_safe)
{
	const unsigned char *s = (const unsigned char *)(str ?: "");

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
