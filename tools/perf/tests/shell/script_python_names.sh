#!/bin/bash
# perf script python: names that are not UTF-8
# SPDX-License-Identifier: GPL-2.0

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.script_python_names.XXXXX)

cleanup() {
	rm -rf "${workdir}"
	trap - EXIT TERM INT
}

trap_cleanup() {
	cleanup
	exit 1
}
trap trap_cleanup EXIT TERM INT

if ! perf version --build-options | grep -q 'libpython: .*on'; then
	echo "Skip: perf built without python"
	cleanup
	exit 2
fi
command -v cc > /dev/null || { echo "Skip: no C compiler"; cleanup; exit 2; }

cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-o "${workdir}/prog" "${shelldir}/lib/script_python_names.c"
# The symbol table holds the byte 0xad as it was given.
nm "${workdir}/prog" | LC_ALL=C grep -q "$(printf 'sp\255in')"
perf record -q -e cpu-clock -g -o "${workdir}/p.data" "${workdir}/prog" 50 \
	2> /dev/null

cat > "${workdir}/names.py" <<'PY'
# Count the samples and callchain entries of each symbol name.
import collections
samples = collections.Counter()
entries = collections.Counter()

def process_event(param_dict):
    samples[param_dict.get("symbol", "")] += 1
    for e in param_dict.get("callchain", []):
        if "sym" in e:
            entries[e["sym"]["name"]] += 1

def trace_end():
    bad = "sp\ufffdin"
    print("samples %d entries %d" % (samples[bad], entries[bad]))
PY
# It used to die of SIGSEGV converting the callchain.
perf script -i "${workdir}/p.data" -s "${workdir}/names.py" \
	> "${workdir}/out" 2> "${workdir}/err"
# As many samples in it as perf script itself prints (byte for byte):
# the first callchain line of each sample is its symbol.
perf script -i "${workdir}/p.data" -F ip,sym 2> /dev/null > "${workdir}/ipsym"
top=$(awk 'BEGIN { first = 1 } NF == 0 { first = 1; next }
	   first == 1 { print; first = 0 }' "${workdir}/ipsym" |
	LC_ALL=C grep -c " $(printf 'sp\255in')$" || true)
echo "python: $(cat "${workdir}/out"); perf script: ${top} samples"
test "${top}" -gt 0
grep -q "^samples ${top} entries [0-9]*$" "${workdir}/out"
test "$(sed -n 's/.* entries //p' "${workdir}/out")" -ge "${top}"
cleanup
exit 0
