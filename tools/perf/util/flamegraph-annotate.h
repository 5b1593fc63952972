/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ANNOTATE_H
#define __PERF_FLAMEGRAPH_ANNOTATE_H

#include <stdbool.h>

#include "flamegraph-output.h"

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
 * Sets @fg's @functions: each function's every instruction, as perf
 * annotate shows it (flamegraph__disassemble_symbol()), with the weight and number of the
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

/**
 * flamegraph__add_code - decode a graph's instructions for its writer
 * @fg: a flame graph with instruction leaves (--asm), not yet finished
 * @env: the environment of its recording (perf_session__env())
 * @format: the format it will be written in
 * @no_objdump: no objdump for the recording's architecture
 *              (flamegraph__lookup_objdump() failed)
 * @max_functions: how many of the hottest functions carry their whole
 *                 code (flamegraph__add_functions()), 0 for none; the
 *                 weights of their calls are those of the call sites
 *                 tracked from the first sample on
 *                 (flamegraph__track_callsites()), if they were
 *
 * What happens to a graph between its last sample and
 * flamegraph__finish(), the same for perf flamegraph and perf report
 * --flamegraph: its instruction leaves decoded
 * (flamegraph__decode_insns()); for the page, the source lines of the
 * hottest (flamegraph__add_srclines()); for the formats that carry them
 * (flamegraph_format__has_code()), the hottest functions' whole code and
 * its source lines (flamegraph__add_function_srclines()).
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__add_code(struct flamegraph *fg, struct perf_env *env,
			 enum flamegraph_format format, bool no_objdump,
			 unsigned int max_functions);

#endif /* __PERF_FLAMEGRAPH_ANNOTATE_H */
