#!/bin/bash
# restart.sh: restart = uninterrupted run, bit for bit.
#
# A dam break onto a dry bed, with flood products and gauges, is run to its
# end once without stopping.  Then the same run is stopped part-way (at
# [run] max_steps, between two output times, with checkpoints on) and
# continued with --restart; every output must equal the uninterrupted run's
# byte for byte: the ESRI ASCII snapshots and products, gauges.csv,
# gauges_summary.csv, the summary's steps, time, volumes and maxima, and
# (with NetCDF and ncdump) results.nc.  Cases: one subdomain, two, a
# checkpoint of one continued on two, the binary checkpoint format, Euler,
# rain with friction.
# A run stopped by SIGTERM writes a checkpoint, exits with status 3 saying
# how to continue, and continues to the uninterrupted result.  A checkpoint
# refused: other physics, another grid, not a checkpoint, a truncated one,
# one of format version 1 (levels stored).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "restart.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-restart.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0

result() { # result OK MESSAGE
	if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi
}

nc=no
"$SPATE" --version | grep -q '^NetCDF: yes' && nc=yes
fmt=ascii
[ $nc = yes ] && fmt=both
printf 'name,x,y\nG1,500,500\nG2,700,820\n' >"$tmp/gauges.csv"
base=(run "$scen/circular_dambreak.conf" --domain.nx=80 --domain.ny=80 --domain.dx=12.5
	--domain.dy=12.5 --initial.h_out=0 --initial.radius=250 --run.end_time=40
	--output.interval=10 --device=cpu --output.format=$fmt "--gauges.file=$tmp/gauges.csv"
	--gauges.interval=3 --quiet)

# keys KEY... of a JSON summary, one per line
keys() {
	local f=$1
	shift
	for k in "$@"; do
		sed -n "s/^ *\"$k\": \\(.*\\),\\?\$/\\1/p" "$f" | sed 's/,$//'
	done
}

# same NAME REF DIR: every output of REF is in DIR and equal
same() {
	local name=$1 ref=$2 dir=$3 bad=() f
	for f in "$ref"/*.asc "$ref"/gauges.csv "$ref"/gauges_summary.csv; do
		[ -f "$f" ] || continue
		cmp -s "$f" "$dir/$(basename "$f")" || bad+=("$(basename "$f")")
	done
	if ! diff -q <(keys "$ref.json" steps sim_time volume_initial volume_final max_depth \
		max_speed outputs) <(keys "$dir.json" steps sim_time volume_initial volume_final \
		max_depth max_speed outputs) >/dev/null; then
		bad+=(summary)
	fi
	if [ -f "$ref/results.nc" ] && command -v ncdump >/dev/null 2>&1 &&
		! diff -q <(ncdump "$ref/results.nc" | grep -v ':history =\|:spate_parameters =' |
			sed 1d) <(ncdump "$dir/results.nc" 2>&1 | grep -v ':history =\|:spate_parameters =' |
			sed 1d) >/dev/null; then
		bad+=(results.nc)
	fi
	result ${#bad[@]} "$name: equal to the uninterrupted run ($(ls "$ref"/*.asc | wc -l) grids, \
gauges, summary${bad:+; differ: ${bad[*]}})"
}

# stop_and_go NAME REF K ARGS1 -- ARGS2: stop at step K with checkpoints,
# continue with --restart; compare with REF
stop_and_go() {
	local name=$1 ref=$2 k=$3 a1=() a2=()
	shift 3
	while [ $# -gt 0 ] && [ "$1" != -- ]; do a1+=("$1"); shift; done
	[ $# -gt 0 ] && shift
	a2=("$@")
	"$SPATE" "${base[@]}" "--output.dir=$tmp/$name" --run.max_steps=$k --checkpoint-every=7 \
		"${a1[@]}" 2>"$tmp/$name.err1"
	local rc=$? ck
	ck=$(ls "$tmp/$name"/checkpoint.* 2>/dev/null | head -n 1)
	result $(( rc != 0 || ${#ck} == 0 )) "$name: stopped at step $k with a checkpoint \
(exit $rc, ${ck##*/})"
	[ -n "$ck" ] || return
	"$SPATE" "${base[@]}" "--output.dir=$tmp/$name" --restart "$ck" --summary "$tmp/$name.json" \
		"${a2[@]}" 2>"$tmp/$name.err2"
	rc=$?
	result $rc "$name: --restart ${ck##*/} runs to the end (exit $rc$( [ $rc -ne 0 ] &&
		echo ": $(tail -n 2 "$tmp/$name.err2")"))"
	same "$name" "$tmp/$ref" "$tmp/$name"
}

# ------------------------------------------------------------ uninterrupted
"$SPATE" "${base[@]}" "--output.dir=$tmp/A" --summary "$tmp/A.json" 2>"$tmp/A.err"
result $? "uninterrupted run"
"$SPATE" "${base[@]}" "--output.dir=$tmp/A2" --summary "$tmp/A2.json" \
	--parallel.subdomains=2 2>"$tmp/A2.err"
