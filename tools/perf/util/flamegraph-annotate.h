/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ANNOTATE_H
#define __PERF_FLAMEGRAPH_ANNOTATE_H

struct flamegraph;
struct perf_env;

/* How many of the hottest functions carry their whole code by default. */
#define FLAMEGRAPH_FUNCTIONS_DEFAULT	100

/**
 * flamegraph__add_functions - the whole code of the hottest functions
 * @fg: a flame graph with instruction leaves (--asm), its instructions
 *      decoded, call sites counted (flamegraph__track_callsites()), not
 *      yet finished
 * @env: the environment of its recording (perf_session__env())
 * @max: how many functions, those with the most self weight in all
 *       contexts; 0 for none
 *
 * Sets @fg's @functions: each function's every instruction, decoded
 * from its start as perf annotate decodes it
 * (flamegraph__disassemble_symbol()), with the weight and number of the
 * samples at it in all contexts (as perf annotate counts them: the
 * instruction leaves of the whole graph) and, for calls, the weight
 * that left the function through them (the call sites of all its
 * frames: the callchains' return addresses).  A function whose code
 * can't be had says why in its @why.  Sets the @function of each frame
 * of those functions, so that the writers give each frame its
 * function's index.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_functions(struct flamegraph *fg, struct perf_env *env, unsigned int max);

#endif /* __PERF_FLAMEGRAPH_ANNOTATE_H */
