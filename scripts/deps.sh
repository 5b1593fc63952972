#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages needed to build and test perf flamegraph.
# As root, installs what is missing with apt-get; otherwise prints the
# single apt-get line to run and fails.
#
# deps.sh --browser: the packages only the browser test of the HTML
# viewer and make bench-viewer need (Chromium). Not root and missing:
# says so and succeeds, as that test then skips.
#
# deps.sh --pprof: Go and pprof's source, from which make check builds
# the pprof that the pprof test reads perf's profiles with.
#
# llvm-14-dev: perf's LLVM disassembler (Linux 7.3 takes LLVM 13 or
# later; the Makefile points LLVM_CONFIG at its llvm-config-14). The base
# is fetched from its own apt source (scripts/fetch-base.sh), whose lz4
# Packages index apt's own apt-helper reads: no lz4 package needed.
# clang: perf's BPF skeletons (perf record --uid, off-CPU profiling).
# libdebuginfod-dev: perf's debuginfod client (perf record, perf
# buildid-cache, perf probe and perf flamegraph --debuginfod).
# debuginfod: elfutils' server, which the --debuginfod test serves its
# program's debug file with on 127.0.0.1.
# strace: upstream's annotate test checks with it that perf annotate
# removes the copy of the vdso it makes in /tmp.

PKGS="build-essential flex bison pkg-config xz-utils patch git debuginfod
libelf-dev libdw-dev libdebuginfod-dev libtraceevent-dev libtracefs-dev libcapstone-dev
llvm-14-dev clang
zlib1g-dev libzstd-dev liblzma-dev binutils binutils-dev libiberty-dev
python3 python3-dev python3-setuptools libslang2-dev libunwind-dev
libnuma-dev libcap-dev libperl-dev libssl-dev libbabeltrace-dev
libpfm4-dev systemtap-sdt-dev
asciidoc-base xmlto docbook-xml docbook-xsl xsltproc man-db bzip2 strace"

BROWSER_PKGS="chromium fonts-dejavu-core"
PPROF_PKGS="golang-go golang-github-google-pprof-dev"

what="build dependencies"
if [ "$1" = --browser ]; then
	PKGS=$BROWSER_PKGS
	what="packages of the browser test"
elif [ "$1" = --pprof ]; then
	PKGS=$PPROF_PKGS
	what="packages of pprof"
fi

missing=
for p in $PKGS; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "missing $what; run as root:" >&2
	echo "  apt-get install -y$missing" >&2
	[ "$1" = --browser ] && exit 0
	exit 1
fi
echo "  DEPS   installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends $missing >/dev/null ||
{ apt-get update >/dev/null &&
  apt-get install -y --no-install-recommends $missing >/dev/null; } ||
{ echo "apt-get install failed:$missing" >&2; exit 1; }
