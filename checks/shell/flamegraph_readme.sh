#!/bin/bash
# perf flamegraph: the README's commands, as printed
# SPDX-License-Identifier: GPL-2.0
#
# Every command README.md prints (its indented lines that start with
# build/ or PPROF_BINARY_PATH=, with their continuation lines) is run as
# printed, in the README's order, on a small program this test builds as
# ./prog, from a directory where build/perf is the perf under test and
# build/pprof is $PPROF (make check builds it), with a $HOME of its own:
# the README's build-id cache is ~/.debug, and its Pyroscope is a local
# server behind $http_proxy. Each must succeed and give real values (the
# program's function, a weight that is not 0); a command the test has no
# check for fails it, so that a command added to the README is run too.
# The README's make commands are the build and make check itself.
#
# The README is this repository's, not the kernel's: so is this test.

set -e

shelldir=$(dirname "$0")
workdir=$(mktemp -d /tmp/__perf_test.flamegraph_readme.XXXXX)

# shellcheck source=lib/flamegraph.sh
. "${shelldir}"/lib/flamegraph.sh

top=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
readme=${top}/README.md
pprof=$(command -v "${PPROF:-pprof}" || true)
perf=$(command -v perf)

unset no_proxy NO_PROXY
[ -f "${readme}" ] || skip "no README.md beside ${top}/checks"
require cc python3 curl gzip "${pprof:-pprof}"

# The README's cache of build-ids, ~/.debug, in a $HOME of the test's.
export HOME="${workdir}/home"
mkdir -p "${HOME}"
PERF_CONFIG=$(perf_config "${HOME}/.debug")
export PERF_CONFIG
export PERF_BUILDID_DIR="${HOME}/.debug"

d="${workdir}/run"
mkdir -p "$d/build"
ln -s "${perf}" "$d/build/perf"
ln -s "${pprof}" "$d/build/pprof"
cd "$d"

# ./prog: main() calls spin() for 300 ms of CPU time, whatever the load.
cat > prog.c <<'C'
#include <time.h>

static volatile unsigned long sink;

static __attribute__((noinline)) void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

int main(void)
{
	while (clock() < CLOCKS_PER_SEC * 3 / 10)
		spin(1UL << 16);
	return 0;
}
C
build() {
	cc -O0 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer "$@" -o prog prog.c
}

# Before and after for "Before and after": a build without and with
# -DMORE, a multiply more in spin()'s loop, recorded alike.
sed -i 's/sink += i \* i;/sink += i * i;\n#ifdef MORE\n\t\tsink *= 3;\n#endif/' prog.c
build
perf record -q -e cpu-clock -g -o before.data ./prog 2> /dev/null
build -DMORE
perf record -q -e cpu-clock -g -o after.data ./prog 2> /dev/null

