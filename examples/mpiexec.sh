#!/bin/bash
# examples/mpiexec.sh: the same run without a batch system, with Open MPI's
# mpiexec: one rank per GPU on this machine (NGPU, default: all it has).
#   examples/mpiexec.sh [NGPU]
# Each rank finds its rank on the node in OMPI_COMM_WORLD_LOCAL_RANK (set by
# Open MPI; MPICH's is MPI_LOCALRANKID) and runs on GPU (local rank) mod
# (GPUs it sees): no CUDA_VISIBLE_DEVICES needed.  --bind-to none leaves the
# rank's threads free (Open MPI would pin each rank to one core).
# On two machines of 4 GPUs each:
#   mpiexec -n 8 --host node1:4,node2:4 -x SPATE_DATA -x OMP_NUM_THREADS \
#       --bind-to none spate run scenarios/malpasset.conf --device=cuda
set -euo pipefail

SPATE=${SPATE:-spate}
SCENARIO=${SCENARIO:-scenarios/malpasset.conf}
export SPATE_DATA=${SPATE_DATA:-$PWD/data}
OUT=${OUT:-malpasset-out}
NGPU=${1:-$(nvidia-smi -L 2>/dev/null | wc -l || true)}
case $NGPU in
'' | *[!0-9]* | 0)
	echo "mpiexec.sh: NGPU = '$NGPU': need a number of GPUs >= 1 (none found by" \
		"nvidia-smi -L?): $0 NGPU" >&2
	exit 1 ;;
esac
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}

mkdir -p "$OUT"
mpiexec -n "$NGPU" --bind-to none "$SPATE" run "$SCENARIO" \
	--device=cuda \
	--data-dir="$SPATE_DATA" \
	--output.dir="$OUT" \
	--summary "$OUT/summary.json"
