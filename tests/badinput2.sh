#!/bin/bash
# badinput2.sh: bad input beyond single keys must be refused cleanly, with a
# message that says what and where:
#   - keys that the chosen set-up does not read (a DEM given without
#     setup = dem, the grid's keys with a DEM, another set-up's initial
#     water), and keys that need each other;
#   - inflow hydrographs;
#   - rasters: the DEM's non-finite and impossible values (file, row,
#     column), forcing rasters on another grid or with non-finite values;
#   - gauge CSV files;
#   - checkpoints: truncated, of another version, of another grid, not one;
#     NetCDF ones truncated, with a flipped byte, without or with a bad
#     sum file.
# Each case asserts the exit status (1: found before the run; 2: data read
# when the run starts, spate(1)) and fragments of stderr.  badinput.sh holds
# the single-key cases, terrain_bad.sh the DEM reader's, restart.sh the
# checkpoint's that need a run.
#
# Environment: SPATE (the program; set by make check).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "badinput2.sh: SPATE is not set to the spate program" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-badinput2.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

. "$(dirname "$0")/badinput_common.sh"

# builtin SETUP [LINES...]: a 20 x 20 built-in scenario with LINES added to
# [initial] (a line "[section]" opens another section).
builtin() {
	local setup=$1
	shift
	printf '[domain]\nsetup = %s\nnx = 20\nny = 20\n[run]\nend_time = 1\n' "$setup"
	printf '[output]\ndir = %s/run-out\n[initial]\n' "$tmp"
	printf '%s\n' "$@"
}

# grid NX NY DX DY VALUE [CELL-TEXT]: an ESRI ASCII grid at (100, 200) of
# VALUE everywhere, or CELL-TEXT at row 3, column 4 (from the north).
grid() {
	awk -v nx="$1" -v ny="$2" -v dx="$3" -v dy="$4" -v z="$5" -v cell="${6:-}" 'BEGIN {
		printf "ncols %d\nnrows %d\nxllcorner 100\nyllcorner 200\n", nx, ny
		if (dx == dy) printf "cellsize %s\n", dx
		else printf "dx %s\ndy %s\n", dx, dy
		printf "NODATA_value -9999\n"
		for (r = 1; r <= ny; r++) {
			for (i = 1; i <= nx; i++)
				printf "%s%s", (i > 1 ? " " : ""), ((cell != "" && r == 3 && i == 4) ? cell : z)
			printf "\n"
		}
	}'
}

# dem DEM [LINES...]: a scenario on the DEM with LINES added to [initial].
dem() {
	local f=$1
	shift
	printf '[domain]\nsetup = dem\ndem = %s\n[run]\nend_time = 1\n' "$f"
	printf '[output]\ndir = %s/run-out\nformat = ascii\n[initial]\nfill_level = 1\n' "$tmp"
	printf '%s\n' "$@"
}

grid 8 6 10 10 0 >"$tmp/dem.asc"
dem "$tmp/dem.asc" >"$tmp/dem.conf"
expect "control: the DEM scenario runs" 0 -- run "$tmp/dem.conf" --quiet --no-output

# ---------------------------------------------------------------- set-up keys
builtin circular_dambreak '[domain]' "dem = $tmp/dem.asc" >"$tmp/c.conf"
expect "DEM given without setup = dem" 1 \
	"[domain] dem is set but setup = circular_dambreak: add setup = dem" -- \
	run "$tmp/c.conf" --no-output
builtin circular_dambreak >"$tmp/c0.conf"
expect "DEM given on the command line without setup = dem" 1 \
	"dem is set but setup = circular_dambreak: add setup = dem" -- \
	run "$tmp/c0.conf" --no-output "--domain.dem=$tmp/dem.asc"
printf '[domain]\ndem = %s\n[run]\nend_time = 1\n' "$tmp/dem.asc" >"$tmp/nosetup.conf"
expect "DEM given, setup left at its default" 1 \
	"dem is set but setup = circular_dambreak: add setup = dem" -- \
	run "$tmp/nosetup.conf" --no-output
dem "$tmp/dem.asc" '[domain]' 'nx = 30' >"$tmp/d.conf"
expect "setup = dem with nx" 1 "[domain] nx is set but setup = dem takes the grid from the DEM" -- \
	run "$tmp/d.conf" --no-output
