// SPDX-License-Identifier: GPL-2.0
/*
 * The browser half of checks/shell/flamegraph_browser.sh: opens a page
 * written by perf flamegraph from file:// in headless Chromium, through
 * playwright-core, and checks the viewer as a user would use it.
 *
 *   node flamegraph_browser.mjs MODE PAGE.html ARTIFACTS_DIR
 *
 * MODE: workload (tests/shell/lib/flamegraph/*.c with --asm), samples (the
 * same with --value samples), hostile
 * (flamegraph_hostile.c), events (two events), long (flamegraph_cxx.cc:
 * C++ names of thousands of characters), deep (flamegraph_deep.c: stacks
 * cut at the kernel's 127 entries), systemwide (perf record -a), diff
 * (perf flamegraph --diff of two builds of flamegraph_rebuild.c), rename
 * (the same of flamegraph_rename.c, a register renamed), context
 * (flamegraph_context.c: the Assembly pane), context-limit (the same with
 * --annotate-functions=1).
 *
 * Environment: FLAMEGRAPH_NODE_MODULES, the node_modules holding
 * playwright-core; FLAMEGRAPH_CHROMIUM, the browser (/usr/bin/chromium).
 *
 * The viewer's side of the contract: canvas#fg in the scrolling div#graph,
 * input#q, #match, #selected, button#reset, #crumbs (a elements), #tip,
 * button#view-{flame,icicle,merged,inverted,sandwich}, table#hot (columns
 * weight, func, instruction, function, dso; full texts in the cells'
 * titles) with th[data-sort] and input#hot-filter, and
 * window.perfFlamegraph (rect, labels, focus, highlighted, view, rows,
 * nodes, timings, search, zoom). The expected values
 * come from the page's own data (<script id="fg-data">), read here
 * without the viewer.
 *
 * Each check starts from a freshly loaded page, leaves a screenshot in
 * ARTIFACTS_DIR, and fails on a console error, an uncaught exception, a
 * dialog, a Content-Security-Policy violation or any request other than
 * the page itself. Prints "ok: ..." or "FAILED: ..." per check; exits 1
 * if one failed.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [mode, pagePath, artifacts] = process.argv.slice(2);
const MODES = ['workload', 'samples', 'hostile', 'events', 'long', 'deep', 'systemwide', 'diff',
	       'rename', 'context', 'context-limit'];

if (!MODES.includes(mode) || !pagePath || !artifacts) {
	console.error(`usage: flamegraph_browser.mjs ${MODES.join('|')} PAGE.html ARTIFACTS_DIR`);
	process.exit(2);
}
const require = createRequire(path.resolve(process.env.FLAMEGRAPH_NODE_MODULES ||
					 'node_modules', 'x.js'));
const { chromium } = require('playwright-core');

/* The names of lib/flamegraph_hostile.c, byte for byte. */
const HOSTILE = [
	'</script><script>window.__pwned=1</script>',
	'"quoted"&amp;;\'&#39;',
	'<img src=x onerror=window.__pwned=2>',
	'<svg onload=alert(1)>',
	'<!--<script>window.__pwned=3//',
	'javascript:window.__pwned=4',
];
const HOSTILE_COMM = 'fg<i>&amp;x';

/*
 * Give up on a hung browser rather than hang perf test. The timeouts are
 * for a loaded machine of two CPUs (make check-loaded), where one mode
 * takes up to a few minutes: they catch a hang, they time nothing.
 */
const TIMEOUT = { mode: 900000, action: 60000, tip: 30000 };
let current = 'starting the browser';

setTimeout(() => {
	console.log(`FAILED: ${mode}: timed out after ${TIMEOUT.mode / 1000} s in ${current}`);
	process.exit(1);
}, TIMEOUT.mode).unref();

class Failure extends Error {}

function assert(cond, what) {
	if (!cond)
		throw new Failure(what);
}

/* ---- The page's data, read without the viewer ---- */

const html = readFileSync(pagePath, 'utf8');
const pageURL = pathToFileURL(path.resolve(pagePath)).href;

function pageData() {
	const m = /<script type="application\/json" id="fg-data">([^]*?)<\/script>/.exec(html);

	assert(m, 'no <script type="application/json" id="fg-data"> in the page');
	assert(!/[<>&]/.test(m[1]), 'raw <, > or & in the page\'s data');
	const d = JSON.parse(m[1]);

	/* Several events: "graphs", the first shown first. */
	if (Array.isArray(d.graphs) && d.graphs.length > 1 && !('root' in d))
		d.root = d.graphs[0].root;
	assert(d.v === 1 && Array.isArray(d.strings) && Array.isArray(d.root),
	       'fg-data is not {"v":1,"strings":[...],"root":NODE}');
	return d;
}

const KIND = ['root', 'comm', 'func', 'unknown', 'insn', 'truncated'];

/* NODE arrays to objects with their totals. */
function tree(d) {
	let count = 0;

	function build(a, parent) {
		const n = {
			label: a[0] >= 0 ? d.strings[a[0]] : '',
			kind: KIND[a[1] & 7],
			kernel: !!(a[1] & 8),
			dso: a[2] >= 0 ? d.strings[a[2]] : '',
			self: a[3],
			addr: a[4],
			srcline: a[5] >= 0 ? d.strings[a[5]] : '',
			samples: a[7],
			fn: a.length === 10 ? a[8] : undefined,
			calls: a.length === 10 ? a[9] : undefined,
			parent: parent,
			children: [],
		};
		count++;
		n.total = n.self;
		n.totalSamples = n.samples;
		/* A --diff page: the weight before too. */
		n.oldSelf = n.oldTotal = a.length > 8 ? a[8] : 0;
		for (const c of a[6]) {
			const k = build(c, n);

			n.children.push(k);
			n.total += k.total;
			n.totalSamples += k.totalSamples;
			n.oldTotal += k.oldTotal;
		}
		return n;
	}
	const root = build(d.root, null);

	return { root, count };
}

function* nodes(n) {
	yield n;
	for (const c of n.children)
		yield* nodes(c);
}

/* Samples under frames whose label matches, each sample once. */
function matchedSamples(n, re) {
	if (re.test(n.label))
		return n.total;
	return n.children.reduce((s, c) => s + matchedSamples(c, re), 0);
}

/* ---- Pixels: a minimal PNG decoder for Chromium's screenshots ---- */

function decodePNG(buf) {
	let pos = 8, width = 0, height = 0, ctype = 0;
	const idat = [];

	assert(buf.readUInt32BE(0) === 0x89504e47, 'screenshot is not a PNG');
	while (pos < buf.length) {
		const len = buf.readUInt32BE(pos);
		const type = buf.toString('latin1', pos + 4, pos + 8);
		const body = buf.subarray(pos + 8, pos + 8 + len);

		if (type === 'IHDR') {
			width = body.readUInt32BE(0);
			height = body.readUInt32BE(4);
			assert(body[8] === 8 && body[12] === 0,
			       'PNG not 8-bit non-interlaced');
			ctype = body[9];
		} else if (type === 'IDAT') {
			idat.push(body);
		}
		pos += 12 + len;
	}
	const bpp = { 2: 3, 6: 4 }[ctype];

	assert(bpp, `PNG colour type ${ctype}`);
	const raw = inflateSync(Buffer.concat(idat));
	const stride = width * bpp;
	const out = Buffer.alloc(width * height * 4);
	let prev = Buffer.alloc(stride);

	for (let y = 0; y < height; y++) {
		const f = raw[y * (stride + 1)];
		const line = Buffer.from(raw.subarray(y * (stride + 1) + 1,
						      (y + 1) * (stride + 1)));

		for (let i = 0; i < stride; i++) {
			const a = i >= bpp ? line[i - bpp] : 0;
			const b = prev[i];
			const c = i >= bpp ? prev[i - bpp] : 0;
			let p;

			switch (f) {
			case 0: p = 0; break;
			case 1: p = a; break;
			case 2: p = b; break;
			case 3: p = (a + b) >> 1; break;
			case 4: {
				const pa = Math.abs(b - c), pb = Math.abs(a - c),
				      pc = Math.abs(a + b - 2 * c);

				p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
				break;
			}
			default: throw new Failure(`PNG filter ${f}`);
			}
			line[i] = (line[i] + p) & 255;
		}
		for (let x = 0; x < width; x++) {
			const o = (y * width + x) * 4;

			out[o] = line[x * bpp];
			out[o + 1] = line[x * bpp + 1];
			out[o + 2] = line[x * bpp + 2];
			out[o + 3] = bpp === 4 ? line[x * bpp + 3] : 255;
		}
		prev = line;
	}
	return { width, height, data: out };
}

/* The pixel at CSS pixel (x, y) of the canvas, over the white page. */
function pixel(img, x, y) {
	const X = Math.min(Math.floor(x * img.scale), img.width - 1);
	const Y = Math.min(Math.floor(y * img.scale), img.height - 1);
	const o = (Y * img.width + X) * 4, a = img.data[o + 3] / 255;

	return [0, 1, 2].map((i) => Math.round(img.data[o + i] * a + 255 * (1 - a)));
}

const WHITE = '255,255,255';

/*
 * The fill colour of a frame: the commonest colour inside it, leaving
 * out black (its text, the outline of the keyboard cursor).
 */
function frameColor(img, r) {
	const counts = new Map();
	const x0 = Math.ceil(r.x) + 1, x1 = Math.min(Math.floor(r.x + r.w) - 2, img.cssWidth - 1);
	const y0 = Math.ceil(r.y) + 1, y1 = Math.min(Math.floor(r.y + r.h) - 2, img.cssHeight - 1);

	for (let y = y0; y <= Math.max(y0, y1); y++) {
		for (let x = x0; x <= Math.max(x0, x1); x++) {
			const k = pixel(img, x, y).join(',');

			if (k !== '0,0,0')
				counts.set(k, (counts.get(k) || 0) + 1);
		}
	}
	assert(counts.size, `frame ${JSON.stringify(r)} is all black`);
	return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}

/* ---- The browser ---- */

