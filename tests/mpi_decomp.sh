#!/bin/bash
# mpi_decomp.sh: 1 vs N MPI ranks.  A small circular dam break and the dam
# break over bumps run serially and under mpiexec on 1, 2 and 4 ranks (and 3
# subdomains or a 70/30 workload on 2 ranks); every grid written (h, w, u, v
# and the flood products, ESRI ASCII) must equal the serial one byte for byte,
# and only rank 0 may print or write.
#
# Environment (set by make check): SPATE, SPATE_SCENARIOS, MPIEXEC (empty:
# none found), SPATE_HAVE_MPI (yes/no).  Skips (77) without MPI or mpiexec.
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_decomp.sh

# run NAME NP SCENARIO ARGS...: NP = 0 runs without mpiexec
run() {
	local name=$1 np=$2 sc=$3
	shift 3
	if [ "$np" -eq 0 ]; then
		timeout 120 "$SPATE" run "$scen/$sc.conf" --device=cpu --output.format=ascii \
			--output.dir="$tmp/$name" \
			--summary "$tmp/$name.json" "$@" 2>"$tmp/$name.err" >/dev/null
	else
		timeout 120 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" run "$scen/$sc.conf" \
			--device=cpu --output.format=ascii --output.dir="$tmp/$name" \
			--summary "$tmp/$name.json" "$@" \
			2>"$tmp/$name.err" >/dev/null
	fi
}

# same NAME REF: every .asc of REF equal in NAME
same() {
	local f bad="" k=0
	for f in "$tmp/$2"/*.asc; do
		k=$((k + 1))
		cmp -s "$f" "$tmp/$1/${f##*/}" || bad="$bad ${f##*/}"
	done
	[ "$k" -gt 0 ] && [ -z "$bad" ]
	check "$1: $k grids byte for byte equal to $2" $? "differ:$bad"
}

small="--domain.nx=80 --domain.ny=60 --run.end_time=1e9 --run.max_steps=40 --output.interval=0"
for sc in circular_dambreak bumps_dambreak; do
	# shellcheck disable=SC2086
	run "$sc-serial" 0 "$sc" $small
	check "$sc: serial run" $? "$(tail -3 "$tmp/$sc-serial.err")"
	for np in 1 2 4; do
		[ "$sc" = bumps_dambreak ] && [ "$np" -ne 2 ] && continue
		# shellcheck disable=SC2086
		run "$sc-np$np" "$np" "$sc" $small
		st=$?
		if [ "$st" -ne 0 ] && [ "$np" -eq 1 ] && grep -qi "not enough slots\|mpi_init\|orte\|pmix" \
			"$tmp/$sc-np$np.err"; then
			echo "mpi_decomp.sh: $MPIEXEC cannot start programs here: skipped"
			cat "$tmp/$sc-np$np.err"
			exit 77
		fi
		check "$sc: mpiexec -np $np" $st "$(tail -3 "$tmp/$sc-np$np.err")"
		same "$sc-np$np" "$sc-serial"
	done
done
# shellcheck disable=SC2086
run sub3-np2 2 circular_dambreak $small --parallel.subdomains=3
check "3 subdomains on 2 ranks" $? "$(tail -3 "$tmp/sub3-np2.err")"
same sub3-np2 circular_dambreak-serial
# shellcheck disable=SC2086
run w7030-np2 2 circular_dambreak $small --parallel.workload=70,30
check "workload 70,30 on 2 ranks" $? "$(tail -3 "$tmp/w7030-np2.err")"
same w7030-np2 circular_dambreak-serial
grep -q "0-41 (42)" "$tmp/w7030-np2.err"
check "workload 70,30: subdomain 0 has rows 0-41 (42 of 60)" $? "$(cat "$tmp/w7030-np2.err")"

# gauges: sampled every step through the ranks (a collective read)
printf 'name,x,y\ncentre,200,150\nedge,30,280\nnorth,390,299\n' >"$tmp/gauges.csv"
# shellcheck disable=SC2086
run gauges-serial 0 circular_dambreak $small --gauges.file="$tmp/gauges.csv" \
	--gauges.interval=0.5
check "gauges: serial run" $? "$(tail -3 "$tmp/gauges-serial.err")"
# shellcheck disable=SC2086
run gauges-np2 2 circular_dambreak $small --gauges.file="$tmp/gauges.csv" \
	--gauges.interval=0.5 --parallel.subdomains=3
check "gauges: 3 subdomains on 2 ranks" $? "$(tail -3 "$tmp/gauges-np2.err")"
for f in gauges.csv gauges_summary.csv; do
	[ -s "$tmp/gauges-serial/$f" ] && cmp -s "$tmp/gauges-serial/$f" "$tmp/gauges-np2/$f"
	check "gauges: $f byte for byte equal to the serial one" $?
done

# only rank 0 prints: one 'done' line, one report with a row per subdomain
n=$(grep -c "spate: done:" "$tmp/circular_dambreak-np4.err")
[ "$n" -eq 1 ]
check "4 ranks: one 'done' line on stderr ($n)" $?
n=$(grep -cE "^spate: +[0-9]+ +[0-9]+-[0-9]+ \([0-9]+\) +[0-9]+ +cpu " \
	"$tmp/circular_dambreak-np4.err")
[ "$n" -eq 4 ]
check "4 ranks: the report has a row per subdomain ($n of 4)" $? \
	"$(cat "$tmp/circular_dambreak-np4.err")"
