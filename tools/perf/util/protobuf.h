/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_PROTOBUF_H
#define __PERF_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

/**
 * struct protobuf - a protocol buffers message being written, in memory
 * @buf: its encoding so far (owned, freed by protobuf__exit())
 * @len: bytes in @buf
 * @alloc: bytes allocated for @buf
 * @err: 0, or -ENOMEM once an append failed: later ones do nothing
 *
 * The encoding of https://protobuf.dev/programming-guides/encoding/ that
 * pprof's profile.proto needs and no more: varints (uint64, int64 and
 * bool fields, as two's complement), packed repeated varints, and
 * length-delimited fields (strings, bytes, embedded messages). Fields go
 * out in the order they are added; a message is written into its own
 * struct protobuf, then added to its parent with protobuf__message().
 */
struct protobuf {
	char	*buf;
	size_t	len;
	size_t	alloc;
	int	err;
};

/**
 * protobuf__init - an empty message
 * @pb: the message
 */
void protobuf__init(struct protobuf *pb);

/**
 * protobuf__exit - free a message's encoding
 * @pb: the message; empty again after
 */
void protobuf__exit(struct protobuf *pb);

/**
 * protobuf__reset - empty a message, keeping its memory for the next
 * @pb: the message; @err is kept
 */
void protobuf__reset(struct protobuf *pb);

/**
 * protobuf__varint - add a varint field
 * @pb: the message
 * @field: its field number in the .proto
 * @value: the value (an int64 as its two's complement, a bool as 0 or 1)
 *
 * Zero values are written too: callers leave out proto3 defaults.
 */
void protobuf__varint(struct protobuf *pb, u32 field, u64 value);

/**
 * protobuf__packed - add a packed repeated varint field
 * @pb: the message
 * @field: its field number in the .proto
 * @values: the values
 * @nr: how many; none writes nothing
 */
void protobuf__packed(struct protobuf *pb, u32 field, const u64 *values, size_t nr);

/**
 * protobuf__bytes - add a length-delimited field
 * @pb: the message
 * @field: its field number in the .proto
 * @data: its bytes (a string's, without a terminating NUL)
 * @len: how many
 */
void protobuf__bytes(struct protobuf *pb, u32 field, const void *data, size_t len);

/**
 * protobuf__message - add an embedded message field
 * @pb: the message
 * @field: its field number in the .proto
 * @msg: the embedded message, complete; its error, if any, becomes @pb's
 *
 * @msg's bytes are copied into @pb: each level of nesting copies its
 * messages once more (profile.proto nests two deep).
 */
void protobuf__message(struct protobuf *pb, u32 field, const struct protobuf *msg);

#endif /* __PERF_PROTOBUF_H */
