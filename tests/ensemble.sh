#!/bin/bash
# ensemble.sh: spate ensemble end to end on a small circular dam break over
# a dry bed (the demo scenario on 32 x 32 cells, 60 s):
#   - an ensemble of 1 member (no --vary, and LO = HI) equals a plain spate
#     run bit for bit: every percentile of the maximum depth is the run's
#     max_depth, the earliest and mean arrival its arrival_time;
#   - 8 members with Manning's n from 0 to 0.08: every flood probability is
#     exactly k/8, some lie strictly between 0 and 1, P10 <= P50 <= P90;
#   - with a start time, ensemble.nc's arrival times have results.nc's CF
#     time units ("seconds since <start>"), and xarray decodes them to dates;
#   - the fields' Cloud Optimized GeoTIFFs (with GDAL) hold the same values;
#   - --keep-members: each member's own results, between P0 and P100;
#   - the example of README.md and spate(1) (scenarios/river.conf, with an
#     inflow boundary) runs as printed, on 4 members of 600 s, and its map;
#   - bad --vary and other bad options: exit status 1 and a message that
#     names the problem.
# The fields are read by tests/t_ens (NetCDF when built with it; else ESRI
# ASCII grids, compared as text).
#
# Environment: SPATE, SPATE_SCENARIOS, top_builddir; set by make check.
set -u
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "ensemble.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
check=${top_builddir:-.}/tests/t_ens
for f in "$scen/circular_dambreak.conf" "$scen/bsq_cavity.conf" "$check"; do
	[ -e "$f" ] || { echo "ensemble.sh: $f not found" >&2; exit 99; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-ens.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
# shellcheck source=badinput_common.sh
. "$(dirname "$0")/badinput_common.sh"

ok() {      # ok NAME STATUS [DETAIL]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1${3:+: $3}"
		fail=$((fail + 1))
	fi
}

conf=$scen/circular_dambreak.conf
small=(--domain.nx=32 --domain.ny=32 --domain.dx=60 --domain.dy=60 --initial.h_out=0
	--run.end_time=60 --output.interval=0 --run.threads=1 --device=cpu -q)
bits="bit for bit"
if "$SPATE" --version | grep -q '^NetCDF: yes'; then
	fmt=both
	field() { echo "$1/$2.nc:$3"; }         # field DIR FILE VAR
else
	fmt=ascii
	bits="to the 7 digits of ESRI ASCII (no NetCDF)"
	field() { echo "$1/$3.asc"; }
fi
small+=(--output.format=$fmt)
res() { field "$1" results "$2"; }
ens() { field "$1" ensemble "$2"; }

# --------------------------------------------- --help
"$SPATE" ensemble --help >"$tmp/help" 2>&1
ok "spate ensemble --help exits 0 with its usage" $? "$(head -c 300 "$tmp/help")"
grep -q "^Usage: spate ensemble SCENARIO --vary" "$tmp/help"
ok "--help shows the usage line" $?

# --------------------------------------------- 1 member = a plain run
# same A B NAME: t_ens same, or cmp for ESRI ASCII grids
same() {
	local out
	out=$("$check" same "$1" "$2" 2>&1)
	ok "$3" $? "$out"
}
for variant in "no --vary" "LO = HI"; do
	extra=()
	[ "$variant" = "LO = HI" ] && extra=(--vary physics.manning=0.03:0.03)
	d=$tmp/one${#extra[@]}
	"$SPATE" run "$conf" "${small[@]}" --physics.manning=0.03 --output.dir="$d/plain" ||
		ok "plain run" 1
	"$SPATE" ensemble "$conf" "${small[@]}" --physics.manning=0.0 --members=1 \
		"${extra[@]}" --out="$d/ens" $([ "$variant" = "no --vary" ] && echo --physics.manning=0.03)
	ok "ensemble of 1 member ($variant) runs" $?
	for p in 10 50 90; do
		same "$(res "$d/plain" max_depth)" "$(ens "$d/ens" max_depth_p$p)" \
			"1 member ($variant): max_depth_p$p = the run's max_depth $bits"
	done
	same "$(res "$d/plain" arrival_time)" "$(ens "$d/ens" arrival_time_min)" \
		"1 member ($variant): arrival_time_min = the run's arrival_time $bits"
	same "$(res "$d/plain" arrival_time)" "$(ens "$d/ens" arrival_time_mean)" \
		"1 member ($variant): arrival_time_mean = the run's arrival_time $bits"
	if [ $fmt = both ]; then
		cmp -s "$d/plain/max_depth.asc" "$d/ens/max_depth_p50.asc"
		ok "1 member ($variant): max_depth_p50.asc = the run's max_depth.asc" $?
	fi
done

# --------------------------------------------- CF times of ensemble.nc
# With a start time, arrival_time_min and _mean carry the units of the plain
# run's arrival_time in results.nc ("seconds since <start>", calendar
# standard), and xarray (where a python3 has it) decodes them to dates.
if [ $fmt = both ] && command -v ncdump >/dev/null 2>&1; then
	d=$tmp/cf
	start=1959-12-02T20:13:00Z
	"$SPATE" run "$conf" "${small[@]}" --run.start_time=$start --output.dir="$d/plain" &&
		"$SPATE" ensemble "$conf" "${small[@]}" --run.start_time=$start --members=2 \
		--vary physics.manning=0.02:0.04 --out="$d/ens"
	ok "a run and an ensemble with a start time" $?
	units() { ncdump -h "$1" | sed -n "s/^[[:space:]]*$2:units = //p"; }
	want=$(units "$d/plain/results.nc" arrival_time)
	for v in arrival_time_min arrival_time_mean; do
		got=$(units "$d/ens/ensemble.nc" $v)
		[ "$got" = "$want" ] && [ "$got" = '"seconds since 1959-12-02 20:13:00" ;' ] &&
			ncdump -h "$d/ens/ensemble.nc" | grep -q "$v:calendar = \"standard\""
		ok "ensemble.nc's $v: results.nc's time units, calendar standard" $? \
			"$v:units = $got, arrival_time:units = $want"
	done
	for py in python3 /usr/bin/python3; do
		"$py" -c 'import xarray, numpy' 2>/dev/null || continue
		out=$("$py" - "$d/ens/ensemble.nc" $start 2>&1 <<'PY'
import sys, warnings, numpy as np, xarray as xr
warnings.simplefilter("ignore", RuntimeWarning)   # xarray casting the NaN of dry cells
path, start = sys.argv[1], np.datetime64(sys.argv[2].rstrip("Z"), "ns")
raw, dec = xr.open_dataset(path, decode_times=False), xr.open_dataset(path)
for v in ("arrival_time_min", "arrival_time_mean"):
    d, r = dec[v].values, raw[v].values.astype("float64")
    want = start + np.round(r[~np.isnan(r)] * 1e9).astype("timedelta64[ns]")
    # xarray truncates float seconds to whole ns: 1 us of slack
    if not (d.dtype.kind == "M" and np.array_equal(np.isnat(d), np.isnan(r)) and
            np.all(np.abs((d[~np.isnat(d)] - want).astype("int64")) <= 1000)):
        sys.exit("%s decoded as %s, not start_time + t" % (v, d.dtype))
PY
)
		ok "xarray decodes ensemble.nc's arrival times to dates = start_time + t" $? "$out"
		break
	done
fi

# --------------------------------------------- 8 members
d=$tmp/eight
"$SPATE" ensemble "$conf" "${small[@]}" --members=8 --vary physics.manning=0:0.08 --seed=3 \
	--out="$d"
ok "ensemble of 8 members runs" $?
out=$("$check" prob "$(ens "$d" flood_probability)" 8)
ok "8 members: every flood probability is exactly k/8" $? "$out"
between=${out#between }
[ "${between:-0}" -gt 0 ] 2>/dev/null
ok "8 members: $between cells flood with a probability strictly between 0 and 1" $? "$out"
out=$("$check" order "$(ens "$d" max_depth_p10)" "$(ens "$d" max_depth_p50)" \
	"$(ens "$d" max_depth_p90)")
ok "8 members: P10 <= P50 <= P90 in every cell" $? "$out"
out=$("$check" order "$(ens "$d" arrival_time_min)" "$(ens "$d" arrival_time_mean)")
ok "8 members: earliest arrival <= mean arrival in every cell" $? "$out"
awk -F, 'NR == 1 { ok = $0 == "member,physics.manning"; next }
	{ ok = ok && $1 == NR - 1 && $2 >= 0 && $2 <= 0.08 && !seen[$2]++ }
	END { exit !(ok && NR == 9) }' "$d/members.csv"
ok "8 members: members.csv has 8 distinct values of physics.manning in [0, 0.08]" $? \
	"$(head -c 400 "$d/members.csv")"
if [ $fmt = both ] && command -v ncdump >/dev/null 2>&1; then
	ncdump -p 9,17 -v physics_manning "$d/ensemble.nc" | awk '/^data:/ { d = 1 } d' |
		tr -d '\n' | sed 's/.*physics_manning =//; s/[;} ]//g' | tr ',' '\n' >"$tmp/nc.txt"
	cut -d, -f2 "$d/members.csv" | tail -n +2 | paste -d' ' - "$tmp/nc.txt" |
		awk '{ ok = NF == 2 && $1 + 0 == $2 + 0 } !ok { exit 1 } END { exit NR != 8 }'
	ok "8 members: ensemble.nc's member table holds members.csv's values (ncdump)" $? \
		"$(head -c 300 "$tmp/nc.txt")"
fi
"$SPATE" ensemble "$conf" "${small[@]}" --members=8 --vary physics.manning=0:0.08 --seed=3 \
	--print-members >"$tmp/pm.csv"
cmp -s "$tmp/pm.csv" "$d/members.csv"
ok "--print-members prints the members.csv of the same seed" $?

if "$SPATE" --version | grep -q '^GDAL: yes'; then
	for v in flood_probability max_depth_p50 arrival_time_min; do
		same "$(ens "$d" $v)" "$d/$v.tif" "8 members: $v.tif holds the same values"
	done
	if command -v gdalinfo >/dev/null 2>&1; then
		gdalinfo "$d/max_depth_p90.tif" 2>&1 | grep -q "LAYOUT=COG"
		ok "8 members: max_depth_p90.tif is a Cloud Optimized GeoTIFF (gdalinfo)" $?
	fi
else
	echo "skip the COG checks: spate built without GDAL"
fi

# --------------------------------------------- --keep-members
d=$tmp/keep
"$SPATE" ensemble "$conf" "${small[@]}" --members=2 --sampling=grid --percentiles=0,100 \
	--vary physics.manning=0.01:0.05 --keep-members --out="$d"
ok "--keep-members runs" $?
for m in 001 002; do
	out=$("$check" order "$(ens "$d" max_depth_p0)" "$(res "$d/member_$m" max_depth)" \
		"$(ens "$d" max_depth_p100)")
	ok "--keep-members: member_$m's max_depth lies between P0 and P100" $? "$out"
done

# --------------------------------------------- the example of README.md and spate(1)
# The README's command lines "src/spate ...", continuation lines joined,
# run as printed in a folder where scenarios/ is the shipped one, scaled
# down by options added at the end (4 members of 600 s); spate(1) must show
# the same ensemble command.
src=${top_srcdir:-$scen/..}
example() {     # example START: the line "src/spate START...", without "src/spate "
	awk -v s="src/spate $1" 'index($0, s) == 1 { on = 1 }
		on { c = c $0; if (!sub(/\\$/, "", c)) { print substr(c, 11); exit } }' "$src/README.md"
}
read -r -a ex <<<"$(example ensemble)"
[ "${ex[1]:-}" = scenarios/river.conf ] && [ -f "$scen/river.conf" ]
ok "README's ensemble example runs the shipped scenarios/river.conf" $? "${ex[*]}"
sed -n '/^spate ensemble @pkgdatadir@/,/[^e]$/p' "$src/man/spate.1.in" |
	sed 's/^spate //; s/\\e$//; s/\\-/-/g; s/@pkgdatadir@\///' | tr -s ' \n' '\n\n' |
	sort >"$tmp/man.ex"
printf '%s\n' "${ex[@]}" | sort | diff -q - "$tmp/man.ex" >/dev/null
ok "spate(1) shows the README's ensemble example" $? "$(tr '\n' ' ' <"$tmp/man.ex")"
mkdir -p "$tmp/ex" && ln -s "$scen" "$tmp/ex/scenarios"
(cd "$tmp/ex" && "$SPATE" "${ex[@]}" --members=4 --run.end_time=600 --run.threads=1 \
	--device=cpu --output.format=$fmt -q)
ok "the README's ensemble example runs (4 members of 600 s)" $?
out=$("$check" prob "$(ens "$tmp/ex/ens" flood_probability)" 4)
between=${out#between }
[ "${between:-0}" -gt 0 ] 2>/dev/null
ok "the example: $between cells flood with a probability strictly between 0 and 1" $? "$out"
if [ $fmt = both ] && "$SPATE" --version | grep -q '^Cairo: yes'; then
	read -r -a ex <<<"$(example "map ens/")"
	(cd "$tmp/ex" && "$SPATE" "${ex[@]}" -q) && [ -s "$tmp/ex/probability.png" ]
	ok "the README's map of the example's flood probability: ${ex[*]}" $?
fi

# --------------------------------------------- bad input
e=(ensemble "$conf" "${small[@]}" --out="$tmp/bad")
expect "no --members" 1 "--members=N is required" -- "${e[@]}" --vary physics.manning=0:1
expect "--members=0" 1 "--members=0: expected a whole number from 1 to" -- "${e[@]}" --members=0
expect "--members=2.5" 1 "--members=2.5" -- "${e[@]}" --members=2.5
expect "misspelt key" 1 "--vary" "[physics] mannig: unknown key" "did you mean [physics] manning?" \
	-- "${e[@]}" --members=2 --vary physics.mannig=0.02:0.06
expect "misspelt section" 1 "unknown section [phsyics]" "did you mean [physics]" \
	-- "${e[@]}" --members=2 --vary phsyics.manning=0.02:0.06
expect "key without a real value" 1 "[physics] integrator does not take a real number" \
	-- "${e[@]}" --members=2 --vary physics.integrator=1:2
expect "a key of the grid" 1 "--vary domain.dx=10:20: [domain] keys set the grid" \
	-- "${e[@]}" --members=2 --vary domain.dx=10:20
expect "an output key" 1 "[output] keys say what is written" \
	-- "${e[@]}" --members=2 --vary output.threshold=0.01:0.1
expect "LO above HI" 1 "LO = 0.06 is above HI = 0.02" \
	-- "${e[@]}" --members=2 --vary physics.manning=0.06:0.02
expect "LO not a number" 1 "LO 'abc' is not a number" \
	-- "${e[@]}" --members=2 --vary physics.manning=abc:0.02
expect "HI not a number" 1 "HI '0.02x' is not a number" \
	-- "${e[@]}" --members=2 --vary physics.manning=0:0.02x
expect "no range" 1 "expected SECTION.KEY=LO:HI" \
	-- "${e[@]}" --members=2 --vary physics.manning=0.02
expect "out of the key's range" 1 "[physics] manning = -1: must be in [0, 10]" \
	-- "${e[@]}" --members=2 --vary physics.manning=-1:0.02
expect "a key twice" 1 "[physics] manning varies twice" \
	-- "${e[@]}" --members=2 --vary physics.manning=0:0.02 --vary=physics.manning=0.03:0.04
expect "a key the set-up does not read" 1 "[initial] level is set but setup = circular_dambreak" \
	"member 1 of 2 cannot run" -- "${e[@]}" --members=2 --vary initial.level=0:1
expect "inflow_scale without an inflow" 1 "inflow_scale is set but no side is an inflow" \
	-- "${e[@]}" --members=2 --vary boundary.inflow_scale=0.8:1.2
expect "grid of the wrong size" 1 "--sampling=grid with 2 varied keys needs --members = m^2" \
	-- "${e[@]}" --members=10 --sampling=grid --vary physics.manning=0:0.02 \
	--vary initial.h_in=0.5:1
expect "unknown sampling" 1 "--sampling=sobol: expected lhs, grid or random" \
	-- "${e[@]}" --members=2 --sampling=sobol
expect "bad percentiles" 1 "--percentiles=10,200: expected at most" \
	-- "${e[@]}" --members=2 --percentiles=10,200
expect "--vary without a value" 1 "--vary needs a value" -- "${e[@]}" --members=2 --vary
expect "unknown option" 1 "unknown option --bogus" -- "${e[@]}" --members=2 --bogus
expect "no scenario" 1 "no scenario file given" -- ensemble --members=2
expect "--threshold without its value, before --quiet" 1 "--threshold needs a value" \
	-- "${e[@]}" --members=2 --threshold --quiet
expect "--device cpu, not --device=cpu" 1 "--device cpu: write --device=cpu" \
	-- "${e[@]}" --members=2 --device cpu
expect "a Boussinesq scenario" 1 "ensembles run flood (shallow_water) scenarios" \
	-- ensemble "$scen/bsq_cavity.conf" --members=2
[ ! -e "$tmp/bad" ]
ok "no bad case wrote anything" $?

echo "$((n - fail)) of $n checks passed"
[ $fail -eq 0 ]
