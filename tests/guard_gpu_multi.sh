#!/bin/bash
# guard_gpu_multi.sh: guard_multi.sh on GPU subdomains (1, 2 and 3 on the
# GPUs there are): the flag of each subdomain's control block, the last
# good state kept on its device.  Skips (77) without a GPU.
GUARD_MULTI=cuda exec "$(dirname "$0")/guard_multi.sh"
