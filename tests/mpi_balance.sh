#!/bin/bash
# mpi_balance.sh: load balancing across MPI ranks.  A circular dam break on
# a dry bed (a moving flood, off centre) runs serially and statically, then
# under mpiexec on 1, 2 and 4 ranks with balance = rows (and bbox, probe,
# early_exit = auto, ghost cell expansion) and an interval of two steps, so
# that rows move between subdomains, by MPI between ranks, many times; every
# grid written (h, w, u, v and the flood products, ESRI ASCII) must equal the
# serial one byte for byte, and the report must count the moves.
#
# Environment (set by make check): SPATE, SPATE_SCENARIOS, MPIEXEC (empty:
# none found), SPATE_HAVE_MPI (yes/no).  Skips (77) without MPI or mpiexec.
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_balance.sh

# run NAME NP ARGS...: NP = 0 runs without mpiexec
run() {
	local name=$1 np=$2
	shift 2
	if [ "$np" -eq 0 ]; then
		timeout 120 "$SPATE" run "$scen/circular_dambreak.conf" --device=cpu \
			--output.format=ascii --output.dir="$tmp/$name" "$@" 2>"$tmp/$name.err" >/dev/null
	else
		timeout 120 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" run \
			"$scen/circular_dambreak.conf" --device=cpu --output.format=ascii \
			--output.dir="$tmp/$name" "$@" \
			2>"$tmp/$name.err" >/dev/null
	fi
}

# same NAME: every .asc of the serial run equal in NAME
same() {
	local f bad="" k=0
	for f in "$tmp/serial"/*.asc; do
		k=$((k + 1))
		cmp -s "$f" "$tmp/$1/${f##*/}" || bad="$bad ${f##*/}"
	done
	[ "$k" -gt 0 ] && [ -z "$bad" ]
	check "$1: $k grids byte for byte equal to the serial static run" $? "differ:$bad"
}

# moved NAME: the report counts at least one move of rows
moved() {
	local n
	n=$(sed -n 's/^spate: re-decomposition .*(\([0-9]*\) moves.*/\1/p' "$tmp/$1.err")
	[ -n "$n" ] && [ "$n" -gt 0 ]
	check "$1: rows moved between subdomains (${n:-no} moves)" $? "$(tail -12 "$tmp/$1.err")"
}

# the dam off centre, in the southern third: subdomains of rows differ in
# their load by construction (early exit skips the dry ones' blocks), not
# by the noise of the timings (centred, two halves measured equal and
# none moved, once in CI)
small="--domain.nx=80 --domain.ny=72 --initial.h_out=0 --initial.dam_y=100 \
--initial.radius=90 --run.end_time=1e9 --run.max_steps=50 --output.interval=0"
bal="--parallel.balance=rows --parallel.balance_interval=2 --parallel.balance_gain=0"
# shellcheck disable=SC2086
run serial 0 $small
check "serial run" $? "$(tail -3 "$tmp/serial.err")"
# shellcheck disable=SC2086
run rows-np1 1 $small $bal --parallel.subdomains=3
st=$?
if [ "$st" -ne 0 ] && grep -qi "not enough slots\|mpi_init\|orte\|pmix" "$tmp/rows-np1.err"; then
	echo "mpi_balance.sh: $MPIEXEC cannot start programs here: skipped"
	cat "$tmp/rows-np1.err"
	exit 77
fi
check "balance=rows, 3 subdomains on 1 rank" $st "$(tail -3 "$tmp/rows-np1.err")"
same rows-np1
moved rows-np1
for np in 2 4; do
	# shellcheck disable=SC2086
	run "rows-np$np" "$np" $small $bal
	check "balance=rows on $np ranks" $? "$(tail -3 "$tmp/rows-np$np.err")"
	same "rows-np$np"
	moved "rows-np$np"
done
# shellcheck disable=SC2086
run mix-np2 2 $small --parallel.subdomains=4 --parallel.balance=bbox \
	--parallel.balance_interval=3 --parallel.balance_gain=0 --parallel.probe=on \
	--parallel.early_exit=auto --parallel.early_exit_interval=10 --parallel.ghost_expansion=2
check "bbox, probe, early_exit auto, ghost expansion 2: 4 subdomains on 2 ranks" $? \
	"$(tail -3 "$tmp/mix-np2.err")"
same mix-np2
moved mix-np2
# shellcheck disable=SC2086
run ghost-np4 4 $small --parallel.ghost_expansion=auto
check "ghost_expansion auto on 4 ranks" $? "$(tail -3 "$tmp/ghost-np4.err")"
same ghost-np4

# only rank 0 prints the phase table, once
n=$(grep -c "^spate: re-decomposition" "$tmp/rows-np4.err")
[ "$n" -eq 1 ]
check "4 ranks: one phase table on stderr ($n)" $?

if [ "$fail" -ne 0 ]; then
	echo "mpi_balance.sh: $fail check(s) FAILED"
	exit 1
fi
echo "mpi_balance.sh: all checks passed"
exit 0
