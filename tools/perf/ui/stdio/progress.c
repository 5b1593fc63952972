// SPDX-License-Identifier: GPL-2.0
/*
 * ui/stdio/progress.c: perf's ui_progress on a plain terminal, for the
 * commands that write files rather than browse (no TUI): one line on
 * stderr, rewritten in place, cleared when done.
 */
#include <inttypes.h>
#include <stdio.h>
#include <linux/kernel.h>

#include "../progress.h"

static void stdio_progress__update(struct ui_progress *p)
{
	fprintf(stderr, "\r%s %3" PRIu64 "%%", p->title,
		p->total ? min(p->curr, p->total) * 100 / p->total : 100);
	fflush(stderr);
}

static void stdio_progress__finish(void)
{
	fputs("\r\033[K", stderr);
	fflush(stderr);
}

static struct ui_progress_ops stdio_progress__ops = {
	.update = stdio_progress__update,
	.finish = stdio_progress__finish,
};

void stdio_progress__init(void)
{
	ui_progress__ops = &stdio_progress__ops;
}
