// SPDX-License-Identifier: GPL-2.0
/*
 * What a flame graph's page says about the recording and the options it
 * was made with, in words: made by the commands from their session and
 * symbol_conf, so that the writers (util/flamegraph-output.c) need
 * neither.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <linux/kernel.h>
#include <linux/zalloc.h>

#include "data.h"
#include "env.h"
#include "flamegraph-html.h"
#include "flamegraph-output.h"
#include "flamegraph-session.h"
#include "header.h"
#include "output-file.h"
#include "session.h"
#include "strbuf.h"
#include "symbol_conf.h"

int flamegraph__describe_filters(struct strbuf *sb)
{
	const struct {
		const char *option, *list;
	} filters[] = {
		{ "--comms",   symbol_conf.comm_list_str, },
		{ "--pid",     symbol_conf.pid_list_str, },
		{ "--tid",     symbol_conf.tid_list_str, },
		{ "--dsos",    symbol_conf.dso_list_str, },
		{ "--symbols", symbol_conf.sym_list_str, },
	};
	size_t i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(filters) && !err; i++) {
		if (filters[i].list)
			err = strbuf_addf(sb, "%s%s %s", sb->len ? ", " : "",
					  filters[i].option, filters[i].list);
	}
	return err;
}

/* The recording's command line, its words joined; NULL without memory. */
static char *flamegraph_info__cmdline(struct perf_env *env)
{
	struct strbuf sb = STRBUF_INIT;
	int i;

	for (i = 0; i < env->nr_cmdline; i++)
		strbuf_addf(&sb, "%s%s", i ? " " : "", env->cmdline_argv[i]);
	return strbuf_detach(&sb, NULL);
}

void flamegraph_info__init(struct flamegraph_info *info, struct perf_session *session)
{
	struct perf_env *env = perf_session__env(session);
	size_t header_len = 0;
	char *header = NULL;
	struct stat st;
	FILE *hfp;

	*info = (struct flamegraph_info){
		.title	  = "perf flamegraph",
		.input	  = session->data->path,
		.hostname = env->hostname,
		.cpu	  = env->cpu_desc,
		.version  = env->version,
	};
	/* As perf report --header's "captured on": the file's time. */
	if (!perf_data__is_pipe(session->data) &&
	    !fstat(perf_data__fd(session->data), &st) &&
	    strftime(info->date_buf, sizeof(info->date_buf), "%Y-%m-%d %H:%M:%S %Z",
		     localtime(&st.st_mtime)))
		info->date = info->date_buf;
	/* The header of this recording, not of ./perf.data. */
	hfp = open_memstream(&header, &header_len);
	if (hfp) {
		perf_header__fprintf_info(session, hfp, /*full=*/false);
		fclose(hfp);
		info->header = header;
	}
	info->cmdline = flamegraph_info__cmdline(env);
}

void flamegraph_info__exit(struct flamegraph_info *info)
{
	zfree((char **)&info->cmdline);
	zfree((char **)&info->header);
}

/*
 * Write finished graphs in a format: JSON and folded stacks as
 * flamegraph__write_trees() writes them, HTML as a page that offers a
 * switch between several graphs, or one graph in a d3-flame-graph
 * template (@tmpl).  Not pprof, a profile of samples rather than of trees
 * (bt_convert__perf2pprof()).
 */
static int flamegraph__write(struct flamegraph **graphs, const struct flamegraph_labels *labels,
			     int nr_graphs, FILE *fp, enum flamegraph_format format,
			     const struct flamegraph_info *info, const char *tmpl)
{
	if (format != FLAMEGRAPH_HTML)
		return flamegraph__write_trees(graphs, labels, nr_graphs, fp, format);
	if (tmpl)
		return nr_graphs == 1 ?
		       flamegraph__write_template(graphs[0], &labels[0], fp, tmpl, info) :
		       -EINVAL;
	return flamegraph__write_pages(graphs, labels, nr_graphs, fp, info);
}

int flamegraph__write_session(struct output_file *out, struct flamegraph **graphs,
			      const struct flamegraph_labels *labels, int nr_graphs,
			      enum flamegraph_format format, struct perf_session *session,
			      const char *tmpl)
{
	FILE *fp = output_file__open(out);
	struct flamegraph_info info;
	int err;

	if (!fp)
		return -EIO;
	flamegraph_info__init(&info, session);
	err = flamegraph__write(graphs, labels, nr_graphs, fp, format, &info, tmpl);
	flamegraph_info__exit(&info);
	return output_file__close(out, err);
}
