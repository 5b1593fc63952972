/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_JSON_H
#define __PERF_JSON_H

#include <stdbool.h>
#include <stdio.h>

/**
 * utf8_seq_len - the length of the UTF-8 sequence a string starts with
 * @s: the string, any bytes, at least one of them before its NUL
 *
 * Return: 1 for an ASCII character (the NUL too), 2 to 4 for a valid
 * multi-byte sequence of RFC 3629, 0 for a byte that starts none: a lone
 * continuation byte, an overlong form, a UTF-16 surrogate or a code
 * point past U+10FFFF.
 */
int utf8_seq_len(const unsigned char *s);

/**
 * json__put_string - write a string as a JSON string literal
 * @fp: the output stream
 * @str: the string, any bytes; NULL is written as ""
 * @html_safe: also escape '<', '>', '&', U+2028 and U+2029, so that the
 *	literal can go into an HTML <script> element as it is
 *
 * Writes @str between double quotes as RFC 8259 asks: '"' and '\\'
 * escaped, control characters and DEL as \n, \t or \uXXXX, valid UTF-8
 * as it is, and each byte that is not part of valid UTF-8 (see
 * utf8_seq_len()) as \ufffd, so that the output is valid JSON whatever
 * bytes a comm, a path or a symbol name holds.  Errors are left in @fp
 * for ferror().
 */
void json__put_string(FILE *fp, const char *str, bool html_safe);

#endif /* __PERF_JSON_H */
