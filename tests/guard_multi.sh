#!/bin/bash
# guard_multi.sh: the instability guard ([run] guard_every) in decomposed
# runs, with the planted failures of guard.sh.  Each subdomain keeps its
# flag; the check ORs them (one reduction over the MPI ranks); the report
# names the first bad cell in global rows and columns.  A dam break on 40 x
# 30 cells in 1, 2 and 3 subdomains (GUARD_MULTI=sub, the default), on 2 MPI
# ranks with 2 and 3 subdomains (GUARD_MULTI=mpi: guard_mpi.sh; with
# GUARD_DEVICE=cuda on GPUs), or in 1, 2 and 3 GPU subdomains, and 3 with
# the time step on the host (GUARD_MULTI=cuda: guard_gpu_multi.sh):
#   - SPATE_TEST_PLANT_NAN=30,20,15 (a NaN depth in cell (20, 15), in the
#     water, row 15: another subdomain than the first in every
#     decomposition here, and on 2 ranks another rank than 0): exit status 1; the report names that
#     cell and step 30; the checkpoint of the last good state restarts, in
#     the same decomposition, and the run ends with the summary of the run
#     never stopped;
#   - "30,20,15,silent" with guard_every = 1: the stores of step 31 find
#     it, and the cell reported (the lowest global index, the NaN having
#     spread across the edge between two subdomains) is the same for every
#     decomposition: that of the single domain;
#   - under MPI one report only (rank 0), one closing line, no MPI_Abort.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "guard_multi.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
mode=${GUARD_MULTI:-sub}
dev=cpu
launch=()
end=(--run.end_time=120 --output.interval=30)
case $mode in
sub) confs=("1" "2" "3") ;;
mpi)
	if [ "${SPATE_HAVE_MPI:-no}" != yes ] || [ -z "${MPIEXEC:-}" ]; then
		echo "guard_multi.sh: spate built without MPI, or no mpiexec: skipped"
		exit 77
	fi
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMP_NUM_THREADS=1 OMPI_MCA_rmaps_base_oversubscribe=1
	launch=(timeout 600 "$MPIEXEC" --oversubscribe -np 2)
	confs=("2" "3")
	# GUARD_DEVICE=cuda: the ranks' subdomains on GPUs (the time step on
	# the host: the clock uploaded every step must leave the flag alone)
	if [ "${GUARD_DEVICE:-cpu}" = cuda ]; then
		if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
			echo "guard_multi.sh: no CUDA GPU (or spate built without CUDA): skipped"
			exit 77
		fi
		dev=cuda
	fi ;;
cuda)
	if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
		echo "guard_multi.sh: no CUDA GPU (or spate built without CUDA): skipped"
		exit 77
	fi
	dev=cuda
	# "3h": 3 subdomains with the time step on the host (SPATE_HOST_DT=1),
	# whose clock upload every step must leave the flag alone
	confs=("1" "2" "3" "3h") ;;
*) echo "guard_multi.sh: GUARD_MULTI=$mode: expected sub, mpi or cuda" >&2; exit 99 ;;
esac
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-guard-multi.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
unset SPATE_TEST_PLANT_NAN
fail=0

result() { # result OK MESSAGE
	if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}
# summary FILE: the summary without its wall-clock numbers and device
summary() {
	grep -vE '"(wall_s|cell_updates_per_s|backend|device|seconds)"' "$1"
}
# cell FILE STEP: "i j" of the cell a guard report names at that step
cell() {
	sed -n "s/.*in cell i = \([0-9]*\), j = \([0-9]*\) .* by step $2 .*/\1 \2/p" "$1" \
		2>/dev/null
}

printf 'name,x,y\nA,1000,750\nB,600,400\n' >"$tmp/gauges.csv"
base=(run "$scen/circular_dambreak.conf" --domain.nx=40 --domain.ny=30 --domain.dx=50
	--domain.dy=50 --initial.radius=300 "${end[@]}"
	--device="$dev" --output.format=ascii "--gauges.file=$tmp/gauges.csv" --gauges.interval=5)

# the single domain's silent failure: the cell every decomposition must name
SPATE_TEST_PLANT_NAN=30,20,15,silent "$SPATE" "${base[@]}" "--output.dir=$tmp/one" \
	--run.guard_every=1 2>/dev/null
