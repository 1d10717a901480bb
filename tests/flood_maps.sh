#!/bin/bash
# flood_maps.sh: results that GIS tools and Python read as they are (issue 25).
#
# 1. The demo (tools/demo's circular dam break, 20 s, a start time given,
#    three gauges): xarray decodes time, gauge_time, arrival_time and
#    time_of_max_depth to datetime64 equal to start_time + t (t read raw);
#    max_hazard_class has CF flag_values/flag_meanings and only those values.
# 2. spate export on it: ogrinfo opens the GeoPackage; the flood_extent
#    polygons' area equals the wet cell count (max_depth > threshold) x cell
#    area within 0.1%, at the default 0.01 m and at 0.15 m; each hazard
#    class's polygons, the count of its cells x cell area; one gauge point a
#    gauge with the file's peak level and time; isochrones at multiples of
#    the interval; every COG is LAYOUT=COG (GDAL's COG driver's own marker),
#    DEFLATE, tiled, with overviews, and NODATA exactly where not wet.
#    tools/cf-check (the CF-1.8 rules spate relies on) passes it, and fails
#    a copy with a time in plain seconds and a nameless grid mapping.
# 3. A DEM with a CRS (.prj, UTM 32N): results.nc has a CF
#    transverse_mercator grid mapping and passes tools/cf-check; gdalinfo
#    finds the CRS on results.nc's max_depth, on the COGs, on the ESRI
#    ASCII grids (format = both: a .prj beside each) and the GeoPackage's
#    layers.
# 4. spate map -o FILE.tif (.png, .pdf with Cairo) in folders still to
#    make: they are made; a GeoTIFF below a plain file: spate's message
#    (what to check), without GDAL's raw "ERROR 4" line.  The GeoTIFFs'
#    band unit (gdalinfo) is the variable's units (m; seconds since ...).
# 5. Refusals: a bad start_time, a restart with another start_time, export
#    of a missing file, of results without products or of an ensemble.nc,
#    or with a bad option, a map of a variable the file lacks (the message
#    lists the file's own maps): a message and a non-zero exit.
# Skips (77) without GDAL or NetCDF in spate, or without gdalinfo, ogrinfo
# or a python3 with xarray and osgeo.  Without GDAL it checks first that
# spate export says GDAL is needed.
set -u
: "${SPATE:?}" "${top_srcdir:?}"
if "$SPATE" --version | grep -q '^GDAL: no'; then
	out=$("$SPATE" export x.nc 2>&1)
	rc=$?
	if [ $rc -eq 0 ] || ! grep -q "needs GDAL" <<<"$out"; then
		echo "FAIL spate export without GDAL: exit $rc, said: $out"
		exit 1
	fi
	echo "spate built without GDAL (export says so): skipped"
	exit 77
fi
if ! "$SPATE" --version | grep -q '^NetCDF: yes'; then
	echo "spate built without NetCDF: skipped"
	exit 77
fi
command -v gdalinfo >/dev/null && command -v ogrinfo >/dev/null || {
	echo "no gdalinfo or ogrinfo: skipped"; exit 77; }
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import xarray, numpy, netCDF4; from osgeo import ogr, gdal' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || { echo "no python3 with xarray, netCDF4 and osgeo: skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-maps.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
result() {   # result NAME STATUS [DETAIL]
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1${3:+: $3}"
		fail=1
	fi
}

# ---- 1. the demo, its CF times and hazard classes
start=1959-12-02T20:13:00Z
printf 'name,x,y\nG1,1000,1000\nG2,1300,1000\nG3,1700,1700\n' >"$tmp/g.csv"
"$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --run.end_time=20 \
	--run.start_time=$start --output.dir="$tmp/demo" --output.interval=10 \
	--gauges.file="$tmp/g.csv" --gauges.interval=5 -q
result "the demo runs" $?
"$py" - "$tmp/demo/results.nc" "$start" <<'PY'
import sys, warnings, numpy as np, xarray as xr
warnings.simplefilter("ignore", RuntimeWarning)   # xarray casting the NaN of never-wet cells
path, start = sys.argv[1], np.datetime64(sys.argv[2].rstrip("Z"), "ns")
raw, dec = xr.open_dataset(path, decode_times=False), xr.open_dataset(path)
bad = 0
def check(ok, what):
    global bad
    print(("ok   " if ok else "FAIL ") + what)
    bad += not ok
