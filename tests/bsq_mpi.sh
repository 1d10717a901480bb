#!/bin/bash
# bsq_mpi.sh: the Boussinesq slabs over 1, 2 and 3 MPI ranks (issue 21).
# 1. tests/t_bsq_slabs under mpiexec: every rank steps each case on one
#    domain and on as many slabs as ranks and one more (each rank owning a
#    group of slabs; halos by MPI, the levels too coarse to cut gathered on
#    every rank), under each overlap strategy, gathers the slabs and requires
#    the fields byte for byte equal to its own one-domain run, and every
#    step's statistics equal (36 comparisons; on 1 rank its serial set, 72).
# 2. `spate run` of the lid cavity under mpiexec on 2 and 3 ranks: series.csv
#    and profiles.csv byte for byte those of one process; with a GPU, 2
#    ranks on GPUs against one GPU process too.
#
# Environment (set by make check): SPATE, MPIEXEC (empty: none found),
# SPATE_HAVE_MPI (yes/no).  Skips (77) without MPI or mpiexec.
set -u

. "$(dirname "$0")/mpi_common.sh" bsq_mpi.sh

prog=${top_builddir:-.}/tests/t_bsq_slabs
if [ -x "$prog" ]; then
	for np in 1 2 3; do
		want=36
		[ "$np" -eq 1 ] && want=72
		timeout 600 "$MPIEXEC" --oversubscribe -np "$np" "$prog" >"$tmp/np$np.out" 2>&1
		rc=$?
		n=$(grep -c ' equal; ' "$tmp/np$np.out")
		[ $rc -eq 0 ] && [ "$n" -eq "$want" ]
		check "$np rank(s): $n of $want slab runs bitwise equal to one domain" $? \
			"exit $rc; $(grep -m3 -e FAIL -e rror "$tmp/np$np.out" | tr '\n' ' ')"
	done
else
	echo "skip t_bsq_slabs under mpiexec (not built: no cmocka)"
fi

cav=(run "$scen/bsq_cavity.conf" --domain.n=16 --run.end_time=0.2 --output.netcdf=no -q)
timeout 300 "$SPATE" "${cav[@]}" --output.dir="$tmp/one" >/dev/null 2>&1
check "cavity on one process" $?
for np in 2 3; do
	timeout 300 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" "${cav[@]}" \
		--output.dir="$tmp/np$np" >"$tmp/run$np.out" 2>&1
	rc=$?
	cmp -s "$tmp/one/series.csv" "$tmp/np$np/series.csv" &&
		cmp -s "$tmp/one/profiles.csv" "$tmp/np$np/profiles.csv"
	check "cavity on $np ranks: series.csv and profiles.csv equal to one process" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$tmp/run$np.out")"
done
# On GPUs where there are (rank r on GPU r mod GPUs; halos through host
# buffers and MPI): 2 ranks equal to one GPU process.
if timeout 300 "$SPATE" "${cav[@]}" --device=cuda --output.dir="$tmp/gone" >/dev/null \
	2>"$tmp/gone.err"; then
	timeout 300 "$MPIEXEC" --oversubscribe -np 2 "$SPATE" "${cav[@]}" --device=cuda \
		--output.dir="$tmp/gnp2" >"$tmp/grun2.out" 2>&1
	rc=$?
	cmp -s "$tmp/gone/series.csv" "$tmp/gnp2/series.csv" &&
		cmp -s "$tmp/gone/profiles.csv" "$tmp/gnp2/profiles.csv"
	check "cavity on GPUs, 2 ranks: series.csv and profiles.csv equal to one GPU process" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$tmp/grun2.out")"
else
	echo "skip the GPU ranks (no usable GPU: $(head -n 1 "$tmp/gone.err"))"
fi
exit $((fail > 0))
