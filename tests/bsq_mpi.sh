#!/bin/bash
# bsq_mpi.sh: the Boussinesq slabs over 1, 2 and 3 MPI ranks (issue 21).
# 1. tests/t_bsq_slabs under mpiexec: every rank steps each case on one
#    domain and on as many slabs as ranks and one more (each rank owning a
#    group of slabs; halos by MPI, the levels too coarse to cut gathered on
#    every rank), under each overlap strategy, gathers the slabs and requires
#    the fields byte for byte equal to its own one-domain run, and every
#    step's statistics equal (42 comparisons; on 1 rank its serial set, 84).
# 2. `spate run` of the lid cavity under mpiexec on 2 and 3 ranks: series.csv
#    and profiles.csv byte for byte those of one process; [parallel]
#    transport = nccl on the CPU's ranks refused.  With a GPU, 2 ranks on
#    GPUs against one GPU process too: transport auto and mpi; and with
#    NCCL built and at least 2 GPUs (as `spate devices` counts them; NCCL
#    takes one GPU per rank) transport = nccl under each overlap, the log
#    saying that the halos went GPU to GPU (else a "skip" line).
#    The heated cavity and Rayleigh-Benard on 2 and 3 ranks, a series row
#    every step: series.csv (energy, Nusselt numbers) equal to one process's
#    with the fields gathered only once (summary "gathers").
# 3. results.nc of the lid-driven cube on 1, 2 and 3 ranks (and 5 slabs on
#    3 ranks, and a restart from 2 ranks on 3): ncdump text equal to that of
#    one process; the log says the ranks wrote it in parallel where spate
#    has the MPI flavour of NetCDF (else: rank 0 from gathered fields).
#
# Environment (set by make check): SPATE, MPIEXEC (empty: none found),
# SPATE_HAVE_MPI, SPATE_HAVE_NCCL and SPATE_HAVE_NETCDF_PAR (yes/no; unset:
# from spate --version).  Skips (77) without MPI or mpiexec, and (after the
# other checks) when spate has NetCDF but ncdump is missing.
set -u

. "$(dirname "$0")/mpi_common.sh" bsq_mpi.sh

prog=${top_builddir:-.}/tests/t_bsq_slabs
if [ -x "$prog" ]; then
	for np in 1 2 3; do
		want=42
		[ "$np" -eq 1 ] && want=84
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

# cav0: the log's notes kept (NCCL's among them); cav: quiet
cav0=(run "$scen/bsq_cavity.conf" --domain.n=16 --run.end_time=0.2 --output.netcdf=no)
cav=("${cav0[@]}" -q)
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
# NCCL moves halos between GPUs only: asked for on the CPU's ranks, refused.
timeout 300 "$MPIEXEC" --oversubscribe -np 2 "$SPATE" "${cav[@]}" --device=cpu \
	--parallel.transport=nccl --output.dir="$tmp/cnccl" >"$tmp/cnccl.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q "transport = nccl" "$tmp/cnccl.out"
check "transport = nccl on the CPU's ranks: refused" $? "exit $rc; $(head -c 300 "$tmp/cnccl.out")"

# gpu_ranks NAME ARGS...: 2 ranks on GPUs (rank r on GPU r mod GPUs), the
# log in $tmp/NAME.out, equal to one GPU process.
gpu_ranks() {
	local name=$1 rc
	shift
	timeout 300 "$MPIEXEC" --oversubscribe -np 2 "$SPATE" "$@" --device=cuda \
		--output.dir="$tmp/$name" >"$tmp/$name.out" 2>&1
	rc=$?
	cmp -s "$tmp/gone/series.csv" "$tmp/$name/series.csv" &&
		cmp -s "$tmp/gone/profiles.csv" "$tmp/$name/profiles.csv"
	check "cavity on GPUs, 2 ranks, $name: series.csv and profiles.csv equal to one GPU" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$tmp/$name.out")"
}
# On GPUs where there are: transport auto (NCCL where it can be had, else
# through host buffers and MPI, with a note) and mpi.
if timeout 300 "$SPATE" "${cav[@]}" --device=cuda --output.dir="$tmp/gone" >/dev/null \
	2>"$tmp/gone.err"; then
	gpu_ranks auto "${cav[@]}"
	gpu_ranks mpi "${cav[@]}" --parallel.transport=mpi
	ngpu=$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')
	if [ "${SPATE_HAVE_NCCL:-no}" != yes ]; then
		echo "skip the GPU ranks through NCCL (spate built without NCCL)"
	elif [ "$ngpu" -lt 2 ]; then
		echo "skip the GPU ranks through NCCL ($ngpu GPU; NCCL takes one a rank: needs 2)"
	else
		for ov in streams compute none; do
			gpu_ranks "nccl-$ov" "${cav0[@]}" --parallel.transport=nccl \
				--parallel.overlap="$ov"
			grep -q "remote halos GPU to GPU through NCCL" "$tmp/nccl-$ov.out"
			check "cavity on GPUs, 2 ranks, nccl-$ov: the halos went through NCCL" $? \
				"$(head -c 300 "$tmp/nccl-$ov.out")"
		done
	fi