for v in ("time", "gauge_time", "arrival_time", "time_of_max_depth", "gauge_time_of_max_level"):
    d, r = dec[v].values, raw[v].values
    want = start + np.round(r.astype("float64") * 1e9).astype("timedelta64[ns]")
    # xarray truncates float seconds to whole ns: 1 us of slack
    ok = d.dtype.kind == "M" and np.array_equal(np.isnat(d), np.isnan(r)) and \
        np.all(np.abs((d[~np.isnat(d)] - want[~np.isnan(r)]).astype("int64")) <= 1000)
    check(ok, "xarray decodes %s to datetime64 = start_time + t within 1 us (%s, %d values)" %
          (v, d.dtype, d.size))
check(list(raw.time.values) == [0.0, 10.0, 20.0], "snapshots at 0, 10, 20 s: %s" % raw.time.values)
check(dec.duration_wet.dtype.kind == "f", "duration_wet stays seconds (a duration)")
c = raw.max_hazard_class
vals = set(np.unique(c.values[~np.isnan(c.values)]).astype(int))
check(list(c.attrs["flag_values"]) == list(range(7)) and
      c.attrs["flag_meanings"] == "dry H1 H2 H3 H4 H5 H6" and
      c.attrs["hazard_scheme"] == "arr2019" and vals <= set(range(7)) and len(vals) > 1,
      "max_hazard_class: ARR2019 flags, classes %s" % sorted(vals))
sys.exit(1 if bad else 0)
PY
result "CF times and hazard classes of results.nc" $?
"$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --run.end_time=2 \
	--output.hazard_scheme=fd2320 --output.dir="$tmp/fd" -q &&
	ncdump -h "$tmp/fd/results.nc" >"$tmp/fd.h"
grep -q 'max_hazard_class:flag_meanings = "dry low moderate significant extreme"' "$tmp/fd.h" &&
	grep -q 'time:units = "seconds since 2000-01-01 00:00:00"' "$tmp/fd.h"
result "fd2320 flags; the default start time 2000-01-01T00:00:00Z" $?

# tools/cf-check: the CF-1.8 rules spate relies on (its list), on the demo's
# results.nc; and it fails on a copy with a time in plain "s" and a grid
# mapping without grid_mapping_name, so the check itself can fail.
"$py" "$top_srcdir/tools/cf-check" "$tmp/demo/results.nc"
result "tools/cf-check passes the demo's results.nc" $?
cp "$tmp/demo/results.nc" "$tmp/broken.nc"
"$py" - "$tmp/broken.nc" <<'PY'
import sys, netCDF4
nc = netCDF4.Dataset(sys.argv[1], "a")
nc.variables["time"].units = "s"
nc.createVariable("crs", "i4")
nc.variables["max_depth"].grid_mapping = "crs"
nc.close()
PY
out=$("$py" "$top_srcdir/tools/cf-check" "$tmp/broken.nc")
[ $? -eq 1 ] && grep -q "time: 4.4" <<<"$out" && grep -q "max_depth: 5.6" <<<"$out"
result "tools/cf-check fails a time in plain s and a grid mapping without its name" $? "$out"

# ---- 2. export of the demo
# check_export RESULTS DIR THRESHOLD NGAUGES: the GeoPackage and COGs in DIR
check_export() {
	"$py" "$top_srcdir/tests/export_check.py" "$@"
}
"$SPATE" export "$tmp/demo/results.nc" --out="$tmp/gis" -q
result "spate export of the demo" $?
ogrinfo -ro -so "$tmp/gis/flood.gpkg" >"$tmp/ogr.txt" 2>&1 && grep -q "flood_extent (Polygon)" "$tmp/ogr.txt" &&
	grep -q "gauges (Point)" "$tmp/ogr.txt"
result "ogrinfo opens the GeoPackage" $? "$(head -3 "$tmp/ogr.txt")"
check_export "$tmp/demo/results.nc" "$tmp/gis" 0.01 3
result "the demo's layers, depth > 0.01 m" $?
"$SPATE" export "$tmp/demo/results.nc" --out="$tmp/gis15" --depth-threshold=0.15 \
	--interval=2 -q && check_export "$tmp/demo/results.nc" "$tmp/gis15" 0.15 3
