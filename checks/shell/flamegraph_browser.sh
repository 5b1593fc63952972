#!/bin/bash
# perf flamegraph HTML viewer in Chromium (exclusive)
# SPDX-License-Identifier: GPL-2.0
#
# Opens pages written by perf flamegraph --asm from file:// in headless
# Chromium, driven by playwright-core (lib/flamegraph_browser.mjs): frames
# render, a click zooms, search highlights, a hot instruction selects its
# leaves, the views (sandwich, inverted) give the data's numbers, the URL
# fragment reopens a view, no request leaves the page, the symbol names of
# a hostile workload stay text, C++ names thousands of characters long and
# stacks 127 frames deep stay inside the window, the Assembly pane shows
# a function's code in context. Screenshots of each check
# go to build/test-artifacts/ of the repository. make check installs
# Chromium and playwright-core (make browser-deps); without them the test
# is skipped.
#
# It runs alone, after the tests that perf test runs in parallel: it
# starts a browser and records several workloads, and on a loaded machine
# needs the CPUs it is timed on. Each step that can go wrong goes through
# step(), which names it and shows its standard error if it does.

set -e

err=0
shelldir=$(dirname "$0")
# The repository: this file is linked from it into the assembled tree.
top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
node_modules=${FLAMEGRAPH_NODE_MODULES:-${top}/build/node/node_modules}
chromium=${FLAMEGRAPH_CHROMIUM:-/usr/bin/chromium}
artifacts=${FLAMEGRAPH_ARTIFACTS:-${top}/build/test-artifacts/flamegraph_browser}

skip() {
	echo "Skip: $1"
	exit 2
}

command -v cc > /dev/null || skip "no C compiler for the workload"
command -v node > /dev/null || skip "no node"
[ "$(node -p 'process.versions.node.split(".")[0]')" -ge 20 ] ||
	skip "node $(node --version) is older than playwright-core's 20"
[ -x "${chromium}" ] || skip "no ${chromium} (make browser-deps installs Debian's chromium as root)"
[ -f "${node_modules}/playwright-core/package.json" ] ||
	skip "no playwright-core in ${node_modules} (make browser-deps installs it)"

workdir=$(mktemp -d /tmp/__perf_test.flamegraph_browser.XXXXX)

