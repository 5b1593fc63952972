# SPDX-License-Identifier: GPL-2.0
#
# perf flamegraph: an overlay on the Linux tree.
#
#   make               install build deps (as root), fetch and extract the
#                      pinned base, overlay tools/, apply patches/, build
#                      perf into build/perf
#   make check         build, then run our tests and the closest upstream
#                      perf tests; the last line is "N passed, N failed"
#                      (installs Chromium and playwright-core for the
#                      browser test of the HTML viewer first)
#   make check-loaded  make check while one busy loop per CPU holds every
#                      CPU, as on a machine busy with other work
#   make patches       the mailing-list series of patches/, one directory
#                      each, in build/patches/NN-name/
#   make check-patches apply them patch by patch, build, checkpatch, test
#   make patches-branch  the series as a git branch to edit, build/stack
#   make patches-save  patches/ and tools/ back from build/stack
#                      (Documentation/patches.rst)
#   make bench         time perf flamegraph against perf script, report,
#                      annotate and flamegraph.py: Documentation/benchmarks.md
#   make bench-viewer  time the HTML viewer in Chromium on synthetic trees,
#                      write Documentation/viewer-benchmark.md
#   make perf-test-parity  all of perf test, ours against stock perf of
#                      the same base: Documentation/perf-test-parity.md
#   make LIBBFD=1      the same with binutils' libbfd and libopcodes
#                      (perf's BUILD_NONDISTRO=1), binutils 2.44 built
#                      from Debian's source; plain make switches back
#   make check-libbfd  make LIBBFD=1, then the test of what it adds: a
#                      BPF program's leaves from perf's BPF disassembler
#   make asan          build/asan/perf with AddressSanitizer and UBSan, and
#                      run perf flamegraph under it on the test inputs
#   make fuzz          fuzz the flame-graph tree and writers with libFuzzer
#                      for FUZZ_TIME seconds (default 60)
#   make clean         remove perf's objects (keeps the extracted base)
#   make distclean     remove build/ (the downloaded .deb stays cached)
#
# See Documentation/overlay.rst.

include scripts/base.conf

B	:= build
BASE	:= $(B)/base
SRC	:= $(B)/src
OBJ	:= $(CURDIR)/$(B)/obj
PERF	:= $(B)/perf
MAN	:= $(B)/man/man1/perf-flamegraph.1
JOBS	?= $(shell nproc)

# perf is built as a distribution builds it, but for GTK2 (off unless
# asked for) and Rust: the PMU event tables are on (perf list, perf stat
# -M and upstream's metric tests need them), BPF skeletons are on (clang builds them; perf record --uid needs them);
# capstone, LLVM and objdump are the disassemblers. LLVM is Debian 12's
# llvm-14-dev, whose llvm-config is named llvm-config-14. NO_RUST: Debian
# 12's toolchain cannot link perf's Rust test workload. PYTHON: the
# system's python3, else perf links the libpython of the first python3 in
# PATH (pyenv's), and its python scripts break where PATH lacks that one.
# build/ is perf's prefix: its perfexecdir, where perf script finds its
# scripts (perf script report ...), is a link to the assembled tree,
# which holds them as an installed perf's does.
# make LIBBFD=1: perf links binutils' libbfd and libopcodes only with
# BUILD_NONDISTRO=1 (their licence keeps them out of distributable
# builds), of binutils 2.42 or later, which Debian 12 lacks: bfd, opcodes
# and libiberty of Debian's binutils-source are built into
# build/binutils (scripts/build-binutils.sh), perf into build/obj-libbfd,
# and build/perf points at it until a make without LIBBFD points it
# back. LDFLAGS is perf's environment, not its command line, which would
# override the flags perf's Makefile.config adds to it.
BINUTILS := $(CURDIR)/$(B)/binutils
PERF_ENV :=
ifdef LIBBFD
OBJ	:= $(CURDIR)/$(B)/obj-libbfd
PERF_EXTRA += BUILD_NONDISTRO=1 EXTRA_CFLAGS=-I$(BINUTILS)/include
PERF_ENV := LDFLAGS='-L$(BINUTILS)/lib -Wl,-rpath,$(BINUTILS)/lib'
endif

