// SPDX-License-Identifier: GPL-2.0
/*
 * The viewer of perf flamegraph's HTML output, embedded in every page.
 *
 * The page holds the flame graph as JSON, in the script element "fg-data":
 *   {"v": 1, "strings": [...], "info": {...}, "root": NODE}
 * or, for several events, "graphs" instead of "root": [{"info": {...},
 * "root": NODE}, ...], each graph's info with its event, unit and view.
 * NODE = [label, flags, dso, self, addr, srcline, [NODE...], samples],
 * where label, dso and srcline index "strings" (-1: none), flags is the
 * kind (0 root, 1 comm, 2 func, 3 unknown, 4 insn, 5 truncated) | 8 kernel | 16 JIT,
 * self the weight of the samples that ended at the node (info.weight:
 * their periods, in info.unit, or their number), addr the objdump
 * address ("" if none) and samples the number of those samples.
 * A frame of a function whose whole code the page carries has two more
 * entries: the function's index in "functions" and its call sites in
 * this context, [[return address as an offset from the function's
 * start, weight, samples], ...].  "functions" and "sources" (beside
 * "root", or in each of "graphs") are those of perf flamegraph's JSON
 * (flamegraph__put_functions()) but for each function's "i", whose
 * instructions are [offset from its start, text, index in "sources" or
 * -1, line, and "file:line" where there is no source], and "w", the
 * numbers of those where one is not 0: [index in "i", self weight,
 * samples, weight called through it, samples likewise], over all
 * contexts.
 *
 * The Assembly pane (in the side panel, above the hot instructions)
 * shows the whole code of the function of the frame zoomed to: its
 * self weight and call sites in that frame's context, or in all
 * contexts (perf annotate's numbers), with the source interleaved.
 *
 * Views: flame (root at the bottom), icicle (root at the top), merged
 * (functions merged across callers, with their instructions), inverted
 * (bottom-up: each function's own weight, its instructions, then the
 * callers that led there) and sandwich (one function's callers above
 * it, its callees and instructions below, all its calls merged).
 *
 * perf flamegraph --diff's page has "diff": true and nodes of NEW's tree
 * with OLD's frames added, each NODE followed by OLD's self weight and
 * samples, how an instruction leaf was matched (0 same address, 1
 * aligned, 2 unmatched; -1 for other frames), OLD's label where it
 * differs (-1: it doesn't) and 1 where an aligned leaf's operands differ
 * (registers renamed), else 0; info.base names OLD's recording.
 * Frames are coloured by the change of their share (red grew, blue
 * shrank); "Shape: before" draws OLD's widths instead of NEW's.
 *
 * The URL fragment keeps what a link reopens, as "key=value&...":
 * event=N (the graph shown, 0 first), view=NAME, zoom=I.J.K (the zoomed
 * frame as child indices from the view's root), x=LO,HI (the part of
 * it shown after Ctrl+wheel or dragging, fractions of its width),
 * fn=I.J.K (the sandwiched function, in the flame view's tree) and
 * q=TEXT (the search).
 *
 * The canvas is never taller than the panel that holds it: a deep graph
 * scrolls in that panel and only the rows in sight are painted.
 *
 * Names are data: they reach the page only through textContent, title
 * attributes and canvas fillText, never as markup.
 *
 * window.perfFlamegraph is the interface the browser tests drive.
 */