result $? "uninterrupted run on 2 subdomains"
same "2 subdomains" "$tmp/A" "$tmp/A2"

# ------------------------------------------------------------ stop and go
stop_and_go one A 9
stop_and_go two A 13 --parallel.subdomains=2 -- --parallel.subdomains=2
stop_and_go one_then_two A 9 -- --parallel.subdomains=2
if [ $nc = yes ]; then
	SPATE_CHECKPOINT=bin stop_and_go binary A 11
fi
"$SPATE" "${base[@]}" "--output.dir=$tmp/E" --summary "$tmp/E.json" --physics.integrator=euler \
	--physics.cfl=0.4 2>"$tmp/E.err"
result $? "uninterrupted run, forward Euler"
stop_and_go euler E 17 --physics.integrator=euler --physics.cfl=0.4 -- \
	--physics.integrator=euler --physics.cfl=0.4
rain=(--physics.rain=10000 --physics.manning=0.03)
"$SPATE" "${base[@]}" "--output.dir=$tmp/R0" --summary "$tmp/R0.json" "${rain[@]}" 2>"$tmp/R0.err"
result $? "uninterrupted run, rain and friction"
stop_and_go rain R0 15 "${rain[@]}" -- "${rain[@]}"

# ------------------------------------------------------------ a new folder
# Continued into a folder of its own, results.nc holds the records and the
# gauge rows this run wrote, from its first (they sat after as many empty
# ones as came before the checkpoint, their times NetCDF's fill value,
# which xarray cannot decode): the uninterrupted run's last ones, the same
# times and depths; continued again in that folder, they go on in place.
if [ $nc = yes ]; then
	ck=$(ls "$tmp/one"/checkpoint.* | head -n 1)
	"$SPATE" "${base[@]}" "--output.dir=$tmp/N" --restart "$ck" --run.end_time=30 \
		--checkpoint-every=7 2>"$tmp/N.err" &&
		"$SPATE" "${base[@]}" "--output.dir=$tmp/N" --restart "$tmp/N/checkpoint.nc" \
		2>>"$tmp/N.err"
	rc=$?
	# vals FILE VAR [N]: the values of VAR, one a line (the last N)
	vals() {
		ncdump -v "$2" "$1" | sed -n "/^ $2 = /,/;/p" | sed "s/^ $2 = //; s/[;}]//g" |
			tr ',' '\n' | sed 's/^ *//; /^$/d' | tail -n "${3:-+1}"
	}
	nt=$(vals "$tmp/N/results.nc" time | wc -l)
	ng=$(vals "$tmp/N/results.nc" gauge_time | wc -l)
	[ $rc -eq 0 ] && [ "$nt" -gt 0 ] && [ "$ng" -gt 0 ] &&
		! vals "$tmp/N/results.nc" time | grep -q '_' &&
		! vals "$tmp/N/results.nc" gauge_time | grep -q '_' &&
		diff -q <(vals "$tmp/A/results.nc" time "$nt") <(vals "$tmp/N/results.nc" time) &&
		diff -q <(vals "$tmp/A/results.nc" gauge_time "$ng") \
			<(vals "$tmp/N/results.nc" gauge_time) &&
		diff -q <(vals "$tmp/A/results.nc" h | tail -n "$((nt * 80 * 80))") \
			<(vals "$tmp/N/results.nc" h) >/dev/null
	result $? "a new folder: results.nc from the restart's first record, $nt records and $ng \
gauge rows, the uninterrupted run's last (exit $rc$( [ $rc -ne 0 ] && echo ": $(tail -n 2 \
"$tmp/N.err")"))"
fi

# ------------------------------------------------------------ refusals
ck=$(ls "$tmp/one"/checkpoint.* | head -n 1)
# refused NAME FRAGMENT ARGS...: the restart fails with FRAGMENT on stderr
refused() {
	local name=$1 frag=$2
	shift 2
	"$SPATE" "${base[@]}" "--output.dir=$tmp/R" "$@" >/dev/null 2>"$tmp/R.err"
	local rc=$?
	grep -q -- "$frag" "$tmp/R.err"
	result $(( rc == 0 || $? != 0 )) "refused: $name (exit $rc: $(grep -m1 checkpoint "$tmp/R.err"))"
}
refused "other physics" "manning" --restart "$ck" --physics.manning=0.01
refused "another grid" "grid" --restart "$ck" --domain.nx=70
printf 'not a checkpoint\n' >"$tmp/junk.nc"
refused "not a checkpoint" "not a spate checkpoint" --restart "$tmp/junk.nc"
SPATE_CHECKPOINT=bin "$SPATE" "${base[@]}" "--output.dir=$tmp/T" --run.max_steps=3 \
	--checkpoint-every=1 2>/dev/null
