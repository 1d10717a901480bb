#!/bin/bash
# bsq_run.sh: the Boussinesq module through the run layer, as a user runs
# it: `spate run` of a scenario with [physics] model = boussinesq (a lid
# cavity, 24 x 1 x 24 cells).  The summary (module, divergence below the
# solver tolerance, snapshots), series.csv (a row per step), profiles.csv,
# results.nc (3D u v w p T along time, with ncdump); a run stopped with
# checkpoints and continued equals the uninterrupted one byte for byte
# (series, profiles, results.nc values, summary), in both checkpoint
# formats, and series.csv also with series_interval > 0 and from the last
# checkpoint of a finished run (no row twice); in 3 slabs ([parallel]
# subdomains) the run is the same byte for byte, and one stopped in 2 slabs
# and continued in 3 too; a checkpoint
# from before [solver] warm_start is taken, one of the other module or of
# another warm start, or without its p_prev, is refused; bad keys and values
# give a message naming the key (with "did you mean" for a misspelt one)
# and exit status 1, and so does a key given where nothing reads it (a key
# of another set-up, buoyancy without a temperature, a wall velocity that is
# no lid's tangential one, a temperature on a periodic face), while the keys
# a set-up reads run.
set -u
if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "bsq_run.sh: SPATE is not set to the spate program" >&2
	exit 99
fi
scen=${SPATE_SCENARIOS:-${top_srcdir:-.}/scenarios}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-bsq.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
result() { if [ "$1" -eq 0 ]; then echo "ok   $2"; else echo "FAIL $2"; fail=1; fi; }
key() { sed -n "s/^ *\"$2\": \\(.*\\),\\?\$/\\1/p" "$1" | sed 's/,$//; s/"//g'; }
nc=no
"$SPATE" --version | grep -q '^NetCDF: yes' && command -v ncdump >/dev/null && nc=yes

cav=(run "$scen/bsq_cavity.conf" --domain.n=24 --run.end_time=1 --output.interval=0.25 -q)
"$SPATE" "${cav[@]}" --output.dir="$tmp/A" --summary "$tmp/A.json"
result $? "lid cavity runs from its scenario file"
result $([ "$(key "$tmp/A.json" module)" = bsq ]; echo $?) "summary: module bsq"
prec=$("$SPATE" --version | sed -n 's/^boussinesq precision: //p')
result $([ -n "$prec" ] && [ "$(key "$tmp/A.json" precision)" = "$prec" ]; echo $?) \
	"summary: precision $(key "$tmp/A.json" precision), as spate --version says ($prec)"
div=$(key "$tmp/A.json" div_max)
# the solver's tolerance: 1e-8; 1e-4 in a single-precision build, where
# the correction's rounding may pass it by a little (1.25 tol allowed, as
# bsqtest.h's BSQTEST_DIV_OK)
tol=$("$SPATE" "${cav[@]}" --print-params 2>/dev/null | sed -n 's/^tol = //p' | head -n 1)
ncty=double
[ "$prec" = single ] && tol=$(awk -v t="$tol" 'BEGIN { print 1.25 * t }') && ncty=float
result $(awk -v d="$div" -v t="$tol" 'BEGIN { exit !(d != "" && t != "" && d <= t + 0) }'; echo $?) \
	"summary: max |div u| = $div <= tol $tol"
steps=$(key "$tmp/A.json" steps)
rows=$(($(wc -l <"$tmp/A/series.csv") - 1))
result $([ -n "$steps" ] && [ "$rows" -eq "$steps" ]; echo $?) "series.csv: a row per step ($rows, $steps steps)"
result $(awk -F, -v t="$tol" 'NR > 1 && $5 > t + 0 { bad = 1 } END { exit bad }' "$tmp/A/series.csv"; echo $?) \
	"series.csv: max |div u| <= $tol after every step"