else
	echo "skip the GPU ranks (no usable GPU: $(head -n 1 "$tmp/gone.err"))"
fi
# Series rows from the ranks' planes (bsq_slabs_series: each rank sums its
# planes, a few numbers a plane go to rank 0; no gather of the fields): the
# heated cavity (the wall's Nusselt number) and Rayleigh-Benard (the volume
# form), a row every step, no results.nc, on 2 and 3 ranks: series.csv
# byte for byte that of one process (6 rows), and the summary's "gathers"
# 1 (the end, for profiles.csv); it was one a step before.
heat=(run "$scen/bsq_heated_cavity.conf" --domain.n=16 --run.max_steps=6 -q)
rb=(run "$scen/bsq_rayleigh_benard.conf" --domain.nx=16 --domain.ny=16 --domain.nz=8
	--run.max_steps=6 -q)
for c in heat rb; do
	eval "args=(\"\${$c[@]}\")"
	args+=(--output.netcdf=no --output.series_interval=0)
	timeout 300 "$SPATE" "${args[@]}" --output.dir="$tmp/s1-$c" >/dev/null 2>&1
	check "$c on one process" $?
	for np in 2 3; do
		timeout 300 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" "${args[@]}" \
			--output.dir="$tmp/s$np-$c" --summary "$tmp/s$np-$c.json" >"$tmp/s$np-$c.out" 2>&1
		rc=$?
		rows=$(grep -c . "$tmp/s$np-$c/series.csv" 2>/dev/null)
		nu=$(awk -F, 'NR == 3 { print $9 }' "$tmp/s$np-$c/series.csv" 2>/dev/null)
		cmp -s "$tmp/s1-$c/series.csv" "$tmp/s$np-$c/series.csv" && [ "$rows" -eq 7 ] &&
			[ -n "$nu" ] && [ "$nu" != nan ] && grep -q '"gathers": 1,\?$' "$tmp/s$np-$c.json"
		st=$((rc || $?))
		what="series.csv ($rows lines, Nusselt $nu) equal to one process, fields gathered once"
		check "$c on $np ranks: $what" $st \
			"exit $rc; $(grep gathers "$tmp/s$np-$c.json"); $(head -c 300 "$tmp/s$np-$c.out")"
	done
done

# A restart under mpirun: rank 0 reads the checkpoint, the other ranks get
# their planes from it.  Stopped at step 3 on 2 ranks, continued on 2 and
# on 3: series.csv and profiles.csv those of one process run through; a
# file that is no checkpoint stops every rank with the reader's message.
for np in 2 3; do
	d="$tmp/rs$np"
	timeout 300 "$MPIEXEC" --oversubscribe -np 2 "$SPATE" "${cav[@]}" --output.dir="$d" \
		--run.max_steps=3 --checkpoint-every=0.2 >"$d.1.out" 2>&1
	ck=$(ls "$d/checkpoint.nc" "$d/checkpoint.bin" 2>/dev/null | head -n 1)
	timeout 300 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" "${cav[@]}" \
		--output.dir="$d" --restart "${ck:-$d/checkpoint.nc}" >"$d.2.out" 2>&1
	rc=$?
	cmp -s "$tmp/one/series.csv" "$d/series.csv" && cmp -s "$tmp/one/profiles.csv" "$d/profiles.csv"
	check "cavity stopped on 2 ranks at step 3, continued on $np: series.csv and profiles.csv equal to one process" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$d.2.out")"
