// SPDX-License-Identifier: GPL-2.0
/*
 * HTML output of perf flamegraph: one self-contained page, its CSS and
 * JavaScript embedded, the tree embedded as JSON, no network request.
 *
 * The viewer draws on a canvas: click a frame to zoom into it, Reset or
 * Escape to zoom out, hover for details, type in the search box (a
 * substring, or /regex/) to highlight frames and see their share.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "flamegraph.h"

static const char flamegraph_html_css[] =
	"body { font: 12px sans-serif; margin: 8px; color: #222; }\n"
	"h1 { font-size: 16px; margin: 0 0 4px 0; }\n"
	"#hdr { color: #555; margin-bottom: 6px; }\n"
	"#bar { margin-bottom: 6px; }\n"
	"#bar input { width: 24em; }\n"
	"#match { margin-left: 8px; color: #555; }\n"
	"#fg { display: block; width: 100%; cursor: pointer; }\n"
	"#tip { position: fixed; display: none; background: #ffe; border: 1px solid #999;\n"
	"\tpadding: 4px; pointer-events: none; white-space: pre; font-family: monospace; }\n"
	"#crumbs { color: #555; margin: 4px 0; font-family: monospace; }\n"
	".legend span { display: inline-block; width: 10px; height: 10px;\n"
	"\tmargin: 0 3px 0 10px; }\n";

static const char flamegraph_html_js[] =
	"(function () {\n"
	"\t'use strict';\n"
	"\tvar data = JSON.parse(document.getElementById('fg-data').textContent);\n"
	"\tvar cv = document.getElementById('fg'), cx = cv.getContext('2d');\n"
	"\tvar tip = document.getElementById('tip'), q = document.getElementById('q');\n"
	"\tvar H = 16, maxDepth = 0, focus, rects = [], re = null;\n"
	"\tfunction prep(n, p, d) {\n"
	"\t\tvar t = n.v || 0, i;\n"
	"\t\tn.p = p; n.depth = d;\n"
	"\t\tif (d > maxDepth)\n"
	"\t\t\tmaxDepth = d;\n"
	"\t\tfor (i = 0; i < n.c.length; i++)\n"
	"\t\t\tt += prep(n.c[i], n, d + 1);\n"
	"\t\tn.t = t;\n"
	"\t\treturn t;\n"
	"\t}\n"
	"\tprep(data, null, 0);\n"
	"\tfocus = data;\n"
	"\tfunction hash(s) {\n"
	"\t\tvar h = 0, i;\n"
	"\t\tfor (i = 0; i < s.length && i < 24; i++)\n"
	"\t\t\th = (h * 31 + s.charCodeAt(i)) >>> 0;\n"
	"\t\treturn h;\n"
	"\t}\n"
	"\tfunction color(n) {\n"
	"\t\tvar v = hash(n.n) % 40;\n"
	"\t\tif (re && re.test(n.n))\n"
	"\t\t\treturn 'rgb(230,0,230)';\n"
	"\t\tif (n.k === 'insn')\n"
	"\t\t\treturn 'rgb(' + (80 + v) + ',' + (150 + v) + ',230)';\n"
	"\t\tif (n.k === 'root' || n.k === 'comm')\n"
	"\t\t\treturn 'rgb(200,200,200)';\n"
	"\t\tif (n.k === 'unknown')\n"
	"\t\t\treturn 'rgb(170,170,170)';\n"
	"\t\tif (n.l === 'kernel')\n"
	"\t\t\treturn 'rgb(' + (80 + v) + ',185,' + (80 + v) + ')';\n"
	"\t\treturn 'rgb(240,' + (70 + v * 2) + ',50)';\n"
	"\t}\n"
	"\tfunction draw() {\n"
	"\t\tvar w = cv.clientWidth, rows = maxDepth + 1, a;\n"
	"\t\tvar dpr = window.devicePixelRatio || 1;\n"
	"\t\tcv.width = w * dpr;\n"
	"\t\tcv.height = rows * H * dpr;\n"
	"\t\tcv.style.height = (rows * H) + 'px';\n"
	"\t\tcx.setTransform(dpr, 0, 0, dpr, 0, 0);\n"
	"\t\tcx.font = '11px sans-serif';\n"
	"\t\tcx.textBaseline = 'middle';\n"
	"\t\trects = [];\n"
	"\t\tfor (a = focus.p; a; a = a.p)\n"
	"\t\t\tbox(a, 0, w);\n"
	"\t\twalk(focus, 0, w);\n"
	"\t\tcrumbs();\n"
	"\t}\n"
	"\tfunction box(n, x, w) {\n"
	"\t\tvar y = (maxDepth - n.depth) * H, label = n.n, m;\n"
	"\t\tcx.fillStyle = color(n);\n"
	"\t\tcx.fillRect(x, y, w - 1, H - 1);\n"
	"\t\trects.push({ n: n, x: x, y: y, w: w });\n"
	"\t\tif (w < 20)\n"
	"\t\t\treturn;\n"
	"\t\tm = Math.floor((w - 6) / 6);\n"
	"\t\tif (label.length > m)\n"
	"\t\t\tlabel = label.slice(0, Math.max(m - 2, 0)) + '..';\n"
	"\t\tcx.fillStyle = '#000';\n"
	"\t\tcx.fillText(label, x + 3, y + H / 2);\n"
	"\t}\n"
	"\tfunction walk(n, x, w) {\n"
	"\t\tvar i, c, cw, s = w / n.t;\n"
	"\t\tbox(n, x, w);\n"
	"\t\tfor (i = 0; i < n.c.length; i++) {\n"
	"\t\t\tc = n.c[i];\n"
	"\t\t\tcw = c.t * s;\n"
	"\t\t\tif (cw >= 0.5)\n"
	"\t\t\t\twalk(c, x, cw);\n"
	"\t\t\tx += cw;\n"
	"\t\t}\n"
	"\t}\n"
	"\tfunction crumbs() {\n"
	"\t\tvar p = [], a;\n"
	"\t\tfor (a = focus; a; a = a.p)\n"
	"\t\t\tp.unshift(a.n);\n"
	"\t\tdocument.getElementById('crumbs').textContent = p.join(' > ');\n"
	"\t}\n"
	"\tfunction at(ev) {\n"
	"\t\tvar r = cv.getBoundingClientRect(), x = ev.clientX - r.left,\n"
	"\t\t\ty = ev.clientY - r.top, i, b;\n"
	"\t\tfor (i = rects.length - 1; i >= 0; i--) {\n"
	"\t\t\tb = rects[i];\n"
	"\t\t\tif (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + H)\n"
	"\t\t\t\treturn b.n;\n"
	"\t\t}\n"
	"\t\treturn null;\n"
	"\t}\n"
	"\tfunction pct(a, b) {\n"
	"\t\treturn b ? (100 * a / b).toFixed(2) + '%' : '-';\n"
	"\t}\n"
	"\tcv.addEventListener('click', function (ev) {\n"
	"\t\tvar n = at(ev);\n"
	"\t\tif (n) {\n"
	"\t\t\tfocus = n;\n"
	"\t\t\tdraw();\n"
	"\t\t}\n"
	"\t});\n"
	"\tcv.addEventListener('mousemove', function (ev) {\n"
	"\t\tvar n = at(ev), s;\n"
	"\t\tif (!n) {\n"
	"\t\t\ttip.style.display = 'none';\n"
	"\t\t\treturn;\n"
	"\t\t}\n"
	"\t\ts = n.n + '\\nkind: ' + n.k + (n.l ? ' (kernel)' : '') +\n"
	"\t\t\t(n.d ? '\\ndso: ' + n.d : '') +\n"
	"\t\t\t(n.a ? '\\naddress: ' + n.a : '') +\n"
	"\t\t\t'\\nsamples: ' + n.t + ' (' + pct(n.t, data.t) + ' of all, ' +\n"
	"\t\t\tpct(n.t, n.p ? n.p.t : n.t) + ' of parent)';\n"
	"\t\ttip.textContent = s;\n"
	"\t\ttip.style.display = 'block';\n"
	"\t\ttip.style.left = (ev.clientX + 12) + 'px';\n"
	"\t\ttip.style.top = (ev.clientY + 12) + 'px';\n"
	"\t});\n"
	"\tcv.addEventListener('mouseleave', function () {\n"
	"\t\ttip.style.display = 'none';\n"
	"\t});\n"
	"\tdocument.getElementById('reset').addEventListener('click', function () {\n"
	"\t\tfocus = data;\n"
	"\t\tq.value = '';\n"
	"\t\tsearch();\n"
	"\t});\n"
	"\tfunction matched(n) {\n"
	"\t\tvar s = 0, i;\n"
	"\t\tif (re.test(n.n))\n"
	"\t\t\treturn n.t;\n"
	"\t\tfor (i = 0; i < n.c.length; i++)\n"
	"\t\t\ts += matched(n.c[i]);\n"
	"\t\treturn s;\n"
	"\t}\n"
	"\tfunction search() {\n"
	"\t\tvar t = q.value, m = /^\\/(.*)\\/$/.exec(t);\n"
	"\t\tre = null;\n"
	"\t\tif (t) {\n"
	"\t\t\ttry {\n"
	"\t\t\t\tre = m ? new RegExp(m[1]) :\n"
	"\t\t\t\t\tnew RegExp(t.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&'), 'i');\n"
	"\t\t\t} catch (e) {\n"
	"\t\t\t\tre = null;\n"
	"\t\t\t}\n"
	"\t\t}\n"
	"\t\tdocument.getElementById('match').textContent = re ?\n"
	"\t\t\t'matched: ' + pct(matched(data), data.t) : '';\n"
	"\t\tdraw();\n"
	"\t}\n"
	"\tq.addEventListener('input', search);\n"
	"\tdocument.addEventListener('keydown', function (ev) {\n"
	"\t\tif (ev.key === 'Escape') {\n"
	"\t\t\tfocus = data;\n"
	"\t\t\tdraw();\n"
	"\t\t}\n"
	"\t});\n"
	"\twindow.addEventListener('resize', draw);\n"
	"\tdraw();\n"
	"}());\n";

static const char flamegraph_html_body[] =
	"<div id=\"bar\">\n"
	"<input id=\"q\" type=\"search\" placeholder=\"search: substring or /regex/\">\n"
	"<button id=\"reset\">Reset zoom</button><span id=\"match\"></span>\n"
	"<span class=\"legend\">\n"
	"<span style=\"background:rgb(240,110,50)\"></span>user\n"
	"<span style=\"background:rgb(100,185,100)\"></span>kernel\n"
	"<span style=\"background:rgb(100,170,230)\"></span>instruction\n"
	"<span style=\"background:rgb(170,170,170)\"></span>unknown\n"
	"</span></div>\n"
	"<div id=\"crumbs\"></div>\n"
	"<canvas id=\"fg\"></canvas>\n"
	"<div id=\"tip\"></div>\n";

/* Text in HTML element content or attribute values: never markup. */
static void html__put_text(FILE *fp, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", fp);
			break;
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '"':
			fputs("&quot;", fp);
			break;
		case '\'':
			fputs("&#39;", fp);
			break;
		default:
			fputc(*s, fp);
			break;
		}
	}
}

