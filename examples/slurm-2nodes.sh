#!/bin/bash
# examples/slurm-2nodes.sh: Malpasset at 5 m on two nodes with 4 GPUs each,
# 8 MPI ranks, one GPU each.   Submit:  sbatch examples/slurm-2nodes.sh
#
# GPU binding: as in slurm-1node-4gpu.sh.  Each rank takes GPU
# (rank on its node) mod (GPUs it sees): SLURM_LOCALID 0-3 on each node ->
# GPUs 0-3 of that node; with --gpus-per-task=1 each rank sees one GPU and
# takes it.  Ranks 3 and 4 are neighbours on different nodes: their halos
# (two rows of cells per stage) cross the network.
#
# Halos between ranks: [parallel] transport = auto uses NCCL when spate was
# built --with-nccl and every rank drives a GPU of its own, else host-staged
# MPI (pinned buffers); force one with --parallel.transport=mpi or nccl.
# The results are bitwise the same either way, and the same as on one GPU.
#
# The 5 m grid is refined from the 10 m DEM ([domain] cellsize).
#SBATCH --job-name=spate-malpasset-2n
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=00:30:00
#SBATCH --output=spate-%j.log
##SBATCH --partition=gpu
##SBATCH --account=myproject
set -euo pipefail

SPATE=${SPATE:-spate}
SCENARIO=${SCENARIO:-scenarios/malpasset.conf}
export SPATE_DATA=${SPATE_DATA:-$PWD/data}
OUT=${OUT:-malpasset-5m-${SLURM_JOB_ID:-local}}
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}

mkdir -p "$OUT"
# 8 ranks (4 per node), one subdomain each; rank 0 writes (OUT must be on a
# file system that the first node sees; a shared one is simplest).
srun --cpu-bind=cores "$SPATE" run "$SCENARIO" \
	--device=cuda \
	--data-dir="$SPATE_DATA" \
	--domain.cellsize=5 \
	--output.dir="$OUT" \
	--parallel.transport=auto \
	--checkpoint-every=600 \
	--summary "$OUT/summary.json"