[ -s "$tmp/circular_dambreak-np4.json" ]
check "4 ranks: rank 0 wrote the summary" $?

# a fault of the scenario, which every rank reads, is told once, and every
# rank stops with the usage status without MPI_Abort (decomp_world_agree);
# before, each rank printed it and the first to fail aborted the others
for bad in "--physics.manningg=0.02" "--domain.nx=-3" "$tmp/no-such.conf"; do
	args=("$scen/circular_dambreak.conf" "$bad")
	[ "${bad#--}" = "$bad" ] && args=("$bad")
	timeout 60 "$MPIEXEC" --oversubscribe -np 3 "$SPATE" run "${args[@]}" --no-output \
		>"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	n=$(grep -c '^spate: ' "$tmp/bad.err")
	[ "$rc" -ne 0 ] && [ "$n" -eq 1 ] && ! grep -q MPI_ABORT "$tmp/bad.err" &&
		! grep -q MPI_ABORT "$tmp/bad.out"
	check "3 ranks, $bad: one message ($n lines from spate), no MPI_Abort (exit $rc)" $? \
		"$(head -c 600 "$tmp/bad.err")"
done

# a fault of the set-up (the device, the DEM, the gauge file, the checkpoint,
# the output folder or summary that rank 0 alone makes, a plan of
# subdomains that cannot be) is told as one process tells it, once, and
# every rank stops with its exit status without MPI_Abort; before, each rank
# told it and the first to stop aborted the others
mkdir -p "$tmp/file"
: >"$tmp/file/f"
for bad in "--domain.setup=dem --domain.dem=$tmp/no-such-dem.asc" \
	"--gauges.file=$tmp/no-such-gauges.csv" "--restart=$tmp/no-such-checkpoint.nc" \
	"--output.dir=$tmp/file/f/out" "--summary=$tmp/file/f/s.json" \
	"--domain.ny=4" "--parallel.subdomains=2" "--device=no-such-device"; do
	# shellcheck disable=SC2086
	timeout 60 "$SPATE" run "$scen/circular_dambreak.conf" $small --device=cpu $bad \
		>/dev/null 2>"$tmp/bad1.err"
	rc1=$?
	# shellcheck disable=SC2086
	timeout 60 "$MPIEXEC" --oversubscribe -np 3 "$SPATE" run "$scen/circular_dambreak.conf" \
		$small --device=cpu $bad >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	n1=$(grep -c '^spate: ' "$tmp/bad1.err")
	n=$(grep -c '^spate: ' "$tmp/bad.err")
	# 2 subdomains, 4 rows: one process runs them; 3 ranks need 3 of 2 rows
	case $bad in --parallel.subdomains=2 | --domain.ny=4) rc1=2 n1=2 ;; esac
	[ "$rc" -eq "$rc1" ] && [ "$rc" -ne 0 ] && [ "$n" -eq "$n1" ] &&
		! grep -q MPI_ABORT "$tmp/bad.err" "$tmp/bad.out"
	check "3 ranks, $bad: exit $rc ($rc1), $n lines from spate ($n1), no MPI_Abort" $? \
		"$(head -c 800 "$tmp/bad.err")"
done
# spate ensemble refuses mpirun: once, exit 1, no MPI_Abort (before, every
# rank told it and the first to stop aborted the others)
timeout 60 "$MPIEXEC" --oversubscribe -np 3 "$SPATE" ensemble "$scen/circular_dambreak.conf" \
	--vary=physics.manning=0.01:0.03 --members=2 --out="$tmp/ens" --device=cpu \
	>"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
n=$(grep -c '^spate: ' "$tmp/bad.err")
[ "$rc" -eq 1 ] && [ "$n" -eq 1 ] && grep -q "without mpirun" "$tmp/bad.err" &&
	! grep -q MPI_ABORT "$tmp/bad.err" "$tmp/bad.out"
check "3 ranks, spate ensemble: refused once ($n lines from spate), exit $rc (1), no MPI_Abort" \
	$? "$(head -c 800 "$tmp/bad.err")"
# the DEM on two ranks' file system but not the third's: that rank tells
if [ -d "${SPATE_DATA:-/nonexistent}/malpasset" ] || [ -d ../shared/data/malpasset ]; then
	data=${SPATE_DATA:-$(cd ../shared/data && pwd)}
	mal=(run "$scen/malpasset.conf" --domain.dem=malpasset/malpasset_dem_20m.asc
		--run.end_time=1 --device=cpu --no-output)
	timeout 60 "$MPIEXEC" --oversubscribe -np 2 -x SPATE_DATA="$data" "$SPATE" "${mal[@]}" : \
		-np 1 -x SPATE_DATA="$tmp/nowhere" "$SPATE" "${mal[@]}" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	n=$(grep -c "spate: terrain: .*nowhere" "$tmp/bad.err")
	[ "$rc" -eq 2 ] && [ "$n" -eq 1 ] && ! grep -q MPI_ABORT "$tmp/bad.err" "$tmp/bad.out"
	check "no DEM on rank 2 alone: exit $rc (2), told $n time(s) (1), no MPI_Abort" $? \
		"$(head -c 800 "$tmp/bad.err")"
fi

if [ "$fail" -ne 0 ]; then
	echo "mpi_decomp.sh: $fail check(s) FAILED"
	exit 1
fi
echo "mpi_decomp.sh: all checks passed"
exit 0
