#!/bin/bash
# gpu_oom.sh: out of GPU memory is a message, not a crash.  The test-only
# hook SPATE_TEST_GPU_MEM_LIMIT=bytes makes every device allocation that
# would take spate's GPU memory past it fail as cudaMalloc does when the
# device is full.  The flood on one GPU and on two GPU subdomains, and the
# Boussinesq cavity, each under a limit of 1 MB: exit status 2, and the
# message gives the bytes needed, taken and free and what to do (more
# GPUs, a coarser grid, single precision).  The same runs without the hook
# succeed.  Skips (77) without a GPU.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "gpu_oom.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
	echo "gpu_oom.sh: no CUDA GPU (or spate built without CUDA): skipped"
	exit 77
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-oom.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
unset SPATE_TEST_GPU_MEM_LIMIT
fail=0

result() { # result OK MESSAGE
	if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}

# oom NAME ARGS...: fails under the limit with the message; runs without it
oom() {
	local name=$1 rc miss="" f
	shift
	SPATE_TEST_GPU_MEM_LIMIT=1000000 "$SPATE" "$@" --no-output >"$tmp/out" 2>"$tmp/err"
	rc=$?
	for f in "out of GPU memory on device" "bytes" "more needed" "taken so far" "free of" \
		"more GPUs" "coarser grid" "single precision"; do
		grep -qF -- "$f" "$tmp/err" || miss="$miss '$f'"
	done
	result $(( rc != 2 )) "$name: 1 MB of GPU memory: exit $rc (2 expected)"
	result $(( ${#miss} != 0 )) "$name: the message${miss:+ lacks$miss}: \
$(grep -m1 'out of GPU' "$tmp/err")"
	"$SPATE" "$@" --no-output >/dev/null 2>"$tmp/err"
	rc=$?
	result $rc "$name: without the limit: exit $rc"
}

oom "flood, one GPU" run "$scen/circular_dambreak.conf" --device=cuda --run.end_time=1
oom "flood, two GPU subdomains" run "$scen/circular_dambreak.conf" --device=cuda \
	--run.end_time=1 --parallel.subdomains=2
oom "Boussinesq cavity" run "$scen/bsq_cavity.conf" --domain.n=512 --device=cuda \
	--run.end_time=0.01
exit $fail
