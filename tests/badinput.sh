#!/bin/bash
# badinput.sh: bad scenario files and options must be refused cleanly.
#
# Each case runs "$SPATE run FILE [OPTIONS]" on a file generated in a
# temporary folder and expects exit status 1 (bad input: not 0, not 2, not a
# crash >= 128) and a message on stderr that names the file, the line and the
# key (each case lists the fragments it needs).  A control case first checks
# that the good base file runs.  A few cases give spate map and spate export
# an option without its value.
#
# Environment: SPATE (the program; set by make check).
set -u

if [ -z "${SPATE:-}" ] || [ ! -x "$SPATE" ]; then
	echo "badinput.sh: SPATE is not set to the spate program" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spate-badinput.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0

# The good base file: 9 lines; cases replace line 7 or drop lines.
base() {
	cat <<'EOF'
[domain]
setup = circular_dambreak
nx = 20
ny = 20
[physics]
manning = 0.02
theta = 1.3
[run]
end_time = 1
EOF
}

. "$(dirname "$0")/badinput_common.sh"

# bad FILE-NAME: write stdin to $tmp/FILE-NAME.
bad() {
	cat >"$tmp/$1"
}

base | bad good.conf
expect "control: the base file runs" 0 -- \
	run "$tmp/good.conf" --quiet --no-output --run.end_time=0.5

base | sed '7s/.*/thetta = 1.3/' | bad bad.conf
expect "unknown key" 1 "bad.conf:7" "thetta" -- run "$tmp/bad.conf" --no-output

base | sed '6s/.*/manning = abc/' | bad bad.conf
expect "bad number" 1 "bad.conf:6" "manning" "abc" -- run "$tmp/bad.conf" --no-output

base | sed '6s/.*/manning = 0.03x/' | bad bad.conf
expect "number with trailing junk" 1 "bad.conf:6" "manning" -- run "$tmp/bad.conf" --no-output

base | sed '6s/.*/manning = -0.03/' | bad bad.conf
expect "negative Manning" 1 "bad.conf:6" "manning" -- run "$tmp/bad.conf" --no-output

base | sed '7s/.*/theta = 3/' | bad bad.conf
expect "theta out of [1, 2]" 1 "bad.conf:7" "theta" -- run "$tmp/bad.conf" --no-output

base | sed '5s/.*/[phyiscs]/' | bad bad.conf
expect "unknown section" 1 "bad.conf:6" "phyiscs" -- run "$tmp/bad.conf" --no-output

base | sed '8,9d' | bad norun.conf
expect "missing section [run]" 1 "norun.conf" "[run]" -- run "$tmp/norun.conf" --no-output

# an empty section is there, without its keys: not "missing section"
base | sed '2,4d' | bad emptydomain.conf
expect "empty section [domain]" 1 "emptydomain.conf:1: section [domain] has no keys" \
	"setup, nx, ny and dx" -- run "$tmp/emptydomain.conf" --no-output

{ echo "nx = 20"; base; } | bad nosection.conf
expect "key before any section" 1 "nosection.conf:1" "nx" -- run "$tmp/nosection.conf" --no-output

base | sed '7s/.*/theta 1.3/' | bad syntax.conf
expect "syntax error (no =)" 1 "syntax.conf:7" -- run "$tmp/syntax.conf" --no-output

# "[physics" leaves the keys below it in [domain], where manning is unknown:
# the syntax error on line 5 is reported, not the key on line 6.
base | sed '5s/.*/[physics/' | bad syntax2.conf
expect "syntax error (no ]) before a key it makes unknown" 1 "syntax2.conf:5: syntax error" -- \
	run "$tmp/syntax2.conf" --no-output

# A bad key before a syntax error is the one reported.
base | sed '6s/.*/manning = abc/; 7s/.*/theta 1.3/' | bad keyfirst.conf
expect "bad key (line 6) before a syntax error (line 7)" 1 "keyfirst.conf:6: [physics] manning" \
	-- run "$tmp/keyfirst.conf" --no-output

expect "nonexistent file" 1 "no-such-file.conf" -- run "$tmp/no-such-file.conf" --no-output

mkdir -p "$tmp/folder.conf"
expect "a folder for the scenario (not a missing [domain])" 1 "folder.conf: cannot read it" -- \
	run "$tmp/folder.conf" --no-output

expect "bad override --physics.cfl=2" 1 "spate: command line: [physics] cfl = 2: must be in" -- \
	run "$tmp/good.conf" --no-output --physics.cfl=2

expect "override of an unknown key" 1 "spate: command line: [physics] cfll: unknown key" -- \
	run "$tmp/good.conf" --no-output --physics.cfll=0.4

expect "malformed override" 1 "physics" -- run "$tmp/good.conf" --no-output --physics=0.4

expect "unknown --device" 1 "device" "tpu" -- run "$tmp/good.conf" --no-output --device=tpu