expect "setup = dem with --domain.dx" 1 "[domain] dx is set but setup = dem" -- \
	run "$tmp/dem.conf" --no-output --domain.dx=5
builtin lake_at_rest 'h_in = 2' >"$tmp/l.conf"
expect "lake_at_rest with h_in" 1 \
	"[initial] h_in is set but setup = lake_at_rest does not read it" "dambreak1d" -- \
	run "$tmp/l.conf" --no-output
builtin circular_dambreak 'level = 2' >"$tmp/c1.conf"
expect "circular_dambreak with level" 1 "[initial] level is set but setup = circular_dambreak" \
	"lake_at_rest" -- run "$tmp/c1.conf" --no-output
builtin dambreak1d 'dam_y = 5' >"$tmp/b.conf"
expect "dambreak1d with dam_y" 1 "[initial] dam_y is set but setup = dambreak1d" -- \
	run "$tmp/b.conf" --no-output
builtin smooth_wave 'radius = 50' >"$tmp/s.conf"
expect "smooth_wave with radius" 1 "[initial] radius is set but setup = smooth_wave" -- \
	run "$tmp/s.conf" --no-output
builtin circular_dambreak 'fill_level = 3' >"$tmp/c2.conf"
expect "circular_dambreak with fill_level" 1 \
	"[initial] fill_level is set but setup = circular_dambreak: add setup = dem" -- \
	run "$tmp/c2.conf" --no-output
builtin circular_dambreak 'reservoir_line = 0 0 10 10' 'reservoir_level = 3' >"$tmp/c3.conf"
expect "circular_dambreak with reservoir_line" 1 "reservoir_level is set but setup = " \
	"add setup = dem" -- run "$tmp/c3.conf" --no-output
builtin lake_at_rest '[physics]' "manning_file = $tmp/dem.asc" >"$tmp/c4.conf"
expect "lake_at_rest with manning_file" 1 \
	"[physics] manning_file is set but setup = lake_at_rest: add setup = dem" -- \
	run "$tmp/c4.conf" --no-output
printf '[domain]\nsetup = dem\n[run]\nend_time = 1\n' >"$tmp/nodem.conf"
expect "setup = dem without dem" 1 "setup = dem needs dem = FILE" -- run "$tmp/nodem.conf" --no-output
dem "$tmp/dem.asc" "depth_file = $tmp/dem.asc" "level_file = $tmp/dem.asc" >"$tmp/two.conf"
expect "depth_file and level_file together" 1 "depth_file and level_file: give one" -- \
	run "$tmp/two.conf" --no-output
dem "$tmp/dem.asc" "polygon = 100 200, 150 200, 150 250" >"$tmp/poly.conf"
expect "polygon without polygon_level" 1 "polygon and polygon_level go together" -- \
	run "$tmp/poly.conf" --no-output

# ---------------------------------------------------------------- hydrographs
expect "inflow without a hydrograph" 1 "west = inflow needs west_hydrograph" -- \
	run "$tmp/c0.conf" --no-output --boundary.west=inflow
expect "hydrograph times that go back" 1 "west_hydrograph" "times must increase" -- \
	run "$tmp/c0.conf" --no-output --boundary.west=inflow "--boundary.west_hydrograph=0 1, 10 2, 5 3"
expect "hydrograph with a negative discharge" 1 "discharge must be >= 0 (point 2)" -- \
	run "$tmp/c0.conf" --no-output --boundary.west=inflow "--boundary.west_hydrograph=0 1, 10 -2"
expect "hydrograph: a time without a discharge" 1 "pair 2 has a time but no discharge" -- \
	run "$tmp/c0.conf" --no-output --boundary.west=inflow "--boundary.west_hydrograph=0 1, 10"
expect "hydrograph: junk after a pair" 1 "unexpected 'x' after pair 1" -- \
	run "$tmp/c0.conf" --no-output --boundary.west=inflow "--boundary.west_hydrograph=0 1 x"

