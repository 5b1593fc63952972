#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# flamegraph-embed.sh NAME FILE [NAME FILE...]: write a C header that
# holds each FILE as a string constant NAME, for the viewer that perf
# flamegraph embeds in its HTML output (util/flamegraph-viewer.{css,js}).
# A file that holds "</script" would end the page's <script> element
# early: refuse it.

echo "/* Generated from the viewer's HTML, CSS and JavaScript: do not edit. */"
while [ $# -ge 2 ]; do
	if grep -qi '</script' "$2"; then
		echo "$2: holds </script, which would end the page's script" >&2
		exit 1
	fi
	echo "static const char $1[] ="
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$2"
	printf "\t;\n"
	shift 2
done
