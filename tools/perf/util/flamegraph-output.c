// SPDX-License-Identifier: GPL-2.0
/*
 * The writers of perf flamegraph: JSON in the shape of upstream's "perf
 * script report flamegraph -f json" and folded stacks as flamegraph.pl
 * reads them; and the output file, replaced only once it was written
 * whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/zalloc.h>

#include "debug.h"
#include "dso.h"
#include "build-id.h"
#include "flamegraph.h"
#include "flamegraph-output.h"
#include "json.h"
#include "map.h"
#include "symbol.h"

char *flamegraph__utf8_dup(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str);
	/* Each invalid byte becomes three. */
	char *out = malloc(3 * len + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		int n = utf8_seq_len(s);

		if (n) {
			memcpy(o, s, n);
			o += n;
			s += n;
		} else {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			s++;
		}
	}
	*o = '\0';
	return out;
}

/*
 * The writers put one or more numbers per node: printf()'s format parsing
 * was a third of the JSON writer's time.
 */
void flamegraph__put_u64(FILE *fp, u64 v)
{
	char buf[20];	/* 18446744073709551615 */
	int i = sizeof(buf);

	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	fwrite(buf + i, 1, sizeof(buf) - i, fp);
}

void flamegraph__put_long(FILE *fp, long v)
{
	if (v < 0) {
		fputc('-', fp);
		flamegraph__put_u64(fp, -(u64)v);
		return;
	}
	flamegraph__put_u64(fp, v);
}

/* "%#" PRIx64: "0x" and lowercase digits, or "0". */
void flamegraph__put_hex(FILE *fp, u64 v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[18];	/* 0x and 16 digits */
	int i = sizeof(buf);

	/* printf()'s "%#x" has no 0x for zero. */
	if (!v) {
		fputc('0', fp);
		return;
	}
	do {
		buf[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	fwrite(buf + i, 1, sizeof(buf) - i, fp);
}

/* A node's kind, as JSON's "k" names it. */
static const char *flamegraph_node__kind_name(const struct flamegraph_node *node)
{
	static const char * const names[] = {
		[FLAMEGRAPH_ROOT]	= "root",
		[FLAMEGRAPH_COMM]	= "comm",
		[FLAMEGRAPH_FUNC]	= "func",
		[FLAMEGRAPH_UNKNOWN]	= "unknown",
		[FLAMEGRAPH_INSN]	= "insn",
		[FLAMEGRAPH_TRUNCATED]	= "truncated",
	};

	return names[node->kind];
}

void flamegraph_node__put_json_keys(const struct flamegraph_node *node, u64 self,
				    u64 samples, FILE *fp, bool html_safe,
				    const struct flamegraph *fg,
				    const struct flamegraph_labels *labels)
{
	const char *dso = flamegraph_node__dso_name(node);

	/* No fprintf() per node: its format parsing cost a third of the write. */
	fputs("\"n\":", fp);
	json__put_string(fp, node->label ?: "", html_safe);
	fputs(node->kernel ? ",\"l\":\"kernel\",\"v\":" : ",\"l\":\"\",\"v\":", fp);
	flamegraph__put_u64(fp, self);
	fputs(",\"s\":", fp);
	flamegraph__put_u64(fp, samples);
	if (fg) {
		fputs(",\"weight\":\"", fp);
		fputs(flamegraph_weight__name(fg->weight), fp);
		fputc('"', fp);
	}
	if (fg && labels->event) {
		fputs(",\"event\":", fp);
		json__put_string(fp, labels->event, html_safe);
	}
	if (fg && (labels->unit || fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES)) {
		fputs(",\"unit\":", fp);
		json__put_string(fp, fg->weight == FLAMEGRAPH_WEIGHT_SAMPLES ? "samples" :
				 labels->unit, html_safe);
	}
	if (fg && labels->report_total) {
		fputs(",\"report_total\":", fp);
		flamegraph__put_u64(fp, labels->report_total);
	}
	fputs(",\"k\":\"", fp);
	fputs(flamegraph_node__kind_name(node), fp);
	fputc('"', fp);
	if (dso) {
		fputs(",\"d\":", fp);
		json__put_string(fp, dso, html_safe);
	}
	if (node->kind == FLAMEGRAPH_FUNC || node->kind == FLAMEGRAPH_INSN) {
		fputs(",\"a\":\"", fp);
		flamegraph__put_hex(fp, node->objdump_addr);
		fputc('"', fp);
	}
}

void flamegraph_node__put_callsites(const struct flamegraph_node *node, FILE *fp,
				    bool offsets)
{
	const struct flamegraph_callsite *cs;

	fputc('[', fp);
	for (cs = node->callsites; cs; cs = cs->next) {
		fputs(cs == node->callsites ? "[" : ",[", fp);
		if (offsets) {
			flamegraph__put_u64(fp, cs->addr - node->addr);
		} else {
			fputc('"', fp);
			flamegraph__put_hex(fp, node->objdump_addr + cs->addr - node->addr);
			fputc('"', fp);
		}
		fputc(',', fp);
		flamegraph__put_u64(fp, cs->weight);
		fputc(',', fp);
		flamegraph__put_u64(fp, cs->samples);
		fputc(']', fp);
	}
	fputc(']', fp);
}

void flamegraph_function_insn__put_weights(const struct flamegraph_function_insn *insn,
					   FILE *fp)
{
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->self);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->samples);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->calls);
	fputc(',', fp);
	flamegraph__put_u64(fp, insn->call_samples);
}

