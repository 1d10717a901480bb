#!/bin/bash
# terrain_bad.sh: bad DEMs through "spate run" give a clear error or their
# documented treatment, never a crash.
#
# Each case writes a DEM into a temporary folder, runs a tiny scenario on it
# (setup = dem, 2 s) and checks:
#   - refused: exit status 1 or 2 (see bad_status), never 0 and never a
#     signal (>= 128), and stderr names the file and the problem (the
#     fragments each case lists);
#   - documented treatments run (exit 0): NODATA holes become walls (or masked
#     cells) and stay dry under water that floods everything around them; NaN
#     values are NODATA under "NODATA_value nan" (else refused with their row
#     and column, as are inf, -inf and elevations beyond 1e5 m); a gzipped
#     .asc runs exactly like the plain one.
# Cases that need GDAL (GeoTIFF, VRT with a rotated, flipped or missing
# geotransform) run when spate --version says "GDAL: yes"; without GDAL the
# same files must still be refused cleanly.  A CRS in degrees or feet (a
# .prj beside the grid) is refused with GDAL and without.  The memory safety of the
# readers on these files is t_terrain_asan's job.
#
# Environment: SPATE (the program; set by make check).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "terrain_bad.sh: SPATE is not set to the spate program" >&2
	exit 99
fi

# Exit statuses accepted for a refused DEM.  spate documents 1 for bad input,
# but a DEM is read inside the run, whose errors main.c reports as 2; narrow
# this to "1" once main.c maps set-up errors (EINVAL, EFORMAT) to 1.
bad_status="1 2"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-terrain.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
gdal=no
"$SPATE" --version 2>/dev/null | grep -q '^GDAL: yes' && gdal=yes
have_translate=no
[ "$gdal" = yes ] && command -v gdal_translate >/dev/null 2>&1 && have_translate=yes

# dem NX NY [HOLE]: an ESRI ASCII DEM on stdout: the plane z = 0.25 i +
# 0.125 j m (i east, j north, cell 10 m, corner at 100, 200); HOLE replaces
# the cells at columns 3-4 of rows 2-3 (counted from the north, from 0) by
# its text ("-9999", "nan").
dem() {
	awk -v nx="$1" -v ny="$2" -v hole="${3:-}" 'BEGIN {
		printf "ncols %d\nnrows %d\nxllcorner 100\nyllcorner 200\ncellsize 10\n", nx, ny
		printf "NODATA_value -9999\n"
		for (r = 0; r < ny; r++) {
			for (i = 0; i < nx; i++) {
				z = sprintf("%g", 0.25 * i + 0.125 * (ny - 1 - r))
				if (hole != "" && (r == 2 || r == 3) && (i == 3 || i == 4))
					z = hole
				printf "%s%s", i ? " " : "", z
			}
			printf "\n"
		}
	}'
}

# conf DEM [KEY=VALUE...]: a scenario on stdout; water at 3 m floods every
# cell of dem()'s plane (highest 2.375 m).
conf() {
	local f=$1
	shift
	printf '[domain]\nsetup = dem\ndem = %s\n' "$f"
	for kv in "$@"; do
		case $kv in nodata=*) printf 'nodata = %s\n' "${kv#nodata=}" ;; esac
	done
	printf '[initial]\nfill_level = 3\n[physics]\nmanning = 0.03\n'
	printf '[run]\nend_time = 2\n[output]\ndir = %s\ninterval = 0\n' "$tmp/out"
}

result() {   # result NAME OK DETAIL
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok   $1${3:+: $3}"
	else
		echo "FAIL $1: $3"
		fail=$((fail + 1))
	fi
}

# run_dem FILE [KEY=VALUE...]: run spate on FILE; sets rc, leaves stderr in
# $tmp/err and the final grids in $tmp/out.
run_dem() {
	local f=$1
	shift
	conf "$f" "$@" >"$tmp/run.conf"
	rm -rf "$tmp/out"
	"$SPATE" run "$tmp/run.conf" --output.format=ascii >"$tmp/stdout" 2>"$tmp/err" </dev/null
	rc=$?
}

