#!/bin/bash
# perf script python: names, symbol ranges, the image perf disassembles, its text
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

# A build-id cache of the test's own (perf reads its place from its config).
printf '[buildid]\n\tdir = %s\n' "${workdir}/buildid" > "${workdir}/perfconfig"
export PERF_CONFIG="${workdir}/perfconfig"

if ! perf version --build-options | grep -q 'libpython: .*on'; then
	echo "Skip: perf built without python"
	cleanup
	exit 2
fi
command -v cc > /dev/null || { echo "Skip: no C compiler"; cleanup; exit 2; }

# x86 fuses the loop's branch back with its cmp: a jmp is sampled instead.
jmp=
case "$(uname -m)" in x86_64|i?86) jmp=-DSPIN_JMP ;; esac
# shellcheck disable=SC2086
cc -O1 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer ${jmp} \
	-o "${workdir}/prog" "${shelldir}/lib/script_python_names.c"
# The symbol table holds the byte 0xad as it was given.
nm "${workdir}/prog" | LC_ALL=C grep -q "$(printf 'sp\255in')"
perf record -q -e cpu-clock -g -o "${workdir}/p.data" "${workdir}/prog" 200 \
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

# The symbol's range, as nm (DSO addresses) and objdump print it, and the
# image perf would disassemble: the build-id cache's copy, also once the
# binary is gone from its path.
cp "${workdir}/prog" "${workdir}/prog.orig"
rm "${workdir}/prog"
cat > "${workdir}/ranges.py" <<'PY'
seen = {}

def process_event(param_dict):
    if param_dict.get("symbol") == "sp\ufffdin" and "sym_start" in param_dict:
        d = param_dict
        seen["sample"] = (d["sym_start"], d["sym_end"], d["sym_objdump_start"],
                          d["sym_objdump_end"], d.get("dso_disasm_path", ""))
    for e in param_dict.get("callchain", []):
        s = e.get("sym", {})
        if s.get("name") == "main":
            seen["main"] = (s["start"], s["end"], s["objdump_start"],
                            s["objdump_end"], e.get("dso_disasm_path", ""))

def trace_end():
    for k in sorted(seen):
        print(k, " ".join("%x" % v if isinstance(v, int) else v for v in seen[k]))
PY
perf script -i "${workdir}/p.data" -s "${workdir}/ranges.py" > "${workdir}/ranges" \
	2> /dev/null
cat "${workdir}/ranges"
bid=$(readelf -n "${workdir}/prog.orig" | sed -n 's/.*Build ID: *//p')
cached="${workdir}/buildid/.build-id/${bid:0:2}/${bid:2}/elf"
for sym in main "$(printf 'sp\255in')"; do
	key=main
	[ "${sym}" = main ] || key=sample
	start=$(nm -S "${workdir}/prog.orig" | LC_ALL=C awk -v s="${sym}" '$4 == s { print $1 }')
	size=$(nm -S "${workdir}/prog.orig" | LC_ALL=C awk -v s="${sym}" '$4 == s { print $2 }')
	start=$(printf '%x' $((16#${start})))
	end=$(printf '%x' $((16#${start} + 16#${size})))
	# objdump -d prints the symbol at the same address in this binary.
	objdump -d "${workdir}/prog.orig" | LC_ALL=C grep -q "^0*${start} <${sym}>:$"
	grep -qx "${key} ${start} ${end} ${start} ${end} ${cached}" "${workdir}/ranges"
done
test -r "${cached}"
# The sampled instructions as perf annotate shows them, with their
# addresses as objdump prints them: each an instruction objdump -d finds
# there, of the same mnemonic (objdump may leave out the AT&T suffix).
cat > "${workdir}/disasm.py" <<'PY'
from perf_trace_context import perf_sample_disasm
seen = {}
def process_event(param_dict):
    if param_dict.get("symbol") == "sp\ufffdin":
        seen[perf_sample_disasm(perf_script_context)] = 1
def trace_end():
    for text, addr in seen:
        print("%x %s" % (addr, text))
PY
perf script -i "${workdir}/p.data" -s "${workdir}/disasm.py" > "${workdir}/disasm" \
	2> /dev/null
objdump -d --no-show-raw-insn "${workdir}/prog.orig" > "${workdir}/objdump"
test -s "${workdir}/disasm"
while read -r addr mnemonic _; do
	od=$(awk -v a="${addr}:" '$1 == a { print $2; exit }' "${workdir}/objdump")
	echo "perf_sample_disasm: ${addr} ${mnemonic}, objdump: ${od}"
	test -n "${od}"
	case "${mnemonic}" in "${od}"*) ;; *) exit 1 ;; esac
done < "${workdir}/disasm"
# The loop's branch names its target in the function, whose name is
# not UTF-8: U+FFFD for the byte, as in the symbol's name.
LC_ALL=C grep -q "<sp$(printf '\357\277\275')in+0x[0-9a-f]*>" "${workdir}/disasm"
cleanup
exit 0