(function () {
	'use strict';

	const t0 = performance.now();
	const KIND = ['root', 'comm', 'func', 'unknown', 'insn', 'truncated'];
	/* A node's flags: FLAMEGRAPH_PAGE_* of flamegraph-output.h. */
	const KIND_MASK = 7, F_KERNEL = 8, F_JIT = 16;
	const H = 16;
	const FONT = '11px sans-serif', TABLE_FONT = '11px monospace';
	const ELLIPSIS = '\u2026';
	const HIGHLIGHT = 'rgb(230,0,230)';

	const $ = (id) => document.getElementById(id);
	const cv = $('fg'), cx = cv.getContext('2d');
	const graph = $('graph'), space = $('fg-space');
	const tip = $('tip'), q = $('q');
	const raw = JSON.parse($('fg-data').textContent);
	const S = raw.strings;
	const graphs = raw.graphs || [{ info: {}, root: raw.root }];
	const fragment = () => new URLSearchParams(location.hash.slice(1));
	const fragmentEvent = () => Math.min(graphs.length - 1, Math.max(0,
		parseInt(fragment().get('event') || '0', 10) || 0));
	const shown = fragmentEvent();
	const info = Object.assign({}, raw.info || {}, graphs[shown].info);
	/* What a frame's width sums, as the numbers are labelled. */
	const bySamples = info.weight === 'samples';
	const unit = bySamples ? 'samples' : (info.unit || 'period');
	const isDiff = !!raw.diff;
	/* A time (cpu-clock, task-clock, off-CPU time): printed as one. */
	const isTime = unit === 'ns';

	/*
	 * A weight as the page prints it: a time with four digits in s, ms,
	 * us or ns (264750000 ns as 264.8 ms), other units as the count.
	 */
	function weight(v) {
		if (!isTime)
			return String(v);
		for (const [f, u] of [[1e9, 's'], [1e6, 'ms'], [1e3, '\u00b5s']]) {
			const x = v / f;

			if (Math.abs(x) >= 1000)
				return Math.round(x) + ' ' + u;
			if (Math.abs(+x.toPrecision(4)) >= 1)
				return x.toPrecision(4) + ' ' + u;
		}
		return v + ' ns';
	}

	/* The exact value, for a title or beside the time. */
	/* A count and its unit, in the singular for 1: "1 sample", "1 fault". */
	const count = (v, u) => v + ' ' + (v === 1 && u !== 'ns' ?
					    u.replace(/ches$/, 'ch').replace(/s$/, '') : u);
	const exact = (v) => count(v, unit);

	let nrNodes = 0;

	/* Array nodes to objects, with parent, depth and totals. */
	function build(a, parent, depth) {
		const n = {
			n: a[0] >= 0 ? S[a[0]] : '',
			kind: a[1] & KIND_MASK,
			kernel: !!(a[1] & F_KERNEL),
			jit: !!(a[1] & F_JIT),
			d: a[2] >= 0 ? S[a[2]] : '',
			self: a[3],
			a: a[4],
			sl: a[5] >= 0 ? S[a[5]] : '',
			p: parent,
			depth: depth,
			c: [],
			t: a[3],
			ss: a[7],
			ts: a[7],
			key: '',
		};
		const kids = a[6];

		if (!isDiff && a.length > 8) {
			n.F = a[8];
			n.x = a[9];
		}
		if (isDiff) {
			n.os = n.ot = a[8];
			n.oss = n.ots = a[9];
			n.how = a[10];
			n.on = a[11] >= 0 ? S[a[11]] : '';
			n.ops = a[12] === 1;
		}
		nrNodes++;
		for (let i = 0; i < kids.length; i++) {
			const c = build(kids[i], n, depth + 1);

			n.c.push(c);
			n.t += c.t;
			n.ts += c.ts;
			if (isDiff) {
				n.ot += c.ot;
				n.ots += c.ots;
			}
		}
		return n;
	}

	const root = build(graphs[shown].root, null, 0);
	const isFunc = (n) => n.kind === 2 || n.kind === 3;

	/*
	 * Functions are told apart by DSO and label (the label carries the
	 * start address when a name is shared), instructions by their
	 * function and address: the key that merges them across callers.
	 */
	const funcs = new Map(), insns = new Map();

	function index(n) {
		if (isFunc(n))
			n.key = n.d + '\u0000' + n.n;
		if (n.kind === 4) {
			const f = n.p && n.p.key ? n.p.key : n.d;

			n.key = f + '\u0000' + n.a;
			let e = insns.get(n.key);
			if (!e) {
				e = { key: n.key, text: n.n, a: n.a, d: n.d, sl: n.sl,
				      func: n.p ? n.p.n : '', fkey: f, t: 0, ts: 0, ot: 0,
				      kernel: n.kernel, jit: n.jit };
				insns.set(n.key, e);
			}
			e.t += n.t;
			e.ts += n.ts;
			if (isDiff)
				e.ot += n.ot;
			funcs.set(f, (funcs.get(f) || 0) + n.t);
		}
		for (const c of n.c)
			index(c);
	}
	index(root);

	/* ---- --diff: before and after ---- */

	let oldShape = false;	/* the widths are OLD's */

	/* [after, before] of a node's (or a hot row's) weight, whichever is drawn. */
	const afterBefore = (n) => (oldShape ? [n.ot, n.t] : [n.t, n.ot]);

	/* The change of its share of all, in points: after minus before. */
	function delta(n) {
		const [a, b] = afterBefore(n), [ra, rb] = afterBefore(root);

		return 100 * ((ra ? a / ra : 0) - (rb ? b / rb : 0));
	}

	let maxDelta = 0;

	if (isDiff) {
		(function walk(n) {
			maxDelta = Math.max(maxDelta, Math.abs(delta(n)));
			for (const c of n.c)
				walk(c);
		})(root);
	}

	function diffColor(n) {
		const d = delta(n);
		const v = Math.round(225 - 170 * Math.sqrt(maxDelta ? Math.min(1, Math.abs(d) / maxDelta) : 0));

		if (Math.abs(d) < 0.005)
			return 'rgb(225,225,225)';
		return d > 0 ? 'rgb(245,' + v + ',' + v + ')' : 'rgb(' + v + ',' + v + ',245)';
	}

	/* perf annotate's percent: the instruction's share of its function. */
	function insnShare(key) {
		const e = insns.get(key);
		const ft = e ? funcs.get(e.fkey) : 0;

		return ft ? e.t / ft : 0;
	}

	/* ---- Views other than the call tree: trees of merged nodes ---- */

	/*
	 * A node of a derived view, standing for the nodes merged into it;
	 * on a --diff page with their weights before too.
	 */
	function derived(n, parent) {
		const m = { n: n.n, kind: n.kind, kernel: n.kernel, jit: n.jit,
			    d: n.d, self: 0, ss: 0, a: n.a, sl: n.sl, p: parent,
			    depth: parent ? parent.depth + 1 : 0, c: [], t: 0, ts: 0,
			    key: n.key, byKey: null, of: n };

		if (isDiff)
			Object.assign(m, { os: 0, oss: 0, ot: 0, ots: 0, how: n.how, on: n.on,
					   ops: n.ops });
		return m;
	}

	/* The child of a derived node that n merges into. */
	function child(parent, n) {
		const k = n.key || n.kind + '\u0000' + n.n;
		let c;

		if (!parent.byKey)
			parent.byKey = new Map();
		c = parent.byKey.get(k);
		if (!c) {
			c = derived(n, parent);
			parent.byKey.set(k, c);
			parent.c.push(c);
		}
		return c;
	}

	/* Heaviest first; a function's instructions in address order. */
	function finish(n) {
		if (n.c.length && n.c.every((c) => c.kind === 4))
			n.c.sort((x, y) => parseInt(x.a, 16) - parseInt(y.a, 16));
		else
			n.c.sort((x, y) => y.t - x.t);
		n.byKey = null;
		for (const c of n.c)
			finish(c);
		return n;
	}

	/* Weights after (t, ts) and, on a --diff page, before (ot, ots). */
	function add(n, t, ts, ot, ots) {
		n.t += t;
		n.ts += ts;
		if (isDiff) {
			n.ot += ot;
			n.ots += ots;
		}
	}

	function addSelf(n, t, ts, ot, ots) {
		n.self += t;
		n.ss += ts;
		if (isDiff) {
			n.os += ot;
			n.oss += ots;
		}
	}

	/* Functions merged across callers, then their instructions. */
	function buildMerged() {
		const m = derived(root, null);

		add(m, root.t, root.ts, root.ot, root.ots);
		(function walk(n) {
			let t = n.self, ts = n.ss, ot = n.os, ots = n.oss;

			for (const c of n.c) {
				if (c.kind === 4 && isFunc(n)) {
					t += c.t;
					ts += c.ts;
					ot += c.ot;
					ots += c.ots;
				} else {
					walk(c);
				}
			}
			if (!isFunc(n) || !(t || (isDiff && ot)))
				return;
			const f = child(m, n);

			add(f, t, ts, ot, ots);
			addSelf(f, n.self, n.ss, n.os, n.oss);
			for (const c of n.c) {
				if (c.kind !== 4)
					continue;
				const i = child(f, c);

				add(i, c.t, c.ts, c.ot, c.ots);
				addSelf(i, c.t, c.ts, c.ot, c.ots);
			}
		})(root);
		return finish(m);
	}

	/*
	 * Bottom-up: where each sample ended (its function, then its
	 * instruction if any), then the callers that led there, outwards.
	 */
	function buildInverted() {
		const m = derived(root, null);

		(function walk(n) {
			if ((n.self || (isDiff && n.os)) && n !== root) {
				const w = [n.self, n.ss, n.os, n.oss];
				let at = m, a = n.p;

				add(m, ...w);
				if (n.kind === 4 && n.p && n.p !== root) {
					at = child(at, n.p);
					add(at, ...w);
					a = n.p.p;
				}
				at = child(at, n);
				add(at, ...w);
				for (; a && a !== root; a = a.p) {
					at = child(at, a);
					add(at, ...w);
				}
				addSelf(at, ...w);
			}
			for (const c of n.c)
				walk(c);
		})(root);
		return finish(m);
	}

	/*
	 * One function's calls, merged: "down" holds what they called and
	 * their instructions, "up" their callers outwards. Calls inside
	 * another call of the function (recursion) count once, with the
	 * outermost.
	 */
	function buildSandwich(fn) {
		const up = derived(fn, null), down = derived(fn, null);
		let nr = 0;

		(function walk(n, inside) {
			const is = isFunc(n) && n.key === fn.key;

			if (is && !inside) {
				let at = up;

				nr++;
				(function merge(src, dst) {
					add(dst, src.t, src.ts, src.ot, src.ots);
					addSelf(dst, src.self, src.ss, src.os, src.oss);
					for (const c of src.c)
						merge(c, child(dst, c));
				})(n, down);
				add(up, n.t, n.ts, n.ot, n.ots);
				for (let a = n.p; a && a !== root; a = a.p) {
					at = child(at, a);
					add(at, n.t, n.ts, n.ot, n.ots);
				}
				addSelf(at, n.t, n.ts, n.ot, n.ots);
			}
			for (const c of n.c)
				walk(c, inside || is);
		})(root, false);
		return { fn: fn, up: finish(up), down: finish(down), calls: nr };
	}

	/* ---- State ---- */

	let view = 'flame', top = root, focus = root, cursor = root;
	let lo = 0, hi = 1;	/* the part of focus's width in sight */
	let sandwich = null, merged = null, inverted = null;
	let re = null, selected = null;
	let frames = [], rows = 1, canvasH = H;
	let fnRow = 0;		/* the sandwiched function's row */
	const timings = { open: 0, draw: 0, search: 0, zoom: 0 };

	function hash(s) {
		let h = 0;

		for (let i = 0; i < s.length && i < 24; i++)
			h = (h * 31 + s.charCodeAt(i)) >>> 0;
		return h;
	}

	/* A search match, or a leaf of the selected hot instruction. */
	function hit(n) {
		return (re && re.test(n.n)) ||
		       (selected !== null && n.kind === 4 && n.key === selected);
	}

	function color(n) {
		const v = hash(n.n) % 40;

		if (hit(n))
			return HIGHLIGHT;
		if (n.kind === 0 || n.kind === 1)
			return 'rgb(205,205,205)';
		if (isDiff && n.ot !== undefined)
			return diffColor(n);
		if (n.kind === 4)
			return 'rgb(' + (70 + v) + ',' + (140 + v) + ',230)';
		if (n.kind === 3)
			return 'rgb(170,170,170)';
		if (n.kind === 5)
			return 'rgb(120,120,120)';
		if (n.jit)
			return 'rgb(' + (150 + v) + ',110,220)';
		if (n.kernel)
			return 'rgb(' + (80 + v) + ',185,' + (80 + v) + ')';
		return 'rgb(240,' + (70 + v * 2) + ',50)';
	}

	/* ---- Names that don't fit ---- */

	/*
	 * The function's own name in a demangled name: the identifier before
	 * its last parenthesised group (the parameters), past any template
	 * arguments of its own. [start, end) or null.
	 */
	function ownName(s) {
		let i = s.lastIndexOf(')'), d = 0;

		for (; i >= 0; i--) {
			if (s[i] === ')')
				d++;
			else if (s[i] === '(' && --d === 0)
				break;
		}
		let j = i - 1;

		if (j > 0 && s[j] === '>') {
			for (d = 0; j >= 0; j--) {
				if (s[j] === '>')
					d++;
				else if (s[j] === '<' && --d === 0)
					break;
			}
			j--;
		}
		let k = j;

		while (k >= 0 && /[\w~$.]/.test(s[k]))
			k--;
		return i > 0 && k < j ? [k + 1, j + 1] : null;
	}

	/* The longest n in [0, max] with ok(n), ok being monotonic. */
	function longest(max, ok) {
		let a = 0, b = max;

		while (a < b) {
			const m = (a + b + 1) >> 1;

			if (ok(m))
				a = m;
			else
				b = m - 1;
		}
		return a;
	}

	/*
	 * s shortened to fit px by width(): cut in the middle, keeping the
	 * function's own name and the end (its parameters, const, clone
	 * suffixes), then the own name and what follows it, then the start.
	 */
	function shorten(s, px, width) {
		if (width(s) <= px)
			return s;
		const own = ownName(s);

		if (own) {
			const tail = s.slice(own[0]);

			if (width(ELLIPSIS + tail) <= px) {
				const k = longest(own[0], (n) =>
					width(s.slice(0, n) + ELLIPSIS + tail) <= px);

				return s.slice(0, k) + ELLIPSIS + tail;
			}
			const name = s.slice(own[0], own[1]);

			if (width(name + ELLIPSIS) <= px) {
				const k = longest(s.length - own[1], (n) =>
					width(name + ELLIPSIS + s.slice(s.length - n)) <= px);

				return name + ELLIPSIS + s.slice(s.length - k);
			}
			s = name;
		}
		if (width(ELLIPSIS) > px)
			return '';
		return s.slice(0, longest(s.length, (n) =>
			width(s.slice(0, n) + ELLIPSIS) <= px)) + ELLIPSIS;
	}

	/* Text widths in a canvas font, remembered: labels repeat. */
	function measurer(ctx, font) {
		const known = new Map();

		return function (s) {
			let w = known.get(s);

			if (w === undefined) {
				if (known.size > 50000)
					known.clear();
				if (ctx.font !== font)
					ctx.font = font;
				w = ctx.measureText(s).width;
				known.set(s, w);
			}
			return w;
		};
	}
	const labelWidth = measurer(cx, FONT);
	const tableWidth = measurer(document.createElement('canvas').getContext('2d'),
				    TABLE_FONT);

	/* ---- Layout: where each frame goes, all of them ---- */

	/*
	 * Frames at least half a pixel wide, their y in the whole graph's
	 * rows (only those in sight get painted). A tree grows from row
	 * base, upwards (dir -1) or downwards (dir 1), its root spanning
	 * [x, x + w); frames outside [0, W) are left out.
	 */
	function place(n, x, w, base, dir, W, out, skipRoot) {
		(function walk(n, x, w, d) {
			const s = n.t ? w / n.t : 0;

			if (!skipRoot || d)
				out.push({ n: n, x: x, w: w, d: base + dir * d });
			for (const c of n.c) {
				const cw = c.t * s;

				if (cw >= 0.5 && x + cw > 0 && x < W)
					walk(c, x, cw, d + 1);
				x += cw;
			}
		})(n, x, w, 0);
	}

	function layout(W) {
		const out = [];

		const span = W / (hi - lo);

		if (view === 'sandwich') {
			const up = [];

			place(sandwich.up, -lo * span, span, 0, -1, W, up, true);
			const u = up.reduce((m, f) => Math.min(m, f.d), 0);

			fnRow = -u;

			place(sandwich.down, -lo * span, span, -u, 1, W, out, false);
			for (const f of up) {
				f.d -= u;
				out.push(f);
			}
		} else {
			const anc = [];

			for (let a = focus.p; a; a = a.p)
				anc.unshift(a);
			anc.forEach((a, i) => out.push({ n: a, x: 0, w: W, d: i }));
			place(focus, -lo * span, span, anc.length, 1, W, out, false);
		}
		rows = out.reduce((m, f) => Math.max(m, f.d), 0) + 1;
		return out;
	}

	/* The panel fills the window below the bars; the page never scrolls. */
	function fitPanel() {
		const r = graph.getBoundingClientRect();
		const h = Math.max(5 * H, Math.floor(window.innerHeight - r.top - 10));

		graph.style.height = h + 'px';
		$('side').style.height = h + 'px';
	}

	/* How far the view is from the graph's root, kept across redraws. */
	function fromRoot() {
		if (view === 'flame')
			return graph.scrollHeight - graph.clientHeight - graph.scrollTop;
		return graph.scrollTop;
	}

	function toRoot(d) {
		const max = Math.max(0, graph.scrollHeight - graph.clientHeight);

		d = Math.min(Math.max(d, 0), max);
		graph.scrollTop = view === 'flame' ? max - d : d;
	}

	/* Lay out, size the canvas and the scroll space, then paint. */
	function draw(keep) {
		const t = performance.now();
		const d = keep === undefined ? fromRoot() : keep;
		crumbs();
		fitPanel();
		const W = graph.clientWidth;

		frames = layout(W);
		/*
		 * The canvas fills the panel; a flame graph sits on its
		 * bottom, the root staying put as frames come and go above.
		 */
		canvasH = graph.clientHeight;
		const height = Math.max(rows * H, canvasH);

		for (const f of frames)
			f.y = view === 'flame' ? height - (f.d + 1) * H : f.d * H;
		space.style.height = (height - canvasH) + 'px';
		cv.style.height = canvasH + 'px';
		toRoot(d);
		paint();
		saveState();
		timings.draw = performance.now() - t;
	}

	/* The rows in sight: the canvas is a window on the graph. */
	function paint() {
		const W = graph.clientWidth;
		const dpr = window.devicePixelRatio || 1;
		const off = graph.scrollTop;

		if (cv.width !== Math.round(W * dpr) || cv.height !== Math.round(canvasH * dpr)) {
			cv.width = Math.round(W * dpr);
			cv.height = Math.round(canvasH * dpr);
		}
		cv.style.width = W + 'px';
		cx.setTransform(dpr, 0, 0, dpr, 0, 0);
		cx.clearRect(0, 0, W, canvasH);
		cx.font = FONT;
		cx.textBaseline = 'middle';
		for (const f of frames) {
			const y = f.y - off;

			if (y + H > 0 && y < canvasH)
				box(f, y);
		}
	}

	function box(f, y) {
		const n = f.n;
		const x = Math.max(f.x, 0), w = Math.min(f.x + f.w, graph.clientWidth) - x;

		cx.fillStyle = color(n);
		cx.fillRect(x, y, Math.max(w - 1, 0.5), H - 1);
		if (n === cursor) {
			cx.strokeStyle = '#000';
			cx.lineWidth = 2;
			cx.strokeRect(x + 1, y + 1, Math.max(w - 3, 1), H - 3);
		}
		if (w < 20)
			return;
		const label = n.kind === 4 ? shortenInsn(n.n, w - 6, labelWidth) :
			      shorten(n.n, w - 6, labelWidth);

		if (!label)
			return;
		cx.fillStyle = '#000';
		cx.fillText(label, x + 3, y + H / 2);
	}

	/* The zoomed frame's path, each crumb shortened, whole in its title. */
	function crumbs() {
		const el = $('crumbs');
		const path = [];
		const px = Math.max(120, el.clientWidth / 4);

		if (view === 'sandwich')
			path.push(sandwich.fn);
		else
			for (let a = focus; a; a = a.p)
				path.unshift(a);
		el.textContent = '';
		if (view === 'sandwich')
			el.appendChild(document.createTextNode('sandwich of '));
		path.forEach(function (a, i) {
			const link = document.createElement('a');

			if (i)
				el.appendChild(document.createTextNode(' > '));
			link.href = '#';
			link.textContent = shorten(a.n, px, tableWidth);
			link.title = a.n;
			link.addEventListener('click', function (ev) {
				ev.preventDefault();
				if (view === 'sandwich')
					setView('flame');
				zoomTo(a);
			});
			el.appendChild(link);
		});
		if (hi - lo < 1)
			el.appendChild(document.createTextNode(' (' + (100 * (hi - lo)).toPrecision(3) +
							       '% of its width in sight)'));
	}

	/* The frame under a point of the canvas, in its CSS pixels. */
	function frameAt(x, y) {
		y += graph.scrollTop;
		for (let i = frames.length - 1; i >= 0; i--) {
			const f = frames[i];

			if (x >= f.x && x < f.x + f.w && y >= f.y && y < f.y + H)
				return f.n;
		}
		return null;
	}

	function at(ev) {
		const r = cv.getBoundingClientRect();

		return frameAt(ev.clientX - r.left, ev.clientY - r.top);
	}

	function pct(a, b) {
		return b ? (100 * a / b).toFixed(2) + '%' : '-';
	}

	function zoomTo(n) {
		const t = performance.now();

		$('note').textContent = '';
		if (view === 'sandwich') {
			if (isFunc(n) && n.of !== sandwich.fn)
				sandwichOf(n.of);
			timings.zoom = performance.now() - t;
			return timings.zoom;
		}
		focus = n;
		cursor = n;
		lo = 0;
		hi = 1;
		draw(0);
		reveal(n);
		showAsm(n);
		timings.zoom = performance.now() - t;
		return timings.zoom;
	}

	/*
	 * Scroll the panel to n's frame if it is out of sight: a third of
	 * the panel from the side its callees grow to.
	 */
	function reveal(n) {
		const f = frames.find((x) => x.n === n);
		const top = graph.scrollTop, h = graph.clientHeight;

		if (!f || (f.y >= top && f.y + H <= top + h))
			return;
		graph.scrollTop = view === 'flame' ? f.y + H - h * 2 / 3 : f.y - h / 3;
		paint();
	}

	/* ---- The hover card ---- */

	function amount(t, ts) {
		if (bySamples)
			return count(t, 'samples');
		return (isTime ? weight(t) + ' (' + exact(t) + ')' : exact(t)) +
		       ', ' + count(ts, 'samples');
	}

	/* "a of b" in the weight's unit; the exact numbers for a title. */
	const ofAll = (a, b) => (isTime ? weight(a) + ' of ' + weight(b) : a + ' of ' + exact(b));
	const ofAllExact = (a, b) => a + ' of ' + exact(b);

	/*
	 * A frame's own weight: with --asm a function's own samples are in
	 * its instruction leaves; bottom-up, a function's whole width.
	 */
	function own(n) {
		let t = n.self, ts = n.ss;

		if (view === 'inverted' && n.p === top)
			return [n.t, n.ts];
		if (isFunc(n)) {
			for (const c of n.c) {
				if (c.kind === 4) {
					t += c.t;
					ts += c.ts;
				}
			}
		}
		return [t, ts];
	}

	function details(n) {
		const kind = KIND[n.kind] + (n.kernel ? ', kernel' : '') +
			     (n.jit ? ', JIT' : '');
		const all = view === 'sandwich' ? sandwich.down.t : top.t;
		let s = n.n.length > 300 ? shorten(n.n, 600, tableWidth) : n.n;

		/*
		 * perf report --flamegraph: perf report's percentages are of
		 * its total, which holds what its filters left out.
		 */
		const report = (v) => info.report_total && view !== 'sandwich' ?
			', ' + pct(v, info.report_total) + ' in perf report' : '';

		s += '\ntotal: ' + amount(n.t, n.ts) + ' (' + pct(n.t, all) +
		     ' of all, ' + pct(n.t, n.p ? n.p.t : n.t) + ' of its parent' +
		     report(n.t) + ')';
		const o = own(n);

		s += '\nself: ' + amount(o[0], o[1]) + ' (' + pct(o[0], all) + report(o[0]) + ')';
		if (n.kind === 4)
			s += '\nshare of its function: ' +
			     (100 * insnShare(n.key)).toFixed(2) + '% (as perf annotate)';
		if (isDiff && n.ot !== undefined) {
			const [a, b] = afterBefore(n), [ra, rb] = afterBefore(root);
			const [as, bs] = oldShape ? [n.ots, n.ts] : [n.ts, n.ots];
			const d = delta(n);

			s += '\nbefore: ' + amount(b, bs) + ' (' + pct(b, rb) + ')';
			s += '\nafter: ' + amount(a, as) + ' (' + pct(a, ra) + ')';
			s += '\ndelta: ' + (d > 0 ? '+' : '') + d.toFixed(2) + ' points';
			if (n.kind === 4 && n.how >= 0)
				s += '\nmatched: ' + ['same address', 'aligned', 'unmatched'][n.how] +
				     (n.ops ? ' (operands differ)' : '') +
				     (n.on ? ' (before: ' + n.on + ')' : '');
		}
		s += '\nkind: ' + kind;
		if (n.d)
			s += '\ndso: ' + n.d;
		if (n.a)
			s += '\naddress: ' + n.a;
		if (n.sl)
			s += '\nsource: ' + n.sl;
		if (n.n.length > 300)
			s += '\nname: ' + n.n;
		return s;
	}

	/* The card beside the point, turned to stay inside the window. */
	function showTip(n, x, y) {
		tip.textContent = details(n);
		tip.classList.toggle('long', n.n.length > 1000);
		tip.classList.remove('tiny');
		tip.style.display = 'block';
		/* A name too long for the window: a smaller font, then cut. */
		if (tip.scrollHeight > tip.clientHeight)
			tip.classList.add('tiny');
		if (tip.scrollHeight > tip.clientHeight) {
			const text = tip.textContent, i = text.lastIndexOf('\nname: ');
			const over = (tip.scrollHeight - tip.clientHeight) / tip.scrollHeight;
			const keep = Math.max(40, Math.floor((text.length - i) * (1 - over) * 0.9) - 80);

			tip.textContent = text.slice(0, i) + '\nname (' + n.n.length +
				' characters; a crumb\'s title has it whole): ' +
				n.n.slice(0, keep >> 1) + ELLIPSIS + n.n.slice(n.n.length - (keep >> 1));
		}
		const w = tip.offsetWidth, h = tip.offsetHeight;
		const vw = document.documentElement.clientWidth, vh = window.innerHeight;
		let left = x + 12, tp = y + 12;

		if (left + w > vw - 4)
			left = x - 12 - w;
		if (tp + h > vh - 4)
			tp = y - 12 - h;
		tip.style.left = Math.max(4, Math.min(left, vw - w - 4)) + 'px';
		tip.style.top = Math.max(4, Math.min(tp, vh - h - 4)) + 'px';
	}

	/* ---- Mouse: click zooms, drag pans, Ctrl+wheel zooms ---- */

	let drag = null;

	cv.addEventListener('mousedown', function (ev) {
		drag = { x: ev.clientX, y: ev.clientY, moved: false };
	});
	window.addEventListener('mouseup', function () {
		setTimeout(() => (drag = null));
	});
	/* On the window: a drag goes on when the pointer leaves the canvas. */
	window.addEventListener('mousemove', function (ev) {
		if (!drag || !(ev.buttons & 1))
			return;
		const dx = ev.clientX - drag.x, dy = ev.clientY - drag.y;

		if (!drag.moved && Math.abs(dx) + Math.abs(dy) <= 3)
			return;
		drag.moved = true;
		drag.x = ev.clientX;
		drag.y = ev.clientY;
		tip.style.display = 'none';
		pan(-dx / graph.clientWidth * (hi - lo));
		graph.scrollTop -= dy;
	});
	cv.addEventListener('click', function (ev) {
		if (drag && drag.moved)
			return;
		const n = at(ev);

		if (n)
			zoomTo(n);
	});
	cv.addEventListener('mousemove', function (ev) {
		if (drag && drag.moved)
			return;
		const n = at(ev);

		if (!n) {
			tip.style.display = 'none';
			return;
		}
		showTip(n, ev.clientX, ev.clientY);
	});
	cv.addEventListener('mouseleave', function () {
		tip.style.display = 'none';
	});

	function pan(by) {
		const w = hi - lo;

		if (w >= 1)
			return;
		lo = Math.min(Math.max(lo + by, 0), 1 - w);
		hi = lo + w;
		draw();
	}

	cv.addEventListener('wheel', function (ev) {
		if (!ev.ctrlKey && !ev.metaKey) {
			if (ev.deltaX && hi - lo < 1) {
				ev.preventDefault();
				pan(ev.deltaX / graph.clientWidth * (hi - lo));
			}
			return;
		}
		ev.preventDefault();
		tip.style.display = 'none';
		const r = cv.getBoundingClientRect();
		const f = Math.min(Math.max((ev.clientX - r.left) / r.width, 0), 1);
		const mid = lo + f * (hi - lo);
		const w = Math.min(Math.max((hi - lo) * Math.exp(ev.deltaY * 0.002), 1e-6), 1);

		lo = Math.min(Math.max(mid - f * w, 0), 1 - w);
		hi = lo + w;
		draw();
	}, { passive: false });

	graph.addEventListener('scroll', paint);

	/* ---- Search ---- */

	/* The weight under frames that match, each sample counted once. */
	function matched(n, test) {
		let s = 0;

		if (test(n))
			return n.t;
		for (const c of n.c)
			s += matched(c, test);
		return s;
	}

	/* The search box's expression and its share, not drawn yet. */
	function matchSearch() {
		const text = q.value, m = /^\/(.*)\/$/.exec(text);
		const all = view === 'sandwich' ? sandwich.down : top;

		re = null;
		if (text) {
			try {
				re = m ? new RegExp(m[1]) :
				     new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
			} catch (e) {
				re = null;
			}
		}
		if (re) {
			const s = matched(all, (n) => re.test(n.n));

			$('match').textContent = 'matched: ' + pct(s, all.t) +
				' (' + ofAll(s, all.t) + ')';
			$('match').title = ofAllExact(s, all.t);
		} else {
			$('match').textContent = text ? 'invalid regular expression' : '';
			$('match').title = '';
		}
	}

	function search() {
		const t = performance.now();

		$('note').textContent = '';
		matchSearch();
		draw();
		timings.search = performance.now() - t;
		return timings.search;
	}
	q.addEventListener('input', search);

	/* ---- Views ---- */

	const VIEWS = ['flame', 'icicle', 'merged', 'inverted', 'sandwich'];

	/* The view's state without drawing it: applyView(), then redraw(). */
	function applyView(v, fn) {
		tip.style.display = 'none';
		view = v;
		sandwich = null;
		if (v === 'sandwich') {
			sandwich = buildSandwich(fn);
			top = sandwich.down;
		} else if (v === 'merged') {
			top = merged || (merged = buildMerged());
		} else if (v === 'inverted') {
			top = inverted || (inverted = buildInverted());
		} else {
			top = root;
		}
		focus = top;
		cursor = top;
		lo = 0;
		hi = 1;
		for (const b of VIEWS)
			$('view-' + b).classList.toggle('on', b === v);
		selectShare();
	}

	function redraw() {
		matchSearch();
		draw(0);
	}

	/* The function a third down the panel, however many callers it has. */
	function showFn() {
		graph.scrollTop = Math.max(0, fnRow * H - graph.clientHeight / 3);
		paint();
	}

	function sandwichOf(fn) {
		applyView('sandwich', fn);
		redraw();
		showFn();
	}

	/*
	 * The function to sandwich: the frame under the cursor (or its
	 * instruction's), else the heaviest that the search matches, itself
	 * or by an instruction of its, or, without a search, that ran
	 * itself; null if the search matches none.
	 */
	function sandwichTarget() {
		let n = cursor.of || cursor;

		if (n.kind === 4)
			n = n.p;
		if (n && isFunc(n))
			return n;
		const matches = (m) => re.test(m.n) ||
			m.c.some((c) => c.kind === 4 && re.test(c.n));
		const by = re ? (m) => (matches(m) ? m.t : -1) : (m) => own(m)[0];
		let best = null, bw = -1;

		(function walk(m) {
			const w = isFunc(m) ? by(m) : -1;

			if (w > bw) {
				best = m;
				bw = w;
			}
			for (const c of m.c)
				walk(c);
		})(root);
		return best;
	}

	function setView(v) {
		$('note').textContent = '';
		if (v === 'sandwich') {
			const fn = sandwichTarget();

			/* Nothing to sandwich: say why rather than do nothing. */
			if (fn) {
				sandwichOf(fn);
			} else {
				$('note').textContent = 'sandwich: the search matches no function; ' +
					'click one first';
				draw();
			}
			return;
		}
		applyView(v);
		redraw();
	}
	for (const v of VIEWS)
		$('view-' + v).addEventListener('click', () => setView(v));

	$('reset').addEventListener('click', function () {
		q.value = '';
		selectRow(null);
		if (view === 'sandwich')
			setView('flame');
		focus = top;
		cursor = top;
		lo = 0;
		hi = 1;
		search();
	});

	/* ---- Keyboard: arrows walk the frames, Enter zooms, Escape resets ---- */

	function move(ev) {
		let n = null;

		if (ev.target === q || ev.target === $('hot-filter') ||
		    ev.ctrlKey || ev.metaKey || ev.altKey)
			return;
		const up = view === 'flame' ? 'ArrowDown' : 'ArrowUp';
		const down = view === 'flame' ? 'ArrowUp' : 'ArrowDown';
		const heaviest = (m) => (m.c.length ? m.c.reduce((a, b) => (b.t > a.t ? b : a)) : null);

		/* The sandwich: callers above the function, callees below. */
		if (view === 'sandwich' && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown')) {
			const inUp = (m) => {
				while (m.p)
					m = m.p;
				return m === sandwich.up;
			};
			const c = cursor === sandwich.up ? sandwich.down : cursor;

			if (ev.key === 'ArrowUp')
				n = c === sandwich.down ? heaviest(sandwich.up) :
				    inUp(c) ? heaviest(c) : c.p;
			else
				n = inUp(c) ? (c.p === sandwich.up ? sandwich.down : c.p) : heaviest(c);
			ev.preventDefault();
			if (n)
				walkTo(n);
			return;
		}
		switch (ev.key) {
		case up:
			n = cursor.p;
			break;
		case down:
			n = heaviest(cursor);
			break;
		case 'ArrowLeft':
		case 'ArrowRight':
			if (cursor.p) {
				const sib = cursor.p.c, i = sib.indexOf(cursor);

				n = sib[i + (ev.key === 'ArrowLeft' ? -1 : 1)] || null;
			}
			break;
		case 'Enter':
			zoomTo(cursor);
			ev.preventDefault();
			return;
		case 'Escape':
			if (view === 'sandwich') {
				setView('flame');
				return;
			}
			focus = top;
			cursor = top;
			lo = 0;
			hi = 1;
			draw(0);
			return;
		case 's':
			setView('sandwich');
			return;
		case 'n':
		case 'N':
			if (asm.frame)
				stepHot(ev.key === 'n' ? 1 : -1);
			return;
		case '/':
			q.focus();
			ev.preventDefault();
			return;
		default:
			return;
		}
		ev.preventDefault();
		if (n)
			walkTo(n);
	}

	/* The keyboard's cursor to n, in sight, with its card. */
	function walkTo(n) {
		cursor = n;
		/* Keep the cursor inside the zoomed frame, and in the range. */
		let a = n;
		while (a && a !== focus)
			a = a.p;
		if (!a && view !== 'sandwich') {
			focus = n.p || n;
			lo = 0;
			hi = 1;
		}
		draw();
		if (!frames.some((b) => b.n === n)) {
			lo = 0;
			hi = 1;
			draw();
		}
		reveal(n);
		const f = frames.find((b) => b.n === n), cr = cv.getBoundingClientRect();

		if (f)
			showTip(n, cr.left + Math.max(f.x, 0) + 4,
				cr.top + f.y - graph.scrollTop + H);
	}
	document.addEventListener('keydown', move);

	/* ---- The hot instructions table ---- */

	/*
	 * The hot table's order: a column (weight, func, delta) and its
	 * direction, descending first; a click on the column sorted by
	 * turns it. The change (delta) sorts by its size first, the
	 * largest growths and decreases together, then the largest growth
	 * first, then the largest decrease first.
	 */
	let hotSort = 'weight', hotDir = -1, hotAbs = false, hotFilter = '';
	const HOT_ROWS = 200;

	/* The selected instruction's weight in the view, as search shows it. */
	function selectShare() {
		const el = $('selected');
		const all = view === 'sandwich' ? sandwich.down : top;

		if (selected === null) {
			el.textContent = '';
			el.title = '';
			return;
		}
		const s = matched(all, (n) => n.kind === 4 && n.key === selected);

		el.textContent = 'instruction: ' + pct(s, all.t) + ' (' + ofAll(s, all.t) + ')';
		el.title = ofAllExact(s, all.t);
	}

	/* Its leaves highlighted; the view zoomed to its heaviest stack. */
	/*
	 * Select the instruction key: highlight its leaves and zoom to its
	 * heaviest stack, or, given a frame within, to its heaviest leaf
	 * inside that frame (none there: the zoom stays).
	 */
	function selectRow(key, within) {
		const body = $('hot').tBodies[0];
		let best = null;

		selected = key;
		for (const r of body.rows)
			r.classList.toggle('sel', r.dataset.key === key);
		if (key !== null && view === 'sandwich' &&
		    !matched(sandwich.down, (n) => n.kind === 4 && n.key === key))
			applyView('flame');
		selectShare();
		if (key !== null && view !== 'sandwich') {
			(function walk(n) {
				if (n.kind === 4 && n.key === key && (!best || n.t > best.t))
					best = n;
				for (const c of n.c)
					walk(c);
			})(within || top);
		}
		if (best) {
			zoomTo(best.p || best);
			cursor = best;
			showAsm(best);
		}
		draw();
	}

	/*
	 * Widths for columns between lo[i] and hi[i] px, room px in all if
	 * that is between: all at one level, each clamped to its range, so
	 * that a column is held below its hi only where none is wider than
	 * it, but for those held up by their lo.
	 */
	function level(lo, hi, room) {
		const at = (l) => lo.map((x, i) => Math.min(Math.max(l, x), hi[i]));
		const sum = (l) => at(l).reduce((a, b) => a + b, 0);
		let a = 0, b = Math.max(...hi);

		if (sum(b) <= room)
			return hi;
		for (let i = 0; i < 40; i++) {
			const m = (a + b) / 2;

			if (sum(m) <= room)
				a = m;
			else
				b = m;
		}
		return at(a);
	}

	/*
	 * Column widths for the rows shown, the table as wide as the panel:
	 * the numbers whole; the instruction, function and dso what their
	 * widest cell needs if that fits, the room left to the function.
	 * Else at one level (level()), first up to what three quarters of
	 * each column's cells need, then up to the widest: a few names far
	 * longer than the rest don't take the room of the other columns.
	 * Names are cut in the middle (shorten()), an instruction at its
	 * branch target's symbol, or wrapped.
	 */
	function hotColumns(rows) {
		const W = $('side').clientWidth - 2;
		const widths = (f) => rows.map((e) => f(e) + 10).sort((a, b) => a - b);
		const num = [Math.max(...widths((e) => tableWidth(weight(e.t))),
				      tableWidth($('hot-weight').textContent + ' \u25be') + 10),
			     Math.max(tableWidth('100.00%'), tableWidth($('hot').tHead.rows[0].cells[1]
						      .textContent + ' \u25be')) + 10];
		const cells = [widths((e) => insnWidth(e.text)), widths((e) => tableWidth(e.func)),
			       widths((e) => tableWidth(e.d))];
		const most = cells.map((c) => c[Math.max(Math.ceil(c.length * 0.75) - 1, 0)] || 0);
		const room = Math.max(W - num[0] - num[1], 0);
		const text = level(most.map(() => 0), most, room);
		const all = level(text, cells.map((c, i) => Math.max(c.at(-1) || 0, text[i])), room);

		all[1] += Math.max(room - all.reduce((a, b) => a + b, 0), 0);
		const cols = num.concat(all);
		const sum = cols.reduce((a, b) => a + b, 0);

		/* A narrow window: every column narrower, the table its width. */
		return sum > W ? cols.map((c) => c * W / sum) : cols;
	}

	/*
	 * An instruction in px with only the symbol of a branch target or a
	 * memory operand (objdump's <name+off>) cut; null if it can't be.
	 */
	function shortenInsnSymbol(s, px, width) {
		const i = s.indexOf('<'), j = s.lastIndexOf('>');

		if (width(s) <= px)
			return s;
		if (i > 0 && j > i) {
			const rest = s.slice(0, i + 1) + s.slice(j);
			const sym = shorten(s.slice(i + 1, j), px - width(rest), width);

			if (sym)
				return s.slice(0, i + 1) + sym + s.slice(j);
		}
		return null;
	}

	/*
	 * An instruction cut to px: the symbol first, then the middle; its
	 * mnemonic and its address stay.
	 */
	function shortenInsn(s, px, width) {
		const sym = shortenInsnSymbol(s, px, width);

		if (sym !== null)
			return sym;
		const half = (n) => s.slice(0, n) + ELLIPSIS + s.slice(s.length - n);
		const k = longest(s.length >> 1, (n) => width(half(n)) <= px);

		return k ? half(k) : shorten(s, px, width);
	}

	/* What an instruction needs: a branch target's symbol up to 16 characters. */
	function insnWidth(s) {
		const i = s.indexOf('<'), j = s.lastIndexOf('>');

		if (i > 0 && j - i > 17)
			return tableWidth(s.slice(0, i + 1) + s.slice(i + 1, i + 17) + s.slice(j));
		return tableWidth(s);
	}

	/*
	 * Names shortened to px, those that shorten() would show alike (two
	 * instances of a template) shown apart: their own name, the part
	 * from where each differs from the others, and the end. A Map of
	 * name to text.
	 */
	function shortenAll(names, px, width) {
		const out = new Map(), alike = new Map();

		for (const s of new Set(names)) {
			const t = shorten(s, px, width);

			out.set(s, t);
			alike.set(t, (alike.get(t) || []).concat(s));
		}
		for (const group of alike.values()) {
			if (group.length < 2)
				continue;
			for (const s of group) {
				const own = ownName(s) || [0, 0];
				const name = s.slice(own[0], own[1]);
				let d = own[1];

				for (const o of group) {
					let i = 0;

					while (i < s.length && s[i] === o[i])
						i++;
					if (o !== s)
						d = Math.max(d, i);
				}
				const mid = s.slice(Math.max(d - 4, own[1]));
				const e = longest(mid.length, (n) =>
					width(ELLIPSIS + mid.slice(mid.length - n)) <= px / 4);
				const end = mid.slice(mid.length - e);
				const k = longest(mid.length - e, (n) =>
					width(name + ELLIPSIS + mid.slice(0, n) + ELLIPSIS + end) <= px);

				if (k > 4)
					out.set(s, name + ELLIPSIS + mid.slice(0, k) + ELLIPSIS + end);
			}
		}
		return out;
	}

	function fillHot() {
		const body = $('hot').tBodies[0];
		const f = hotFilter.toLowerCase();
		const list = Array.from(insns.values()).filter((e) => !f ||
			[e.func, e.text, e.sl, e.d].some((s) => s.toLowerCase().includes(f)));
		const by = hotSort === 'func' ? (e) => insnShare(e.key) :
			   hotSort === 'delta' ? (e) => delta(e) : (e) => e.t;
		const order = hotAbs ? (e) => Math.abs(delta(e)) : by;
		let head;

		/* The rows kept are the largest, whichever way they are shown. */
		if (hotSort === 'delta') {
			head = keepChanges(list);
		} else {
			list.sort((x, y) => by(y) - by(x) || y.t - x.t);
			head = list.slice(0, HOT_ROWS);
		}
		head.sort((x, y) => hotDir * (order(x) - order(y)) || y.t - x.t);
		body.textContent = '';
		const cols = hotColumns(head);
		const funcText = shortenAll(head.map((e) => e.func), cols[3] - 8, tableWidth);

		$('hot').querySelectorAll('col').forEach((c, i) => (c.style.width = cols[i] + 'px'));
		for (const e of head) {
			const tr = body.insertRow();
			const d = isDiff ? delta(e) : 0;
			const cells = [weight(e.t), isDiff ? (d > 0 ? '+' : '') + d.toFixed(2) :
				       (100 * insnShare(e.key)).toFixed(2) + '%', e.text, e.func, e.d];

			cells.forEach(function (c, i) {
				const td = tr.insertCell();

				if (i === 3) {
					td.textContent = funcText.get(c);
				} else if (i > 2) {
					td.textContent = shorten(c, cols[i] - 8, tableWidth);
				} else if (i === 2) {
					/* Operands too long to cut: whole, on two lines. */
					const t = shortenInsnSymbol(c, cols[i] - 8, tableWidth);

					td.textContent = t === null ? c : t;
					td.classList.toggle('wrap', t === null);
				} else {
					td.textContent = c;
				}
				if (i >= 2)
					td.title = c;
			});
			/* What the columns leave out. */
			tr.title = exact(e.t) + ', ' + pct(e.t, root.t) + ' of all' +
				   (e.sl ? ', ' + e.sl : '');
			tr.dataset.key = e.key;
			tr.classList.toggle('sel', e.key === selected);
			tr.addEventListener('click', function () {
				selectRow(tr.classList.contains('sel') ? null : tr.dataset.key);
			});
		}
		$('hot-count').textContent = list.length > HOT_ROWS ? HOT_ROWS + ' of ' + list.length :
					     String(list.length);
	}

	/*
	 * The rows a --diff page keeps: the largest growths and the largest
	 * decreases in turn, so that neither way's can crowd the other's
	 * out, then the unchanged by weight.
	 */
	function keepChanges(list) {
		const grew = list.filter((e) => delta(e) > 0).sort((x, y) => delta(y) - delta(x));
		const fell = list.filter((e) => delta(e) < 0).sort((x, y) => delta(x) - delta(y));
		const out = [];

		for (let i = 0; i < grew.length || i < fell.length; i++) {
			for (const e of [grew[i], fell[i]]) {
				if (e && out.length < HOT_ROWS)
					out.push(e);
			}
		}
		return out.concat(list.filter((e) => !(delta(e) > 0 || delta(e) < 0))
			.sort((x, y) => y.t - x.t).slice(0, HOT_ROWS - out.length));
	}

	/* The sorted column's head: its arrow, and |delta| when by its size. */
	function hotHeads() {
		for (const th of $('hot').querySelectorAll('th[data-sort]')) {
			const on = th.dataset.sort === hotSort;

			th.classList.toggle('sorted', on);
			th.classList.toggle('up', on && hotDir > 0);
			th.dataset.dir = on ? (hotDir > 0 ? 'up' : 'down') : '';
			if (th.dataset.sort === 'delta')
				th.textContent = on && hotAbs ? '|\u0394| pts' : '\u0394 pts';
		}
	}

	function setupHot() {
		if (!insns.size) {
			/* No --asm: the graph takes the width. */
			$('side').style.display = 'none';
			return;
		}
		$('hot-weight').textContent = isTime ? 'time' : unit;
		if (isDiff) {
			/* The change of each instruction's share, largest growth first. */
			const th = $('hot').querySelector('th[data-sort="func"]');

			th.dataset.sort = 'delta';
			th.title = 'the change of its share of all, in points: sort by its size, ' +
				   'click again for the growths first, again for the decreases first';
			hotSort = 'delta';
			hotAbs = true;
		}
		for (const th of $('hot').querySelectorAll('th[data-sort]')) {
			th.addEventListener('click', function () {
				if (hotSort !== th.dataset.sort) {
					hotSort = th.dataset.sort;
					hotDir = -1;
					hotAbs = hotSort === 'delta';
				} else if (hotAbs) {
					hotAbs = false;
				} else if (hotDir < 0) {
					hotDir = 1;
				} else {
					hotDir = -1;
					hotAbs = hotSort === 'delta';
				}
				hotHeads();
				fillHot();
			});
		}
		hotHeads();
		$('hot-filter').addEventListener('input', function () {
			hotFilter = $('hot-filter').value;
			fillHot();
		});
		fillHot();
	}

	/* ---- The Assembly pane: a function's whole code, in context ---- */

	const FUNCTIONS = graphs[shown].functions || raw.functions || [];
	const SOURCES = graphs[shown].sources || raw.sources || [];
	/* What the pane shows: the frame, its function, this context or all. */
	const asm = { frame: null, F: undefined, fn: null, all: false, line: '', hot: [], at: -1 };

	/*
	 * Each function's instructions as objects, by offset from its start
	 * and by address; made when first shown.
	 */
	function asmFunction(i) {
		const f = FUNCTIONS[i];

		if (!f.rows) {
			const start = BigInt(f.a);

			f.rows = f.i.map((e) => {
				const src = e[2] >= 0 ? SOURCES[e[2]] : null;

				return { off: e[0], a: '0x' + (start + BigInt(e[0])).toString(16),
					 text: e[1], src: e[2], line: e[3],
					 sl: src ? src.f.slice(src.f.lastIndexOf('/') + 1) + ':' + e[3] :
					     e[4] || '',
					 self: 0, ss: 0, calls: 0, cs: 0 };
			});
			for (const [j, self, ss, calls, cs] of f.w)
				Object.assign(f.rows[j], { self, ss, calls, cs });
			f.byOff = new Map(f.rows.map((r, j) => [r.off, j]));
			f.at = new Map(f.rows.map((r, j) => [r.a, j]));
		}
		return f;
	}

	/* The row of the call that returns to off (from the start): the one before it. */
	function callRow(f, off) {
		const j = f.byOff.get(off);

		if (j !== undefined)
			return j - 1;
		const last = f.rows.length - 1;

		return last >= 0 && off > f.rows[last].off ? last : -1;
	}

	/* The frame's numbers per row: its leaves' self, its call sites'. */
	function asmNumbers(f, frame) {
		const self = new Map(), calls = new Map();

		if (asm.all || !frame) {
			f.rows.forEach((r, j) => {
				self.set(j, [r.self, r.ss]);
				calls.set(j, [r.calls, r.cs]);
			});
			return { self, calls };
		}
		for (const c of frame.c) {
			const j = c.kind === 4 ? f.at.get(c.a) : undefined;

			if (j !== undefined) {
				const o = self.get(j) || [0, 0];

				self.set(j, [o[0] + c.t, o[1] + c.ts]);
			}
		}
		for (const [off, w, ws] of frame.x || []) {
			const j = callRow(f, off);

			if (j >= 0) {
				const o = calls.get(j) || [0, 0];

				calls.set(j, [o[0] + w, o[1] + ws]);
			}
		}
		return { self, calls };
	}

	/* A cell of weight v (and share of all) or empty. */
	/*
	 * A cell of weight v = [weight, samples] and its share of the
	 * weight of, or empty for none; the exact numbers and the share of
	 * all in its title.
	 */
	function asmCell(tr, v, of, what) {
		const td = tr.insertCell();

		td.className = 'w';
		if (v && v[0]) {
			td.textContent = weight(v[0]) + ' ' + pct(v[0], of);
			td.title = (bySamples ? exact(v[0]) : exact(v[0]) + ', ' + count(v[1], 'samples')) +
				   ': ' + pct(v[0], of) + ' of ' + what + ', ' + pct(v[0], root.t) +
				   ' of all';
		}
		return td;
	}

	/*
	 * The weight of all frames of function F, a frame inside another of
	 * it (recursion) counted once, as the sandwich counts it.
	 */
	function functionTotal(F) {
		let t = 0;

		(function walk(n, inside) {
			const own = n.F === F && !inside;

			if (own)
				t += n.t;
			for (const c of n.c)
				walk(c, inside || n.F === F);
		})(root, false);
		return t;
	}

	/*
	 * A source line above its instructions, whole: it wraps rather than
	 * being cut, and its title has the file's path and the whole text.
	 */
	function asmSourceRow(body, f, r) {
		const src = SOURCES[r.src];
		const tr = body.appendChild(document.createElement('tr'));
		const td = tr.insertCell();
		const text = src && src.lines && src.lines[r.line - src.first];
		const line = (r.sl || '') + (text !== undefined ? ':  ' + text.trim() : '');

		tr.className = 'src';
		td.colSpan = 4;
		td.textContent = line;
		td.title = (src ? src.f + ':' + r.line : r.sl) +
			   (text !== undefined ? ':  ' + text.trim() : '') +
			   (src && src.why ? ' (not shown: ' + src.why + ')' : '');
	}

	/*
	 * The notes above the code: one line each, and the source files that
	 * could not be shown in one line per reason, their list on demand.
	 */
	function asmNotes(notes, whys) {
		const el = $('asm-note'), by = new Map();

		el.textContent = notes.join('\n');
		for (const [file, why] of whys) {
			if (!by.has(why))
				by.set(why, []);
			by.get(why).push(file);
		}
		for (const [why, files] of by) {
			if (files.length === 1) {
				el.appendChild(document.createTextNode('\nsource ' + files[0] + ': ' + why));
				continue;
			}
			const d = document.createElement('details');
			const sum = document.createElement('summary');

			sum.textContent = files.length + ' source files ' + why;
			d.appendChild(sum);
			d.appendChild(document.createTextNode(files.join('\n')));
			el.appendChild(d);
		}
	}

	/*
	 * The instruction text, cut to px as the hot table cuts it (the
	 * whole text in the title); a branch target in the function a link.
	 */
	function asmText(td, f, text, px) {
		const m = /(0x[0-9a-f]+) <[^>]*>/.exec(text);
		const shown = shortenInsn(text, px, tableWidth);
		const at = m && f.at.has(m[1]) ? shown.indexOf(m[1] + ' <') : -1;

		td.title = text;
		if (at < 0) {
			td.textContent = shown;
			return;
		}
		const end = shown.indexOf('>', at);
		const stop = end < 0 ? shown.length : end + 1;
		const link = document.createElement('a');

		td.appendChild(document.createTextNode(shown.slice(0, at)));
		link.textContent = shown.slice(at, stop);
		link.href = '#';
		link.title = 'go to ' + m[1];
		link.addEventListener('click', function (ev) {
			ev.preventDefault();
			ev.stopPropagation();
			asmGoto(m[1]);
		});
		td.appendChild(link);
		td.appendChild(document.createTextNode(shown.slice(stop)));
	}

	/* Mark the row of address a and scroll it into the pane. */
	function asmGoto(a) {
		const pane = $('asm-body');
		let at = null;

		asm.line = a;
		for (const tr of $('asm-rows').querySelectorAll('tr')) {
			tr.classList.toggle('sel', tr.dataset.a === a);
			if (tr.dataset.a === a)
				at = tr;
		}
		if (at)
			pane.scrollTop += at.getBoundingClientRect().top -
					  pane.getBoundingClientRect().top - pane.clientHeight / 3;
	}

	/* Rows per table of the pane: tables out of sight are not laid out. */
	const ASM_CHUNK = 200;

	/*
	 * A function that gives the table body for the next row of rows (a
	 * div of tables of ASM_CHUNK rows, each in a div whose
	 * content-visibility spares the layout of those out of sight).
	 */
	function asmChunks(rows) {
		let body = null, nr = 0;

		return function () {
			if (!body || nr === ASM_CHUNK) {
				const chunk = rows.appendChild(document.createElement('div'));
				const table = chunk.appendChild(document.createElement('table'));

				chunk.className = 'asm-chunk';
				chunk.style.containIntrinsicBlockSize = 'auto ' + ASM_CHUNK * 14 + 'px';
				table.appendChild($('asm-head').querySelector('colgroup').cloneNode(true));
				body = table.appendChild(document.createElement('tbody'));
				nr = 0;
			}
			nr++;
			return body;
		};
	}

	/*
	 * A click on an instruction's row: the leaf at it inside the selected
	 * frame (this context) or its heaviest stack, and the row marked.
	 */
	function asmClick(ev) {
		const tr = ev.target.closest('tr');
		const f = asm.fn;

		if (!tr || !tr.dataset.a || !f)
			return;
		const key = (asm.frame && asm.frame.key ? asm.frame.key : f.d + '\u0000' + f.n) +
			    '\u0000' + tr.dataset.a;

		if (insns.has(key))
			selectRow(key, asm.all ? null : asm.frame);
		asmGoto(tr.dataset.a);
	}

	/*
	 * The rows of the pane, built apart and shown once whole
	 * (appendChild, not insertRow(), whose index costs a count of the
	 * rows each time), one listener for them all, in tables of
	 * ASM_CHUNK rows of which only those in sight are laid out: a
	 * function of 12,000 instructions opens at once.
	 */
	function fillAsm() {
		const rows = document.createElement('div');
		const f = asm.fn, frame = asm.frame;
		const notes = [];

		rows.id = 'asm-rows';
		$('asm-ctx').classList.toggle('on', !asm.all);
		$('asm-all').classList.toggle('on', asm.all);
		$('asm-ctx').disabled = !frame || frame.x === undefined;
		$('asm-title').textContent = f ? f.n + ' (' + f.d + ')' : frame ? frame.n : '';
		$('asm-title').title = f ? f.n + ', ' + f.d + (f.b ? ', build-id ' + f.b : '') +
			', at ' + f.a : '';
		if (!f) {
			$('asm-note').textContent = frame.n + ': its code is not on this page, which carries the ' +
				FUNCTIONS.length + ' functions with the most self weight: perf flamegraph --asm' +
				' --annotate-functions=N carries more';
			asm.hot = [];
			$('asm-rows').replaceWith(rows);
			return;
		}
		if (f.why)
			notes.push('no code: ' + f.why);
		const { self, calls } = asmNumbers(f, frame);
		const max = Math.max(0, ...Array.from(self.values(), (v) => v[0]));
		const total = asm.all ? (f.total === undefined ? (f.total = functionTotal(asm.F)) :
					 f.total) : frame.t;
		let prev = null, selfSum = 0;

		for (const v of self.values())
			selfSum += v[0];
		notes.push((asm.all ? 'all contexts (perf annotate\'s numbers): ' :
			    'this context (the selected frame): ') +
			   'self ' + weight(selfSum) + ' of ' + weight(total) +
			   '; shares: self of the self, calls of the ' +
			   (asm.all ? 'function\'s frames' : 'frame'));
		const whys = new Map();
		const head = $('asm-head').tHead.rows[0].cells;
		const textPx = head[3].clientWidth - 8;
		const next = asmChunks(rows);

		f.rows.forEach((r, j) => {
			if (r.src >= 0 && (!prev || prev.src !== r.src || prev.line !== r.line)) {
				asmSourceRow(next(), f, r);
				if (SOURCES[r.src] && SOURCES[r.src].why)
					whys.set(SOURCES[r.src].f, SOURCES[r.src].why);
			} else if (r.src < 0 && r.sl && (!prev || prev.sl !== r.sl)) {
				asmSourceRow(next(), f, r);
			}
			prev = r;
			const tr = next().appendChild(document.createElement('tr'));
			const s = self.get(j), c = calls.get(j);

			tr.dataset.a = r.a;
			asmCell(tr, s, selfSum, 'the self');
			asmCell(tr, c, total, asm.all ? 'the function\'s frames' : 'the frame');
			tr.insertCell().textContent = r.a;
			asmText(tr.insertCell(), f, r.text, textPx);
			if (s && s[0] && max) {
				const v = Math.round(255 - 120 * s[0] / max);

				tr.style.background = 'rgb(255,' + v + ',' + v + ')';
			}
			tr.title = r.a + (r.sl ? ', ' + r.sl : '') + ': click for its heaviest stack' +
				   (asm.all || !frame ? '' : ' in this frame');
		});
		$('asm-rows').replaceWith(rows);
		asmNotes(notes, whys);
		asm.hot = Array.from(self.entries()).filter((e) => e[1][0] > 0)
			.sort((x, y) => y[1][0] - x[1][0]).map((e) => f.rows[e[0]].a);
		asm.at = -1;
		if (asm.line)
			asmGoto(asm.line);
	}

	/* Step to the next (dir 1) or previous hot line, heaviest first. */
	function stepHot(dir) {
		if (!asm.hot.length)
			return;
		asm.at = (asm.at + dir + asm.hot.length) % asm.hot.length;
		asmGoto(asm.hot[asm.at]);
	}

	/*
	 * The pane for the frame n (its function's; an instruction leaf's,
	 * on its line), if the page carries functions.
	 */
	function showAsm(n) {
		let line = '';

		if (!FUNCTIONS.length || !n)
			return;
		if (n.kind === 4 && n.p) {
			line = n.a;
			n = n.p;
		}
		if (n.kind !== 2)
			return;
		/* The merged views' frames stand for several: all contexts only. */
		const orig = n.of || n;
		const F = orig.F !== undefined ? orig.F : funcIndex.get(n.key);

		asm.frame = n.of ? null : n;
		asm.F = F;
		asm.fn = F !== undefined ? asmFunction(F) : null;
		if (!asm.frame)
			asm.all = true;
		asm.line = line;
		if (!asm.fn && !asm.frame)
			asm.frame = orig;
		$('asm').hidden = false;
		fillAsm();
	}

	const funcIndex = new Map();

	(function walk(n) {
		if (n.F !== undefined)
			funcIndex.set(n.key, n.F);
		for (const c of n.c)
			walk(c);
	})(root);

	$('asm-code').addEventListener('click', asmClick);
	$('asm-ctx').addEventListener('click', function () {
		asm.all = false;
		fillAsm();
	});
	$('asm-all').addEventListener('click', function () {
		asm.all = true;
		fillAsm();
	});
	$('asm-close').addEventListener('click', function () {
		$('asm').hidden = true;
		asm.frame = null;
		asm.fn = null;
	});

	/* ---- The header, the title and the URL fragment ---- */

	function fillInfo() {
		const el = $('hdr');
		const fields = [[isDiff ? 'after' : 'input', info.input], ['before', info.base],
				['host', info.host],
				['event', info.event], ['samples', String(root.ts)],
				['weight', bySamples ? 'samples' :
				 'period, ' + weight(root.t) + (isTime ? '' : ' ' + unit),
				 exact(root.t)],
				['cpu', info.cpu], ['recorded', info.date],
				['perf', info.version], ['command', info.cmdline],
				['view', info.view]];

		for (const f of fields) {
			if (!f[1])
				continue;
			const s = document.createElement('span');

			s.textContent = f[0] + ': ' + f[1];
			if (f[2])
				s.title = f[2];
			el.appendChild(s);
		}
		document.title = [isDiff ? info.base + ' -> ' + info.input : info.input,
				  info.event].filter((x) => x).join(', ') + ' - perf flamegraph';
		if (isDiff)
			setupDiff();
		if (graphs.length > 1) {
			const sel = document.createElement('select');

			sel.id = 'event';
			sel.title = 'the event whose graph is shown';
			graphs.forEach(function (g, i) {
				const o = document.createElement('option');

				o.value = String(i);
				o.textContent = g.info.event || 'event ' + i;
				o.selected = i === shown;
				sel.appendChild(o);
			});
			/* A link, back and forward reopen the page on its event. */
			sel.addEventListener('change', function () {
				const p = new URLSearchParams();

				p.set('event', sel.value);
				if (view !== 'flame' && view !== 'sandwich')
					p.set('view', view);
				if (q.value)
					p.set('q', q.value);
				location.hash = p.toString();
			});
			$('bar').insertBefore(sel, $('bar').firstChild);
		}
		window.addEventListener('hashchange', function () {
			if (fragmentEvent() !== shown)
				location.reload();
			else
				loadState();
		});
		if (info.header)
			$('header').querySelector('pre').textContent = info.header;
		else
			$('header').style.display = 'none';
	}

	/* The shape switch and the colour scale of a --diff page. */
	function setupDiff() {
		const b = document.createElement('button');
		const legend = document.createElement('span');

		b.id = 'shape';
		b.textContent = 'Shape: after';
		b.title = "draw the frames as wide as their weight before, or after";
		b.addEventListener('click', function () {
			(function swap(n) {
				[n.t, n.ot] = [n.ot, n.t];
				[n.ts, n.ots] = [n.ots, n.ts];
				[n.self, n.os] = [n.os, n.self];
				[n.ss, n.oss] = [n.oss, n.ss];
				for (const c of n.c)
					swap(c);
			})(root);
			oldShape = !oldShape;
			b.textContent = oldShape ? 'Shape: before' : 'Shape: after';
			funcs.clear();
			insns.clear();
			index(root);
			merged = null;
			inverted = null;
			setView(view === 'sandwich' ? 'flame' : view);
			if (insns.size)
				fillHot();
		});
		$('bar').insertBefore(b, $('match'));
		/* Red grew, blue shrank, the strongest at the largest change. */
		legend.id = 'diff-legend';
		legend.className = 'legend';
		for (const [colour, what] of [['rgb(245,55,55)', 'grew'], ['rgb(55,55,245)', 'shrank']]) {
			const swatch = document.createElement('span');

			swatch.style.background = colour;
			legend.appendChild(swatch);
			legend.appendChild(document.createTextNode(what));
		}
		legend.appendChild(document.createTextNode(' (strongest: \u00b1' + maxDelta.toFixed(2) +
							    ' points of all)'));
		$('bar2').insertBefore(legend, $('help'));
	}

	/* Child indices from r down to n, or null if n is not under r. */
	function pathOf(n, r) {
		const p = [];

		for (; n && n !== r; n = n.p)
			p.unshift(n.p ? n.p.c.indexOf(n) : -1);
		return n === r ? p.join('.') : null;
	}

	function nodeAt(path, r) {
		let n = r;

		for (const i of (path || '').split('.').filter((x) => x !== '')) {
			const c = n.c[parseInt(i, 10)];

			if (!c)
				break;
			n = c;
		}
		return n;
	}

	let saving = 0;

	/*
	 * Soon after the last change: Chromium refuses history updates that
	 * come faster than a few a second (a drag, typing a search).
	 */
	function saveState() {
		clearTimeout(saving);
		saving = setTimeout(writeState, 150);
	}

	function writeState() {
		const p = new URLSearchParams();

		if (shown)
			p.set('event', String(shown));
		if (view !== 'flame')
			p.set('view', view);
		if (view === 'sandwich')
			p.set('fn', pathOf(sandwich.fn, root));
		else if (focus !== top)
			p.set('zoom', pathOf(focus, top));
		if (lo > 0 || hi < 1)
			p.set('x', lo + ',' + hi);
		if (q.value)
			p.set('q', q.value);
		const h = p.toString();

		if (h !== location.hash.slice(1))
			history.replaceState(null, '', h ? '#' + h :
					     location.pathname + location.search);
	}

	function loadState() {
		const p = fragment();
		const v = p.get('view');
		const fn = nodeAt(p.get('fn'), root);
		let sw = null;

		q.value = p.get('q') || '';
		if (v === 'sandwich') {
			matchSearch();
			sw = fn && isFunc(fn) ? fn : sandwichTarget();
		}
		if (sw) {
			applyView(v, sw);
		} else {
			applyView(VIEWS.includes(v) && v !== 'sandwich' ? v : 'flame');
			const z = nodeAt(p.get('zoom'), top);

			if (z) {
				focus = z;
				cursor = z;
			}
			const x = (p.get('x') || '').split(',').map(Number);

			if (x.length === 2 && x[0] >= 0 && x[1] <= 1 && x[0] < x[1]) {
				lo = x[0];
				hi = x[1];
			}
		}
		matchSearch();
		draw(0);
		if (view === 'sandwich')
			showFn();
	}

	window.addEventListener('resize', function () {
		const d = fromRoot();

		fitPanel();
		if (insns.size)
			fillHot();
		draw(d);
	});
	$('header').addEventListener('toggle', function () {
		fitPanel();
		draw();
	});
	fillInfo();
	fitPanel();
	setupHot();
	loadState();
	timings.open = performance.now() - t0;

	/* The frame drawn for label, in canvas pixels at the current scroll. */
	function rectOf(f) {
		const x = Math.max(f.x, 0);

		return { x: x, y: f.y - graph.scrollTop,
			 w: Math.min(f.x + f.w, graph.clientWidth) - x, h: H };
	}

	/* The widest frame drawn of label, the first of equals: the heaviest in sight. */
	function widest(label) {
		let best = null;

		for (const r of frames) {
			if (r.n.n === label && (!best || r.w > best.w))
				best = r;
		}
		return best;
	}

	window.perfFlamegraph = {
		nodes: nrNodes,
		timings: timings,
		rect: function (label) {
			const f = widest(label);

			return f ? rectOf(f) : null;
		},
		labels: () => frames.map((r) => r.n.n),
		event: () => info.event,
		events: () => graphs.map((g) => g.info.event),
		focus: () => (view === 'sandwich' ? sandwich.fn.n : focus.n),
		asm: () => ({ fn: asm.fn ? asm.fn.n : null, all: asm.all, line: asm.line,
			      frame: asm.frame ? asm.frame.n : null }),
		/* The Assembly pane of label's widest frame: ms to fill and lay it out. */
		asmOpen: function (label) {
			const f = widest(label);
			const t = performance.now();

			if (!f)
				return -1;
			showAsm(f.n);
			void $('asm-body').scrollHeight;
			return performance.now() - t;
		},
		/* The pane switched to all contexts (all) or this one: ms, as asmOpen. */
		asmContext: function (all) {
			const t = performance.now();

			(all ? $('asm-all') : $('asm-ctx')).click();
			void $('asm-body').scrollHeight;
			return performance.now() - t;
		},
		cursor: function () {
			const f = frames.find((r) => r.n === cursor);

			return f ? Object.assign({ label: cursor.n }, rectOf(f)) : null;
		},
		highlighted: () => frames.filter((r) => hit(r.n)).length,
		view: () => view,
		rows: () => rows,
		shorten: (s, px) => shorten(s, px, labelWidth),
		search: function (text) {
			q.value = text;
			return search();
		},
		zoom: function (label) {
			const f = widest(label);

			return f ? zoomTo(f.n) : -1;
		},
	};
}());
