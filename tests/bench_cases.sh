#!/bin/bash
# bench_cases.sh: each case of `spate bench` runs a few steps on the CPU and
# prints its lines (a benchmark checks nothing; this checks that it runs
# and that what it prints adds up, not how fast):
#   1. --case=dambreak (and the default), early exit on and off, 64^2, 3
#      steps: exit 0, one data line with 3 steps and positive speeds; the
#      Boussinesq bench keeps its own --case= (cavity);
#   1b. --case=floor (the arithmetic floor, swe_floor.h) on 64^2 and 100x37:
#      exit 0, a line a size with the cells rounded up to 64 a thread,
#      positive rates, the step rate 1 / (1/stage 1 + 1/stage 2), a hash of
#      each stage's results; the same hashes on one OpenMP thread, and other
#      hashes at another size (the hash sees the results); --subdomains=2
#      refused;
#   2. bad options (an unknown case, --early-exit=maybe, --rain=-1, a
#      Malpasset option for the dam break, sizes that are not N or NXxNY
#      or, for the Boussinesq bench, NXxNYxNZ, or no size, --steps,
#      --seconds, --gpus, --subdomains or --tol that are not numbers, not
#      whole or out of range) and the
#      Malpasset cases without their data: exit non-zero with a message
#      naming the option, or tools/get-malpasset;
#   3. with the Malpasset data ($SPATE_DATA, else ../shared/data; else the
#      rest is skipped, exit 77): --case=malpasset and --case=rain (a disc,
#      everywhere) at 160 m, 4 steps, early exit on and off: one data line
#      each with 4 steps, time > 0, speeds and GB/s > 0, the cells computed
#      per step in (0, nx ny], all of them with early exit off, fewer with it
#      on where rain falls on a disc of a mostly dry DEM.
# Environment: SPATE, top_srcdir (set by make check).
set -u
: "${SPATE:?}" "${top_srcdir:?}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-bench.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {   # check WHAT STATUS [DETAIL]
	if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1 ${3:-}"; fail=$((fail + 1)); fi
}

# 1. the dam break
for args in "" "--case=dambreak --early-exit=off"; do
	# shellcheck disable=SC2086
	"$SPATE" bench --device=cpu --sizes=64 --steps=3 $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	# backend nx x ny prec gpus sub overlap steps wall cells/s cells/s/GPU GB/s
	awk '!/^#/ { n++; ok = $1 == "cpu" && $2 == 64 && $4 == 64 && $9 == 3 && $11 > 0 &&
		$12 > 0 } END { exit !(n == 1 && ok) }' "$tmp/out"
	check "bench ${args:-(default)}: exit 0, one line of 3 steps on 64 x 64" \
		$((rc + $?)) "(exit $rc: $(cat "$tmp/out" "$tmp/err" | head -c 400))"
done
grep -q "^# .*early exit off" "$tmp/out"
check "bench --early-exit=off: the header says so" $?
"$SPATE" bench --physics=boussinesq --case=cavity --sizes=8x1x8 --steps=1 --pressure=jacobi \
	--tol=1e-3 >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && grep -q "^cavity " "$tmp/out"
check "bench --physics=boussinesq --case=cavity: a cavity line" $? "(exit $rc)"

# 1b. the arithmetic floor
floor() {   # floor OUT [ENV...]: the floor on 64^2 and 100x37 into $tmp/OUT
	local out=$1
	shift
	env "$@" "$SPATE" bench --device=cpu --case=floor --sizes=64,100x37 --steps=2 \
		>"$tmp/$out" 2>"$tmp/$out.err"
}
floor fl
rc=$?
# backend nx x ny prec cells stage1 stage2 step inputs1 inputs2 bits1 bits2
awk '!/^#/ { n++; c = int(($2 * $4 + 63) / 64) * 64; s = 1 / (1 / $7 + 1 / $8);
	if ($1 == "cpu" && $6 == c && $7 > 0 && $8 > 0 && $9 > 0 && $10 > 0 && $11 > 0 &&
		($9 - s) < 1e-3 * s && (s - $9) < 1e-3 * s && $12 ~ /^[0-9a-f]+$/ &&
		$13 ~ /^[0-9a-f]+$/ && length($12) == 16 && length($13) == 16) good++ }
	END { exit !(n == 2 && good == 2) }' "$tmp/fl"
check "bench --case=floor: a line a size, cells, rates and the step rate add up" \
	$((rc + $?)) "(exit $rc: $(cat "$tmp/fl" "$tmp/fl.err" | head -c 600))"
floor fl1 OMP_NUM_THREADS=1
[ "$(grep -v '^#' "$tmp/fl" | awk '{ print $12, $13 }')" = \
	"$(grep -v '^#' "$tmp/fl1" | awk '{ print $12, $13 }')" ]
