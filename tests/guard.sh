#!/bin/bash
# guard.sh: the instability guard ([run] guard_every) with a planted failure.
#
# The test-only hook SPATE_TEST_PLANT_NAN="step,i,j" stores a NaN depth in
# cell (i, j) after that step, as a stage that wrote one would (with the
# guard's note, swe_guard.h).  A dam break on 40 x 30 cells, outputs every
# 30 s, the hook at step 30 in cell (12, 7):
#   - the run stops with exit status 1; stderr and guard-report.txt name the
#     cell (i, j and x, y), the variable, the step, the last good step
#     before it and the depth and speed there;
#   - the checkpoint it leaves is of the last good step (state, clocks,
#     flood products); `spate run --restart` on it, without the hook, runs
#     to the end with the summary and the very files (ESRI ASCII grids,
#     products, gauges) of a run never stopped;
#   - with guard_every = 1 the last good step is the one before, 29;
#   - "step,i,j,silent" plants the NaN without the note: the next step's
#     stores (the stage loops on the CPU, the stage kernels on the GPU)
#     must set the flag; the report names step 31 and a cell next to it;
#   - the guard does not change results: guard_every = 0, 1 and the default
#     give the same summary;
#   - a hook that does not parse, names a cell outside the grid, or has no
#     guard to plant into is refused (exit 2).
# GUARD_DEVICE=cuda (guard_gpu.sh) runs the same on one GPU.
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "guard.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
dev=${GUARD_DEVICE:-cpu}
if [ "$dev" = cuda ] &&
	[ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
	echo "guard.sh: no CUDA GPU (or spate built without CUDA): skipped"
	exit 77
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-guard.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
unset SPATE_TEST_PLANT_NAN
fail=0

result() { # result OK MESSAGE
	if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}
# has FILE FRAGMENT...: every fragment is in FILE
has() {
	local f=$1 x
	shift
	for x in "$@"; do
		grep -qF -- "$x" "$f" || { echo "     missing in ${f##*/}: '$x'"; return 1; }
	done
}
# summary FILE: the summary without its wall-clock numbers
summary() {
	grep -vE '"(wall_s|cell_updates_per_s|backend|device)"' "$1"
}

printf 'name,x,y\nA,1000,750\nB,600,400\n' >"$tmp/gauges.csv"
base=(run "$scen/circular_dambreak.conf" --domain.nx=40 --domain.ny=30 --domain.dx=50
	--domain.dy=50 --initial.radius=300 --run.end_time=120 --output.interval=30
	--device="$dev" --output.format=ascii "--gauges.file=$tmp/gauges.csv" --gauges.interval=5)

# the run never stopped
"$SPATE" "${base[@]}" "--output.dir=$tmp/ref" --summary "$tmp/ref.json" 2>"$tmp/ref.err"
rc=$?
result $rc "a run without the hook ends (exit $rc)"

# the planted failure
SPATE_TEST_PLANT_NAN=30,12,7 "$SPATE" "${base[@]}" "--output.dir=$tmp/bad" \
	--run.guard_every=20 2>"$tmp/bad.err"
rc=$?
result $(( rc != 1 )) "planted NaN at step 30: exit status $rc (1 expected)"
rep=$tmp/bad/guard-report.txt
has "$rep" "h became NaN or infinite in cell i = 12, j = 7 (x = 625, y = 375) by step 30" \
	"last good: step" "there depth" "speed" "checkpoint of the last good state"
result $? "guard-report.txt names the cell, the variable and the step"
has "$tmp/bad.err" "cell i = 12, j = 7" "by step 30" "guard-report.txt"
result $? "stderr names the cell and the report"
good=$(sed -n 's/^last good: step \([0-9]*\) .*/\1/p' "$rep")
result $(( ${good:-99} >= 30 || ${good:-99} < 10 )) "the last good step ($good) is one checked \
before step 30, at most 20 steps before"
ck=$(ls "$tmp/bad"/checkpoint.* 2>/dev/null | head -n 1)
result $(( ${#ck} == 0 )) "the failed run left a checkpoint (${ck##*/})"
if [ -n "$ck" ]; then
	"$SPATE" "${base[@]}" "--output.dir=$tmp/bad" --restart "$ck" \
		--summary "$tmp/restart.json" 2>"$tmp/restart.err"
	rc=$?
	result $rc "--restart from the guard's checkpoint runs to the end (exit $rc)"
	grep -q "at t = .*, step $good\$" "$tmp/restart.err"
	result $? "the restart continues from the last good step $good"
	diff <(summary "$tmp/ref.json") <(summary "$tmp/restart.json") >"$tmp/d"
	result $? "the restarted run ends as the run never stopped: $(head -c 300 "$tmp/d")"
	differ=""
	for f in "$tmp/ref"/*; do
		cmp -s "$f" "$tmp/bad/${f##*/}" || differ="$differ ${f##*/}"
	done
	result $(( ${#differ} != 0 )) "and writes the same bytes (grids, products, gauges)\
${differ:+; differ:$differ}"
fi

# checked every step: the last good state is the step before
SPATE_TEST_PLANT_NAN=30,12,7 "$SPATE" "${base[@]}" "--output.dir=$tmp/one" \
	--run.guard_every=1 2>/dev/null
rc=$?
has "$tmp/one/guard-report.txt" "by step 30" "last good: step 29 "
result $(( rc != 1 || $? )) "guard_every = 1: exit $rc, last good step 29"

# planted without the note: the stores of the next step (the stage loops or
# kernels' swe_guard_note) must find it, at or next to the planted cell
SPATE_TEST_PLANT_NAN=30,12,7,silent "$SPATE" "${base[@]}" "--output.dir=$tmp/silent" \
	--run.guard_every=1 2>/dev/null
rc=$?
cell=$(sed -n 's/.*in cell i = \([0-9]*\), j = \([0-9]*\) .* by step 31 .*/\1 \2/p' \
	"$tmp/silent/guard-report.txt" 2>/dev/null)
set -- $cell 99 99
result $(( rc != 1 || ($1 - 12) * ($1 - 12) + ($2 - 7) * ($2 - 7) > 8 )) "silent NaN at step 30: \
exit $rc, found by the stores of step 31 in cell ($1, $2), next to (12, 7)"

# the guard changes no result
for e in 0 1; do
	"$SPATE" "${base[@]}" "--output.dir=$tmp/e$e" --run.guard_every=$e \
		--summary "$tmp/e$e.json" 2>/dev/null
	diff <(summary "$tmp/ref.json") <(summary "$tmp/e$e.json") >/dev/null
	result $? "guard_every = $e: the summary of the default run"
done

# hooks refused
for h in "x" "30,12" "30,40,7" "0,1,1" "30,12,7,loud"; do
	SPATE_TEST_PLANT_NAN=$h "$SPATE" "${base[@]}" --no-output 2>"$tmp/h.err"
	rc=$?
	has "$tmp/h.err" "SPATE_TEST_PLANT_NAN=$h: expected step,i,j or step,i,j,silent"
	result $(( rc != 2 || $? )) "hook '$h' refused (exit $rc)"
done
SPATE_TEST_PLANT_NAN=5,1,1 "$SPATE" "${base[@]}" --no-output --run.guard_every=0 2>"$tmp/h.err"
rc=$?
has "$tmp/h.err" "the guard is off"
result $(( rc != 2 || $? )) "hook with guard_every = 0 refused (exit $rc)"

exit $fail