done
echo "not a checkpoint" >"$tmp/bad.nc"
timeout 120 "$MPIEXEC" --oversubscribe -np 2 "$SPATE" "${cav[@]}" --output.dir="$tmp/rsbad" \
	--restart "$tmp/bad.nc" >"$tmp/rsbad.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q "not a spate checkpoint" "$tmp/rsbad.out"
check "2 ranks restarted from a file that is no checkpoint: refused, no rank left waiting" $? \
	"exit $rc; $(head -c 300 "$tmp/rsbad.out")"

# results.nc over ranks: the lid-driven cube at 12^3, 7 steps of 0.01, a
# record every 0.02 (5 records), on 1, 2 and 3 ranks: `ncdump -p 9,17` of
# every file the text of one process's.  Each run in a folder of its own
# with the same output folder "out", so that the parameters written in
# the file agree; where they cannot (5 slabs on 3 ranks; a run stopped at
# step 3 on 2 ranks with a checkpoint and continued on 3, results.nc
# continued in place) only the spate_parameters line may differ.  With
# the MPI flavour of NetCDF (SPATE_HAVE_NETCDF_PAR=yes) the log must say
# that the ranks wrote results.nc in parallel, else that rank 0 wrote it
# from the gathered fields.  Without ncdump: the script ends with 77.
nc_skip=
if ! "$SPATE" --version | grep -q '^NetCDF: yes'; then
	echo "skip results.nc over ranks (spate built without NetCDF)"
elif ! command -v ncdump >/dev/null 2>&1; then
	echo "skip results.nc over ranks (no ncdump: install netcdf-bin)"
	nc_skip=yes
