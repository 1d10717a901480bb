#!/bin/bash
# Boundary conditions do what they say: an inflow hydrograph adds its volume
# (times [boundary] inflow_scale),
# a fixed level fills the channel to that level, free outflow lets a dam-break
# wave leave, walls keep everything in.
set -u
: "${SPATE:?SPATE must name the spate program}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# run CONF ARGS...: prints "volume_initial volume_final max_depth"
run() {
	"$SPATE" run "$@" --no-output -q --summary "$tmp/s.json" || { echo "FAIL: spate run $*"; fail=1; return; }
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["volume_initial"], s["volume_final"], s["max_depth"], s["sim_time"])' "$tmp/s.json"
}

# check NAME EXPR: EXPR is a python expression over v0, v1, hmax, t
check() {
	local name=$1 expr=$2
	read -r v0 v1 hmax t <<<"$3"
	if python3 -c "import sys; v0,v1,hmax,t=map(float,sys.argv[1:5]); sys.exit(0 if ($expr) else 1)" "$v0" "$v1" "$hmax" "$t"; then
		echo "ok   $name (v0 = $v0, v1 = $v1, max depth = $hmax)"
	else
		echo "FAIL $name: $expr with v0 = $v0, v1 = $v1, max depth = $hmax, t = $t"
		fail=1
	fi
}

cat >"$tmp/ch.conf" <<'CONF'
[domain]
setup = dambreak1d
nx = 100
ny = 4
dx = 10
dy = 10
[initial]
h_in = 0.5
h_out = 0.5
[boundary]
west = inflow
west_hydrograph = 0 2, 1000 2
west_discharge = width
east = wall
[run]
end_time = 200
CONF
# 2 m^2/s over a 40 m wide boundary for 200 s: 16000 m^3
check "inflow per unit width adds q * width * t" "abs((v1 - v0) - 16000) < 0.01 * 16000" \
	"$(run "$tmp/ch.conf")"
# a hydrograph ramping 0 -> 4 m^2/s over 200 s: 400 m^2/s * 40 m = 16000 m^3
check "inflow hydrograph is integrated" "abs((v1 - v0) - 16000) < 0.02 * 16000" \
	"$(run "$tmp/ch.conf" --boundary.west_hydrograph='0 0, 200 4')"
# total discharge 400 m^3/s over 200 s, whatever the width
check "inflow as total discharge" "abs((v1 - v0) - 80000) < 0.02 * 80000" \
	"$(run "$tmp/ch.conf" --boundary.west_discharge=total --boundary.west_hydrograph='0 400, 1000 400')"
# [boundary] inflow_scale multiplies the hydrograph: 1.5 x 16000 m^3
check "inflow_scale = 1.5 adds 1.5 times the volume" "abs((v1 - v0) - 24000) < 0.01 * 24000" \
	"$(run "$tmp/ch.conf" --boundary.inflow_scale=1.5)"
check "inflow_scale = 0.5 on a total discharge" "abs((v1 - v0) - 40000) < 0.02 * 40000" \
	"$(run "$tmp/ch.conf" --boundary.west_discharge=total --boundary.west_hydrograph='0 400, 1000 400' \
		--boundary.inflow_scale=0.5)"
# fixed level 2 m upstream, outflow downstream: the channel fills to ~2 m
check "fixed level fills the channel to the level" "abs(hmax - 2) < 1e-3 and v1 > 1.9 * v0" \
	"$(run "$tmp/ch.conf" --initial.h_in=1 --initial.h_out=1 --boundary.west=level \
		--boundary.west_level=2 --boundary.east=outflow --run.end_time=600)"
# dam break with free outflow at both ends: water leaves
check "free outflow lets the wave leave" "v1 < 0.98 * v0" \
	"$(run "$tmp/ch.conf" --initial.h_in=2 --initial.h_out=1 --boundary.west=outflow \
		--boundary.east=outflow --run.end_time=300)"
# the same with walls keeps the volume
check "walls keep the volume" "abs(v1 - v0) < 1e-6 * v0" \
	"$(run "$tmp/ch.conf" --initial.h_in=2 --initial.h_out=1 --boundary.west=wall \
		--run.end_time=300)"
exit $fail
