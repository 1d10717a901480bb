#!/bin/bash
# floor_gpu.sh: the arithmetic floor of a step (`spate bench --case=floor`,
# swe_floor.h) gives the same bits on the GPU as on the CPU: the hashes of
# both stages' results on 64^2, 100x37 and 257x129 cells (partial blocks
# and threads) agree line by line.  Skips (77) without a GPU.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "floor_gpu.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
	echo "floor_gpu.sh: no CUDA GPU (or spate built without CUDA): skipped"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-floor.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
for dev in cpu cuda; do
	"$SPATE" bench --device=$dev --case=floor --sizes=64,100x37,257x129 --steps=2 \
		>"$tmp/$dev" 2>"$tmp/$dev.err"
	rc=$?
	# backend nx x ny prec cells stage1 stage2 step inputs1 inputs2 bits1 bits2
	awk -v d=$dev '!/^#/ { n++; if ($1 == d && $7 > 0 && $8 > 0) good++;
		print $2, $4, $6, $12, $13 }
		END { exit !(n == 3 && good == 3) }' "$tmp/$dev" >"$tmp/$dev.bits"
	lines=$?
	if [ $rc -ne 0 ] || [ $lines -ne 0 ]; then
		echo "FAIL bench --device=$dev --case=floor: three lines (exit $rc)"
		head -c 600 "$tmp/$dev" "$tmp/$dev.err"
		fail=$((fail + 1))
	else
		echo "ok   bench --device=$dev --case=floor: three lines"
	fi
done
if cmp -s "$tmp/cpu.bits" "$tmp/cuda.bits" && [ -s "$tmp/cpu.bits" ]; then
	echo "ok   the floor's results: the same bits on the GPU as on the CPU"
else
	echo "FAIL the floor's results differ (size, cells, hashes; CPU then GPU):"
	cat "$tmp/cpu.bits" "$tmp/cuda.bits"
	fail=$((fail + 1))
fi
exit $((fail > 0))