static void json__put_string_or_null(FILE *fp, const char *str, bool html_safe)
{
	if (str)
		json__put_string(fp, str, html_safe);
	else
		fputs("null", fp);
}

void flamegraph_function__put_json_keys(const struct flamegraph_function *fn, FILE *fp,
					bool html_safe)
{
	struct dso *dso = map__dso(fn->ms.map);
	char bid[SBUILD_ID_SIZE];

	fputs("\"n\":", fp);
	json__put_string(fp, fn->ms.sym->name, html_safe);
	fputs(",\"d\":", fp);
	json__put_string(fp, dso__short_name(dso), html_safe);
	if (dso__has_build_id(dso)) {
		build_id__snprintf(dso__bid(dso), bid, sizeof(bid));
		fputs(",\"b\":\"", fp);
		fputs(bid, fp);
		fputc('"', fp);
	}
	fputs(",\"a\":\"", fp);
	flamegraph__put_hex(fp, fn->start);
	fputs("\",\"v\":", fp);
	flamegraph__put_u64(fp, fn->self);
	fputs(",\"s\":", fp);
	flamegraph__put_u64(fp, fn->samples);
	if (fn->why) {
		fputs(",\"why\":", fp);
		json__put_string(fp, fn->why, html_safe);
	}
}

static void flamegraph_function__write_json(const struct flamegraph_function *fn, FILE *fp,
					    bool html_safe)
{
	size_t i;

	fputc('{', fp);
	flamegraph_function__put_json_keys(fn, fp, html_safe);
	fputs(",\"i\":[", fp);
	for (i = 0; i < fn->nr_insns; i++) {
		const struct flamegraph_function_insn *insn = &fn->insns[i];

		fputs(i ? ",\n[\"" : "\n[\"", fp);
		flamegraph__put_hex(fp, insn->addr);
		fputs("\",", fp);
		json__put_string(fp, insn->text, html_safe);
		fputc(',', fp);
		json__put_string_or_null(fp, insn->srcline, html_safe);
		fputc(',', fp);
		flamegraph__put_long(fp, insn->source);
		fputc(',', fp);
		flamegraph__put_u64(fp, insn->line);
		flamegraph_function_insn__put_weights(insn, fp);
		fputc(']', fp);
	}
	fputs("]}", fp);
}

void flamegraph__put_sources(const struct flamegraph *fg, FILE *fp, bool html_safe)
{
	size_t i, j;

	fputs("\"sources\":[", fp);
	for (i = 0; i < fg->nr_sources; i++) {
		const struct flamegraph_source *src = &fg->sources[i];

		fputs(i ? ",\n{\"f\":" : "{\"f\":", fp);
		json__put_string(fp, src->path, html_safe);
		fputs(",\"first\":", fp);
		flamegraph__put_u64(fp, src->first);
		if (src->why) {
			fputs(",\"why\":", fp);
			json__put_string(fp, src->why, html_safe);
		}
		fputs(",\"lines\":[", fp);
		for (j = 0; j < src->nr_lines; j++) {
			if (j)
				fputc(',', fp);
			json__put_string(fp, src->lines[j], html_safe);
		}
		fputs("]}", fp);
	}
	fputc(']', fp);
}

