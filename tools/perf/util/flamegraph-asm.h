/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERF_FLAMEGRAPH_ASM_H
#define __PERF_FLAMEGRAPH_ASM_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>
#include <sys/types.h>

struct dso;
struct flamegraph;
struct flamegraph_asm;
struct flamegraph_fileloc;
struct map_symbol;
struct perf_env;

/**
 * flamegraph__decode_insns - the text of each sampled instruction
 * @fg: the flame graph, all samples added, not yet finished
 * @env: the recording's perf_env, for its architecture
 * @no_objdump: objdump may not decode what LLVM and capstone can't:
 *              there is none for the recording's architecture
 *              (flamegraph__lookup_objdump() failed)
 *
 * A sample IP is the start of an instruction (the one interrupted, or
 * the precise one), and so is every return address in a callchain: each
 * distinct IP of @fg->insns is decoded once, one instruction at that
 * address, never by sweeping its symbol from the start.  The bytes come
 * through perf's dso data access (dso__data_read_offset(): the build-id
 * cache, --symfs, vmlinux or kcore, decompressed modules, JIT images),
 * as perf script -F insn reads them.  The decoders are perf annotate's,
 * in its order (annotate_opts.disassemblers: LLVM, capstone, objdump by
 * default): LLVM and capstone in-process, with perf annotate's options
 * (-M) and its line for the instruction (llvm_insn_decoder__line(),
 * capstone_insn_decoder__line()), the next where one can't decode it;
 * objdump for the rest (also with --objdump, a recording of another
 * architecture, or a perf built without the others), as perf annotate
 * runs it, one objdump per DSO over the range of the IPs it is asked for
 * (again from an IP that data in the code put it out of step with):
 * annotate_opts.objdump_path, --objdump's, else what the command found
 * with flamegraph__lookup_objdump(), else the host's.
 *
 * Sets each instruction's @text (and @objdump_addr, perf annotate's
 * address of it).  Where no bytes or no disassembler can be had (no
 * binary, no vmlinux for the kernel, JIT code without an image, a
 * recording of another architecture and no objdump for it), @text stays
 * NULL and one warning per DSO says why; the disassemblers' own error
 * messages are shown with -v only.  With -v, each symbol whose sweep from
 * its start (as perf annotate decodes it) does not start an instruction
 * at a sampled IP is named once: data bytes in its code put the sweep
 * out of step, and perf annotate shows another instruction there.
 *
 * Return: 0 on success, -ENOMEM.
 */
int flamegraph__decode_insns(struct flamegraph *fg, struct perf_env *env, bool no_objdump);

/**
 * flamegraph__lookup_objdump - the objdump perf annotate would run on a
 *                              recording's code
 * @env: the recording's perf_env
 * @path: set as perf_env__lookup_objdump() sets it: a cross objdump for
 *        a recording of another architecture (owned by the caller), NULL
 *        for the host's
 *
 * perf_env__lookup_objdump(), its error message (no objdump for the
 * recording's architecture) shown with -v only: --asm's leaves are
 * LLVM's and capstone's then, and one warning per DSO says what they
 * could not decode.  The command that owns --objdump calls it when none
 * was given, as builtin-annotate.c does, and sets annotate_opts.objdump_path.
 *
 * Return: 0, or -1 when there is no objdump for @env's architecture.
 */
int flamegraph__lookup_objdump(struct perf_env *env, char **path);

