#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# perf-test-parity.sh STOCK_PERF STOCK_SRC [OUT]: all of perf test on our
# build against stock perf built from the same base on this machine
# (make perf-test-parity; not part of make check: it takes half an hour).
#
# STOCK_PERF is a perf built from the pristine base, STOCK_SRC that base's
# tree (its tools/perf/tests/shell are the stock shell tests). Runs each
# perf test in full, one after the other, from its own tree, and writes
# the results side by side to OUT (default build/perf-test-parity.txt):
# "number<TAB>name<TAB>stock<TAB>ours", a line per test and subtest, then
# the tests that pass on stock and fail on ours, which must be none.
# A test that fails on one run and not the other is run again alone on
# both: a load-dependent failure is not a difference. REUSE=stock or
# REUSE=ours keeps that side's results of the last run.

set -e
top=$(cd "$(dirname "$0")/.." && pwd)
stock=${1:?usage: perf-test-parity.sh STOCK_PERF STOCK_SRC [OUT]}
stock_src=${2:?usage: perf-test-parity.sh STOCK_PERF STOCK_SRC [OUT]}
out=${3:-$top/build/perf-test-parity.txt}
ours=$top/build/perf
ours_src=$top/build/src
work=$top/build/perf-test-parity
mkdir -p "$work"

run() {	# run NAME PERF SRC [TEST...]
	local name=$1 perf=$2 src=$3

	shift 3
	(cd "$src/tools/perf" && PERF_EXEC_PATH="$src/tools/perf" "$perf" test "$@" 2>&1) |
		tee "$work/$name.log" | grep -E '^ *[0-9]+(\.[0-9]+)?: ' |
		sed -E 's/^ *([0-9.]+): (.*[^ ]) *: (Ok|FAILED!|Skip.*)$/\1\t\2\t\3/' |
		grep -P '\t' > "$work/$name.tsv" || true
}

# REUSE=stock or REUSE=ours: keep that side's results of the last run.
if [ "$REUSE" != stock ] || [ ! -s "$work/stock.tsv" ]; then
	echo "  PERF TEST stock"
	run stock "$stock" "$stock_src"
fi
if [ "$REUSE" != ours ] || [ ! -s "$work/ours.tsv" ]; then
	echo "  PERF TEST ours"
	run ours "$ours" "$ours_src"
fi

# name -> result for each; joined on the test's name (numbers move).
python3 - "$work/stock.tsv" "$work/ours.tsv" > "$work/joined.tsv" <<'PY'
import sys
def read(p):
    r = {}
    for line in open(p, errors='replace'):
        num, name, res = line.rstrip('\n').split('\t')
        r.setdefault(name, (num, res))
    return r
s, o = read(sys.argv[1]), read(sys.argv[2])
def order(name):
    return [float(x) for x in (o.get(name) or s[name])[0].split('.')]
for name in sorted(set(s) | set(o), key=order):
    num = (o.get(name) or s[name])[0]
    print('\t'.join([num, name, s.get(name, ('', '-'))[1], o.get(name, ('', '-'))[1]]))
PY

# Differences again, alone, on both: one line each.
: > "$work/rerun.tsv"
while IFS=$'\t' read -r num name sres ores; do
	[ "$sres" = "$ores" ] && continue
	case "$sres$ores" in *FAILED*) ;; *) continue ;; esac
	snum=$(awk -F'\t' -v n="$name" '$2 == n { print $1; exit }' "$work/stock.tsv")
	onum=$(awk -F'\t' -v n="$name" '$2 == n { print $1; exit }' "$work/ours.tsv")
	s2=-; o2=-
	[ -n "$snum" ] && s2=$(run stock-one "$stock" "$stock_src" "${snum%%.*}" &&
		awk -F'\t' -v n="$name" '$2 == n { print $3 }' "$work/stock-one.tsv")
	[ -n "$onum" ] && o2=$(run ours-one "$ours" "$ours_src" "${onum%%.*}" &&
		awk -F'\t' -v n="$name" '$2 == n { print $3 }' "$work/ours-one.tsv")
	printf '%s\t%s\t%s\t%s\n' "$num" "$name" "$s2" "$o2" >> "$work/rerun.tsv"
done < "$work/joined.tsv"

{
	printf 'number\tname\tstock\tours\n'
	cat "$work/joined.tsv"
	printf '\nrun again alone:\n'
	cat "$work/rerun.tsv"
	printf '\npass on stock, fail on ours:\n'
	awk -F'\t' '$3 == "Ok" && $4 == "FAILED!"' "$work/rerun.tsv"
} > "$out"
worse=$(awk -F'\t' '$3 == "Ok" && $4 == "FAILED!"' "$work/rerun.tsv" | wc -l)
echo "  WROTE $out: $(grep -c . "$work/joined.tsv") tests and subtests," \
	"$worse pass on stock and fail on ours"
