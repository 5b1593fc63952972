// SPDX-License-Identifier: GPL-2.0
/*
 * Write a flame graph of a perf session in the format the user asked for,
 * with what the session says about the recording: shared by perf
 * flamegraph and perf report --flamegraph.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <sys/stat.h>

#include "data.h"
#include "debug.h"
#include "env.h"
#include "evsel.h"
#include "flamegraph-session.h"
#include "header.h"
#include "session.h"
#include "strbuf.h"

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
		else
			goto out_unknown;
		return 0;
	}

	ext = strrchr(output, '.');
	if (ext && !strcasecmp(ext, ".json"))
		*format = FLAMEGRAPH_JSON;
	else if (ext && (!strcasecmp(ext, ".folded") || !strcasecmp(ext, ".txt")))
		*format = FLAMEGRAPH_FOLDED;
	else
		*format = FLAMEGRAPH_HTML;
	return 0;

out_unknown:
	pr_err("unknown --format '%s': use html, json or folded\n", format_str);
	return -EINVAL;
}

static char *perf_env__cmdline(struct perf_env *env)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < env->nr_cmdline; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", env->cmdline_argv[i]);
	return strbuf_detach(&sb, NULL);
}

int flamegraph__write_session(struct flamegraph *fg, FILE *fp,
			      enum flamegraph_format format,
			      struct perf_session *session,
			      struct evsel *evsel, const char *tmpl)
{
	struct perf_env *env = &session->header.env;
	struct flamegraph_info info = {
		.title	  = "perf flamegraph",
		.input	  = session->data->path,
		.event	  = evsel ? evsel__name(evsel) : NULL,
		.hostname = env->hostname,
		.cpu	  = env->cpu_desc,
		.version  = env->version,
	};
	char date[64] = "", *header = NULL;
	size_t header_len = 0;
	struct stat st;
	FILE *hfp;
	int err;

	switch (format) {
	case FLAMEGRAPH_JSON:
		return flamegraph__write_json(fg, fp, /*html_safe=*/false);
	case FLAMEGRAPH_FOLDED:
		return flamegraph__write_folded(fg, fp);
	case FLAMEGRAPH_HTML:
	default:
		break;
	}

	/* As perf report --header's "captured on": the file's time. */
	if (!perf_data__is_pipe(session->data) &&
	    !fstat(perf_data__fd(session->data), &st) &&
	    strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S %Z",
		     localtime(&st.st_mtime)))
		info.date = date;
	/* The header of this recording, not of ./perf.data. */
	hfp = open_memstream(&header, &header_len);
	if (hfp) {
		perf_header__fprintf_info(session, hfp, /*full=*/false);
		fclose(hfp);
		info.header = header;
	}
	info.cmdline = perf_env__cmdline(env);
	if (tmpl)
		err = flamegraph__write_template(fg, fp, tmpl, &info);
	else
		err = flamegraph__write_html(fg, fp, &info);
	free((char *)info.cmdline);
	free(header);
	return err;
}
