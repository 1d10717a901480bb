#!/bin/bash
# bsq_gpu_valid.sh: the Boussinesq module's validation cases too big for
# make check on the CPU, run by `spate run --device=cuda` as a user runs
# them (issue 21):
#  cavity  lid-driven cavity, Re = 1000 (scenarios/bsq_cavity.conf with
#          re = 1000), 128 x 1 x 128 cells, multigrid to max |div u| 1e-8,
#          from rest to t = 100 lid times: u on x = 1/2 and w on z = 1/2
#          (profiles.csv) within 0.01 of the lid speed of Ghia, Ghia &
#          Shin (1982, Table I) at each of their 34 points;
#  dhc     differentially heated cavity, Ra = 1e5, Pr = 0.71
#          (scenarios/bsq_heated_cavity.conf with ra = 1e5), 128 x 1 x 128
#          cells, from conduction to t = 0.6 (diffusion times): the hot
#          wall's mean Nusselt number (the summary) within 1% of de Vahl
#          Davis (1983), u_max on x = 1/2 and w_max on z = 1/2 within 2%.
# Both also ask that the run has settled (kinetic energy changing by at
# most 5e-3 over the last tenth of the run).  The comparisons are
# tests/bsq_compare.py's; the reference files are shared/data/reference's
# (found as t_bsq_cavity does: $SPATE_DATA/reference, else
# ../shared/data/reference beside the source tree).
#
# Skips (77) without a CUDA GPU, without the reference data or without
# python3.  Overrides (to try the script on the CPU at a small size, where
# the tolerances are missed): BSQ_VALID_DEVICE=cpu|cuda (default cuda),
# BSQ_VALID_N (cells a side, default 128), BSQ_VALID_T (end time of both
# cases), BSQ_VALID_CASES (default "cavity dhc"), BSQ_VALID_KEEP=DIR (keep
# the run folders there).
set -u
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "bsq_gpu_valid.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
here=$(cd "$(dirname "$0")" && pwd)
scen=${SPATE_SCENARIOS:-${top_srcdir:-$here/..}/scenarios}
device=${BSQ_VALID_DEVICE:-cuda}
n=${BSQ_VALID_N:-128}
cases=${BSQ_VALID_CASES:-cavity dhc}
case $device in
cuda)
	if [ "$("$SPATE" devices 2>/dev/null | grep -cE '^cuda +[0-9]+ ')" -lt 1 ]; then
		echo "bsq_gpu_valid.sh: no CUDA GPU (or spate built without CUDA): skipped"
		exit 77
	fi ;;
cpu) ;;
*)
	echo "bsq_gpu_valid.sh: BSQ_VALID_DEVICE = '$device': must be cpu or cuda" >&2
	exit 99 ;;
esac
if ! [[ $n =~ ^[1-9][0-9]*$ ]] || [ $((n % 2)) -ne 0 ]; then
	echo "bsq_gpu_valid.sh: BSQ_VALID_N = '$n': must be an even number of cells" \
		"(the centrelines lie on faces)" >&2
	exit 99
fi
if [ -n "${BSQ_VALID_T:-}" ] && ! awk -v t="$BSQ_VALID_T" 'BEGIN { exit !(t + 0 > 0) }'; then
	echo "bsq_gpu_valid.sh: BSQ_VALID_T = '$BSQ_VALID_T': must be a time > 0" >&2
	exit 99
fi
if [ -n "${SPATE_DATA:-}" ]; then
	ref=$SPATE_DATA/reference
else
	ref=${top_srcdir:-$here/..}/../shared/data/reference
fi
for f in ghia_re1000.csv devahl_davis.csv; do
	if [ ! -r "$ref/$f" ]; then
		echo "bsq_gpu_valid.sh: no $ref/$f (set SPATE_DATA): skipped"
		exit 77
	fi
done
if ! command -v python3 >/dev/null; then
	echo "bsq_gpu_valid.sh: no python3: skipped"
	exit 77
fi
if [ -n "${BSQ_VALID_KEEP:-}" ]; then
	tmp=$BSQ_VALID_KEEP
	mkdir -p "$tmp" || exit 99
else
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-bsqval.XXXXXX") || exit 99
	trap 'rm -rf "$tmp"' EXIT
fi
fail=0

# param NAME ARGS...: the resolved value of key NAME of `spate ARGS --print-params`.
param() {
	local name=$1
	shift
	"$SPATE" "$@" --print-params 2>/dev/null | sed -n "s/^$name = //p" | head -n 1
}

# simulate NAME END ARGS...: spate run ARGS to time END on the device, no
# results.nc, 200 series rows; the log in NAME.log, its last lines shown.
simulate() {
	local name=$1 end=$2 rc start=$SECONDS
	shift 2
	echo "== $name: spate $* --domain.n=$n --run.end_time=$end --device=$device"
	"$SPATE" "$@" --domain.n="$n" --run.end_time="$end" --device="$device" \
		--output.interval=0 --output.netcdf=no \
		--output.series_interval="$(awk -v t="$end" 'BEGIN { print t / 200 }')" \
		--output.dir="$tmp/$name" --summary "$tmp/$name.json" >"$tmp/$name.log" 2>&1
	rc=$?
	tr '\r' '\n' <"$tmp/$name.log" | grep -v '^ *$' | tail -n 3 | sed 's/^/   /'
	echo "   ($((SECONDS - start)) s; $(grep -o '"steps": [0-9]*' "$tmp/$name.json" 2>/dev/null))"
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: spate exited with status $rc"
		fail=1
	fi
	return $rc
}

for c in $cases; do
	case $c in
	cavity)
		args=(run "$scen/bsq_cavity.conf" --physics.re=1000 --solver.pressure=multigrid)
		lid=$(param zp_u "${args[@]}")
		if [ -z "$lid" ]; then
			echo "FAIL cavity: no lid speed (zp_u) from --print-params"
			fail=1
			continue
		fi
		simulate cavity "${BSQ_VALID_T:-100}" "${args[@]}" || continue
		python3 "$here/bsq_compare.py" cavity "$tmp/cavity/profiles.csv" "$ref/ghia_re1000.csv" \
			"$lid" "$tmp/cavity/series.csv" || fail=1 ;;
	dhc)
		args=(run "$scen/bsq_heated_cavity.conf" --physics.ra=1e5 --physics.pr=0.71
			--solver.pressure=multigrid)
		# de Vahl Davis's velocities are in kappa / L: the set-up's own
		# scaling when kappa = 1 on the unit square
		scale="$(param kappa "${args[@]}") $(param lx "${args[@]}") $(param lz "${args[@]}")"
		if [ "$scale" != "1 1 1" ]; then
			echo "FAIL dhc: kappa, lx, lz = $scale, not 1 1 1: velocities not in kappa / L"
			fail=1
			continue
		fi
		simulate dhc "${BSQ_VALID_T:-0.6}" "${args[@]}" || continue
		python3 "$here/bsq_compare.py" dhc "$tmp/dhc/profiles.csv" "$ref/devahl_davis.csv" \
			1e5 "$tmp/dhc.json" "$tmp/dhc/series.csv" || fail=1 ;;
	*)
		echo "bsq_gpu_valid.sh: BSQ_VALID_CASES: unknown case '$c' (cavity, dhc)" >&2
		exit 99 ;;
	esac
done
exit $fail
