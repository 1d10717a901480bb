#!/bin/bash
# mpi_threads.sh: ranks that share their CPUs share them out.
#
# Under mpirun --bind-to none every rank may run on all N CPUs of this
# machine; without OMP_NUM_THREADS each rank used to start N OpenMP threads
# (2 ranks x 2 threads on 2 cores: a Boussinesq cube 50 times slower).  Two
# ranks, a small dam break and a small Boussinesq cube; the summary's device
# line must say max(1, N / 2) threads; OMP_NUM_THREADS=3 and [run] threads
# = 3 must still be obeyed.  (Thread counts, not times: no timing here.)
#
# Environment: SPATE, SPATE_HAVE_MPI, MPIEXEC (set by make check).
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_threads.sh
unset OMP_NUM_THREADS

cpus=$(nproc)
want=$((cpus / 2))
[ "$want" -ge 1 ] || want=1

# threads NAME VAR=VALUE|- MPIEXEC-OPTION|- SPATE-ARGS...: run 2 ranks, print
# the summary's thread count (of rank 0's CPU line)
threads() {
	local name=$1 envset=$2 mopt=$3
	shift 3
	[ "$envset" = - ] && envset=SPATE_UNUSED=1
	[ "$mopt" = - ] && mopt=
	# shellcheck disable=SC2086
	timeout 120 env "$envset" "$MPIEXEC" --bind-to none $mopt -np 2 "$SPATE" run "$@" \
		--summary "$tmp/$name.json" --output.dir="$tmp/$name" -q >/dev/null 2>"$tmp/$name.err" || {
		echo "run failed" >&2
		cat "$tmp/$name.err" >&2
		return 1
	}
	sed -n 's/.*(\([0-9]*\) OpenMP thread.*/\1/p' "$tmp/$name.json" | head -n 1
}

flood="$scen/circular_dambreak.conf --device=cpu --domain.nx=40 --domain.ny=40 --run.end_time=1e9
	--run.max_steps=5 --output.interval=0"
cube="$scen/bsq_cube.conf --domain.n=16 --run.end_time=0.05 --output.interval=0"

# shellcheck disable=SC2086
n=$(threads flood - - $flood)
[ "$n" = "$want" ]
check "flood, 2 ranks on $cpus CPUs, --bind-to none: $n thread(s) each (want $want)" $?
# shellcheck disable=SC2086
n=$(threads cube - - $cube)
[ "$n" = "$want" ]
check "Boussinesq cube, 2 ranks on $cpus CPUs: $n thread(s) each (want $want)" $?
# shellcheck disable=SC2086
n=$(threads env3 OMP_NUM_THREADS=3 "-x OMP_NUM_THREADS" $flood)
[ "$n" = 3 ]
check "OMP_NUM_THREADS=3 obeyed: $n" $?
# shellcheck disable=SC2086
n=$(threads key3 - - $flood --run.threads=3)
[ "$n" = 3 ]
check "[run] threads = 3 obeyed: $n" $?
# shellcheck disable=SC2086
n=$(threads cubekey3 - - $cube --run.threads=3)
[ "$n" = 3 ]
check "Boussinesq [run] threads = 3 obeyed: $n" $?

exit $((fail > 0))