result "the demo's layers, depth > 0.15 m, isochrones every 2 s" $?

# ---- 3. a DEM with a CRS: a valley in UTM 32N with a reservoir
awk 'BEGIN {
	nx = 60; ny = 40; d = 10
	printf "ncols %d\nnrows %d\nxllcorner 500000\nyllcorner 4800000\n", nx, ny
	printf "cellsize %d\nNODATA_value -9999\n", d
	for (r = 0; r < ny; r++) {
		j = ny - 1 - r
		for (i = 0; i < nx; i++)
			printf "%.3f%s", 20 - 0.05 * i * d + 0.002 * ((j - 20) * d)^2, i < nx - 1 ? " " : "\n"
	}
}' >"$tmp/valley.asc"
gdalsrsinfo -o wkt1 --single-line EPSG:32632 | sed '/^$/d' >"$tmp/valley.prj"
cat >"$tmp/valley.conf" <<EOF
[domain]
setup = dem
dem = $tmp/valley.asc
[initial]
reservoir_level = 22
reservoir_line = 500150 4800000 500150 4800400
[run]
end_time = 15
[output]
dir = $tmp/valley
EOF
"$SPATE" run "$tmp/valley.conf" --output.format=both -q &&
	"$SPATE" export "$tmp/valley/results.nc" -q
result "a DEM with a CRS runs and exports" $?
ncdump -h "$tmp/valley/results.nc" | grep -q 'crs:grid_mapping_name = "transverse_mercator"' &&
	"$py" "$top_srcdir/tools/cf-check" "$tmp/valley/results.nc"
result "UTM 32N as a CF transverse_mercator grid mapping; tools/cf-check passes" $?
for f in "NETCDF:$tmp/valley/results.nc:max_depth" "$tmp/valley/max_depth.tif" \
	"$tmp/valley/arrival_time.tif"; do
	gdalinfo "$f" 2>/dev/null | grep -q 'UTM zone 32N'
	result "gdalinfo sees the CRS (UTM zone 32N) on ${f##*/}" $?
done
last_v=$(cd "$tmp/valley" && ls v_*.asc | tail -n 1)
for f in max_depth.asc arrival_time.asc h_0000.asc "$last_v"; do
	gdalinfo "$tmp/valley/$f" 2>/dev/null | grep -q 'UTM zone 32N'
	result "gdalinfo sees the CRS (UTM zone 32N) on the ESRI ASCII grid $f" $?
