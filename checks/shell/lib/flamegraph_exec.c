// SPDX-License-Identifier: GPL-2.0
/*
 * Workload for the perf flamegraph test of exec: built twice, non-PIE,
 * with SPIN defined as alpha and as beta, so that both binaries have
 * their hot loop at the same address.  alpha spins, then execs beta in
 * the same process and thread: a sample of beta has the PID, TID, IP
 * and callchain a sample of alpha had, and must still be beta's.
 */
#include <stdlib.h>
#include <unistd.h>

unsigned long sink;

static unsigned long SPIN(unsigned long n)
{
	unsigned long x = 1, i;

	for (i = 0; i < n; i++)
		x += x / 3 + i;
	return x;
}

int main(int argc, char **argv)
{
	unsigned long i;

	for (i = 0; i < 300; i++)
		sink += SPIN(100000);
	if (argc > 1)
		execv(argv[1], argv + 1);
	return argc > 1;
}