# ---------------------------------------------------------------- rasters
grid 8 6 10 10 inf >"$tmp/allinf.asc"
grid 8 6 10 10 0 inf >"$tmp/inf.asc"
dem "$tmp/inf.asc" >"$tmp/inf.conf"
expect "DEM with inf" 2 "inf.asc:" "row 3, column 4: 'inf': not a finite value" -- \
	run "$tmp/inf.conf" --no-output
grid 8 6 10 10 0 nan >"$tmp/nan.asc"
dem "$tmp/nan.asc" >"$tmp/nan.conf"
expect "DEM with nan, NODATA_value -9999" 2 "nan.asc:" "row 3, column 4: 'nan'" \
	"NODATA_value nan" -- run "$tmp/nan.conf" --no-output
grid 8 6 10 10 0 -2e5 >"$tmp/deep.asc"
dem "$tmp/deep.asc" >"$tmp/deep.conf"
expect "DEM with an elevation of -2e5 m" 2 "deep.asc: row 3, column 4: elevation -200000 m" \
	"beyond +-100000 m ([domain] max_abs_elevation)" -- run "$tmp/deep.conf" --no-output
expect "control: the same DEM with max_abs_elevation = 3e5" 0 -- run "$tmp/deep.conf" \
	--no-output --domain.max_abs_elevation=3e5 --run.end_time=0.1
grid 8 6 10 10 0 2e5 >"$tmp/tall.asc"
dem "$tmp/tall.asc" >"$tmp/tall.conf"
expect "DEM with a bed of 2e5 m" 2 "tall.asc: row 3, column 4: elevation 200000 m" -- \
	run "$tmp/tall.conf" --no-output
expect "control: the bed of 2e5 m with max_abs_elevation = 2e5" 0 -- run "$tmp/tall.conf" \
	--no-output --domain.max_abs_elevation=2e5 --run.end_time=0.1
expect "max_abs_elevation = 1.5e5: -2e5 m still refused" 2 "elevation -200000 m, beyond +-150000 m" \
	-- run "$tmp/deep.conf" --no-output --domain.max_abs_elevation=1.5e5
expect "max_abs_elevation out of range" 1 "max_abs_elevation" -- run "$tmp/deep.conf" \
	--no-output --domain.max_abs_elevation=0
expect "max_abs_elevation without setup = dem" 1 "max_abs_elevation" "setup" -- \
	run "$tmp/c0.conf" --no-output --domain.max_abs_elevation=2e5
grid 8 6 5 10 0.03 >"$tmp/n-dx.asc"
dem "$tmp/dem.asc" '[physics]' "manning_file = $tmp/n-dx.asc" >"$tmp/ndx.conf"
expect "Manning raster with other cells" 2 "n-dx.asc: its grid" "differs from the DEM's" -- \
	run "$tmp/ndx.conf" --no-output
grid 8 6 10 5 0.5 >"$tmp/d-dy.asc"
dem "$tmp/dem.asc" "depth_file = $tmp/d-dy.asc" | sed '/fill_level/d' >"$tmp/ddy.conf"
expect "depth raster with other cell heights (dy)" 2 "d-dy.asc: its grid (8 x 6 cells of 10 x 5 m" \
	"write it on the DEM's grid" -- run "$tmp/ddy.conf" --no-output
grid 9 6 10 10 0.5 >"$tmp/l-9.asc"
dem "$tmp/dem.asc" "level_file = $tmp/l-9.asc" | sed '/fill_level/d' >"$tmp/l9.conf"
expect "level raster with one more column" 2 "l-9.asc: its grid (9 x 6" -- \
	run "$tmp/l9.conf" --no-output
grid 8 5 10 10 36 >"$tmp/r-5.asc"
dem "$tmp/dem.asc" '[physics]' "rain_files = 0 $tmp/r-5.asc" >"$tmp/r5.conf"
expect "rain raster with one row less" 2 "r-5.asc: its grid (8 x 5" -- \
	run "$tmp/r5.conf" --no-output
grid 8 6 10 10 0.03 inf >"$tmp/n-inf.asc"
dem "$tmp/dem.asc" '[physics]' "manning_file = $tmp/n-inf.asc" >"$tmp/ninf.conf"
expect "Manning raster with inf" 2 "n-inf.asc:" "row 3, column 4: 'inf'" -- \
	run "$tmp/ninf.conf" --no-output