done
"$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --domain.nx=20 --domain.ny=20 \
	--run.end_time=1 --output.format=ascii --output.dir="$tmp/nocrs" -q &&
	[ -f "$tmp/nocrs/max_depth.asc" ] && ! ls "$tmp"/nocrs/*.prj >/dev/null 2>&1
result "a set-up without a CRS: ESRI ASCII grids and no .prj" $?
ogrinfo -ro -so "$tmp/valley/flood.gpkg" flood_extent 2>/dev/null | grep -q 'UTM zone 32N'
result "the GeoPackage's flood_extent is in the DEM's CRS" $?
check_export "$tmp/valley/results.nc" "$tmp/valley" 0.01 0
result "the valley's layers" $?

# ---- 4. spate map -o in folders still to make: made, as spate run makes its
# own; a GeoTIFF that still cannot be written: spate's message, not only GDAL's
kinds=tif
"$SPATE" --version | grep -q '^Cairo: yes' && kinds="tif png pdf"
for k in $kinds; do
	"$SPATE" map "$tmp/demo/results.nc" --var max_depth -o "$tmp/new/$k/md.$k" -q &&
		[ -s "$tmp/new/$k/md.$k" ]
	result "spate map -o new/$k/md.$k makes its folders" $?
done
# the band's unit: the variable's units attribute
gdalinfo "$tmp/new/tif/md.tif" 2>/dev/null | grep -q '^  Unit Type: m$'
result "spate map's GeoTIFF of max_depth: band unit m (gdalinfo)" $?
"$SPATE" map "$tmp/demo/results.nc" --var arrival_time -o "$tmp/new/tif/at.tif" -q &&
	gdalinfo "$tmp/new/tif/at.tif" 2>/dev/null |
	grep -q '^  Unit Type: seconds since 1959-12-02 20:13:00$'
result "spate map's GeoTIFF of arrival_time: band unit results.nc's time units" $?
touch "$tmp/plain"
out=$("$SPATE" map "$tmp/demo/results.nc" --var max_depth -o "$tmp/plain/md.tif" 2>&1)
[ $? -ne 0 ] && grep -q "^spate: map: .*plain/md.tif: cannot write it (.*): check that its" \
	<<<"$out" && ! grep -q "^ERROR" <<<"$out"
result "a GeoTIFF that cannot be written: spate's message alone" $? "$out"

# ---- 5. refusals
out=$("$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --run.start_time=2023-02-29 \
	--no-output 2>&1)
[ $? -ne 0 ] && grep -q "start_time = 2023-02-29: no such date" <<<"$out"
result "start_time 2023-02-29 refused with its reason" $? "$out"
out=$("$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" \
	--run.start_time=2020-01-01T10:00+02:00 --no-output 2>&1)
[ $? -ne 0 ] && grep -q "in UTC" <<<"$out"
result "a start_time not in UTC refused" $? "$out"
"$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --domain.nx=40 --domain.ny=40 \
	--domain.dx=50 --domain.dy=50 --run.end_time=4 --output.checkpoint_every=2 \
	--output.dir="$tmp/ck" -q
out=$("$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --domain.nx=40 \
	--domain.ny=40 --domain.dx=50 --domain.dy=50 --run.end_time=6 --output.dir="$tmp/ck" \
	--run.start_time=2001-01-01 --restart "$(ls "$tmp"/ck/checkpoint.* | head -n 1)" -q 2>&1)
[ $? -ne 0 ] && grep -q "start_time" <<<"$out"
result "a restart with another start_time refused" $? "$out"
ncdump -h "$(ls "$tmp"/ck/checkpoint.nc 2>/dev/null || echo none)" 2>/dev/null |
	grep -q 'time:units = "seconds since 2000-01-01 00:00:00"'
result "checkpoint.nc holds its time in CF units" $?
"$py" "$top_srcdir/tools/cf-check" "$tmp"/ck/checkpoint.nc >/dev/null
result "tools/cf-check passes checkpoint.nc" $?
out=$("$SPATE" export "$tmp/none.nc" 2>&1)
[ $? -eq 1 ] && grep -q "none.nc" <<<"$out"
result "export of a missing file: exit 1, names it" $? "$out"
out=$("$SPATE" export "$tmp/demo/results.nc" --format=shp 2>&1)
[ $? -eq 1 ] && grep -q "format=shp" <<<"$out"
result "export --format=shp: exit 1, says why" $? "$out"
out=$("$SPATE" export "$tmp/demo/results.nc" --depth-threshold=-1 2>&1)
[ $? -eq 1 ] && grep -q "depth-threshold" <<<"$out"
result "export --depth-threshold=-1 refused" $? "$out"
"$SPATE" run "$top_srcdir/scenarios/circular_dambreak.conf" --domain.nx=20 --domain.ny=20 \
	--run.end_time=1 --output.products=no --output.dir="$tmp/noprod" -q
out=$("$SPATE" export "$tmp/noprod/results.nc" 2>&1)
[ $? -eq 1 ] && grep -q "products = yes" <<<"$out"
result "export of results without products: exit 1, says to keep them" $? "$out"
"$SPATE" ensemble "$top_srcdir/scenarios/river.conf" --members=1 --run.end_time=30 \
	--vary physics.manning=0.03:0.05 --out="$tmp/ens" -q
out=$("$SPATE" export "$tmp/ens/ensemble.nc" 2>&1)
[ $? -eq 1 ] && grep -q "Cloud Optimized GeoTIFFs (NAME.tif) beside it" <<<"$out"
result "export of an ensemble.nc: exit 1, says where its GeoTIFFs are" $? "$out"
out=$("$SPATE" map "$tmp/ens/ensemble.nc" --var max_depth -o "$tmp/p.png" 2>&1)
[ $? -eq 1 ] && grep -q "flood_probability, arrival_time_min" <<<"$out" &&
	! grep -q "max_depth," <<<"$out"
result "map of a variable the file lacks: lists the file's own maps" $? "$out"
"$SPATE" export --help | grep -q "Usage: spate export"
result "spate export --help" $?
exit $fail
