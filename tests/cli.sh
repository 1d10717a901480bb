#!/bin/bash
# cli.sh: the spate command line: --help, --version, devices, a short demo
# run with its JSON summary and ESRI ASCII grids, --quiet, --print-params.
#
# Environment: SPATE (the program), SPATE_SCENARIOS (the scenarios/ folder);
# both set by make check.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "cli.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
if [ ! -f "$scen/circular_dambreak.conf" ]; then
	echo "cli.sh: no $scen/circular_dambreak.conf (set SPATE_SCENARIOS)" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-cli.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

check() {   # check NAME CONDITION-STATUS [DETAIL]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1${3:+: $3}"
		fail=$((fail + 1))
	fi
}

# ---------------------------------------------------------------- --help
"$SPATE" --help >"$tmp/out" 2>"$tmp/err"
check "--help exits 0" $?
for word in run devices bench --version --summary; do
	grep -qF -- "$word" "$tmp/out"
	check "--help mentions $word" $?
done
"$SPATE" -h >"$tmp/out2" 2>/dev/null && cmp -s "$tmp/out" "$tmp/out2"
check "-h is --help" $?
"$SPATE" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "Usage" "$tmp/err"
check "no arguments: exit 1 with usage on stderr" $? "exit $rc"

# ---------------------------------------------------------------- --version
"$SPATE" --version >"$tmp/out" 2>"$tmp/err"
check "--version exits 0" $?
grep -Eq '^spate [0-9]+\.[0-9]+(\.[0-9]+)?' "$tmp/out"
check "--version prints 'spate X.Y.Z'" $? "$(head -n 1 "$tmp/out")"
grep -Eq '^precision: (single|double)$' "$tmp/out"
check "--version prints the precision" $?
grep -Eq '^boussinesq precision: (single|double)$' "$tmp/out"
check "--version prints the Boussinesq module's precision" $?

# ---------------------------------------------------------------- devices
"$SPATE" devices >"$tmp/out" 2>"$tmp/err"
check "devices exits 0" $?
grep -q '^cpu ' "$tmp/out"
check "devices lists cpu" $? "$(cat "$tmp/out")"
grep -q '^cuda ' "$tmp/out"
check "devices has a cuda line (a GPU, none, or not built)" $?

# ---------------------------------------------------------------- a demo run
out="$tmp/out dir"   # a space in the path on purpose
args=(run "$scen/circular_dambreak.conf" --run.end_time=2 --domain.nx=50 --domain.ny=50
	--domain.dx=40 --domain.dy=40 --device=cpu "--output.dir=$out" --output.format=ascii)
"$SPATE" "${args[@]}" --summary "$tmp/s.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "demo run exits 0" $rc "exit $rc: $(tail -n 3 "$tmp/err")"
[ -s "$tmp/err" ]
check "demo run reports on stderr without --quiet" $?

if [ -f "$tmp/s.json" ] && command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/s.json" <<'EOF' >"$tmp/py" 2>&1
import json, sys
s = json.load(open(sys.argv[1]))
need = ["backend", "devices", "precision", "nx", "ny", "steps", "sim_time", "wall_s",
        "cell_updates_per_s", "volume_initial", "volume_final", "max_depth"]
missing = [k for k in need if k not in s]
if missing:
    sys.exit("missing keys: " + ", ".join(missing))
bad = []
if s["backend"] != "cpu": bad.append("backend %r" % s["backend"])
if not isinstance(s["devices"], list) or not s["devices"]: bad.append("devices %r" % s["devices"])
if s["precision"] not in ("single", "double"): bad.append("precision %r" % s["precision"])
if s["nx"] != 50 or s["ny"] != 50: bad.append("nx, ny = %r, %r" % (s["nx"], s["ny"]))
if not (isinstance(s["steps"], int) and s["steps"] > 0): bad.append("steps %r" % s["steps"])
if abs(s["sim_time"] - 2) > 1e-9: bad.append("sim_time %r" % s["sim_time"])
if not s["wall_s"] >= 0: bad.append("wall_s %r" % s["wall_s"])
if not s["cell_updates_per_s"] >= 0: bad.append("cell_updates_per_s %r" % s["cell_updates_per_s"])
v0, v1 = s["volume_initial"], s["volume_final"]
if not (v0 > 0 and abs(v1 - v0) <= 1e-6 * v0): bad.append("volume %r -> %r" % (v0, v1))
if not (0.999 < s["max_depth"] < 1.01): bad.append("max_depth %r" % s["max_depth"])
if bad:
    sys.exit("bad values: " + "; ".join(bad))
EOF
	check "summary JSON parses and has the run's values" $? "$(cat "$tmp/py")"
elif [ -f "$tmp/s.json" ]; then
	missing=""
	for k in backend devices precision nx ny steps sim_time wall_s cell_updates_per_s \
		volume_initial volume_final max_depth; do
		grep -q "\"$k\":" "$tmp/s.json" || missing="$missing $k"
	done
	[ -z "$missing" ]
	check "summary JSON has every key (no python3: grep only)" $? "missing:$missing"
else
	check "summary JSON written" 1 "no $tmp/s.json"
fi