# The commands, one per line, continuation lines joined with \n.
mapfile -t cmds < <(awk '
	/^    / && !cont { line = substr($0, 5) }
	/^    / && cont { line = line "\n" $0 }
	/^    / {
		cont = /\\$/
		if (!cont) {
			if (line ~ /^(build\/|PPROF_BINARY_PATH=)/) {
				gsub(/\n/, "\\n", line)
				print line
			}
			line = ""
		}
		next
	}
	{ cont = 0; line = "" }' "${readme}")

fail() {
	echo "README: $1"
	echo "  command: ${cmd}"
	sed 's/^/  | /' out | head -20
	exit 1
}

# has FILE WHAT: FILE names spin(), the function the samples are in.
has_spin() {
	grep -q 'spin' "$1" || fail "$1 does not name spin()"
}

# A local Pyroscope: the README's curl goes to http://pyroscope:4040
# through it, as a proxy; it keeps the request line and the profile.
proxy() {
	python3 - "$d" <<'PY' &
import http.server, sys
d = sys.argv[1]

class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        if self.headers.get('Transfer-Encoding', '').lower() == 'chunked':
            body = b''
            while True:
                n = int(self.rfile.readline().strip(), 16)
                chunk = self.rfile.read(n + 2)[:n]
                if not n:
                    break
                body += chunk
        else:
            body = self.rfile.read(int(self.headers['Content-Length']))
        open(f'{d}/ingest.url', 'w').write(self.path + '\n')
        open(f'{d}/ingest.body', 'wb').write(body)
        self.send_response(200)
        self.end_headers()

    def log_message(self, *a):
        pass

s = http.server.HTTPServer(('127.0.0.1', 0), H)
s.timeout = 60
open(f'{d}/proxy.port', 'w').write(f'{s.server_address[1]}\n')
s.handle_request()
PY
	for _ in $(seq 100); do
		[ -s proxy.port ] && break
		sleep 0.1
	done
	http_proxy="http://127.0.0.1:$(cat proxy.port)"
	export http_proxy
}

check() {
	case "${cmd}" in
	"build/perf record "*)
		perf report -i perf.data --stdio --sort sym 2> /dev/null > report
		grep -qE '^ +[0-9.]+%.* spin$' report || fail "perf.data: no samples in spin()"
		;;
	"build/perf flamegraph --asm -- ./prog"*|"build/perf flamegraph --asm record "*)
		test -e perf.data.old || fail "the old perf.data was not kept as perf.data.old"
		has_spin flamegraph.html
		;;
	"build/perf flamegraph --asm "*"--diff before.data"* | \
	"build/perf diff --flamegraph --flamegraph-asm"*)
		has_spin flamegraph.html
		;;
	"build/perf flamegraph --asm"*)
		has_spin flamegraph.html
		grep -q '\[0x[0-9a-f]*\]' flamegraph.html || fail "no instruction leaf"
		;;
	"build/perf flamegraph -o prog.pb.gz"*)
		gzip -t prog.pb.gz || fail "prog.pb.gz is not gzip'd"
		;;
	"build/pprof -top -addresses"*)
		# A row of the top: flat, flat%, sum%, cum, cum%, address, spin.
		grep -qE '^ +[1-9][0-9.]*[a-z]* +[0-9.]+% .* [0-9a-f]+ spin( |$)' out ||
			fail "no address of spin() with samples in the top"
		;;
	"build/perf flamegraph -o - --format pprof | curl "*)
		grep -q '^http://pyroscope:4040/ingest?name=prog.cpu&format=pprof&from=[0-9]*&until=[0-9]*$' \
			ingest.url || fail "Pyroscope was not asked to ingest prog.cpu"
		python3 - ingest.body <<'PY' || fail "no gzip'd profile naming spin in the upload"
import gzip, re, sys
body = open(sys.argv[1], 'rb').read()
i = body.index(b'\x1f\x8b')
assert b'spin' in gzip.decompress(body[i:body.rindex(b'\r\n--')])
PY
		;;
	"PPROF_BINARY_PATH="*"-disasm="*)
		! grep -q "no matches found" out || fail "pprof -disasm found nothing"
		grep -q '^ROUTINE ======================== ' out || fail "no routine disassembled"
		# An instruction with samples: flat, cum, address, text.
		grep -qE '^ +[1-9][0-9.]*[a-z]* +[0-9.]+[a-z]* +[0-9a-f]+: ' out ||
			fail "no instruction with samples"
		;;
	"build/perf report --flamegraph=x.html"*|"build/perf diff --flamegraph=x.html"*)
		has_spin x.html
		rm x.html
		;;
	"build/perf script report flamegraph --asm -f json"*)
		# flamegraph.py's JSON goes to stacks.json, as it says.
		python3 -c "import json, sys; json.load(open(sys.argv[1]))" stacks.json ||
			fail "stacks.json is not JSON"
		has_spin stacks.json
		;;
	*)
		fail "a command this test does not check: add its check"
		;;
	esac
}

test_readme() {
	echo "The README's ${#cmds[@]} commands, as printed, on ./prog"
	local run=0

	for cmd in "${cmds[@]}"; do
		cmd=${cmd//\\n/$'\n'}
		case "${cmd}" in
		"build/perf flamegraph --asm -- ./prog"*) ;;
		*./prog*) build ;;
		esac
		case "${cmd}" in
		*curl*) proxy ;;
		esac
		echo "  ${cmd%%$'\n'*}"
		eval "${cmd}" > out 2>&1 || fail "exit status $?"
		unset http_proxy
		check
		run=$((run + 1))
	done
	[ "${run}" -ge 13 ] || { echo "only ${run} commands found in ${readme}"; exit 1; }
}

run_parts test_readme
