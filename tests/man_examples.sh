#!/bin/bash
# man_examples.sh: the EXAMPLES of spate(1) run as printed, scaled down.
# Each command of the section (its .nf/.fi blocks, continuation lines
# joined) runs in one folder, in order, so that a later example finds what
# an earlier one wrote (a checkpoint, results.nc, an ensemble); each must
# exit 0 and leave every file or folder it names (-o, --summary,
# --output.dir, --out) behind.  Made small here, nothing else changed:
# runs end at 4 s of simulated time (a restart at 6 s), checkpoints every
# 2 s, an ensemble has 3 members of 300 s; --device=cuda runs on the CPU.
# Not run, each said: a GPU benchmark, a run on two hosts, the tools that
# download data or run the whole Malpasset flood, commands that need
# NetCDF, GDAL, Cairo or mpirun where spate or this machine lacks them.
# Skips (77) without the Malpasset data the examples read.
set -u
: "${SPATE:?}" "${top_srcdir:?}"
man=$top_srcdir/man/spate.1.in
scen=$top_srcdir/scenarios
data=${SPATE_DATA:-$top_srcdir/../shared/data}
if [ ! -r "$data/malpasset/malpasset_dem_10m.asc.gz" ]; then
	echo "SKIP: no Malpasset data in $data (set SPATE_DATA)"
	exit 77
fi
data=$(cd "$data" && pwd)
spate_abs=$(cd "$(dirname "$SPATE")" && pwd)/$(basename "$SPATE")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-manex.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
"$SPATE" --version > "$tmp/version"
has() { grep -q "^$1: yes" "$tmp/version"; }

# The commands: the EXAMPLES section's .nf blocks, "\-" as "-", "\e" at a
# line's end joining the next line.
awk '/^\.SH EXAMPLES/ { on = 1; next } /^\.SH / { on = 0 }
	on && /^\.nf/ { nf = 1; next } on && /^\.fi/ { nf = 0; next }
	on && nf && !/^\.R[SE]/ { print }' "$man" |
	sed 's/\\-/-/g' | sed -e ':a' -e '/\\e$/N; s/\\e\n */ /; ta' > "$tmp/cmds"
total=$(wc -l < "$tmp/cmds")
if [ "$total" -lt 10 ]; then
	echo "FAIL only $total commands found in the EXAMPLES of $man"
	exit 1
fi

n=0 ran=0 fail=0
mkdir "$tmp/work" && cd "$tmp/work" || exit 99
while IFS= read -r line; do
	n=$((n + 1))
	skip=
	case $line in
	tools/*) skip="a tool of the source tree (get_malpasset.sh and validate runs test them)" ;;
	*"--host "*) skip="MPI ranks on two hosts" ;;
	*"spate bench"*--device=cuda*) skip="a GPU benchmark" ;;
	esac
	case $line in mpirun*|mpiexec*)
		command -v mpirun > /dev/null && has MPI || skip=${skip:-"no mpirun, or spate without MPI"}
	esac
	case $line in *results.nc*|*--restart*|*ensemble*|*checkpoint*)
		has NetCDF || skip=${skip:-"spate without NetCDF"}
	esac
	case $line in *.tif*) has GDAL || skip=${skip:-"spate without GDAL"} ;; esac
	case $line in *.png*|*.pdf*) has Cairo || skip=${skip:-"spate without Cairo"} ;; esac
	if [ -n "$skip" ]; then
		echo "skip $line  ($skip)"
		continue
	fi
	# read -a splits the printed words (no quotes or spaces in the examples)
	read -r -a w <<< "$line"
	args=() names=() prev=
	for x in "${w[@]}"; do
		case $x in
		@pkgdatadir@/scenarios/*) x=$scen/${x#@pkgdatadir@/scenarios/} ;;
		*.conf) [ -e "$x" ] || x=$scen/$x ;;
		/path/to/data) x=$data ;;
		--data-dir=/path/to/data) x=--data-dir=$data ;;
		--device=cuda) x=--device=cpu ;;
		--members=*) x=--members=3 ;;
		spate) x=$spate_abs ;;
		esac
		case $prev in -o|--summary) names+=("$x") ;; esac
		prev=$x
		case $x in --output.dir=*|--out=*) names+=("${x#*=}") ;; esac
		args+=("$x")
	done
	case $line in
	*" spate run "*|"spate run "*)
		if [[ $line == *--restart* ]]; then
			args+=(--run.end_time=6)
		else
			args+=(--run.end_time=4 --checkpoint-every=2)
		fi ;;
	*"spate ensemble "*) args+=(--run.end_time=300 --output.interval=100) ;;
	esac
	[[ $line == mpirun* ]] && args=(env OMPI_ALLOW_RUN_AS_ROOT=1 \
		OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${args[@]}")
	[[ $line == *--print-params* ]] && names=()
	ran=$((ran + 1))
	SPATE_DATA=$data "${args[@]}" > "$tmp/out" 2> "$tmp/err" < /dev/null
	rc=$?
	missing=
	for f in "${names[@]}"; do
		[ -s "$f" ] || [ -d "$f" ] || missing="$missing $f"
	done
	if [ $rc -eq 0 ] && [ -z "$missing" ]; then
		echo "ok   $line"
	else
		echo "FAIL $line"
		echo "     exit $rc${missing:+, not written:$missing}; ran: ${args[*]}"
		sed -n '1,6s/^/     | /p' "$tmp/err"
		fail=$((fail + 1))
	fi
done < "$tmp/cmds"
echo "$ran of $total examples run, $fail failed"
[ "$ran" -ge 5 ] || { echo "FAIL only $ran examples could run"; exit 1; }
[ "$fail" -eq 0 ]
