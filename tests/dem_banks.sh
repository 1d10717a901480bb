#!/bin/bash
# dem_banks.sh: [domain] banks = yes keeps the bed of the cells at the edge
# of the survey, and every wall still holds.
#
# Case 1: a flat survey (bed 10 m, 22 x 16 cells of 10 m) inside a NODATA
# border four cells wide, filled to 12 m.  With banks the initial volume is
# the DEM's, 22 * 16 * 2 m * 100 m^2 = 70400 m^3, to 1e-6; without banks the
# wall raises the edge cells' corners and more than 5% is missing (what the
# key mends).  After 60 s with banks the volume is kept to 1e-6 and no water
# stands beyond the bank ring (the max_depth grid is NODATA or 0 two cells
# out).
# Case 2: the same survey cut in two by an outer NODATA column one cell wide
# (joined to the border at both ends), with a NODATA ring inside the survey
# (an island) around a dry pocket of 4 x 4 cells; the west half filled to
# 12 m.  After 120 s with banks the east half and the pocket are still dry.
#
# Environment: SPATE (the program; set by make check).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "dem_banks.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
py=python3
command -v "$py" >/dev/null 2>&1 || { echo "dem_banks.sh: no python3: skipped"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-banks.XXXXXX") || exit 99
trap "rm -rf \"$tmp\"" EXIT
fail=0

result() {   # result NAME STATUS
	if [ "$2" -eq 0 ]; then
		echo "ok   $1"
	else
		echo "FAIL $1"
		fail=1
	fi
}

# dem NAME SPLIT: 30 x 24 cells, a value (10 m) for 4 <= i < 26, 4 <= j < 20
# (j from the south); SPLIT = 1: NODATA in column 15 from the border to the
# border, and the ring 6 <= i <= 11, 8 <= j <= 13 (its inside a value).
dem() {
	"$py" - "$tmp/$1.asc" "$2" <<'EOF'
import sys
path, split = sys.argv[1], sys.argv[2] == "1"
nx, ny = 30, 24
with open(path, "w") as f:
    f.write("ncols %d\nnrows %d\nxllcorner 0\nyllcorner 0\ncellsize 10\n"
            "NODATA_value -9999\n" % (nx, ny))
    for j in range(ny - 1, -1, -1):
        row = []
        for i in range(nx):
            v = 4 <= i < 26 and 4 <= j < 20
            if split and i == 15:
                v = False
            if split and 6 <= i <= 11 and 8 <= j <= 13 and not (7 <= i <= 10 and 9 <= j <= 12):
                v = False
            row.append("10" if v else "-9999")
        f.write(" ".join(row) + "\n")
EOF
}

# run NAME DEM BANKS END [KEY=VALUE...]: spate run, summary in NAME.json
run() {
	local name=$1 d=$2 banks=$3 end=$4
	shift 4
	cat > "$tmp/$name.conf" <<EOF
[domain]
setup = dem
dem = $tmp/$d.asc
banks = $banks
wall_height = 20
[physics]
manning = 0
[run]
end_time = $end
[output]
dir = $tmp/$name
format = ascii
interval = 0
products = yes
EOF
	"$SPATE" run "$tmp/$name.conf" --quiet --summary="$tmp/$name.json" "$@" \
		> "$tmp/$name.log" 2>&1
}

# json NAME KEY: a number of the summary
json() {
	"$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$tmp/$1.json" "$2"
}

# dry NAME WHERE: 0 when max_depth.asc is 0 or NODATA in every cell (i, j)
# for which the Python expression WHERE holds
dry() {
	"$py" - "$tmp/$1/max_depth.asc" "$2" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])][6:]
ny = len(rows)
bad = [(i, ny - 1 - r, float(v)) for r, line in enumerate(rows) for i, v in enumerate(line)
       if eval(sys.argv[2], {"i": i, "j": ny - 1 - r}) and float(v) != -9999 and float(v) > 0]
print("wet: %d cells, e.g. %s" % (len(bad), bad[:3]))
sys.exit(1 if bad else 0)
EOF
}

dem flat 0
dem split 1

run yes0 flat yes 0 --initial.fill_level=12 || { cat "$tmp/yes0.log"; exit 99; }
run no0 flat no 0 --initial.fill_level=12 || { cat "$tmp/no0.log"; exit 99; }
v_yes=$(json yes0 volume_initial)
v_no=$(json no0 volume_initial)
echo "initial volume: banks = yes $v_yes m^3, no $v_no m^3 (the DEM: 70400)"
"$py" -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - 70400) <= 1e-6 * 70400 else 1)' "$v_yes"
result "banks = yes: the DEM's volume, 70400 m^3 to 1e-6" $?
"$py" -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 0.95 * 70400 else 1)' "$v_no"
result "banks = no: the wall takes more than 5% away (what banks mends)" $?

run yes60 flat yes 60 --initial.fill_level=12 || { cat "$tmp/yes60.log"; exit 99; }
rel=$(json yes60 volume_rel_change)
"$py" -c 'import sys; sys.exit(0 if abs(float(sys.argv[1])) <= 1e-6 else 1)' "$rel"
result "banks = yes, 60 s: volume kept ($rel)" $?
dry yes60 "not (2 <= i < 28 and 2 <= j < 22)"
result "banks = yes, 60 s: no water two cells beyond the survey" $?

run split split yes 120 --initial.polygon="0 0, 150 0, 150 240, 0 240" \
	--initial.polygon_level=12 --initial.dry_disk="90 110 25" || { cat "$tmp/split.log"; exit 99; }
v=$(json split volume_initial)
echo "split: initial volume $v m^3"
"$py" -c 'import sys; sys.exit(0 if float(sys.argv[1]) > 10000 else 1)' "$v"
result "split: water in the west half" $?
dry split "i >= 16"
result "split, 120 s: a one-cell outer wall holds (east half dry)" $?
dry split "7 <= i <= 10 and 9 <= j <= 12"
result "split, 120 s: a one-cell island ring holds (its pocket dry)" $?

exit $fail
