// SPDX-License-Identifier: GPL-2.0
/*
 * protobuf.c: the protocol buffers wire format, as far as pprof's
 * profile.proto needs it: perf writes one message type and reads none,
 * so a handful of functions instead of a protobuf library and a code
 * generator at build time.
 */
#include "protobuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kernel.h>

/* Wire types. */
#define PROTOBUF_VARINT	0
#define PROTOBUF_LEN	2

void protobuf__init(struct protobuf *pb)
{
	memset(pb, 0, sizeof(*pb));
}

void protobuf__exit(struct protobuf *pb)
{
	free(pb->buf);
	protobuf__init(pb);
}

void protobuf__reset(struct protobuf *pb)
{
	pb->len = 0;
}

static bool protobuf__room(struct protobuf *pb, size_t len)
{
	size_t alloc = pb->alloc ?: 64;
	char *buf;

	if (pb->err)
		return false;
	if (pb->len + len <= pb->alloc)
		return true;
	while (alloc < pb->len + len)
		alloc *= 2;
	buf = realloc(pb->buf, alloc);
	if (!buf) {
		pb->err = -ENOMEM;
		return false;
	}
	pb->buf = buf;
	pb->alloc = alloc;
	return true;
}

/* At most 10 bytes: 7 bits each, the low ones first. */
static void protobuf__put_varint(struct protobuf *pb, u64 value)
{
	if (!protobuf__room(pb, 10))
		return;
	while (value >= 0x80) {
		pb->buf[pb->len++] = (char)(value | 0x80);
		value >>= 7;
	}
	pb->buf[pb->len++] = (char)value;
}

static size_t protobuf__varint_len(u64 value)
{
	size_t len = 1;

	while (value >= 0x80) {
		value >>= 7;
		len++;
	}
	return len;
}

static void protobuf__put_tag(struct protobuf *pb, u32 field, u32 wire_type)
{
	protobuf__put_varint(pb, (u64)field << 3 | wire_type);
}

void protobuf__varint(struct protobuf *pb, u32 field, u64 value)
{
	protobuf__put_tag(pb, field, PROTOBUF_VARINT);
	protobuf__put_varint(pb, value);
}

void protobuf__packed(struct protobuf *pb, u32 field, const u64 *values, size_t nr)
{
	size_t len = 0, i;

	if (!nr)
		return;
	for (i = 0; i < nr; i++)
		len += protobuf__varint_len(values[i]);
	protobuf__put_tag(pb, field, PROTOBUF_LEN);
	protobuf__put_varint(pb, len);
	for (i = 0; i < nr; i++)
		protobuf__put_varint(pb, values[i]);
}

void protobuf__bytes(struct protobuf *pb, u32 field, const void *data, size_t len)
{
	protobuf__put_tag(pb, field, PROTOBUF_LEN);
	protobuf__put_varint(pb, len);
	if (!protobuf__room(pb, len))
		return;
	if (len)
		memcpy(pb->buf + pb->len, data, len);
	pb->len += len;
}

void protobuf__message(struct protobuf *pb, u32 field, const struct protobuf *msg)
{
	if (msg->err && !pb->err)
		pb->err = msg->err;
	protobuf__bytes(pb, field, msg->buf, msg->len);
}
