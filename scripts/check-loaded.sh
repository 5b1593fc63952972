#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-loaded.sh COMMAND...: run COMMAND (make check's test run) while
# one busy loop per CPU holds every CPU, as a newcomer's or CI's machine
# may be held by other work. The loops end with the run, however it ends;
# the exit status is COMMAND's.

n=$(nproc)
pids=()
stop() {
	[ "${#pids[@]}" -gt 0 ] && kill "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for _ in $(seq "$n"); do
	# A shell loop: no process to find on the machine, nothing to install.
	( while :; do :; done ) &
	pids+=($!)
done
echo "  LOAD   $n busy loops (one per CPU) while the tests run"
"$@"
