#!/bin/bash
# Malpasset regression at 40 m: the whole 4000 s run ends without NaN, and its
# final volume, the maximum levels at the 26 observation points and the
# arrival times at S6-S14 stay within stated tolerances of the reference
# tests/malpasset40.ref.  Needs the Malpasset data (shared/data/malpasset:
# $SPATE_DATA, else ../shared/data beside the source tree); skips (77)
# without it.  Tolerances: volume 0.1%, levels 0.3 m, arrival times 5%.
set -u
: "${SPATE:?}" "${top_srcdir:?}"
data=${SPATE_DATA:-$top_srcdir/../shared/data}
if [ ! -r "$data/malpasset/malpasset_dem_20m.asc" ]; then
	echo "SKIP: no Malpasset data in $data (set SPATE_DATA)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$SPATE" run "$top_srcdir/scenarios/malpasset.conf" --data-dir="$data" \
	--domain.dem=malpasset/malpasset_dem_20m.asc --domain.cellsize=40 --device=cpu \
	--output.dir="$tmp" --output.interval=0 --output.grids=no --summary "$tmp/s.json" -q
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL: the run stopped with status $rc"
	exit 1
fi
python3 - "$tmp" "$top_srcdir/tests/malpasset40.ref" <<'PY'
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