check "bench --case=floor: the same bits on one thread" $?
# the two sizes share no thread's results beyond the first 58 threads'
[ "$(grep -v '^#' "$tmp/fl" | awk '{ print $12 }' | sort -u | wc -l)" -eq 2 ]
check "bench --case=floor: other results, other hashes" $?
"$SPATE" bench --device=cpu --case=floor --sizes=64 --steps=1 --subdomains=2 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && grep -q -- "--subdomains" "$tmp/err" && ! grep -q "^cpu " "$tmp/out"
check "bench --case=floor --subdomains=2: refused, naming it" $? "(exit $rc)"

# 2. bad options, missing data
for bad in --case=nope --early-exit=maybe --rain=-1 --rain-centre=x --cellsize=40 \
	--sizes=64abc --sizes=64x64x3 --sizes=64x --sizes= --sizes=, --steps=abc --steps=0 \
	--steps=-5 --steps=2.5 --seconds=x --gpus=x --subdomains=two; do
	"$SPATE" bench --device=cpu --sizes=64 --steps=1 "$bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q -- "${bad%%=*}" "$tmp/err" && ! grep -q "^cpu " "$tmp/out"
	check "bench $bad: refused, naming it" $? "(exit $rc: $(head -c 300 "$tmp/err"))"
done
for bad in --sizes=8x8x8x8 --sizes=8x8 --sizes=3x1x8 --sizes=8x1x8,abc --sizes= \
	--steps=abc --steps=0 --steps=1.5 --tol=x --tol=0 --tol=1e-3x --pressure=multigrid,sor \
	--pressure=sor; do
	"$SPATE" bench --physics=boussinesq --case=cavity --sizes=8x1x8 --steps=1 \
		--pressure=jacobi --tol=1e-3 "$bad" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q -- "${bad%%=*}" "$tmp/err" && ! grep -q "^cavity " "$tmp/out"
	check "bench --physics=boussinesq $bad: refused, naming it" $? \
		"(exit $rc: $(head -c 300 "$tmp/err"))"
done
for c in malpasset rain; do
	"$SPATE" bench --device=cpu --case=$c --steps=1 --data-dir="$tmp/none" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && grep -q "tools/get-malpasset" "$tmp/err"
	check "bench --case=$c without the data: refused, saying where to get it" $? \
		"(exit $rc: $(head -c 300 "$tmp/err"))"
done

# 3. the Malpasset cases
data=${SPATE_DATA:-$top_srcdir/../shared/data}
if [ ! -r "$data/malpasset/malpasset_dem_10m.asc.gz" ]; then
	echo "SKIP: no Malpasset data in $data (set SPATE_DATA): the cases on it not run"
	[ $fail -eq 0 ] && exit 77
	exit 1
fi
# run NAME ARGS...: one case into $tmp/NAME; prints "steps nx ny active"
run() {
	local name=$1
	shift
	"$SPATE" bench --device=cpu --data-dir="$data" --cellsize=160 --steps=4 "$@" \
		>"$tmp/$name" 2>"$tmp/$name.err"
	rc=$?
	# case backend nx x ny prec early steps sim wall cells/s active active-cells/s GB/s
	awk -v rc=$rc '!/^#/ { n++; ok = $8 == 4 && $9 > 0 && $10 > 0 && $11 > 0 && $12 > 0 &&
		$12 <= 1.001 * $3 * $5 && $13 > 0 && $14 > 0; line = $8 " " $3 " " $5 " " $12 }
		END { if (rc == 0 && n == 1 && ok) print line; else print "bad" }' "$tmp/$name"
}
for c in "malpasset" "rain" "rain --rain-radius=0"; do
	for e in on off; do
		# shellcheck disable=SC2086
		r=$(run "$e" --case=$c --early-exit=$e)
		[ "$r" != bad ]
		check "bench --case=$c --early-exit=$e: one line of 4 steps, positive speeds, cells computed in (0, nx ny] ($r)" \
			$? "($(cat "$tmp/$e" "$tmp/$e.err" | head -c 600))"
		eval "res_$e=\"\$r\""
	done
	# shellcheck disable=SC2154
	read -r _ nx ny act_on <<<"$res_on"
	read -r _ _ _ act_off <<<"$res_off"
	awk -v a="$act_off" -v n="$nx" -v m="$ny" 'BEGIN { exit !(a >= 0.999 * n * m) }'
	check "bench --case=$c: early exit off computes every cell ($act_off of ${nx}x$ny)" $?
	if [ "$c" = rain ]; then
		awk -v a="$act_on" -v n="$nx" -v m="$ny" 'BEGIN { exit !(a < 0.99 * n * m) }'
		check "bench --case=rain (a disc): early exit on computes fewer cells ($act_on)" $?
	fi
done
exit $((fail > 0))
