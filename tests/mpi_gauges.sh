#!/bin/bash
# mpi_gauges.sh: gauges kept by the subdomains over MPI ranks = gauges
# sampled by the driver after every step in one process.
#
# A circular dam break onto a dry bed with gauges in and out of the flood,
# at the grid's edges and astride the rows where the ranks meet (7 x 7
# cells: a gauge's cells on two ranks), runs serially (one domain: the
# driver samples the gauges after every step, one step per advance), then
# under mpiexec, where each rank's CPU subdomains keep the tracks and rows
# of their cells and the rows are gathered to rank 0 after advances of many
# steps: on 2 ranks, 4 subdomains on 3 ranks, with balance = rows moving
# rows between the ranks every two steps (the gauges follow them; also
# with ghost cell expansion, 3 subdomains on 2 ranks), rows
# never after the first (interval 0), a row after every step over more
# than SWE_GAUGE_ROWS (1024) steps, and stopped with checkpoints on 2 ranks
# and continued with --restart on 3.  gauges.csv and gauges_summary.csv
# must be the serial run's bytes every time, and so must today's way under
# MPI (SPATE_GAUGES_HOST=1: sampled after every step through the ranks).
# Also 3 CPU subdomains in one process with rows moving.  With a CUDA GPU
# (the GPU machine) the same on GPU ranks against one GPU (each GPU
# subdomain keeps its gauges; the ranks share the GPUs): 2 ranks with rows
# moving, and 3 ranks.
#
# Environment (set by make check): SPATE, SPATE_SCENARIOS, MPIEXEC (empty:
# none found), SPATE_HAVE_MPI (yes/no).  Skips (77) without MPI or mpiexec.
set -u

. "$(dirname "$0")/mpi_common.sh" mpi_gauges.sh

# 80 x 72 cells of 5 m: the ranks meet at rows 36 (y = 180 m; 2 ranks) and
# 24, 48 (3 ranks) before rows move
printf 'name,x,y\ncentre,200,150\nmid,120,182\nthird,300,238\nnorth,390,358\n' \
	>"$tmp/gauges.csv"
printf 'south,100,2\nfar,398,2\n' >>"$tmp/gauges.csv"
common="--domain.nx=80 --domain.ny=72 --initial.h_out=0 --initial.radius=60 --run.end_time=1e9 \
--output.interval=0 --output.format=ascii --gauges.file=$tmp/gauges.csv --gauges.radius=3 \
--gauges.threshold=0.01"
bal="--parallel.balance=rows --parallel.balance_interval=2 --parallel.balance_gain=0"

# run NAME NP ARGS...: NP = 0 runs without mpiexec; on $device
device=cpu
run() {
	local name=$1 np=$2
	shift 2
	if [ "$np" -eq 0 ]; then
		# shellcheck disable=SC2086
		timeout 120 "$SPATE" run "$scen/circular_dambreak.conf" --device=$device $common \
			--output.dir="$tmp/$name" "$@" 2>"$tmp/$name.err" >/dev/null
	else
		# shellcheck disable=SC2086
		timeout 120 "$MPIEXEC" --oversubscribe -np "$np" "$SPATE" run \
			"$scen/circular_dambreak.conf" --device=$device $common \
			--output.dir="$tmp/$name" "$@" 2>"$tmp/$name.err" >/dev/null
	fi
}

# same NAME REF: gauges.csv and gauges_summary.csv of REF equal in NAME
same() {
	local f bad=""
	for f in gauges.csv gauges_summary.csv; do
		[ -s "$tmp/$2/$f" ] && cmp -s "$tmp/$2/$f" "$tmp/$1/$f" || bad="$bad $f"
	done
	[ -z "$bad" ]
	check "$1: gauges.csv ($(($(wc -l <"$tmp/$2/gauges.csv") - 1)) rows) and \
gauges_summary.csv byte for byte equal to $2" $? "differ:$bad"
}

# kept NAME: the subdomains kept the gauges (no sampling after every step)
kept() {
	grep -q "gauges kept by the" "$tmp/$1.err"
	check "$1: the gauges were kept by the subdomains" $? "$(tail -3 "$tmp/$1.err")"
}

# moved NAME: the report counts at least one move of rows
moved() {
	local n
	n=$(sed -n 's/^spate: re-decomposition .*(\([0-9]*\) moves.*/\1/p' "$tmp/$1.err")
	[ -n "$n" ] && [ "$n" -gt 0 ]
	check "$1: rows moved between subdomains (${n:-no} moves)" $? "$(tail -12 "$tmp/$1.err")"
}

run serial 0 --run.max_steps=200 --gauges.interval=0.2
check "serial run" $? "$(tail -3 "$tmp/serial.err")"
grep -q "gauges kept by the" "$tmp/serial.err"
check "serial run: the driver sampled the gauges after every step" $((1 - $?))
run np2 2 --run.max_steps=200 --gauges.interval=0.2
st=$?
if [ "$st" -ne 0 ] && grep -qi "not enough slots\|mpi_init\|orte\|pmix" "$tmp/np2.err"; then
	echo "mpi_gauges.sh: $MPIEXEC cannot start programs here: skipped"
	cat "$tmp/np2.err"
	exit 77
fi
check "2 ranks" $st "$(tail -3 "$tmp/np2.err")"
kept np2
same np2 serial
# the wet gauges and the dry one: the summary is not trivially equal
awk -F, '$1 == "mid" && $7 > 0 && $4 > 0 { m = 1 } $1 == "far" && $4 == "" && $7 == "" { f = 1 }
	END { exit !(m && f) }' "$tmp/np2/gauges_summary.csv"
