#!/bin/bash
# Malpasset regression at 40 m: the whole 4000 s run ends without NaN, and its
# final volume, the maximum levels at the 26 observation points and the
# arrival times at S6-S14 stay within stated tolerances of the reference
# tests/malpasset40.ref.  Needs the Malpasset data (shared/data/malpasset:
# $SPATE_DATA, else ../shared/data beside the source tree); skips (77)
# without it.  The reference keeps the neighbourhood maxima of [gauges]
# radius = 2.  Tolerances: volume 0.1%, levels 0.3 m, arrival times 5%; the
# same for the GPU where there is one; and 1 vs 3 subdomains over 400 s give
# the same gauges and products, bitwise (on the GPU: 1 vs 2 subdomains).
# Mass: walls on every side, so the volume of the 400 s runs (single
# precision by default) must stay within 1e-6 of the initial one, on the CPU
# and on the GPU (with the level stored, fp32 made 2e-6 in 400 s here and
# 3e-3 at 10 m over 4000 s).  The 4000 s run's results.nc goes through
# spate export: the flood extent's polygons cover the wet cells' area
# within 0.1% (tests/export_check.py).
set -u
: "${SPATE:?}" "${top_srcdir:?}"
data=${SPATE_DATA:-$top_srcdir/../shared/data}
if [ ! -r "$data/malpasset/malpasset_dem_20m.asc" ]; then
	echo "SKIP: no Malpasset data in $data (set SPATE_DATA)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run DIR DEVICE [options]: the 40 m scenario into DIR
run() {
	local dir=$1 dev=$2
	shift 2
	mkdir -p "$dir"
	"$SPATE" run "$top_srcdir/scenarios/malpasset.conf" --data-dir="$data" \
		--domain.dem=malpasset/malpasset_dem_20m.asc --domain.cellsize=40 --device="$dev" \
		--output.dir="$dir" --output.interval=0 --output.grids=no --gauges.radius=2 \
		--output.format=ascii --summary "$dir/s.json" -q "$@"
}
# check DIR: the run in DIR against the reference
check() {
python3 - "$1" "$top_srcdir/tests/malpasset40.ref" <<'PY'
import csv, json, sys
out, ref = sys.argv[1], sys.argv[2]
s = json.load(open(out + "/s.json"))
want, pts = None, {}
for line in open(ref):
    if line.startswith("#") or not line.strip():
        continue
    p = line.split()
    if p[0] == "volume_final":
        want = float(p[1])
    else:
        pts[p[0]] = p[1:]
got = {r["name"]: r for r in csv.DictReader(open(out + "/gauges_summary.csv"))}
bad = 0
def check(ok, what):
    global bad
    print(("ok   " if ok else "FAIL ") + what)
    bad += not ok
check(s["sim_time"] == 4000, "ran to 4000 s (reached %g s)" % s["sim_time"])
check(abs(s["volume_final"] - want) <= 1e-3 * want,
      "final volume %.0f m^3, reference %.0f m^3 (0.1%%)" % (s["volume_final"], want))
for name, (lvl, nb, arr) in pts.items():
    g = got.get(name)
    if g is None:
        check(False, "%s: not in the run's gauges" % name)
        continue
    for key, r in (("max_level_m", lvl), ("max_level_neighbourhood_m", nb)):
        v = g[key]
        if r == "dry" or v == "":
            check(r == "dry" and v == "", "%s %s: %s, reference %s" % (name, key, v or "dry", r))
        else:
            check(abs(float(v) - float(r)) <= 0.3,
                  "%s %s: %.2f m, reference %.2f m (0.3 m)" % (name, key, float(v), float(r)))
    if name.startswith("S"):
        v = g["arrival_s"]
        ok = arr != "never" and v != "" and abs(float(v) - float(arr)) <= 0.05 * float(arr)
        check(ok, "%s arrival: %s s, reference %s s (5%%)" % (name, v or "never", arr))
sys.exit(1 if bad else 0)
PY
}
bad=0
echo "# CPU, one subdomain"
# (with NetCDF also results.nc, for spate export below)
fmt=ascii
"$SPATE" --version | grep -q '^NetCDF: yes' && fmt=both
run "$tmp/cpu" cpu --output.format=$fmt || { echo "FAIL: the run stopped with status $?"; exit 1; }
check "$tmp/cpu" || bad=1
# Its results.nc as GIS layers (spate export): tests/export_check.py checks
# the flood extent's area against the wet cells x 1600 m2 (0.1%), the hazard
# classes, isochrones, the 26 gauge points and the COGs; where spate has
# GDAL and NetCDF and a python3 has xarray and osgeo.
py=
for p in python3 /usr/bin/python3; do
	"$p" -c 'import xarray, netCDF4; from osgeo import ogr' 2>/dev/null && { py=$p; break; }
