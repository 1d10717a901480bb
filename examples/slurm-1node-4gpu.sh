#!/bin/bash
# examples/slurm-1node-4gpu.sh: Malpasset at 10 m on one node with 4 GPUs,
# one MPI rank per GPU.   Submit:  sbatch examples/slurm-1node-4gpu.sh
#
# GPU binding.  spate binds by itself: each rank reads its rank on the node
# (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID or
# PMI_LOCAL_RANK, the first that is set) and runs its subdomain on GPU
# (local rank x subdomains per rank + k) mod G, G = the GPUs the rank sees.
# Here every task sees the node's 4 GPUs and has one subdomain, so task
# SLURM_LOCALID = r runs on GPU r.  If your site hands each task one GPU
# instead (--gpus-per-task=1, or --gpu-bind=single:1: Slurm then sets
# CUDA_VISIBLE_DEVICES per task), G = 1 and each rank runs on the one GPU it
# sees: the same mapping, nothing to change.  Do not set CUDA_VISIBLE_DEVICES
# to one value for the whole job: the 4 ranks would share one GPU.
#
# Alternative without MPI: one process drives the 4 GPUs (peer copies over
# NVLink): srun --ntasks=1 "$SPATE" run "$SCENARIO" --device=cuda --parallel.subdomains=4
#
# Adapt: the partition/account lines, SPATE (the program), SPATE_DATA (the
# folder that tools/get-malpasset wrote, holding malpasset/), OUT.
#SBATCH --job-name=spate-malpasset
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=00:20:00
#SBATCH --output=spate-%j.log
##SBATCH --partition=gpu
##SBATCH --account=myproject
set -euo pipefail

SPATE=${SPATE:-spate}
SCENARIO=${SCENARIO:-scenarios/malpasset.conf}
export SPATE_DATA=${SPATE_DATA:-$PWD/data}
OUT=${OUT:-malpasset-${SLURM_JOB_ID:-local}}
# OpenMP threads of each rank (host-side work: output, gauges)
export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-1}

mkdir -p "$OUT"
# 4 ranks, one subdomain (a band of grid rows) each; rank 0 writes the output.
srun --cpu-bind=cores "$SPATE" run "$SCENARIO" \
	--device=cuda \
	--data-dir="$SPATE_DATA" \
	--output.dir="$OUT" \
	--parallel.transport=auto \
	--summary "$OUT/summary.json"
