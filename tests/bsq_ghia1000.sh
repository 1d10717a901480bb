#!/bin/bash
# bsq_ghia1000.sh: issue 21's line "lid-driven cavity, Re = 1000: u and v on
# the centrelines within 1% of the lid speed of Ghia et al. at every
# tabulated point" on the CPU, as a user runs it: tests/bsq_gpu_valid.sh's
# case cavity96 (scenarios/bsq_cavity.conf with re = 1000, 96 x 1 x 96
# cells, multigrid to max |div u| 1e-8, from rest to t = 60 lid times,
# 17701 steps, about 20 s) on --device=cpu.  The grid and why it is that
# one: bsq_gpu_valid.sh's header.  It fails when one of the 34 points is
# more than 0.01 U off Ghia's table (80^2 and 128^2 each do, at different
# points) or when the flow has not settled.  Skips (77) without the
# reference data, python3, or in a single-precision build (its divergence
# tolerance 1e-8 is below fp32's round-off).
set -u
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "bsq_ghia1000.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
here=$(cd "$(dirname "$0")" && pwd)
if "$SPATE" --version | grep -q '^boussinesq precision: single'; then
	echo "bsq_ghia1000.sh: single-precision Boussinesq build: skipped"
	exit 77
fi
BSQ_VALID_DEVICE=cpu BSQ_VALID_CASES=cavity96 BSQ_VALID_N= BSQ_VALID_T= \
	exec bash "$here/bsq_gpu_valid.sh"