expect "unknown option" 1 "--frobnicate" -- run "$tmp/good.conf" --no-output --frobnicate

expect "two scenario files" 1 "good.conf" -- run "$tmp/good.conf" "$tmp/good.conf"

expect "--restart without its file, before --quiet" 1 "--restart needs a value before --quiet" \
	-- run "$tmp/good.conf" --no-output --restart --quiet

# "--summary --quiet" wrote the summary to a file named --quiet, and was not quiet
n=$((n + 1))
spate_abs=$(readlink -f "$SPATE")
(cd "$tmp" && "$spate_abs" run good.conf --no-output --run.end_time=0.5 --summary --quiet) \
	>"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc -eq 1 ] && [ ! -e "$tmp/--quiet" ] &&
	grep -qF -- "--summary needs a value" "$tmp/err"; then
	echo "ok   --summary without its file, before --quiet: exit 1"
else
	echo "FAIL --summary without its file, before --quiet: exit $rc;" \
		"stderr: $(head -c 300 "$tmp/err")"
	fail=$((fail + 1))
fi

# a --summary that cannot be written is found before the run, which writes
# nothing (it was found after the run, and exited 2)
sumcase() {     # sumcase NAME PATH FRAGMENT
	n=$((n + 1))
	"$SPATE" run "$tmp/good.conf" --run.end_time=0.5 --output.dir="$tmp/sumout" \
		--summary "$2" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ $rc -eq 1 ] && [ ! -e "$tmp/sumout" ] && grep -qF -- "$3" "$tmp/err"; then
		echo "ok   --summary $1: exit 1, nothing written: $(head -n 1 "$tmp/err")"
	else
		echo "FAIL --summary $1: exit $rc, expected 1, no $tmp/sumout and '$3'; stderr: \
$(head -c 300 "$tmp/err")"
		fail=$((fail + 1))
	fi
	rm -rf "$tmp/sumout"
}
sumcase "in a file, not a folder" "$tmp/good.conf/s.json" "Not a directory"
sumcase "below a file, in folders to make" "$tmp/good.conf/a/b/s.json" \
	"--summary $tmp/good.conf/a/b/s.json: cannot create it in $tmp/good.conf: Not a directory"
# a summary in folders that do not exist yet (the output folder, say) is
# written there, its folders made (it was refused before the run)
n=$((n + 1))
"$SPATE" run "$tmp/good.conf" --run.end_time=0.5 --output.dir="$tmp/sumout" \
	--summary "$tmp/sumout/deep/s.json" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
if [ $rc -eq 0 ] && grep -q '"program": "spate ' "$tmp/sumout/deep/s.json" 2>/dev/null; then
	echo "ok   --summary in folders to make: exit 0, written"
else
	echo "FAIL --summary in folders to make: exit $rc, $tmp/sumout/deep/s.json:" \
		"$(head -c 200 "$tmp/sumout/deep/s.json" 2>&1); stderr: $(head -c 300 "$tmp/err")"
	fail=$((fail + 1))
fi
rm -rf "$tmp/sumout"
sumcase "that is a folder" "$tmp" "--summary $tmp: cannot write it: Is a directory"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
	sumcase "in a read-only folder" "$tmp/ro/s.json" "cannot create it in $tmp/ro"
	sumcase "in folders to make in a read-only one" "$tmp/ro/a/s.json" \
		"cannot create it in $tmp/ro: Permission denied"
else
	echo "skip --summary in a read-only folder: root writes there"
fi

# map and export: an option without its value ("-o --quiet" wrote a map named --quiet)
for c in "map none.nc -o --quiet" "map none.nc --var -q -o x.tif" "map none.nc -o" \
	"export none.nc --out --quiet" "export none.nc --depth-threshold --quiet"; do
	read -r -a args <<<"$c"
	n=$((n + 1))
	(cd "$tmp" && "$spate_abs" "${args[@]}") >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	want="${args[2]} needs a value"
	[ "${args[3]:-}" ] && want="$want before ${args[3]}"
	if [ $rc -eq 1 ] && [ ! -e "$tmp/--quiet" ] && grep -qF -- "$want" "$tmp/err"; then
		echo "ok   spate $c: exit 1: $want"
	else
		echo "FAIL spate $c: exit $rc, expected 1 and '$want'; stderr: $(head -c 300 "$tmp/err")"
		fail=$((fail + 1))
	fi
done

expect "--device cpu, not --device=cpu" 1 "--device cpu: write --device=cpu" -- \
	run "$tmp/good.conf" --no-output --device cpu

expect "--run.end_time 1 before the scenario" 1 "--run.end_time 1: write --run.end_time=1" -- \
	run --run.end_time 1 "$tmp/good.conf" --no-output

expect "no scenario file" 1 "scenario" -- run --no-output

expect "unknown command" 1 "frobnicate" -- frobnicate

echo "badinput.sh: $n cases, $fail failed"
[ "$fail" -eq 0 ]