void flamegraph__put_functions(const struct flamegraph *fg, FILE *fp, bool html_safe)
{
	size_t i;

	fputs("\"functions\":[", fp);
	for (i = 0; i < fg->nr_functions; i++) {
		if (i)
			fputs(",\n", fp);
		flamegraph_function__write_json(&fg->functions[i], fp, html_safe);
	}
	fputs("],", fp);
	flamegraph__put_sources(fg, fp, html_safe);
}

/*
 * @fg, @labels: for the root, the graph whose weight, event and unit it
 * names; NULL below.
 */
static void flamegraph_node__write_json(const struct flamegraph_node *node,
					FILE *fp, bool html_safe,
					const struct flamegraph *fg,
					const struct flamegraph_labels *labels)
{
	u32 i;

	fputc('{', fp);
	flamegraph_node__put_json_keys(node, node->self, node->samples, fp, html_safe, fg,
				       labels);
	if (fg && fg->nr_functions) {
		fputc(',', fp);
		flamegraph__put_functions(fg, fp, html_safe);
	}
	if (node->function) {
		fputs(",\"F\":", fp);
		flamegraph__put_u64(fp, node->function - 1);
		fputs(",\"x\":", fp);
		flamegraph_node__put_callsites(node, fp, /*offsets=*/false);
	}
	fputs(",\"c\":[", fp);
	for (i = 0; i < node->nr_children; i++) {
		if (i)
			fputc(',', fp);
		flamegraph_node__write_json(node->sorted[i], fp, html_safe, NULL, NULL);
	}
	fputs("]}", fp);
}

int flamegraph__write_json(struct flamegraph *fg, const struct flamegraph_labels *labels,
			   FILE *fp, bool html_safe)
{
	flamegraph_node__write_json(&fg->root, fp, html_safe, fg, labels);
	if (!html_safe)
		fputc('\n', fp);
	return ferror(fp) ? -EIO : 0;
}

/*
 * Frames are separated by ';' and stacks by newlines: keep names whole.
 * Bytes that are not valid UTF-8 become U+FFFD, as in JSON.
 */
static void folded__put_name(FILE *fp, const char *name)
{
	const unsigned char *s = (const unsigned char *)name;

	while (*s) {
		const unsigned char *run = s;
		int len;

		/* What needs no change, in one write. */
		while (*s && *s < 0x80 && *s != ';' && *s != '\n' && *s != '\r')
			s++;
		if (s > run)
			fwrite(run, 1, s - run, fp);
		if (!*s)
			break;
		if (*s < 0x80) {
			fputc(*s == ';' ? ':' : ' ', fp);
			s++;
			continue;
		}
		len = utf8_seq_len(s);
		if (len)
			fwrite(s, 1, len, fp);
		else
			fputs("\xef\xbf\xbd", fp);
		s += len ?: 1;
	}
}

void flamegraph_node__write_folded_path(const struct flamegraph_node *node, FILE *fp)
{
	if (node->parent && node->parent->kind != FLAMEGRAPH_ROOT) {
		flamegraph_node__write_folded_path(node->parent, fp);
		fputc(';', fp);
	}
	folded__put_name(fp, node->label);
}

/* @event: NULL, or the first frame of every line. */
static void flamegraph_node__write_folded(const struct flamegraph_node *node,
					  FILE *fp, const char *event)
{
	u32 i;

	if (node->self && node->kind != FLAMEGRAPH_ROOT) {
		if (event) {
			folded__put_name(fp, event);
			fputc(';', fp);
		}
		flamegraph_node__write_folded_path(node, fp);
		fputc(' ', fp);
		flamegraph__put_u64(fp, node->self);
		fputc('\n', fp);
	}
	for (i = 0; i < node->nr_children; i++)
		flamegraph_node__write_folded(node->sorted[i], fp, event);
}

int flamegraph__write_folded(struct flamegraph *fg, FILE *fp)
{
	flamegraph_node__write_folded(&fg->root, fp, NULL);
	return ferror(fp) ? -EIO : 0;
}

int flamegraph__parse_format(const char *format_str, const char *output,
			     enum flamegraph_format *format)
{
	const char *ext;