cleanup() {
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

# Keep the build-id cache of the test apart from the user's, and the
# user's ~/.perfconfig out of the test: see lib/flamegraph.sh.
printf '[buildid]\n\tdir = %s\n' "${workdir}/buildid" > "${workdir}/perfconfig"
export PERF_CONFIG="${workdir}/perfconfig"
export PERF_BUILDID_DIR="${workdir}/buildid"

export FLAMEGRAPH_NODE_MODULES="${node_modules}"
export FLAMEGRAPH_CHROMIUM="${chromium}"
browser="node ${shelldir}/lib/flamegraph_browser.mjs"
rm -rf "${artifacts}"
mkdir -p "${artifacts}"

# step WHAT COMMAND...: run COMMAND, its standard error kept in the
# workdir; if it exits non-zero, say which step of which part it was, its
# exit status and command, and show that standard error.
step() {
	local what=$1 rc=0

	shift
	"$@" 2> "${workdir}/step.err" || rc=$?
	if [ "${rc}" -ne 0 ]; then
		echo "${FUNCNAME[1]}: ${what}: exit status ${rc}: $*"
		sed 's/^/    /' "${workdir}/step.err"
		return 1
	fi
	return 0
}

# The workload of the flamegraph_*.sh tests, with the same flags: frame pointers in
# leaf functions too.
cflags="-O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"

test_workload() {
	echo "Workload page: render, zoom, search, hot instructions, no request"
	local prog="${workdir}/fgwork"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph/*.c
	step "perf record" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/p.data" "${prog}" 100
	step "perf flamegraph" perf flamegraph -i "${workdir}/p.data" --asm \
		-o "${workdir}/x.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the workload page" \
		${browser} workload "${workdir}/x.html" "${artifacts}"
	# Counts, not times: the numbers as they are.
	step "perf flamegraph --value samples" perf flamegraph -i "${workdir}/p.data" \
		--asm --value samples -o "${workdir}/xs.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the --value samples page" \
		${browser} samples "${workdir}/xs.html" "${artifacts}"
}

test_hostile_names() {
	echo "Hostile symbol names: text, never markup or script"
	# The comm is markup too; the functions are named in the source.
	local prog="${workdir}/fg<i>&amp;x"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph_hostile.c
	if ! nm "${prog}" | grep -qF ' T </script><script>window.__pwned=1</script>'; then
		echo "${FUNCNAME[0]}: nm: the workload has no function named like markup"
		return 1
	fi
	step "perf record" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/h.data" "${prog}" 200
	step "perf flamegraph" perf flamegraph -i "${workdir}/h.data" --asm \
		-o "${workdir}/h.html"
	# Nothing of the names reaches the page as markup.
	if grep -qF -e '<img src=x' -e '<svg onload' -e '<script>window.__pwned' \
		-e '<!--<script>' -e 'fg<i>' "${workdir}/h.html"; then
		echo "${FUNCNAME[0]}: markup of the hostile names in the page"
		return 1
	fi
	# shellcheck disable=SC2086
	step "the browser's checks of the hostile names" \
		${browser} hostile "${workdir}/h.html" "${artifacts}"
}

test_events() {
	echo "Two events: one graph each, a switch between them"
	local prog="${workdir}/faults"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph_faults.c
	step "perf record" perf record -q -e page-faults,cpu-clock -F 1000 -g \
		-o "${workdir}/e.data" "${prog}"
	step "perf flamegraph" perf flamegraph -i "${workdir}/e.data" \
		-e cpu-clock,page-faults -o "${workdir}/e.html"
	# shellcheck disable=SC2086
	step "the browser's checks of two events" \
		${browser} events "${workdir}/e.html" "${artifacts}"
}

test_long_names() {
	echo "C++ names of thousands of characters: inside the window"
	local prog="${workdir}/cxx"

	if ! command -v c++ > /dev/null; then
		echo "C++ names of thousands of characters: no C++ compiler [Skipped]"
		return 0
	fi
	# shellcheck disable=SC2086
	step "c++" c++ ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph_cxx.cc
	step "perf record" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/l.data" "${prog}" 3
	step "perf flamegraph" perf flamegraph -i "${workdir}/l.data" --asm \
		-o "${workdir}/l.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the long names" \
		${browser} long "${workdir}/l.html" "${artifacts}"
}

test_deep() {
	echo "Stacks cut at 127 frames: the canvas stays in the window"
	local prog="${workdir}/deep"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph_deep.c
	step "perf record" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/d.data" "${prog}" 200 100000000
	step "perf flamegraph" perf flamegraph -i "${workdir}/d.data" --asm \
		-o "${workdir}/d.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the deep stacks" \
		${browser} deep "${workdir}/d.html" "${artifacts}"
}

test_systemwide() {
	echo "A system-wide profile"
	local prog="${workdir}/fgwork" busy

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}"/lib/flamegraph/*.c
	if [ "$(id -u)" != 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
		echo "A system-wide profile: perf_event_paranoid > 0, not root [Skipped]"
		return 0
	fi
	# A second busy process: on an idle machine the workload may be the
	# only comm with samples (an idle CPU takes no cpu-clock samples).
	cp "${prog}" "${workdir}/busy"
	"${workdir}/busy" 5000 > /dev/null &
	busy=$!
	if ! step "perf record -a" perf record -q -a -e cpu-clock -F 1000 -g \
		-o "${workdir}/s.data" "${prog}" 200; then
		kill "${busy}" 2> /dev/null || true
		wait "${busy}" 2> /dev/null || true
		return 1
	fi
	kill "${busy}" 2> /dev/null || true
	wait "${busy}" 2> /dev/null || true
	step "perf flamegraph" perf flamegraph -i "${workdir}/s.data" --asm \
		-o "${workdir}/s.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the system-wide page" \
		${browser} systemwide "${workdir}/s.html" "${artifacts}"
}

test_diff() {
	echo "perf flamegraph --diff: two builds, frames coloured by their change"
	local prog="${workdir}/rebuild" src="${shelldir}/lib/flamegraph_rebuild.c"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${src}"
	# User space alone: on a busy machine (a VM) a share of either
	# recording's samples can land in the kernel, which would move every
	# user frame's share; the program's own shares don't move so.
	step "perf record of the first build" perf record -q -e cpu-clock:u -c 100000 -g \
		-o "${workdir}/old.data" "${prog}" 100
	# shellcheck disable=SC2086
	step "cc -DEXTRA" cc ${cflags} -DEXTRA -o "${prog}" "${src}"
	step "perf record of the second build" perf record -q -e cpu-clock:u -c 100000 -g \
		-o "${workdir}/new.data" "${prog}" 100
	step "perf flamegraph --diff" perf flamegraph --asm --diff "${workdir}/old.data" \
		-i "${workdir}/new.data" -o "${workdir}/diff.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the --diff page" \
		${browser} diff "${workdir}/diff.html" "${artifacts}"
}

test_diff_rename() {
	echo "perf flamegraph --diff: a register renamed, the card says the operands differ"
	local prog="${workdir}/rename" src="${shelldir}/lib/flamegraph_rename.c"

	if [ "$(uname -m)" != x86_64 ]; then
		echo "perf flamegraph --diff, a register renamed: the workload is x86-64 [Skipped]"
		return 0
	fi
	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${src}"
	step "perf record of the first build" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/rold.data" "${prog}" 100
	# shellcheck disable=SC2086
	step "cc -DRENAME" cc ${cflags} -DRENAME -o "${prog}" "${src}"
	step "perf record of the second build" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/rnew.data" "${prog}" 100
	step "perf flamegraph --diff" perf flamegraph --asm --diff "${workdir}/rold.data" \
		-i "${workdir}/rnew.data" -o "${workdir}/rename.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the renamed register" \
		${browser} rename "${workdir}/rename.html" "${artifacts}"
}

test_context() {
	echo "The Assembly pane: a function's whole code in the selected frame's context"
	local prog="${workdir}/ctx"

	# shellcheck disable=SC2086
	step "cc" cc ${cflags} -o "${prog}" "${shelldir}/lib/flamegraph_context.c"
	step "perf record" perf record -q -e cpu-clock -c 100000 -g \
		-o "${workdir}/c.data" "${prog}"
	step "perf flamegraph" perf flamegraph -i "${workdir}/c.data" --asm \
		-o "${workdir}/c.html"
	# shellcheck disable=SC2086
	step "the browser's checks of the Assembly pane" \
		${browser} context "${workdir}/c.html" "${artifacts}"
	step "perf flamegraph --annotate-functions=1" perf flamegraph -i "${workdir}/c.data" \
		--asm --annotate-functions=1 -o "${workdir}/c1.html"
	# shellcheck disable=SC2086
	step "the browser's checks of --annotate-functions=1" \
		${browser} context-limit "${workdir}/c1.html" "${artifacts}"
}

for t in test_workload test_hostile_names test_events test_long_names test_deep \
	 test_systemwide test_diff test_diff_rename test_context; do
	# Not in an if: set -e must stay in force inside the subshell.
	set +e
	( set -e; $t )
	rc=$?
	set -e
	if [ $rc -ne 0 ]; then
		echo "$t FAILED"
		err=1
	fi
done

cleanup
exit $err