# refused NAME FILE FRAGMENT...: the run must fail cleanly with every
# FRAGMENT (and the file's name) on stderr.
refused() {
	local name=$1 f=$2 missing="" ok=1
	shift 2
	run_dem "$f"
	for s in $bad_status; do
		[ "$rc" -eq "$s" ] && ok=0
	done
	for frag in "$(basename "$f")" "$@"; do
		grep -qF -- "$frag" "$tmp/err" || missing="$missing '$frag'"
	done
	if [ "$ok" -ne 0 ]; then
		result "$name" 1 "exit status $rc, expected one of: $bad_status; stderr: $(head -c 600 "$tmp/err")"
	elif [ -n "$missing" ]; then
		result "$name" 1 "stderr lacks$missing: $(head -c 600 "$tmp/err")"
	else
		result "$name" 0 "exit $rc: $(head -n 1 "$tmp/err" | cut -c1-150)"
	fi
}

# final_h: the last depth grid the run wrote.
final_h() {
	ls "$tmp"/out/h_*.asc 2>/dev/null | tail -n 1
}

# hole_values GRID: the values of the hole cells of dem(), one a line.
hole_values() {
	awk 'NR > 6 && (NR - 7 == 2 || NR - 7 == 3) { print $4; print $5 }' "$1"
}

# ran NAME FILE HOLE-VALUE [KEY=VALUE...]: the run must succeed, and when
# HOLE-VALUE is given, the hole cells must hold it in the final depth grid
# (0: dry walls; -9999: masked).
ran() {
	local name=$1 f=$2 want=$3 h bad
	shift 3
	run_dem "$f" "$@"
	if [ "$rc" -ne 0 ]; then
		result "$name" 1 "exit status $rc, expected 0; stderr: $(head -c 600 "$tmp/err")"
		return
	fi
	h=$(final_h)
	if [ -z "$h" ]; then
		result "$name" 1 "no depth grid in $tmp/out"
		return
	fi
	if [ -n "$want" ]; then
		bad=$(hole_values "$h" | awk -v w="$want" '$1 != w' | head -n 3 | tr '\n' ' ')
		if [ -n "$bad" ]; then
			result "$name" 1 "hole cells hold '$bad', expected $want"
			return
		fi
		# the cells around the hole are wet, so a dry hole means something
		if ! awk 'NR == 9 { exit !($3 > 0.1 && $6 > 0.1) }' "$h"; then
			result "$name" 1 "the cells beside the hole are not flooded: $(sed -n 9p "$h")"
			return
		fi
	fi
	result "$name" 0 "exit 0${want:+, hole cells $want}"
}

# ---------------------------------------------------------------- control
dem 8 6 >"$tmp/plane.asc"
ran "control: an 8 x 6 plane runs" "$tmp/plane.asc" ""
cp "$(final_h)" "$tmp/plane-h.asc" 2>/dev/null

# ---------------------------------------------------------------- documented
dem 8 6 -9999 >"$tmp/holes.asc"
ran "NODATA holes (nodata = wall) stay dry" "$tmp/holes.asc" 0
ran "NODATA holes (nodata = mask) are masked" "$tmp/holes.asc" -9999 nodata=mask

dem 8 6 nan | sed 's/NODATA_value -9999/NODATA_value nan/' >"$tmp/nan.asc"
ran "NaN values under NODATA_value nan are NODATA (walls, dry)" "$tmp/nan.asc" 0
grep -q "4 NaN values treated as NODATA" "$tmp/err"
result "NaN values are reported" $? "$(head -n 1 "$tmp/err")"

dem 8 6 | sed 's/NODATA_value -9999/NODATA_value nan/; 7s/^[^ ]*/nan/' >"$tmp/nanfirst.asc"
ran "NaN as the first value (not a header keyword)" "$tmp/nanfirst.asc" ""

gzip -c "$tmp/plane.asc" >"$tmp/plane.asc.gz"
run_dem "$tmp/plane.asc.gz"
if [ "$rc" -ne 0 ] && [ "$gdal" = no ] && grep -q "without zlib" "$tmp/err"; then
	result "gzipped .asc without zlib or GDAL: refused, as documented" 0
