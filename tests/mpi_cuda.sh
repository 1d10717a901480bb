#!/bin/bash
# mpi_cuda.sh: 1 GPU vs 2 MPI ranks with one GPU each.  The circular dam
# break and the dam break over bumps (dry bed) run on one GPU without
# mpiexec, then on 2 ranks (rank r on GPU r mod GPUs: with a single GPU the
# two ranks share it), for each [parallel] overlap strategy, and with 3
# subdomains on the 2 ranks; every grid written (h, w, u, v and the flood
# products, ESRI ASCII) must equal the single-GPU one byte for byte, and the
# report must name the GPU of each subdomain.  The halos between ranks go
# host-staged (transport = mpi), then, with NCCL and 2 GPUs, GPU to GPU
# (transport = nccl, each overlap; auto picks NCCL there); where NCCL cannot
# take one GPU per rank (3 subdomains on 2 ranks, or 2 ranks on one GPU) the
# run falls back to MPI with a note.  Every run gives the same bytes.
#
# Environment (set by make check): SPATE, SPATE_SCENARIOS, MPIEXEC (empty:
# none found), SPATE_HAVE_MPI and SPATE_HAVE_NCCL (yes/no).  Skips (77)
# without MPI, mpiexec or a GPU; the NCCL part without NCCL or 2 GPUs.
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_cuda.sh
ngpu=$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')
if [ "$ngpu" -lt 1 ]; then
	echo "mpi_cuda.sh: no CUDA GPU (or spate built without CUDA): skipped"
	exit 77
fi
echo "mpi_cuda.sh: $ngpu GPU(s)"

# run NAME NP SCENARIO ARGS...: NP = 0 runs without mpiexec
run() {
	local name=$1 np=$2 sc=$3
	shift 3
	if [ "$np" -eq 0 ]; then
		timeout 120 "$SPATE" run "$scen/$sc.conf" --device=cuda --output.format=ascii \
			--output.dir="$tmp/$name" "$@" 2>"$tmp/$name.err" >/dev/null
	else
		timeout 120 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" run "$scen/$sc.conf" \
			--device=cuda --output.format=ascii --output.dir="$tmp/$name" "$@" \
			2>"$tmp/$name.err" >/dev/null
	fi
}

same() {   # same NAME REF: every .asc of REF equal in NAME
	local f bad="" k=0
	for f in "$tmp/$2"/*.asc; do
		k=$((k + 1))
		cmp -s "$f" "$tmp/$1/${f##*/}" || bad="$bad ${f##*/}"
	done
	[ "$k" -gt 0 ] && [ -z "$bad" ]
	check "$1: $k grids byte for byte equal to $2" $? "differ:$bad"
}

small="--domain.nx=200 --domain.ny=160 --run.end_time=1e9 --run.max_steps=80 --output.interval=0"
for sc in circular_dambreak bumps_dambreak; do
	# shellcheck disable=SC2086
	run "$sc-1gpu" 0 "$sc" $small
	check "$sc: one GPU" $? "$(tail -3 "$tmp/$sc-1gpu.err")"
	for ov in none compute streams; do
		# shellcheck disable=SC2086
		run "$sc-np2-$ov" 2 "$sc" $small --parallel.overlap=$ov --parallel.transport=mpi
		st=$?
		if [ "$st" -ne 0 ] && grep -qi "not enough slots\|mpi_init\|orte\|pmix" \
			"$tmp/$sc-np2-$ov.err"; then
			echo "mpi_cuda.sh: $MPIEXEC cannot start programs here: skipped"
			cat "$tmp/$sc-np2-$ov.err"
			exit 77
		fi
		check "$sc: 2 ranks, overlap $ov" $st "$(tail -3 "$tmp/$sc-np2-$ov.err")"
		same "$sc-np2-$ov" "$sc-1gpu"
	done
