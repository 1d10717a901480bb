#!/bin/bash
# gauges_gpu.sh: gauges kept on the GPU = gauges sampled by the driver.
#
# The single-GPU backend keeps the gauges' maxima, arrival times and time
# series rows on the device (gauge_kern.h, k_gauges) and the driver reads
# them after advances of many steps; with SPATE_GAUGES_HOST=1 the driver
# samples them after every step instead (one step per advance).  A dam
# break over bumps onto a dry bed with gauges in and out of the flood
# (neighbourhoods of 7 x 7 cells, some at the grid's edge), rows every
# 0.5 s (several per advance), then rows never after the first
# (interval 0): gauges.csv, gauges_summary.csv and every grid must be the
# same bytes.  Then the same run stopped at a step with checkpoints and
# continued with --restart (the tracks go into the checkpoint and back to
# the device), and on two and three GPU subdomains (each keeps those of
# its cells; with balance = rows they follow the rows that move): the same
# bytes again.  Skips (77) without a GPU.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "gauges_gpu.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
	echo "gauges_gpu.sh: no CUDA GPU (or spate built without CUDA): skipped"
	exit 77
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-gauges.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

result() { # result OK MESSAGE
	if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}

printf 'name,x,y\nC,1000,1000\nE,1190,1010\nN,990,1450\nFar,1900,1900\nEdge,2,1000\n' \
	>"$tmp/gauges.csv"
base=(run "$scen/bumps_dambreak.conf" --domain.nx=200 --domain.ny=200 --domain.dx=10
	--domain.dy=10 --initial.h_out=0 --initial.radius=300 --run.end_time=60
	--output.interval=20 --device=cuda --output.format=ascii "--gauges.file=$tmp/gauges.csv"
	--gauges.radius=3 --gauges.threshold=0.01)

# same NAME REF DIR: every output of REF is in DIR and equal
same() {
	local name=$1 ref=$2 dir=$3 bad=() f n=0
	for f in "$ref"/*.asc "$ref"/gauges.csv "$ref"/gauges_summary.csv; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		cmp -s "$f" "$dir/$(basename "$f")" || bad+=("$(basename "$f")")
	done
	result $(( ${#bad[@]} > 0 || n < 3 )) "$name: $n files equal ($(wc -l <"$ref/gauges.csv") \
rows of gauges.csv)${bad:+; differ: ${bad[*]}}"
}

# run NAME ARGS...
run() {
	local name=$1
	shift
	timeout 120 "$SPATE" "${base[@]}" "--output.dir=$tmp/$name" "$@" >/dev/null 2>"$tmp/$name.err"
	local rc=$?
	result $rc "$name: runs (exit $rc$( [ $rc -ne 0 ] && echo ": $(tail -n 2 "$tmp/$name.err")"))"
}

for iv in 0.5 0; do
	run dev$iv --gauges.interval=$iv
	grep -q 'gauges kept by the cuda backend' "$tmp/dev$iv.err"
	result $? "interval $iv: the gauges were kept on the device"
	SPATE_GAUGES_HOST=1 run host$iv --gauges.interval=$iv
	grep -q 'gauges kept by the' "$tmp/host$iv.err"
	result $(( $? == 0 )) "interval $iv, SPATE_GAUGES_HOST=1: sampled by the driver"
	same "interval $iv: kept on the device = sampled after every step" "$tmp/host$iv" "$tmp/dev$iv"
done
rows=$(($(wc -l <"$tmp/dev0.5/gauges.csv") - 1))
result $(( rows < 5 * 100 )) "interval 0.5: $rows rows of 5 gauges (at least 100 times)"
awk -F, '$1 == "Far" && $4 == "" && $7 == "" { f = 1 } $1 == "C" && $4 != "" && $7 != "" &&
	$6 > 0.1 { c = 1 } END { exit !(f && c) }' "$tmp/dev0.5/gauges_summary.csv"
result $? "summary: gauge C wet with an arrival time, Far never wet (no level, no arrival)"

# stopped at step 40 with checkpoints, continued
timeout 120 "$SPATE" "${base[@]}" --gauges.interval=0.5 "--output.dir=$tmp/stop" \
	--run.max_steps=40 --checkpoint-every=3 >/dev/null 2>"$tmp/stop.err1"
ck=$(ls "$tmp/stop"/checkpoint.* 2>/dev/null | head -n 1)
result $(( ${#ck} == 0 )) "stopped at step 40 with a checkpoint (${ck##*/})"
if [ -n "$ck" ]; then
	run stop --gauges.interval=0.5 --restart "$ck"
	same "restarted from ${ck##*/}" "$tmp/dev0.5" "$tmp/stop"
fi

# two GPU subdomains (one GPU or two), static, then with rows moving at
# every measure (seeded speeds: the same moves under any load)
run two --gauges.interval=0.5 --parallel.subdomains=2
grep -q 'gauges kept by the cuda backend' "$tmp/two.err"
result $? "two GPU subdomains: the gauges were kept on the devices"
same "two GPU subdomains" "$tmp/dev0.5" "$tmp/two"
SPATE_BALANCE_FAKE_SPEED=3 run moving --gauges.interval=0.5 --parallel.subdomains=3 \
	--parallel.balance=rows --parallel.balance_interval=7 --parallel.balance_gain=0
mv=$(sed -n 's/.*re-decomposition.*(\([0-9]*\) moves.*/\1/p' "$tmp/moving.err")
result $(( ${mv:-0} < 5 )) "three GPU subdomains, balance = rows: ${mv:-no} moves"
same "three GPU subdomains, rows moving" "$tmp/dev0.5" "$tmp/moving"

exit $fail