grid 8 6 10 10 0.5 | sed '$d' >"$tmp/d-cut.asc"
dem "$tmp/dem.asc" "depth_file = $tmp/d-cut.asc" | sed '/fill_level/d' >"$tmp/dcut.conf"
expect "truncated depth raster" 2 "d-cut.asc" "file ends after 40 of the 48 values" -- \
	run "$tmp/dcut.conf" --no-output

# ---------------------------------------------------------------- gauges CSV
# gauges CSV-TEXT: the DEM scenario with these gauges (the grid spans
# x 100..180, y 200..260).
gauges() {
	printf '%b' "$1" >"$tmp/g.csv"
	dem "$tmp/dem.asc" '[gauges]' "file = $tmp/g.csv" >"$tmp/g.conf"
}
gauges 'name,x,y\nA,150,230\n'
expect "control: a good gauge file" 0 -- run "$tmp/g.conf" --quiet
gauges 'name,x,y\nA,150\n'
expect "gauge without y" 2 "g.csv:2: expected name,x,y" -- run "$tmp/g.conf"
gauges 'name,x,y\nA,150,230\nB,east,230\n'
expect "gauge with a word for x" 2 "g.csv:3: expected name,x,y" -- run "$tmp/g.conf"
gauges 'name,x,y\nA,inf,230\n'
expect "gauge at x = inf" 2 "g.csv:2: expected name,x,y" -- run "$tmp/g.conf"
gauges 'name,x,y\nA,150,230\nfar,1000,230\n'
expect "gauge outside the grid" 2 "g.csv:3: far at (1000, 230) is outside the grid" -- \
	run "$tmp/g.conf"
# found by fuzz_gauge: a cell index beyond any int (undefined behaviour)
gauges 'name,x,y\nhuge,1e300,-1e300\n'
expect "gauge at x = 1e300 (fuzz_gauge)" 2 "g.csv:2: huge at (1e+300, -1e+300) is outside the grid" \
	-- run "$tmp/g.conf"
dem "$tmp/dem.asc" '[gauges]' "file = $tmp/no-such.csv" >"$tmp/g0.conf"
expect "missing gauge file" 2 "no-such.csv: cannot open" -- run "$tmp/g0.conf"
# a relative one is looked for under [domain] data_dir, then from the
# working directory: the message says so, and how to give its folder
dem "$tmp/dem.asc" '[gauges]' "file = no-such-folder/g.csv" >"$tmp/g1.conf"
expect "missing gauge file, relative" 2 "no-such-folder/g.csv: cannot open" \
	"data folder $tmp/data" "--data-dir=DIR" -- run "$tmp/g1.conf" "--data-dir=$tmp/data" \
	"--output.dir=$tmp/g1-out"
n=$((n + 1))
if [ -e "$tmp/g1-out" ]; then
	echo "FAIL missing gauge file, relative: $tmp/g1-out was made"
	fail=$((fail + 1))
fi

# ---------------------------------------------------------------- checkpoints
# A binary checkpoint of the 20 x 20 dam break after 3 steps.
SPATE_CHECKPOINT=bin "$SPATE" run "$tmp/c0.conf" --quiet "--output.dir=$tmp/ck" --run.max_steps=3 \
	--checkpoint-every=1e-9 --output.grids=no >/dev/null 2>&1
ck=$tmp/ck/checkpoint.bin
if [ -f "$ck" ]; then
	expect "control: the checkpoint restarts" 0 -- run "$tmp/c0.conf" --quiet \
		"--output.dir=$tmp/ck2" --restart "$ck" --run.max_steps=5
	head -c 3000 "$ck" >"$tmp/cut.bin"
	expect "truncated checkpoint" 2 "cut.bin: a damaged or truncated checkpoint" -- \
		run "$tmp/c0.conf" --no-output --restart "$tmp/cut.bin"
	cp "$ck" "$tmp/v99.bin"
	printf '\143' | dd of="$tmp/v99.bin" bs=1 seek=8 conv=notrunc 2>/dev/null
	expect "checkpoint of another version" 2 "v99.bin: a damaged checkpoint, or one of another version" -- \
		run "$tmp/c0.conf" --no-output --restart "$tmp/v99.bin"
	expect "checkpoint of another grid" 2 "a 20 x 20 grid; this scenario makes 24 x 20" -- \
		run "$tmp/c0.conf" --no-output --restart "$ck" --domain.nx=24
	: >"$tmp/empty.bin"
	expect "empty checkpoint file" 2 "empty.bin: not a spate checkpoint" -- \
		run "$tmp/c0.conf" --no-output --restart "$tmp/empty.bin"
