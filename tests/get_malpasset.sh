#!/bin/bash
# tools/get-malpasset, offline: built from the TELEMAC mesh in
# shared/data/malpasset/raw, its grids equal the shared ones cell by cell
# (tolerance 0: the same float32 mesh, the same frame and the same
# barycentric interpolation give the same 3-decimal values) with the same
# headers, and its observation file is byte for byte the shared one; the
# download path (a file:// mirror) checks sha256 and builds the same files; a
# refused connection, a corrupt file, a missing file, a truncated mesh and bad
# options fail with a message and the right exit status.  Skips (77) without
# the raw data ($SPATE_DATA/malpasset/raw, else ../shared/data beside the
# sources) or without a python3 that has numpy.
set -u
: "${top_srcdir:?}"
data=${SPATE_DATA:-$top_srcdir/../shared/data}
raw=$data/malpasset/raw
if [ ! -r "$raw/geo_malpasset-large.slf" ] || [ ! -r "$data/malpasset/malpasset_dem_20m.asc" ]; then
	echo "SKIP: no Malpasset data in $data (set SPATE_DATA)"
	exit 77
fi
PY=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import numpy' 2>/dev/null; then PY=$p; break; fi
done
[ -n "$PY" ] || { echo "SKIP: no python3 with numpy"; exit 77; }
raw=$(cd "$raw" && pwd)
get=$top_srcdir/tools/get-malpasset
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; bad=1; }

if "$PY" "$get" --from "$raw" --out "$tmp/a" > "$tmp/a.log" 2>&1; then
	ok "get-malpasset --from $raw"
else
	fail "get-malpasset --from $raw:"; cat "$tmp/a.log"; exit 1
fi
# Every grid, cell by cell, against the shared one.
"$PY" - "$tmp/a/malpasset" "$data/malpasset" <<'PY' || bad=1
import gzip, os, sys
import numpy as np
mine, ref = sys.argv[1], sys.argv[2]
def read(path):
    f = gzip.open(path, "rt") if path.endswith(".gz") else open(path)
    with f:
        text = f.read().split("\n")
    n = 6 if text[5].startswith("NODATA") else 5
    head = text[:n]
    vals = np.array(" ".join(text[n:]).split(), dtype=float)
    return head, vals
bad = 0
for name in ["malpasset_dem_20m.asc", "malpasset_dem_20m_wall150.asc", "malpasset_h0_20m.asc",
             "malpasset_dem_10m.asc.gz", "malpasset_dem_10m_wall150.asc.gz",
             "malpasset_h0_10m.asc.gz"]:
    hm, vm = read(os.path.join(mine, name))
    hr, vr = read(os.path.join(ref, name))
    nx, ny = int(hr[0].split()[1]), int(hr[1].split()[1])
    same_head = hm == hr
    ok = same_head and vm.size == vr.size == nx * ny and np.array_equal(vm, vr)
    ndiff = int((vm != vr).sum()) if vm.size == vr.size else -1
    outside = 150.0 if "wall150" in name else -9999.0
    wet = int((vr > 0).sum()) if "h0" in name else int((vr != outside).sum())
    print("%s %s: %d x %d cells, header %s, %d cells differ (tolerance 0), %d %s" % (
        "ok  " if ok else "FAIL", name, nx, ny, "same" if same_head else "differs", ndiff, wet,
        "wet cells" if "h0" in name else "cells in the mesh"))
    bad += not ok
sys.exit(1 if bad else 0)
PY
if cmp -s "$tmp/a/malpasset/malpasset_observations.csv" "$data/malpasset/malpasset_observations.csv"; then
	ok "malpasset_observations.csv: the shared file, byte for byte ($(($(wc -l < "$tmp/a/malpasset/malpasset_observations.csv") - 1)) points)"
else
	fail "malpasset_observations.csv differs from the shared one:"
	diff "$tmp/a/malpasset/malpasset_observations.csv" "$data/malpasset/malpasset_observations.csv" | head -5