/**
 * flamegraph__disassemble_symbol - a function's instructions, as perf annotate
 *                                  shows them
 * @ms: the function: its map, symbol and thread (borrowed)
 * @lines: set to the instructions' texts, as --asm's leaves show them
 *         (owned by the caller: free() each, then the array)
 * @addrs: set to their addresses as perf annotate and objdump print them
 *         (owned by the caller)
 * @filelocs: NULL, or set to their source lines (owned by the caller:
 *            free() each @file, then the array) where the disassembler
 *            gave any: LLVM's (llvm_addr2line() of each instruction) and
 *            objdump's (-l) do, capstone's doesn't; else to NULL
 *
 * perf annotate's lines of the symbol (symbol__annotate(), without an
 * evsel): its disassemblers in annotate.disassemblers order, the bytes
 * or the image from the build-id cache's copy of the binary recorded,
 * however it was rebuilt since; the source lines among them left out.
 * The symbol's notes are emptied again.  Needs symbol__annotation_init()
 * before the symbols were loaded, as perf annotate does.
 *
 * Return: the number of instructions, 0 if perf annotate can't show it
 * (no code, no disassembler, no notes), or -ENOMEM.
 */
ssize_t flamegraph__disassemble_symbol(const struct map_symbol *ms, char ***lines,
				       u64 **addrs, struct flamegraph_fileloc **filelocs);

/**
 * flamegraph__symbol_code_missing - why a function's code can't be had
 * @ms: the function: its map, symbol and thread (borrowed)
 * @env: the environment of its recording (perf_session__env())
 * @why: set to one line saying why, as --asm's warnings say it
 * @size: room in @why, in bytes
 *
 * What flamegraph__disassemble_symbol() needs: a map, an in-process
 * disassembler (LLVM or capstone, perf annotate's choice: an objdump
 * would run once for each function), and the binary's bytes through
 * perf's dso access (vmlinux or kcore for the kernel, an image for JIT
 * code, the build-id cache's copy of a binary rebuilt since).
 *
 * Return: true, with @why set, when one of them is missing; else false.
 */
bool flamegraph__symbol_code_missing(const struct map_symbol *ms, struct perf_env *env,
				     char *why, size_t size);

/**
 * flamegraph_asm__new - perf annotate's in-process disassemblers, for one
 *                       instruction at a time
 * @env: the environment of the recording (perf_session__env())
 *
 * For a tool that decodes sample IPs as it reads them (a perf script
 * script), where flamegraph__decode_insns() decodes a whole flame
 * graph's at its end: LLVM and capstone as annotate.disassemblers orders
 * them, with perf annotate's options (annotate_opts, as the command set
 * them), set up once and kept.  objdump is not run: it would run once
 * per address.
 *
 * Return: the decoders (owned by the caller: flamegraph_asm__delete()),
 * NULL when out of memory.
 */
struct flamegraph_asm *flamegraph_asm__new(struct perf_env *env);

/**
 * flamegraph_asm__delete - free what flamegraph_asm__new() returned
 * @fa: the decoders, or NULL
 */
void flamegraph_asm__delete(struct flamegraph_asm *fa);

/**
 * flamegraph_asm__decode_insn - perf annotate's text of one instruction
 * @fa: the decoders, from flamegraph_asm__new()
 * @ms: the instruction's map, symbol and thread (borrowed)
 * @addr: its address in @ms's DSO (map-relative, as addr_location's addr)
 * @text: set to its text as --asm's leaves show it, or NULL (owned by
 *        the caller)
 *
 * The bytes at @addr read through perf's dso data access, as
 * flamegraph__decode_insns() reads them: the build-id cache's copy,
 * --symfs, vmlinux or kcore; never another build of the binary than
 * the one recorded.
 *
 * Return: 0; -ENOENT when there is no code to read at @addr or no
 * in-process disassembler decodes it (objdump might: perf flamegraph
 * --asm runs it); -ENOMEM.
 */
int flamegraph_asm__decode_insn(struct flamegraph_asm *fa, const struct map_symbol *ms,
				u64 addr, char **text);

/**
 * flamegraph_dso__name - the name a warning gives a DSO
 * @dso: the DSO
 *
 * Its path; for the vDSO, which perf reads from a copy of its own in
 * /tmp under a name of the moment, "[vdso]", as perf report and perf
 * buildid-list name it.
 *
 * Return: a string owned by @dso.
 */
const char *flamegraph_dso__name(const struct dso *dso);

#endif /* __PERF_FLAMEGRAPH_ASM_H */
