#!/bin/bash
# examples/open_results.py on a small dam break (80 x 80 cells, 20 s): it must
# list the variables of results.nc, its 3 snapshot times and the same maximum
# depth as a direct netCDF4 read, and dates when the time unit is CF
# ("seconds since ..."); a GeoPackage made here with OGR (2 layers,
# 3 polygons and 2 points) must be listed with its layers and feature counts;
# bad arguments fail with a message and status 1 or 2.  Skips (77) without a
# python3 that has xarray and netCDF4, or a spate built without NetCDF.
set -u
: "${SPATE:?}" "${top_srcdir:?}"
ex=$top_srcdir/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; bad=1; }

# open_results.py on a small run
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import xarray, netCDF4' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	echo "SKIP: no python3 with xarray and netCDF4"
	exit 77
fi
if ! "$SPATE" --version 2>/dev/null | grep -q '^NetCDF: yes'; then
	echo "SKIP: spate built without NetCDF (no results.nc)"
	exit 77
fi
run=$tmp/run
if ! "$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --device=cpu -q \
	--domain.nx=80 --domain.ny=80 --domain.dx=25 --domain.dy=25 --run.end_time=20 \
	--output.interval=10 --output.format=netcdf --output.dir="$run" > "$tmp/run.log" 2>&1; then
	fail "the demo run:"; cat "$tmp/run.log"; exit 1
fi
nc=$run/results.nc
if "$PY" "$ex/open_results.py" "$nc" > "$tmp/o.out" 2> "$tmp/o.err"; then
	ok "open_results.py $nc"
	sed 's/^/     | /' "$tmp/o.out"
else
	fail "open_results.py $nc:"; cat "$tmp/o.err"
fi
# the printed maximum depth against a direct read of the file
"$PY" - "$nc" "$tmp/o.out" <<'PY' || bad=1
import re, sys
import netCDF4
import numpy as np
nc, out = sys.argv[1], open(sys.argv[2]).read()
with netCDF4.Dataset(nc) as ds:
    names = set(ds.variables)
    want = float(np.max(ds["max_depth"][:] if "max_depth" in names else ds["h"][:]))
    ntime = len(ds.dimensions["time"]) if "time" in ds.dimensions else 0
bad = 0
def check(good, what):
    global bad
    print(("ok   " if good else "FAIL ") + what)
    bad += not good
m = re.search(r"^max depth: ([0-9.]+) m", out, re.M)
check(m is not None and abs(float(m.group(1)) - want) <= 1e-4,
      "max depth printed %s m, netCDF4 reads %.4f m" % (m.group(1) if m else "nothing", want))
check(0.5 < want <= 1.0 + 1e-6, "max depth %.4f m: within (0.5, 1] m (a 1 m cylinder "
      "collapsing into 0.1 m of water)" % want)
t = re.search(r"^times: (\d+) snapshot", out, re.M)
check(t is not None and int(t.group(1)) == ntime == 3,
      "times: %s snapshots printed, %d in the file (0, 10, 20 s)" % (t.group(1) if t else "no", ntime))
for v in ("h", "max_depth") if "max_depth" in names else ("h",):
    check(re.search(r"^  %s +\(" % v, out, re.M) is not None, "variable %s listed" % v)
sys.exit(1 if bad else 0)
PY
# CF time (units "seconds since ..."): the same file with that unit must
# print its snapshot times as dates.
cp "$nc" "$tmp/cf.nc"
"$PY" -c 'import netCDF4, sys
with netCDF4.Dataset(sys.argv[1], "a") as ds:
    ds["time"].units = "seconds since 1959-12-02 21:13:00"
    ds["time"].calendar = "standard"' "$tmp/cf.nc"
if "$PY" "$ex/open_results.py" "$tmp/cf.nc" > "$tmp/cf.out" 2>&1 &&
	grep -q "^times: 3 snapshots: 1959-12-02T21:13:00, 1959-12-02T21:13:10, 1959-12-02T21:13:20$" "$tmp/cf.out"; then
	ok "CF time decoded: $(grep '^times' "$tmp/cf.out")"
else
	fail "CF time (seconds since 1959-12-02 21:13:00) not printed as dates:"; cat "$tmp/cf.out"
fi
# A GeoPackage made here (2 layers: 3 polygons, 2 points).
gpkg=$tmp/flood.gpkg
if "$PY" -c 'from osgeo import ogr' 2>/dev/null; then
	"$PY" - "$gpkg" <<'PY'
import sys
from osgeo import ogr, osr
ogr.UseExceptions()
src = ogr.GetDriverByName("GPKG").CreateDataSource(sys.argv[1])
srs = osr.SpatialReference()
srs.SetFromUserInput("EPSG:2154")
ext = src.CreateLayer("flood_extent", srs, ogr.wkbPolygon)
for k in range(3):
    f = ogr.Feature(ext.GetLayerDefn())
    x = 100.0 * k
    f.SetGeometry(ogr.CreateGeometryFromWkt(
        "POLYGON((%g 0,%g 0,%g 50,%g 50,%g 0))" % (x, x + 50, x + 50, x, x)))
    ext.CreateFeature(f)
pts = src.CreateLayer("gauges", srs, ogr.wkbPoint)
for k in range(2):
    f = ogr.Feature(pts.GetLayerDefn())
    f.SetGeometry(ogr.CreateGeometryFromWkt("POINT(%d 25)" % (10 + 100 * k)))
    pts.CreateFeature(f)
src = None
PY
	if "$PY" "$ex/open_results.py" "$nc" "$gpkg" > "$tmp/g.out" 2> "$tmp/g.err" &&
		grep -q "2 layers" "$tmp/g.out" &&
		grep -Eq "^  flood_extent +3 features +Polygon" "$tmp/g.out" &&
		grep -Eq "^  gauges +2 features +Point" "$tmp/g.out"; then
		ok "open_results.py lists the GeoPackage: $(grep -c features "$tmp/g.out") layers, 3 and 2 features"
	else
		fail "open_results.py on a GeoPackage of 2 layers (3 polygons, 2 points):"
		cat "$tmp/g.out" "$tmp/g.err"
	fi
else
	echo "SKIP the GeoPackage part: no GDAL Python bindings"
fi
# expect STATUS PATTERN ARGS...: open_results.py ARGS exits STATUS, PATTERN in stderr
expect() {
	local want=$1 pat=$2 rc
	shift 2
	"$PY" "$ex/open_results.py" "$@" > /dev/null 2> "$tmp/e.err"
	rc=$?
	if [ $rc = "$want" ] && grep -q -- "$pat" "$tmp/e.err"; then
		ok "open_results.py $*: status $rc, $(head -n 1 "$tmp/e.err")"
	else
		fail "open_results.py $*: status $rc (want $want):"; cat "$tmp/e.err"
	fi
}
expect 1 "expected RESULTS.nc"
expect 2 "no such file" "$tmp/none.nc"
echo "not netcdf" > "$tmp/text.nc"
expect 2 "cannot read it as NetCDF" "$tmp/text.nc"
exit $bad
