// SPDX-License-Identifier: GPL-2.0
/*
 * bench-viewer.mjs PAGE.html OUT.md COMMANDS.txt: time the viewer of perf
 * flamegraph's HTML output in headless Chromium on synthetic trees.
 *
 * PAGE.html is a page written by perf flamegraph; its data (<script
 * id="fg-data">) is replaced by synthetic trees of BENCH_SIZES nodes
 * (default 1000,10000,100000) in the same format, each opened BENCH_RUNS
 * times (default 7) in a fresh page. Each run reads the viewer's own
 * timings (window.perfFlamegraph.timings.open: from the start of its
 * script to the end of the first draw), then times zoom() into a frame
 * that holds about a tenth of the samples, and search() of a substring
 * that a few percent of the functions hold, over the whole graph; then
 * opens the Assembly pane of a function below the zoomed frame, given
 * 12,000 instructions, and switches it to all contexts. The medians, the page's
 * size and its bytes per node, the machine and the commands
 * (COMMANDS.txt) go to OUT.md as markdown.
 *
 * Environment: FLAMEGRAPH_NODE_MODULES (where playwright-core is),
 * FLAMEGRAPH_CHROMIUM (default /usr/bin/chromium).
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import os from 'node:os';
import path from 'node:path';

const [pagePath, outPath, commandsPath] = process.argv.slice(2);
if (!pagePath || !outPath || !commandsPath) {
	console.error('usage: bench-viewer.mjs PAGE.html OUT.md COMMANDS.txt');
	process.exit(2);
}
const nodeModules = path.resolve(process.env.FLAMEGRAPH_NODE_MODULES || 'build/node/node_modules');
const require = createRequire(path.join(nodeModules, 'x.js'));
const { chromium } = require('playwright-core');
const pwVersion = require('playwright-core/package.json').version;
const sizes = (process.env.BENCH_SIZES || '1000,10000,100000').split(',').map(Number);
const runs = +(process.env.BENCH_RUNS || 7);

const load0 = os.loadavg()[0];
const page0 = readFileSync(pagePath, 'utf8');
const DATA_RE = /(<script type="application\/json" id="fg-data">)[^]*?(<\/script>)/;

if (!DATA_RE.test(page0)) {
	console.error(`${pagePath}: no <script type="application/json" id="fg-data">`);
	process.exit(1);
}

/* ---- Synthetic trees ---- */

