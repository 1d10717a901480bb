#!/bin/bash
# guard_gpu.sh: guard.sh on one GPU (the flag set by the CUDA stage
# kernels, the last good state kept on the device).  Skips (77) without a
# GPU.
GUARD_DEVICE=cuda exec "$(dirname "$0")/guard.sh"
