// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the perf flamegraph BPF test: a BPF program, loaded with
 * the bpf() syscall alone (no compiler for BPF needed), whose loop the
 * kernel runs for as many seconds as argv[1] says (BPF_PROG_TEST_RUN),
 * so that samples land in its JITed code. argv[1] 0: load it and exit,
 * which says whether this machine lets us.
 */
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define INSN(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	/* r0 = 0; for (r1 = 0; r1 < 1000; r1++) r0 = (r0 + r1) * 7; */
	struct bpf_insn prog[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_X, 0, 1, 0, 0),
		INSN(BPF_ALU64 | BPF_MUL | BPF_K, 0, 0, 0, 7),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, 1),
		INSN(BPF_JMP | BPF_JLT | BPF_K, 1, 0, -4, 1000),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	double secs = argc > 1 ? atof(argv[1]) : 1, start;
	unsigned char pkt[64] = { 0 };
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (unsigned long)prog;
	attr.insn_cnt = ARRAY_SIZE(prog);
	attr.license = (unsigned long)"GPL";
	strcpy(attr.prog_name, "fg_bpf_loop");
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd < 0) {
		perror("BPF_PROG_LOAD");
		return 1;
	}
	start = now();
	while (now() - start < secs) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = fd;
		attr.test.data_in = (unsigned long)pkt;
		attr.test.data_size_in = sizeof(pkt);
		attr.test.repeat = 10000;
		if (syscall(__NR_bpf, BPF_PROG_TEST_RUN, &attr, sizeof(attr))) {
			perror("BPF_PROG_TEST_RUN");
			return 1;
		}
	}
	return 0;
}