else
	ran "gzipped .asc runs" "$tmp/plane.asc.gz" ""
	cmp -s "$(final_h)" "$tmp/plane-h.asc"
	result "gzipped .asc: same final depth grid as the plain file" $?
fi

# ---------------------------------------------------------------- refused
dem 8 6 | sed '$d' >"$tmp/truncated.asc"
refused "truncated .asc (a row missing)" "$tmp/truncated.asc" "file ends after 40 of the 48"
dem 8 6 | head -c 150 >"$tmp/cut.asc"
refused "truncated .asc (cut inside a row)" "$tmp/cut.asc" "truncated"
# fuzz_asc (fifteenth session): a header keyword given again further down
# overrode the first, here to a grid of 2.9e9 cells whose values spate
# allocated before reading them
printf 'ncols 4\nnrows 4\nxllcenter 5\nyllcenter 5\ndx 10\ndy 5\n ncols  5453\nnrows 523301 2 3\n4 5 6 7\n' \
	>"$tmp/twice.asc"
refused "header keyword given twice (fuzz_asc)" "$tmp/twice.asc" "'ncols' given twice"
dem 8 6 | sed '3a xllcenter 105' >"$tmp/corner_centre.asc"
refused "xllcorner and xllcenter both" "$tmp/corner_centre.asc" "give one"
dem 8 6 | sed '5a dx 10' >"$tmp/cs_dx.asc"
refused "cellsize and dx both" "$tmp/cs_dx.asc" "both cellsize and dx"
# a header that announces 3.6e9 cells (under the 2^32 limit) over 3 values:
# refused as truncated, in 4 GB of address space (the values are stored as
# they come; ASan's shadow memory needs more, so no limit under it)
printf 'ncols 60000\nnrows 60000\nxllcorner 0\nyllcorner 0\ncellsize 10\n1 2 3\n' >"$tmp/lies.asc"
limit="ulimit -v 4000000;"
ldd "$SPATE" 2>/dev/null | grep -q libasan && limit=
conf "$tmp/lies.asc" >"$tmp/run.conf"
bash -c "$limit exec \"\$0\" run \"\$1\"" "$SPATE" "$tmp/run.conf" >"$tmp/stdout" 2>"$tmp/err" </dev/null
rc=$?
grep -qF "file ends after 3 of the 3600000000 values" "$tmp/err" && [ "$rc" -ge 1 ] && [ "$rc" -le 2 ]
result "a header announcing 3.6e9 cells over 3 values, ${limit:-no limit (ASan)}" $? \
	"exit $rc: $(head -c 300 "$tmp/err")"
dem 8 6 | sed '1s/.*/ncols 0/' >"$tmp/zero.asc"
refused "zero-size grid (ncols 0)" "$tmp/zero.asc"
dem 8 6 | sed '2s/.*/nrows 0/' >"$tmp/zerorows.asc"
refused "zero-size grid (nrows 0)" "$tmp/zerorows.asc"
dem 8 6 | sed '2s/.*/nrows 5/' >"$tmp/more.asc"
refused "header that lies: more values than it says" "$tmp/more.asc" "more values"
dem 8 6 | sed '2s/.*/nrows 7/' >"$tmp/fewer.asc"
refused "header that lies: fewer values than it says" "$tmp/fewer.asc" "file ends after 48 of the 56"
dem 8 6 | sed '1s/.*/ncols 100000/; 2s/.*/nrows 100000/' >"$tmp/huge.asc"
refused "header that lies: 1e10 cells" "$tmp/huge.asc"
dem 8 6 | sed '8s/ [^ ]* / 1.2.3 /' >"$tmp/alpha.asc"
refused "non-numeric value" "$tmp/alpha.asc" "'1.2.3' is not a number"
dem 8 6 | sed '8s/ [^ ]* / abc /' >"$tmp/alpha2.asc"
refused "non-numeric value (word)" "$tmp/alpha2.asc" "'abc' is not a number"
dem 8 6 | sed '5s/.*/cellsize 0/' >"$tmp/cell0.asc"
refused "cell size 0" "$tmp/cell0.asc"
dem 3 3 >"$tmp/small.asc"
refused "3 x 3 grid (the solver needs 4 x 4)" "$tmp/small.asc" "at least 4 x 4"
dem 8 6 | awk 'NR <= 6 { print; next } { gsub(/[0-9.]+/, "-9999"); print }' >"$tmp/allnodata.asc"
refused "every cell NODATA" "$tmp/allnodata.asc" "every cell is NODATA"
dem 8 6 | sed '8s/^[^ ]*/-3.4028235e+38/' >"$tmp/undeclared.asc"
refused "undeclared NODATA (-3.4e38)" "$tmp/undeclared.asc" "NODATA value the file does not declare" \
	"row 2, column 1"