else
	n=$((n + 1))
	fail=$((fail + 1))
	echo "FAIL no checkpoint written to $tmp/ck"
fi

# NetCDF checkpoints (where spate has NetCDF): the sum file next to
# checkpoint.nc (spate(1), FILES) vouches for its bytes before libhdf5 reads
# them; without a sum file only SPATE_CHECKPOINT_UNCHECKED=1 opens it.
"$SPATE" run "$tmp/c0.conf" --quiet "--output.dir=$tmp/nck" --run.max_steps=3 \
	--checkpoint-every=1e-9 --output.grids=no >/dev/null 2>&1
nck=$tmp/nck/checkpoint.nc
if [ -f "$nck" ] && [ -f "$nck.sum" ]; then
	expect "control: checkpoint.nc with its sum restarts" 0 -- run "$tmp/c0.conf" --quiet \
		"--output.dir=$tmp/nck2" --restart "$nck" --run.max_steps=5
	size=$(wc -c <"$nck")
	head -c $((size / 2)) "$nck" >"$tmp/cut.nc"
	cp "$nck.sum" "$tmp/cut.nc.sum"
	expect "truncated checkpoint.nc" 2 "cut.nc: $((size / 2)) bytes, its sum file" \
		"says $size: truncated or damaged" -- run "$tmp/c0.conf" --no-output \
		--restart "$tmp/cut.nc"
	cp "$nck" "$tmp/flip.nc"
	cp "$nck.sum" "$tmp/flip.nc.sum"
	b=$(od -An -tu1 -j $((size / 3)) -N1 "$nck" | tr -d ' ')
	printf "\\$(printf '%03o' $(( (b ^ 16) & 255 )))" |
		dd of="$tmp/flip.nc" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
	expect "checkpoint.nc with one flipped byte" 2 \
		"flip.nc: its bytes do not match its sum file" -- run "$tmp/c0.conf" --no-output \
		--restart "$tmp/flip.nc"
	SPATE_CHECKPOINT_UNCHECKED=1 expect "flipped byte, SPATE_CHECKPOINT_UNCHECKED=1: \
still refused (the sum is there)" 2 "flip.nc: its bytes do not match" -- \
		run "$tmp/c0.conf" --no-output --restart "$tmp/flip.nc"
	cp "$nck" "$tmp/nosum.nc"
	expect "checkpoint.nc without its sum file" 2 "nosum.nc has no sum file" \
		"to restart from it anyway, set SPATE_CHECKPOINT_UNCHECKED=1" -- \
		run "$tmp/c0.conf" --no-output --restart "$tmp/nosum.nc"
	SPATE_CHECKPOINT_UNCHECKED=1 expect "control: without its sum, \
SPATE_CHECKPOINT_UNCHECKED=1 restarts" 0 "opened unchecked" -- run "$tmp/c0.conf" \
		"--output.dir=$tmp/nck3" --restart "$tmp/nosum.nc" --run.max_steps=5
	cp "$nck" "$tmp/badsum.nc"
	printf 'spate-checkpoint-sum 1 md5 0123\n' >"$tmp/badsum.nc.sum"
	expect "checkpoint.nc with a sum file that does not parse" 2 \
		"badsum.nc.sum: not a spate checkpoint sum" -- run "$tmp/c0.conf" --no-output \
		--restart "$tmp/badsum.nc"
elif [ -f "$nck" ]; then
	n=$((n + 1))
	fail=$((fail + 1))
	echo "FAIL checkpoint.nc written without its sum file $nck.sum"
else
	echo "skip NetCDF checkpoints: spate without NetCDF"
fi

echo "badinput2.sh: $n cases, $fail failed"
[ "$fail" -eq 0 ]
