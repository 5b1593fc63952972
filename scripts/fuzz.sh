#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz.sh SECONDS: build the libFuzzer target of the flame-graph tree and
# writers (checks/fuzz/flamegraph-fuzz.c) with clang, ASan and
# UBSan, with the same -I/-D flags perf's build used for
# util/flamegraph.c, replay the kept inputs in checks/fuzz/
# inputs/ (hand-made seeds, and any input that ever found a bug), then
# fuzz for SECONDS. A finding is written to build/fuzz/ and fails the
# run: once fixed, keep it in inputs/.

set -e
secs=${1:-60}
top=$(cd "$(dirname "$0")/.." && pwd)
src=$top/build/src/tools/perf
out=$top/build/fuzz
cmd=$top/build/obj/util/.flamegraph.o.cmd

if ! command -v clang > /dev/null ||
   ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a > /dev/null 2>&1; then
	if [ "$(id -u)" != 0 ]; then
		echo "clang's libFuzzer is missing; run as root:" >&2
		echo "  apt-get install -y clang libclang-rt-14-dev" >&2
		exit 1
	fi
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
		clang libclang-rt-14-dev > /dev/null
fi

flags=$(sed -n 1p "$cmd" | tr ' ' '\n' | grep -E '^-[ID]' | grep -v BUILD_STR)
mkdir -p "$out/corpus"
echo "  CLANG  $out/flamegraph-fuzz"
# shellcheck disable=SC2086
(cd "$src" && clang -g -O1 -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -Wno-unknown-warning-option $flags \
	-o "$out/flamegraph-fuzz" "$top/checks/fuzz/flamegraph-fuzz.c" \
	util/flamegraph.c util/flamegraph-output.c util/flamegraph-html.c util/hashmap.c \
	util/json.c util/strbuf.c \
	../lib/ctype.c ../lib/rbtree.c ../lib/string.c ../lib/zalloc.c)

cd "$out"
inputs=$top/checks/fuzz/inputs
if [ -d "$inputs" ]; then
	echo "  REPLAY $(ls "$inputs" | wc -l) kept inputs"
	./flamegraph-fuzz "$inputs"/* > replay.log 2>&1 || {
		tail -30 replay.log
		exit 1
	}
fi
echo "  FUZZ   ${secs}s"
./flamegraph-fuzz -max_total_time="$secs" -max_len=1024 corpus > fuzz.log 2>&1 || {
	grep -E "ERROR|SUMMARY|runtime error|Test unit written" fuzz.log | head -20
	exit 1
}
tail -1 fuzz.log