dem 8 6 | sed '9s/ [^ ]* / 150000 /' >"$tmp/high.asc"
refused "elevation beyond 1e5 m" "$tmp/high.asc" "row 3, column 2" "beyond +-100000 m"
dem 8 6 inf >"$tmp/inf.asc"
refused "inf as a bed value" "$tmp/inf.asc" "row 3, column 4: 'inf': not a finite value"
dem 8 6 -inf >"$tmp/minf.asc"
refused "-inf as a bed value" "$tmp/minf.asc" "row 3, column 4: '-inf'"
dem 8 6 nan >"$tmp/nanundeclared.asc"
refused "nan without NODATA_value nan" "$tmp/nanundeclared.asc" "row 3, column 4: 'nan'" \
	"NODATA_value nan"
: >"$tmp/empty.asc"
refused "empty file" "$tmp/empty.asc"
head -c 2000 /dev/zero | tr '\0' '\377' >"$tmp/binary.asc"
refused "binary junk" "$tmp/binary.asc"
head -c 60 "$tmp/plane.asc.gz" >"$tmp/cut.asc.gz"
refused "truncated gzip stream" "$tmp/cut.asc.gz"
refused "missing file" "$tmp/no-such-dem.asc"
# A relative DEM is looked for under [domain] data_dir, then from the working
# directory: the message names the data folder and how to give another.
conf no-such-folder/dem.asc >"$tmp/rel.conf"
rm -rf "$tmp/out"
"$SPATE" run "$tmp/rel.conf" --data-dir="$tmp/data" >/dev/null 2>"$tmp/err" </dev/null
rc=$?
missing=""
for frag in "no-such-folder/dem.asc: cannot open" "data folder $tmp/data" "--data-dir=DIR"; do
	grep -qF -- "$frag" "$tmp/err" || missing="$missing '$frag'"
done
case " $bad_status " in *" $rc "*) ;; *) missing="$missing (exit status $rc)" ;; esac
[ -e "$tmp/out" ] && missing="$missing (an output folder)"
if [ -z "$missing" ]; then
	result "missing file, relative to the data folder" 0 "exit $rc"
else
	result "missing file, relative to the data folder" 1 "lacks$missing: $(head -c 600 "$tmp/err")"
fi