fi
if cmp -s "$tmp/a/malpasset/LICENSE.txt" "$raw/LICENSE.txt" &&
	grep -q "General Public License version 3" "$tmp/a/malpasset/ATTRIBUTION.md" &&
	grep -q "0e7a83278e8d9c8b9bf7390a2e9e113432ec0c5f" "$tmp/a/malpasset/ATTRIBUTION.md"; then
	ok "LICENSE.txt (GPL-3.0) and ATTRIBUTION.md (licence, pinned commit) written"
else
	fail "LICENSE.txt or ATTRIBUTION.md missing or incomplete"
fi

# The folder it built is a data folder for spate and validate-malpasset:
# the scenario reads the 20 m DEM and the 26 observation points from it.
if [ -n "${SPATE:-}" ] && [ -x "$SPATE" ]; then
	if "$SPATE" run "$top_srcdir/scenarios/malpasset.conf" --data-dir="$tmp/a" \
		--domain.dem=malpasset/malpasset_dem_20m.asc --run.end_time=1 --output.interval=0 \
		--output.grids=no --output.format=ascii --output.dir="$tmp/run" --device=cpu -q \
		--summary "$tmp/run/s.json" > "$tmp/run.log" 2>&1 &&
		n=$(($(wc -l < "$tmp/run/gauges_summary.csv") - 1)) && [ "$n" = 26 ] &&
		grep -q '"nx": *863' "$tmp/run/s.json" && grep -q '"ny": *461' "$tmp/run/s.json"; then
		ok "spate run scenarios/malpasset.conf --data-dir=<built folder>: 863 x 461 cells, $n gauges"
	else
		fail "spate run with --data-dir=<built folder>:"; cat "$tmp/run.log"
	fi
	if "$PY" "$top_srcdir/tools/validate-malpasset" --out "$tmp/run" --data "$tmp/a" \
		--report "$tmp/run/report.md" > "$tmp/vm.log" 2>&1 &&
		grep -q "mean absolute error" "$tmp/run/report.md"; then
		ok "tools/validate-malpasset --data <built folder>: report written"
	else
		fail "tools/validate-malpasset --data <built folder>:"; cat "$tmp/vm.log"
	fi
fi
"$PY" "$top_srcdir/tools/validate-malpasset" --out "$tmp/run" --data "$tmp/none" > /dev/null 2> "$tmp/vm.err"
if [ $? = 1 ] && grep -q "tools/get-malpasset" "$tmp/vm.err"; then
	ok "validate-malpasset without data: status 1, points to tools/get-malpasset"
else
	fail "validate-malpasset without data:"; cat "$tmp/vm.err"
fi

# Its raw/ copy rebuilds the same grids.
if "$PY" "$get" --from "$tmp/a/malpasset/raw" --out "$tmp/r" > "$tmp/r.log" 2>&1 &&
	cmp -s "$tmp/r/malpasset/malpasset_dem_20m.asc" "$tmp/a/malpasset/malpasset_dem_20m.asc"; then
	ok "--from <built folder>/malpasset/raw: the same 20 m grid"
else
	fail "--from <built folder>/malpasset/raw:"; cat "$tmp/r.log"
fi

# The download path: a file:// mirror of the raw folder, sha256 checked.
if "$PY" "$get" --mirror "file://$raw" --out "$tmp/m" > "$tmp/m.log" 2>&1; then
	n=0
	for f in "$tmp"/a/malpasset/malpasset_*; do
		cmp -s "$f" "$tmp/m/malpasset/$(basename "$f")" || { fail "$(basename "$f"): download path differs"; n=1; }
	done
	[ $n = 0 ] && ok "--mirror file://: downloaded, checked, the same 7 files"
else
	fail "--mirror file://$raw:"; cat "$tmp/m.log"
fi

# expect NAME STATUS PATTERN COMMAND...: exits STATUS with PATTERN in stderr
expect() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" > "$tmp/e.out" 2> "$tmp/e.err"
	rc=$?
	if [ $rc = "$want" ] && grep -q -- "$pat" "$tmp/e.err"; then
		ok "$name: status $rc, '$(tail -n 1 "$tmp/e.err" | cut -c1-110)...'"
	else
		fail "$name: status $rc (want $want), stderr:"; cat "$tmp/e.err"
	fi
}
# No network here and none needed: a refused connection stands for it.
expect "offline download" 2 "could not download.*--from FOLDER" \
	"$PY" "$get" --mirror http://127.0.0.1:9 --timeout 5 --out "$tmp/n"