check "summary: mid wet with an arrival time after the start, far never wet" $? \
	"$(cat "$tmp/np2/gauges_summary.csv")"
SPATE_GAUGES_HOST=1 run host-np2 2 --run.max_steps=200 --gauges.interval=0.2
check "2 ranks, SPATE_GAUGES_HOST=1" $? "$(tail -3 "$tmp/host-np2.err")"
grep -q "gauges kept by the" "$tmp/host-np2.err"
check "host-np2: sampled after every step through the ranks" $((1 - $?))
same host-np2 serial
run np3 3 --run.max_steps=200 --gauges.interval=0.2 --parallel.subdomains=4
check "4 subdomains on 3 ranks" $? "$(tail -3 "$tmp/np3.err")"
kept np3
same np3 serial
for np in 2 3; do
	# shellcheck disable=SC2086
	run "bal-np$np" "$np" --run.max_steps=200 --gauges.interval=0.2 $bal
	check "balance = rows on $np ranks" $? "$(tail -3 "$tmp/bal-np$np.err")"
	kept "bal-np$np"
	moved "bal-np$np"
	same "bal-np$np" serial
done
# ghost cell expansion: the subdomains hold more rows below their own
# shellcheck disable=SC2086
run ghost-np2 2 --run.max_steps=200 --gauges.interval=0.2 --parallel.subdomains=3 $bal \
	--parallel.ghost_expansion=2
check "balance = rows, ghost expansion 2, 3 subdomains on 2 ranks" $? \
	"$(tail -3 "$tmp/ghost-np2.err")"
kept ghost-np2
moved ghost-np2
same ghost-np2 serial
# shellcheck disable=SC2086
run bal-sub3 0 --run.max_steps=200 --gauges.interval=0.2 --parallel.subdomains=3 $bal
check "balance = rows, 3 subdomains in one process" $? "$(tail -3 "$tmp/bal-sub3.err")"
kept bal-sub3
moved bal-sub3
same bal-sub3 serial

# rows never after the first
run serial-i0 0 --run.max_steps=200 --gauges.interval=0
check "interval 0: serial run" $? "$(tail -3 "$tmp/serial-i0.err")"
run i0-np3 3 --run.max_steps=200 --gauges.interval=0
check "interval 0: 3 ranks" $? "$(tail -3 "$tmp/i0-np3.err")"
same i0-np3 serial-i0

# a row after every step (dt is about 0.5 s), more than 1024 of them: the
# advances stop at 1024 steps, the rows between two reads fill up
small="--domain.nx=40 --domain.ny=36 --domain.dx=10 --domain.dy=10"
# shellcheck disable=SC2086
run serial-all 0 --run.max_steps=1100 --gauges.interval=0.01 $small
check "a row every step: serial run" $? "$(tail -3 "$tmp/serial-all.err")"
# shellcheck disable=SC2086
run all-np2 2 --run.max_steps=1100 --gauges.interval=0.01 $small $bal
check "a row every step: 2 ranks, rows moving" $? "$(tail -3 "$tmp/all-np2.err")"
same all-np2 serial-all
n=$(($(wc -l <"$tmp/serial-all/gauges.csv") - 1))
[ "$n" -gt $((6 * 1024)) ]
check "a row every step: $n rows of 6 gauges (over 1024 each)" $?

# stopped at step 70 on 2 ranks (checkpoints on), continued on 3
# shellcheck disable=SC2086
run stop 2 --run.max_steps=70 --gauges.interval=0.2 --checkpoint-every=3 $bal
check "stopped at step 70 on 2 ranks" $? "$(tail -3 "$tmp/stop.err")"
ck=$(ls "$tmp/stop"/checkpoint.* 2>/dev/null | head -n 1)
[ -n "$ck" ]
check "a checkpoint (${ck##*/})" $?
if [ -n "$ck" ]; then
	cp "$tmp/stop.err" "$tmp/stop.err1"
	# shellcheck disable=SC2086
	run stop 3 --run.max_steps=200 --gauges.interval=0.2 --restart "$ck" $bal
	check "continued on 3 ranks" $? "$(tail -3 "$tmp/stop.err")"
	kept stop
	same stop serial
fi

# GPU ranks (where spate sees a CUDA GPU)
if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -ge 1 ]; then
	device=cuda
	run gpu 0 --run.max_steps=200 --gauges.interval=0.2
	check "one GPU" $? "$(tail -3 "$tmp/gpu.err")"
	kept gpu
	# seeded speeds: the rows move at every measure whatever the GPUs' load
	# shellcheck disable=SC2086
	SPATE_BALANCE_FAKE_SPEED=3 run gpu-np2 2 --run.max_steps=200 --gauges.interval=0.2 $bal
	check "GPU, 2 ranks, balance = rows" $? "$(tail -3 "$tmp/gpu-np2.err")"
	kept gpu-np2
	moved gpu-np2
	same gpu-np2 gpu
	run gpu-np3 3 --run.max_steps=200 --gauges.interval=0.2 --parallel.subdomains=4
	check "GPU, 4 subdomains on 3 ranks" $? "$(tail -3 "$tmp/gpu-np3.err")"
	kept gpu-np3
	same gpu-np3 gpu
else
	echo "mpi_gauges.sh: no CUDA GPU: the GPU ranks are not run"
fi

if [ "$fail" -ne 0 ]; then
	echo "mpi_gauges.sh: $fail check(s) FAILED"
	exit 1
fi
echo "mpi_gauges.sh: all checks passed"
exit 0
