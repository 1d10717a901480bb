#!/bin/bash
# dem_same.sh: a DEM written as GeoTIFF and as ESRI ASCII gives identical
# runs.
#
# The DEM: 40 x 30 cells of 5 m, a plane tilted down to the east and north
# with a Gaussian bump, values to 4 decimals, and a 2 x 3 block of NODATA.
# It is written as .asc, converted with gdal_translate to a Float64 GeoTIFF
# (the decimals survive exactly), and a second time on a 1/64 m grid of
# values to a Float32 GeoTIFF (exact in single precision too).  Each runs the
# same dam break (water upstream of a line across the valley, 20 s, RK2,
# Manning 0.03, grids every 5 s); the runs must agree exactly: every output
# grid byte for byte, and the summary's steps, time, volumes, maximum depth
# and speed.  The gzipped .asc must give the same run too.
#
# Skips (77) without gdal_translate or when spate is built without GDAL.
# Environment: SPATE (the program; set by make check).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "dem_same.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
if ! "$SPATE" --version 2>/dev/null | grep -q '^GDAL: yes'; then
	echo "dem_same.sh: spate is built without GDAL: skipped"
	exit 77
fi
if ! command -v gdal_translate >/dev/null 2>&1; then
	echo "dem_same.sh: no gdal_translate: skipped"
	exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-demsame.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

result() {   # result NAME STATUS DETAIL
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1${3:+: $3}"
		fail=$((fail + 1))
	fi
}

# dem QUANTUM: the DEM as ESRI ASCII on stdout, values rounded to QUANTUM m
# (0: to 4 decimals).
dem() {
	awk -v q="$1" 'BEGIN {
		nx = 40; ny = 30; d = 5
		printf "ncols %d\nnrows %d\nxllcorner 500000\nyllcorner 4800000\n", nx, ny
		printf "cellsize %d\nNODATA_value -9999\n", d
		for (r = 0; r < ny; r++) {
			j = ny - 1 - r
			for (i = 0; i < nx; i++) {
				x = (i + 0.5) * d; y = (j + 0.5) * d
				z = 10 - 0.04 * x - 0.013 * y + 1.7 * exp(-((x - 120)^2 + (y - 70)^2) / 300)
				v = q > 0 ? sprintf("%.6f", int(z / q + 0.5) * q) : sprintf("%.4f", z)
				if (i >= 30 && i <= 31 && r >= 5 && r <= 7)
					v = "-9999"
				printf "%s%s", i ? " " : "", v
			}
			printf "\n"
		}
	}'
}

# run NAME DEM: run the dam break on DEM into $tmp/NAME/.
run() {
	cat >"$tmp/$1.conf" <<EOF
[domain]
setup = dem
dem = $2
nodata = wall
[initial]
reservoir_level = 10.5
reservoir_line = 500060 4800000 500060 4800150
[physics]
manning = 0.03
integrator = rk2
[run]
end_time = 20
[output]
dir = $tmp/$1
interval = 5
EOF
	"$SPATE" run "$tmp/$1.conf" --output.format=ascii --quiet --summary "$tmp/$1.json" >"$tmp/$1.out" 2>"$tmp/$1.err"
}

# same A B: the runs A and B agree exactly.
same() {
	local a=$1 b=$2 diffs="" k
	for f in "$tmp/$a"/*.asc; do
		cmp -s "$f" "$tmp/$b/$(basename "$f")" || diffs="$diffs $(basename "$f")"
	done
	for k in steps sim_time volume_initial volume_final max_depth max_speed; do
		[ "$(grep "\"$k\"" "$tmp/$a.json")" = "$(grep "\"$k\"" "$tmp/$b.json")" ] ||
			diffs="$diffs $k"
	done
	result "$b runs exactly as $a ($(ls "$tmp/$a"/*.asc | wc -l) grids, summary)" \
		"$([ -z "$diffs" ]; echo $?)" "differs in:$diffs"
}

# translate SRC DST TYPE: gdal_translate to a GeoTIFF of TYPE.
translate() {
	# DATATYPE: GDAL reads an ESRI ASCII grid with decimals as Float32 unless told
	gdal_translate -q -oo DATATYPE=Float64 -of GTiff -ot "$3" "$1" "$2" 2>"$tmp/translate.err"
	result "gdal_translate $(basename "$1") to a $3 GeoTIFF" $? "$(cat "$tmp/translate.err")"
}

dem 0 >"$tmp/dem.asc"
dem 0.015625 >"$tmp/dem64.asc"
translate "$tmp/dem.asc" "$tmp/dem.tif" Float64
translate "$tmp/dem64.asc" "$tmp/dem64.tif" Float32
gzip -c "$tmp/dem.asc" >"$tmp/dem.asc.gz"

for name in asc:dem.asc tif:dem.tif gz:dem.asc.gz asc64:dem64.asc tif64:dem64.tif; do
	run "${name%%:*}" "$tmp/${name#*:}"
	result "run on ${name#*:}" $? "$(head -c 600 "$tmp/${name%%:*}.err")"
done

# the run must do something for the comparison to mean anything
steps=$(sed -n 's/.*"steps": \([0-9]*\).*/\1/p' "$tmp/asc.json")
vmax=$(sed -n 's/.*"max_speed": \([0-9.e+-]*\).*/\1/p' "$tmp/asc.json")
awk -v s="${steps:-0}" -v v="${vmax:-0}" 'BEGIN { exit !(s >= 20 && v > 0.1) }'
result "the dam break moves water ($steps steps, max speed $vmax m/s)" $?

same asc tif
same asc gz
same asc64 tif64

echo "dem_same.sh: $n checks, $fail failed"
[ "$fail" -eq 0 ]