/* mulberry32: the same trees on every machine. */
function rng(seed) {
	return function () {
		seed |= 0;
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);

		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const WORDS = ['alloc', 'buffer', 'cache', 'commit', 'decode', 'dispatch',
	'encode', 'flush', 'hash', 'index', 'insert', 'lookup', 'merge', 'parse',
	'poll', 'queue', 'read', 'reduce', 'render', 'resolve', 'scan', 'sched',
	'send', 'sort', 'split', 'sync', 'table', 'update', 'visit', 'write'];
const KWORDS = ['do_syscall_64', 'entry_SYSCALL_64_after_hwframe', 'ksys_read',
	'vfs_read', 'ext4_file_read_iter', 'filemap_read', 'copy_page_to_iter',
	'asm_exc_page_fault', 'exc_page_fault', 'handle_mm_fault',
	'__handle_mm_fault', 'do_anonymous_page', 'clear_page_erms',
	'asm_sysvec_apic_timer_interrupt', '__irq_exit_rcu', 'handle_softirqs',
	'net_rx_action', '__napi_poll', 'tcp_v4_rcv', 'schedule', '__schedule'];
const MNEMONICS = ['movq    -0x10(%rbp), %rax', 'addq    $1, -0x8(%rbp)',
	'cmpq    -0x18(%rbp), %rax', 'movl    (%rdi,%rcx,4), %edx',
	'imulq   %rsi, %rdx', 'leaq    0x8(%rbx), %rdi', 'jne     0x%x',
	'callq   0x%x', 'vmovdqu (%rsi), %ymm0', 'popq    %rbx', 'shrq    $1, %rdx',
	'lock cmpxchgq %rdx, (%rdi)', 'testb   $0x4, 0x30(%r12)', 'retq'];

/*
 * A tree of exactly n nodes, shaped like a profile: four comms, a fixed
 * start of each stack, then calls along a call graph in which each
 * function has a few callees picked with a skew, stacks 5 to ~40 deep,
 * some ending in the kernel; each stack ends in one of its function's
 * instructions. C++ names bring <, > and & to escape.
 */
function synthetic(n, seed) {
	const rand = rng(seed);
	const pick = (a) => a[Math.floor(rand() * a.length)];
	/* Skewed towards the front: a few callees take most calls. */
	const skew = (a) => a[Math.floor(Math.pow(rand(), 2.5) * a.length)];
	const strings = [], sidx = new Map();
	const S = (s) => {
		if (!sidx.has(s)) {
			sidx.set(s, strings.length);
			strings.push(s);
		}
		return sidx.get(s);
	};
	const nfuncs = Math.max(50, Math.floor(n / 12));
	const dsos = ['prog', 'libc.so.6', 'libstdc++.so.6.0.30', 'libssl.so.3'];
	const funcs = [];

	for (let i = 0; i < nfuncs; i++) {
		const a = pick(WORDS), b = pick(WORDS);
		const name = rand() < 0.3 ?
			`ns${i % 17}::${a[0].toUpperCase()}${a.slice(1)}<std::pair<int, ${b}_t> >::${b}_${i}(${a}_t const&)` :
			`${a}_${b}_${i}`;
		const base = 0x1000 + i * 0x140;
		const insns = [];

		for (let k = 0, m = 3 + Math.floor(rand() * 10); k < m; k++) {
			const addr = base + 4 + k * 7;

			insns.push({ label: S(pick(MNEMONICS).replace('%x', (base + 0x40).toString(16))),
				     addr: '0x' + addr.toString(16) });
		}
		funcs.push({ label: S(name), dso: S(dsos[Math.floor(Math.pow(rand(), 2) * dsos.length)]),
			     addr: '0x' + base.toString(16), src: rand() < 0.5 ? S(`src/${a}.c:${10 + i % 900}`) : -1,
			     insns, callees: [] });
	}
	for (const f of funcs) {
		for (let k = 0, m = 2 + Math.floor(rand() * 5); k < m; k++)
			f.callees.push(pick(funcs));
	}
	const kfuncs = KWORDS.map((k, i) => ({ label: S(k), dso: S('[kernel.kallsyms]'),
		addr: '0xffffffff81' + (0x100000 + i * 0x1230).toString(16), src: -1,
		insns: [0, 1, 2, 3].map((j) => ({ label: -1,
			addr: '0xffffffff81' + (0x100000 + i * 0x1230 + j * 5).toString(16) })) }));
	const comms = ['prog', 'prog-worker', 'prog-io', 'kworker/u16:3'].map(S);
	const starts = [['_start', '__libc_start_main', 'main'],
			['clone3', 'start_thread', 'worker_main'],
			['clone3', 'start_thread', 'io_loop'],
			['ret_from_fork_asm', 'ret_from_fork', 'kthread', 'worker_thread']]
		.map((s, ci) => s.map((l, i) => ({ label: S(l), src: -1, insns: [],
			dso: S(ci === 3 ? '[kernel.kallsyms]' : i ? 'libc.so.6' : 'prog'),
			kernel: ci === 3, addr: '0x' + (0x27000 + ci * 0x400 + i * 0x40).toString(16) })));
	const NONE = -1;
	const root = [S('all'), 0, NONE, 0, '', NONE, []];
	const kids = new Map([[root, new Map()]]);
	let count = 1;

	function child(parent, key, make) {
		const m = kids.get(parent);
		let c = m.get(key);

		if (!c) {
			if (count >= n)
				return null;
			c = make();
			parent[6].push(c);
			kids.set(c, new Map());
			m.set(key, c);
			count++;
		}
		return c;
	}
	const fnode = (f, flags) => () => [f.label, flags, f.dso, 0, f.addr, f.src, []];

	while (count < n) {
		const ci = Math.floor(Math.pow(rand(), 1.5) * comms.length);
		let at = child(root, 'c' + ci, () => [comms[ci], 1, NONE, 0, '', NONE, []]);
		let f = null, ok = !!at;

		for (const s of starts[ci]) {
			const next = ok && child(at, s.label, fnode(s, s.kernel ? 2 | 8 : 2));

			if (!next) {
				ok = false;
				break;
			}
			at = next;
		}
		const depth = 2 + Math.floor(-Math.log(1 - rand()) * 8);

		f = ci === 3 ? null : skew(funcs.slice(0, Math.max(8, Math.floor(nfuncs / 20))));
		for (let d = 0; ok && f && d < depth; d++) {
			const next = child(at, f.label, fnode(f, 2));

			if (!next) {
				ok = false;
				break;
			}
			at = next;
			if (d + 1 < depth)
				f = skew(f.callees);
		}
		/* A quarter of the stacks go on into the kernel. */
		let leaf = f;

		if (ok && (ci === 3 || rand() < 0.25)) {
			for (let k = Math.floor(rand() * 4), d = 0; ok && d < 3 + Math.floor(rand() * 5); d++, k += 1 + Math.floor(rand() * 3)) {
				const kf = kfuncs[k % kfuncs.length];
				const next = child(at, kf.label, fnode(kf, 2 | 8));

				if (!next) {
					ok = false;
					break;
				}
				at = next;
				leaf = kf;
			}
		}
		if (ok && leaf && leaf.insns.length) {
			const ins = skew(leaf.insns);
			const kernel = leaf.dso === S('[kernel.kallsyms]') ? 8 : 0;
			const next = child(at, 'i' + ins.addr, () => [ins.label >= 0 ? ins.label : S(`[${ins.addr}]`),
				4 | kernel, leaf.dso, 0, ins.addr, leaf.src, []]);

			if (next)
				at = next;
		}
		at[3] += 1 + Math.floor(Math.pow(rand(), 8) * 50);
	}
	return { json: { v: 1, info: { input: `synthetic tree of ${n} nodes`,
					 event: 'cpu-clock' }, strings, root }, count };
}

/*
 * Give the function frames of label the whole code of a function of
 * ASM_INSNS instructions, as --annotate-functions gives the hottest: a
 * source line every six instructions or so, a branch to a label of it
 * every eighth, the weight of the samples on one instruction in twenty.
 */
const ASM_INSNS = 12000;

function withFunction(data, label, seed) {
	const rand = rng(seed);
	const { strings, root } = data;
	let dso = -1, addr = '0x1000';

	(function walk(a) {
		if ((a[1] & 7) === 2 && strings[a[0]] === label) {
			dso = a[2];
			addr = a[4];
			a[7] = a[3];
			a[8] = 0;
			a[9] = [];
		}
		for (const c of a[6])
			walk(c);
	})(root);
	const start = parseInt(addr, 16), insns = [], w = [], lines = [];
	let off = 0, line = 1;

	for (let k = 0; k < ASM_INSNS; k++) {
		let text = MNEMONICS[Math.floor(rand() * MNEMONICS.length)];

		if (k % 8 === 7) {
			const to = Math.floor(rand() * off);

			text = `jne     0x${(start + to).toString(16)} <${label}+0x${to.toString(16)}>`;
		} else {
			text = text.replace('%x', (start + 0x40).toString(16));
		}
		if (rand() < 0.17)
			line += 1 + Math.floor(rand() * 3);
		insns.push([off, text, 0, line]);
		if (rand() < 0.05)
			w.push([k, 1000 * (1 + Math.floor(rand() * 50)), 1 + Math.floor(rand() * 50), 0, 0]);
		off += 2 + Math.floor(rand() * 6);
	}
	for (let l = 1; l <= line; l++)
		lines.push(`\tif (state->${WORDS[l % WORDS.length]}[${l}] > limit) return ${l};`);
	data.functions = [{ n: label, d: dso >= 0 ? strings[dso] : 'prog', a: addr, v: 0, s: 0,
			    i: insns, w }];
	data.sources = [{ f: '/src/big.c', first: 1, lines }];
	return line;
}

/* As perf writes it: never a raw <, > or & in the page. */
function pageWith(data) {
	const json = JSON.stringify(data).replace(/[<>&]/g,
		(c) => '\\u00' + c.charCodeAt(0).toString(16));

	return page0.replace(DATA_RE, (m, open, close) => open + json + close);
}

/* A function frame near a tenth of the samples, and a word of names. */
function targets(data) {
	const { strings, root } = data;
	let best = null, bestd = Infinity;

	function total(a) {
		a.t = a[3] + a[6].reduce((s, c) => s + total(c), 0);
		return a.t;
	}
	total(root);
	(function walk(a, depth) {
		const d = Math.abs(a.t / root.t - 0.1);

		if ((a[1] & 7) === 2 && depth >= 4 && d < bestd) {
			best = a;
			bestd = d;
		}
		for (const c of a[6])
			walk(c, depth + 1);
	})(root, 0);
	/*
	 * The Assembly pane's: the heaviest frame of another function below
	 * the zoomed one, drawn wide once zoomed.
	 */
	let asm = null;

	(function walk(a) {
		if ((a[1] & 7) === 2 && a[0] !== best[0] && (!asm || a.t > asm.t))
			asm = a;
		for (const c of a[6])
			walk(c);
	})(best);
	return { zoom: strings[best[0]], share: best.t / root.t, search: 'alloc',
		 asm: asm ? strings[asm[0]] : null };
}

const median = (a) => {
	const s = [...a].sort((x, y) => x - y), m = s.length >> 1;

	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const browser = await chromium.launch({
	executablePath: process.env.FLAMEGRAPH_CHROMIUM || '/usr/bin/chromium',
	headless: true,
	/* As root, and in containers with a small /dev/shm. */
	args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
const tmp = mkdtempSync(path.join(os.tmpdir(), 'bench-viewer.'));
const rows = [];

try {
	for (const n of sizes) {
		const { json, count } = synthetic(n, 0x5eed + n);
		const t = targets(json);
		/* The sizes are of the tree alone, as before the function was added. */
		const plain = pageWith(json);
		const bytes = Buffer.byteLength(plain);
		const dataBytes = Buffer.byteLength(DATA_RE.exec(plain)[0]);

		if (!t.asm)
			throw new Error(`no function frame below ${t.zoom} for the Assembly pane`);
		withFunction(json, t.asm, 0xa5 + n);
		const file = path.join(tmp, `fg-${n}.html`);

		writeFileSync(file, pageWith(json));
		const res = { open: [], load: [], draw: [], zoom: [], search: [], asm: [], all: [] };

		for (let r = 0; r < runs; r++) {
			const context = await browser.newContext({
				viewport: { width: 1600, height: 1000 }, deviceScaleFactor: 1 });
			const page = await context.newPage();
			const t0 = Date.now();

			await page.goto(pathToFileURL(file).href, { waitUntil: 'load', timeout: 120000 });
			const ok = await page.waitForFunction(() => window.perfFlamegraph &&
							      window.perfFlamegraph.timings.open > 0,
							      null, { timeout: 60000 }).then(() => true, () => false);
			if (!ok) {
				const has = await page.evaluate(() => 'perfFlamegraph' in window);

				throw new Error(has ? 'window.perfFlamegraph.timings.open never set' :
					'window.perfFlamegraph is missing: this viewer has no benchmark interface ' +
					'(rebuild perf with the new viewer, util/flamegraph-viewer.js)');
			}
			res.load.push(Date.now() - t0);
			const v = await page.evaluate((tg) => {
				const pf = window.perfFlamegraph;
				const o = { nodes: pf.nodes, open: pf.timings.open, draw: pf.timings.draw };

				o.search = pf.search(tg.search);
				o.highlighted = pf.highlighted();
				pf.search('');
				o.zoom = pf.zoom(tg.zoom);
				o.focus = pf.focus();
				if (pf.asmOpen) {
					o.asm = pf.asmOpen(tg.asm);
					o.asmFn = pf.asm().fn;
					o.all = pf.asmContext(true);
				}
				return o;
			}, t);
			if (v.asm !== undefined && v.asmFn !== t.asm)
				throw new Error(`asmOpen(${t.asm}) showed ${v.asmFn}`);
			if (v.nodes !== count)
				throw new Error(`the viewer counts ${v.nodes} nodes, the page has ${count}`);
			if (v.focus !== t.zoom || v.zoom < 0)
				throw new Error(`zoom(${t.zoom}) returned ${v.zoom}, focus ${v.focus}`);
			if (!v.highlighted)
				throw new Error(`search(${t.search}) highlighted nothing`);
			for (const k of ['open', 'draw', 'zoom', 'search', 'asm', 'all']) {
				if (v[k] !== undefined)
					res[k].push(v[k]);
			}
			await context.close();
		}
		const row = { nodes: count, bytes, perNode: bytes / count, dataPerNode: dataBytes / count,
			      zoomShare: t.share,
			      open: median(res.open), load: median(res.load), draw: median(res.draw),
			      zoom: median(res.zoom), search: median(res.search),
			      asm: res.asm.length ? median(res.asm) : NaN,
			      all: res.all.length ? median(res.all) : NaN };

		console.log(`  ${count} nodes: ${bytes} bytes (${row.perNode.toFixed(1)}/node), ` +
			    `open ${row.open.toFixed(1)} ms (draw ${row.draw.toFixed(1)}), load ${row.load} ms, zoom ${row.zoom.toFixed(1)} ms, ` +
			    `search ${row.search.toFixed(1)} ms, Assembly pane ${row.asm.toFixed(1)} ms, ` +
			    `all contexts ${row.all.toFixed(1)} ms`);
		rows.push(row);
	}
} catch (e) {
	console.error(`bench-viewer: ${e.message}`);
	await browser.close();
	rmSync(tmp, { recursive: true, force: true });
	process.exit(1);
}

const chromiumVersion = browser.version();

await browser.close();
rmSync(tmp, { recursive: true, force: true });

const ms = (x) => x.toFixed(1);
const md = `<!-- SPDX-License-Identifier: GPL-2.0 -->
# Benchmark of the flame graph viewer

Written by \`make bench-viewer\` (\`scripts/bench-viewer.sh\`,
\`scripts/browser/bench-viewer.mjs\`) on ${new Date().toISOString().slice(0, 10)}.
A page written by \`perf flamegraph --asm\` has its data replaced by synthetic
trees in the same format (\`{"v":1,"strings":[...],"root":NODE}\`): four comms,
fixed stack starts, call paths 5 to ~40 deep along a skewed call graph, a
quarter of them ending in the kernel, every stack ending in one of its
function's instructions, C++ names with \`<\`, \`>\` and \`&\` to escape. Each
page is opened ${runs} times in a fresh headless Chromium page (1600x1000,
device scale 1); the numbers are medians. They come from one machine and
one run of \`make bench-viewer\`: the load average under Machine says how
busy it was (on a small machine shared with other work they move by half
between runs).

| nodes | HTML bytes | bytes/node | data bytes/node | open ms | first draw ms | load ms | zoom ms | search ms | Assembly pane ms | all contexts ms |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.nodes} | ${r.bytes} | ${r.perNode.toFixed(1)} | ${r.dataPerNode.toFixed(1)} | ${ms(r.open)} | ${ms(r.draw)} | ${r.load} | ${ms(r.zoom)} | ${ms(r.search)} | ${ms(r.asm)} | ${ms(r.all)} |`).join('\n')}

- **bytes/node**: the whole page over its nodes; **data bytes/node**: the
  \`fg-data\` element alone (the viewer's script and style are the rest);
  both of the page without the function the Assembly pane opens, whose
  12,000 instructions add about 750 KB.
- **open**: \`window.perfFlamegraph.timings.open\`, from the start of the
  viewer's script to the end of its first draw (JSON.parse of the data
  included).
- **first draw**: \`timings.draw\` right after opening: the part of open
  spent drawing.
- **load**: from \`page.goto()\` until \`window.perfFlamegraph\` is there, as
  seen by playwright-core (HTML parsing, the data, the script, the first
  draw and the round trips of the driver).
- **zoom**: \`window.perfFlamegraph.zoom(label)\` into a function frame at
  depth 4 or more holding about a tenth of the samples, drawn.
- **search**: \`window.perfFlamegraph.search('alloc')\`, a substring of about
  one function name in fifteen, highlighted and drawn.
- **Assembly pane**: after the zoom,
  \`window.perfFlamegraph.asmOpen(label)\` on the heaviest frame of another
  function below the zoomed one, which each page gives a whole code of
  ${ASM_INSNS} instructions
  (about 2,000 source lines among them, a branch with a link every eighth,
  a twentieth with samples), as \`--annotate-functions\` gives the hottest
  functions: the pane filled and laid out (script and layout on the main
  thread, not the paint). **all contexts**: then
  \`asmContext(true)\`, its switch to all contexts, filled and laid out.

## Machine

- CPUs (\`nproc\`): ${process.env.BENCH_NPROC || os.availableParallelism()}
- CPU: ${(process.env.BENCH_CPU || os.cpus()[0].model).trim()}
- Chromium: ${process.env.BENCH_CHROMIUM || chromiumVersion}, headless
- perf: ${process.env.BENCH_PERF || '?'}, viewer of commit ${process.env.BENCH_REV || '?'}
- Node.js: ${process.version}, playwright-core ${pwVersion}
- Kernel: ${os.release()}
- Load average (1 min) as the run began: ${load0.toFixed(2)}, after it: ${os.loadavg()[0].toFixed(2)}

## Commands

\`\`\`
${readFileSync(commandsPath, 'utf8').trim()}
\`\`\`
`;

writeFileSync(outPath, md);
console.log(`  wrote ${outPath}`);