PERF_MAKEFLAGS := O=$(OBJ) \
		  NO_RUST=1 LLVM_CONFIG=/usr/bin/llvm-config-14 \
		  PYTHON=/usr/bin/python3 mandir=$(CURDIR)/$(B)/man \
		  prefix=$(CURDIR)/$(B) $(PERF_EXTRA)

# The series of patches/, one directory each (scripts/stack.sh).
SERIES	:= $(wildcard patches/*/series patches/*/cover-letter patches/*/*.patch) \
	   scripts/stack.sh

all: $(PERF) $(MAN)

.PHONY: all deps browser-deps check check-loaded check-libbfd bench bench-viewer perf-test-parity patches check-patches \
	patches-branch patches-save asan \
	fuzz clean distclean FORCE

$(B)/.deps: scripts/deps.sh
	@mkdir -p $(B)
	@scripts/deps.sh
	@touch $@

deps: $(B)/.deps

$(BASE)/.base-version: scripts/base.conf scripts/base-paths.txt | $(B)/.deps
	@scripts/extract-base.sh "$$(scripts/fetch-base.sh)" $(BASE)

$(SRC)/.applied: $(BASE)/.base-version $(SERIES) scripts/assemble.sh
	@scripts/assemble.sh $(BASE) $(SRC) --reset
	@touch $@

$(PERF): $(SRC)/.applied $(if $(LIBBFD),$(BINUTILS)/.version) FORCE
	@scripts/assemble.sh $(BASE) $(SRC)
	@# Objects and generated files of another base or other flags
	@# break the build.
	@printf '%s\n%s\n' "$$(cat $(BASE)/.base-version)" "$(PERF_MAKEFLAGS)$(if $(PERF_ENV), $(PERF_ENV))" \
		> $(OBJ).build-config
	@cmp -s $(OBJ).build-config $(OBJ)/.build-config || rm -rf $(OBJ)
	@mkdir -p $(OBJ)
	@$(PERF_ENV) $(MAKE) -s -C $(SRC)/tools/perf -j$(JOBS) $(PERF_MAKEFLAGS)
	@mv $(OBJ).build-config $(OBJ)/.build-config
	@ln -sf $(notdir $(OBJ))/perf $(PERF)
	@# The python binding and the JVMTI agent beside perf, where perf
	@# test looks for them.
	@ln -sfn $(notdir $(OBJ))/python $(B)/python
	@ln -sf $(notdir $(OBJ))/libperf-jvmti.so $(B)/libperf-jvmti.so
	@mkdir -p $(B)/libexec
	@ln -sfn $(CURDIR)/$(SRC)/tools/perf $(B)/libexec/perf-core
	@echo "  PERF   $(PERF): $$($(PERF) version)"

$(BINUTILS)/.version: scripts/binutils.conf scripts/build-binutils.sh | $(B)/.deps
	@scripts/build-binutils.sh "$$(scripts/fetch-base.sh --binutils)" $(BINUTILS)

# perf help flamegraph: perf looks in the mandir it was built with.
# asciidoc must run with the system python, not one earlier in PATH.
$(MAN): tools/perf/Documentation/perf-flamegraph.txt $(SRC)/.applied
	@scripts/assemble.sh $(BASE) $(SRC)
	@mkdir -p $(B)/doc
	@PATH=/usr/bin:$$PATH $(MAKE) -s -C $(SRC)/tools/perf/Documentation \
		O=$(CURDIR)/$(B)/doc/ $(CURDIR)/$(B)/doc/perf-flamegraph.1
	@install -D -m 644 $(B)/doc/perf-flamegraph.1 $@
	@echo "  MAN    $@"

# The browser test of the HTML viewer and make bench-viewer: Debian's
# chromium, and playwright-core (no browser download) from the npm
# registry at the version scripts/browser/package-lock.json pins, in
# build/node.
NODE	:= $(B)/node

$(NODE)/.installed: scripts/browser/package.json scripts/browser/package-lock.json
	@mkdir -p $(NODE)
	@cp scripts/browser/package.json scripts/browser/package-lock.json $(NODE)/
	@echo "  NPM    $(NODE): playwright-core"
	@cd $(NODE) && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --ignore-scripts \
		--no-audit --no-fund --loglevel=error > /dev/null
	@touch $@

# No stamp for the packages: one not installed for want of root is
# looked for again next time, and the look takes a few milliseconds.
browser-deps: $(NODE)/.installed
	@scripts/deps.sh --browser

# The pprof test's consumer: Google's pprof, built from Debian's source
# (golang-github-google-pprof-dev) with Debian's Go, in GOPATH mode: no
# network. The tests find it as $PPROF.
PPROF_BIN := $(B)/pprof

$(PPROF_BIN): scripts/deps.sh
	@scripts/deps.sh --pprof
	@echo "  GO     $@: pprof"
	@GOPATH=/usr/share/gocode GO111MODULE=off GOFLAGS= GOCACHE=$(CURDIR)/$(B)/go-cache \
		go build -o $@ github.com/google/pprof

export PPROF := $(CURDIR)/$(PPROF_BIN)

check: $(PERF) $(MAN) browser-deps $(PPROF_BIN)
	@scripts/run-tests.sh $(PERF) $(SRC)/tools/perf

# The tests must pass on a busy machine too: the same run, with every CPU
# held by a busy loop.
check-loaded: $(PERF) $(MAN) browser-deps $(PPROF_BIN)
	@scripts/check-loaded.sh scripts/run-tests.sh $(PERF) $(SRC)/tools/perf

# Not in make check: building binutils and a second perf takes minutes.
# build/perf is the libbfd one afterwards; make switches it back.
check-libbfd:
	@$(MAKE) -s LIBBFD=1
	@cd $(SRC)/tools/perf && PATH=$(CURDIR)/$(B):$$PATH $(CURDIR)/$(PERF) test \
		"perf flamegraph --asm: a BPF program's instructions" 2>&1 | \
		tee $(CURDIR)/$(B)/check-libbfd.log
	@grep -qE ': (Ok|Skip.*)$$' $(B)/check-libbfd.log

# The mailing-list series of patches/, one directory each:
# build/patches/NN-name/, and their check: each patch applies, builds
# with WERROR=1 and passes checkpatch --strict; each series' tests pass
# on its last patch.
patches: $(BASE)/.base-version
	@scripts/make-patches.sh $(B)/patches

# The series as a git branch to edit (build/stack), and back into
# patches/ and tools/: Documentation/patches.rst.
patches-branch: $(BASE)/.base-version
	@scripts/stack.sh branch

patches-save:
	@scripts/stack.sh save

# The man page for the series' perf help test: the same text as its patch.
check-patches: patches $(MAN) $(PPROF_BIN)
	@MANDIR=$(CURDIR)/$(B)/man scripts/check-patches.sh $(BASE) $(B)/patches

# perf flamegraph against perf script, report, annotate and flamegraph.py
# on recorded profiles: Documentation/benchmarks.md. Minutes, not seconds.
bench: $(PERF)
	@scripts/bench-flamegraph.sh

bench-viewer: $(PERF) browser-deps
	@scripts/bench-viewer.sh $(PERF)

# All of perf test on our build against stock perf from the same base
# (upstream's defaults, NO_RUST=1 as ours), built into build/stock:
# build/perf-test-parity.txt, summarised in Documentation/perf-test-parity.md.
# An hour: each perf test takes half of it on two CPUs.
perf-test-parity: $(PERF)
	@mkdir -p $(B)/stock
	@$(MAKE) -s -C $(BASE)/tools/perf -j$(JOBS) O=$(CURDIR)/$(B)/stock NO_RUST=1 \
		prefix=$(CURDIR)/$(B)/stock
	@scripts/perf-test-parity.sh $(B)/stock/perf $(BASE)

# The same perf, with sanitizers; warnings are not errors there, as gcc's
# -fsanitize changes what -Wformat-truncation sees.
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -g

asan: $(SRC)/.applied
	@scripts/assemble.sh $(BASE) $(SRC)
	@mkdir -p $(B)/asan
	@$(MAKE) -s -C $(SRC)/tools/perf -j$(JOBS) \
		$(subst O=$(OBJ),O=$(CURDIR)/$(B)/asan,$(PERF_MAKEFLAGS)) WERROR=0 \
		EXTRA_CFLAGS="$(ASAN_FLAGS)" LDFLAGS="$(ASAN_FLAGS)"
	@scripts/check-asan.sh $(B)/asan/perf

FUZZ_TIME ?= 60

fuzz: $(PERF)
	@scripts/fuzz.sh $(FUZZ_TIME)

clean:
	rm -rf $(OBJ) $(PERF) $(B)/libexec $(B)/asan $(B)/fuzz

distclean:
	rm -rf $(B)