	if (format_str) {
		if (!strcmp(format_str, "html"))
			*format = FLAMEGRAPH_HTML;
		else if (!strcmp(format_str, "json"))
			*format = FLAMEGRAPH_JSON;
		else if (!strcmp(format_str, "folded"))
			*format = FLAMEGRAPH_FOLDED;
		else if (!strcmp(format_str, "pprof"))
			*format = FLAMEGRAPH_PPROF;
		else
			goto out_unknown;
		return 0;
	}

	ext = strrchr(output, '.');
	if (ext && !strcasecmp(ext, ".json"))
		*format = FLAMEGRAPH_JSON;
	else if (ext && (!strcasecmp(ext, ".folded") || !strcasecmp(ext, ".txt")))
		*format = FLAMEGRAPH_FOLDED;
	else if (ext && (!strcasecmp(ext, ".pprof") ||
			 (!strcasecmp(ext, ".gz") && ext - output >= 3 &&
			  !strncasecmp(ext - 3, ".pb", 3))))
		*format = FLAMEGRAPH_PPROF;
	else
		*format = FLAMEGRAPH_HTML;
	return 0;

out_unknown:
	pr_err("unknown --format '%s': use html, json, folded or pprof\n", format_str);
	return -EINVAL;
}

const char *flamegraph_format__name(enum flamegraph_format format)
{
	static const char * const names[] = {
		[FLAMEGRAPH_HTML]	= "html",
		[FLAMEGRAPH_JSON]	= "json",
		[FLAMEGRAPH_FOLDED]	= "folded",
		[FLAMEGRAPH_PPROF]	= "pprof",
	};

	return names[format];
}

bool flamegraph_format__has_code(enum flamegraph_format format)
{
	return format == FLAMEGRAPH_HTML || format == FLAMEGRAPH_JSON;
}

int flamegraph__write_trees(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			    int nr_graphs, FILE *fp, enum flamegraph_format format)
{
	int i;

	switch (format) {
	case FLAMEGRAPH_JSON:
		if (nr_graphs == 1)
			return flamegraph__write_json(graphs[0], &labels[0], fp,
						      /*html_safe=*/false);
		/* Several: an array of their trees, each root naming its event. */
		for (i = 0; i < nr_graphs; i++) {
			fputs(i ? ",\n" : "[", fp);
			flamegraph_node__write_json(&graphs[i]->root, fp, false, graphs[i],
						    &labels[i]);
		}
		fputs("]\n", fp);
		return ferror(fp) ? -EIO : 0;
	case FLAMEGRAPH_FOLDED:
		if (nr_graphs == 1)
			return flamegraph__write_folded(graphs[0], fp);
		/* Several: each line's first frame names its event. */
		for (i = 0; i < nr_graphs; i++)
			flamegraph_node__write_folded(&graphs[i]->root, fp, labels[i].event);
		return ferror(fp) ? -EIO : 0;
	case FLAMEGRAPH_HTML:
	case FLAMEGRAPH_PPROF:
	default:
		return -EINVAL;
	}
}

static int output_error(const char *path, int errnum)
{
	pr_err("cannot write %s: %s\n", path, strerror(errnum));
	return -errnum;
}

/* Can a file be created in the directory of @path? */
static int dir_writable(const char *path)
{
	char *copy = strdup(path);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = access(dirname(copy), W_OK | X_OK) ? -errno : 0;
	free(copy);
	return ret;
}

static int flamegraph_output__set_target(struct flamegraph_output *out,
					 const char *target, mode_t mode)
{
	int err = dir_writable(target);

	if (err == -EACCES || err == -EROFS) {
		/* No new file can go there, but the old one may be written. */
		if (access(target, W_OK) == 0)
			return 0;
	}
	if (err)
		return output_error(out->path, -err);
	out->target = strdup(target);
	out->mode = mode;
	return out->target ? 0 : -ENOMEM;
}

