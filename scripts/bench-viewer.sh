#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-viewer.sh PERF: time the flame graph viewer in headless Chromium
# on synthetic trees of 1,000, 10,000 and 100,000 nodes, and write the
# medians, the machine and these commands to
# Documentation/viewer-benchmark.md (scripts/browser/bench-viewer.mjs).
# Run by make bench-viewer, which installs Chromium and playwright-core
# first. BENCH_SIZES and BENCH_RUNS change the sizes and the number of runs.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
perf=$(readlink -f "$1")
out=${BENCH_OUT:-${top}/Documentation/viewer-benchmark.md}
export FLAMEGRAPH_NODE_MODULES=${top}/build/node/node_modules
export FLAMEGRAPH_CHROMIUM=${FLAMEGRAPH_CHROMIUM:-/usr/bin/chromium}

die() {
	echo "bench-viewer: $*" >&2
	exit 1
}

[ -x "${perf}" ] || die "no perf at $1"
[ -x "${FLAMEGRAPH_CHROMIUM}" ] ||
	die "no ${FLAMEGRAPH_CHROMIUM}: run make browser-deps as root"
[ -f "${FLAMEGRAPH_NODE_MODULES}/playwright-core/package.json" ] ||
	die "no playwright-core in ${FLAMEGRAPH_NODE_MODULES}: run make browser-deps"

work=$(mktemp -d /tmp/bench-viewer.XXXXX)
trap 'rm -rf "${work}"' EXIT
# The build-id cache of the recording stays in the temporary directory.
printf '[buildid]\n\tdir = %s\n' "${work}/buildid" > "${work}/perfconfig"
export PERF_CONFIG="${work}/perfconfig"

# A page from perf itself, of the test workload; only its data changes.
src=tools/perf/tests/shell/lib/flamegraph
cmds=(
	"cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -o fgwork ${src}/*.c"
	"build/perf record -q -e cpu-clock -c 100000 -g -o p.data fgwork 100"
	"build/perf flamegraph -i p.data --asm -o page.html"
	"node scripts/browser/bench-viewer.mjs page.html Documentation/viewer-benchmark.md commands.txt"
)
cd "${top}"
# shellcheck disable=SC2086
cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-o "${work}/fgwork" ${src}/*.c
"${perf}" record -q -e cpu-clock -c 100000 -g -o "${work}/p.data" \
	"${work}/fgwork" 100 2> /dev/null
"${perf}" flamegraph -i "${work}/p.data" --asm -o "${work}/page.html" 2> /dev/null
grep -q perfFlamegraph "${work}/page.html" ||
	die "the page of ${perf} has no window.perfFlamegraph: its viewer predates the benchmark interface"

{
	echo "make bench-viewer    # as root the first time: installs chromium"
	echo "# that is, scripts/bench-viewer.sh build/perf, which runs from the"
	echo "# repository, its files (fgwork, p.data, page.html) in a temporary directory:"
	printf '%s\n' "${cmds[@]}"
	echo "# (BENCH_SIZES=${BENCH_SIZES:-1000,10000,100000} BENCH_RUNS=${BENCH_RUNS:-7})"
} > "${work}/commands.txt"
BENCH_NPROC=$(nproc)
BENCH_CPU=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
BENCH_CHROMIUM=$("${FLAMEGRAPH_CHROMIUM}" --version 2> /dev/null | head -1)
BENCH_PERF=$("${perf}" version)
BENCH_REV=$(git describe --always --dirty 2> /dev/null || echo unknown)
export BENCH_NPROC BENCH_CPU BENCH_CHROMIUM BENCH_PERF BENCH_REV
echo "  BENCH  viewer in ${BENCH_CHROMIUM}, ${BENCH_NPROC} x ${BENCH_CPU}"
node scripts/browser/bench-viewer.mjs "${work}/page.html" "${out}" "${work}/commands.txt"
