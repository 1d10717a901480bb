#!/bin/bash
# writer.sh: the writer thread changes no output.  The same run (snapshots
# every 2 s, products, gauges, checkpoints) written by the writer thread and
# in line (SPATE_WRITER=sync) gives the same files, byte for byte (results.nc
# compared through ncdump, its history and output folder aside).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "writer.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-writer.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fmt=ascii
"$SPATE" --version | grep -q '^NetCDF: yes' && fmt=both
printf 'name,x,y\nG1,500,500\nG2,700,820\n' >"$tmp/gauges.csv"
args=(run "$scen/circular_dambreak.conf" --domain.nx=80 --domain.ny=80 --domain.dx=12.5
	--domain.dy=12.5 --initial.h_out=0 --initial.radius=250 --run.end_time=30
	--output.interval=2 --output.format=$fmt --device=cpu "--gauges.file=$tmp/gauges.csv"
	--gauges.interval=1 --checkpoint-every=5 -q)
fail=0
"$SPATE" "${args[@]}" "--output.dir=$tmp/thread" || fail=1
SPATE_WRITER=sync "$SPATE" "${args[@]}" "--output.dir=$tmp/sync" || fail=1
n=0
for f in "$tmp/sync"/*; do
	b=$(basename "$f")
	n=$((n + 1))
	case $b in
	results.nc)
		command -v ncdump >/dev/null 2>&1 || continue
		diff -q <(ncdump "$f" | grep -v ':history =\|:spate_parameters =' | sed 1d) \
			<(ncdump "$tmp/thread/$b" | grep -v ':history =\|:spate_parameters =' | sed 1d) >/dev/null ;;
	checkpoint.*) continue ;;
	*) cmp -s "$f" "$tmp/thread/$b" ;;
	esac || { echo "FAIL $b differs"; fail=1; }
done
[ "$n" -gt 60 ] || { echo "FAIL only $n files written"; fail=1; }
[ $fail -eq 0 ] && echo "ok   writer thread and in-line writing give the same $n files"
exit $fail