# ESRI ASCII grid: the six header lines, then 50 rows of 50 numbers.
for f in h_0000 h_0001 w_0001 u_0001 v_0001; do
	if [ ! -f "$out/$f.asc" ]; then
		check "$f.asc written" 1 "not in $out: $(ls "$out" 2>&1 | tr '\n' ' ')"
		continue
	fi
	awk 'NR == 1 { ok = ($1 == "ncols" && $2 == 50) }
	     NR == 2 { ok = ok && ($1 == "nrows" && $2 == 50) }
	     NR == 3 { ok = ok && (tolower($1) == "xllcorner" && $2 == 0) }
	     NR == 4 { ok = ok && (tolower($1) == "yllcorner" && $2 == 0) }
	     NR == 5 { ok = ok && ($1 == "cellsize" && $2 == 40) }
	     NR == 6 { ok = ok && (tolower($1) == "nodata_value" && NF == 2) }
	     NR > 6  { rows++; if (NF != 50) ok = 0
	               for (i = 1; i <= NF; i++) if ($i !~ /^-?[0-9.]+([eE][-+]?[0-9]+)?$/) ok = 0 }
	     END { exit !(ok && rows == 50) }' "$out/$f.asc"
	check "$f.asc has a valid header and 50 x 50 values" $? "$(head -n 7 "$out/$f.asc")"
done
# the initial depth: 1 m inside the 200 m cylinder, 0.1 m outside
awk 'NR > 6 { for (i = 1; i <= NF; i++) {
		if ($i > max) max = $i
		if (min == "" || $i < min) min = $i } }
     END { exit !(max > 0.9999 && max < 1.0001 && min > 0.09999 && min < 0.10001) }' \
	"$out/h_0000.asc"
check "h_0000.asc holds the initial dam (depths 0.1 and 1)" $?

# ---------------------------------------------------------------- --quiet
"$SPATE" "${args[@]}" --quiet --no-output >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]
check "--quiet: exit 0 and nothing on stderr" $? "exit $rc, stderr: $(head -c 500 "$tmp/err")"
"$SPATE" "${args[@]}" -q --no-output --summary - >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q '"sim_time"' "$tmp/out"
check "-q with --summary -: the summary on stdout, nothing on stderr" $? "exit $rc"

# ---------------------------------------------------------------- DEM cell size
# A DEM run's summary gives the DEM's cell size (not the [domain] dx, dy
# defaults), also when [domain] cellsize resamples it.
{
	printf 'ncols 16\nnrows 12\nxllcorner 1000\nyllcorner 2000\ncellsize 2.5\nNODATA_value -9999\n'
	for j in 1 2 3 4 5 6 7 8 9 10 11 12; do
		echo "1 1.1 1.2 1.3 1.4 1.5 1.6 1.7 1.8 1.9 2 2.1 2.2 2.3 2.4 2.5"
	done
} >"$tmp/dem.asc"
# a DEM scenario names no grid of its own (the DEM's is the grid)
printf '[domain]\nsetup = dem\n[run]\nend_time = 1\n' >"$tmp/dem.conf"
for cs in "" 7.5; do
	want=${cs:-2.5}
	"$SPATE" run "$tmp/dem.conf" "--domain.dem=$tmp/dem.asc" \
		--initial.fill_level=1.3 ${cs:+--domain.cellsize=$cs} --run.end_time=1 -q --no-output \
		--summary "$tmp/dem.json" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 0 ] && grep -q "\"dx\": $want,\$" "$tmp/dem.json" &&
		grep -q "\"dy\": $want,\$" "$tmp/dem.json"
	check "DEM run${cs:+ at cellsize $cs}: the summary's dx = dy = $want" $? \
		"exit $rc: $(grep '"d[xy]"' "$tmp/dem.json" 2>/dev/null) $(head -c 300 "$tmp/err")"
done

# ---------------------------------------------------------------- --print-params
"$SPATE" run "$scen/circular_dambreak.conf" --print-params --physics.manning=0.03 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "--print-params exits 0" $rc
grep -qx '\[physics\]' "$tmp/out"
check "--print-params prints [physics]" $?
for sec in domain initial boundary run output; do
	grep -qx "\[$sec\]" "$tmp/out"
	check "--print-params prints [$sec]" $?
done
awk '$1 == "manning" && $2 == "=" { found = 1; ok = ($3 + 0 == 0.03) }
     END { exit !(found && ok) }' "$tmp/out"
check "--print-params shows an override (manning = 0.03)" $? "$(grep manning "$tmp/out")"
# the printed parameters are a valid scenario that gives the same parameters
cp "$tmp/out" "$tmp/printed.conf"
"$SPATE" run "$tmp/printed.conf" --print-params >"$tmp/out2" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 0 ] && cmp -s "$tmp/out" "$tmp/out2"
check "--print-params output reads back to the same parameters" $? \
	"exit $rc: $(head -n 2 "$tmp/err")"
"$SPATE" run "$scen/circular_dambreak.conf" --print-params "--output.dir=$tmp/pp" >/dev/null 2>&1
[ ! -e "$tmp/pp" ]
check "--print-params runs nothing (no output folder)" $?

# ---------------------------------------------------------------- transport
# [parallel] transport = nccl in a spate without NCCL: a clear error, exit 1
if grep -qx 'NCCL: no' <("$SPATE" --version); then
	"$SPATE" run "$scen/circular_dambreak.conf" --print-params \
		--parallel.transport=nccl >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ "$rc" -eq 1 ] && grep -q 'transport = nccl.*without NCCL' "$tmp/err"
	check "transport = nccl without NCCL: exit 1 with a message" $? \
		"exit $rc: $(cat "$tmp/err")"
fi
"$SPATE" run "$scen/circular_dambreak.conf" --print-params --parallel.transport=mpi \
	>"$tmp/out" 2>"$tmp/err"
grep -qx 'transport = mpi' "$tmp/out"
check "--print-params shows [parallel] transport" $? "$(grep transport "$tmp/out")"

echo "cli.sh: $n checks, $fail failed"
[ "$fail" -eq 0 ]