const browser = await chromium.launch({
	executablePath: process.env.FLAMEGRAPH_CHROMIUM || '/usr/bin/chromium',
	headless: true,
	/* As root, and in containers with a small /dev/shm. */
	args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
const context = await browser.newContext({
	viewport: { width: 1280, height: 1000 },
	deviceScaleFactor: 1,
	serviceWorkers: 'block',
});
context.setDefaultTimeout(TIMEOUT.action);
context.setDefaultNavigationTimeout(TIMEOUT.action);

/* What must not happen, reset by each check. */
let trouble = [];

/* Every request of any kind: only the page itself may load, whatever its fragment. */
const pages = new Set([pageURL]);
const samePage = (url) => pages.has(url.split('#')[0]);

await context.route('**/*', (route) => {
	const url = route.request().url();

	if (samePage(url))
		return route.continue();
	trouble.push(`request ${route.request().resourceType()} ${url}`);
	return route.abort();
});
/* Requests that a Content-Security-Policy stops before the network. */
await context.addInitScript(() => {
	document.addEventListener('securitypolicyviolation', (e) => {
		console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
	});
});

const page = await context.newPage();

page.on('console', (m) => {
	if (m.type() === 'error' || m.type() === 'warning')
		trouble.push(`console ${m.type()}: ${m.text()}`);
});
page.on('pageerror', (e) => trouble.push(`uncaught: ${e.message}`));
page.on('dialog', (d) => {
	trouble.push(`dialog ${d.type()}: ${d.message()}`);
	d.dismiss().catch(() => {});
});
page.on('request', (r) => {
	if (!samePage(r.url()))
		trouble.push(`request seen ${r.url()}`);
});
page.on('websocket', (w) => trouble.push(`websocket ${w.url()}`));
page.on('popup', (p) => trouble.push(`popup ${p.url()}`));

const pf = (expr, arg) => page.evaluate(expr, arg);

async function open(url = pageURL) {
	await page.goto(url, { waitUntil: 'load' });
	await page.waitForFunction(() => window.perfFlamegraph &&
				   window.perfFlamegraph.timings.open > 0,
				   null, { timeout: TIMEOUT.action }).catch(() => {
		throw new Failure('no window.perfFlamegraph with timings.open after load');
	});
}

async function canvasBox() {
	const b = await page.locator('canvas#fg').boundingBox();

	assert(b && b.width > 100 && b.height >= 16, `canvas#fg box ${JSON.stringify(b)}`);
	return b;
}

/*
 * What the canvas holds: the rows of the graph in sight in its panel
 * (reveal() brings a frame there). 'frames render' checks the screen too.
 */
async function canvasPixels() {
	const [url, w, h] = await pf(() => {
		const cv = document.getElementById('fg');

		return [cv.toDataURL('image/png'), cv.clientWidth, cv.clientHeight];
	});
	const img = decodePNG(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));

	img.scale = img.width / w;
	img.cssWidth = w;
	img.cssHeight = h;
	return img;
}

/* Until the page has drawn what came before (scroll events included). */
const frame = () => pf(() => new Promise((ok) =>
	requestAnimationFrame(() => requestAnimationFrame(ok))));

/*
 * Scroll the panel that holds the canvas (#graph: the canvas is a window
 * on the graph's rows, never taller than the panel) to bring the frame
 * r, in canvas pixels, onto the canvas; the frame's middle in viewport
 * coordinates. r.y follows the scroll.
 */
async function reveal(r) {
	const moved = await pf((f) => {
		const g = document.getElementById('graph');
		const h = document.getElementById('fg').clientHeight, before = g.scrollTop;

		if (f.y < 0 || f.y + f.h > h)
			g.scrollTop = before + f.y + f.h / 2 - h / 2;
		return g.scrollTop - before;
	}, r);

	if (moved)
		await frame();
	r.y -= moved;
	const b = await canvasBox(), vp = page.viewportSize();
	const x = b.x + r.x + Math.min(r.w / 2, 40), y = b.y + r.y + r.h / 2;

	assert(r.y >= 0 && r.y + r.h <= b.height + 0.5,
	       `frame ${JSON.stringify(r)} not on the canvas, ${b.height} px tall`);
	assert(x >= 0 && x < vp.width && y >= 0 && y < vp.height,
	       `frame ${JSON.stringify(r)} out of sight at (${x}, ${y})`);
	return { x, y };
}

const rect = (label) => pf((l) => window.perfFlamegraph.rect(l), label);
const labels = () => pf(() => window.perfFlamegraph.labels());
const focus = () => pf(() => window.perfFlamegraph.focus());
const highlighted = () => pf(() => window.perfFlamegraph.highlighted());

/* A click in the middle of the frame drawn for label. */
/*
 * The frame to aim at for label: the first drawn, as rect() gives it,
 * unless that is a sliver, as when a broken callchain put a copy of the
 * function before the real one; then the widest, laid out from the data
 * (children side by side in the data's order, as wide as their samples),
 * in the flame view at the top zoom.
 */
async function aim(label) {
	const r = await rect(label);

	assert(r, `no frame drawn for ${JSON.stringify(label)}`);
	if (r.w >= 3)
		return r;
	assert(await focus() === rootLabel &&
	       await pf(() => window.perfFlamegraph.view()) === 'flame',
	       `the first frame of ${JSON.stringify(label)} is ${r.w} px wide`);
	const root = await rect(rootLabel);
	let best = null;

	(function lay(n, x, depth) {
		const w = n.total / total * root.w;

		if (n.label === label && (!best || w > best.w))
			best = { x, y: root.y - depth * root.h, w, h: root.h };
		for (const c of n.children) {
			lay(c, x, depth + 1);
			x += c.total / total * root.w;
		}
	})(T.root, root.x, 0);
	return best;
}

async function clickFrame(label) {
	const r = await aim(label);
	const p = await reveal(r);

	await page.mouse.click(p.x, p.y);
	return r;
}

async function hoverFrame(label) {
	const p = await reveal(await aim(label));

	await page.mouse.move(p.x, p.y);
}

async function typeSearch(text) {
	const q = page.locator('input#q');

	await q.fill('');
	await q.pressSequentially(text);
	assert(await q.inputValue() === text, `#q holds ${await q.inputValue()}`);
}

/*
 * The #match (or #selected) text: share, weight, total, as the page
 * prints them (times as times), the exact numbers in its title.
 */
async function matchText(sel = '#match', what = 'matched') {
	const el = page.locator(sel);
	const t = (await el.textContent()).trim(), title = await el.getAttribute('title');
	const m = new RegExp(`^${what}: ([0-9.]+)% \\((.+) of (.+)\\)$`).exec(t);
	const x = /^(\d+) of (\d+) ([a-z ]+)$/.exec(title || '');

	assert(m && x, `${sel} says ${JSON.stringify(t)}, its title ${JSON.stringify(title)}`);
	shownWeight(m[2], +x[1], `${sel}'s weight`);
	if (timeUnit)
		shownWeight(m[3], +x[2], `${sel}'s total`);
	else
		assert(m[3] === `${x[2]} ${x[3]}`, `${sel} says ${JSON.stringify(t)}, its title ${title}`);
	return { text: t, pct: m[1], n: +x[1], of: +x[2] };
}

const within = (a, b, tol) => Math.abs(a - b) <= tol;

let failed = 0, passed = 0, slug = '';

/* A screenshot of the page, named after the check and the moment. */
async function snap(moment) {
	await page.screenshot({
		path: path.join(artifacts, `${mode}-${slug}${moment ? '-' + moment : ''}.png`),
		fullPage: true,
	});
}

async function check(name, fn) {
	let why = [];

	trouble = [];
	current = `the check "${name}"`;
	slug = name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
	try {
		await fn();
	} catch (e) {
		why.push(e instanceof Failure ? e.message : e.stack);
	}
	await page.waitForTimeout(50);
	const pwned = await pf(() => window.__pwned).catch(() => undefined);

	if (pwned !== undefined)
		why.push(`window.__pwned = ${pwned}`);
	why = why.concat(trouble);
	if (why.length) {
		console.log(`FAILED: ${mode}: ${name}: ${why.join('; ')}`);
		failed++;
	} else {
		console.log(`ok: ${mode}: ${name}`);
		passed++;
	}
	await snap('').catch(() => {});
}

mkdirSync(artifacts, { recursive: true });

let data, T;
try {
	data = pageData();
	T = tree(data);
} catch (e) {
	console.log(`FAILED: ${mode}: page data: ${e.message}`);
	await browser.close();
	process.exit(1);
}
const rootLabel = T.root.label;
/* The info of the graph shown first: its unit and weight. */
const info = Object.assign({}, data.info, (data.graphs || [{}])[0].info);
/* Weights in ns (cpu-clock, task-clock, off-CPU time): printed as times. */
const timeUnit = info.unit === 'ns' && info.weight !== 'samples';
const TIME = { s: 1e9, ms: 1e6, '\u00b5s': 1e3, ns: 1 };

/*
 * A weight as the page prints it, checked against its exact value v:
 * in ns, a time to four significant digits in the largest of s, ms, us
 * and ns that it is at least one of, rounded from the exact value;
 * else the number itself.
 */
function shownWeight(text, v, what) {
	const m = /^(-?[0-9.]+) (s|ms|\u00b5s|ns)$/.exec(text || '');

	if (!timeUnit) {
		assert(text === String(v), `${what}: ${JSON.stringify(text)}, not ${v}`);
		return;
	}
	assert(m, `${what}: ${JSON.stringify(text)} is not a time (of ${v} ns)`);
	const x = +m[1], f = TIME[m[2]], digits = m[1].replace(/^-?[0.]*|\./g, '').length;

	if (m[2] === 'ns') {
		assert(x === v && Math.abs(v) < 1000, `${what}: ${text}, the exact value ${v} ns`);
		return;
	}
	assert(Math.abs(x) >= 1 && (m[2] === 's' || Math.abs(x) < 1000),
	       `${what}: ${text} for ${v} ns: not the largest unit it is one of`);
	assert(digits === 4 || (Math.abs(x) >= 1000 && Number.isInteger(x)),
	       `${what}: ${text} has ${digits} significant digits`);
	/* Within half the last digit of the exact value. */
	const last = Math.abs(x) >= 1000 ? f : Math.pow(10, Math.floor(Math.log10(Math.abs(x))) - 3) * f;

	assert(Math.abs(x * f - v) <= last / 2 * (1 + 1e-9), `${what}: ${text}, the exact value ${v} ns`);
}

const T_root = () => T.root;
/* The page's own script elements (its script may mention "<script"). */
const nrScripts = html.match(/<script\b[^>]*>[^]*?<\/script>/g).length;
const total = T.root.total;

/* Frames at least 2 CSS pixels wide at the top zoom: surely drawn. */
function wideLabels(width) {
	const s = new Set();

	for (const n of nodes(T.root)) {
		if (n.total / total * width >= 2)
			s.add(n.label);
	}
	return s;
}

const HIGHLIGHT = '230,0,230';
const funcKey = (n) => `${n.dso}\0${n.label}`;
const insnKey = (n) => `${funcKey(n.parent)}\0${n.addr}`;
/* How the viewer merges nodes across callers. */
const nodeKey = (n) => (n.kind === 'func' || n.kind === 'unknown' ? funcKey(n) :
			n.kind === 'insn' ? insnKey(n) : `${n.kind}\0${n.label}`);
const insnNodes = () => [...nodes(T.root)].filter((n) => n.kind === 'insn');
const sum = (list) => list.reduce((s, n) => s + n.total, 0);

/*
 * perf annotate's percent of the instruction e ({insn, func, dso}, as a
 * hot row names it): its leaves over its function's, two decimals.
 */
function insnShare(e) {
	const mine = insnNodes().filter((n) => n.label === e.insn && n.parent.label === e.func &&
					 n.dso === e.dso);

	assert(mine.length, `no instruction ${JSON.stringify(e)} in the data`);
	const fk = funcKey(mine[0].parent);

	return +(100 * sum(mine) / sum(insnNodes().filter((n) => funcKey(n.parent) === fk))).toFixed(2);
}

/* The function's frames not inside another of its frames (recursion). */
function outermost(key) {
	const out = [];

	(function walk(n, inside) {
		const is = (n.kind === 'func' || n.kind === 'unknown') && funcKey(n) === key;

		if (is && !inside)
			out.push(n);
		for (const c of n.children)
			walk(c, inside || is);
	})(T.root, false);
	return out;
}

/*
 * The weight of a card's line (total, self, before, after): the exact
 * value and samples, the printed time checked against the value.
 */
function amount(t, what) {
	const m = new RegExp(`\\n${what}: (?:(\\S+ \\S+) \\()?(\\d+) ([a-z ]+?)\\)?` +
			     '(?:, (\\d+) (samples?))?(?: \\(|\\n|$)').exec(t);
	const unit = timeUnit ? 'ns' : info.weight === 'samples' ? 'samples' : info.unit;
	/* "1 sample", "1 fault", "1 context switch"; "1 ns". */
	const per = (n, u) => (n === 1 && u !== 'ns' ? u.replace(/ches$/, 'ch').replace(/s$/, '') : u);

	if (!m)
		return { value: NaN, samples: NaN };
	assert(m[3] === per(+m[2], unit), `the card's ${what} is in ${m[3]}: ${t}`);
	assert(m[4] === undefined || m[5] === per(+m[4], 'samples'),
	       `the card's ${what} says ${m[4]} ${m[5]}: ${t}`);
	if (timeUnit)
		shownWeight(m[1], +m[2], `the card's ${what}`);
	else
		assert(m[1] === undefined, `the card's ${what}: ${m[0]}`);
	return { value: +m[2], samples: m[4] ? +m[4] : unit === 'samples' ? +m[2] : NaN };
}

/* The numbers of a hover card. */
function card(t) {
	const x = /share of its function: ([0-9.]+)%/.exec(t);
	const total = amount(t, 'total');

	return { total: total.value, samples: total.samples, self: amount(t, 'self').value,
		 share: x ? +x[1] : NaN };
}

/*
 * A row of the hot table, whole names from the cells' titles, the exact
 * weight from the row's; the weight printed checked against it.
 */
async function hotRow(i) {
	const tr = page.locator('table#hot tbody tr').nth(i);
	const t = await tr.locator('td').evaluateAll((tds) => tds.map((td) => td.title || td.textContent));
	const title = await tr.getAttribute('title');
	const x = /^(\d+) ([a-z ]+), /.exec(title);

	assert(x, `hot row ${i}'s title ${JSON.stringify(title)} has no exact weight`);
	shownWeight(t[0], +x[1], `hot row ${i}'s weight`);
	return { weight: +x[1], share: parseFloat(t[1]), insn: t[2], func: t[3], dso: t[4],
		 key: await tr.getAttribute('data-key') };
}

/*
 * The hot table's columns as drawn: each one's width, what its widest
 * cell needs to be whole (its text's width in the cell's font, and the
 * cell's padding), what three quarters of its cells need, and how many
 * are cut; the texts whole from the titles, for the instruction with a
 * branch target's symbol of up to 16 characters, as the viewer cuts it.
 */
async function hotColumns() {
	return page.locator('table#hot').evaluate((table) => {
		const ctx = document.createElement('canvas').getContext('2d');
		const ths = [...table.tHead.rows[0].cells];
		const rows = [...table.tBodies[0].rows];
		const side = document.getElementById('side');

		return { side: side.clientWidth, right: table.getBoundingClientRect().right,
			 vw: document.documentElement.clientWidth, cols: ths.map((th, i) => {
			const needs = [];
			let cut = 0;

			for (const tr of rows) {
				const td = tr.cells[i], cs = getComputedStyle(td);
				let text = i >= 2 ? td.title : td.textContent;
				const a = text.indexOf('<'), b = text.lastIndexOf('>');

				if (i === 2 && a > 0 && b - a > 17)
					text = text.slice(0, a + 17) + text.slice(b);
				ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
				needs.push(ctx.measureText(text).width +
					   parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight));
				cut += td.textContent !== (i >= 2 ? td.title : td.textContent) ||
				       td.scrollWidth > td.clientWidth;
			}
			needs.sort((a, b) => a - b);
			return { name: th.textContent, w: th.getBoundingClientRect().width, cut,
				 need: needs.at(-1), most: needs[Math.ceil(needs.length * 0.75) - 1] };
		}) };
	});
}

