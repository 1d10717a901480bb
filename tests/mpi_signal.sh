#!/bin/bash
# mpi_signal.sh: SIGTERM during a run on 2 MPI ranks (a flood, and a
# Boussinesq run to rank 1).  Sent to one rank
# alone (kill PID), or to every rank (as Slurm's scancel does), it must stop
# every rank at the same step: a checkpoint, one "interrupted" line, the
# "continue with" line, exit status 3, no MPI_Abort.  Before, a rank that
# saw the signal alone left its loop and waited in the checkpoint's gather
# while the other stepped on, for ever; with every rank signalled each rank
# told of it, and the end's MPI_Abort (status 3 not agreed) could kill rank
# 0 while it wrote the results.  The checkpoint, continued on 3 ranks and on
# one process to the next output time, must give the grids of a run never
# stopped.
#
# Environment (set by make check): SPATE, SPATE_SCENARIOS, MPIEXEC (empty:
# none found), SPATE_HAVE_MPI (yes/no).  Skips (77) without MPI or mpiexec.
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_signal.sh

sig=(run "$scen/circular_dambreak.conf" --domain.nx=120 --domain.ny=120 --domain.dx=8
	--domain.dy=8 --initial.h_out=0.01 --output.interval=20 --device=cpu --output.format=ascii
	--output.grids=no)

# the rank processes that mpiexec (PID $1) started
ranks_of() {
	pgrep -P "$1" -f "$SPATE run" 2>/dev/null
}

# rank_pid MPIEXEC_PID RANK: the process of that rank
rank_pid() {
	local p
	for p in $(ranks_of "$1"); do
		if tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null |
			grep -qE "^(OMPI_COMM_WORLD_RANK|PMI_RANK|PMIX_RANK)=$2\$"; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# interrupt NAME WHO ARGS...: a long run of spate ARGS on 2 ranks, SIGTERM to
# rank 1 (WHO = 1) or to every rank (WHO = all) once it steps
interrupt() {
	local name=$1 who=$2 mp pids="" k rc
	shift 2
	"$MPIEXEC" --oversubscribe -np 2 "$SPATE" "$@" \
		"--output.dir=$tmp/$name" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	mp=$!
	for k in $(seq 100); do
		grep -q "spate: t = " "$tmp/$name.err" && break
		sleep 0.2
	done
	if [ "$who" = all ]; then
		pids=$(ranks_of "$mp")
	else
		pids=$(rank_pid "$mp" "$who")
	fi
	if [ -z "$pids" ]; then
		kill -KILL "$mp" 2>/dev/null
		wait "$mp"
		check "$name: the ranks' processes found" 1
		return 1
	fi
	# shellcheck disable=SC2086
	kill -TERM $pids
	# a hang is a failure: end it after 60 s
	(sleep 60 && kill -KILL "$mp" 2>/dev/null) &
	k=$!
	wait "$mp"
	rc=$?
	kill "$k" 2>/dev/null
	wait "$k" 2>/dev/null
	local n ck
	n=$(grep -c "interrupted (signal 15)" "$tmp/$name.err")
	ck=$(ls "$tmp/$name"/checkpoint.* 2>/dev/null | head -n 1)
	[ "$rc" -eq 3 ] && [ "$n" -eq 1 ] && [ -n "$ck" ] &&
		grep -q -- "continue with: .*--restart $ck" "$tmp/$name.err" &&
		! grep -q MPI_ABORT "$tmp/$name.err" "$tmp/$name.out"
	check "$name: SIGTERM to rank(s) $who: exit $rc (3), $n 'interrupted' line (1), \
checkpoint ${ck##*/}, how to continue, no MPI_Abort" $? "$(grep -v 'spate: t = ' "$tmp/$name.err" |
		head -c 1500)"
}

interrupt one 1 "${sig[@]}" --run.end_time=1e6
interrupt all all "${sig[@]}" --run.end_time=1e6
# the Boussinesq module's loop: the same (before, rank 0 went on stepping
# and rank 1 told of a gather out of memory, then both waited)
interrupt bsq 1 run "$scen/bsq_cube.conf" --domain.n=16 --run.end_time=1e6

# continued from one's checkpoint to the next output time: 3 ranks, and one
# process, equal to a run to that time
tk=$(sed -n 's/.*interrupted (signal 15) at t = \([0-9.e+]*\) s.*/\1/p' "$tmp/one.err")
if [ -n "$tk" ]; then
	tend=$(awk -v t="$tk" 'BEGIN { print 20 * (int(t / 20) + 1) }')
	"$SPATE" "${sig[@]}" --run.end_time="$tend" "--output.dir=$tmp/U" -q 2>"$tmp/U.err"
	check "uninterrupted run to t = $tend s" $? "$(cat "$tmp/U.err")"
	cp -r "$tmp/one" "$tmp/one1"
	"$MPIEXEC" --oversubscribe -np 3 "$SPATE" "${sig[@]}" --run.end_time="$tend" \
		"--output.dir=$tmp/one" --restart "$tmp/one/$(ls "$tmp/one" | grep '^checkpoint\.' |
		grep -v sum)" -q >/dev/null 2>"$tmp/one.err2"
	check "continued on 3 ranks to t = $tend s" $? "$(cat "$tmp/one.err2")"
	"$SPATE" "${sig[@]}" --run.end_time="$tend" "--output.dir=$tmp/one1" \
		--restart "$tmp/one1/$(ls "$tmp/one1" | grep '^checkpoint\.' | grep -v sum)" -q \
		2>"$tmp/one1.err2"
	check "continued on one process to t = $tend s" $? "$(cat "$tmp/one1.err2")"
	for d in one one1; do
		bad=""
		for f in "$tmp/U"/*.asc; do
			cmp -s "$f" "$tmp/$d/${f##*/}" || bad="$bad ${f##*/}"
		done
		[ -z "$bad" ]
		check "$d: the grids of the continued run equal those of the run never stopped" $? \
			"differ:$bad"
	done
fi

if [ "$fail" -ne 0 ]; then
	echo "mpi_signal.sh: $fail check(s) FAILED"
	exit 1
fi
echo "mpi_signal.sh: all checks passed"
exit 0