np=$(grep -c '^u_along_z,' "$tmp/A/profiles.csv")
result $([ "$np" -eq 24 ]; echo $?) "profiles.csv: u along z at 24 cell centres"
# the lid drags the top layer forward, the return flow runs back below
result $(awk -F, '$1 == "u_along_z" { if ($2 > 0.9) top = $3; if ($2 > 0.2 && $2 < 0.5 && $3 < low) low = $3 }
	END { exit !(top > 0.2 && low < -0.05) }' "$tmp/A/profiles.csv"; echo $?) \
	"profiles.csv: u > 0.2 under the lid, < -0.05 in the return flow"
outs=$(key "$tmp/A.json" outputs)
result $([ "$outs" = 5 ]; echo $?) "summary: 5 snapshots (t = 0, 0.25, ..., 1)"
if [ $nc = yes ]; then
	h=$(ncdump -h "$tmp/A/results.nc")
	ok=0
	for v in "$ncty u(time, z, y, x)" "$ncty w(time, z, y, x)" "$ncty p(time, z, y, x)" \
		"$ncty T(time, z, y, x)" "time = UNLIMITED ; // (5 currently)" "z = 24" "y = 1" "x = 24"; do
		grep -qF "$v" <<<"$h" || { ok=1; echo "     missing in results.nc: $v"; }
	done
	result $ok "results.nc: u, w, p, T on (time, z, y, x), 5 records"
else
	echo "skip results.nc checks (no NetCDF or ncdump)"
fi

# same_as_A DIR: series, profiles, the summary DIR.json and results.nc
# values equal run A's (status 1 naming what differs)
same_as_A() {
	local d=$1 same=0 k v
	cmp -s "$tmp/A/series.csv" "$d/series.csv" || { same=1; echo "     series.csv differs"; }
	cmp -s "$tmp/A/profiles.csv" "$d/profiles.csv" || { same=1; echo "     profiles.csv differs"; }
	for k in steps sim_time kinetic_energy div_max pressure_cycles_total outputs; do
		[ "$(key "$tmp/A.json" $k)" = "$(key "$d.json" $k)" ] || { same=1; echo "     summary $k differs"; }
	done
	if [ $nc = yes ]; then
		for v in u w p T time; do
			cmp -s <(ncdump -v $v "$tmp/A/results.nc" | sed -n '/^data:/,$p') \
				<(ncdump -v $v "$d/results.nc" | sed -n '/^data:/,$p') ||
				{ same=1; echo "     results.nc $v differs"; }
		done
	fi
	return $same
}

# stopped at step 40 with checkpoints, continued (NetCDF or binary format)
for fmt in default bin; do
	env=()
	[ $fmt = bin ] && env=(SPATE_CHECKPOINT=bin)
	d="$tmp/B$fmt"
	env "${env[@]}" "$SPATE" "${cav[@]}" --output.dir="$d" --run.max_steps=40 --checkpoint-every=0.2
	ck=$(ls "$d"/checkpoint.* 2>/dev/null | head -n 1)
	result $([ -n "$ck" ]; echo $?) "$fmt: stopped at step 40 with a checkpoint (${ck##*/})"
	env "${env[@]}" "$SPATE" "${cav[@]}" --output.dir="$d" --restart "$ck" --summary "$d.json"
	result $? "$fmt: continued from the checkpoint"
	same_as_A "$d"
	result $? "$fmt: restart = uninterrupted run, byte for byte"
done

# in slabs ([parallel] subdomains): the same bits as one domain; a run in
# 2 slabs stopped with a checkpoint and continued in 3 equals run A
sd="$tmp/S"
"$SPATE" "${cav[@]}" --output.dir="$sd" --parallel.subdomains=3 --parallel.overlap=compute \
	--summary "$sd.json" && same_as_A "$sd"
result $? "3 slabs, overlap compute: series, profiles, summary, results.nc = one domain"
sd="$tmp/S2"
"$SPATE" "${cav[@]}" --output.dir="$sd" --run.max_steps=40 --checkpoint-every=0.2 \
	--parallel.subdomains=2
ck=$(ls "$sd"/checkpoint.* 2>/dev/null | head -n 1)
"$SPATE" "${cav[@]}" --output.dir="$sd" --restart "$ck" --parallel.subdomains=3 \
	--parallel.overlap=none
result $([ -n "$ck" ] && cmp -s "$tmp/A/series.csv" "$sd/series.csv" &&
	cmp -s "$tmp/A/profiles.csv" "$sd/profiles.csv"; echo $?) \
	"2 slabs stopped with a checkpoint, continued in 3: series and profiles = one domain"

# series.csv continued: with series_interval > 0 the rows of a run stopped
# and continued fall at the steps of the uninterrupted run's; continued from
# the last checkpoint of a run that went on past it (a finished run, or one
# killed), the rows after that checkpoint are not written twice; continued
# in a folder without series.csv, the file starts with its header
ser=(--output.series_interval=0.07 --checkpoint-every=0.3 --output.netcdf=no)
ckpt() { ls "$1"/checkpoint.* 2>/dev/null | head -n 1; }
"$SPATE" "${cav[@]}" "${ser[@]}" --output.dir="$tmp/Q"
"$SPATE" "${cav[@]}" "${ser[@]}" --output.dir="$tmp/Q1" --run.max_steps=40 &&
	"$SPATE" "${cav[@]}" "${ser[@]}" --output.dir="$tmp/Q1" --restart "$(ckpt "$tmp/Q1")"
result $(cmp -s "$tmp/Q/series.csv" "$tmp/Q1/series.csv"; echo $?) \
	"series_interval 0.07: stopped at step 40 and continued: series.csv = uninterrupted run"
cp -r "$tmp/Q" "$tmp/Q2" && mkdir "$tmp/Q3" && cp "$tmp"/Q/checkpoint.* "$tmp/Q3" &&
	"$SPATE" "${cav[@]}" "${ser[@]}" --output.dir="$tmp/Q2" --restart "$(ckpt "$tmp/Q2")" &&
	"$SPATE" "${cav[@]}" "${ser[@]}" --output.dir="$tmp/Q3" --restart "$(ckpt "$tmp/Q3")"
result $(cmp -s "$tmp/Q/series.csv" "$tmp/Q2/series.csv"; echo $?) \
	"a finished run continued from its last checkpoint: series.csv = uninterrupted run"
n=$(($(wc -l <"$tmp/Q3/series.csv") - 1))
result $([ $n -gt 0 ] && head -n 1 "$tmp/Q3/series.csv" | grep -q '^t,dt,step,' &&
	cmp -s <(tail -n $n "$tmp/Q/series.csv") <(tail -n $n "$tmp/Q3/series.csv"); echo $?) \
	"continued in a folder without series.csv: its header, then the uninterrupted run's rows"

# a checkpoint from before [solver] warm_start (no key in its text, no
# p_prev: made here from a binary one of warm_start = previous) is taken:
# continued with previous it equals the uninterrupted run of previous byte
# for byte, with linear (p_prev starting as p) it keeps div u below tol
old_ckpt() { # old_ckpt IN OUT [keep]: the key's line (not with keep) and p_prev cut out of IN
	python3 - "$1" "$2" "${3:-}" <<'EOF'
import struct, sys
b = open(sys.argv[1], 'rb').read()
ver, nnum, narr, z = struct.unpack_from('=4i', b, 8)
(tlen,) = struct.unpack_from('=q', b, 56)
at = 64 + 40 * nnum
text = b[at:at + tlen]
if sys.argv[3] != 'keep':
	text = text.replace(b'\nwarm_start = previous\n', b'\n')
arrs, p = [], at + tlen
for _ in range(narr):
	typ, nd = struct.unpack_from('=2i', b, p + 32)
	dims = struct.unpack_from('=4q', b, p + 40)
	n = 1
	for d in dims[:nd]:
		n *= d
	end = p + 72 + n * (8 if typ == 1 else 4)
	if b[p:p + 32].rstrip(b'\0') != b'p_prev':
		arrs.append(b[p:end])
	p = end
out = b[:8] + struct.pack('=4i', ver, nnum, len(arrs), z) + b[24:56]
out += struct.pack('=q', len(text)) + b[64:at] + text + b''.join(arrs)
open(sys.argv[2], 'wb').write(out)
EOF
}
if command -v python3 >/dev/null; then
	"$SPATE" "${cav[@]}" --output.dir="$tmp/P" --solver.warm_start=previous
	SPATE_CHECKPOINT=bin "$SPATE" "${cav[@]}" --output.dir="$tmp/O" --run.max_steps=40 \
		--checkpoint-every=0.2 --solver.warm_start=previous
	ck=$(ls "$tmp"/O/checkpoint.* 2>/dev/null | head -n 1)
	ok=1
	[ -n "$ck" ] && old_ckpt "$ck" "$tmp/old.ckpt" && ! grep -q warm_start "$tmp/old.ckpt" &&
		SPATE_CHECKPOINT=bin "$SPATE" "${cav[@]}" --output.dir="$tmp/O" \
		--restart "$tmp/old.ckpt" --solver.warm_start=previous &&
		cmp -s "$tmp/P/series.csv" "$tmp/O/series.csv" && ok=0
	result $ok "a checkpoint from before warm_start, continued with previous = uninterrupted run"
	"$SPATE" "${cav[@]}" --output.dir="$tmp/OL" --restart "$tmp/old.ckpt"
	rc=$?
	result $([ $rc = 0 ] && awk -F, -v t="$tol" 'NR > 1 && $5 > t + 0 { bad = 1 } END { exit bad }' \
		"$tmp/OL/series.csv"; echo $?) \
		"the same continued with linear: exit $rc, max |div u| <= $tol after every step"
	# one of linear that lost its p_prev is damaged, not old: refused
	bck=$(ls "$tmp"/Bbin/checkpoint.* | head -n 1)
	old_ckpt "$bck" "$tmp/noprev.ckpt" keep
	"$SPATE" "${cav[@]}" --output.dir="$tmp/NP" --restart "$tmp/noprev.ckpt" 2>"$tmp/err"
	rc=$?
	result $([ $rc -ne 0 ] && grep -qF "p_prev missing" "$tmp/err"; echo $?) \
		"refused: a checkpoint of warm_start = linear without p_prev (exit $rc)"
else
	echo "skip a checkpoint from before warm_start (no python3)"
fi

# refusals
refused() { # refused NAME FRAGMENT ARGS...
	local name=$1 frag=$2
	shift 2
	"$SPATE" "$@" >/dev/null 2>"$tmp/err"
	local rc=$?
	result $([ $rc -ne 0 ] && grep -qF -- "$frag" "$tmp/err"; echo $?) \
		"refused: $name (exit $rc: $(head -c 160 "$tmp/err" | head -n 1))"
}
printf '[physics]\nmodel = boussinesq\nnuu = 0.1\n[run]\nend_time = 1\n' >"$tmp/typo.conf"
refused "a misspelt key" "did you mean [physics] nu" run "$tmp/typo.conf"
refused "a negative Reynolds number" "[physics] re = -5" "${cav[@]}" --physics.re=-5
refused "an unknown set-up" "must be one of none, cavity" "${cav[@]}" --domain.setup=pipe
refused "an unknown wall kind" "[boundary] xm = wall" "${cav[@]}" --boundary.xm=wall
refused "a temperature that is not a number" "[boundary] zm_T = hot" "${cav[@]}" --boundary.zm_T=hot
refused "an odd periodic pair" "periodic" "${cav[@]}" --boundary.xm=periodic
"$SPATE" "${cav[@]}" --output.dir="$tmp/nosum" --summary "$tmp/A.json/d/s.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] && [ ! -e "$tmp/nosum" ] && grep -qF "cannot create it in $tmp/A.json" "$tmp/err"
result $? "refused before the run, nothing written: a --summary below a file \
(exit $rc: $(head -c 160 "$tmp/err"))"
"$SPATE" "${cav[@]}" --run.end_time=0.05 --output.dir="$tmp/insum" \
	--summary "$tmp/insum/d/s.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && [ "$(key "$tmp/insum/d/s.json" module)" = bsq ]
result $? "a --summary in folders still to make: written there (exit $rc: \
$(head -c 160 "$tmp/err"))"
# the model's value is read as the module reads its values, whatever the
# case; a misspelt one is told that boussinesq is one (it was told
# "must be one of shallow_water")
printf '[physics]\nmodel = Boussinesq\n[domain]\nsetup = cavity\nn = 8\n[run]\nend_time = 0.05\n' \
	>"$tmp/model.conf"
"$SPATE" run "$tmp/model.conf" -q --output.dir="$tmp/M" --summary "$tmp/M.json" 2>"$tmp/err"
rc=$?
result $([ $rc = 0 ] && [ "$(key "$tmp/M.json" module)" = bsq ]; echo $?) \
	"model = Boussinesq: run by the Boussinesq module (exit $rc: $(head -c 160 "$tmp/err"))"
sed 's/Boussinesq/bousinesq/' "$tmp/model.conf" >"$tmp/model2.conf"
refused "a misspelt model" "[physics] model = bousinesq: must be shallow_water or boussinesq" \
	run "$tmp/model2.conf"
printf '[physics]\nmodel = boussinesq\n[domain]\nsetup = cavity\n' >"$tmp/norun.conf"
refused "no [run] section" "missing section [run]" run "$tmp/norun.conf"
refused "another model's key" "unknown key of the boussinesq model" "${cav[@]}" --physics.manning=0.03
# a key given where nothing reads it, even at the value the run has anyway
# (bsq_scenario_check.c): refused naming it, its section, the set-up or the
# boundary kind, and what to do; the keys a set-up reads run
refused "ra with setup = cavity" "[physics] ra is read by setup = heated_cavity and \
rayleigh_benard only, not setup = cavity: remove it, or change the set-up" "${cav[@]}" \
	--physics.ra=1e4 --output.dir="$tmp/U"
refused "plates with setup = cavity" "[physics] plates is read by setup = rayleigh_benard only" \
	"${cav[@]}" --physics.plates=no_slip --output.dir="$tmp/U"
refused "re with setup = heated_cavity" "[physics] re is read by setup = cavity, cavity3d and \
taylor_green only, not setup = heated_cavity" run "$scen/bsq_heated_cavity.conf" \
	--physics.re=100 --output.dir="$tmp/U"
printf '[physics]\nmodel = boussinesq\n[domain]\nn = 8\nnx = 8\n[run]\nend_time = 1\n' \
	>"$tmp/none.conf"
refused "n with setup = none" "[domain] n is read by setup = cavity" run "$tmp/none.conf" \
	--output.dir="$tmp/U"
refused "gbeta with thermal = no" "[physics] gbeta is read only while the temperature is \
advanced, and thermal = no (as setup = cavity has it): remove it, or set [physics] thermal = yes" \
	"${cav[@]}" --physics.gbeta=1 --output.dir="$tmp/U"
refused "a tangential velocity on a no-slip wall" "[boundary] xm_w is read only on a moving \
wall (xm = lid), and xm = noslip (as setup = cavity has it): remove it, or set \
[boundary] xm = lid" "${cav[@]}" --boundary.xm_w=1 \
	--output.dir="$tmp/U"
refused "a velocity through the lid" "[boundary] zp_w is the velocity through face zp, which no \
boundary kind reads" "${cav[@]}" --boundary.zp_w=0 \
	--output.dir="$tmp/U"
refused "a temperature on a periodic face" "[boundary] ym_T: face ym is periodic (as setup = \
cavity has it), which has no temperature condition: remove it" "${cav[@]}" --boundary.ym_T=1 \
	--output.dir="$tmp/U"
"$SPATE" "${cav[@]}" --run.max_steps=3 --physics.re=400 --boundary.zp_u=2 --boundary.zp_v=0.5 \
	--physics.thermal=yes --physics.gbeta=1 --physics.kappa=0.1 --boundary.zm_T=1 \
	--output.netcdf=no --output.dir="$tmp/L" --summary "$tmp/L.json" 2>"$tmp/err"
rc=$?
result $([ $rc = 0 ] && [ "$(key "$tmp/L.json" steps)" = 3 ]; echo $?) \
	"cavity with re, zp_u, zp_v, thermal, gbeta, kappa, zm_T: runs (exit $rc: \
$(head -c 160 "$tmp/err"))"
"$SPATE" run "$scen/bsq_rayleigh_benard.conf" --domain.n=8 --physics.plates=free_slip \
	--physics.wavenumber=2 --physics.amplitude=1e-3 --run.max_steps=3 --output.netcdf=no -q \
	--output.dir="$tmp/RBK" --summary "$tmp/RBK.json" 2>"$tmp/err"
rc=$?
result $([ $rc = 0 ] && [ "$(key "$tmp/RBK.json" steps)" = 3 ]; echo $?) \
	"rayleigh_benard with ra, pr, plates, wavenumber, amplitude: runs (exit $rc: \
$(head -c 160 "$tmp/err"))"
refused "no slabs" "[parallel] subdomains = 0" "${cav[@]}" --parallel.subdomains=0
refused "more slabs than planes" "[parallel] subdomains = 30" "${cav[@]}" --parallel.subdomains=30
refused "an unknown overlap" "[parallel] overlap = fast" "${cav[@]}" --parallel.overlap=fast
refused "an unknown transport" "[parallel] transport = ucx" "${cav[@]}" --parallel.transport=ucx
refused "slabs across periodic z" "periodic z runs on one subdomain" run \
	"$scen/bsq_taylor_green.conf" --parallel.subdomains=2 --output.dir="$tmp/tg"
# --device=cuda: the same series and profiles as the CPU run A where a GPU
# is there (CPU vs CUDA round-off is t_bsq_cuda's; here the same bits),
# else refused with a message.
if "$SPATE" "${cav[@]}" --output.dir="$tmp/G" --summary "$tmp/G.json" --device=cuda \
	2>"$tmp/err"; then
	result $([ "$(key "$tmp/G.json" backend)" = cuda ]; echo $?) "--device=cuda: summary: backend cuda"
	result $(cmp -s "$tmp/A/series.csv" "$tmp/G/series.csv" &&
		cmp -s "$tmp/A/profiles.csv" "$tmp/G/profiles.csv"; echo $?) \
		"--device=cuda: series.csv and profiles.csv equal the CPU run's"
	# 3 slabs on the GPU, each slab's kernels on its own stream
	"$SPATE" "${cav[@]}" --output.dir="$tmp/GS" --device=cuda --parallel.subdomains=3 \
		--parallel.overlap=streams
	result $(cmp -s "$tmp/G/series.csv" "$tmp/GS/series.csv" &&
		cmp -s "$tmp/G/profiles.csv" "$tmp/GS/profiles.csv"; echo $?) \
		"--device=cuda, 3 slabs, overlap streams: series.csv and profiles.csv = one GPU domain"
else
	result $(grep -qF "no usable CUDA GPU" "$tmp/err"; echo $?) \
		"--device=cuda without a GPU: refused ($(head -n 1 "$tmp/err"))"
fi
refused "an unknown device" "[run] device = tpu" "${cav[@]}" --device=tpu
"$SPATE" run "$scen/circular_dambreak.conf" --domain.nx=20 --domain.ny=20 --run.max_steps=3 \
	--run.end_time=100 --checkpoint-every=0.01 --output.dir="$tmp/F" --device=cpu -q
fck=$(ls "$tmp"/F/checkpoint.* 2>/dev/null | head -n 1)
bck=$(ls "$tmp"/Bbin/checkpoint.* | head -n 1)
refused "a flood checkpoint for a Boussinesq run" "a checkpoint of the swe module" "${cav[@]}" \
	--output.dir="$tmp/C" --restart "$fck"
refused "a Boussinesq checkpoint for a flood run" "a checkpoint of the bsq module" run \
	"$scen/circular_dambreak.conf" --domain.nx=20 --domain.ny=20 --output.dir="$tmp/D" \
	--device=cpu --restart "$bck"
# Rayleigh-Benard with the grid given cell by cell: a box as deep in y as
# it is long in x, whose pressure solve converges (with the 2D default's thin
# y slab stretched over 48 cells, 40 times finer in y than in x, multigrid
# failed to converge and the run stopped).
"$SPATE" run "$scen/bsq_rayleigh_benard.conf" --domain.nx=48 --domain.ny=48 --domain.nz=24 \
	--run.max_steps=2 --output.netcdf=no --output.dir="$tmp/RB" -q --summary "$tmp/RB.json"
rc=$?
result $([ $rc = 0 ] && [ "$(key "$tmp/RB.json" ny)" = 48 ] &&
	[ "$(key "$tmp/RB.json" ly)" = "$(key "$tmp/RB.json" lx)" ]; echo $?) \
	"rayleigh_benard 48 x 48 x 24: exit $rc, summary ny $(key "$tmp/RB.json" ny), ly = lx"
# Rayleigh-Benard with kappa = 0: the Nusselt number (1 + <w theta> /
# kappa) is infinite; the summary is still JSON (no "inf"), nusselt null.
"$SPATE" run "$scen/bsq_rayleigh_benard.conf" --domain.n=8 --physics.kappa=0 \
	--run.max_steps=3 --output.netcdf=no --output.dir="$tmp/K0" -q --summary "$tmp/K0.json"
rc=$?
json=0
command -v python3 >/dev/null &&
	{ python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$tmp/K0.json" || json=1; }
result $([ $rc = 0 ] && [ $json = 0 ] && [ "$(key "$tmp/K0.json" nusselt)" = null ]; echo $?) \
	"kappa = 0: exit $rc, the summary is JSON, nusselt $(key "$tmp/K0.json" nusselt)"
# The smoother's sweep in one pass over memory (bsq_mg_gsrb.c) against its
# two passes, one a colour (SPATE_BSQ_GS=colours): Rayleigh-Benard 64 x 64
# x 32 (periodic x and y; big enough for the threads' loops), the cube 48^3
# (walls) and the thin lid cavity (periodic y of one cell), 6 steps on 1 and
# 2 threads: series.csv and profiles.csv byte for byte the same.
gsrb=0
for c in "bsq_rayleigh_benard.conf --domain.nx=64 --domain.ny=64 --domain.nz=32" \
	"bsq_cube.conf --domain.n=48" "bsq_cavity.conf --domain.n=32"; do
	read -r -a a <<<"$c"
	for m in colours one; do
		for th in 1 2; do
			OMP_NUM_THREADS=$th SPATE_BSQ_GS=$m "$SPATE" run "$scen/${a[0]}" "${a[@]:1}" \
				--run.max_steps=6 --output.netcdf=no -q --output.dir="$tmp/gs-$m-$th" \
				>/dev/null 2>&1 || gsrb=1
		done
	done
	for d in colours-2 one-1 one-2; do
		cmp -s "$tmp/gs-colours-1/series.csv" "$tmp/gs-$d/series.csv" &&
			cmp -s "$tmp/gs-colours-1/profiles.csv" "$tmp/gs-$d/profiles.csv" || gsrb=1
	done
	[ "$(grep -c . "$tmp/gs-one-2/series.csv")" -eq 7 ] || gsrb=1
	rm -rf "$tmp"/gs-*
done
result $gsrb "red-black sweeps in one pass: the bits of two passes (3 cases, 1 and 2 threads)"
refused "a checkpoint of another grid" "another grid or scenario" "${cav[@]}" --domain.n=16 \
	--output.dir="$tmp/E" --restart "$bck"
refused "a checkpoint of another warm start" "another grid or scenario" "${cav[@]}" \
	--solver.warm_start=previous --output.dir="$tmp/E" --restart "$bck"
# --print-params prints a scenario that reads back: the keys the set-up
# reads, resolved (another set-up's ra, pr, plates, or a wavenumber of 0,
# were printed and refused when read back); read back, it prints the same
# text and runs the same series as the scenario it came from
for f in "$scen"/bsq_*.conf; do
	n=$(basename "$f" .conf)
	o=(--domain.n=8 --run.end_time=0.05 --output.interval=0 -q)
	"$SPATE" run "$f" "${o[@]}" --print-params >"$tmp/$n.pp" 2>"$tmp/err" &&
		"$SPATE" run "$tmp/$n.pp" --print-params >"$tmp/$n.pp2" 2>>"$tmp/err" &&
		cmp -s "$tmp/$n.pp" "$tmp/$n.pp2" &&
		"$SPATE" run "$f" "${o[@]}" --output.dir="$tmp/ppA" 2>>"$tmp/err" &&
		"$SPATE" run "$tmp/$n.pp" -q --output.dir="$tmp/ppB" 2>>"$tmp/err" &&
		cmp -s "$tmp/ppA/series.csv" "$tmp/ppB/series.csv"
	result $? "$n: --print-params reads back, the same text and series ($(head -c 160 "$tmp/err"))"
	rm -rf "$tmp/ppA" "$tmp/ppB"
done
exit $fail