want=$(cell "$tmp/one/guard-report.txt" 31)
result $(( ${#want} == 0 )) "one domain: the silent NaN is found at step 31 in cell ($want)"

for n in "${confs[@]}"; do
	par=(--parallel.subdomains="${n%h}")
	name="${mode} ${dev} ${n%h} subdomain(s)"
	unset SPATE_HOST_DT
	if [ "$n" != "${n%h}" ]; then
		export SPATE_HOST_DT=1
		name="$name, time step on the host"
	fi
	# the run never stopped
	"${launch[@]}" "$SPATE" "${base[@]}" "${par[@]}" "--output.dir=$tmp/ref$n" \
		--summary "$tmp/ref$n.json" 2>"$tmp/ref$n.err"
	rc=$?
	result $rc "$name: a run without the hook ends (exit $rc)"

	# the planted failure, noted
	SPATE_TEST_PLANT_NAN=30,20,15 "${launch[@]}" "$SPATE" "${base[@]}" "${par[@]}" \
		"--output.dir=$tmp/bad$n" --run.guard_every=20 2>"$tmp/bad$n.err"
	rc=$?
	result $(( rc != 1 )) "$name: planted NaN at step 30: exit status $rc (1 expected)"
	rep=$tmp/bad$n/guard-report.txt
	grep -qF "h became NaN or infinite in cell i = 20, j = 15 (x = 1025, y = 775) by step 30" \
		"$rep" 2>/dev/null
	result $? "$name: guard-report.txt names cell (20, 15) and step 30"
	k=$(grep -c "became NaN or infinite in cell" "$tmp/bad$n.err")
	result $(( k != 1 )) "$name: the report is said once on stderr ($k)"
	# every rank knows of it: the closing line once, no MPI_Abort (which
	# could kill rank 0 while it wrote the checkpoint and the report)
	k=$(grep -c "the state became NaN or infinite (instability guard)" "$tmp/bad$n.err")
	a=$(grep -c "MPI_ABORT" "$tmp/bad$n.err")
	result $(( k != 1 || a != 0 )) "$name: the closing line once ($k), no MPI_Abort ($a)"
	good=$(sed -n 's/^last good: step \([0-9]*\) .*there depth.*/\1/p' "$rep" 2>/dev/null)
	result $(( ${good:-99} >= 30 || ${good:-99} < 10 )) "$name: the last good step ($good) \
is at most 20 before step 30, and was restored"
	ck=$(ls "$tmp/bad$n"/checkpoint.* 2>/dev/null | head -n 1)
	result $(( ${#ck} == 0 )) "$name: the failed run left a checkpoint (${ck##*/})"
	if [ -n "$ck" ]; then
		"${launch[@]}" "$SPATE" "${base[@]}" "${par[@]}" "--output.dir=$tmp/bad$n" \
			--restart "$ck" --summary "$tmp/restart$n.json" 2>"$tmp/restart$n.err"
		rc=$?
		result $rc "$name: --restart from the guard's checkpoint runs to the end (exit $rc)"
		grep -q "at t = .*, step $good\$" "$tmp/restart$n.err"
		result $? "$name: the restart continues from the last good step $good"
		diff <(summary "$tmp/ref$n.json") <(summary "$tmp/restart$n.json") >"$tmp/d"
		result $? "$name: and ends as the run never stopped: $(head -c 300 "$tmp/d")"
	fi

	# planted without the note: found by the next step's stores, at the
	# cell of the single domain
	SPATE_TEST_PLANT_NAN=30,20,15,silent "${launch[@]}" "$SPATE" "${base[@]}" "${par[@]}" \
		"--output.dir=$tmp/silent$n" --run.guard_every=1 2>/dev/null
	rc=$?
	got=$(cell "$tmp/silent$n/guard-report.txt" 31)
	result $(( rc != 1 || ${#got} == 0 )) "$name: silent NaN: exit $rc, found at step 31 \
in cell ($got)"
	[ -n "$got" ] && [ "$got" = "$want" ]
	result $? "$name: the same cell as one domain's ($want)"
done
exit $fail