done
# shellcheck disable=SC2086
run sub3-np2 2 circular_dambreak $small --parallel.subdomains=3 --parallel.transport=mpi
check "3 subdomains on 2 ranks" $? "$(tail -3 "$tmp/sub3-np2.err")"
same sub3-np2 circular_dambreak-1gpu
n=$(grep -cE "^spate: +[0-9]+ +[0-9]+-[0-9]+ \([0-9]+\) +[0-9]+ +cuda:[0-9]+ " \
	"$tmp/sub3-np2.err")
[ "$n" -eq 3 ]
check "3 subdomains on 2 ranks: the report names a GPU for each ($n of 3)" $? \
	"$(cat "$tmp/sub3-np2.err")"
cat "$tmp/sub3-np2.err"

# ---- GPU to GPU through NCCL
if [ "${SPATE_HAVE_NCCL:-no}" != yes ]; then
	echo "mpi_cuda.sh: spate built without NCCL: transport = nccl not tested"
elif [ "$ngpu" -lt 2 ]; then
	# two ranks on one GPU: NCCL cannot have them, the halos go through MPI
	# shellcheck disable=SC2086
	run shared-nccl 2 circular_dambreak $small --parallel.transport=nccl
	check "transport = nccl, 2 ranks on 1 GPU" $? "$(tail -3 "$tmp/shared-nccl.err")"
	grep -q "share a GPU.*through MPI" "$tmp/shared-nccl.err"
	check "transport = nccl, 2 ranks on 1 GPU: falls back to MPI with a note" $? \
		"$(cat "$tmp/shared-nccl.err")"
	same shared-nccl circular_dambreak-1gpu
	echo "mpi_cuda.sh: one GPU: transport = nccl GPU to GPU not tested (needs 2)"
else
	for sc in circular_dambreak bumps_dambreak; do
		for ov in none compute streams; do
			# shellcheck disable=SC2086
			run "$sc-nccl-$ov" 2 "$sc" $small --parallel.overlap=$ov \
				--parallel.transport=nccl
			check "$sc: 2 ranks, NCCL, overlap $ov" $? \
				"$(tail -3 "$tmp/$sc-nccl-$ov.err")"
			grep -q "GPU to GPU through NCCL" "$tmp/$sc-nccl-$ov.err"
			check "$sc: 2 ranks, NCCL, overlap $ov: halos went through NCCL" $? \
				"$(cat "$tmp/$sc-nccl-$ov.err")"
			same "$sc-nccl-$ov" "$sc-1gpu"
			same "$sc-nccl-$ov" "$sc-np2-$ov"
		done
	done
	# shellcheck disable=SC2086
	run auto-np2 2 circular_dambreak $small
	check "transport = auto, 2 ranks on 2 GPUs" $? "$(tail -3 "$tmp/auto-np2.err")"
	grep -q "GPU to GPU through NCCL" "$tmp/auto-np2.err"
	check "transport = auto takes NCCL" $? "$(cat "$tmp/auto-np2.err")"
	same auto-np2 circular_dambreak-1gpu
	# rank 1 drives 2 GPUs: NCCL cannot have it, the halos go through MPI
	# shellcheck disable=SC2086
	run sub3-nccl 2 circular_dambreak $small --parallel.subdomains=3 \
		--parallel.transport=nccl
	check "3 subdomains on 2 ranks, transport = nccl" $? "$(tail -3 "$tmp/sub3-nccl.err")"
	grep -q "drives 2 GPUs.*through MPI" "$tmp/sub3-nccl.err"
	check "3 subdomains on 2 ranks, transport = nccl: falls back to MPI with a note" $? \
		"$(cat "$tmp/sub3-nccl.err")"
	same sub3-nccl circular_dambreak-1gpu
	cat "$tmp/circular_dambreak-nccl-streams.err"
fi

if [ "$fail" -ne 0 ]; then
	echo "mpi_cuda.sh: $fail check(s) FAILED"
	exit 1
fi
echo "mpi_cuda.sh: all checks passed"
exit 0