else
	par=${SPATE_HAVE_NETCDF_PAR:-}
	if [ -z "$par" ]; then
		par=no
		"$SPATE" --version | grep -q '^NetCDF: yes.*MPI flavour' && par=yes
	fi
	if [ "$par" = yes ]; then
		how="written in parallel" said="the ranks wrote it in parallel"
	else
		how="written by rank 0 from the gathered fields" said="rank 0 wrote it, gathered"
	fi
	cube=(run "$(cd "$scen" && pwd)/bsq_cube.conf" --domain.n=12 --run.dt=0.01
		--run.end_time=0.07 --output.interval=0.02 --output.dir=out)
	# ncrun NAME NP ARGS...: spate on NP ranks in $tmp/nc-NAME, its log
	# there in log, the ncdump text of its results.nc in $tmp/nc-NAME.cdl
	ncrun() {
		local name=$1 np=$2 rc
		shift 2
		mkdir -p "$tmp/nc-$name"
		(cd "$tmp/nc-$name" && timeout 300 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" \
			"${cube[@]}" "$@" >log 2>&1)
		rc=$?
		ncdump -p 9,17 "$tmp/nc-$name/out/results.nc" >"$tmp/nc-$name.cdl" 2>&1 || rc=1
		return $rc
	}
	# ncsame NAME NP [params]: its text equal to one process's (params: but
	# for the spate_parameters line), the log naming how it was written
	ncsame() {
		local a=$tmp/nc-one.cdl b=$tmp/nc-$1.cdl
		if [ "${3:-}" = params ]; then
			grep -v ':spate_parameters = ' "$a" >"$a.p"
			grep -v ':spate_parameters = ' "$b" >"$b.p"
			a=$a.p b=$b.p
		fi
		cmp -s "$a" "$b" && [ "$(grep -c ' = UNLIMITED ; // (5 currently)' "$b")" -eq 1 ] &&
			grep -q "results.nc $how" "$tmp/nc-$1/log"
	}
	ncrun one 1
	check "cube 12^3 on one process: results.nc, 5 records" $? "$(head -c 300 "$tmp/nc-one/log")"
	for np in 2 3; do
		ncrun "np$np" "$np"
		rc=$?
		ncsame "np$np" "$np"
		check "cube 12^3 on $np ranks: results.nc (ncdump) equal to one process's; $said" \
			$((rc || $?)) "exit $rc; $(diff "$tmp/nc-one.cdl" "$tmp/nc-np$np.cdl" | head -c 200)
			$(head -c 300 "$tmp/nc-np$np/log")"
	done
	ncrun slabs5 3 --parallel.subdomains=5
	rc=$?
	ncsame slabs5 3 params
	check "cube 12^3, 5 slabs on 3 ranks: results.nc equal to one process's" $((rc || $?)) \
		"exit $rc; $(head -c 300 "$tmp/nc-slabs5/log")"
	ncrun rs 2 --run.max_steps=3 --checkpoint-every=0.02 &&
		mv "$tmp/nc-rs/log" "$tmp/nc-rs/log1" &&
		ncrun rs 3 --restart out/checkpoint.nc
	rc=$?
	ncsame rs 3 params
	check "cube 12^3 stopped on 2 ranks at step 3, continued on 3: results.nc equal to one process's" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$tmp/nc-rs/log")"
fi

# Memory: a rank but 0 holds only its slabs, from the start (a fresh start
# builds the whole state on rank 0, which keeps it for the outputs).  The
# cube at 96^3 on 2 ranks: rank 0's resident memory at the end, and its
# peak, exceed rank 1's by at least half the 13 whole fields (u, v, w, T, 8
# explicit terms, p; the multigrid levels come on top).  When every rank
# built and kept the whole state the figures were within a few MiB.
"$MPIEXEC" --oversubscribe -np 2 "$SPATE" run "$scen/bsq_cube.conf" --domain.n=96 \
	--run.max_steps=1 --output.netcdf=no --output.dir="$tmp/mem" -q \
	--summary "$tmp/mem.json" >"$tmp/mem.out" 2>&1
rc=$?
list() { sed -n "s/^ *\"$1\": \\[\\(.*\\)\\],\\{0,1\\}\$/\\1/p" "$tmp/mem.json" | tr -d ','; }
prec=$(sed -n 's/^ *"precision": "\(.*\)",$/\1/p' "$tmp/mem.json")
bytes=8
[ "$prec" = single ] && bytes=4
# Under AddressSanitizer the resident memory is its allocator's (freed
# blocks kept in quarantine, shadow memory): the check says nothing there.
asan=no
case "$(ldd "$SPATE" 2>/dev/null)" in *libasan*) asan=yes ;; esac
for what in resident_mib peak_mib; do
	set -- $(list $what)
	if [ $asan = yes ]; then
		echo "skip the memory check (AddressSanitizer build: $what $*)"
		continue
	fi
	if [ $rc -eq 0 ] && [ $# -eq 2 ] && awk -v a="$1" 'BEGIN { exit !(a < 0) }'; then
		echo "skip the memory check ($what not readable here)"
		continue
	fi
	awk -v r0="${1:-0}" -v r1="${2:-0}" -v b=$bytes 'BEGIN {
		whole = 96 * 96 * 96 * b * 13 / 1048576
		exit !(r0 - r1 > whole / 2) }'
	check "2 ranks, cube 96^3: $what rank 0 ${1:-?}, rank 1 ${2:-?}: rank 1 holds no whole state" \
		$((rc || $?)) "exit $rc; $(head -c 300 "$tmp/mem.out")"
done
# a fault of the scenario is told once by 3 ranks, which stop without
# MPI_Abort (decomp_world_agree)
for bad in "--physics.ree=100" "--domain.n=0"; do
	timeout 60 "$MPIEXEC" --oversubscribe -np 3 "$SPATE" run "$scen/bsq_cavity.conf" \
		"$bad" >"$tmp/bad.out" 2>"$tmp/bad.err"
	rc=$?
	n=$(grep -c '^spate: ' "$tmp/bad.err")
	[ "$rc" -ne 0 ] && [ "$n" -eq 1 ] && ! grep -q MPI_ABORT "$tmp/bad.err" "$tmp/bad.out"
	check "3 ranks, $bad: one message ($n lines from spate), no MPI_Abort (exit $rc)" $? \
		"$(head -c 600 "$tmp/bad.err")"
done
[ "$fail" -gt 0 ] && exit 1
[ -n "$nc_skip" ] && exit 77
exit 0
