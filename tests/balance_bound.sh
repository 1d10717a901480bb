#!/bin/bash
# tools/balance-bound: the bound it prints from a log is the arithmetic of
# its comment, and it reads the plans spate logs today (a format change
# breaks this test, not the tool silently): a dam break in the south-west
# corner of a grid cut at its middle row has nearly all its work in the
# southern subdomain, a flood centred on the cut has it evenly.
set -u
: "${SPATE:?SPATE must name the spate program}"
: "${top_srcdir:?top_srcdir must name the source tree}"
tool="$top_srcdir/tools/balance-bound"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fail=1; }

# Two measures: work (3, 1) and (2, 2): busiest 3 + 2, mean 2 + 2: 1.25.
cat >"$tmp/a.log" <<'LOG'
spate: t = 1 s
spate: balance at step 50: [0: rows 0-9 -> 0-9, work 3, 1e-08 s/unit] [1: rows 10-19 -> 10-19, work 1, 1e-08 s/unit]; slowest 1 -> 1 s
spate: balance at step 100: [0: rows 0-9 -> 0-9, work 2, 1e-08 s/unit] [1: rows 10-19 -> 10-19, work 2, 1e-08 s/unit]; slowest 1 -> 1 s
LOG
out=$("$tool" "$tmp/a.log")
grep -q "^bound: 1.250 " <<<"$out" && ok "bound of two measures: 1.250" || bad "bound of two measures: $out"
grep -q "^subdomain 0: work 5 (62.5%)" <<<"$out" && ok "work of subdomain 0" || bad "work of subdomain 0: $out"
out=$("$tool" <"$tmp/a.log")
grep -q "^measures 2, subdomains 2" <<<"$out" && ok "standard input" || bad "standard input: $out"
if echo "spate: done" | "$tool" >/dev/null 2>&1; then
	bad "a log without plans gave no error"
else
	ok "a log without plans is an error"
fi

# run NAME ARGS: a traced two-subdomain run on the CPU, never moving rows
run() {
	local name=$1
	shift
	SPATE_BALANCE_TRACE=1 "$SPATE" run "$SPATE_SCENARIOS/bumps_dambreak.conf" --device=cpu \
		--domain.nx=96 --domain.ny=96 --initial.h_out=0 --initial.radius=60 \
		--run.end_time=20 --parallel.subdomains=2 --parallel.balance=rows \
		--parallel.balance_interval=10 --parallel.balance_gain=1e6 --no-output "$@" \
		>"$tmp/$name.log" 2>&1 || { bad "spate run $name"; return 1; }
	"$tool" "$tmp/$name.log" >"$tmp/$name.out" || { bad "balance-bound on $name"; return 1; }
	sed -n 's/^bound: \([0-9.]*\) .*/\1/p' "$tmp/$name.out"
}
# (the bumps, two of three in the south, tilt the centred case a little)
b=$(run corner --initial.dam_x=60 --initial.dam_y=60)
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 1.3 else 1)" "${b:-0}" &&
	ok "dam in a corner: bound $b > 1.3" || bad "dam in a corner: bound '$b', wanted > 1.3"
c=$(run centre)
python3 -c "import sys; sys.exit(0 if 1 <= float(sys.argv[1]) < 1.2 and float(sys.argv[2]) - float(sys.argv[1]) > 0.2 else 1)" "${c:-0}" "${b:-0}" &&
	ok "dam at the centre: bound $c < 1.2, below the corner's" ||
	bad "dam at the centre: bound '$c', wanted 1-1.2 and 0.2 below the corner's"
exit $fail
