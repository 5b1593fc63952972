/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_CALLCHAIN_PRECISE_H
#define __PERF_CALLCHAIN_PRECISE_H

struct ip_callchain;
struct perf_sample;
struct thread;

/**
 * callchain__fixup_precise_ip - make a callchain agree with a precise IP
 * @thread: the sampled thread, to resolve addresses to symbols
 * @sample: a sample of a precise event (attr.precise_ip != 0) with a
 *          frame-pointer callchain
 *
 * With precise events the sample IP is the instruction that caused the
 * event, but the kernel takes the callchain from the registers of the
 * interrupt, which may be past that instruction.  The top entry of the
 * callchain is then one instruction past the sample IP, or elsewhere:
 *
 * - an ordinary instruction or a jump inside the function: the next
 *   instruction or the jump target, in the same function.  The entry is
 *   replaced by the sample IP.
 * - a call, or a jump to another function (a tail call): the first
 *   instruction of the callee, and the sampled function is missing from
 *   the callchain, as the callee's frame was not set up yet.  The entry is
 *   replaced by the sample IP, which restores the sampled function.
 * - a return: an address in the caller, after the call, and a correct
 *   frame.  The sample IP is inserted before it.
 * - a callchain that starts in another context (a user-space sample whose
 *   interrupt came in the kernel, after a syscall): the entries of that
 *   context are dropped, then the rules above apply.
 *
 * Return: NULL when @sample->callchain already agrees with @sample->ip,
 * else a corrected copy of it, allocated with malloc() and owned by the
 * caller.
 */
struct ip_callchain *callchain__fixup_precise_ip(struct thread *thread,
						 const struct perf_sample *sample);

#endif /* __PERF_CALLCHAIN_PRECISE_H */