int flamegraph_output__init(struct flamegraph_output *out, const char *path)
{
	char real[PATH_MAX];
	struct stat st;
	mode_t mask;

	memset(out, 0, sizeof(*out));
	out->path = path;
	if (!*path) {
		pr_err("the output file name is empty\n");
		return -EINVAL;
	}
	if (!strcmp(path, "-"))
		return 0;

	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return output_error(path, errno);
		mask = umask(0);
		umask(mask);
		return flamegraph_output__set_target(out, path, 0666 & ~mask);
	}
	if (S_ISLNK(st.st_mode)) {
		/* Replace what the link points to, if a regular file. */
		if (!realpath(path, real) || stat(real, &st) || !S_ISREG(st.st_mode))
			return 0;
		path = real;
	}
	if (S_ISDIR(st.st_mode)) {
		pr_err("the output %s is a directory\n", out->path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode))
		return 0;
	return flamegraph_output__set_target(out, path, st.st_mode & 07777);
}

/*
 * All of @buf, or an error: stdio takes a short count for one, and a
 * pipe's write is cut short by a signal (SIGPIPE, once its reader went).
 */
/* Whether SIGPIPE is ignored: an EPIPE then raised no signal. */
static bool sigpipe_ignored(void)
{
	struct sigaction sa;

	return !sigaction(SIGPIPE, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

static ssize_t flamegraph_output__write_fd(void *cookie, const char *buf, size_t size)
{
	struct flamegraph_output *out = cookie;
	size_t done = 0;

	/* After an error, no more: each write to a closed pipe is a SIGPIPE. */
	if (out->errnum)
		return 0;
	while (done < size) {
		ssize_t n = write(out->fd, buf + done, size - done);

		if (n > 0) {
			done += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (!out->errnum)
			out->errnum = n < 0 ? errno : EIO;
		break;
	}
	/* fopencookie(3): a count short of @size is a write error. */
	return done;
}

static int flamegraph_output__close_fd(void *cookie)
{
	struct flamegraph_output *out = cookie;

	if (out->fd == STDOUT_FILENO || !close(out->fd))
		return 0;
	if (!out->errnum)
		out->errnum = errno;
	return -1;
}

/* A stream over @out->fd that keeps the errno of a failed write. */
static FILE *flamegraph_output__stream(struct flamegraph_output *out)
{
	cookie_io_functions_t io = {
		.write = flamegraph_output__write_fd,
		.close = flamegraph_output__close_fd,
	};

	out->errnum = 0;
	out->fp = fopencookie(out, "w", io);
	return out->fp;
}

FILE *flamegraph_output__open(struct flamegraph_output *out)
{
	char *copy;

	if (!out->target) {
		out->fd = strcmp(out->path, "-") ?
			  open(out->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) :
			  STDOUT_FILENO;
		if (out->fd < 0 || !flamegraph_output__stream(out)) {
			output_error(out->path, errno);
			if (out->fd > STDOUT_FILENO)
				close(out->fd);
		}
		return out->fp;
	}

	copy = strdup(out->target);
	if (!copy || asprintf(&out->tmp, "%s/.perf-flamegraph.XXXXXX", dirname(copy)) < 0) {
		free(copy);
		out->tmp = NULL;
		output_error(out->path, ENOMEM);
		return NULL;
	}
	free(copy);
	out->fd = mkstemp(out->tmp);
	if (out->fd < 0) {
		output_error(out->path, errno);
		zfree(&out->tmp);
		return NULL;
	}
	if (fchmod(out->fd, out->mode) || !flamegraph_output__stream(out)) {
		output_error(out->path, errno);
		close(out->fd);
		unlink(out->tmp);
		zfree(&out->tmp);
	}
	return out->fp;
}

int flamegraph_output__close(struct flamegraph_output *out, int err)
{
	if (out->fp) {
		int ret = fclose(out->fp);

		/* The write's own error says more than a writer's -EIO. */
		if ((ret || out->errnum) && (!err || err == -EIO))
			err = -(out->errnum ?: EIO);
		out->fp = NULL;
	}
	if (!err && out->tmp && rename(out->tmp, out->target))
		err = -errno;
	if (out->tmp) {
		if (err)
			unlink(out->tmp);
		zfree(&out->tmp);
	}
	/*
	 * A reader gone ("| head"): unless SIGPIPE is ignored, its signal
	 * came and the command dies of it, quietly, as perf does.
	 */
	if (err && !(err == -EPIPE && !sigpipe_ignored()))
		output_error(out->path, -err);
	return err;
}

void flamegraph_output__exit(struct flamegraph_output *out)
{
	zfree(&out->target);
	zfree(&out->tmp);
}