static void html__put_info(FILE *fp, const char *what, const char *value)
{
	if (!value || *value == '\0')
		return;
	fprintf(fp, "<span>%s: ", what);
	html__put_text(fp, value);
	fputs("</span> &nbsp; ", fp);
}

int flamegraph__write_html(struct flamegraph *fg, FILE *fp,
			   const struct flamegraph_info *info)
{
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n<title>", fp);
	html__put_text(fp, info->title ?: "perf flamegraph");
	fprintf(fp, "</title>\n<style>\n%s</style>\n</head><body>\n<h1>", flamegraph_html_css);
	html__put_text(fp, info->title ?: "perf flamegraph");
	fputs("</h1>\n<div id=\"hdr\">", fp);
	html__put_info(fp, "input", info->input);
	html__put_info(fp, "host", info->hostname);
	html__put_info(fp, "event", info->event);
	fprintf(fp, "<span>samples: %" PRIu64 "</span>", fg->root.total);
	if (info->cmdline && *info->cmdline) {
		fputs("<br><span>command: ", fp);
		html__put_text(fp, info->cmdline);
		fputs("</span>", fp);
	}
	fprintf(fp, "</div>\n%s", flamegraph_html_body);
	fputs("<script type=\"application/json\" id=\"fg-data\">", fp);
	flamegraph__write_json(fg, fp, /*html_safe=*/true);
	fprintf(fp, "</script>\n<script>\n%s</script>\n</body></html>\n",
		flamegraph_html_js);
	return ferror(fp) ? -EIO : 0;
}