done
if [ -n "$py" ] && "$SPATE" --version | grep -q '^GDAL: yes' &&
	"$SPATE" --version | grep -q '^NetCDF: yes'; then
	"$SPATE" export "$tmp/cpu/results.nc" --out="$tmp/cpu/gis" -q &&
		"$py" "$top_srcdir/tests/export_check.py" "$tmp/cpu/results.nc" "$tmp/cpu/gis" 0.01 \
		"$(($(wc -l <"$tmp/cpu/gauges_summary.csv") - 1))" || bad=1
else
	echo "# spate export: no GDAL or NetCDF in spate, or no python3 with xarray and osgeo: not checked"
fi
# The validation tool reads the finished run and writes its report.
if "$top_srcdir/tools/validate-malpasset" --out "$tmp/cpu" --data "$data" \
	--report "$tmp/cpu/report.md" > "$tmp/vm.log" 2>&1 &&
	grep -q "mean absolute error" "$tmp/cpu/report.md"; then
	echo "ok   tools/validate-malpasset: $(tail -n 1 "$tmp/vm.log")"
else
	echo "FAIL tools/validate-malpasset on the 40 m run:"
	cat "$tmp/vm.log"
	bad=1
fi
# The GPU against the same reference (same tolerances), where there is one.
if "$SPATE" devices 2>/dev/null | grep -q '^cuda *[0-9]'; then
	echo "# CUDA"
	run "$tmp/gpu" cuda || { echo "FAIL: the GPU run stopped with status $?"; exit 1; }
	check "$tmp/gpu" || bad=1
else
	echo "# CUDA: no GPU here, not compared"
fi
# One subdomain against three (uneven workloads) over the first 400 s: the
# gauges and every flood product bitwise the same.
echo "# CPU, 400 s: one subdomain against three (workload 50,30,20)"
run "$tmp/one" cpu --run.end_time=400 || exit 1
run "$tmp/three" cpu --run.end_time=400 --parallel.workload=50,30,20 || exit 1
# same A B WHAT: every output file of run A byte-identical to run B's
same() {
	local n=0 f b
	for f in "$1"/*; do
		b=$(basename "$f")
		case $b in s.json) continue ;; esac
		n=$((n + 1))
		if cmp -s "$f" "$2/$b"; then
			echo "ok   $b: $3 identical"
		else
			echo "FAIL $b: $3 differ"
			bad=1
		fi
	done
	if [ $n -lt 2 ]; then
		echo "FAIL: only $n output files to compare"
		bad=1
	fi
}
same "$tmp/one" "$tmp/three" "1 and 3 subdomains"
# volume DIR WHAT: |V - V0| / V0 < 1e-6 in the run's summary
volume() {
	if python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))
r = s["volume_rel_change"]
print("%s: volume %.6f -> %.6f m^3, relative change %.2e (< 1e-6), %s precision"
      % (sys.argv[2], s["volume_initial"], s["volume_final"], r, s["precision"]))
sys.exit(0 if abs(r) < 1e-6 else 1)' "$1/s.json" "$2" > "$tmp/vol.txt"; then
		echo "ok   $(cat "$tmp/vol.txt")"
	else
		echo "FAIL $(cat "$tmp/vol.txt")"
		bad=1
	fi
}
volume "$tmp/one" "CPU, 400 s"
# The same on the GPU: one GPU against two subdomains (on as many GPUs as
# there are, up to two), bitwise.
if "$SPATE" devices 2>/dev/null | grep -q '^cuda *[0-9]'; then
	echo "# CUDA, 400 s: one subdomain against two"
	run "$tmp/g1" cuda --run.end_time=400 || exit 1
	run "$tmp/g2" cuda --run.end_time=400 --parallel.subdomains=2 || exit 1
	same "$tmp/g1" "$tmp/g2" "GPU: 1 and 2 subdomains"
	volume "$tmp/g1" "GPU, 400 s"
fi
exit $bad
