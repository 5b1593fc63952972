// SPDX-License-Identifier: GPL-2.0
/*
 * The viewer of perf flamegraph's HTML output, embedded in every page.
 *
 * The page holds the flame graph as JSON, in the script element "fg-data":
 *   {"v": 1, "strings": [...], "info": {...}, "root": NODE}
 * or, for several events, "graphs" instead of "root": [{"info": {...},
 * "root": NODE}, ...], each graph's info with its event, unit and view,
 * the one shown chosen by the URL fragment "#event=N" (default 0).
 * NODE = [label, flags, dso, self, addr, srcline, [NODE...], samples],
 * where label, dso and srcline index "strings" (-1: none), flags is the
 * kind (0 root, 1 comm, 2 func, 3 unknown, 4 insn, 5 truncated) | 8 kernel | 16 JIT,
 * self the weight of the samples that ended at the node (info.weight:
 * their periods, in info.unit, or their number), addr the objdump
 * address ("" if none) and samples the number of those samples.
 *
 * Names are data: they reach the page only through textContent and
 * canvas fillText, never as markup.
 *
 * window.perfFlamegraph is the interface the browser tests drive.
 */
(function () {
	'use strict';

	const t0 = performance.now();
	const KIND = ['root', 'comm', 'func', 'unknown', 'insn', 'truncated'];
	const F_KERNEL = 8, F_JIT = 16;
	const H = 16;

	const $ = (id) => document.getElementById(id);
	const cv = $('fg'), cx = cv.getContext('2d');
	const tip = $('tip'), q = $('q');
	const raw = JSON.parse($('fg-data').textContent);
	const S = raw.strings;
	const graphs = raw.graphs ||
		[{ info: {}, root: raw.root }];
	const fragmentEvent = () => Math.min(graphs.length - 1, Math.max(0,
		parseInt((/event=(\d+)/.exec(location.hash) || [])[1] || '0', 10)));
	const shown = fragmentEvent();
	const info = Object.assign({}, raw.info || {}, graphs[shown].info);
	/* What a frame's width sums, as the numbers are labelled. */
	const bySamples = info.weight === 'samples';
	const unit = bySamples ? 'samples' : (info.unit || 'period');

	let nrNodes = 0;

	/* Array nodes to objects, with parent, depth and totals. */
	function build(a, parent, depth) {
		const n = {
			n: a[0] >= 0 ? S[a[0]] : '',
			kind: a[1] & 7,
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
			ts: a[7],
			key: '',
		};
		const kids = a[6];

		nrNodes++;
		for (let i = 0; i < kids.length; i++) {
			const c = build(kids[i], n, depth + 1);

			n.c.push(c);
			n.t += c.t;
			n.ts += c.ts;
		}
		return n;
	}

	const root = build(graphs[shown].root, null, 0);

	/*
	 * Functions are told apart by DSO and label (the label carries the
	 * start address when a name is shared), instructions by their
	 * function and address: the key that merges them across callers.
	 */
	const funcs = new Map(), insns = new Map();

	function index(n) {
		if (n.kind === 2 || n.kind === 3)
			n.key = n.d + '\u0000' + n.n;
		if (n.kind === 4) {
			const f = n.p && n.p.key ? n.p.key : n.d;

			n.key = f + '\u0000' + n.a;
			let e = insns.get(n.key);
			if (!e) {
				e = { key: n.key, text: n.n, a: n.a, d: n.d, sl: n.sl,
				      func: n.p ? n.p.n : '', fkey: f, t: 0,
				      kernel: n.kernel, jit: n.jit };
				insns.set(n.key, e);
			}
			e.t += n.t;
			funcs.set(f, (funcs.get(f) || 0) + n.t);
		}
		for (const c of n.c)
			index(c);
	}
	index(root);

	/* perf annotate's percent: the instruction's share of its function. */
	function insnShare(key) {
		const e = insns.get(key);
		const ft = e ? funcs.get(e.fkey) : 0;

		return ft ? e.t / ft : 0;
	}

	/* The bottom-up view: functions merged across callers, then their
	 * instructions in address order. */
	let merged = null;

	function buildMerged() {
		const m = { n: 'all', kind: 0, kernel: false, jit: false, d: '',
			    self: 0, a: '', sl: '', p: null, depth: 0, c: [],
			    t: root.t, key: '' };
		const byFunc = new Map();

		(function walk(n) {
			const own = n.kind === 2 || n.kind === 3;
			let leaf = n.self;

			for (const c of n.c) {
				if (c.kind === 4 && own)
					leaf += c.t;
				else
					walk(c);
			}
			if (!own || !leaf)
				return;
			let f = byFunc.get(n.key);
			if (!f) {
				f = { n: n.n, kind: n.kind, kernel: n.kernel,
				      jit: n.jit, d: n.d, self: 0, a: '', sl: '',
				      p: m, depth: 1, c: [], t: 0, key: n.key,
				      ins: new Map() };
				byFunc.set(n.key, f);
				m.c.push(f);
			}
			f.t += leaf;
			f.self += n.self;
			for (const c of n.c) {
				if (c.kind !== 4)
					continue;
				let i = f.ins.get(c.key);
				if (!i) {
					i = { n: c.n, kind: 4, kernel: c.kernel,
					      jit: c.jit, d: c.d, self: 0, a: c.a,
					      sl: c.sl, p: f, depth: 2, c: [],
					      t: 0, key: c.key };
					f.ins.set(c.key, i);
					f.c.push(i);
				}
				i.t += c.t;
				i.self += c.t;
			}
		})(root);
		m.c.sort((x, y) => y.t - x.t);
		for (const f of m.c)
			f.c.sort((x, y) => parseInt(x.a, 16) - parseInt(y.a, 16));
		return m;
	}

	let view = 'flame', top = root, focus = root, cursor = root;
	let re = null, selected = null, rects = [], maxDepth = 0;
	let marked = null;	/* nodes on a path to the selected insn */
	let drawn = false;
	const timings = { open: 0, draw: 0, search: 0, zoom: 0 };

	function hash(s) {
		let h = 0;

		for (let i = 0; i < s.length && i < 24; i++)
			h = (h * 31 + s.charCodeAt(i)) >>> 0;
		return h;
	}

	function hit(n) {
		return (re && re.test(n.n)) || (marked && marked.has(n));
	}

	function color(n) {
		const v = hash(n.n) % 40;

		if (hit(n))
			return 'rgb(230,0,230)';
		if (n.kind === 0 || n.kind === 1)
			return 'rgb(205,205,205)';
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

	/* The deepest frame wide enough to be drawn: no empty rows. */
	function visibleDepth(n, w) {
		const s = n.t ? w / n.t : 0;
		let d = n.depth;

		for (const c of n.c) {
			if (c.t * s >= 0.5)
				d = Math.max(d, visibleDepth(c, c.t * s));
		}
		return d;
	}

	function draw() {
		const t = performance.now();
		const w = cv.clientWidth;
		const dpr = window.devicePixelRatio || 1;
		const graph = $('graph');
		const atBottom = graph.scrollTop + graph.clientHeight >= graph.scrollHeight - 2;

		maxDepth = visibleDepth(focus, w);
		const rows = maxDepth + 1;

		cv.width = w * dpr;
		cv.height = rows * H * dpr;
		cv.style.height = (rows * H) + 'px';
		cx.setTransform(dpr, 0, 0, dpr, 0, 0);
		cx.font = '11px sans-serif';
		cx.textBaseline = 'middle';
		rects = [];
		for (let a = focus.p; a; a = a.p)
			box(a, 0, w, a.depth);
		walk(focus, 0, w);
		crumbs();
		/* A flame graph grows upwards: keep its root in sight. */
		if (view === 'flame' && (atBottom || !drawn))
			graph.scrollTop = graph.scrollHeight;
		drawn = true;
		timings.draw = performance.now() - t;
	}

	function yOf(depth) {
		return view === 'flame' ? (maxDepth - depth) * H : depth * H;
	}

	function box(n, x, w, depth) {
		const y = yOf(depth);
		let label = n.n;

		cx.fillStyle = color(n);
		cx.fillRect(x, y, Math.max(w - 1, 0.5), H - 1);
		rects.push({ n: n, x: x, y: y, w: w });
		if (n === cursor) {
			cx.strokeStyle = '#000';
			cx.lineWidth = 2;
			cx.strokeRect(x + 1, y + 1, Math.max(w - 3, 1), H - 3);
		}
		if (w < 20)
			return;
		const m = Math.floor((w - 6) / 6);
		if (label.length > m)
			label = label.slice(0, Math.max(m - 2, 0)) + '..';
		cx.fillStyle = '#000';
		cx.fillText(label, x + 3, y + H / 2);
	}

	function walk(n, x, w) {
		const s = n.t ? w / n.t : 0;

		box(n, x, w, n.depth);
		for (const c of n.c) {
			const cw = c.t * s;

			if (cw >= 0.5)
				walk(c, x, cw);
			x += cw;
		}
	}

	function crumbs() {
		const el = $('crumbs');
		const path = [];

		for (let a = focus; a; a = a.p)
			path.unshift(a);
		el.textContent = '';
		path.forEach(function (a, i) {
			const link = document.createElement('a');

			if (i)
				el.appendChild(document.createTextNode(' > '));
			link.href = '#';
			link.textContent = a.n;
			link.addEventListener('click', function (ev) {
				ev.preventDefault();
				zoomTo(a);
			});
			el.appendChild(link);
		});
	}

	function at(ev) {
		const r = cv.getBoundingClientRect();
		const x = ev.clientX - r.left, y = ev.clientY - r.top;

		for (let i = rects.length - 1; i >= 0; i--) {
			const b = rects[i];

			if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + H)
				return b.n;
		}
		return null;
	}

	function pct(a, b) {
		return b ? (100 * a / b).toFixed(2) + '%' : '-';
	}

	function zoomTo(n) {
		const t = performance.now();

		focus = n;
		cursor = n;
		draw();
		timings.zoom = performance.now() - t;
		return timings.zoom;
	}

	function details(n) {
		const kind = KIND[n.kind] + (n.kernel ? ', kernel' : '') +
			     (n.jit ? ', JIT' : '');
		let s = n.n + '\nkind: ' + kind;

		if (n.d)
			s += '\ndso: ' + n.d;
		if (n.a)
			s += '\naddress: ' + n.a;
		if (n.sl)
			s += '\nsource: ' + n.sl;
		s += '\n' + (bySamples ? 'samples' : 'period') + ': ' + n.t +
		     (bySamples ? '' : ' ' + unit) + ' (' + pct(n.t, top.t) +
		     ' of all, ' + pct(n.t, n.p ? n.p.t : n.t) + ' of parent)';
		if (!bySamples && n.ts !== undefined)
			s += '\nsamples: ' + n.ts;
		if (n.kind === 4)
			s += '\nshare of its function: ' +
			     (100 * insnShare(n.key)).toFixed(2) +
			     '% (as perf annotate)';
		return s;
	}

	cv.addEventListener('click', function (ev) {
		const n = at(ev);

		if (n)
			zoomTo(n);
	});
	cv.addEventListener('mousemove', function (ev) {
		const n = at(ev);

		if (!n) {
			tip.style.display = 'none';
			return;
		}
		tip.textContent = details(n);
		tip.style.display = 'block';
		tip.style.left = Math.min(ev.clientX + 12,
					  window.innerWidth - tip.offsetWidth - 4) + 'px';
		tip.style.top = (ev.clientY + 12) + 'px';
	});
	cv.addEventListener('mouseleave', function () {
		tip.style.display = 'none';
	});

	/* Samples under frames that match, each sample counted once. */
	function matched(n) {
		let s = 0;

		if (re.test(n.n))
			return n.t;
		for (const c of n.c)
			s += matched(c);
		return s;
	}

	function search() {
		const t = performance.now();
		const text = q.value, m = /^\/(.*)\/$/.exec(text);

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
			const s = matched(top);

			$('match').textContent = 'matched: ' + pct(s, top.t) +
				' (' + s + ' of ' + top.t + ' ' + unit + ')';
		} else {
			$('match').textContent = text ? 'invalid regular expression' : '';
		}
		draw();
		timings.search = performance.now() - t;
		return timings.search;
	}
	q.addEventListener('input', search);

	function setView(v) {
		view = v;
		if (v === 'merged') {
			if (!merged)
				merged = buildMerged();
			top = merged;
		} else {
			top = root;
		}
		focus = top;
		cursor = top;
		drawn = false;
		for (const b of ['flame', 'icicle', 'merged'])
			$('view-' + b).classList.toggle('on', b === v);
		mark();
		if (re)
			search();
		else
			draw();
	}
	$('view-flame').addEventListener('click', () => setView('flame'));
	$('view-icicle').addEventListener('click', () => setView('icicle'));
	$('view-merged').addEventListener('click', () => setView('merged'));

	$('reset').addEventListener('click', function () {
		q.value = '';
		selectRow(null);
		focus = top;
		cursor = top;
		search();
	});

	/* Keyboard: arrows walk the frames, Enter zooms, Escape resets. */

	function move(ev) {
		let n = null;

		if (ev.target === q)
			return;
		const up = view === 'flame' ? 'ArrowDown' : 'ArrowUp';
		const down = view === 'flame' ? 'ArrowUp' : 'ArrowDown';

		switch (ev.key) {
		case up:
			n = cursor.p;
			break;
		case down:
			n = cursor.c.length ? cursor.c.reduce((a, b) => (b.t > a.t ? b : a)) : null;
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
			focus = top;
			cursor = top;
			draw();
			return;
		case '/':
			q.focus();
			ev.preventDefault();
			return;
		default:
			return;
		}
		ev.preventDefault();
		if (!n)
			return;
		cursor = n;
		/* Keep the cursor inside the zoomed frame. */
		let a = n;
		while (a && a !== focus)
			a = a.p;
		if (!a)
			focus = n.p || n;
		draw();
		tip.textContent = details(n);
		tip.style.display = 'block';
		const r = rects.find((b) => b.n === n), cr = cv.getBoundingClientRect();
		if (r) {
			tip.style.left = (cr.left + r.x + 4) + 'px';
			tip.style.top = (cr.top + r.y + H + 4) + 'px';
		}
	}
	document.addEventListener('keydown', move);

	/* The hot instructions table. */
	function mark() {
		marked = null;
		if (!selected)
			return;
		marked = new Set();
		(function walkMark(n) {
			let on = n.kind === 4 && n.key === selected;

			for (const c of n.c) {
				if (walkMark(c))
					on = true;
			}
			if (on)
				marked.add(n);
			return on;
		})(top);
	}

	function selectRow(tr) {
		const body = $('hot').tBodies[0];

		for (const r of body.rows)
			r.classList.toggle('sel', r === tr);
		selected = tr ? tr.dataset.key : null;
		mark();
		draw();
	}

	function fillHot() {
		const body = $('hot').tBodies[0];

		$('hot-weight').textContent = unit;
		const list = Array.from(insns.values()).sort((x, y) => y.t - x.t);

		if (!list.length) {
			$('hot-empty').style.display = 'block';
			return;
		}
		for (const e of list.slice(0, 100)) {
			const tr = body.insertRow();
			const cells = [String(e.t), pct(e.t, root.t),
				       (100 * insnShare(e.key)).toFixed(2) + '%',
				       e.func, e.text, e.sl, e.d];

			for (const c of cells)
				tr.insertCell().textContent = c;
			tr.dataset.key = e.key;
			tr.addEventListener('click', function () {
				selectRow(tr.classList.contains('sel') ? null : tr);
			});
		}
	}

	function fillInfo() {
		const el = $('hdr');
		const fields = [['input', info.input], ['host', info.host],
				['event', info.event], ['samples', String(root.ts)],
				['weight', bySamples ? 'samples' :
				 'period, ' + root.t + ' ' + unit],
				['cpu', info.cpu], ['recorded', info.date],
				['perf', info.version], ['command', info.cmdline],
				['view', info.view]];

		for (const f of fields) {
			if (!f[1])
				continue;
			const s = document.createElement('span');

			s.textContent = f[0] + ': ' + f[1];
			el.appendChild(s);
		}
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
				location.hash = 'event=' + sel.value;
			});
			window.addEventListener('hashchange', function () {
				if (fragmentEvent() !== shown)
					location.reload();
			});
			$('bar').insertBefore(sel, $('bar').firstChild);
		}
		if (info.header)
			$('header').querySelector('pre').textContent = info.header;
		else
			$('header').style.display = 'none';
	}

	window.addEventListener('resize', draw);
	fillInfo();
	fillHot();
	draw();
	timings.open = performance.now() - t0;

	window.perfFlamegraph = {
		nodes: nrNodes,
		timings: timings,
		rect: function (label) {
			const b = rects.find((r) => r.n.n === label);

			return b ? { x: b.x, y: b.y, w: b.w, h: H } : null;
		},
		labels: () => rects.map((r) => r.n.n),
		event: () => info.event,
		events: () => graphs.map((g) => g.info.event),
		focus: () => focus.n,
		highlighted: () => rects.filter((r) => hit(r.n)).length,
		view: () => view,
		search: function (text) {
			q.value = text;
			return search();
		},
		zoom: function (label) {
			const b = rects.find((r) => r.n.n === label);

			return b ? zoomTo(b.n) : -1;
		},
	};
}());