[ -e "$tmp/n/malpasset/malpasset_dem_20m.asc" ] && fail "offline download left a grid behind"
# The pinned GitHub addresses: offline (as here) the message must say what
# to do; online the files must pass their sha256 check and give the grids.
"$PY" "$get" --timeout 10 --out "$tmp/g" > "$tmp/g.out" 2> "$tmp/g.err"
rc=$?
if [ $rc = 0 ] && cmp -s "$tmp/g/malpasset/malpasset_dem_20m.asc" "$tmp/a/malpasset/malpasset_dem_20m.asc"; then
	ok "download from the pinned GitHub addresses: checked, the same grids"
elif [ $rc = 2 ] && grep -q "could not download https://raw.githubusercontent.com/ogoe/OpenTelemac/0e7a8327.*This needs the network.*--from FOLDER" "$tmp/g.err"; then
	ok "offline, the pinned address: status 2, '$(cut -c1-150 "$tmp/g.err" | tail -n 1)...'"
else
	fail "download from the pinned addresses: status $rc:"; cat "$tmp/g.err"
fi
mkdir "$tmp/bad"
cp "$raw"/* "$tmp/bad/"
printf '\0' >> "$tmp/bad/geo_malpasset-large.slf"
expect "corrupt mesh (one byte more)" 2 "sha256 .* expected 9f2bf177" \
	"$PY" "$get" --from "$tmp/bad" --out "$tmp/b"
cp "$raw/geo_malpasset-large.slf" "$tmp/bad/"
rm "$tmp/bad/LICENSE.txt"
expect "no LICENSE.txt in --from" 2 "LICENSE.txt missing" "$PY" "$get" --from "$tmp/bad" --out "$tmp/b"
expect "--from a missing folder" 2 "no such folder" "$PY" "$get" --from "$tmp/none" --out "$tmp/b"
expect "unknown option" 1 "unknown option --cellsize" "$PY" "$get" --cellsize 5
expect "--out without a value" 1 "needs a value" "$PY" "$get" --out
expect "--from with --mirror" 1 "exclude each other" "$PY" "$get" --from "$raw" --mirror file:///x
expect "bad --timeout" 1 "must be a number" "$PY" "$get" --timeout 0 --mirror file:///x
"$PY" "$get" --help > "$tmp/h" 2>&1 && grep -q "sha256 9f2bf177" "$tmp/h" &&
	ok "--help: usage and the pinned sources" || fail "--help"
# The SELAFIN reader on damaged meshes (below the sha256 check).
"$PY" - "$get" "$raw/geo_malpasset-large.slf" <<'PY' || bad=1
import importlib.machinery, importlib.util, struct, sys
loader = importlib.machinery.SourceFileLoader("getm", sys.argv[1])
spec = importlib.util.spec_from_loader("getm", loader)
m = importlib.util.module_from_spec(spec)
loader.exec_module(m)
data = open(sys.argv[2], "rb").read()
x, y, tri, v = m.read_selafin(data, "mesh")
good = len(x) == 53081 and tri.shape == (104000, 3) and list(v) == ["BOTTOM"]
print("%s reader: %d nodes, %d triangles, variables %s, bed %.1f..%.1f m" % (
    "ok  " if good else "FAIL", len(x), len(tri), list(v), v["BOTTOM"].min(), v["BOTTOM"].max()))
bad = not good
cases = [("truncated", data[:len(data) // 2], "bad Fortran record marker"),
         ("bad marker", data[:84] + b"\0\0\0\x09" + data[88:], "bad Fortran record marker"),
         ("quadrilaterals", data.replace(struct.pack(">4i", 104000, 53081, 3, 1),
                                         struct.pack(">4i", 104000, 53081, 4, 1)), "2D triangle"),
         ("empty", b"", "ends before the title")]
for name, blob, want in cases:
    try:
        m.read_selafin(blob, "mesh")
        msg = "accepted"
    except m.DataError as e:
        msg = str(e)
    good = want in msg
    print("%s reader, %s file: %s" % ("ok  " if good else "FAIL", name, msg))
    bad |= not good
sys.exit(1 if bad else 0)
PY
exit $bad