/* The workload's two static functions named spin, not _raw_spin_lock. */
const SPIN = /^spin\b/;

const funcs = (l) => [...nodes(T.root)].filter((n) => n.label === l && n.kind === 'func');

async function workloadChecks() {

	for (const f of ['main', 'work', 'mix'])
		assert(funcs(f).length, `no function ${f} in the page's data`);

	await check('frames render', async () => {
		await open();
		const b = await canvasBox(), W = b.width;
		const n = await pf(() => window.perfFlamegraph.nodes);

		assert(n === T.count, `perfFlamegraph.nodes ${n}, the data has ${T.count}`);
		assert(await pf(() => window.perfFlamegraph.view()) === 'flame', 'view is not flame');
		assert(await focus() === rootLabel, `focus ${await focus()}, not the root`);
		const drawn = await labels(), known = new Set([...nodes(T.root)].map((x) => x.label));

		for (const l of wideLabels(W))
			assert(drawn.includes(l), `${JSON.stringify(l)} is wide but not drawn`);
		for (const l of drawn)
			assert(known.has(l), `drawn ${JSON.stringify(l)} is not in the data`);

		/* Geometry: the root spans the canvas at the bottom, main
		 * sits on its caller, mix is as wide as its samples. */
		const r = await rect(rootLabel), main = await aim('main'),
		      mix = await aim('mix');

		assert(r && within(r.x, 0, 1) && within(r.w, W, 1.5),
		       `root frame ${JSON.stringify(r)}, canvas ${W} wide`);
		assert(within(r.y + r.h, b.height, 1), `root frame not at the bottom: ${JSON.stringify(r)}`);
		assert(main && mix && mix.y < main.y, `mix ${JSON.stringify(mix)} not above main ${JSON.stringify(main)}`);
		assert(funcs('mix').some((m) => within(mix.w, m.total / total * W, 1.5)),
		       `mix is ${mix.w} px wide, its samples say ${funcs('mix').map((m) => m.total / total * W)}`);

		/*
		 * Pixels: painted, in several colours, where rect() says. The
		 * rows from the root up to mix are full of frames (root, comm,
		 * libc, main, work, then mix beside the two spins), but for
		 * the pixel of space between two frames.
		 */
		const img = await canvasPixels();
		let painted = 0, area = 0;
		const colours = new Set();

		for (let y = 0; y < img.cssHeight; y++) {
			for (let x = 0; x < img.cssWidth; x++) {
				const p = pixel(img, x, y).join(',');

				colours.add(p);
				if (y < Math.ceil(mix.y))
					continue;
				area++;
				if (p !== WHITE)
					painted++;
			}
		}
		assert(area >= 5 * 16 * img.cssWidth && painted > 0.85 * area,
		       `${painted} of the ${area} pixels from the root to mix painted`);
		assert(colours.size >= 5, `${colours.size} colours on the canvas`);
		for (const l of [rootLabel, 'main', 'work', 'mix']) {
			const c = frameColor(img, await aim(l));

			assert(c !== WHITE, `frame ${l} is ${c}`);
		}
		assert(frameColor(img, mix) !== frameColor(img, r), 'mix and the root have the same colour');
		/* And on the screen: the rows from the root to mix, in sight. */
		const p = await reveal(r), cb = await canvasBox();
		const shot = decodePNG(await page.screenshot({
			clip: { x: cb.x, y: p.y - r.h / 2 - (r.y - mix.y), width: W, height: r.y + r.h - mix.y },
		}));
		let lit = 0;

		shot.scale = 1;
		for (let y = 0; y < shot.height; y++) {
			for (let x = 0; x < shot.width; x++)
				lit += pixel(shot, x, y).join(',') !== WHITE;
		}
		assert(lit > 0.85 * shot.width * shot.height,
		       `on the screen, ${lit} of ${shot.width * shot.height} pixels from the root to mix painted`);
	});

	await check('click zooms', async () => {
		await open();
		const W = (await canvasBox()).width;
		const before = await aim('mix');

		assert(before.w < W * 0.9, `mix already ${before.w} of ${W} px wide`);
		assert((await labels()).some((l) => SPIN.test(l)), 'no spin frame drawn');
		await clickFrame('mix');
		await snap('mix');
		assert(await focus() === 'mix', `focus ${await focus()} after a click on mix`);
		const after = await rect('mix');

		assert(within(after.x, 0, 1) && within(after.w, W, 1.5),
		       `zoomed mix is ${JSON.stringify(after)}, canvas ${W} wide`);
		const drawn = await labels();

		assert(!drawn.some((l) => SPIN.test(l)), 'spin, beside mix, still drawn');
		/* The click zoomed to the widest mix: the heaviest. */
		const mixNode = heaviestOf(funcs('mix'));
		const kids = mixNode.children.filter((c) => c.total / mixNode.total * W >= 2);
		assert(kids.length, 'mix has no children');
		for (const c of kids)
			assert(drawn.includes(c.label), `child ${c.label} of mix not drawn`);
		/* The row of mix is painted across the canvas. */
		const img = await canvasPixels(), y = Math.ceil(after.y) + 1;

		for (const x of [2, Math.floor(W / 2), Math.floor(W) - 4])
			assert(pixel(img, x, y).join(',') !== WHITE, `zoomed mix not painted at x=${x}`);
		const crumbs = await page.locator('#crumbs a').allTextContents();

		assert(crumbs.at(-1) === 'mix' && crumbs.includes('work') && crumbs.includes('main'),
		       `crumbs ${JSON.stringify(crumbs)}`);
		/* A crumb zooms out to it. */
		await page.locator('#crumbs a', { hasText: /^work$/ }).click();
		assert(await focus() === 'work', `focus ${await focus()} after the work crumb`);
		assert(within((await rect('work')).w, W, 1.5), 'work not full width');
		assert((await labels()).some((l) => SPIN.test(l)), 'spin not back under work');
		/* zoom() does the same as a click. */
		const ms = await pf(() => window.perfFlamegraph.zoom('mix'));
		assert(typeof ms === 'number' && ms >= 0 && await focus() === 'mix',
		       `zoom('mix') returned ${ms}, focus ${await focus()}`);
		await page.locator('button#reset').click();
		assert(await focus() === rootLabel, `focus ${await focus()} after reset`);
		assert(within((await aim('mix')).w, before.w, 0.5), 'reset does not restore mix');
	});

	await check('hover shows the tooltip', async () => {
		await open();
		await hoverFrame('work');
		const tip = page.locator('#tip');

		await tip.waitFor({ state: 'visible', timeout: TIMEOUT.tip });
		const t = await tip.textContent();

		assert(t.includes('work'), `tooltip over work says ${JSON.stringify(t)}`);
		await hoverFrame('mix');
		assert((await tip.textContent()).includes('mix'), 'tooltip not updated over mix');
	});

	await check('search highlights', async () => {
		await open();
		const imgBefore = await canvasPixels();
		/* The two functions; the search finds kernel frames too. */
		const spin = (await labels()).filter((l) => SPIN.test(l));

		assert(spin.length >= 2, `spin frames drawn: ${spin}`);
		assert(await highlighted() === 0, 'frames highlighted before any search');
		await typeSearch('spin');
		await snap('spin');
		const drawn = await labels();
		const want = drawn.filter((l) => l.toLowerCase().includes('spin')).length;

		assert(await highlighted() === want,
		       `${await highlighted()} frames highlighted, ${want} drawn frames hold "spin"`);
		const m = await matchText(), n = matchedSamples(T.root, /spin/i);

		assert(m.n === n && m.of === total && m.pct === (100 * n / total).toFixed(2),
		       `${m.text}, the data says ${n} of ${total}`);
		assert(n > 0 && n < total, `spin has ${n} of ${total} samples`);
		/* Pixels: the spin frames change colour, mix does not. */
		const img = await canvasPixels(), s = await aim(spin[0]), x = await aim('mix');

		assert(frameColor(img, s) !== frameColor(imgBefore, s),
		       `${spin[0]} is ${frameColor(img, s)} before and after the search`);
		assert(frameColor(img, x) === frameColor(imgBefore, x), 'mix changed colour');

		/* A regular expression, anchored. */
		await typeSearch('/^(mix|work)$/');
		const rm = await matchText(), rn = matchedSamples(T.root, /^(mix|work)$/);
		const rw = (await labels()).filter((l) => l === 'mix' || l === 'work').length;

		assert(rm.n === rn && rm.of === total, `${rm.text}, the data says ${rn} of ${total}`);
		assert(await highlighted() === rw, `${await highlighted()} highlighted, want ${rw}`);
		/* search() from the interface, then nothing. */
		const ms = await pf(() => window.perfFlamegraph.search('mix'));
		assert(typeof ms === 'number' && ms >= 0, `search() returned ${ms}`);
		assert(await page.locator('input#q').inputValue() === 'mix', 'search() did not set #q');
		assert((await matchText()).n === matchedSamples(T.root, /mix/i), 'search(mix) share');
		await typeSearch('');
		assert(await highlighted() === 0, 'frames highlighted after clearing the search');
	});

	await check('hot instruction selects its leaves', async () => {
		await open();
		const rows = page.locator('table#hot tbody tr');
		const nr = await rows.count();
		const distinct = new Set(insnNodes().map(insnKey));

		assert(nr >= Math.min(distinct.size, 10) && nr <= distinct.size,
		       `${nr} hot rows, ${distinct.size} instructions in the data`);
		const row = await hotRow(0);
		const leaves = insnNodes().filter((n) => n.label === row.insn &&
						  n.parent.label === row.func && n.dso === row.dso);

		assert(leaves.length, `hot row ${JSON.stringify(row)} is no instruction of the data`);
		const weight = leaves.reduce((s, n) => s + n.total, 0);
		const heaviest = leaves.reduce((a, b) => (b.total > a.total ? b : a));

		assert(row.weight === weight, `hot row weight ${row.weight}, the data says ${weight}`);
		const root0 = frameColor(await canvasPixels(), await rect(rootLabel));

		await rows.nth(0).click();
		await snap('selected');
		assert(await rows.nth(0).evaluate((e) => e.classList.contains('sel')),
		       'the clicked row has no class sel');
		assert(await page.locator('table#hot tbody tr.sel').count() === 1,
		       'more than one row selected');
		/* Zoomed to the heaviest stack: its function, its callers in the crumbs. */
		const path = [];

		for (let a = heaviest.parent; a; a = a.parent)
			path.unshift(a.label);
		assert(await focus() === heaviest.parent.label,
		       `focus ${await focus()}, the heaviest stack ends in ${heaviest.parent.label}`);
		const crumbs = await page.locator('#crumbs a').evaluateAll((as) => as.map((a) => a.title));

		assert(JSON.stringify(crumbs) === JSON.stringify(path),
		       `crumbs ${JSON.stringify(crumbs)}, the heaviest stack is ${JSON.stringify(path)}`);
		/* The share of the instruction, as search gives its matches. */
		const m = await matchText('#selected', 'instruction');

		assert(m.n === weight && m.of === total && m.pct === (100 * weight / total).toFixed(2),
		       `#selected says ${JSON.stringify(m.text)}, the data ${weight} of ${total}`);
		/* Its leaves only: not the function, not main, not the root. */
		const h = await highlighted();

		assert(h >= 1 && h <= leaves.length,
		       `${h} frames highlighted, the instruction has ${leaves.length} leaves`);
		const img = await canvasPixels();
		const leaf = await rect(heaviest.label), fn = await rect(heaviest.parent.label);

		assert(frameColor(img, leaf) === HIGHLIGHT,
		       `the instruction's frame is ${frameColor(img, leaf)}`);
		assert(frameColor(img, fn) !== HIGHLIGHT, 'its function is highlighted');
		await page.locator('button#reset').click();
		await rows.nth(0).click();
		const img2 = await canvasPixels();

		assert(frameColor(img2, await rect(rootLabel)) === root0,
		       'the root changed colour with an instruction selected');
		assert(frameColor(img2, await rect('main')) !== HIGHLIGHT, 'main highlighted');
		/* Clicked again: nothing selected. */
		await rows.nth(0).click();
		assert(await highlighted() === 0 &&
		       (await page.locator('#selected').textContent()) === '',
		       'still highlighted after the row was clicked again');
	});

	await check('hot table: instructions whole, sorted, filtered', async () => {
		await open();
		const vw = page.viewportSize().width;
		const rows = page.locator('table#hot tbody tr');
		const nr = await rows.count();

		for (let i = 0; i < Math.min(nr, 20); i++) {
			const c = await rows.nth(i).locator('td').nth(2).evaluate((td) => {
				const r = td.getBoundingClientRect();

				return { l: r.left, r: r.right, sw: td.scrollWidth, cw: td.clientWidth,
					 text: td.textContent, title: td.title };
			});

			/*
			 * Whole but for a branch target's symbol, which the
			 * viewer cuts first where the column, sized to what
			 * three quarters of the rows need, is too narrow (a
			 * sampled jump in libc to a versioned name, say).
			 */
			const bare = (t) => t.replace(/<[^>]*>/, '<>');

			assert(c.l >= 0 && c.r <= vw && c.sw <= c.cw &&
			       (c.text === c.title || bare(c.text) === bare(c.title)),
			       `instruction cell ${JSON.stringify(c)} not whole at ${vw} px`);
		}
		/* Sorted by the share of the function, as perf annotate's percent. */
		await page.locator('table#hot th[data-sort="func"]').click();
		const shares = [];

		for (let i = 0; i < await rows.count(); i++) {
			const r = await hotRow(i);

			shares.push(r.share);
			if (i < 5) {
				const want = insnShare(r);

				assert(r.share === want, `row ${i} says ${r.share}%, the data ${want}%`);
			}
		}
		assert(shares.every((x, i) => !i || shares[i - 1] >= x),
		       `not sorted by the function's share: ${shares}`);
		/* Filtered: the rows whose function, instruction, source or dso holds "mix". */
		await page.locator('input#hot-filter').fill('mix');
		const want = new Set(insnNodes().filter((n) => [n.parent.label, n.label, n.srcline, n.dso]
			.some((x) => x.toLowerCase().includes('mix'))).map(insnKey));
		const got = await rows.count();

		assert(got === Math.min(want.size, 200) && got > 0,
		       `${got} rows hold "mix", the data has ${want.size}`);
		for (let i = 0; i < got; i++)
			assert((await hotRow(i)).func === 'mix', `row ${i} of the filter is not in mix`);
	});

	await check('hot table: each column what it needs, times as times', async () => {
		await page.setViewportSize({ width: 1280, height: 900 });
		try {
			await open();
			const t = await hotColumns(), c = t.cols;
			const show = JSON.stringify(c.map((x) => [x.name, Math.round(x.w), Math.round(x.most),
								  Math.round(x.need), x.cut]));
			const text = c.slice(2), room = c.reduce((s, x) => s + x.w, 0);

			assert(c.length === 5 && t.right <= t.vw && within(room, t.side, 3),
			       `the table is ${room} px wide, ends at ${t.right}, the panel ${t.side}: ${show}`);
			/* The numbers whole; the texts whole where they fit. */
			for (const x of c.slice(0, 2))
				assert(!x.cut && x.w >= x.need - 0.5, `the ${x.name} column is cut: ${show}`);
			for (const x of text)
				assert(x.w < x.need - 0.5 || !x.cut, `the ${x.name} column fits, yet cuts: ${show}`);
			/*
			 * Short of what three quarters of its cells need only where
			 * no other column is wider; short of its widest cell only
			 * where no other is wider, but up to what three quarters of
			 * that one's cells need.
			 */
			for (const x of text.filter((y) => y.w < y.need - 0.5)) {
				for (const o of text) {
					const may = x.w < x.most - 0.5 ? x.w : Math.max(x.w, o.most);

					/* The viewer's 2 px more than the padding. */
					assert(o.w <= may + 3, `the ${x.name} column (${x.w} px) is short, ` +
					       `the ${o.name} column is wider: ${show}`);
				}
			}
			const textRoom = room - c[0].w - c[1].w;

			if (text.reduce((s, x) => s + x.need, 0) <= textRoom)
				assert(text.every((x) => x.w >= x.need - 0.5), `room for all, yet: ${show}`);
			if (text.reduce((s, x) => s + x.most, 0) <= textRoom)
				assert(text.every((x) => x.w >= x.most - 0.5), `room for most, yet: ${show}`);
			await snap('900');
			/* Every weight a time, rounded from the data's exact value. */
			const rows = await page.locator('table#hot tbody tr').count();
			const leaves = new Map();

			for (const n of insnNodes())
				leaves.set(insnKey(n), (leaves.get(insnKey(n)) || 0) + n.total);
			assert(timeUnit, `cpu-clock's unit is ${info.unit}, not ns`);
			for (let i = 0; i < rows; i++) {
				const r = await hotRow(i);

				assert(r.weight === leaves.get(r.key),
				       `hot row ${i} weighs ${r.weight} ns, the data says otherwise`);
			}
			assert(await page.locator('#hot-weight').textContent() === 'time',
			       `the weight column is headed ${await page.locator('#hot-weight').textContent()}`);
			/* The header: the total a time, exact in the title. */
			const hdr = page.locator('#hdr span', { hasText: /^weight: / });
			const h = /^weight: period, (.*)$/.exec(await hdr.textContent());

			assert(h && await hdr.getAttribute('title') === `${total} ns`,
			       `the header says ${await hdr.textContent()}`);
			shownWeight(h[1], total, 'the header\'s weight');
		} finally {
			await page.setViewportSize({ width: 1280, height: 1000 });
		}
	});

	await check('hover card: total, self, samples', async () => {
		await open();
		/* Its own: its self and, with --asm, its instruction leaves. */
		const own = (n) => n.self + sum(n.children.filter((x) => x.kind === 'insn'));
		const name = ['mix', 'work', 'main'].find((l) => funcs(l).length === 1 &&
							    own(funcs(l)[0]) > 0);

		assert(name, 'no function of one frame with samples of its own');
		const w = funcs(name);

		await hoverFrame(name);
		const c = card(await page.locator('#tip').textContent());

		assert(c.total === w[0].total && c.self === own(w[0]) &&
		       c.samples === w[0].totalSamples,
		       `card of ${name} ${JSON.stringify(c)}, the data: total ${w[0].total}, ` +
		       `self ${own(w[0])}, ${w[0].totalSamples} samples`);
		const i = insnNodes().reduce((a, b) => (b.total > a.total ? b : a));

		await clickFrame(i.parent.label);
		await hoverFrame(i.label);
		const ci = card(await page.locator('#tip').textContent());

		assert(ci.share === insnShare({ insn: i.label, func: i.parent.label, dso: i.dso }),
		       `card of ${i.label}: ${ci.share}% of its function`);
	});

	await check('sandwich: callers above, callees below', async () => {
		await open();
		await clickFrame('mix');
		await page.locator('button#view-sandwich').click();
		await snap('sandwich');
		assert(await pf(() => window.perfFlamegraph.view()) === 'sandwich', 'not sandwich');
		assert(await focus() === 'mix', `sandwich of ${await focus()}`);
		const occ = outermost(funcKey(funcs('mix')[0]));
		const want = occ.reduce((s, n) => s + n.total, 0);

		await hoverFrame('mix');
		assert(card(await page.locator('#tip').textContent()).total === want,
		       `mix in the sandwich: ${await page.locator('#tip').textContent()}, want ${want}`);
		/* Each caller and callee as wide and as heavy as the data's. */
		const sums = new Map();
		const addTo = (k, n, w) => sums.set(k, { label: n.label, w: (sums.get(k) || { w: 0 }).w + w });

		for (const o of occ) {
			addTo('up' + nodeKey(o.parent), o.parent, o.total);
			for (const c of o.children)
				addTo('down' + nodeKey(c), c, c.total);
		}
		const mix = await rect('mix');
		let seen = 0;

		for (const [k, e] of sums) {
			const r = await rect(e.label);

			if (!r || r.w < 20)
				continue;
			assert(k.startsWith('up') ? r.y < mix.y : r.y > mix.y,
			       `${e.label} on the wrong side of mix`);
			assert(within(r.w, e.w / want * mix.w, 1.5),
			       `${e.label} is ${r.w} px wide, its ${e.w} of ${want} say ${e.w / want * mix.w}`);
			await hoverFrame(e.label);
			const c = card(await page.locator('#tip').textContent());

			assert(c.total === e.w, `${e.label}: card total ${c.total}, the data ${e.w}`);
			seen++;
		}
		assert(seen >= 2, `${seen} callers and callees checked`);
		await page.keyboard.press('Escape');
		assert(await pf(() => window.perfFlamegraph.view()) === 'flame', 'Escape leaves the sandwich');
	});

	await check('sandwich: a search that matches no function', async () => {
		await open();
		await typeSearch('zzz-no-such-frame');
		await page.locator('button#view-sandwich').click();
		await snap('nothing');
		const note = page.locator('#note');

		assert(await pf(() => window.perfFlamegraph.view()) === 'flame',
		       `view ${await pf(() => window.perfFlamegraph.view())}`);
		assert(await note.isVisible() &&
		       /the search matches no function/.test(await note.textContent()),
		       `the sandwich button said ${JSON.stringify(await note.textContent())}`);
		await nothingWider('the note');
		assert(await pf(() => document.documentElement.scrollHeight <= window.innerHeight),
		       'the note made the page taller than the window');
		/* A search matching an instruction: its function, the heaviest. */
		const i = insnNodes().reduce((a, b) => (b.total > a.total ? b : a));
		const re = new RegExp(i.label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
		const fns = [...nodes(T.root)].filter((n) => (n.kind === 'func' || n.kind === 'unknown') &&
			(re.test(n.label) || n.children.some((c) => c.kind === 'insn' && re.test(c.label))));
		const want = fns.reduce((a, b) => (b.total > a.total ? b : a));

		await typeSearch(i.label);
		assert(await note.textContent() === '', 'the note stays after a new search');
		await page.locator('button#view-sandwich').click();
		assert(await pf(() => window.perfFlamegraph.view()) === 'sandwich' &&
		       await focus() === want.label,
		       `searching ${i.label}: sandwich of ${await focus()}, want ${want.label}`);
		/* The frame clicked first, whatever the search. */
		await open();
		await clickFrame('mix');
		await typeSearch('zzz-no-such-frame');
		await pf(() => document.activeElement.blur());
		await page.keyboard.press('s');
		assert(await pf(() => window.perfFlamegraph.view()) === 'sandwich' &&
		       await focus() === 'mix', `s after a click on mix: sandwich of ${await focus()}`);
		/* A link to such a sandwich opens the flame graph. */
		await open(`${pageURL}#view=sandwich&q=zzz-no-such-frame`);
		await page.reload({ waitUntil: 'load' });
		await page.waitForFunction(() => window.perfFlamegraph);
		assert(await pf(() => window.perfFlamegraph.view()) === 'flame' &&
		       await page.locator('input#q').inputValue() === 'zzz-no-such-frame',
		       `the link opened ${await pf(() => window.perfFlamegraph.view())}`);
	});

	await check('inverted: where the samples ended', async () => {
		await open();
		await page.locator('button#view-inverted').click();
		await snap('inverted');
		/* Each function's own weight: its self and its instructions. */
		const own = new Map();

		for (const n of nodes(T.root)) {
			if (n.kind !== 'func')
				continue;
			const w = n.self + n.children.filter((c) => c.kind === 'insn')
				.reduce((s, c) => s + c.total, 0);

			if (w)
				own.set(funcKey(n), { label: n.label, w: w + (own.get(funcKey(n)) || { w: 0 }).w });
		}
		const top = [...own.values()].sort((a, b) => b.w - a.w)[0];
		const r = await rect(top.label), root = await rect(rootLabel);

		assert(r && within(r.y, root.y + root.h, 0.5), `${top.label} not on the inverted graph's first row`);
		await hoverFrame(top.label);
		const c = card(await page.locator('#tip').textContent());

		assert(c.total === top.w && c.self === top.w,
		       `${top.label}: ${JSON.stringify(c)} inverted, the data ${top.w}`);
	});

	await check('the URL fragment reopens the view', async () => {
		await open();
		assert(await page.title() === `${data.info.input}, ${data.info.event} - perf flamegraph`,
		       `title ${JSON.stringify(await page.title())}`);
		await page.locator('button#view-icicle').click();
		await clickFrame('mix');
		await typeSearch('spin');
		/* The viewer writes the fragment soon after the last change. */
		await page.waitForFunction(() => /view=icicle/.test(location.hash) &&
					   /zoom=/.test(location.hash) && /q=spin/.test(location.hash));
		const url = page.url(), before = await matchText(), r = await rect('mix');

		assert(/view=icicle/.test(url) && /zoom=[0-9.]+/.test(url) && /q=spin/.test(url),
		       `URL ${url}`);
		await page.goto(pageURL, { waitUntil: 'load' });
		await page.goto(url, { waitUntil: 'load' });
		await page.reload({ waitUntil: 'load' });
		await page.waitForFunction(() => window.perfFlamegraph);
		assert(await pf(() => window.perfFlamegraph.view()) === 'icicle' &&
		       await focus() === 'mix' && await page.locator('input#q').inputValue() === 'spin',
		       `reopened: ${await pf(() => window.perfFlamegraph.view())}, ${await focus()}`);
		assert((await matchText()).text === before.text, 'the search share differs');
		assert(JSON.stringify(await rect('mix')) === JSON.stringify(r), 'mix moved');
		/* A sandwich too. */
		await page.locator('button#view-sandwich').click();
		await page.waitForFunction(() => /view=sandwich/.test(location.hash));
		await page.reload({ waitUntil: 'load' });
		await page.waitForFunction(() => window.perfFlamegraph);
		assert(await pf(() => window.perfFlamegraph.view()) === 'sandwich' &&
		       await focus() === 'mix', `sandwich not reopened: ${page.url()}`);
	});

	await check('Ctrl+wheel zooms, drag pans', async () => {
		await open();
		const m0 = await aim('mix'), p = await reveal(m0);

		await page.mouse.move(p.x, p.y);
		await page.keyboard.down('Control');
		await page.mouse.wheel(0, -400);
		await page.keyboard.up('Control');
		await frame();
		const m1 = await rect('mix');

		assert(m1.w > 1.5 * m0.w, `mix ${m0.w} px wide, ${m1.w} after Ctrl+wheel`);
		assert(await focus() === rootLabel, 'the wheel changed the zoomed frame');
		await page.mouse.move(p.x, p.y + 1);
		assert((await page.locator('#tip').textContent()).startsWith('mix\n'),
		       'mix no longer under the pointer');
		/* An edge of mix inside the canvas follows a drag. */
		const W = (await canvasBox()).width;
		const edge = (r) => (r.x > 0.5 ? r.x : r.x + r.w);

		assert(edge(m1) > 100 && edge(m1) < W - 1, `mix ${JSON.stringify(m1)} fills the canvas`);
		await page.mouse.down();
		await page.mouse.move(p.x - 60, p.y, { steps: 6 });
		await page.mouse.up();
		await frame();
		const m2 = await rect('mix');

		assert(within(edge(m2), edge(m1) - 60, 2), `after a drag of 60 px, mix ${JSON.stringify(m1)} -> ${JSON.stringify(m2)}`);
		assert(await focus() === rootLabel, 'the drag zoomed');
	});

	await check('views', async () => {
		await open();
		const W = (await canvasBox()).width;

		await page.locator('button#view-icicle').click();
		await snap('icicle');
		assert(await pf(() => window.perfFlamegraph.view()) === 'icicle', 'not icicle');
		const r = await rect(rootLabel), main = await rect('main');

		assert(r && within(r.y, 0, 0.5) && main.y > r.y,
		       `icicle: root ${JSON.stringify(r)}, main ${JSON.stringify(main)}`);
		const img = await canvasPixels();

		assert(frameColor(img, r) !== WHITE, 'icicle root not painted');
		await page.locator('button#view-merged').click();
		await snap('merged');
		assert(await pf(() => window.perfFlamegraph.view()) === 'merged', 'not merged');
		const m = await labels();

		assert(m.filter((l) => l === 'mix').length === 1, `merged: mix drawn ${m.filter((l) => l === 'mix').length} times`);
		const known = new Set([...nodes(T.root)].map((n) => n.label));

		for (const l of m)
			assert(known.has(l), `merged draws ${JSON.stringify(l)}, not in the data`);
		assert(within((await rect(m[0])).w, W, 1.5), 'merged: first frame not full width');
		await page.locator('button#view-flame').click();
		assert(await pf(() => window.perfFlamegraph.view()) === 'flame', 'not back to flame');
		const b = await canvasBox(), r2 = await rect(rootLabel);

		assert(within(r2.y + r2.h, b.height, 1), 'flame: root not at the bottom');
	});

	await check('no request, nothing on the console', async () => {
		await open();
		const res = await pf(() => performance.getEntriesByType('resource').map((e) => e.name));

		assert(res.length === 0, `resources loaded: ${res}`);
		await hoverFrame('mix');
		await clickFrame('mix');
		await typeSearch('spin');
		await page.locator('table#hot tbody tr').first().click();
		await page.keyboard.press('Escape');
	});
}

/* --value samples: the numbers are counts, printed as they are. */
async function samplesChecks() {
	await check('samples: counts, not times', async () => {
		assert(info.weight === 'samples' && !timeUnit, `the page weighs ${info.weight}`);
		await open();
		const rows = await page.locator('table#hot tbody tr').count();
		const leaves = new Map();

		for (const n of insnNodes())
			leaves.set(insnKey(n), (leaves.get(insnKey(n)) || 0) + n.total);
		assert(rows > 0 && await page.locator('#hot-weight').textContent() === 'samples',
		       `${rows} rows, the weight headed ${await page.locator('#hot-weight').textContent()}`);
		for (let i = 0; i < rows; i++) {
			const r = await hotRow(i);

			assert(r.weight === leaves.get(r.key), `hot row ${i} counts ${r.weight}`);
		}
		const hdr = await page.locator('#hdr').textContent();

		assert(hdr.includes('weight: samples') && hdr.includes(`samples: ${total}`),
		       `the header says ${hdr}`);
		await hoverFrame('mix');
		const c = card(await page.locator('#tip').textContent());

		assert(funcs('mix').some((m) => m.total === c.total && m.totalSamples === c.samples),
		       `the card of mix: ${JSON.stringify(c)}`);
		await typeSearch('mix');
		const m = await matchText();

		assert(m.n === matchedSamples(T.root, /mix/i) && m.of === total, `${m.text}`);
	});
}

async function hostileChecks() {
	const pwned = () => pf(() => [window.__pwned, document.querySelectorAll(
		'img, svg, iframe, object, embed, i').length]);
	const markup = async () => {
		/* No element from the names: no handler attributes at all,
		 * and only the page's own two scripts. */
		const [handlers, scripts] = await pf(() => [
			[...document.querySelectorAll('*')].flatMap((e) =>
				[...e.attributes].filter((a) => /^on/i.test(a.name))
					.map((a) => `${e.tagName} ${a.name}`)),
			document.scripts.length]);

		assert(!handlers.length, `handler attributes: ${handlers}`);
		assert(scripts === nrScripts, `${scripts} script elements, the page has ${nrScripts}`);
		const [p, els] = await pwned();

		assert(p === undefined, `window.__pwned = ${p}`);
		assert(els === 0, `${els} img/svg/iframe/object/embed/i elements`);
	};

	await check('names are text', async () => {
		for (const s of [...HOSTILE, HOSTILE_COMM])
			assert(data.strings.includes(s), `${JSON.stringify(s)} not in the data`);
		await open();
		const drawn = await labels();

		for (const s of [...HOSTILE, HOSTILE_COMM])
			assert(drawn.includes(s), `${JSON.stringify(s)} not drawn`);
		await markup();
		const img = await canvasPixels();

		assert(frameColor(img, await aim(HOSTILE[0])) !== WHITE, 'hostile frame not painted');
	});

	await check('names are found by search', async () => {
		await open();
		for (const s of HOSTILE) {
			await typeSearch(s);
			await snap(`${HOSTILE.indexOf(s)}`);
			const m = await matchText(), drawn = await labels();
			const n = matchedSamples(T.root, { test: (l) => l.toLowerCase().includes(s.toLowerCase()) });

			assert(m.n === n && n > 0, `search ${JSON.stringify(s)}: ${m.text}, want ${n}`);
			assert(await highlighted() === drawn.filter((l) => l.toLowerCase().includes(s.toLowerCase())).length,
			       `search ${JSON.stringify(s)}: ${await highlighted()} highlighted`);
		}
		await markup();
	});

	await check('hover, zoom and crumbs', async () => {
		await open();
		for (const s of HOSTILE) {
			await hoverFrame(s);
			const tip = page.locator('#tip');

			await tip.waitFor({ state: 'visible', timeout: TIMEOUT.tip });
			assert((await tip.textContent()).includes(s), `tooltip of ${JSON.stringify(s)}`);
			await page.locator('button#reset').click();
		}
		/* The innermost: every name in the crumbs. */
		await clickFrame(HOSTILE.at(-1));
		await snap('innermost');
		assert(await focus() === HOSTILE.at(-1), `focus ${await focus()}`);
		const crumbs = await page.locator('#crumbs a').allTextContents();

		for (const s of [...HOSTILE, HOSTILE_COMM])
			assert(crumbs.includes(s), `${JSON.stringify(s)} not a crumb: ${JSON.stringify(crumbs)}`);
		for (const s of [...HOSTILE].reverse()) {
			await page.locator('#crumbs a').getByText(s, { exact: true }).click();
			assert(await focus() === s, `crumb ${JSON.stringify(s)} zooms to ${await focus()}`);
			assert(page.url() === pageURL || page.url().startsWith(pageURL + '#'),
			       `crumb ${JSON.stringify(s)} navigated to ${page.url()}`);
		}
		await markup();
	});

	await check('hot rows and views', async () => {
		await open();
		const rows = page.locator('table#hot tbody tr');
		const nr = Math.min(await rows.count(), 20);

		assert(nr > 0, 'no hot rows');
		for (let i = 0; i < nr; i++)
			await rows.nth(i).click();
		/* Whole in the cells' titles, cut to fit in their text. */
		const titles = await page.locator('table#hot td').evaluateAll((tds) => tds.map((td) => td.title));

		assert(HOSTILE.some((s) => titles.includes(s)), 'no hostile name in the hot table');
		for (const v of ['icicle', 'merged', 'flame']) {
			await page.locator(`button#view-${v}`).click();
			await hoverFrame(HOSTILE[0]);
		}
		await markup();
	});
}

/* Samples of a NODE array's tree, its last element summed. */
function nodeSamples(a) {
	return a[7] + a[6].reduce((sum, c) => sum + nodeSamples(c), 0);
}

/* Every element inside the window's width: nothing makes the page scroll sideways. */
async function nothingWider(what) {
	const bad = await pf(() => {
		const vw = document.documentElement.clientWidth, out = [];

		for (const e of document.querySelectorAll('*')) {
			const r = e.getBoundingClientRect();

			if (e.offsetParent !== null && (r.width > vw + 0.5 || r.right > vw + 0.5))
				out.push(`${e.tagName}#${e.id} ${Math.round(r.left)}..${Math.round(r.right)}`);
		}
		if (document.documentElement.scrollWidth > vw)
			out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
		return [out.slice(0, 5), vw];
	});

	assert(!bad[0].length, `${what}: wider than the ${bad[1]} px window: ${bad[0].join(', ')}`);
}

/* The hover card, all of it inside the window. */
async function cardInside(what) {
	const tip = page.locator('#tip');

	await tip.waitFor({ state: 'visible', timeout: TIMEOUT.tip });
	const b = await tip.boundingBox(), vp = page.viewportSize();
	const clipped = await tip.evaluate((e) => e.scrollHeight > e.clientHeight);

	assert(b.x >= 0 && b.y >= 0 && b.x + b.width <= vp.width && b.y + b.height <= vp.height,
	       `${what}: the card ${JSON.stringify(b)} leaves the ${vp.width}x${vp.height} window`);
	assert(!clipped, `${what}: the card's text is cut off`);
	return tip.textContent();
}

async function longChecks() {
	const fns = [...nodes(T.root)].filter((n) => n.kind === 'func');
	const longest = fns.reduce((a, b) => (b.label.length > a.label.length ? b : a));
	const mid = fns.find((n) => n.label.length > 1000 && n.label.length < 2000);

	assert(longest.label.length > 5000 && mid, `names of ${longest.label.length} characters`);
	/* What a name keeps when cut: churn, the function, and the end. */
	const kept = (text, name) => {
		const i = text.indexOf('\u2026');

		return text.startsWith('churn\u2026') && name.endsWith(text.slice(i + 1)) &&
		       text.length - i > 2;
	};
	/* Or, to tell it from a name cut alike, a part of its middle too. */
	const apart = (text, name) => {
		const p = text.split('\u2026');

		return p.length === 3 && p[0] === 'churn' && p[1].length > 4 &&
		       name.includes(p[1]) && name.endsWith(p[2]) && p[2].length > 2;
	};

	await check('long names: the card stays inside the window', async () => {
		await open();
		for (const n of [mid, longest]) {
			await hoverFrame(n.label);
			const t = await cardInside(`${n.label.length} characters`);

			assert(t.includes(n.label), `the card lacks the whole name of ${n.label.length} characters`);
			/* The numbers first, before the long name. */
			assert(/^[^\n]*\ntotal: [0-9.]+/.test(t) && card(t).total === n.total,
			       `the card's numbers: ${t.slice(0, 200)}`);
		}
		await nothingWider('hovering the longest name');
		/*
		 * Smaller windows: the name whole in a smaller font, or cut
		 * and said so; the numbers first, the card all inside.
		 */
		try {
			for (const [w, h] of [[1000, 600], [700, 400]]) {
				await page.setViewportSize({ width: w, height: h });
				await frame();
				await hoverFrame(longest.label);
				const t = await cardInside(`${w}x${h}`);

				assert(/^[^\n]*\ntotal: [0-9.]+/.test(t) && (t.includes(longest.label) ||
				       t.includes(`name (${longest.label.length} characters`)),
				       `the card at ${w}x${h}: ${t.slice(0, 300)}`);
				await nothingWider(`${w}x${h}`);
			}
		} finally {
			await page.setViewportSize({ width: 1280, height: 1000 });
		}
	});

	await check('long names: zoomed, nothing wider than the window', async () => {
		await open();
		await clickFrame(longest.label);
		await snap('zoomed');
		assert(await focus() === longest.label, 'not zoomed to the longest name');
		await hoverFrame(longest.label);
		await cardInside('zoomed');
		await nothingWider('zoomed into the longest name');
		const crumb = await page.locator('#crumbs a').last();
		const text = await crumb.textContent();

		assert(await crumb.getAttribute('title') === longest.label && kept(text, longest.label),
		       `the crumb says ${JSON.stringify(text)}`);
		/* The canvas label, cut by the same rule to the frame's width. */
		const W = (await canvasBox()).width;
		const label = await pf((a) => window.perfFlamegraph.shorten(a[0], a[1]), [longest.label, W - 6]);

		assert(kept(label, longest.label), `the label is ${JSON.stringify(label)}`);
	});

	await check('long names: the hot table shows the instructions', async () => {
		await open();
		const rows = page.locator('table#hot tbody tr');
		const vw = page.viewportSize().width;
		const shown = new Map();
		let churn = 0;

		for (let i = 0; i < await rows.count(); i++) {
			const tds = rows.nth(i).locator('td');
			const [insn, fn] = await Promise.all([2, 3].map((j) => tds.nth(j).evaluate((td) => {
				const r = td.getBoundingClientRect();

				return { r: r.right, text: td.textContent, title: td.title,
					 whole: td.scrollWidth <= td.clientWidth };
			})));

			/* Whole, but for the symbol of a branch target, cut in its middle. */
			const i0 = insn.title.indexOf('<'), j0 = insn.title.lastIndexOf('>');
			const same = insn.text === insn.title || (i0 > 0 &&
				insn.text.startsWith(insn.title.slice(0, i0 + 1)) &&
				insn.text.endsWith(insn.title.slice(j0)) && insn.text.includes('\u2026'));

			assert(same && insn.whole && insn.r <= vw,
			       `row ${i}: instruction ${JSON.stringify(insn)}`);
			assert(fn.whole && fn.r <= vw, `row ${i}: function cell overflows`);
			if (fn.title.length > 1000) {
				assert(kept(fn.text, fn.title) || apart(fn.text, fn.title),
				       `row ${i}: function cut to ${JSON.stringify(fn.text)}`);
				churn++;
			}
			shown.set(fn.title, fn.text);
		}
		assert(churn >= 2, `${churn} rows of the long functions`);
		/* Two instances of churn<>() told apart without a hover. */
		const texts = [...shown.values()];

		assert(texts.length >= 2 && new Set(texts).size === texts.length,
		       `${shown.size} functions shown as ${JSON.stringify(texts)}`);
		await nothingWider('the hot table');
	});
}

async function deepChecks() {
	await check('a deep graph scrolls in its panel', async () => {
		await open();
		const b = await canvasBox(), vp = page.viewportSize();
		const rows = await pf(() => window.perfFlamegraph.rows());
		const sh = await pf(() => document.documentElement.scrollHeight);

		assert(rows >= 127, `${rows} rows`);
		assert(b.height < vp.height && b.height < rows * 16, `the canvas is ${b.height} px tall`);
		assert(sh <= vp.height, `the page is ${sh} px tall`);
		/* Opened on the root, the real profile in sight. */
		const r = await rect(rootLabel);

		assert(within(r.y + r.h, b.height, 1) && b.y + b.height <= vp.height,
		       `the root ${JSON.stringify(r)} not at the bottom of the canvas in sight`);
		assert(frameColor(await canvasPixels(), r) !== WHITE, 'the root not painted');
		/* The top of the tower: burn at the deepest row, in sight after a scroll. */
		const deepest = [...nodes(T.root)].filter((n) => n.total / total * b.width >= 2)
			.reduce((a, n) => {
			let d = 0;

			for (let p = n; p.parent; p = p.parent)
				d++;
			return d > a.d ? { n, d } : a;
		}, { d: -1 });
		const top = (await pf(() => {
			const g = document.getElementById('graph');

			g.scrollTop = 0;
			return g.scrollTop;
		}));

		assert(top === 0, 'no scroll');
		await frame();
		await snap('top');
		const img = await canvasPixels();
		let lit = 0;

		assert((await labels()).includes(deepest.n.label), `${deepest.n.label} not laid out`);
		for (let x = 0; x < img.cssWidth; x++)
			lit += pixel(img, x, 8).join(',') !== WHITE;
		assert(lit >= 1, 'the top row is not painted after scrolling up');
	});

	await check('a deep frame zoomed or walked to stays in sight', async () => {
		await open();
		const inSight = async (what) => {
			const r = await pf(() => window.perfFlamegraph.cursor()), b = await canvasBox();

			assert(r && r.y >= 0 && r.y + r.h <= b.height,
			       `${what}: the cursor ${JSON.stringify(r)}, the canvas ${b.height} px tall`);
		};

		/* The keyboard: 60 frames up from the root. */
		for (let i = 0; i < 60; i++)
			await page.keyboard.press('ArrowUp');
		await frame();
		await inSight('60 frames up');
		/* A click near the top of the tower. */
		await pf(() => (document.getElementById('graph').scrollTop = 0));
		await frame();
		/*
		 * The widest frame of the fourth row: the deepest rows hold
		 * kernel frames of a sample or two, a pixel or less wide.
		 */
		const b = await canvasBox(), img = await canvasPixels(), y = 3 * 16 + 8;
		let best = { x: 0, w: 0 };

		for (let x = 0, run = 0; x <= img.cssWidth; x++) {
			if (x < img.cssWidth && pixel(img, x, y).join(',') !== WHITE) {
				run++;
				continue;
			}
			if (run > best.w)
				best = { x: x - run, w: run };
			run = 0;
		}
		assert(best.w, 'nothing drawn on the fourth row after scrolling up');
		await page.mouse.click(b.x + best.x + best.w / 2, b.y + y);
		await frame();
		assert(await focus() !== rootLabel,
		       `a click on the ${best.w} px wide frame at x=${best.x} did not zoom`);
		await inSight('clicked near the top');
	});

	await check('a deep sandwich opens on its function', async () => {
		await open();
		assert(await pf(() => window.perfFlamegraph.zoom('burn')) >= 0, 'no burn frame');
		await page.locator('button#view-sandwich').click();
		await frame();
		const r = await rect('burn'), b = await canvasBox();
		const rows = await pf(() => window.perfFlamegraph.rows());

		assert(await focus() === 'burn' && rows >= 127, `sandwich of ${await focus()}, ${rows} rows`);
		assert(r.y >= 0 && r.y + r.h <= b.height, `burn at ${r.y}, the canvas ${b.height} px tall`);
		assert(frameColor(await canvasPixels(), r) !== WHITE, 'burn not painted');
	});

	await check('the root stays in sight after a resize', async () => {
		await open();
		for (const [w, h] of [[900, 600], [1280, 1000], [700, 400]]) {
			await page.setViewportSize({ width: w, height: h });
			await frame();
			const b = await canvasBox(), r = await rect(rootLabel);

			assert(r && within(r.y + r.h, b.height, 1) && b.y + b.height <= h,
			       `${w}x${h}: the root ${JSON.stringify(r)}, the canvas ${JSON.stringify(b)}`);
			assert(within(r.w, b.width, 1.5), `${w}x${h}: the root not the canvas' width`);
			await nothingWider(`${w}x${h}`);
		}
		await page.setViewportSize({ width: 1280, height: 1000 });
	});
}

async function systemwideChecks() {
	await check('a system-wide profile', async () => {
		await open();
		const comms = T.root.children.filter((c) => c.kind === 'comm');
		const drawn = await labels();

		assert(comms.length >= 2, `${comms.length} comms`);
		for (const c of comms.filter((x) => x.total / total >= 0.05))
			assert(drawn.includes(c.label), `comm ${c.label} not drawn`);
		const r = await rect(rootLabel), b = await canvasBox();

		assert(within(r.y + r.h, b.height, 1), 'the root not at the bottom');
		await nothingWider('system-wide');
	});
}

async function diffChecks() {
	/*
	 * The heaviest of each: a sample in a prologue, before the frame
	 * pointer is pushed, makes a sliver copy under main()'s caller.
	 */
	const hots = funcs('hot'), colds = funcs('cold');
	const hot = hots.length ? heaviestOf(hots) : null;
	const cold = colds.length ? heaviestOf(colds) : null;
	const all = total, allBefore = T_root().oldTotal;
	const delta = (n) => 100 * (n.total / all - n.oldTotal / allBefore);
	const rgb = (c) => c.split(',').map(Number);

	assert(data.diff === true && hot && cold && allBefore > 0,
	       'not a --diff page of hot() and cold()');
	await check('frames coloured by the change of their share', async () => {
		await open();
		await snap('');
		const img = await canvasPixels();

		assert(delta(hot) > 1 && delta(cold) < -1,
		       `hot ${delta(hot)}, cold ${delta(cold)} points: the rebuild changed nothing`);
		const h = rgb(frameColor(img, await aim('hot'))), c = rgb(frameColor(img, await aim('cold')));

		assert(h[0] > h[2] + 40, `hot grew but is ${h}`);
		assert(c[2] > c[0] + 40, `cold shrank but is ${c}`);
	});
	await check('the card gives before, after and the change', async () => {
		await open();
		await hoverFrame('hot');
		const t = await page.locator('#tip').textContent();
		const num = (re) => +((re.exec(t) || [])[1]);

		assert(amount(t, 'before').value === hot.oldTotal &&
		       amount(t, 'after').value === hot.total, `card of hot: ${t}`);
		assert(num(/\ndelta: \+?(-?[0-9.]+) points/) === +delta(hot).toFixed(2), `card of hot: ${t}`);
	});
	await check("before's shape", async () => {
		await open();
		const W = (await canvasBox()).width;

		assert(within((await aim('hot')).w, hot.total / all * W, 1.5), 'hot not as wide as after');
		await page.locator('button#shape').click();
		await snap('before');
		assert(within((await aim('hot')).w, hot.oldTotal / allBefore * W, 1.5),
		       `hot is ${(await aim('hot')).w} px, before it was ${hot.oldTotal / allBefore * W}`);
		await page.locator('button#shape').click();
		assert(within((await aim('hot')).w, hot.total / all * W, 1.5), 'hot not back');
	});
	await check('the merged, inverted and sandwich views in the same colours', async () => {
		for (const v of ['merged', 'inverted', 'sandwich']) {
			await open();
			if (v === 'sandwich')
				assert(await pf(() => window.perfFlamegraph.zoom('hot')) >= 0, 'no hot');
			await page.locator(`button#view-${v}`).click();
			await frame();
			await snap(v);
			const img = await canvasPixels();
			const h = rgb(frameColor(img, await aim('hot')));

			assert(h[0] > h[2] + 40, `${v}: hot grew but is ${h}`);
			if (v !== 'sandwich') {
				const c = rgb(frameColor(img, await aim('cold')));

				assert(c[2] > c[0] + 40, `${v}: cold shrank but is ${c}`);
			}
			/*
			 * Merged: hot's one call, its own weights (its instruction
			 * leaves', not its callees') before and after, those of
			 * every frame of hot.
			 */
			if (v !== 'merged')
				continue;
			const own = (n, k, self) => n.children.filter((c) => c.kind === 'insn')
				.reduce((w, c) => w + c[k], n[self]);
			const before = hots.reduce((w, n) => w + own(n, 'oldTotal', 'oldSelf'), 0);
			const after = hots.reduce((w, n) => w + own(n, 'total', 'self'), 0);

			await hoverFrame('hot');
			const t = await page.locator('#tip').textContent();

			assert(before > 0 && amount(t, 'before').value === before &&
			       amount(t, 'after').value === after, `merged card of hot: ${t}`);
		}
	});
	/*
	 * The hot table of a --diff page as shown: each row's key and its
	 * change in the data d (a tree()), and the head of the change column.
	 */
	const byChange = async (d, allNew, allOld) => {
		const want = new Map();

		for (const n of nodes(d.root)) {
			if (n.kind !== 'insn')
				continue;
			const k = insnKey(n), e = want.get(k) || { t: 0, o: 0 };

			e.t += n.total;
			e.o += n.oldTotal;
			want.set(k, e);
		}
		for (const e of want.values())
			e.d = 100 * (e.t / allNew - e.o / allOld);
		const rows = await page.locator('table#hot tbody tr').evaluateAll((trs) =>
			trs.map((tr) => [tr.dataset.key, tr.cells[1].textContent]));

		for (const [k, text] of rows) {
			const e = want.get(k);

			assert(e, `hot row ${JSON.stringify(k)} is no instruction of the data`);
			assert(text === (e.d > 0 ? '+' : '') + e.d.toFixed(2),
			       `hot row ${JSON.stringify(k)} says ${text}, the data ${e.d}`);
		}
		return { want, keys: rows.map((r) => r[0]), d: rows.map((r) => want.get(r[0]).d),
			 head: await page.locator('table#hot th[data-sort="delta"]').textContent(),
			 count: await page.locator('#hot-count').textContent() };
	};
	const sorted = (d, f) => d.every((x, i) => !i || f(d[i - 1]) >= f(x) - 1e-12);
	const changeColumn = page.locator('table#hot th[data-sort="delta"]');

	/*
	 * By the size of the change, then the growths first, then the
	 * decreases first, then by the size again; the rows kept the
	 * largest growths and decreases both, half and half where there
	 * are more than the table's 200.
	 */
	const sortsByChange = async (d, allNew, allOld, what) => {
		const t = await byChange(d, allNew, allOld), all = [...t.want.values()].map((e) => e.d);
		const grew = all.filter((x) => x > 0).sort((a, b) => b - a);
		const fell = all.filter((x) => x < 0).sort((a, b) => a - b);
		const keep = Math.min(all.length, 200);
		const half = Math.max(keep - fell.length, Math.min(grew.length, keep >> 1));

		assert(t.keys.length === keep && t.count === (all.length > 200 ? `200 of ${all.length}` :
							     String(all.length)),
		       `${what}: ${t.keys.length} rows, "${t.count}", the data has ${all.length}`);
		assert(t.head.startsWith('|\u0394|') && sorted(t.d, Math.abs),
		       `${what}: not by the size of the change (${t.head}): ${t.d.map((x) => x.toFixed(2))}`);
		/* The largest growths and decreases kept, whatever the order. */
		const kept = t.d.slice().sort((a, b) => b - a);
		const up = kept.filter((x) => x > 0), down = kept.filter((x) => x < 0).reverse();

		assert(up.length === Math.min(grew.length, half) &&
		       down.length === Math.min(fell.length, keep - up.length) &&
		       up.every((x, i) => x === grew[i]) && down.every((x, i) => x === fell[i]),
		       `${what}: kept ${up.length} growths and ${down.length} decreases, ` +
		       `the data's largest ${grew.slice(0, 3)} and ${fell.slice(0, 3)}`);
		await changeColumn.click();
		const g = await byChange(d, allNew, allOld);

		assert(g.head.startsWith('\u0394') && sorted(g.d, (x) => x) && g.d[0] === grew[0] &&
		       JSON.stringify(g.keys.slice().sort()) === JSON.stringify(t.keys.slice().sort()),
		       `${what}: a click, not the growths first: ${g.d.map((x) => x.toFixed(2))}`);
		await changeColumn.click();
		await snap('decreases');
		const f = await byChange(d, allNew, allOld);

		assert(sorted(f.d, (x) => -x) && f.d[0] === fell[0] &&
		       await changeColumn.getAttribute('data-dir') === 'up' &&
		       JSON.stringify(f.keys.slice().sort()) === JSON.stringify(t.keys.slice().sort()),
		       `${what}: clicked again, not the decreases first: ${f.d.map((x) => x.toFixed(2))}`);
		await changeColumn.click();
		assert(JSON.stringify((await byChange(d, allNew, allOld)).keys) === JSON.stringify(t.keys),
		       `${what}: a third click, not by the size again`);
	};

	await check('hot instructions by their change, both ways', async () => {
		await open();
		await sortsByChange(T, all, allBefore, 'the rebuild');
		/* The weight column turns too. */
		await page.locator('table#hot th[data-sort="weight"]').click();
		await page.locator('table#hot th[data-sort="weight"]').click();
		const w = [];

		for (let i = 0; i < await page.locator('table#hot tbody tr').count(); i++)
			w.push((await hotRow(i)).weight);
		assert(w.length > 3 && w.every((x, i) => !i || w[i - 1] <= x), `not lightest first: ${w}`);
	});

	/*
	 * More instructions than the table keeps: the page's data with 150
	 * more instructions in hot() that grew and 150 that went away, each
	 * a different size; the largest of both ways must stay.
	 */
	await check('hot instructions: the largest changes either way kept', async () => {
		const d = JSON.parse(JSON.stringify(data)), h = [];
		/* A frame's weight, before and after, with its callees'. */
		const weight = (a) => a[3] + (a.length > 8 ? a[8] : 0) +
			a[6].reduce((s, c) => s + weight(c), 0);

		(function find(a) {
			if (d.strings[a[0]] === 'hot' && (a[1] & 7) === 2)
				h.push(a);
			a[6].forEach(find);
		})(d.root);
		/*
		 * Under load a sample can land in hot()'s prologue, before its
		 * frame pointer is pushed: a second, small hot frame.  The
		 * heaviest is the one the workload made.
		 */
		assert(h.length >= 1, 'no hot frame in the data');
		h.sort((x, y) => weight(y) - weight(x));
		for (let i = 0; i < 300; i++) {
			const w = 100000 * (i % 150 + 1), grew = i < 150;

			d.strings.push(`nop ${i} [0x${(0x900000 + i).toString(16)}]`);
			h[0][6].push([d.strings.length - 1, 4, h[0][2], grew ? w : 0,
				      (0x900000 + i).toString(16), -1, [], grew ? 1 : 0,
				      grew ? 0 : w, grew ? 0 : 1, 2, -1, 0]);
		}
		const file = path.join(artifacts, 'diff-more.html');
		const json = JSON.stringify(d).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

		writeFileSync(file, html.replace(/(<script type="application\/json" id="fg-data">)[^]*?(<\/script>)/,
						 (m, a, b) => a + json + b));
		pages.add(pathToFileURL(file).href);
		await open(pathToFileURL(file).href);
		const t2 = tree(d);

		await sortsByChange(t2, t2.root.total, t2.root.oldTotal, '300 more');
	});
}

/* A --diff of flamegraph_rename.c: %rcx renamed %rsi in mul()'s loop. */
async function renameChecks() {
	await check('the card of an aligned leaf whose operands differ', async () => {
		const ops = [];

		(function walk(a, parent) {
			if ((a[1] & 7) === 4 && parent === 'mul')
				ops.push({ label: data.strings[a[0]], how: a[10], old: a[11] >= 0 ?
					   data.strings[a[11]] : null, differ: a[12] });
			for (const c of a[6])
				walk(c, data.strings[a[0]]);
		})(data.root, '');
		/* The page's data says so where the registers differ, and only there. */
		const regs = (l) => (l.match(/%\w+/g) || []).join();
		const paired = ops.filter((o) => o.how === 1 && o.old !== null);

		for (const o of paired)
			assert(o.differ === (regs(o.label) !== regs(o.old) ? 1 : 0),
			       `${o.label} (before: ${o.old}) marked ${o.differ}`);
		const heaviest = (list) => list.sort((a, b) =>
			sum(insnNodes().filter((n) => n.label === b.label)) -
			sum(insnNodes().filter((n) => n.label === a.label)))[0];
		const leaf = heaviest(paired.filter((o) => o.differ));

		assert(leaf, `no leaf of mul with its operands renamed: ${JSON.stringify(ops)}`);
		await open();
		assert(await pf(() => window.perfFlamegraph.zoom('mul')) >= 0, 'no mul frame');
		await hoverFrame(leaf.label);
		await snap('card');
		const t = await page.locator('#tip').textContent();

		assert(t.includes(`\nmatched: aligned (operands differ) (before: ${leaf.old})`),
		       `the card of ${leaf.label}: ${t}`);
		/* A leaf aligned with the same operands says no more. */
		const same = heaviest(paired.filter((o) => !o.differ));

		if (same && (await rect(same.label) || { w: 0 }).w >= 3) {
			await hoverFrame(same.label);
			const u = await page.locator('#tip').textContent();

			assert(u.includes(`\nmatched: aligned (before: ${same.old})`), `the card of ${same.label}: ${u}`);
		}
	});
}

async function eventsChecks() {
	const want = (data.graphs || []).map((g) => g.info.event);
	const shows = async (i) => {
		await page.waitForFunction((e) => window.perfFlamegraph &&
					   window.perfFlamegraph.event() === e, want[i]);
		const hdr = await page.textContent('#hdr');
		const samples = nodeSamples(data.graphs[i].root);

		assert(hdr.includes(`event: ${want[i]}`), `header "${hdr}" doesn't name ${want[i]}`);
		assert(hdr.includes(`samples: ${samples}`),
		       `header "${hdr}" hasn't ${want[i]}'s ${samples} samples`);
	};

	await check('a switch between the events', async () => {
		assert(want.length === 2 && want.every((e) => e),
		       `the page's graphs are of ${JSON.stringify(want)}`);
		await open();
		const opts = await pf(() => [...document.querySelectorAll('select#event option')]
				      .map((o) => o.textContent));

		assert(JSON.stringify(opts) === JSON.stringify(want),
		       `the switch offers ${JSON.stringify(opts)}`);
		await shows(0);
		await page.selectOption('select#event', '1');
		await shows(1);
		assert(new URL(page.url()).hash === '#event=1', `URL ${page.url()}`);
		await page.selectOption('select#event', '0');
		await shows(0);
	});
	await check('without --asm, the graph takes the width', async () => {
		await open();
		const side = await page.locator('#side').isVisible();
		const b = await canvasBox();

		assert(!side && b.width > 0.9 * page.viewportSize().width,
		       `side panel ${side ? 'shown' : 'hidden'}, the canvas ${b.width} px wide`);
	});
	await check('the fragment opens an event', async () => {
		await page.goto(pageURL + '#event=1', { waitUntil: 'load' });
		await shows(1);
		const value = await pf(() => document.querySelector('select#event').value);

		assert(value === '1', `the switch shows ${value}`);
	});
}

/* ---- The Assembly pane (flamegraph_context.c) ---- */

const asmState = () => pf(() => window.perfFlamegraph.asm());

/* The pane's instruction rows: address, self and calls cells, and their titles. */
const asmRows = () => pf(() => [...document.querySelectorAll('#asm-code tbody tr:not(.src)')]
	.map((tr) => ({ a: tr.dataset.a, self: tr.cells[0].textContent,
			calls: tr.cells[1].textContent, text: tr.cells[3].textContent,
			sel: tr.classList.contains('sel') })));

/*
 * The frame of label under the frame of parent, from the data: the
 * heaviest of them (the first of equals), as a click picks the widest.
 */
function nodeUnder(parent, label) {
	let best = null;

	for (const n of nodes(T.root)) {
		if (n.label === label && n.parent && n.parent.label === parent &&
		    (!best || n.total > best.total))
			best = n;
	}
	if (!best)
		throw new Failure(`no ${label} under ${parent} in the data`);
	return best;
}

/* The heaviest of a list of nodes, the first of equals. */
const heaviestOf = (list) => list.reduce((a, b) => (b.total > a.total ? b : a));

/* A cell shows v (the page's way) and its share of of, and nothing for 0. */
function cellIs(text, v, of, what) {
	if (!v) {
		assert(text === '', `${what}: ${JSON.stringify(text)} for 0`);
		return;
	}
	const m = /^(.*) ([0-9.]+)%$/.exec(text);

	assert(m && m[2] === (100 * v / of).toFixed(2), `${what}: ${JSON.stringify(text)}, ` +
	       `wanted ${(100 * v / of).toFixed(2)}% of ${of}`);
	shownWeight(m[1], v, what);
}

/*
 * A function of the page as rows: address, self weight and weight
 * called through it over all contexts, from "i" and "w".
 */
function functionRows(f) {
	const rows = f.i.map((e) => ({ a: '0x' + (BigInt(f.a) + BigInt(e[0])).toString(16),
				       off: e[0], self: 0, calls: 0 }));

	for (const [j, self, , calls] of f.w)
		Object.assign(rows[j], { self, calls });
	return rows;
}

async function contextChecks() {
	const fns = data.functions;
	const byName = (name) => fns.findIndex((f) => f.n === name);

	await check('a frame opens its function\'s whole code, in its context', async () => {
		assert(fns && fns.length, 'no functions in the page');
		await open();
		await clickFrame('two_sites');
		const st = await asmState();

		assert(st.fn === 'two_sites' && st.frame === 'two_sites' && !st.all,
		       `the pane shows ${JSON.stringify(st)}`);
		const f = functionRows(fns[byName('two_sites')]), rows = await asmRows();
		const node = nodeUnder('main', 'two_sites');

		assert(rows.length === f.length && rows.every((r, j) => r.a === f[j].a),
		       `${rows.length} rows, the function has ${f.length} instructions`);
		const calls = rows.map((r, j) => [r, node.calls.find((x) => x[0] === f[j + 1]?.off)]);
		let nr = 0;

		for (const [r, x] of calls) {
			cellIs(r.calls, x ? x[1] : 0, node.total, `calls of ${r.a}`);
			nr += !!x;
		}
		assert(nr === 2, `${nr} call sites shown, two_sites() has 2`);
		const src = await pf(() => [...document.querySelectorAll('#asm-code tr.src')]
				     .map((tr) => tr.textContent));

		assert(src.some((t) => /flamegraph_context\.c:\d+:  sink \+= work\(400000\);/.test(t)),
		       `no source line of the hot call in ${JSON.stringify(src.slice(0, 4))}`);
	});
	await check('this context differs between the callers; all contexts is the JSON\'s', async () => {
		await open();
		await clickFrame('one_site');
		await clickFrame('work');
		const st = await asmState(), f = functionRows(fns[byName('work')]);
		const node = nodeUnder('one_site', 'work');
		const leaves = new Map(node.children.filter((c) => c.kind === 'insn')
			.map((c) => [c.addr, c.total]));
		let rows = await asmRows();

		assert(st.fn === 'work' && st.frame === 'work', `the pane shows ${JSON.stringify(st)}`);
		const self = [...leaves.values()].reduce((a, b) => a + b, 0);

		rows.forEach((r, j) => cellIs(r.self, leaves.get(f[j].a) || 0, self, `self of ${r.a}`));
		const other = nodeUnder('two_sites', 'work');

		assert(other.total !== node.total, 'work() weighs the same under both callers');
		await page.click('#asm-all');
		rows = await asmRows();
		assert((await asmState()).all, 'All contexts not on');
		const all = f.reduce((a, r) => a + r.self, 0);

		assert(all === fns[byName('work')].v, `work()'s rows sum to ${all}, its "v" is ` +
		       `${fns[byName('work')].v}`);
		rows.forEach((r, j) => cellIs(r.self, f[j].self, all, `all contexts self of ${r.a}`));
	});
	await check('a jump is a link to its target; n steps to the hottest line', async () => {
		await open();
		await clickFrame('two_sites');
		await clickFrame('work');
		const link = page.locator('#asm-code a').first();
		const target = (/0x[0-9a-f]+/.exec(await link.textContent()) || [])[0];

		await link.click();
		const st = await asmState(), rows = await asmRows();

		assert(st.line === target && rows.find((r) => r.a === target).sel,
		       `after the link to ${target}: ${JSON.stringify(st)}`);
		const box = await page.locator(`#asm-code tr[data-a="${target}"]`).boundingBox();
		const pane = await page.locator('#asm-body').boundingBox();

		assert(box && box.y >= pane.y && box.y + box.height <= pane.y + pane.height,
		       `the row of ${target} is out of the pane`);
		await page.keyboard.press('n');
		const node = nodeUnder('two_sites', 'work');
		const hottest = node.children.filter((c) => c.kind === 'insn')
			.reduce((a, b) => (b.total > a.total ? b : a));

		assert((await asmState()).line === hottest.addr,
		       `n went to ${(await asmState()).line}, the hottest line is ${hottest.addr}`);
	});
	await check('a leaf opens its line; a line zooms to its heaviest stack', async () => {
		await open();
		const insns = (n) => n.children.filter((c) => c.kind === 'insn');
		const hot = nodeUnder('two_sites', 'work'), cold = nodeUnder('one_site', 'work');
		const leaf = heaviestOf(insns(hot));

		await clickFrame('two_sites');
		await clickFrame(leaf.label);
		let st = await asmState();

		assert(st.fn === 'work' && st.line === leaf.addr, `the leaf opened ${JSON.stringify(st)}`);
		/*
		 * This context, inside one_site's work: a line stays in that
		 * frame, though the address weighs more under two_sites. The
		 * heaviest leaf of one_site's work that does.
		 */
		const elsewhere = (c) => insns(hot).some((h) => h.addr === c.addr && h.total > c.total);
		const mine = insns(cold).filter(elsewhere);

		assert(mine.length, `no instruction of one_site's work weighs more under two_sites`);
		const line = heaviestOf(mine);

		await open();
		await clickFrame('one_site');
		await clickFrame('work');
		await page.click(`#asm-code tr[data-a="${line.addr}"]`);
		await snap('this-context');
		st = await asmState();
		let crumbs = await page.locator('#crumbs a').evaluateAll((as) => as.map((a) => a.title));

		assert(await focus() === 'work' && crumbs.at(-2) === 'one_site' && !crumbs.includes('two_sites') &&
		       st.line === line.addr && st.frame === 'work' && !st.all,
		       `this context, a click on ${line.addr} in one_site's work: focus ${await focus()}, ` +
		       `crumbs ${JSON.stringify(crumbs)}, pane ${JSON.stringify(st)}`);
		/* The frame's numbers still: one_site's work's leaf. */
		const sel = (await asmRows()).find((r) => r.a === line.addr);

		cellIs(sel.self, line.total, sum(insns(cold)), `self of ${line.addr} in one_site's work`);
		/* All contexts: the heaviest stack of the address, anywhere. */
		await page.click('#asm-all');
		await page.click(`#asm-code tr[data-a="${line.addr}"]`);
		const best = heaviestOf(insnNodes().filter((n) => n.addr === line.addr &&
							    n.parent.label === 'work'));

		crumbs = await page.locator('#crumbs a').evaluateAll((as) => as.map((a) => a.title));
		assert(await focus() === 'work' && crumbs.at(-2) === best.parent.parent.label,
		       `all contexts, a click on ${line.addr}: focus ${await focus()}, crumbs ` +
		       `${JSON.stringify(crumbs)}, its heaviest stack is under ${best.parent.parent.label}`);
	});

	await check('source lines whole: wrapped, the whole text in the title', async () => {
		/* A smaller window: the lines whole in the pane, in sight. */
		await page.setViewportSize({ width: 900, height: 1000 });
		try {
			await open();
			await clickFrame('two_sites');
			await snap('narrow');
			const f = fns[byName('two_sites')];
			const rows = await pf(() => [...document.querySelectorAll('#asm-code tr.src td')]
				.map((td) => ({ text: td.textContent, title: td.title, sw: td.scrollWidth,
						cw: td.clientWidth, h: td.getBoundingClientRect().height,
						right: td.getBoundingClientRect().right })));
			const body = await page.locator('#asm-body').evaluate((e) => {
				const r = e.getBoundingClientRect();

				return { right: r.left + e.clientWidth };
			});
			const want = new Map();

			for (const e of f.i) {
				const src = e[2] >= 0 ? data.sources[e[2]] : null;
				const text = src && src.lines && src.lines[e[3] - src.first];

				if (text !== undefined)
					want.set(`${src.f.slice(src.f.lastIndexOf('/') + 1)}:${e[3]}:  ${text.trim()}`,
						 `${src.f}:${e[3]}:  ${text.trim()}`);
			}
			const hot = [...want.keys()].find((t) => /sink \+= work\(400000\);/.test(t));

			assert(hot, `no source line of the hot call in the data: ${JSON.stringify([...want.keys()])}`);
			const row = rows.find((r) => r.text.includes('sink += work(400000);'));

			assert(row && row.text === hot && row.title === want.get(hot),
			       `the line ${JSON.stringify(hot)} is not whole, its title not ` +
			       `${JSON.stringify(want.get(hot))}: ${JSON.stringify(rows)}`);
			for (const r of rows) {
				assert(!want.size || want.has(r.text) || !r.text.includes(':  '),
				       `source line ${JSON.stringify(r.text)} is not the data's`);
				assert(r.sw <= r.cw && r.right <= body.right + 0.5,
				       `source line cut: ${JSON.stringify(r)}, the pane ends at ${body.right}`);
				if (want.has(r.text))
					assert(r.title === want.get(r.text), `the title of ${JSON.stringify(r)}`);
			}
		} finally {
			await page.setViewportSize({ width: 1280, height: 1000 });
		}
	});

	/*
	 * Source files not on this machine: the page's data with main()'s
	 * instructions in 26 files of a deleted directory.
	 */
	await check('source files not on this machine: one line, the list on demand', async () => {
		const d = JSON.parse(JSON.stringify(data)), w = d.functions[byName('main')];
		const files = [];

		for (let i = 0; i < 26; i++) {
			files.push(`/build/gone/src/part${String(i).padStart(2, '0')}.c`);
			d.sources.push({ f: files[i], why: 'not on this machine' });
		}
		w.i.forEach((e, j) => {
			e[2] = d.sources.length - 26 + j % 26;
			e[3] = 10 + j;
		});
		assert(w.i.length >= 26, `main() has ${w.i.length} instructions`);
		const file = path.join(artifacts, 'context-missing.html');
		const json = JSON.stringify(d).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);

		writeFileSync(file, html.replace(/(<script type="application\/json" id="fg-data">)[^]*?(<\/script>)/,
						 (m, a, b) => a + json + b));
		pages.add(pathToFileURL(file).href);
		await open(pathToFileURL(file).href);
		await clickFrame('main');
		const note = page.locator('#asm-note'), sum = note.locator('details > summary');
		const lineH = await note.evaluate((e) => parseFloat(getComputedStyle(e).lineHeight) ||
						  1.2 * parseFloat(getComputedStyle(e).fontSize));
		const closed = await note.boundingBox();

		assert(await sum.count() === 1 && await sum.textContent() === '26 source files not on this machine',
		       `the note says ${JSON.stringify(await note.textContent())}`);
		/* The note's own text and one line: not a line per file. */
		const [own, det] = await note.evaluate((e) => {
			const r = document.createRange();

			r.selectNode(e.firstChild);
			return [r.getBoundingClientRect().height,
				e.querySelector('details').getBoundingClientRect().height];
		});

		assert(det <= 1.5 * lineH && closed.height <= own + det + 4,
		       `the note is ${closed.height} px tall, its text ${own} px, the files ${det} px, ` +
		       `a line ${lineH} px`);
		for (const x of files)
			assert(!await note.evaluate((e, t) => e.innerText.includes(t), x), `${x} shown closed`);
		await sum.click();
		await snap('open');
		const list = await note.evaluate((e) => e.innerText);

		for (const x of files)
			assert(list.includes(x), `${x} not in the list opened`);
		assert((await note.boundingBox()).height >= closed.height + 20 * lineH,
		       'the list opened is not one line per file');
		/* The title of a source row says why. */
		const title = await page.locator('#asm-code tr.src td').first().getAttribute('title');

		assert(/^\/build\/gone\/src\/part\d\d\.c:\d+ \(not shown: not on this machine\)$/.test(title),
		       `a source row's title: ${JSON.stringify(title)}`);
	});
}

async function contextLimitChecks() {
	await check('a function beyond --annotate-functions says how to include it', async () => {
		assert(data.functions.length === 1, `${data.functions.length} functions in the page`);
		await open();
		await clickFrame('two_sites');
		const note = await page.textContent('#asm-note');

		assert(/two_sites: its code is not on this page.*--annotate-functions=N/.test(note),
		       `the pane says ${JSON.stringify(note)}`);
	});
}

await { workload: workloadChecks, samples: samplesChecks, hostile: hostileChecks, events: eventsChecks,
	long: longChecks, deep: deepChecks, systemwide: systemwideChecks, diff: diffChecks,
	rename: renameChecks, context: contextChecks, 'context-limit': contextLimitChecks }[mode]();

await browser.close();
console.log(`${mode}: ${passed} passed${failed ? `, ${failed} FAILED` : ''}`);
process.exit(failed ? 1 : 0);