head -c 2000 "$tmp/T/checkpoint.bin" >"$tmp/cut.bin"
refused "a truncated checkpoint" "truncated" --restart "$tmp/cut.bin"
# layout 2 (the level stored, not the depth): the module's layout version
# (an int32 after the 8-byte magic, this machine's byte order) set to 2
{ head -c 8 "$tmp/T/checkpoint.bin"; printf '\002\000\000\000'; tail -c +13 "$tmp/T/checkpoint.bin"; } \
	>"$tmp/v2.bin"
refused "a layout-2 checkpoint (levels)" "older spate's checkpoint (layout 2" --restart "$tmp/v2.bin"
# the binary format before named arrays (magic SPATECKP)
{ printf 'SPATECKP'; tail -c +9 "$tmp/T/checkpoint.bin"; } >"$tmp/v1.bin"
refused "a format-1 checkpoint" "older spate (format 1)" --restart "$tmp/v1.bin"
refused "a missing checkpoint" "cannot open" --restart "$tmp/nothing.nc"

# ------------------------------------------------------------ checkpoint_every
# A run that writes no output before its end still takes its checkpoints
# (a chunk ends about a step after each checkpoint time), and a restart
# from the last one (after t = 20 s) ends with the bits of the uninterrupted run.
cke=(run "$scen/circular_dambreak.conf" --domain.nx=60 --domain.ny=60 --domain.dx=8
	--domain.dy=8 --initial.h_out=0.01 --run.end_time=30 --output.interval=1000
	--device=cpu --output.format=ascii --output.grids=no -q)
"$SPATE" "${cke[@]}" "--output.dir=$tmp/C" --checkpoint-every=10 2>"$tmp/C.err"
rc=$?
ck=$(ls "$tmp/C"/checkpoint.* 2>/dev/null | head -n 1)
result $(( rc != 0 || ${#ck} == 0 )) "checkpoint_every 10 s in a run of 30 s with no output \
before its end: $( [ -n "$ck" ] && echo "a checkpoint, ${ck##*/}" || echo "no checkpoint") (exit $rc)"
if [ -n "$ck" ]; then
	"$SPATE" "${cke[@]}" "--output.dir=$tmp/C2" --summary "$tmp/C2.json" 2>/dev/null
	result $? "checkpoint_every: uninterrupted run"
	mkdir -p "$tmp/C3"
	"$SPATE" "${cke[@]}" "--output.dir=$tmp/C3" --restart "$ck" --summary "$tmp/C3.json" 		2>"$tmp/C3.err"
	result $? "checkpoint_every: --restart ${ck##*/} runs to the end"
	same "checkpoint_every, restarted" "$tmp/C2" "$tmp/C3"
fi

# ------------------------------------------------------------ SIGTERM
# A long run (end 1e6 s) is stopped by SIGTERM; continued to the next
# output time after it, it must equal a run to that time.
sig=(run "$scen/circular_dambreak.conf" --domain.nx=120 --domain.ny=120 --domain.dx=8
	--domain.dy=8 --initial.h_out=0.01 --output.interval=20 --device=cpu --output.format=ascii
	--output.grids=no)
"$SPATE" "${sig[@]}" --run.end_time=1e6 "--output.dir=$tmp/S" 2>"$tmp/S.err" &
pid=$!
sleep 2
kill -TERM $pid
wait $pid
rc=$?
tk=$(sed -n 's/.*interrupted (signal 15) at t = \([0-9.e+]*\) s.*/\1/p' "$tmp/S.err")
ck=$(ls "$tmp/S"/checkpoint.* 2>/dev/null | head -n 1)
grep -q -- "--restart $ck" "$tmp/S.err"
result $(( rc != 3 || $? != 0 || ${#ck} == 0 || ${#tk} == 0 )) "SIGTERM: checkpoint at t = \
${tk:-?} s, exit $rc (3), says how to continue"
if [ -n "$tk" ] && [ -n "$ck" ]; then
	tend=$(awk -v t="$tk" 'BEGIN { print 20 * (int(t / 20) + 1) }')
	"$SPATE" "${sig[@]}" --run.end_time=$tend "--output.dir=$tmp/S" --restart "$ck" \
		--summary "$tmp/S.json" -q 2>"$tmp/S.err2"
	result $? "SIGTERM: --restart continues to t = $tend s"
	"$SPATE" "${sig[@]}" --run.end_time=$tend "--output.dir=$tmp/U" --summary "$tmp/U.json" \
		-q 2>"$tmp/U.err"
	result $? "SIGTERM: uninterrupted run to t = $tend s"
	same "SIGTERM, restarted" "$tmp/U" "$tmp/S"
	ls "$tmp/S"/*.tmp >/dev/null 2>&1
	result $(( $? == 0 )) "SIGTERM: no temporary checkpoint left"
fi

exit $fail