# ---------------------------------------------------------------- GDAL
# vrt GEOTRANSFORM: a VRT over plane.asc with that geotransform ("" = none).
vrt() {
	echo '<VRTDataset rasterXSize="8" rasterYSize="6">'
	[ -n "$1" ] && echo "  <GeoTransform>$1</GeoTransform>"
	echo '  <VRTRasterBand dataType="Float64" band="1"><SimpleSource>'
	echo '    <SourceFilename relativeToVRT="1">plane.asc</SourceFilename>'
	echo '    <SourceBand>1</SourceBand></SimpleSource></VRTRasterBand>'
	echo '</VRTDataset>'
}
vrt "100, 10, 0.5, 260, 0.5, -10" >"$tmp/rotated.vrt"
vrt "100, 10, 0, 200, 0, 10" >"$tmp/southup.vrt"
vrt "" >"$tmp/nogeo.vrt"
vrt "100, 10, 0, 260, 0, -10" >"$tmp/northup.vrt"
if [ "$gdal" = yes ]; then
	ran "VRT, north-up geotransform: runs" "$tmp/northup.vrt" ""
	cmp -s "$(final_h)" "$tmp/plane-h.asc"
	result "VRT, north-up: same final depth grid as the .asc" $?
	refused "VRT, rotated geotransform" "$tmp/rotated.vrt" "rotated" "north-up"
	refused "VRT, south-up geotransform" "$tmp/southup.vrt" "flipped" "north-up"
	refused "VRT without a geotransform" "$tmp/nogeo.vrt" "no geotransform"
	# a 4 x 4 float32 EHdr raster of 1.0 with +inf at row 2, column 3
	for k in $(seq 0 15); do
		if [ "$k" -eq 6 ]; then printf '\000\000\200\177'; else printf '\000\000\200\077'; fi
	done >"$tmp/inf.bil"
	printf '%s\n' 'BYTEORDER I' 'LAYOUT BIL' 'NROWS 4' 'NCOLS 4' 'NBANDS 1' 'NBITS 32' \
		'PIXELTYPE FLOAT' 'ULXMAP 105' 'ULYMAP 235' 'XDIM 10' 'YDIM 10' >"$tmp/inf.hdr"
	refused "GDAL raster (EHdr) with +inf" "$tmp/inf.bil" "row 2, column 3: inf: not a finite value"
else
	for f in rotated southup nogeo; do
		refused "$f.vrt without GDAL" "$tmp/$f.vrt"
	done
fi
# the solver's cells are metres: a CRS in degrees or feet is refused, one
# in metres runs (the .prj beside an ESRI ASCII grid is its CRS; read by
# GDAL, or without it as WKT: terrain_wkt_units)
geog='GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],'
geog=$geog'PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]'
utm='PROJCS["WGS 84 / UTM zone 32N",'$geog',PROJECTION["Transverse_Mercator"],'
utm=$utm'PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",9],'
utm=$utm'PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],'
utm=$utm'PARAMETER["false_northing",0],'
for f in utm lonlat feet; do
	cp "$tmp/plane.asc" "$tmp/$f.asc"
done
printf '%s' "$utm"'UNIT["metre",1]]' >"$tmp/utm.prj"
printf '%s' "$geog" >"$tmp/lonlat.prj"
printf '%s' "$utm"'UNIT["US survey foot",0.304800609601219]]' >"$tmp/feet.prj"
ran "ESRI ASCII grid with a .prj in metres (UTM): runs" "$tmp/utm.asc" ""
refused "ESRI ASCII grid with a geographic .prj (degrees)" "$tmp/lonlat.asc" \
	"is in degrees" "gdalwarp -t_srs"
refused "ESRI ASCII grid with a .prj in feet" "$tmp/feet.asc" "is in US survey foot" \
	"gdalwarp -t_srs"
if [ "$have_translate" = yes ]; then
	gdal_translate -q "$tmp/rotated.vrt" "$tmp/rotated.tif" &&
		refused "GeoTIFF, rotated geotransform" "$tmp/rotated.tif" "rotated"
	dem 8 6 nan | sed 's/NODATA_value -9999/NODATA_value -1/' >"$tmp/nan-src.asc"
	gdal_translate -q -ot Float32 "$tmp/nan-src.asc" "$tmp/nan.tif" &&
		ran "GeoTIFF with NaN values: NODATA (walls, dry)" "$tmp/nan.tif" 0
	dem 8 6 -9999 >"$tmp/holes-src.asc"
	gdal_translate -q -ot Float32 "$tmp/holes-src.asc" "$tmp/holes.tif" &&
		ran "GeoTIFF with NODATA holes: dry walls" "$tmp/holes.tif" 0
	head -c 300 "$tmp/holes.tif" >"$tmp/truncated.tif"
	refused "truncated GeoTIFF" "$tmp/truncated.tif"
else
	echo "skip GeoTIFF cases: no GDAL in spate, or no gdal_translate"
fi

echo "terrain_bad.sh: $n cases, $fail failed (GDAL: $gdal)"
[ "$fail" -eq 0 ]
